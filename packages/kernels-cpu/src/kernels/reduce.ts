import type { ReduceImpl, TensorImpl } from '@torch-ts/core';
import { bigints, floatArray, words } from '../loops/arrays';
import { readerOf, writerOf } from '../loops/convert';
import { forEachRowOfStrides } from '../loops/iterate';
import { CHUNK } from '../loops/pointwise';
import {
  amaxFold,
  amaxInt64Fold,
  aminFold,
  aminInt64Fold,
  prodFold,
  prodInt64Fold,
  prodIntFold,
  sumFold,
  sumInt64Fold,
  sumIntFold,
  type Fold,
  type Int64Fold,
} from './reduce-folds';
import { sumF32Trailing } from './sum-f32';

/**
 * Note [Reduction accumulators]
 * A reduction accumulates into a scratch array laid out row-major over `out`'s sizes, not
 * into `out` itself, and writes `out` once at the end. So float32, float16 and bfloat16 sum
 * and prod accumulate in float64 and round once (a float32 sum of 10^7 ones is exact, where
 * float32 accumulation stalls at 2^24), integers wrap once at the store, and `out` may have
 * any strides. The input is iterated in its own memory order (the reduction TensorIterator
 * orders dims by the input's strides), with the accumulator at stride 0 along reduced dims.
 * int64 accumulates in a BigInt64Array, whose stores wrap modulo 2^64 like int64 overflow.
 * An empty reduction leaves the identity: 0 for sum, 1 for prod; amax/amin of nothing is
 * an error core raises before calling.
 */
interface Reduction {
  readonly identity: number;
  readonly identity64: bigint;
  readonly float: Fold;
  readonly int: Fold;
  readonly int64: Int64Fold;
  /** A whole-reduction fast path: the row-major accumulator, or null where it does not apply. */
  readonly fast?: (self: TensorImpl, dims: readonly number[]) => Float64Array | null;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const SUM: Reduction = { identity: 0, identity64: 0n, float: sumFold, int: sumIntFold, int64: sumInt64Fold, fast: sumF32Trailing };
const PROD: Reduction = { identity: 1, identity64: 1n, float: prodFold, int: prodIntFold, int64: prodInt64Fold };
const AMAX: Reduction = { identity: -Infinity, identity64: INT64_MIN, float: amaxFold, int: amaxFold, int64: amaxInt64Fold };
const AMIN: Reduction = { identity: Infinity, identity64: INT64_MAX, float: aminFold, int: aminFold, int64: aminInt64Fold };

/** Row-major strides of `out` with 0 along the reduced dims (where out has size 1). */
function accumulatorStrides(out: TensorImpl, dims: readonly number[]): number[] {
  const strides = rowMajor(out.sizes);
  for (const d of dims) if (d < strides.length) strides[d] = 0;
  return strides;
}

const chunk = new Float64Array(CHUNK);

function reduce(r: Reduction): ReduceImpl {
  return (out, self, dims) => {
    if (out.numel === 0) return;
    if (self.dtype === 'int64') {
      reduceInt64(r, out, self, dims);
      return;
    }
    const fast = r.fast?.(self, dims);
    if (fast) {
      writeAccumulator(out, fast);
      return;
    }
    if (out.numel === 1 && self.isContiguous && (self.dtype === 'float32' || self.dtype === 'float64')) {
      reduceWhole(r, out, self);
      return;
    }
    const acc = new Float64Array(out.numel).fill(r.identity);
    const accStrides = accumulatorStrides(out, dims);
    const geometry = [accStrides, self.strides] as const;
    const offsets = [0, self.storageOffset];
    if (self.dtype === 'float32' || self.dtype === 'float64') {
      const A = floatArray(self);
      const fold = r.float;
      forEachRowOfStrides(self.sizes, geometry, offsets, (n, b, s) => fold(n, acc, b[0], s[0], A, b[1], s[1]), true);
    } else {
      const read = readerOf(self);
      const fold = self.dtype === 'float16' || self.dtype === 'bfloat16' ? r.float : r.int;
      forEachRowOfStrides(
        self.sizes,
        geometry,
        offsets,
        (n, b, s) => {
          for (let start = 0; start < n; start += CHUNK) {
            const m = n - start < CHUNK ? n - start : CHUNK;
            read(m, chunk, b[1] + start * s[1], s[1]);
            fold(m, acc, b[0] + start * s[0], s[0], chunk, 0, 1);
          }
        },
        true,
      );
    }
    writeAccumulator(out, acc);
  };
}

/**
 * Note [Whole reduction of a contiguous input]
 * Reducing every element of a contiguous float input (`loss.sum()`, `x.amax()`) is one row:
 * the reduction TensorIterator orders the dims by the input's strides and coalesces them
 * all (the accumulator's stride is 0 in every dim, a contiguous input's dims are mergeable),
 * so its one row call is `fold(numel, acc, 0, 0, A, offset, 1)`. This path makes that call
 * directly, without the iterator, and stores the one accumulator: the same fold over the
 * same elements in the same order, so the same result. (A 0-dim input is a row of one.)
 */
function reduceWhole(r: Reduction, out: TensorImpl, self: TensorImpl): void {
  const acc = new Float64Array(1);
  acc[0] = r.identity;
  if (self.numel > 0) r.float(self.numel, acc, 0, 0, floatArray(self), self.storageOffset, 1);
  writerOf(out)(1, acc, out.storageOffset, 1);
}

/** Stores the row-major accumulator into `out` (any strides), rounding or wrapping to its dtype. */
function writeAccumulator(out: TensorImpl, acc: Float64Array): void {
  const write = writerOf(out);
  const strides = rowMajor(out.sizes);
  forEachRowOfStrides(out.sizes, [out.strides, strides], [out.storageOffset, 0], (n, b, s) => {
    for (let start = 0; start < n; start += CHUNK) {
      const m = n - start < CHUNK ? n - start : CHUNK;
      const from = b[1] + start * s[1];
      if (s[1] === 1) {
        write(m, acc.subarray(from, from + m), b[0] + start * s[0], s[0]);
      } else {
        for (let i = 0; i < m; i++) chunk[i] = acc[from + i * s[1]];
        write(m, chunk, b[0] + start * s[0], s[0]);
      }
    }
  });
}

function reduceInt64(r: Reduction, out: TensorImpl, self: TensorImpl, dims: readonly number[]): void {
  const acc = new BigInt64Array(out.numel).fill(r.identity64);
  const A = bigints(self);
  const W = words(self);
  const fold = r.int64;
  forEachRowOfStrides(
    self.sizes,
    [accumulatorStrides(out, dims), self.strides],
    [0, self.storageOffset],
    (n, b, s) => fold(n, acc, b[0], s[0], A, W, b[1], s[1]),
    true,
  );
  const O = bigints(out);
  forEachRowOfStrides(out.sizes, [out.strides, rowMajor(out.sizes)], [out.storageOffset, 0], (n, b, s) => {
    for (let i = 0, o = b[0], a = b[1]; i < n; i++, o += s[0], a += s[1]) O[o] = acc[a];
  });
}

function rowMajor(sizes: readonly number[]): number[] {
  const strides = new Array<number>(sizes.length);
  let step = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= Math.max(sizes[d], 1);
  }
  return strides;
}

export const sum: ReduceImpl = reduce(SUM);
export const prod: ReduceImpl = reduce(PROD);
export const amax: ReduceImpl = reduce(AMAX);
export const amin: ReduceImpl = reduce(AMIN);
