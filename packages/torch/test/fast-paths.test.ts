import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { thrown } from './helpers';

/**
 * The per-call fast paths (Note [Pointwise fast path], Note [Dispatch cache], Note [One-row
 * fast path], Note [Whole reduction of a contiguous input]) against what the general paths
 * give: each test first runs an op on the fast path many times (so every cache is warm),
 * then changes one thing (stride, dtype, shape, device of out, grad mode) and checks the
 * values, dtypes, strides and errors PyTorch gives.
 */

function live() {
  const s = torch.memory.stats('cpu');
  return { tensors: s.liveTensors, storages: s.liveStorages, bytes: s.liveBytes };
}

/** Runs `fn` n times, disposing what it returns: warms every cache on the path. */
function warm(n: number, fn: () => Tensor): void {
  for (let i = 0; i < n; i++) fn().dispose();
}

describe('pointwise fast path: the same op after a cached call', () => {
  it('a transposed (non-contiguous) input of the same shape: right values, column-major result as in PyTorch', () => {
    const a = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' });
    const b = torch.tensor([[10, 20, 30], [40, 50, 60]], { dtype: 'float32' });
    warm(50, () => torch.add(a.t().contiguous(), b.t().contiguous()));
    const s = torch.add(a.t(), b.t());
    expect(s.tolist()).toEqual([[11, 44], [22, 55], [33, 66]]);
    expect(s.stride()).toEqual([1, 3]); // a.t() + b.t() stays column-major
    const m = torch.mul(a.t(), b.t().contiguous()); // mixed layouts: the first input's dim order
    expect(m.tolist()).toEqual([[10, 160], [40, 250], [90, 360]]);
    expect(m.stride()).toEqual([1, 3]);
    const n = torch.mul(b.t().contiguous(), a.t());
    expect(n.stride()).toEqual([2, 1]);
  });

  it('another dtype, promotion and a float op of integers after cached float32 calls', () => {
    const f = torch.tensor([1.5, 2.5], { dtype: 'float32' });
    warm(50, () => f.mul(f));
    const d = torch.tensor([1.5, 2.5], { dtype: 'float64' });
    expect(d.mul(d).dtype).toBe('float64');
    const i = torch.tensor([7, -7], { dtype: 'int32' });
    const j = torch.tensor([2, 2], { dtype: 'int32' });
    const q = i.div(j); // true division of integers computes in the default float dtype
    expect(q.dtype).toBe('float32');
    expect(q.tolist()).toEqual([3.5, -3.5]);
    const r = i.div(j, { roundingMode: 'floor' });
    expect(r.dtype).toBe('int32');
    expect(r.tolist()).toEqual([3, -4]);
    const p = f.add(d); // float32 + float64 promotes
    expect(p.dtype).toBe('float64');
    expect(p.tolist()).toEqual([3, 5]);
    expect(i.exp().dtype).toBe('float32');
    expect(torch.tensor([true, false]).add(torch.tensor([true, true])).tolist()).toEqual([true, true]);
  });

  it('broadcasting, 0-dim and empty operands after cached same-shape calls', () => {
    const a = torch.tensor([[1, 2], [3, 4]], { dtype: 'float32' });
    warm(50, () => a.add(a));
    expect(a.add(torch.tensor([10, 20], { dtype: 'float32' })).tolist()).toEqual([[11, 22], [13, 24]]);
    const z = torch.tensor(3, { dtype: 'float32' });
    expect(z.mul(z).shape).toEqual([]);
    expect(z.mul(z).item()).toBe(9);
    expect(a.mul(z).tolist()).toEqual([[3, 6], [9, 12]]);
    const e = torch.empty([0, 3], { dtype: 'float32' });
    expect(e.add(e).shape).toEqual([0, 3]);
    expect(a.add(2, { alpha: 3 }).tolist()).toEqual([[7, 8], [9, 10]]);
  });

  it('alpha and its checks on the fast path', () => {
    const a = torch.tensor([1, 2], { dtype: 'float32' });
    const b = torch.tensor([10, 20], { dtype: 'float32' });
    warm(50, () => a.add(b));
    expect(a.add(b, { alpha: 2 }).tolist()).toEqual([21, 42]);
    expect(a.sub(b, { alpha: 0.5 }).tolist()).toEqual([-4, -8]);
    const i = torch.tensor([1, 2], { dtype: 'int32' });
    expect(thrown(() => i.add(i, { alpha: 0.5 })).message).toBe(
      'add: For integral input tensors, argument alpha must not be a floating point number.',
    );
    const i8 = torch.tensor([1, 2], { dtype: 'int8' });
    expect(thrown(() => i8.add(i8, { alpha: 300 })).message).toBe('add: value cannot be converted to type int8_t without overflow');
    const t = torch.tensor([true, false]);
    expect(thrown(() => t.sub(t)).message).toMatch(/^sub: Subtraction, the `-` operator, with two bool tensors is not supported/);
  });

  it('out=: same dtype written in place, another dtype cast, wrong shape or dtype refused as before', () => {
    const a = torch.tensor([1.25, 2.5], { dtype: 'float32' });
    const b = torch.tensor([1, 1], { dtype: 'float32' });
    const o = torch.empty([2], { dtype: 'float32' });
    for (let i = 0; i < 50; i++) torch.add(a, b, { out: o });
    expect(o.tolist()).toEqual([2.25, 3.5]);
    const o64 = torch.empty([2], { dtype: 'float64' });
    expect(torch.add(a, b, { out: o64 })).toBe(o64);
    expect(o64.tolist()).toEqual([2.25, 3.5]);
    const oi = torch.empty([2], { dtype: 'int32' });
    expect(thrown(() => torch.add(a, b, { out: oi })).message).toBe("add: result type Float can't be cast to the desired output type Int");
    const o3 = torch.empty([3], { dtype: 'float32' });
    expect(thrown(() => torch.add(a, b, { out: o3 })).message).toBe("add: output with shape [3] doesn't match the broadcast shape [2]");
    const ot = torch.empty([2, 2], { dtype: 'float32' }).t();
    const m = torch.tensor([[1, 2], [3, 4]], { dtype: 'float32' });
    torch.mul(m, m, { out: ot }); // a strided out
    expect(ot.tolist()).toEqual([[1, 4], [9, 16]]);
    const before = o.version;
    torch.add(a, b, { out: o });
    expect(o.version).toBe(before + 1);
  });

  it('in place: same shape, a strided self, an expanded self refused, an input that requires grad refused', () => {
    const a = torch.tensor([[1, 2], [3, 4]], { dtype: 'float32' });
    const b = torch.ones([2, 2], { dtype: 'float32' });
    for (let i = 0; i < 50; i++) a.add_(b);
    expect(a.tolist()).toEqual([[51, 52], [53, 54]]);
    const at = a.t();
    at.mul_(b);
    expect(a.tolist()).toEqual([[51, 52], [53, 54]]);
    at.sub_(at.contiguous());
    expect(a.tolist()).toEqual([[0, 0], [0, 0]]);
    const ex = torch.zeros([1], { dtype: 'float32' }).expand(2);
    expect(thrown(() => ex.add_(torch.ones([2], { dtype: 'float32' }))).message).toMatch(
      /^add_: unsupported operation: more than one element of the written-to tensor refers to a single memory location/,
    );
    const leaf = torch.ones([2], { dtype: 'float32', requiresGrad: true });
    expect(thrown(() => leaf.add_(leaf)).message).toMatch(/a leaf Variable that requires grad is being used in an in-place operation/);
  });

  it('grad mode: the same op records a node or not as the mode changes between calls', () => {
    const x = torch.tensor([1, 2, 3], { dtype: 'float32', requiresGrad: true });
    const c = torch.tensor([1, 2, 3], { dtype: 'float32' });
    for (let i = 0; i < 3; i++) {
      const y = x.mul(x);
      expect(y.gradFn?.name()).toBe('MulBackward0');
      const n = torch.noGrad(() => x.mul(x));
      expect(n.gradFn).toBe(null);
      expect(n.requiresGrad).toBe(false);
      const plain = c.mul(c);
      expect(plain.requiresGrad).toBe(false);
      y.sum().backward();
    }
    expect(x.grad?.tolist()).toEqual([6, 12, 18]);
    expect(thrown(() => torch.mul(x, x, { out: torch.empty([3], { dtype: 'float32' }) })).message).toBe(
      "mul(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.",
    );
  });

  it('an integer division by zero on the fast path raises and frees its output', () => {
    const i = torch.tensor([1, 2], { dtype: 'int64' });
    const z = torch.tensor([1, 0], { dtype: 'int64' });
    warm(10, () => i.remainder(i));
    const start = live();
    for (let k = 0; k < 20; k++) expect(thrown(() => i.remainder(z)).message).toMatch(/ZeroDivisionError/);
    expect(live()).toEqual(start);
  });
});

describe('one-row kernels and whole reductions', () => {
  it('offsets of views, long rows and every float dtype give the general path\'s values', () => {
    const base = torch.arange(40, { dtype: 'float32' });
    const v = base.index('10:20'); // contiguous, storage offset 10
    const w = base.index('20:30');
    expect(v.add(w).tolist()).toEqual(Array.from({ length: 10 }, (_, k) => 30 + 2 * k));
    expect(v.neg().tolist()).toEqual(Array.from({ length: 10 }, (_, k) => -(10 + k)));
    const out = torch.zeros([40], { dtype: 'float32' });
    torch.mul(v, w, { out: out.index('5:15') });
    expect(out.index('5:15').tolist()).toEqual(Array.from({ length: 10 }, (_, k) => (10 + k) * (20 + k)));
    expect(out.index(':5').sum().item()).toBe(0);
    const long = torch.ones([70000], { dtype: 'float64' }); // longer than one row piece
    expect(long.add(long).sum().item()).toBe(140000);
    const i64 = torch.tensor([2n ** 40n, 5n], { dtype: 'int64' });
    expect(i64.mul(i64).tolist({ bigint: true })).toEqual([2n ** 80n % 2n ** 64n, 25n]);
    const h = torch.tensor([1, 2], { dtype: 'float16' });
    expect(h.add(h).tolist()).toEqual([2, 4]);
  });

  it('sum, prod, amax and amin of whole tensors: contiguous, offset, strided, 0-dim, empty, with dtype', () => {
    const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' });
    warm(20, () => x.sum());
    expect(x.sum().item()).toBe(21);
    expect(x.t().sum().item()).toBe(21);
    expect(x.index(1).sum().item()).toBe(15);
    expect(x.prod().item()).toBe(720);
    expect(x.amax().item()).toBe(6);
    expect(x.amin().item()).toBe(1);
    expect(x.sum([0, 1], { keepdim: true }).shape).toEqual([1, 1]);
    expect(x.sum({ dtype: 'float64' }).dtype).toBe('float64');
    expect(torch.tensor(2.5, { dtype: 'float64' }).sum().item()).toBe(2.5);
    expect(torch.empty([0], { dtype: 'float32' }).sum().item()).toBe(0);
    expect(torch.empty([0], { dtype: 'float32' }).prod().item()).toBe(1);
    expect(torch.tensor([1, 2, 3], { dtype: 'int32' }).sum().dtype).toBe('int64');
    expect(torch.ones([3, 1, 2], { dtype: 'float32' }).sum(1).sum().item()).toBe(6);
    // float32 sums accumulate in float64 and round once (Note [Reduction accumulators])
    const f = torch.tensor([16777216, 1, 1], { dtype: 'float32' });
    expect(f.sum().item()).toBe(16777218);
    expect(torch.tensor([0.1, 0.2, 0.3], { dtype: 'float64' }).sum().item()).toBe(0.1 + 0.2 + 0.3);
    expect(torch.tensor([NaN, 1], { dtype: 'float32' }).amax().item()).toBeNaN();
  });
});

describe('no leaks on the fast paths', () => {
  it('functional, out=, in-place, cast-out, backward and reductions over many iterations keep the live counts flat', () => {
    const a = torch.tensor([1, 2, 3, 4], { dtype: 'float32' });
    const b = torch.tensor([5, 6, 7, 8], { dtype: 'float32' });
    const o = torch.empty([4], { dtype: 'float32' });
    const o64 = torch.empty([4], { dtype: 'float64' });
    const x = torch.tensor([1, 2, 3, 4], { dtype: 'float32', requiresGrad: true });
    const step = () => {
      torch.add(a, b).dispose();
      torch.mul(a, b, { out: o });
      torch.mul(a, b, { out: o64 });
      o.add_(a);
      a.exp().dispose();
      a.sum().dispose();
      const y = x.mul(x);
      const s = y.sum();
      s.backward();
      s.dispose();
      y.dispose();
      torch.tidy(() => a.add(b).mul(a).sum()).dispose();
      torch.tidy(() => {
        a.add(b).mul(a).sum();
      });
    };
    for (let i = 0; i < 10; i++) step();
    const start = live();
    for (let i = 0; i < 2000; i++) step();
    expect(live()).toEqual(start);
    // the work is real: 2010 backward runs of sum(x * x)
    expect(x.grad?.tolist()).toEqual([2, 4, 6, 8].map((g) => g * 2010));
    expect(o.tolist()).toEqual([6, 14, 24, 36]);
    expect(o64.tolist()).toEqual([5, 12, 21, 32]);
  });
});
