/**
 * F.scaledDotProductAttention (Note [scaled_dot_product_attention]) against its math
 * backend's formula written out with PyTorch 1.13 ops in float64 (scripts/goldens/nn_sdpa.py;
 * 1.13 has no SDPA): no mask, boolean and float masks (a query that sees no key), causal with
 * L != S, an explicit and a negative scale, grouped-query heads; values and the gradients of
 * query, key, value and a float mask. Also a float32 run, errors, and dropout's scaling.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_sdpa.json';
import { thrown } from './helpers';

const F = torch.nn.functional;
interface G {
  shape: number[];
  values: number[];
}
const t = (g: G, dtype: torch.DType = 'float64') => torch.tensor(g.values, { dtype }).reshape(g.shape);

function expectG(x: torch.Tensor, g: G, what: string, tol: number): void {
  expect(x.shape, what).toEqual(g.shape);
  const v = x.dataSync() as Float64Array;
  g.values.forEach((e, i) => {
    if (!(Math.abs(v[i] - e) <= tol * (1 + Math.abs(e)))) expect.fail(`${what}[${i}]: ${v[i]} vs reference ${e}`);
  });
}

type Opts = { attnMask?: torch.Tensor; isCausal?: boolean; scale?: number; enableGqa?: boolean };

describe('F.scaledDotProductAttention', () => {
  const boolMask = torch.tensor(golden.bool_mask);
  const makers: Record<string, () => [torch.Tensor, torch.Tensor, Opts]> = {
    plain: () => [t(golden.k), t(golden.v), {}],
    'bool mask': () => [t(golden.k), t(golden.v), { attnMask: boolMask }],
    'float mask': () => [t(golden.k), t(golden.v), { attnMask: t(golden.float_mask).requiresGrad_() }],
    causal: () => [t(golden.k), t(golden.v), { isCausal: true }],
    scale: () => [t(golden.k), t(golden.v), { scale: 0.3 }],
    'negative scale': () => [t(golden.k), t(golden.v), { scale: -0.5 }],
    gqa: () => [t(golden.k2), t(golden.v2), { enableGqa: true, isCausal: true }],
  };

  it('values and gradients as the math backend computes them', () => {
    expect(Object.keys(makers).sort()).toEqual(Object.keys(golden.cases).sort());
    for (const [name, make] of Object.entries(makers)) {
      const c = golden.cases[name as keyof typeof golden.cases] as Record<string, G>;
      const q = t(golden.q).requiresGrad_();
      const [k0, v0, opts] = make();
      const k = k0.requiresGrad_();
      const v = v0.requiresGrad_();
      const y = F.scaledDotProductAttention(q, k, v, opts);
      expectG(y, c.out, name, 1e-12);
      y.backward(t(golden.grad_output));
      expectG(q.grad!, c.grad_q, `${name} grad q`, 1e-11);
      expectG(k.grad!, c.grad_k, `${name} grad k`, 1e-11);
      expectG(v.grad!, c.grad_v, `${name} grad v`, 1e-11);
      if (c.grad_mask) expectG(opts.attnMask!.grad!, c.grad_mask, `${name} grad mask`, 1e-11);
    }
  });

  it('a query that sees no key gets zeros, with no NaN in any gradient', () => {
    const q = t(golden.q).requiresGrad_();
    const y = F.scaledDotProductAttention(q, t(golden.k), t(golden.v), { attnMask: boolMask });
    expect(y.select(2, 1).abs().max().item()).toBe(0);
    y.sum().backward();
    expect(q.grad!.isnan().any().item()).toBe(false);
  });

  it('float32 inputs compute in float32, close to the float64 reference', () => {
    const y = F.scaledDotProductAttention(t(golden.q, 'float32'), t(golden.k, 'float32'), t(golden.v, 'float32'), { isCausal: true });
    expect(y.dtype).toBe('float32');
    const ref = golden.cases.causal.out.values;
    const v = y.dataSync() as Float32Array;
    ref.forEach((e, i) => expect(Math.abs(v[i] - e)).toBeLessThan(1e-5 * (1 + Math.abs(e))));
  });

  it('dropout scales the kept weights by 1 / (1 - p); p = 1 drops everything', () => {
    const q = t(golden.q);
    torch.manualSeed(0);
    const all = F.scaledDotProductAttention(q, t(golden.k), t(golden.v), { dropoutP: 1 });
    expect(all.abs().max().item()).toBe(0);
    const ones = torch.ones([1, 1, 3, 4], { dtype: 'float64' });
    torch.manualSeed(1);
    const y = F.scaledDotProductAttention(ones, ones, torch.ones([1, 1, 3, 2], { dtype: 'float64' }), { dropoutP: 0.5 });
    // uniform weights 1/3 each, kept ones scaled to 2/3: each output is (kept count) * 2 / 3
    for (const x of y.flatten().tolist() as number[]) expect(Number.isInteger(Math.round(x * 1.5)) && Math.abs(x * 1.5 - Math.round(x * 1.5)) < 1e-12).toBe(true);
  });

  it("PyTorch's errors", () => {
    const q = t(golden.q);
    expect(thrown(() => F.scaledDotProductAttention(q, q, q, { attnMask: boolMask, isCausal: true })).message).toContain(
      'Explicit attn_mask should not be set when is_causal=True',
    );
    expect(thrown(() => F.scaledDotProductAttention(q, q.float(), q)).message).toContain('Expected query, key, and value to have the same dtype');
  });
});
