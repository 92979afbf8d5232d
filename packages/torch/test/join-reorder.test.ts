/**
 * Focused tests of cat/stack/repeat/flip/roll/triu/tril and their autograd that the OpInfo
 * table cannot express (gradFn names, TensorList inputs, in-place triangles, leaks).
 */
import * as torch from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';

const f64 = (data: torch.TensorData, requiresGrad = false) => torch.tensor(data, { dtype: 'float64', requiresGrad });

describe('cat and stack', () => {
  it('concatenates with promotion and skips legacy empty 1-D tensors', () => {
    const a = torch.tensor([[1, 2]], { dtype: 'int32' });
    const b = torch.tensor([[3.5, 4]], { dtype: 'float32' });
    const e = torch.tensor([], { dtype: 'float64' });
    const r = torch.cat([a, e, b]);
    expect(r.dtype).toBe('float64');
    expect(r.tolist()).toEqual([[1, 2], [3.5, 4]]);
    expect(torch.cat([a, a], 1).tolist()).toEqual([[1, 2, 1, 2]]);
    expect(torch.cat([a, a], { dim: -1 }).shape).toEqual([1, 4]);
  });

  it('records CatBackward0 / StackBackward0 and routes each slice of the gradient', () => {
    const x = f64([[1, 2], [3, 4]], true);
    const y = f64([[5, 6]], true);
    const c = torch.cat([x, y]);
    expect(c.gradFn?.name()).toBe('CatBackward0');
    torch.mul(c, f64([[1, 2], [3, 4], [5, 6]])).sum().backward();
    expect(x.grad?.tolist()).toEqual([[1, 2], [3, 4]]);
    expect(y.grad?.tolist()).toEqual([[5, 6]]);
    const s = torch.stack([x, x], 1);
    expect(s.gradFn?.name()).toBe('StackBackward0');
    expect(s.shape).toEqual([2, 2, 2]);
  });

  it('refuses out= when an input in the list requires grad; a gradient reaches every dtype', () => {
    const x = f64([1, 2], true);
    expect(() => torch.cat([torch.ones([2], { dtype: 'float64' }), x], { out: torch.empty([4], { dtype: 'float64' }) })).toThrow(torch.AutogradError);
    const y = torch.tensor([3], { dtype: 'float32', requiresGrad: true });
    torch.cat([x, y]).sum().backward();
    expect(x.grad?.tolist()).toEqual([1, 1]);
    expect(y.grad?.dtype).toBe('float32');
    expect(y.grad?.tolist()).toEqual([1]);
  });

  it('hstack and vstack', () => {
    const a = torch.tensor([1, 2]);
    expect(torch.hstack([a, a]).tolist()).toEqual([1, 2, 1, 2]);
    expect(torch.vstack([a, a]).tolist()).toEqual([[1, 2], [1, 2]]);
  });
});

describe('reorder', () => {
  it('repeat, tile, flip, roll', () => {
    const x = torch.tensor([[1, 2, 3], [4, 5, 6]]);
    expect(x.repeat(2, 1).tolist()).toEqual([[1, 2, 3], [4, 5, 6], [1, 2, 3], [4, 5, 6]]);
    expect(x.repeat(1, 1, 2).shape).toEqual([1, 2, 6]);
    expect(x.tile(2).tolist()).toEqual([[1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6]]);
    expect(x.flip(0, 1).tolist()).toEqual([[6, 5, 4], [3, 2, 1]]);
    expect(x.t().flip(0).tolist()).toEqual([[3, 6], [2, 5], [1, 4]]);
    expect(x.roll(1).tolist()).toEqual([[6, 1, 2], [3, 4, 5]]);
    expect(x.roll([1, -1], [0, 1]).tolist()).toEqual([[5, 6, 4], [2, 3, 1]]);
  });

  it('triu / tril and their in-place forms', () => {
    const x = torch.ones([3, 3]);
    expect(x.triu().tolist()).toEqual([[1, 1, 1], [0, 1, 1], [0, 0, 1]]);
    expect(x.tril(-1).tolist()).toEqual([[0, 0, 0], [1, 0, 0], [1, 1, 0]]);
    const y = torch.ones([2, 3]);
    expect(y.triu_(1)).toBe(y);
    expect(y.tolist()).toEqual([[0, 1, 1], [0, 0, 1]]);
  });

  it('repeatInterleave with int and tensor repeats', () => {
    const x = torch.tensor([[1, 2], [3, 4]]);
    expect(torch.repeatInterleave(x, 2).tolist()).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
    expect(x.repeatInterleave(torch.tensor([1, 2]), { dim: 0 }).tolist()).toEqual([[1, 2], [3, 4], [3, 4]]);
    expect(torch.repeatInterleave(torch.tensor([2, 0, 1])).tolist()).toEqual([0, 0, 2]);
  });

  it('derivatives', () => {
    const x = f64([[1, 2, 3], [4, 5, 6]], true);
    for (const [fn, name] of [
      [(t: torch.Tensor) => t.repeat(2, 1), 'RepeatBackward0'],
      [(t: torch.Tensor) => t.flip(1), 'FlipBackward0'],
      [(t: torch.Tensor) => t.roll(1, 1), 'RollBackward0'],
      [(t: torch.Tensor) => t.triu(), 'TriuBackward0'],
      [(t: torch.Tensor) => t.tril(), 'TrilBackward0'],
    ] as const) {
      expect(fn(x).gradFn?.name()).toBe(name);
    }
    torch.repeat(x, 2, 1).sum().backward();
    expect(x.grad?.tolist()).toEqual([[2, 2, 2], [2, 2, 2]]);
  });
});

describe('sorting', () => {
  it('sort is stable, NaN last (first when descending)', () => {
    const x = torch.tensor([3, NaN, 1, NaN, 2, 1]);
    const [v, i] = torch.sort(x);
    expect(v.tolist()).toEqual([1, 1, 2, 3, NaN, NaN]);
    expect(i.tolist()).toEqual([2, 5, 4, 0, 1, 3]);
    const d = x.sort({ descending: true, stable: true });
    expect(d.indices.tolist()).toEqual([1, 3, 0, 4, 2, 5]);
    expect(torch.argsort(x).tolist()).toEqual([2, 5, 4, 0, 1, 3]);
  });

  it('topk, unique, searchsorted, bucketize', () => {
    const x = torch.tensor([3, NaN, 1, NaN, 2, 1]);
    const t = torch.topk(x, 3);
    expect(t.values.tolist()).toEqual([NaN, NaN, 3]);
    expect(t.indices.tolist()).toEqual([1, 3, 0]);
    const [u, inv, cnt] = torch.unique(x, { returnInverse: true, returnCounts: true }) as torch.Tensor[];
    // PyTorch 2.x: each NaN is distinct and sorts last (1.13's CPU unique misplaced them)
    expect(u.tolist()).toEqual([1, 2, 3, NaN, NaN]);
    expect(inv.tolist()).toEqual([2, 3, 0, 4, 1, 0]);
    expect(cnt.tolist()).toEqual([2, 1, 1, 1, 1]);
    const rows = torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), { dim: 0, returnInverse: true, returnCounts: true }) as torch.Tensor[];
    expect(rows.map((r) => r.tolist())).toEqual([[[0, 5], [1, 2]], [1, 1, 0], [1, 2]]);
    const b = torch.tensor([1, 2, 3]);
    expect(torch.searchsorted(b, torch.tensor([2, 2.5, NaN])).tolist()).toEqual([1, 2, 3]);
    expect(torch.searchsorted(b, torch.tensor([2]), { right: true }).tolist()).toEqual([2]);
    expect(torch.bucketize(torch.tensor([[0, 2], [3, 4]]), b, { outInt32: true }).dtype).toBe('int32');
    // empty boundary rows (what vmap of empty 1-D boundaries makes): every point is 0, as
    // PyTorch's; the out= starts as junk, so an output left unwritten shows
    for (const [bs, vs] of [[[3, 0], [3, 4]], [[2, 3, 0], [2, 3, 2]]]) {
      const out = torch.full(vs!, 77, { dtype: 'int64' });
      torch.searchsorted(torch.empty(bs!), torch.randn(vs!), { out });
      expect(out.tolist()).toEqual(torch.zeros(vs!, { dtype: 'int64' }).tolist());
    }
  });

  it('topk of a small k (selection) agrees with the stable sort, with ties and NaN', () => {
    const data = Array.from({ length: 200 }, (_, i) => (i % 17 === 0 ? NaN : (i * 37) % 23));
    for (const dtype of ['float32', 'float64', 'int32'] as const) {
      const x = torch.tensor(dtype === 'int32' ? data.map((v) => (Number.isNaN(v) ? 5 : v)) : data, { dtype }).reshape(2, 100);
      for (const largest of [true, false]) {
        const t = torch.topk(x, 7, { dim: 1, largest });
        const s = torch.sort(x, { dim: 1, descending: largest, stable: true });
        expect(t.values.tolist()).toEqual(s.values.narrow(1, 0, 7).tolist());
        expect(t.indices.tolist()).toEqual(s.indices.narrow(1, 0, 7).tolist());
      }
    }
  });

  it('sorts big slices (the merge passes) stably, both ways, int64 exactly', () => {
    const n = 1000;
    const vals = Array.from({ length: n }, (_, i) => (i * 7919) % 101);
    const x = torch.tensor(vals, { dtype: 'float64' });
    const [v, i] = torch.sort(x, { stable: true });
    const expected = vals.map((val, idx) => [val, idx]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(v.tolist()).toEqual(expected.map((e) => e[0]));
    expect(i.tolist()).toEqual(expected.map((e) => e[1]));
    const d = torch.sort(x, { descending: true, stable: true });
    const expectedDesc = vals.map((val, idx) => [val, idx]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    expect(d.indices.tolist()).toEqual(expectedDesc.map((e) => e[1]));
    const big = torch.tensor([2n ** 60n + 1n, 2n ** 60n, -(2n ** 62n), 2n ** 60n + 1n] as unknown as number[], { dtype: 'int64' });
    expect(torch.sort(big).indices.tolist()).toEqual([2, 1, 0, 3]);
    expect(torch.sort(big, { descending: true }).indices.tolist()).toEqual([0, 3, 1, 2]);
  });

  it('sort and topk write into out= pairs', () => {
    const x = torch.tensor([3, 1, 2]);
    const v = torch.empty([3], { dtype: 'int64' });
    const i = torch.empty([3], { dtype: 'int64' });
    const r = torch.sort(x, { out: [v, i] });
    expect(r.values).toBe(v);
    expect(v.tolist()).toEqual([1, 2, 3]);
    expect(i.tolist()).toEqual([1, 2, 0]);
    const tv = torch.empty([2], { dtype: 'int64' });
    const ti = torch.empty([2], { dtype: 'int64' });
    torch.topk(x, 2, { out: [tv, ti] });
    expect(ti.tolist()).toEqual([0, 2]);
    expect(() => torch.sort(x, { out: [torch.empty([2], { dtype: 'int64' }), i] })).toThrow(torch.ShapeError);
  });

  it('SortBackward0 and TopkBackward0 route the gradient through the indices', () => {
    const x = f64([3, 1, 2], true);
    const s = torch.sort(x).values;
    expect(s.gradFn?.name()).toBe('SortBackward0');
    torch.mul(s, f64([1, 2, 3])).sum().backward();
    expect(x.grad?.tolist()).toEqual([3, 1, 2]);
    const y = f64([3, 1, 2], true);
    const k = torch.topk(y, 2).values;
    expect(k.gradFn?.name()).toBe('TopkBackward0');
    k.sum().backward();
    expect(y.grad?.tolist()).toEqual([1, 0, 1]);
  });
});

describe('linear algebra extras', () => {
  it('addmm / baddbmm with beta and alpha, and their Nodes', () => {
    const s = f64([1, 2], true);
    const a = f64([[1, 2], [3, 4]], true);
    const b = f64([[1, 0], [0, 1]], true);
    const r = torch.addmm(s, a, b, { beta: 2, alpha: 3 });
    expect(r.tolist()).toEqual([[5, 10], [11, 16]]);
    expect(r.gradFn?.name()).toBe('AddmmBackward0');
    r.sum().backward();
    expect(s.grad?.tolist()).toEqual([4, 4]);
    const nanSelf = torch.tensor([[NaN, NaN]]);
    expect(torch.addmm(nanSelf, torch.ones([1, 2]), torch.ones([2, 2]), { beta: 0 }).tolist()).toEqual([[2, 2]]);
    const bb = torch.baddbmm(torch.zeros([2, 1, 1]), torch.ones([2, 1, 3]), torch.ones([2, 3, 1]), { alpha: 2 });
    expect(bb.tolist()).toEqual([[[6]], [[6]]]);
  });

  it('outer, tensordot, einsum', () => {
    const a = torch.tensor([1, 2]);
    const b = torch.tensor([3, 4, 5]);
    expect(torch.outer(a, b).tolist()).toEqual([[3, 4, 5], [6, 8, 10]]);
    const x = torch.arange(24).reshape(2, 3, 4).double();
    const y = torch.arange(12).reshape(4, 3).double();
    expect(torch.tensordot(x, y, [[1, 2], [1, 0]]).shape).toEqual([2]);
    expect(torch.tensordot(x, y, 1).shape).toEqual([2, 3, 3]);
    const m = torch.tensor([[1, 2], [3, 4]]).double();
    expect(torch.einsum('ij,jk->ik', m, m).tolist()).toEqual([[7, 10], [15, 22]]);
    expect(torch.einsum('ii', m).item()).toBe(5);
    expect(torch.einsum('ii->i', m).tolist()).toEqual([1, 4]);
    expect(torch.einsum('ij->ji', m).tolist()).toEqual([[1, 3], [2, 4]]);
    expect(torch.einsum('i,j', a, b).tolist()).toEqual([[3, 4, 5], [6, 8, 10]]);
    expect(torch.einsum('...ij,...jk', [x.reshape(2, 3, 4), torch.ones([4, 2]).double()]).shape).toEqual([2, 3, 2]);
    expect(torch.einsum('bij,bjk->bik', x, torch.ones([2, 4, 1]).double()).shape).toEqual([2, 3, 1]);
  });
});

describe('on the meta device', () => {
  it('gives shapes and dtypes without data; unique says why it cannot', () => {
    const m = (shape: number[], dtype: torch.DType = 'float32') => torch.empty(shape, { device: 'meta', dtype });
    expect(torch.cat([m([2, 3]), m([2, 1], 'float64')], 1).shape).toEqual([2, 4]);
    expect(torch.stack([m([2]), m([2])]).shape).toEqual([2, 2]);
    expect(m([2, 3]).repeat(2, 2).shape).toEqual([4, 6]);
    expect(m([2, 3]).flip(0).shape).toEqual([2, 3]);
    expect(m([2, 3]).roll(1, 1).shape).toEqual([2, 3]);
    expect(m([3, 3]).triu().shape).toEqual([3, 3]);
    expect(torch.sort(m([4, 5]), 0).indices.dtype).toBe('int64');
    expect(torch.topk(m([4, 5]), 2).values.shape).toEqual([4, 2]);
    expect(torch.addmm(m([3]), m([2, 4]), m([4, 3])).shape).toEqual([2, 3]);
    expect(torch.einsum('ij,jk->ik', m([2, 4]), m([4, 3])).shape).toEqual([2, 3]);
    expect(() => torch.unique(m([4]))).toThrow(/unique: .*meta device has no data/);
  });
});
