/**
 * The indexing family beyond its OpInfo entries (src/op-info/indexing.ts, run with the whole
 * table by ops.test.ts): autograd through views, Node names, copy semantics.
 */
import * as torch from '@torch-ts/torch';
import { AutogradError, IndexError, type Tensor } from '@torch-ts/torch';
import { describe, expect, it } from 'vitest';

// ---- what the table cannot express: autograd through views, Node names, the copy semantics ----

const f64 = (data: torch.TensorData, requiresGrad = false): Tensor => torch.tensor(data, { dtype: 'float64', requiresGrad });
const long = (data: torch.TensorData): Tensor => torch.tensor(data, { dtype: 'int64' });

describe('indexing: autograd Nodes are named as PyTorch names them', () => {
  it('each op records its Node', () => {
    torch.tidy(() => {
      const x = f64([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], true);
      const i = long([[0, 1], [1, 2], [2, 0]]);
      const m = torch.tensor([[true, false, true, false]]);
      const src = x.index(':', '0:2');
      const names = {
        index: x.index(long([0, 1])),
        indexPut: x.indexPut([long([0])], f64(1)),
        gather: torch.gather(x, 1, i),
        scatter: torch.scatter(x, 1, i, src),
        scatterValue: torch.scatter(x, 1, i, 2.5),
        scatterAdd: torch.scatterAdd(x, 1, i, src),
        scatterReduce: torch.scatterReduce(x, 1, i, src, 'sum'),
        indexSelect: torch.indexSelect(x, 1, long([0])),
        indexAdd: torch.indexAdd(x, 1, long([0]), x.index(':', '0:1')),
        take: torch.take(x, long([0])),
        indexFill: x.indexFill(1, long([0]), 1.5),
        indexFillTensor: x.indexFill(1, long([0]), f64(1, true)),
        maskedFill: x.maskedFill(m, 1.5),
        maskedFillTensor: x.maskedFill(m, f64(1, true)),
        maskedSelect: x.maskedSelect(m),
        maskedScatter: x.maskedScatter(m, x),
        scatterReduceAdd: torch.scatter(x, 1, i, src, { reduce: 'add' }),
      };
      const got = Object.fromEntries(Object.entries(names).map(([k, v]) => [k, v.gradFn?.name()]));
      expect(got).toEqual({
        index: 'IndexBackward0',
        indexPut: 'IndexPutBackward0',
        gather: 'GatherBackward0',
        scatter: 'ScatterBackward0',
        scatterValue: 'ScatterBackward1',
        scatterAdd: 'ScatterAddBackward0',
        scatterReduce: 'ScatterReduceBackward0',
        indexSelect: 'IndexSelectBackward0',
        indexAdd: 'IndexAddBackward0',
        take: 'TakeBackward0',
        indexFill: 'IndexFillBackward0',
        indexFillTensor: 'IndexFillBackward1',
        maskedFill: 'MaskedFillBackward0',
        maskedFillTensor: 'MaskedFillBackward1',
        maskedSelect: 'MaskedSelectBackward0',
        maskedScatter: 'MaskedScatterBackward0',
        scatterReduceAdd: 'NotImplemented',
      });
      // PyTorch has no derivative for scatter with reduce=: its Node refuses at backward
      expect(() => names.scatterReduceAdd.sum().backward()).toThrow(/the derivative for 'scatter_' is not implemented/);
    });
  });
});

describe('indexing: writes through indexPut_', () => {
  it('accumulate sums duplicate positions; without it each position is written', () => {
    const x = torch.zeros([4], { dtype: 'float64' });
    x.indexPut_([long([1, 3, 1, 1])], f64([1, 2, 3, 4]), { accumulate: true });
    expect(x.tolist()).toEqual([0, 8, 0, 2]);
    x.indexPut_([long([0, 2])], 7.5);
    expect(x.tolist()).toEqual([7.5, 8, 7.5, 2]);
  });

  it('numbers and slices select a view, written through (CopySlices, as Python `y[0, idx] = v`)', () => {
    const x = f64([[1, 2, 3], [4, 5, 6]], true);
    const v = f64([10, 20], true);
    const y = x.mul(1);
    y.indexPut_([0, long([2, 0])], v);
    expect(y.tolist()).toEqual([[20, 2, 10], [4, 5, 6]]);
    expect(y.gradFn?.name()).toBe('torch::autograd::CopySlices');
    y.mul(f64([[1, 2, 3], [4, 5, 6]])).sum().backward();
    expect(x.grad?.tolist()).toEqual([[0, 2, 0], [4, 5, 6]]);
    expect(v.grad?.tolist()).toEqual([3, 1]);
  });

  it('indexPut_ on a view made by index() rewrites the base history', () => {
    const x = f64([[1, 2, 3], [4, 5, 6]], true);
    const v = f64(9, true);
    const y = x.mul(2);
    const row = y.index(1);
    row.indexPut_([long([0, 2])], v);
    expect(y.tolist()).toEqual([[2, 4, 6], [9, 10, 9]]);
    expect(y.gradFn?.name()).toBe('torch::autograd::CopySlices');
    y.sum().backward();
    expect(x.grad?.tolist()).toEqual([[2, 2, 2], [0, 2, 0]]);
    expect(v.grad?.item()).toBe(2);
  });

  it('refuses a leaf that requires grad, as every in-place op does', () => {
    const x = f64([1, 2, 3], true);
    expect(() => x.indexPut_([long([0])], f64(1))).toThrow(AutogradError);
  });

  it('leaves self untouched when an index is out of range (checked before any write)', () => {
    const x = f64([1, 2, 3]);
    expect(() => x.indexPut_([long([0, 3])], f64([5, 6]))).toThrow(IndexError);
    expect(x.tolist()).toEqual([1, 2, 3]);
    expect(() => torch.scatterAdd_(x, 0, long([1, 5]), f64([5, 6]))).toThrow(/scatter_add: index 5 is out of bounds for dimension 0 with size 3/);
    expect(x.tolist()).toEqual([1, 2, 3]);
  });
});

describe('indexing: advanced index semantics', () => {
  it('broadcasts index tensors and copies', () => {
    const x = torch.arange(12).view([3, 4]);
    const r = x.index(long([[0], [2]]), long([1, 3, 0]));
    expect(r.shape).toEqual([2, 3]);
    expect(r.tolist()).toEqual([[1, 3, 0], [9, 11, 8]]);
    expect(r.impl.storage === x.impl.storage).toBe(false);
  });

  it('takes uint8 masks (deprecated in PyTorch, still accepted) and int32 indices', () => {
    const x = torch.arange(6).view([3, 2]);
    expect(x.index(torch.tensor([1, 0, 1], { dtype: 'uint8' })).tolist()).toEqual([[0, 1], [4, 5]]);
    expect(x.index(torch.tensor([2, -3], { dtype: 'int32' })).tolist()).toEqual([[4, 5], [0, 1]]);
  });

  it('nonzero as a tuple indexes back the nonzero elements; where(cond) is the same', () => {
    const x = torch.tensor([[0, 3], [5, 0]]);
    const idx = torch.nonzero(x, { asTuple: true });
    expect(x.index(...idx).tolist()).toEqual([3, 5]);
    expect(torch.whereCondition(x.ne(0)).map((t) => t.tolist())).toEqual([[0, 1], [1, 0]]);
  });

  it('gives the gradient of repeated reads summed, and double backward through it', () => {
    const x = f64([1, 2, 3], true);
    const y = x.index(long([0, 0, 2])).pow(2).sum();
    const [g] = torch.autograd.grad([y], [x], { createGraph: true });
    expect(g?.tolist()).toEqual([4, 0, 6]);
    g!.sum().backward();
    expect(x.grad?.tolist()).toEqual([4, 0, 2]);
  });
});
