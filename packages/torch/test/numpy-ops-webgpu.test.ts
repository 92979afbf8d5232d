/**
 * numpy-ops.test.ts's cases on WebGPU (the same compositions run there) in float32: outputs
 * and gradients against PyTorch 1.13's float64 values (scripts/goldens/numpy_ops.py).
 * float_power computes in float64, which WebGPU has not; kthvalue's index among ties is the
 * stable sort's there (the CPU's is PyTorch's quickselect), so only its values are compared.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseTo, onWebgpu } from './webgpu-goldens';
import golden from './goldens/numpy_ops.json';
import { numpyCases, type G } from './numpy-ops-cases';

const SKIP = new Set(['float_power']);
const ready = await torch.webgpu.init();
if (!ready) console.warn('[numpy-ops-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)("torch's NumPy-style functions on webgpu", () => {
  it('outputs and gradients in float32', async () => {
    const F = numpyCases(onWebgpu(golden.inputs.AW as G), 'webgpu');
    const cases = golden.cases as unknown as Record<string, { inputs: string[]; outs: G[]; grads: (G | null)[] }>;
    for (const [name, f] of Object.entries(F)) {
      if (SKIP.has(name)) continue;
      const c = cases[name];
      const args = c.inputs.map((n) => onWebgpu((golden.inputs as Record<string, G>)[n]).requiresGrad_());
      const r = f(...args);
      const outs = Array.isArray(r) ? r : [r];
      for (let i = 0; i < outs.length; i++) {
        if (name.startsWith('kthvalue') && i === 1) continue;
        expect(outs[i].device.type, name).toBe('webgpu');
        await expectCloseTo(outs[i], c.outs[i], `${name} out ${i}`, 2e-5);
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
        await expectCloseTo(args[i].grad!, g, `${name} grad ${i}`, 1e-4);
      }
    }
  });
});
