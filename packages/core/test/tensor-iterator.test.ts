import { describe, expect, it } from 'vitest';
import { IndexError, ShapeError, TorchError } from '../src/errors';
import {
  TensorIterator,
  broadcastShapes,
  broadcastStrides,
  computeOutputLayout,
  forEachPlane,
  forEachRow,
  forEachRowInRange,
  isContiguousIteration,
  isFlatIteration,
  reductionGeometry,
  restrideReductionOutput,
} from '../src/iterator';

// --- references -------------------------------------------------------------------------

function rowMajor(sizes: readonly number[]): number[] {
  const out = new Array<number>(sizes.length);
  let next = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    out[d] = next;
    next *= Math.max(sizes[d], 1);
  }
  return out;
}

/** Every element's per-operand storage index, multi-indices in row-major order. */
function naiveVisits(shape: readonly number[], strides: readonly (readonly number[])[], offsets: readonly number[]): number[][] {
  const numel = shape.reduce((a, b) => a * b, 1);
  const out: number[][] = [];
  const idx = new Array<number>(shape.length).fill(0);
  for (let e = 0; e < numel; e++) {
    out.push(offsets.map((o, k) => idx.reduce((acc, i, d) => acc + i * strides[k][d], o)));
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

function rowVisits(it: TensorIterator, offsets: readonly number[], begin = 0, end = it.numel): number[][] {
  const out: number[][] = [];
  forEachRowInRange(it, offsets, begin, end, (n, base, inner) => {
    for (let i = 0; i < n; i++) out.push(Array.from(base, (b, k) => b + i * inner[k]));
  });
  return out;
}

function planeVisits(it: TensorIterator, offsets: readonly number[]): number[][] {
  const out: number[][] = [];
  forEachPlane(it, offsets, (n0, n1, base, inner, outer) => {
    for (let j = 0; j < n1; j++)
      for (let i = 0; i < n0; i++) out.push(Array.from(base, (b, k) => b + i * inner[k] + j * outer[k]));
  });
  return out;
}

const key = (v: readonly number[]) => v.join(',');
const sortedKeys = (vs: number[][]) => vs.map(key).sort();

/** A small deterministic PRNG (mulberry32) so failures replay. */
function rng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Strides of a random view of `shape`: permuted, sliced with steps, or broadcast. */
function randomView(shape: readonly number[], rand: (n: number) => number, broadcast = true): number[] {
  const ndim = shape.length;
  const perm = shape.map((_, i) => i);
  for (let i = ndim - 1; i > 0; i--) {
    const j = rand(i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const steps = shape.map(() => 1 + rand(3));
  // Lay out a base tensor whose dims (in `perm` order) hold shape * step elements.
  const strides = new Array<number>(ndim);
  let next = 1 + rand(2);
  for (let i = ndim - 1; i >= 0; i--) {
    const d = perm[i];
    strides[d] = next * steps[d];
    next *= Math.max(shape[d] * steps[d], 1);
  }
  if (broadcast) for (let d = 0; d < ndim; d++) if (rand(4) === 0) strides[d] = 0;
  return strides;
}

// --- broadcasting -----------------------------------------------------------------------

describe('broadcastShapes', () => {
  it('broadcasts right-aligned, 1 taking the other size (even 0)', () => {
    expect(broadcastShapes('add', [3, 1], [1, 4])).toEqual([3, 4]);
    expect(broadcastShapes('add', [2, 1, 4], [3, 1])).toEqual([2, 3, 4]);
    expect(broadcastShapes('add', [], [2, 3])).toEqual([2, 3]);
    expect(broadcastShapes('add', [0], [1])).toEqual([0]);
    expect(broadcastShapes('add')).toEqual([]);
    expect(broadcastShapes('add', [5, 1, 3], [4, 1], [1, 1, 1, 1])).toEqual([1, 5, 4, 3]);
  });

  it("throws PyTorch's message first, then the shapes", () => {
    expect(() => broadcastShapes('add', [2, 3], [4])).toThrow(ShapeError);
    expect(() => broadcastShapes('add', [2, 3], [4])).toThrow(
      'add: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1 (shapes [2, 3] and [4])',
    );
    expect(() => broadcastShapes('where', [2, 3], [1, 3], [5])).toThrow(
      'where: The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 1 (shapes [2, 3], [1, 3] and [5])',
    );
    expect(() => broadcastShapes('add', [2, -1])).toThrow('add: Trying to create tensor with negative dimension (-1)');
  });
});

describe('broadcastStrides', () => {
  it('gives stride 0 to new and expanded dims and keeps matching ones', () => {
    expect(broadcastStrides([3, 1], [1, 1], [2, 3, 4])).toEqual([0, 1, 0]);
    expect(broadcastStrides([2, 1, 3], [3, 100, 1], [2, 1, 3])).toEqual([3, 100, 1]);
    expect(broadcastStrides([], [], [2, 2])).toEqual([0, 0]);
  });

  it('rejects what expand rejects', () => {
    expect(() => broadcastStrides([3], [1], [2, 4])).toThrow(
      'expand: The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [3]',
    );
    expect(() => broadcastStrides([2, 3], [3, 1], [3], 'add')).toThrow(/^add: the number of sizes provided \(1\)/);
  });
});

describe('computeOutputLayout', () => {
  it('follows the inputs, first input first', () => {
    expect(computeOutputLayout([2, 3], [{ sizes: [2, 3], strides: [1, 2] }, { sizes: [2, 3], strides: [1, 2] }])).toEqual([1, 2]);
    expect(computeOutputLayout([2, 3], [{ sizes: [2, 3], strides: [1, 2] }, { sizes: [2, 3], strides: [3, 1] }])).toEqual([1, 2]);
    expect(computeOutputLayout([2, 3], [{ sizes: [2, 3], strides: [3, 1] }, { sizes: [2, 3], strides: [1, 2] }])).toEqual([3, 1]);
    // channels-last stays channels-last under a broadcast bias
    expect(computeOutputLayout([2, 3, 4, 5], [{ sizes: [2, 3, 4, 5], strides: [60, 1, 15, 3] }, { sizes: [3, 1, 1], strides: [1, 1, 1] }])).toEqual([60, 1, 15, 3]);
    expect(computeOutputLayout([], [])).toEqual([]);
  });
});

// --- geometry ---------------------------------------------------------------------------

describe('TensorIterator geometry', () => {
  it('coalesces a contiguous op into one dim of numel', () => {
    const s = rowMajor([2, 3, 4]);
    const it = new TensorIterator([2, 3, 4], [s, s, s]);
    expect(it.ndim).toBe(1);
    expect(it.shape).toEqual([24]);
    expect(it.strides).toEqual([[1], [1], [1]]);
    expect(isContiguousIteration(it)).toBe(true);
  });

  it('coalesces transposed operands after reordering', () => {
    const it = new TensorIterator([3, 4], [[1, 3], [1, 3]]);
    expect(it.shape).toEqual([12]);
    expect(it.strides).toEqual([[1], [1]]);
  });

  it('keeps broadcast dims apart, fastest dim first', () => {
    // out [3, 4] row-major, a [3, 1] expanded, b [1, 4] expanded
    const it = new TensorIterator([3, 4], [[4, 1], [1, 0], [0, 1]]);
    expect(it.shape).toEqual([4, 3]);
    expect(it.strides).toEqual([[1, 4], [0, 1], [1, 0]]);
    expect(it.innerStrides).toEqual([1, 0, 1]);
    expect(isContiguousIteration(it)).toBe(false);
    expect(isFlatIteration(it)).toBe(false);
  });

  it('merges a scalar-like broadcast input into a flat iteration', () => {
    const it = new TensorIterator([2, 3], [[3, 1], [3, 1], [0, 0]]);
    expect(it.shape).toEqual([6]);
    expect(it.strides).toEqual([[1], [1], [0]]);
    expect(isFlatIteration(it)).toBe(true);
    expect(isContiguousIteration(it)).toBe(false);
  });

  it('merges a uniformly stepped slice but not a narrowed one', () => {
    // [4, 6][:, ::2] is stride 2 throughout; [4, 6][:, :3] jumps between rows.
    const stepped = new TensorIterator([4, 3], [[3, 1], [6, 2]]);
    expect(stepped.shape).toEqual([12]);
    expect(stepped.strides).toEqual([[1], [2]]);
    const narrowed = new TensorIterator([4, 3], [[3, 1], [6, 1]]);
    expect(narrowed.shape).toEqual([3, 4]);
    expect(narrowed.strides).toEqual([[1, 3], [1, 6]]);
  });

  it('merges size-1 dims whatever their strides', () => {
    const it = new TensorIterator([2, 1, 3], [[3, 3, 1], [3, 100, 1]]);
    expect(it.shape).toEqual([6]);
    expect(it.strides).toEqual([[1], [1]]);
    const single = new TensorIterator([1, 1], [[7, 9]]);
    expect(single.shape).toEqual([1]);
    expect(isContiguousIteration(single)).toBe(true);
  });

  it('orders by the output first, and keeps row-major order when linear', () => {
    const permuted = new TensorIterator([4, 5], [[1, 4], [5, 1]]);
    expect(permuted.shape).toEqual([4, 5]);
    expect(permuted.strides).toEqual([[1, 4], [5, 1]]);
    const linear = new TensorIterator([4, 5], [[1, 4], [5, 1]], { linear: true });
    expect(linear.shape).toEqual([5, 4]);
    expect(linear.strides).toEqual([[4, 1], [1, 5]]);
  });

  it('represents 0-d and empty iterations as one dim', () => {
    const scalar = new TensorIterator([], [[], []]);
    expect([scalar.ndim, scalar.shape, scalar.strides, scalar.numel]).toEqual([1, [1], [[0], [0]], 1]);
    const empty = new TensorIterator([3, 0, 2], [rowMajor([3, 0, 2]), [0, 1, 1]]);
    expect([empty.ndim, empty.shape, empty.numel]).toEqual([1, [0], 0]);
    let calls = 0;
    forEachRow(empty, [0, 0], () => calls++);
    expect(calls).toBe(0);
  });

  it('checks its arguments', () => {
    expect(() => new TensorIterator([2, 3], [[3, 1], [1]])).toThrow(TorchError);
    expect(() => new TensorIterator([2, 3], [[3, 1]], { numOutputs: 2 })).toThrow(/numOutputs/);
    const it = new TensorIterator([2, 3], [[3, 1]]);
    expect(() => forEachRow(it, [0, 0], () => {})).toThrow(/expected 1 storage offsets/);
    expect(() => forEachRowInRange(it, [0], 2, 7, () => {})).toThrow(/range/);
  });
});

// --- loop driver ------------------------------------------------------------------------

describe('forEachRow', () => {
  it('visits every element exactly once, at the right offsets, for random views', () => {
    const rand = rng(1234);
    for (let trial = 0; trial < 300; trial++) {
      const ndim = rand(5);
      const shape = Array.from({ length: ndim }, () => (rand(8) === 0 ? 1 : 1 + rand(5)));
      const out = rand(2) === 0 ? rowMajor(shape) : randomView(shape, rand, false);
      const ins = [randomView(shape, rand), randomView(shape, rand)];
      const strides = [out, ...ins];
      const offsets = [rand(7), rand(7), rand(7)];
      const it = new TensorIterator(shape, strides);
      const got = rowVisits(it, offsets);
      const want = naiveVisits(shape, strides, offsets);
      expect(got.length).toBe(want.length);
      expect(sortedKeys(got)).toEqual(sortedKeys(want));
      // The output is dense in these trials: each of its elements is written once.
      const outs = new Set(got.map((v) => v[0]));
      expect(outs.size).toBe(got.length);
      expect(it.numel).toBe(want.length);
    }
  });

  it('visits in the same order by planes as by rows', () => {
    const rand = rng(4321);
    for (let trial = 0; trial < 200; trial++) {
      const ndim = rand(6);
      const shape = Array.from({ length: ndim }, () => (rand(8) === 0 ? 1 : rand(12) === 0 ? 0 : 1 + rand(4)));
      const strides = [randomView(shape, rand, false), randomView(shape, rand)];
      const offsets = [rand(5), rand(5)];
      const it = new TensorIterator(shape, strides);
      expect(planeVisits(it, offsets)).toEqual(rowVisits(it, offsets));
    }
    const flat = new TensorIterator([5], [[1], [0]]);
    const calls: number[][] = [];
    forEachPlane(flat, [2, 3], (n0, n1, base, inner, outer) => calls.push([n0, n1, base[0], base[1], ...inner, ...outer]));
    expect(calls).toEqual([[5, 1, 2, 3, 1, 0, 0, 0]]);
    expect(() => forEachPlane(flat, [0], () => {})).toThrow(/^forEachPlane: expected 2 storage offsets/);
  });

  it('calls the row function once per row with a reused base', () => {
    const it = new TensorIterator([3, 4], [[4, 1], [1, 0]]);
    const bases: unknown[] = [];
    const rows: number[][] = [];
    forEachRow(it, [10, 20], (n, base, inner) => {
      bases.push(base);
      rows.push([n, base[0], base[1], inner[0], inner[1]]);
    });
    expect(rows).toEqual([
      [4, 10, 20, 1, 0],
      [4, 14, 21, 1, 0],
      [4, 18, 22, 1, 0],
    ]);
    expect(new Set(bases).size).toBe(1);
    expect(bases[0]).toBeInstanceOf(Int32Array);
  });

  it('runs any sub-range, in iteration order, splitting rows where needed', () => {
    const rand = rng(99);
    for (let trial = 0; trial < 60; trial++) {
      const shape = [1 + rand(4), 1 + rand(4), 1 + rand(5)];
      const strides = [rowMajor(shape), randomView(shape, rand)];
      const it = new TensorIterator(shape, strides);
      const offsets = [0, 3];
      const all = rowVisits(it, offsets);
      const cuts = [0, rand(it.numel + 1), rand(it.numel + 1), it.numel].sort((a, b) => a - b);
      const pieces: number[][] = [];
      for (let i = 0; i + 1 < cuts.length; i++) pieces.push(...rowVisits(it, offsets, cuts[i], cuts[i + 1]));
      expect(pieces).toEqual(all);
    }
  });

  it('switches to Float64Array bases past int32 offsets, exactly', () => {
    const it = new TensorIterator([2, 3], [[1, 2], [3, 1]]);
    const big = 3_000_000_000;
    const got = rowVisits(it, [big, 5]);
    expect(sortedKeys(got)).toEqual(sortedKeys(naiveVisits([2, 3], [[1, 2], [3, 1]], [big, 5])));
    forEachRow(it, [big, 5], (_n, base) => expect(base).toBeInstanceOf(Float64Array));
  });

  it('is what a kernel needs: a permuted + broadcast add', () => {
    // a: [2, 3, 4] viewed permuted (2, 0, 1) -> sizes [4, 2, 3]; b: [3] broadcast.
    const shape = [4, 2, 3];
    const aData = Float64Array.from({ length: 24 }, (_, i) => i);
    const bData = Float64Array.from([100, 200, 300]);
    const aStrides = [1, 12, 4];
    const bStrides = broadcastStrides([3], [1], shape);
    const outStrides = computeOutputLayout(shape, [{ sizes: shape, strides: aStrides }, { sizes: [3], strides: [1] }]);
    expect(outStrides).toEqual([1, 12, 4]);
    const out = new Float64Array(24);
    const it = new TensorIterator(shape, [outStrides, aStrides, bStrides]);
    forEachRow(it, [0, 0, 0], (n, base, s) => {
      const o = base[0], x = base[1], y = base[2];
      const so = s[0], sa = s[1], sb = s[2];
      for (let i = 0; i < n; i++) out[o + i * so] = aData[x + i * sa] + bData[y + i * sb];
    });
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 2; j++)
        for (let k = 0; k < 3; k++) {
          expect(out[i * 1 + j * 12 + k * 4]).toBe(aData[i + j * 12 + k * 4] + bData[k]);
        }
  });
});

// --- reductions -------------------------------------------------------------------------

function reduceSum(
  data: Float64Array,
  sizes: number[],
  strides: number[],
  offset: number,
  dims: number[],
  keepdim: boolean,
): { geom: ReturnType<typeof reductionGeometry>; out: Float64Array } {
  const geom = reductionGeometry('sum', sizes, strides, dims, keepdim);
  const out = new Float64Array(Math.max(geom.resultSizes.reduce((a, b) => a * b, 1), 1));
  forEachRow(geom.iterator, [0, offset], (n, base, s) => {
    const o = base[0], x = base[1], so = s[0], sx = s[1];
    if (so === 0) {
      let acc = 0;
      for (let i = 0; i < n; i++) acc += data[x + i * sx];
      out[o] += acc;
    } else {
      for (let i = 0; i < n; i++) out[o + i * so] += data[x + i * sx];
    }
  });
  return { geom, out };
}

describe('reductionGeometry', () => {
  it('sizes the result with and without keepdim, row-major', () => {
    const g = reductionGeometry('sum', [2, 3, 4], rowMajor([2, 3, 4]), [-1, 0], false);
    expect(g.dims).toEqual([0, 2]);
    expect(g.reduced).toEqual([true, false, true]);
    expect(g.sizes).toEqual([3]);
    expect(g.keepdimSizes).toEqual([1, 3, 1]);
    expect([g.resultSizes, g.resultStrides, g.outStrides]).toEqual([[3], [1], [0, 1, 0]]);
    const k = reductionGeometry('sum', [2, 3, 4], rowMajor([2, 3, 4]), [1], true);
    expect([k.resultSizes, k.resultStrides, k.outStrides]).toEqual([[2, 1, 4], [4, 4, 1], [4, 0, 1]]);
  });

  it('reduces every dim for an empty list, and accepts 0-d inputs', () => {
    const g = reductionGeometry('sum', [2, 3], [3, 1], [], false);
    expect([g.dims, g.sizes, g.outStrides]).toEqual([[0, 1], [], [0, 0]]);
    expect(g.iterator.shape).toEqual([6]);
    expect(g.iterator.strides).toEqual([[0], [1]]);
    const s = reductionGeometry('sum', [], [], [-1], true);
    expect([s.dims, s.resultSizes, s.outStrides, s.iterator.shape]).toEqual([[], [], [], [1]]);
  });

  it("raises PyTorch's errors", () => {
    expect(() => reductionGeometry('sum', [2, 3], [3, 1], [2], false)).toThrow(IndexError);
    expect(() => reductionGeometry('sum', [2, 3], [3, 1], [2], false)).toThrow(
      'sum: Dimension out of range (expected to be in range of [-2, 1], but got 2)',
    );
    expect(() => reductionGeometry('sum', [], [], [1], false)).toThrow('[-1, 0], but got 1');
    expect(() => reductionGeometry('sum', [2, 3], [3, 1], [0, -2], false)).toThrow(
      'sum: dim 0 appears multiple times in the list of dims',
    );
  });

  it('runs a reduction over the last, contiguous dim along the row, output stride 0', () => {
    const g = reductionGeometry('sum', [64, 32], [32, 1], [1], false);
    expect(g.iterator.shape).toEqual([32, 64]);
    expect(g.iterator.strides).toEqual([[0, 1], [1, 32]]);
  });

  it('runs a reduction over dim 0 along dim 1, accumulating rows', () => {
    const g = reductionGeometry('sum', [4096, 4096], [4096, 1], [0], false);
    expect(g.iterator.shape).toEqual([4096, 4096]);
    expect(g.iterator.innerStrides).toEqual([1, 1]);
    expect(g.iterator.strides).toEqual([[1, 0], [1, 4096]]);
  });

  it('computes the right sums for permuted, sliced inputs', () => {
    const rand = rng(7);
    for (let trial = 0; trial < 80; trial++) {
      const ndim = 1 + rand(4);
      const sizes = Array.from({ length: ndim }, () => rand(6) === 0 ? 1 : 1 + rand(4));
      const strides = randomView(sizes, rand, false);
      const offset = rand(5);
      const span = offset + sizes.reduce((a, n, d) => a + (n - 1) * strides[d], 0) + 1;
      const data = Float64Array.from({ length: span }, (_, i) => (i * 7919) % 101);
      const dims = sizes.map((_, d) => d).filter(() => rand(2) === 0);
      const keepdim = rand(2) === 0;
      const { geom, out } = reduceSum(data, sizes, strides, offset, dims, keepdim);
      // naive: accumulate each element into the result index of its kept coordinates
      const want = new Float64Array(out.length);
      const resStrides = restrideReductionOutput('sum', geom.resultSizes, geom.resultStrides, geom.reduced, keepdim);
      const visits = naiveVisits(sizes, [resStrides, strides], [0, offset]);
      for (const [o, x] of visits) want[o] += data[x];
      expect(Array.from(out)).toEqual(Array.from(want));
    }
  });

  it('leaves the identity in place for an empty input', () => {
    const { geom, out } = reduceSum(new Float64Array(0), [0, 3], [3, 1], 0, [0], false);
    expect(geom.resultSizes).toEqual([3]);
    expect(Array.from(out)).toEqual([0, 0, 0]);
  });

  it('restrides a preallocated result', () => {
    expect(restrideReductionOutput('sum', [3, 2], [1, 3], [false, true, false], false)).toEqual([1, 0, 3]);
    expect(() => restrideReductionOutput('sum', [3], [1], [false, true, false], false)).toThrow(/^sum: result of sizes \[3\]/);
  });
});
