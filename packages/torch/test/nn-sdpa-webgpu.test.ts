/**
 * F.scaledDotProductAttention on WebGPU (the math backend's composition runs there too):
 * float32 values and gradients against the float64 reference (scripts/goldens/nn_sdpa.py).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { expectCloseTo, onWebgpu, type Golden } from './webgpu-goldens';
import golden from './goldens/nn_sdpa.json';

const F = torch.nn.functional;

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-sdpa-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)('scaled_dot_product_attention on webgpu', () => {
  it('causal, boolean-masked (a query seeing no key) and grouped-query attention: values and gradients', async () => {
    const mask = torch.tensor(golden.bool_mask).to('webgpu');
    const cases: [string, Golden, Golden, Record<string, unknown>][] = [
      ['causal', golden.k, golden.v, { isCausal: true }],
      ['bool mask', golden.k, golden.v, { attnMask: mask }],
      ['gqa', golden.k2, golden.v2, { isCausal: true, enableGqa: true }],
    ];
    for (const [name, kg, vg, opts] of cases) {
      const c = golden.cases[name as keyof typeof golden.cases] as Record<string, Golden>;
      const q = onWebgpu(golden.q).requiresGrad_();
      const k = onWebgpu(kg).requiresGrad_();
      const v = onWebgpu(vg).requiresGrad_();
      const y = F.scaledDotProductAttention(q, k, v, opts);
      expect(y.device.type).toBe('webgpu');
      await expectCloseTo(y, c.out, name, 1e-5);
      y.backward(onWebgpu(golden.grad_output));
      await expectCloseTo(q.grad!, c.grad_q, `${name} grad q`, 1e-4);
      await expectCloseTo(k.grad!, c.grad_k, `${name} grad k`, 1e-4);
      await expectCloseTo(v.grad!, c.grad_v, `${name} grad v`, 1e-4);
    }
  });
});
