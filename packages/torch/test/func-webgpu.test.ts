/**
 * torch.func on WebGPU: a few representative cases, CPU as the oracle (the exhaustive checks
 * are func.test.ts on the CPU). vmap of a matmul + softmax, jacrev, and per-sample gradients
 * with vmap(grad) of a small linear model, all float32 on 'webgpu', against the same
 * computation on the CPU.
 */
import { describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

vi.setConfig({ testTimeout: 60_000 });
const { vmap, grad, jacrev } = torch.func;
const F = torch.nn.functional;

async function expectClose(gpu: Tensor, cpu: Tensor): Promise<void> {
  expect(String(gpu.device)).toBe('webgpu:0');
  expect(gpu.shape).toEqual(cpu.shape);
  const got = Array.from((await gpu.data()) as Float32Array);
  const want = Array.from(cpu.contiguous().dataSync() as Float32Array);
  got.forEach((x, j) => {
    if (!(Math.abs(x - want[j]!) <= 1e-5 * Math.abs(want[j]!) + 1e-5)) expect.fail(`[${j}]: ${x} on webgpu vs ${want[j]} on the CPU`);
  });
}

const ready = await torch.webgpu.init();
if (ready) {
  describe('torch.func on webgpu equals the CPU', () => {
    it('vmap, jacrev and vmap(grad) per-sample gradients', async () => {
      const X = torch.randn([5, 4]);
      const W = torch.randn([4, 3]);
      const b = torch.randn([3]);
      const ys = torch.tensor([0, 2, 1, 1, 0]);
      const f = (r: Tensor, w: Tensor) => torch.softmax(r.matmul(w), 0);
      const on = (...ts: Tensor[]) => ts.map((t) => t.to('webgpu'));
      const [Xg, Wg, bg, yg] = on(X, W, b, ys);
      await expectClose(vmap(f, { inDims: [0, null] })(Xg!, Wg!), vmap(f, { inDims: [0, null] })(X, W));
      const j = (r: Tensor) => r.matmul(W).tanh();
      const jg = (r: Tensor) => r.matmul(Wg!).tanh();
      await expectClose(jacrev(jg)(Xg!.select(0, 0)), jacrev(j)(X.select(0, 0)));
      const loss = (p: { w: Tensor; b: Tensor }, x: Tensor, y: Tensor) => F.crossEntropy(F.linear(x.unsqueeze(0), p.w.t(), p.b), y.unsqueeze(0));
      const per = vmap(grad(loss), { inDims: [null, 0, 0] });
      const cpu = per({ w: W, b }, X, ys) as { w: Tensor; b: Tensor };
      const gpu = per({ w: Wg!, b: bg! }, Xg!, yg!) as { w: Tensor; b: Tensor };
      await expectClose(gpu.w, cpu.w);
      await expectClose(gpu.b, cpu.b);
    });
  });
} else {
  console.warn('[func-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
  it('has no WebGPU adapter here, the one reason this suite may not run', () => {
    expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
  });
}
