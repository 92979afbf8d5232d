/**
 * Instance norm, local response norm, power-average pooling and the padding layers on WebGPU
 * (compositions of ops every backend has): float32 values and gradients against the float64
 * goldens of scripts/goldens/nn_norm_more.py.
 */
import { describe, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { checkRampGradsWebgpu, expectCloseTo, onWebgpu, type RampGradCase } from './webgpu-goldens';
import golden from './goldens/nn_norm_more.json';

const { nn } = torch;
const F = nn.functional;

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-norm-more-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)('norm, pooling and padding layers on webgpu', () => {
  it('instance norm (running statistics too), local response norm, lp pooling, padding', async () => {
    const inst = golden.instance as Record<string, RampGradCase>;
    await checkRampGradsWebgpu('instance affine 4d', inst['affine 4d'], (x, w, b) => F.instanceNorm(x, { weight: w, bias: b, eps: 1e-3 }), golden.x4, golden.w3, golden.b3);
    await checkRampGradsWebgpu('instance 5d', inst['5d'], (x) => F.instanceNorm(x), golden.x5);
    const [rm, rv] = [onWebgpu(golden.rm), onWebgpu(golden.rv)];
    F.instanceNorm(onWebgpu(golden.x4), rm, rv, { momentum: 0.3 });
    await expectCloseTo(rm, golden.running.mean, 'running mean', 2e-6);
    await expectCloseTo(rv, golden.running.var, 'running var', 2e-6);
    const lrn = golden.lrn as Record<string, RampGradCase>;
    await checkRampGradsWebgpu('lrn 3d', lrn['3d size 2'], (x) => F.localResponseNorm(x, 2), golden.x3);
    await checkRampGradsWebgpu('lrn 4d', lrn['4d size 3'], (x) => F.localResponseNorm(x, 3, { alpha: 0.5, beta: 0.6, k: 2 }), golden.x4);
    await checkRampGradsWebgpu('lrn 5d', lrn['5d size 4'], (x) => F.localResponseNorm(x, 4, { alpha: 1e-2 }), golden.x5);
    const lp = golden.lp as Record<string, RampGradCase>;
    await checkRampGradsWebgpu('lp 1d', lp['1d p2'], (x) => F.lpPool1d(x, 2, 2), golden.x3);
    await checkRampGradsWebgpu('lp 2d', lp['2d p2'], (x) => F.lpPool2d(x, 2, 2), golden.x4);
    const pads = golden.pads as Record<string, RampGradCase>;
    await checkRampGradsWebgpu('ReflectionPad2d', pads.ReflectionPad2d, (x) => new nn.ReflectionPad2d(1).call(x) as torch.Tensor, golden.x4);
    await checkRampGradsWebgpu('ReplicationPad3d', pads.ReplicationPad3d, (x) => new nn.ReplicationPad3d(1).call(x) as torch.Tensor, golden.x5);
    await checkRampGradsWebgpu('ConstantPad2d', pads.ConstantPad2d, (x) => new nn.ConstantPad2d([1, 0, 2, 1], -1.5).call(x) as torch.Tensor, golden.x4);
  });
});
