/**
 * torch.frexp against PyTorch 1.13 (scripts/goldens/frexp.py): float32 (zeros, infinities,
 * NaN, subnormals, values beside powers of two and the range's ends), float64 extremes,
 * float16; the named result; the mantissa's gradient; the integer-dtype error.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/frexp.json';
import { thrown } from './helpers';

interface G {
  shape: number[];
  dtype: string;
  values: (number | string)[];
}
const num = (v: number | string) => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : (v as number));
const make = (g: G) => torch.tensor(g.values.map(num), { dtype: g.dtype as torch.DType }).reshape(g.shape);
const same = (t: torch.Tensor, g: G, what: string) => {
  expect(t.dtype, what).toBe(g.dtype);
  const got = Array.from(t.to(t.dtype === 'int32' ? 'int32' : 'float64').dataSync() as ArrayLike<number>);
  g.values.map(num).forEach((w, i) => {
    if (!(Number.isNaN(w) ? Number.isNaN(got[i]) : Object.is(got[i], w))) expect.fail(`${what}[${i}]: ${got[i]} vs ${w}`);
  });
};

describe('torch.frexp', () => {
  it("mantissa and exponent bit for bit as 1.13's, named fields, the method form", () => {
    for (const [key, c] of Object.entries(golden.cases as Record<string, { x: G; mantissa: G; exponent: G }>)) {
      const r = torch.frexp(make(c.x));
      same(r[0], c.mantissa, `${key} mantissa`);
      same(r[1], c.exponent, `${key} exponent`);
      expect(r.mantissa).toBe(r[0]);
      expect(r.exponent).toBe(r[1]);
    }
    const [m, e] = torch.tensor([12]).float().frexp();
    expect([m.item(), e.item()]).toEqual([0.75, 4]);
  });

  it("the mantissa's gradient is 1 / 2^exponent; integers are refused", () => {
    const x = make(golden.grad_x as G).requiresGrad_();
    torch.frexp(x)[0].sum().backward();
    same(x.grad!, golden.grad as G, 'grad');
    expect(thrown(() => torch.frexp(torch.tensor([1, 2]))).message).toContain(golden.error);
  });
});
