import { describe, it, expect, afterEach } from 'vitest';
import {
  DTypeError,
  DeviceError,
  IndexError,
  META,
  ShapeError,
  Tensor,
  TorchError,
  add,
  amax,
  argmax,
  bmm,
  chunk,
  clone,
  div,
  empty,
  eq,
  exp,
  expand,
  flatten,
  full,
  index,
  liveCounts,
  matmul,
  max,
  mean,
  memoryStats,
  mm,
  mul,
  narrow,
  neg,
  ones,
  permute,
  reshape,
  select,
  setDefaultDtype,
  split,
  sub,
  sum,
  t,
  to,
  transpose,
  unbind,
  unsqueeze,
  view,
  where,
  zeros,
  type DType,
} from '../src/index';

/** A meta tensor: shape and dtype, no data, no allocator. */
const m = (shape: number[], dtype: DType = 'float32'): Tensor => empty(shape, { dtype, device: 'meta' });

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

/** shape, strides, offset and dtype of a tensor, for one-line expectations. */
const geo = (x: Tensor) => ({ shape: [...x.shape], stride: x.stride(), offset: x.storageOffset(), dtype: x.dtype });

afterEach(() => setDefaultDtype('float32'));

describe('meta tensors', () => {
  it('have sizes, strides, dtype and the meta device, and no memory', () => {
    const before = memoryStats('meta');
    const x = m([2, 3, 4]);
    expect(x.device).toBe(META);
    expect(String(x.device)).toBe('meta');
    expect(geo(x)).toEqual({ shape: [2, 3, 4], stride: [12, 4, 1], offset: 0, dtype: 'float32' });
    expect(x.numel()).toBe(24);
    expect(x.isContiguous()).toBe(true);
    expect(x.impl.storage.nbytes).toBe(96);
    const after = memoryStats('meta');
    expect(after.liveBytes).toBe(0);
    expect(after.liveTensors).toBe(before.liveTensors + 1);
    expect(after.liveStorages).toBe(before.liveStorages + 1);
    x.dispose();
    expect(memoryStats('meta').liveTensors).toBe(before.liveTensors);
    expect(memoryStats('meta').liveStorages).toBe(before.liveStorages);
  });

  it('factories work on meta: zeros, ones, full infer their dtypes without touching data', () => {
    expect(zeros([2], { device: 'meta' }).dtype).toBe('float32');
    expect(ones(3, 4, { device: 'meta', dtype: 'int16' }).shape).toEqual([3, 4]);
    expect(full([2], 7, { device: 'meta' }).dtype).toBe('int64');
    expect(full([2], 0.5, { device: 'meta' }).dtype).toBe('float32');
    expect(full([2], true, { device: 'meta' }).dtype).toBe('bool');
  });

  it('print as PyTorch prints meta tensors', () => {
    expect(String(m([2, 3]))).toBe("tensor(..., device='meta', size=(2, 3))");
    expect(String(m([2], 'int64'))).toBe("tensor(..., device='meta', size=(2,), dtype=torch.int64)");
    expect(String(m([]))).toBe("tensor(..., device='meta', size=())");
    expect(String(m([0]))).toBe("tensor(..., device='meta', size=(0,))");
    expect(String(m([2, 3], 'float64'))).toBe("tensor(..., device='meta', size=(2, 3), dtype=torch.float64)");
    expect(String(m([4], 'bool'))).toBe("tensor(..., device='meta', size=(4,), dtype=torch.bool)");
    setDefaultDtype('float64');
    expect(String(m([1], 'float32'))).toBe("tensor(..., device='meta', size=(1,), dtype=torch.float32)");
    expect(String(m([1], 'float64'))).toBe("tensor(..., device='meta', size=(1,))");
  });

  it('cannot be read synchronously: a DeviceError that names the async alternative', () => {
    const x = m([2, 3]);
    const e = thrown(() => x.dataSync());
    expect(e).toBeInstanceOf(DeviceError);
    expect(e.message).toMatch(/^dataSync: .*meta.*data\(\)/);
    expect(thrown(() => x.tolist())).toBeInstanceOf(DeviceError);
    expect(thrown(() => x.tolist()).message).toContain('tolistAsync()');
    expect(thrown(() => sum(x).item()).message).toContain('itemAsync()');
  });
});

describe('shape and dtype inference on meta (values checked against PyTorch 1.13 meta tensors)', () => {
  it('pointwise ops broadcast and promote', () => {
    const r = add(m([2, 1, 3]), m([4, 3], 'int32'));
    expect(geo(r)).toEqual({ shape: [2, 4, 3], stride: [12, 3, 1], offset: 0, dtype: 'float32' });
    const z = m([2, 3], 'int64');
    expect(add(z, 2.5).dtype).toBe('float32');
    expect(add(z, 2).dtype).toBe('int64');
    expect(div(z, 2).dtype).toBe('float32');
    expect(eq(z, 1).dtype).toBe('bool');
    expect(exp(z).dtype).toBe('float32');
    expect(sub(z, z).shape).toEqual([2, 3]);
    expect(add(m([2], 'int32'), m([], 'int64')).dtype).toBe('int32');
    expect(add(m([2]), m([], 'float64')).dtype).toBe('float32');
    expect(mul(m([2], 'uint8'), m([2], 'int8')).dtype).toBe('int16');
  });

  it('a pointwise result is laid out like its permuted input (PyTorch output strides)', () => {
    const x = permute(m([2, 3, 4]), 2, 0, 1);
    expect(x.stride()).toEqual([1, 12, 4]);
    expect(add(x, 1).stride()).toEqual([1, 12, 4]);
    expect(mul(x, m([4, 1, 1])).stride()).toEqual([1, 12, 4]);
  });

  it('where broadcasts condition and values; its dtype comes from the values', () => {
    const r = where(m([2, 1], 'bool'), m([3], 'int32'), 2.5);
    expect(r.shape).toEqual([2, 3]);
    expect(r.dtype).toBe('float32');
  });

  it('reductions', () => {
    const x = m([2, 3], 'int32');
    expect(sum(x).dtype).toBe('int64');
    expect(sum(x).shape).toEqual([]);
    expect(sum(x, 1, { keepdim: true }).shape).toEqual([2, 1]);
    expect(sum(m([2, 3, 4]), [0, 2]).shape).toEqual([3]);
    expect(mean(m([2, 3]), 0).shape).toEqual([3]);
    expect(amax(m([2, 3, 4]), -1).shape).toEqual([2, 3]);
    const a = argmax(m([2, 3]));
    expect([a.shape, a.dtype]).toEqual([[], 'int64']);
    const [v, i] = max(m([2, 3]), 1);
    expect([v.shape, v.dtype, i.shape, i.dtype]).toEqual([[2], 'float32', [2], 'int64']);
  });

  it('matrix products, including matmul broadcasting and 1-D operands', () => {
    expect(mm(m([2, 3]), m([3, 5])).shape).toEqual([2, 5]);
    expect(bmm(m([2, 3, 4]), m([2, 4, 5])).shape).toEqual([2, 3, 5]);
    expect(matmul(m([5, 2, 3]), m([3, 4])).shape).toEqual([5, 2, 4]);
    expect(matmul(m([2, 1, 3, 4]), m([5, 4, 6])).shape).toEqual([2, 5, 3, 6]);
    expect(matmul(m([3]), m([3])).shape).toEqual([]);
    expect(matmul(m([2, 3]), m([3])).shape).toEqual([2]);
    expect(matmul(m([3]), m([3, 4])).shape).toEqual([4]);
    expect(matmul(m([2, 3], 'float64'), m([3, 4], 'float64')).dtype).toBe('float64');
  });

  it('views: pure stride arithmetic', () => {
    const x = m([2, 3, 4]);
    expect(geo(view(x, 6, 4))).toMatchObject({ shape: [6, 4], stride: [4, 1] });
    expect(geo(transpose(x, 0, 2))).toMatchObject({ shape: [4, 3, 2], stride: [1, 4, 12] });
    expect(geo(select(x, 1, 2))).toMatchObject({ shape: [2, 4], stride: [12, 1], offset: 8 });
    expect(geo(index(x, 1, ':', '1:3'))).toMatchObject({ shape: [3, 2], stride: [4, 1], offset: 13 });
    expect(geo(index(x, '...', null, '::2'))).toMatchObject({ shape: [2, 3, 1, 2], stride: [12, 4, 4, 2], offset: 0 });
    expect(geo(unsqueeze(x, 1))).toMatchObject({ shape: [2, 1, 3, 4], stride: [12, 12, 4, 1] });
    expect(expand(m([3, 1]), 2, 3, 4).stride()).toEqual([0, 1, 0]);
    expect(reshape(x, 4, 6).stride()).toEqual([6, 1]);
    expect(reshape(permute(x, 2, 0, 1), 4, 6).stride()).toEqual([1, 4]);
    expect(flatten(x, 1).shape).toEqual([2, 12]);
    expect(split(x, 2, 2).map((p) => [p.shape, p.storageOffset()])).toEqual([
      [[2, 3, 2], 0],
      [[2, 3, 2], 2],
    ]);
    expect(chunk(x, 2, 1).map((p) => p.shape)).toEqual([
      [2, 2, 4],
      [2, 1, 4],
    ]);
    expect(unbind(x, 1).map((p) => p.storageOffset())).toEqual([0, 4, 8]);
    expect(geo(narrow(x, 2, 1, 2))).toMatchObject({ stride: [12, 4, 1], offset: 1 });
    expect(t(m([2, 3])).stride()).toEqual([1, 3]);
    // views share the meta storage
    expect(view(x, 24).impl.storage).toBe(x.impl.storage);
  });

  it('copies and casts allocate new meta tensors', () => {
    const x = permute(m([2, 3, 4]), 2, 0, 1);
    const c = clone(x);
    expect(c.impl.storage).not.toBe(x.impl.storage);
    expect(c.stride()).toEqual([1, 12, 4]); // preserve_format
    const d = to(x, 'float64');
    expect([d.dtype, d.device]).toEqual(['float64', META]);
    expect(to(x, 'float32')).toBe(x);
  });
});

describe('errors are raised on meta exactly as with data', () => {
  it('broadcast mismatch is a ShapeError naming the op and both shapes', () => {
    const e = thrown(() => add(m([2, 3]), m([4])));
    expect(e).toBeInstanceOf(ShapeError);
    expect(e.message).toMatch(/^add: The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 1/);
    expect(e.message).toContain('[2, 3]');
    expect(e.message).toContain('[4]');
  });

  it('mm shape mismatch uses the exact docs/api.md message', () => {
    const e = thrown(() => mm(m([2, 3]), m([4, 5])));
    expect(e).toBeInstanceOf(ShapeError);
    expect(e.message).toBe('mm: shapes [2, 3] and [4, 5] cannot be multiplied (3 != 4)');
  });

  it('view of incompatible strides, dim out of range, index out of range', () => {
    const v = thrown(() => view(t(m([2, 3])), 6));
    expect(v).toBeInstanceOf(ShapeError);
    expect(v.message).toMatch(/^view: .*Use \.reshape\(\.\.\.\) instead\./);
    const d = thrown(() => sum(m([2, 3]), 2));
    expect(d).toBeInstanceOf(IndexError);
    expect(d.message).toContain('Dimension out of range (expected to be in range of [-2, 1], but got 2)');
    const s = thrown(() => select(m([3]), 0, 5));
    expect(s).toBeInstanceOf(IndexError);
    expect(s.message).toMatch(/^select: index 5 out of range/);
  });

  it('dtype misuse: bool negation, in-place float into int64, mean of int64', () => {
    const n = thrown(() => neg(m([2], 'bool')));
    expect(n).toBeInstanceOf(DTypeError);
    expect(n.message).toMatch(/^neg: Negation, the `-` operator, on a bool tensor is not supported/);
    const a = thrown(() => m([2, 3], 'int64').add_(1.5));
    expect(a).toBeInstanceOf(DTypeError);
    expect(a.message).toBe("add_: result type Float can't be cast to the desired output type Long");
    const mn = thrown(() => mean(m([2], 'int64')));
    expect(mn).toBeInstanceOf(DTypeError);
    expect(mn.message).toContain('mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long');
  });

  it('a failed op leaves no meta tensors behind', () => {
    const x = m([2, 3]);
    const y = m([4]);
    const z = m([3, 3]);
    const w = m([4, 5]);
    const before = { ...liveCounts('meta') };
    expect(() => add(x, y)).toThrow(ShapeError);
    expect(() => mm(x, y)).toThrow(TorchError);
    expect(() => x.add_(z)).toThrow(ShapeError);
    expect(() => matmul(x, w)).toThrow(ShapeError);
    expect(liveCounts('meta')).toEqual(before);
  });
});

describe('the default device (Note [The default device]) and in-place draws on meta', () => {
  it('withDevice makes factories allocate there and restores on throw; meta draws are no-ops', async () => {
    const core = await import('../src');
    const made = core.withDevice('meta', () => [core.zeros([2, 3]), core.empty([4]), core.full([2], 1.5)]);
    expect(made.map((t) => t.device.type)).toEqual(['meta', 'meta', 'meta']);
    expect(core.getDefaultDevice().type).toBe('cpu');
    expect(() => core.withDevice('meta', () => {
      throw new TorchError('inner');
    })).toThrow('inner');
    expect(core.getDefaultDevice().type).toBe('cpu');
    expect(() => core.withDevice('nope' as never, () => 1)).toThrow(DeviceError);
    core.setDefaultDevice('meta');
    try {
      expect(core.ones([2]).device.type).toBe('meta');
    } finally {
      core.setDefaultDevice(null);
    }
    expect(core.getDefaultDevice().type).toBe('cpu');
    const m = core.empty([7], { device: 'meta' });
    expect(m.uniform_(0, 1)).toBe(m);
    expect(m.normal_(0, 1)).toBe(m);
    expect(() => m.normal_(0, -1)).toThrow(TorchError);
  });
});
