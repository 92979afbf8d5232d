/**
 * numpy-ops.test.ts's cases on WebGPU (the same compositions run there) in float32: outputs
 * and gradients against PyTorch 1.13's float64 values (scripts/goldens/numpy_ops.py).
 * float_power computes in float64, which WebGPU has not; kthvalue's index among ties is the
 * stable sort's there (the CPU's is PyTorch's quickselect), so only its values are compared.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/numpy_ops.json';
import { num, numpyCases, type G } from './numpy-ops-cases';

const SKIP = new Set(['float_power']);
const ready = await torch.webgpu.init();
if (!ready) console.warn('[numpy-ops-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

const gpu = (g: G) => {
  const dtype = (g.dtype === 'float64' ? 'float32' : g.dtype) as torch.DType;
  return torch.tensor(g.values.map(num), { dtype }).reshape(g.shape).to('webgpu');
};

async function expectClose(x: torch.Tensor, g: G, what: string, tol: number): Promise<void> {
  expect(x.shape, what).toEqual(g.shape);
  const v = Array.from(await x.data(), Number);
  g.values.forEach((e0, i) => {
    const e = num(e0);
    const ok = Number.isNaN(e) ? Number.isNaN(v[i]) : v[i] === e || Math.abs(v[i] - e) <= tol * (1 + Math.abs(e));
    if (!ok) expect.fail(`${what}[${i}]: ${v[i]} vs PyTorch ${e}`);
  });
}

describe.skipIf(!ready)("torch's NumPy-style functions on webgpu", () => {
  it('outputs and gradients in float32', async () => {
    const F = numpyCases(gpu(golden.inputs.AW as G), 'webgpu');
    const cases = golden.cases as unknown as Record<string, { inputs: string[]; outs: G[]; grads: (G | null)[] }>;
    for (const [name, f] of Object.entries(F)) {
      if (SKIP.has(name)) continue;
      const c = cases[name];
      const args = c.inputs.map((n) => gpu((golden.inputs as Record<string, G>)[n]).requiresGrad_());
      const r = f(...args);
      const outs = Array.isArray(r) ? r : [r];
      for (let i = 0; i < outs.length; i++) {
        if (name.startsWith('kthvalue') && i === 1) continue;
        expect(outs[i].device.type, name).toBe('webgpu');
        await expectClose(outs[i], c.outs[i], `${name} out ${i}`, 2e-5);
      }
      let loss: torch.Tensor | null = null;
      for (const o of outs) {
        if (!o.requiresGrad) continue;
        const term = o.mul(torch.arange(o.numel(), { dtype: 'float32', device: 'webgpu' }).view(o.shape).div(10)).sum();
        loss = loss === null ? term : loss.add(term);
      }
      loss?.backward();
      for (let i = 0; i < args.length; i++) {
        const g = c.grads[i];
        // (the tie-heavy kthvalue case's gradient goes to the tied element its index names)
        if (g === null || name === 'logaddexp inf' || name === 'kthvalue' || (name === 'addmv beta0' && i === 0)) continue;
        expect(args[i].grad, `${name} grad ${i}`).not.toBe(null);
        await expectClose(args[i].grad!, g, `${name} grad ${i}`, 1e-4);
      }
    }
  });
});
