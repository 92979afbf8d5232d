/**
 * F.scaledDotProductAttention on WebGPU (the math backend's composition runs there too):
 * float32 values and gradients against the float64 reference (scripts/goldens/nn_sdpa.py).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_sdpa.json';

const F = torch.nn.functional;
interface G {
  shape: number[];
  values: number[];
}
const gpu = (g: G) => torch.tensor(g.values, { dtype: 'float32' }).reshape(g.shape).to('webgpu');

async function expectClose(x: torch.Tensor, g: G, what: string, tol: number): Promise<void> {
  expect(x.shape, what).toEqual(g.shape);
  const v = await x.data();
  g.values.forEach((e, i) => {
    if (!(Math.abs(Number(v[i]) - e) <= tol * (1 + Math.abs(e)))) expect.fail(`${what}[${i}]: ${v[i]} vs reference ${e}`);
  });
}

const ready = await torch.webgpu.init();
if (!ready) console.warn('[nn-sdpa-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)('scaled_dot_product_attention on webgpu', () => {
  it('causal, boolean-masked (a query seeing no key) and grouped-query attention: values and gradients', async () => {
    const mask = torch.tensor(golden.bool_mask).to('webgpu');
    const cases: [string, G, G, Record<string, unknown>][] = [
      ['causal', golden.k, golden.v, { isCausal: true }],
      ['bool mask', golden.k, golden.v, { attnMask: mask }],
      ['gqa', golden.k2, golden.v2, { isCausal: true, enableGqa: true }],
    ];
    for (const [name, kg, vg, opts] of cases) {
      const c = golden.cases[name as keyof typeof golden.cases] as Record<string, G>;
      const q = gpu(golden.q).requiresGrad_();
      const k = gpu(kg).requiresGrad_();
      const v = gpu(vg).requiresGrad_();
      const y = F.scaledDotProductAttention(q, k, v, opts);
      expect(y.device.type).toBe('webgpu');
      await expectClose(y, c.out, name, 1e-5);
      y.backward(gpu(golden.grad_output));
      await expectClose(q.grad!, c.grad_q, `${name} grad q`, 1e-4);
      await expectClose(k.grad!, c.grad_k, `${name} grad k`, 1e-4);
      await expectClose(v.grad!, c.grad_v, `${name} grad v`, 1e-4);
    }
  });
});
