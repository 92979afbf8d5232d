/**
 * Forward-mode AD on WebGPU: a few ops' tangents (pointwise, matmul, softmax, a view and an
 * in-place op) equal the CPU's, in float32 (autograd Note [Forward-mode AD]; the exhaustive
 * sweep is CPU's, packages/testing/test/forward-ad-ops.test.ts).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const { forwardAd: fa } = torch.autograd;

const f = (x: Tensor, w: Tensor) => {
  const y = x.matmul(w).tanh().softmax(-1).mul(x.t().index('0:2').sum(0, { keepdim: true }).exp());
  y.index(0).mul_(2);
  return y;
};

async function tangent(device: 'cpu' | 'webgpu'): Promise<number[]> {
  const x = torch.linspace(-1, 1, 6, { dtype: 'float32' }).reshape([2, 3]).to(device);
  const w = torch.linspace(0.5, -0.5, 6, { dtype: 'float32' }).reshape([3, 2]).to(device);
  const tx = torch.linspace(0.2, 0.9, 6, { dtype: 'float32' }).reshape([2, 3]).to(device);
  const tw = torch.linspace(-0.3, 0.3, 6, { dtype: 'float32' }).reshape([3, 2]).to(device);
  const t = fa.dualLevel(() => fa.unpackDual(f(fa.makeDual(x, tx), fa.makeDual(w, tw))).tangent!.clone());
  expect(String(t.device)).toBe(device === 'cpu' ? 'cpu' : 'webgpu:0');
  return Array.from((await t.data()) as Float32Array);
}

const ready = await torch.webgpu.init();
if (ready) {
  describe('forward AD on webgpu', () => {
    it('gives the tangents the CPU gives (float32)', async () => {
      const cpu = await tangent('cpu');
      const gpu = await tangent('webgpu');
      expect(cpu.some((v) => v !== 0)).toBe(true);
      gpu.forEach((v, i) => {
        if (!(Math.abs(v - cpu[i]) <= 1e-5 * Math.abs(cpu[i]) + 1e-6)) expect.fail(`[${i}]: ${v} vs CPU ${cpu[i]}`);
      });
    });
  });
} else {
  it('has no WebGPU adapter here, the one reason this suite may not run', () => {
    expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
  });
}
