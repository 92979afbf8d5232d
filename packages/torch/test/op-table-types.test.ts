/**
 * The facade's types that core derives from the op table's rows (Note [The op table]): what a
 * row's arguments text, its `scalarOther` / `scalarSelf` / `scalarLast` and its `inplace`
 * make of `torch.*` and of the Tensor methods. Each line marked `@ts-expect-error` must fail
 * to compile (the typecheck task runs tsc over the tests: an unused directive is an error),
 * and also fails at run time with PyTorch's error, so the types promise no more and no less
 * than the binder accepts.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { TorchError, TorchTypeError } from '@torch-ts/torch';

const x = () => torch.tensor([1.5, -2, 3]);

describe('binary rows: keyword arguments, Scalar overloads, in-place forms', () => {
  it("add and sub take alpha by keyword, div a rounding mode among PyTorch's", () => {
    expect(torch.add(x(), 1, { alpha: 2 }).tolist()).toEqual([3.5, 0, 5]);
    expect(x().sub_(x(), { alpha: 2 }).tolist()).toEqual([-1.5, 2, -3]);
    expect(torch.div(x(), 2, { roundingMode: 'floor' }).tolist()).toEqual([0, -1, 1]);
    expect(torch.div(x(), 2, { roundingMode: null }).tolist()).toEqual([0.75, -1, 1.5]);
    // @ts-expect-error: 'round' is not one of div's rounding modes
    expect(() => torch.div(x(), 2, { roundingMode: 'round' })).toThrow(/expected rounding_mode to be one of null, 'trunc', or 'floor' but found 'round'/);
    // @ts-expect-error: alpha is keyword-only, as in PyTorch
    expect(() => torch.add(x(), 1, 2)).toThrow(TorchTypeError);
  });

  it('a row without arguments takes no options but out=, and its in-place form none', () => {
    expect(torch.mul(x(), 2, { out: torch.empty([3]) }).tolist()).toEqual([3, -4, 6]);
    // @ts-expect-error: mul has no alpha
    expect(() => torch.mul(x(), 2, { alpha: 2 })).toThrow(/got an unexpected keyword argument 'alpha'/);
    // @ts-expect-error: mul_ takes the other operand only
    expect(() => x().mul_(2, { out: x() })).toThrow(TorchTypeError);
  });

  it('a number other only where PyTorch has the Scalar overload; a number self only for pow', () => {
    expect(torch.remainder(x(), 4).tolist()).toEqual([1.5, 2, 3]);
    // @ts-expect-error: maximum has no Scalar overload
    expect(() => torch.maximum(x(), 2)).toThrow(TorchTypeError);
    expect(torch.pow(2, torch.tensor([1, 3])).tolist()).toEqual([2, 8]);
    // (PyTorch's parser takes a number self for add, sub, mul and div: `torch.sub(1, p)`)
    expect(torch.sub(1, torch.tensor([0.25, 1])).tolist()).toEqual([0.75, 0]);
    expect(torch.add(2, 3).tolist()).toBe(5);
    // @ts-expect-error: hypot has no number self
    expect(() => torch.hypot(2, x())).toThrow(TorchError);
  });

  it('fmax and fmin have no in-place form, as in PyTorch', () => {
    expect(torch.fmax(x(), x()).tolist()).toEqual([1.5, -2, 3]);
    // @ts-expect-error: there is no fmax_
    expect(torch.fmax_).toBeUndefined();
  });
});

describe('ternary rows', () => {
  it("lerp's weight may be a number; addcmul's tensor2 may not, and its value is keyword-only", () => {
    expect(torch.lerp(torch.zeros([2]), torch.ones([2]), 0.25).tolist()).toEqual([0.25, 0.25]);
    expect(torch.addcmul(x(), x(), x(), { value: 0.5 }).tolist()).toEqual([2.625, 0, 7.5]);
    // @ts-expect-error: tensor2 is a Tensor
    expect(() => torch.addcmul(x(), x(), 2)).toThrow(TorchError);
    // @ts-expect-error: value is keyword-only
    expect(() => torch.addcmul(x(), x(), x(), 2)).toThrow(TorchTypeError);
  });
});

describe('reduction rows', () => {
  it('dim and keepdim positionally or by keyword, dtype by keyword', () => {
    const m = torch.tensor([[1, 2], [3, 4]]);
    expect(m.sum(0, true).tolist()).toEqual([[4, 6]]);
    expect(torch.sum(m, { dim: 1, dtype: 'float64' }).dtype).toBe('float64');
    expect(m.argmax({ dim: 1, keepdim: false }).tolist()).toEqual([1, 1]);
    // @ts-expect-error: prod takes one dim, not a list
    expect(() => torch.prod(m, [0, 1])).toThrow(TorchTypeError);
    // @ts-expect-error: amax has no dtype
    expect(() => torch.amax(m, { dtype: 'float32' })).toThrow(/got an unexpected keyword argument 'dtype'/);
  });
});

describe('front ends declared by their schema (Note [Front ends are declared once])', () => {
  it('sort, topk, searchsorted: positional in schema order, any by keyword, typed as the binder binds', () => {
    const v = torch.tensor([3, 1, 2]);
    expect(v.sort(0, true).values.tolist()).toEqual([3, 2, 1]);
    expect(torch.sort(v, { descending: true, stable: true }).indices.tolist()).toEqual([0, 2, 1]);
    expect(torch.topk(v, { k: 1 }).values.tolist()).toEqual([3]);
    expect(torch.searchsorted(torch.tensor([1, 2, 3]), 2, { right: true }).tolist()).toBe(2);
    // @ts-expect-error: dim is an int
    expect(() => torch.sort(v, 'a')).toThrow(/argument 'dim' \(position 2\) must be int, not string/);
    // @ts-expect-error: stable is keyword-only
    expect(() => torch.sort(v, 0, false, true)).toThrow(/sort\(\) takes from 1 to 3 positional arguments but 4 were given/);
    // @ts-expect-error: a misspelled keyword
    expect(() => torch.sort(v, { dimm: 0 })).toThrow(/got an unexpected keyword argument 'dimm'/);
    // @ts-expect-error: topk's k is required
    expect(() => torch.topk(v)).toThrow(TorchTypeError);
    // @ts-expect-error: bucketize is not a Tensor method, as in PyTorch
    expect(v.bucketize).toBeUndefined();
  });

  it('gather/scatter, masked, indexPut and the scans: Scalar overloads, str choices, out= and in-place forms', () => {
    const v = torch.tensor([3, 1, 2]);
    const ix = torch.tensor([2, 0]);
    expect(torch.gather(v, 0, ix).tolist()).toEqual([2, 3]);
    expect(v.indexSelect({ dim: 0, index: ix }).tolist()).toEqual([2, 3]);
    expect(torch.scatter(v, 0, ix, 9).tolist()).toEqual([9, 1, 9]);
    expect(torch.scatter(v, 0, ix, torch.tensor([5, 6]), { reduce: 'add' }).tolist()).toEqual([9, 1, 7]);
    expect(v.clone().scatterReduce_(0, ix, torch.tensor([5, 6]), 'amax', { includeSelf: false }).tolist()).toEqual([6, 1, 5]);
    expect(torch.maskedFill(v, torch.tensor([true, false, true]), 0).tolist()).toEqual([0, 1, 0]);
    expect(v.clone().indexPut_([ix], 7, { accumulate: true }).tolist()).toEqual([10, 1, 9]);
    expect(torch.cumsum(v, 0, { dtype: 'float32' }).dtype).toBe('float32');
    expect(v.cummax(0).values.tolist()).toEqual([3, 3, 3]);
    // @ts-expect-error: scatter's reduce is 'add' or 'multiply'
    expect(() => torch.scatter(v, 0, ix, 1, { reduce: 'sum' })).toThrow(/scatter\(\): reduce argument must be either add or multiply\. Got sum/);
    // @ts-expect-error: scatter_reduce's reduce is one of sum, prod, mean, amax, amin
    expect(() => v.scatterReduce(0, ix, ix, 'max')).toThrow(/scatter_reduce\(\): reduce argument must be either sum, prod, mean, amax or amin, got max/);
    // @ts-expect-error: cumsum's dim is required
    expect(() => torch.cumsum(v)).toThrow(TorchTypeError);
  });
});

describe('overloads with their own result types (runEach)', () => {
  it('max, min and median: a Tensor over all elements, (values, indices) along a dim, elementwise with other', () => {
    const m = torch.tensor([[1, 5], [4, 2]]);
    const all: torch.Tensor = m.max();
    expect(all.item()).toBe(5);
    const alongDim: torch.ValuesIndices = torch.max(m, { dim: 1 });
    expect(alongDim.indices.tolist()).toEqual([1, 0]);
    expect(m.min(0, true).values.tolist()).toEqual([[1, 2]]);
    const elementwise: torch.Tensor = m.max(torch.tensor([[3, 3], [3, 3]]));
    expect(elementwise.tolist()).toEqual([[3, 5], [4, 3]]);
    const med: torch.ValuesIndices = m.median({ dim: 0 });
    expect(med.values.tolist()).toEqual([1, 2]);
    expect(torch.median(m).item()).toBe(2);
    // @ts-expect-error: median over all elements takes no keyword arguments
    expect(() => torch.median(m, { keepdim: true })).toThrow(TorchTypeError);
    // @ts-expect-error: a keepdim needs a dim
    expect(() => m.max({ keepdim: true })).toThrow(TorchTypeError);
  });
});
