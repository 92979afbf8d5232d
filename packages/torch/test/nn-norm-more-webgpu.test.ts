/**
 * Instance norm, local response norm, power-average pooling and the padding layers on WebGPU
 * (compositions of ops every backend has): float32 values and gradients against the float64
 * goldens of scripts/goldens/nn_norm_more.py.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseTo, onWebgpu, type Golden } from './webgpu-goldens';
import golden from './goldens/nn_norm_more.json';

const { nn } = torch;
const F = nn.functional;
interface GradCase {
  out: Golden;
  grads: Golden[];
}

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-norm-more-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

/** make(...inputs) on WebGPU and the gradients of sum(out * ramp), as the script's grad_case. */
async function checkGrads(what: string, c: GradCase, make: (...xs: torch.Tensor[]) => torch.Tensor, ...inputs: Golden[]): Promise<void> {
  const leaves = inputs.map((g) => onWebgpu(g).requiresGrad_());
  const y = make(...leaves);
  expect(y.device.type, what).toBe('webgpu');
  await expectCloseTo(y, c.out, `${what} out`, 2e-5);
  const w = torch.linspace(-1, 1.5, y.numel()).view(y.shape).to('webgpu');
  y.mul(w).sum().backward();
  for (let i = 0; i < leaves.length; i++) await expectCloseTo(leaves[i].grad!, c.grads[i], `${what} grad ${i}`, 1e-4);
}

describe.skipIf(!ready)('norm, pooling and padding layers on webgpu', () => {
  it('instance norm (running statistics too), local response norm, lp pooling, padding', async () => {
    const inst = golden.instance as Record<string, GradCase>;
    await checkGrads('instance affine 4d', inst['affine 4d'], (x, w, b) => F.instanceNorm(x, { weight: w, bias: b, eps: 1e-3 }), golden.x4, golden.w3, golden.b3);
    await checkGrads('instance 5d', inst['5d'], (x) => F.instanceNorm(x), golden.x5);
    const [rm, rv] = [onWebgpu(golden.rm), onWebgpu(golden.rv)];
    F.instanceNorm(onWebgpu(golden.x4), rm, rv, { momentum: 0.3 });
    await expectCloseTo(rm, golden.running.mean, 'running mean', 2e-6);
    await expectCloseTo(rv, golden.running.var, 'running var', 2e-6);
    const lrn = golden.lrn as Record<string, GradCase>;
    await checkGrads('lrn 3d', lrn['3d size 2'], (x) => F.localResponseNorm(x, 2), golden.x3);
    await checkGrads('lrn 4d', lrn['4d size 3'], (x) => F.localResponseNorm(x, 3, { alpha: 0.5, beta: 0.6, k: 2 }), golden.x4);
    await checkGrads('lrn 5d', lrn['5d size 4'], (x) => F.localResponseNorm(x, 4, { alpha: 1e-2 }), golden.x5);
    const lp = golden.lp as Record<string, GradCase>;
    await checkGrads('lp 1d', lp['1d p2'], (x) => F.lpPool1d(x, 2, 2), golden.x3);
    await checkGrads('lp 2d', lp['2d p2'], (x) => F.lpPool2d(x, 2, 2), golden.x4);
    const pads = golden.pads as Record<string, GradCase>;
    await checkGrads('ReflectionPad2d', pads.ReflectionPad2d, (x) => new nn.ReflectionPad2d(1).call(x) as torch.Tensor, golden.x4);
    await checkGrads('ReplicationPad3d', pads.ReplicationPad3d, (x) => new nn.ReplicationPad3d(1).call(x) as torch.Tensor, golden.x5);
    await checkGrads('ConstantPad2d', pads.ConstantPad2d, (x) => new nn.ConstantPad2d([1, 0, 2, 1], -1.5).call(x) as torch.Tensor, golden.x4);
  });
});
