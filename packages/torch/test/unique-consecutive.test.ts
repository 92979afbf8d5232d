/**
 * torch.uniqueConsecutive against PyTorch 1.13 (scripts/goldens/unique_consecutive.py):
 * flattened and along a dim, NaN runs (each NaN kept), 0-d, empty and bool inputs; values,
 * inverse and counts, and the return forms the flags pick.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/unique_consecutive.json';

interface G {
  shape: number[];
  dtype: string;
  values: (number | boolean | string)[];
}
const num = (v: number | boolean | string) => (v === 'nan' ? NaN : typeof v === 'boolean' ? v : Number(v));
const make = (g: G) => torch.tensor(g.values.map(num) as number[], { dtype: g.dtype as torch.DType }).reshape(g.shape);
const same = (t: torch.Tensor, g: G, what: string) => {
  expect(t.shape, what).toEqual(g.shape);
  expect(t.dtype, what).toBe(g.dtype);
  const got = Array.from(t.dataSync() as ArrayLike<number | bigint | boolean>, (v) => (typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? v : v));
  const want = g.values.map(num);
  got.forEach((v, i) => {
    const w = want[i];
    if (!(Number.isNaN(w as number) ? Number.isNaN(v as number) : Number(v) === Number(w))) expect.fail(`${what}[${i}]: ${String(v)} vs ${String(w)}`);
  });
};

describe('torch.uniqueConsecutive', () => {
  it('values, inverse and counts as 1.13', () => {
    for (const [key, c] of Object.entries(golden.cases as Record<string, { x: G; dim: number | null; values: G; inverse: G; counts: G }>)) {
      const [v, inv, cnt] = torch.uniqueConsecutive(make(c.x), { returnInverse: true, returnCounts: true, dim: c.dim }) as torch.Tensor[];
      same(v, c.values, `${key} values`);
      same(inv, c.inverse, `${key} inverse`);
      same(cnt, c.counts, `${key} counts`);
    }
  });

  it('the flags pick the result: a tensor, or [values, inverse?, counts?]; the method form', () => {
    const x = torch.tensor([3, 3, 1, 1, 1, 3]);
    const v = torch.uniqueConsecutive(x) as torch.Tensor;
    expect(v.tolist()).toEqual([3, 1, 3]);
    const [v2, counts] = x.uniqueConsecutive({ returnCounts: true }) as torch.Tensor[];
    expect([v2.tolist(), counts.tolist()]).toEqual([
      [3, 1, 3],
      [2, 3, 1],
    ]);
  });
});
