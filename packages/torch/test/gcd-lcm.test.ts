/**
 * torch.gcd / torch.lcm against PyTorch 1.13 (scripts/goldens/gcd_lcm.py): int8 with INT_MIN
 * (|INT_MIN| wraps, so a gcd can be negative, as 1.13's) and wrapping products, uint8, int32
 * and int64 extremes and consecutive Fibonacci numbers (Euclid's worst case), zeros,
 * broadcasting with promotion; in-place forms; errors. Values are compared as exact integers.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/gcd_lcm.json';
import { thrown } from './helpers';

interface G {
  shape: number[];
  dtype: string;
  values: string[];
}
const make = (g: G) =>
  g.dtype === 'int64' ? torch.tensor(g.values.map((v) => BigInt(v)), { dtype: 'int64' }).reshape(g.shape) : torch.tensor(g.values.map(Number), { dtype: g.dtype as torch.DType }).reshape(g.shape);
const exact = (t: torch.Tensor, g: G, what: string) => {
  expect(t.dtype, what).toBe(g.dtype);
  expect(t.shape, what).toEqual(g.shape);
  expect(Array.from((t.dtype === 'int64' ? t.dataSync({ bigint: true }) : t.dataSync()) as ArrayLike<number | bigint>, (v) => String(v)), what).toEqual(g.values);
};

describe('torch.gcd and torch.lcm', () => {
  it("exact results as 1.13's", () => {
    for (const [key, c] of Object.entries(golden.cases as Record<string, { a: G; b: G; gcd: G; lcm: G }>)) {
      exact(torch.gcd(make(c.a), make(c.b)), c.gcd, `${key} gcd`);
      exact(torch.lcm(make(c.a), make(c.b)), c.lcm, `${key} lcm`);
    }
    const c = golden.cases.int32 as { a: G; b: G; gcd: G; lcm: G };
    const x = make(c.a);
    expect(x.gcd_(make(c.b))).toBe(x);
    exact(x, c.gcd, 'gcd_');
    const y = make(c.a);
    y.lcm_(make(c.b));
    exact(y, c.lcm, 'lcm_');
  });

  it('errors as 1.13', () => {
    expect(thrown(() => torch.gcd(torch.tensor([1.5]), torch.tensor([2.0]))).message).toContain(golden.errors.float);
    expect(thrown(() => torch.lcm(torch.tensor([true]), torch.tensor([true]))).message).toContain(golden.errors.bool);
  });
});
