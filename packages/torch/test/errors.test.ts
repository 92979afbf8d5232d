import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

type ErrorClass = typeof torch.TorchError;

interface Snapshot {
  readonly values: unknown;
  readonly version: number;
  readonly shape: readonly number[];
  readonly stride: number[];
}

function snapshot(t: Tensor): Snapshot {
  return { values: t.tolist({ bigint: true }), version: t.version, shape: [...t.shape], stride: t.stride() };
}

function cpuCounters() {
  const s = torch.memory.stats('cpu');
  return { liveTensors: s.liveTensors, liveStorages: s.liveStorages, liveBytes: s.liveBytes };
}

/**
 * Runs `fn`, which must throw an instance of `cls` (a TorchError subclass) whose message
 * matches every pattern; then checks that the inputs are unchanged (values, version, geometry)
 * and that the failed call left no tensor, storage or byte behind on the CPU.
 */
function expectFailure(fn: () => unknown, cls: ErrorClass, patterns: (string | RegExp)[], inputs: Tensor[] = []): torch.TorchError {
  const before = inputs.map(snapshot);
  const counters = cpuCounters();
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, 'expected a throw').toBeDefined();
  expect(err).toBeInstanceOf(torch.TorchError);
  expect(err).toBeInstanceOf(cls);
  const message = (err as Error).message;
  for (const p of patterns) {
    if (typeof p === 'string') expect(message).toContain(p);
    else expect(message).toMatch(p);
  }
  expect(inputs.map(snapshot)).toEqual(before);
  expect(cpuCounters()).toEqual(counters);
  return err as torch.TorchError;
}

const f32 = (data: torch.TensorData) => torch.tensor(data, { dtype: 'float32' });

describe('shape errors name the op and the shapes', () => {
  it('broadcast mismatch in add is a ShapeError with both shapes', () => {
    const a = f32([[1, 2, 3], [4, 5, 6]]);
    const b = f32([1, 2, 3, 4]);
    expectFailure(() => torch.add(a, b), torch.ShapeError, [/^add: /, 'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1', '[2, 3]', '[4]'], [a, b]);
    expectFailure(() => a.mul(b), torch.ShapeError, [/^mul: /, '[2, 3]', '[4]'], [a, b]);
    expectFailure(() => a.add_(b), torch.ShapeError, [/^add_: /, '[2, 3]', '[4]'], [a, b]);
    // in-place: the result's shape must be self's
    const col = f32([[1], [2]]);
    expectFailure(() => col.add_(a), torch.ShapeError, [/^add_: /, '[2, 1]', '[2, 3]'], [col, a]);
  });

  it('mm shape mismatch uses the exact message of docs/api.md', () => {
    const a = torch.ones(2, 3);
    const b = torch.ones(4, 5);
    const e = expectFailure(() => torch.mm(a, b), torch.ShapeError, [], [a, b]);
    expect(e.message).toBe('mm: shapes [2, 3] and [4, 5] cannot be multiplied (3 != 4)');
    const v = torch.ones(3);
    expectFailure(() => a.mm(v), torch.ShapeError, [/^mm: /, '[3]'], [a, v]);
    expectFailure(() => a.matmul(b), torch.ShapeError, ['[2, 3]', '[4, 5]', '(3 != 4)'], [a, b]);
    const c = torch.ones(2, 2, 3);
    const d = torch.ones(2, 4, 5);
    expectFailure(() => c.matmul(d), torch.ShapeError, [/^matmul: /, '[2, 2, 3]', '[2, 4, 5]'], [c, d]);
    expectFailure(() => torch.bmm(c, d), torch.ShapeError, [/^bmm: /, '[2, 2, 3]', '[2, 4, 5]'], [c, d]);
  });

  it('view on incompatible strides is a ShapeError that points to reshape', () => {
    const x = torch.arange(6).view(2, 3);
    const t = x.t();
    expectFailure(() => t.view(6), torch.ShapeError, [/^view: /, 'Use .reshape(...) instead'], [x, t]);
    expectFailure(() => x.view(4), torch.ShapeError, [/^view: /, '[4]', '6'], [x]);
    expectFailure(() => x.view(-1, -1), torch.ShapeError, [/^view: only one dimension can be inferred/], [x]);
    expectFailure(() => x.expand(3, 4), torch.ShapeError, [/^expand: /], [x]);
    const x3 = torch.ones(2, 3, 4);
    expectFailure(() => x3.t(), torch.ShapeError, [/^t: /, '3D'], [x3]);
  });

  it('ragged nested arrays are a ShapeError from tensor()', () => {
    expectFailure(() => torch.tensor([[1, 2], [3]]), torch.ShapeError, [/^tensor\(\): /, 'expected sequence of length 2 at dim 1 (got 1)']);
    expectFailure(() => torch.tensor([[1, 2], 3] as never), torch.ShapeError, [/^tensor\(\): /]);
    expectFailure(() => torch.tensor([1, [2, 3]] as never), torch.ShapeError, [/^tensor\(\): /]);
  });
});

describe('index errors', () => {
  it('a dim out of range is an IndexError with the valid range', () => {
    const x = f32([[1, 2, 3], [4, 5, 6]]);
    expectFailure(() => x.sum(2), torch.IndexError, [/^sum: /, 'Dimension out of range (expected to be in range of [-2, 1], but got 2)'], [x]);
    expectFailure(() => x.transpose(0, -3), torch.IndexError, [/^transpose: /, 'but got -3'], [x]);
    expectFailure(() => x.unsqueeze(4), torch.IndexError, [/^unsqueeze: /, '[-3, 2]', 'but got 4'], [x]);
    expectFailure(() => x.size(2), torch.IndexError, [/^size: /], [x]);
    expectFailure(() => x.amax(5), torch.IndexError, [/^amax: /], [x]);
    expectFailure(() => x.argmax(2), torch.IndexError, [/^argmax: /], [x]);
  });

  it('an index out of range is an IndexError naming the index, the dim and the size', () => {
    const x = f32([10, 20, 30]);
    expectFailure(() => x.index(5), torch.IndexError, [/^index: /, 'index 5 is out of bounds for dimension 0 with size 3'], [x]);
    expectFailure(() => x.index(-4), torch.IndexError, [/^index: /, '-4', 'size 3'], [x]);
    expectFailure(() => x.select(0, 3), torch.IndexError, [/^select: /, 'index 3 out of range', '[3]'], [x]);
    expectFailure(() => torch.select(x, 0, -4), torch.IndexError, [/^select: /, '-4'], [x]);
    expectFailure(() => x.index(0, 0), torch.IndexError, [/^index: /, 'too many indices for tensor of dimension 1'], [x]);
    // PyTorch raises RuntimeError here (not IndexError): "start (2) + length (5) exceeds dimension size (3)."
    expectFailure(() => x.narrow(0, 2, 5), torch.TorchError, [/^narrow: /, 'start (2) + length (5) exceeds dimension size (3)'], [x]);
  });
});

describe('dtype errors name the op and the dtypes', () => {
  it('neg of a bool tensor', () => {
    const b = torch.tensor([true, false]);
    expectFailure(() => b.neg(), torch.DTypeError, [/^neg: /, 'Negation, the `-` operator, on a bool tensor is not supported'], [b]);
    expectFailure(() => torch.neg(b), torch.DTypeError, [/^neg: /], [b]);
    expectFailure(() => b.neg_(), torch.DTypeError, [/^neg_: /], [b]);
  });

  it('sub of bools', () => {
    const b = torch.tensor([true, false]);
    const c = torch.tensor([false, false]);
    expectFailure(() => b.sub(c), torch.DTypeError, [/^sub: /, 'Subtraction, the `-` operator, with two bool tensors is not supported'], [b, c]);
    expectFailure(() => torch.sub(b, 1), torch.DTypeError, [/^sub: /, 'with a bool tensor is not supported'], [b]);
  });

  it('mean of int64', () => {
    const i = torch.tensor([1, 2, 3]);
    expectFailure(() => i.mean(), torch.DTypeError, [/^mean\b/, 'Input dtype must be either a floating point or complex dtype. Got: Long'], [i]);
    expectFailure(() => torch.mean(i, 0), torch.DTypeError, ['Got: Long'], [i]);
  });

  it("in-place add_(1.5) on int64 can't cast the float result", () => {
    const i = torch.tensor([1, 2, 3]);
    expectFailure(() => i.add_(1.5), torch.DTypeError, [/^add_: /, "result type Float can't be cast to the desired output type Long"], [i]);
    const f = f32([0.5, 0.5, 0.5]);
    expectFailure(() => i.mul_(f), torch.DTypeError, [/^mul_: /, "can't be cast", 'Long'], [i, f]);
    expectFailure(() => i.add(1, { alpha: 1.5 }), torch.DTypeError, [/^add: /, 'alpha must not be a floating point number'], [i]);
  });

  it('where with a non-bool condition', () => {
    const cond = torch.tensor([1, 0, 1]);
    const a = f32([1, 2, 3]);
    const b = f32([4, 5, 6]);
    expectFailure(() => torch.where(cond, a, b), torch.DTypeError, [/^where: /, 'boolean', 'Long'], [cond, a, b]);
    expectFailure(() => a.where(cond, b), torch.DTypeError, [/^where: /, 'Long'], [cond, a, b]);
  });

  it('matrix products of different or bool dtypes', () => {
    const a = torch.ones(2, 2);
    const d = torch.ones(2, 2, { dtype: 'float64' });
    expectFailure(() => a.mm(d), torch.DTypeError, [/^mm: /, 'float32', 'float64'], [a, d]);
    const b = torch.ones(2, 2, { dtype: 'bool' });
    expectFailure(() => b.mm(b), torch.DTypeError, [/^mm: /, 'Bool'], [b]);
  });

  it('a bad dtype string is a DTypeError naming the op and the string', () => {
    expectFailure(() => torch.zeros([2], { dtype: 'float33' as torch.DType }), torch.DTypeError, [/^zeros: /, "'float33'"]);
    expectFailure(() => torch.tensor([1], { dtype: 'int65' as torch.DType }), torch.DTypeError, [/^tensor: /, "'int65'"]);
    const x = torch.ones(2);
    expectFailure(() => x.to({ dtype: 'float33' }), torch.DTypeError, [/^to: /, "'float33'"], [x]);
    expectFailure(() => x.sum({ dtype: 'nope' as torch.DType }), torch.DTypeError, [/^sum: /, "'nope'"], [x]);
    expectFailure(() => torch.setDefaultDtype('int64'), torch.DTypeError, [/^setDefaultDtype: /, 'int64']);
  });

  it('integers to negative integer powers', () => {
    const i = torch.tensor([1, 2]);
    expectFailure(() => i.pow(-1), torch.TorchError, [/^pow: /, 'Integers to negative integer powers are not allowed.'], [i]);
  });
});

describe('writes into overlapping memory', () => {
  it('add_ and copy_ into an expanded tensor are refused and leave the base unchanged', () => {
    const base = torch.zeros(1);
    const e = base.expand(3);
    expectFailure(() => e.add_(1), torch.TorchError, [/^add_: /, 'more than one element of the written-to tensor refers to a single memory location'], [base]);
    const col = torch.zeros(3, 1);
    const wide = col.expand(3, 3);
    const src = torch.ones(3, 3);
    expectFailure(() => wide.copy_(src), torch.TorchError, [/^copy_: /, 'single memory location'], [col, src]);
  });

  it('fill_ of an expanded tensor is allowed, as in PyTorch', () => {
    const b = torch.arange(4, { dtype: 'float32' });
    b.expand(3, 4).fill_(1);
    expect(b.tolist()).toEqual([1, 1, 1, 1]);
  });
});

describe('lifetime and device errors', () => {
  it('use after dispose is a TorchError that says the tensor was disposed, for every kind of use', () => {
    const x = f32([1, 2]);
    const y = f32([3, 4]);
    x.dispose();
    for (const use of [() => x.add(y), () => y.add(x), () => torch.matmul(x, y), () => x.tolist(), () => x.shape, () => String(x), () => x.view(2), () => x.fill_(0)]) {
      expectFailure(use, torch.TorchError, ['disposed'], [y]);
    }
    expect(y.tolist()).toEqual([3, 4]);
  });

  it('a sync read of a meta tensor is a DeviceError naming the async alternative', () => {
    const m = torch.empty([2, 3], { device: 'meta' });
    expectFailure(() => m.dataSync(), torch.DeviceError, [/^dataSync: /, 'data()']);
    expectFailure(() => m.tolist(), torch.DeviceError, [/^tolist: /, 'tolistAsync()']);
    expectFailure(() => m.item(), torch.DeviceError, [/^item: /, 'itemAsync()']);
  });

  it('mixing devices is a DeviceError naming both devices', () => {
    const c = torch.ones(2);
    const m = torch.empty([2], { device: 'meta' });
    expectFailure(() => c.add(m), torch.DeviceError, [/^add: /, 'cpu', 'meta'], [c]);
    expectFailure(() => torch.zeros([1], { device: 'gpu' as torch.DeviceLike }), torch.DeviceError, [/^zeros: /, 'gpu']);
  });

  it('an allocation the CPU cannot satisfy is a TorchError and leaves nothing behind', () => {
    const e = expectFailure(() => torch.zeros([1e6, 1e6]), torch.TorchError, ['4000000000000 bytes']);
    expect(e.message).toMatch(/out of memory/);
  });

  it('an out-of-memory error starts with the op name', () => {
    expectFailure(() => torch.zeros([1e6, 1e6]), torch.TorchError, [/^zeros: /]);
  });

  it('a failed op inside tidy leaks nothing and leaves outer tensors alone', () => {
    const a = f32([[1, 2, 3]]);
    const b = f32([1, 2]);
    expectFailure(
      () =>
        torch.tidy(() => {
          const t = a.mul(2).exp();
          return t.add(b);
        }),
      torch.ShapeError,
      [/^add: /, '[1, 3]', '[2]'],
      [a, b],
    );
    expect(a.isDisposed).toBe(false);
  });
});
