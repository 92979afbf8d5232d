import type { FloatArray } from '../loops/arrays';
import { ROW_PIECE } from '../loops/iterate';
import { sumF32Row } from './sum-f32';

/**
 * Fold kernels of the reductions over one row (Note [Reduction iteration]): the row's
 * accumulator stride `cs` is 0 when the whole row folds into `acc[co]`, else every element
 * combines with its own accumulator. Accumulators are float64 (Note [Reduction accumulators]).
 * The `...Int` variants serve int8..int32, uint8 and bool on scratch rows of at most CHUNK
 * elements: sums wrap modulo 2^32 per chunk (a chunk's exact sum stays below 2^53), products
 * go through Math.imul.
 */
export type Fold = (n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number) => void;

/**
 * Note [Four float64 partial sums of float32]
 * A sum in one float64 accumulator is latency-bound: each add waits for the previous one
 * (about 4 cycles an element). A long float32 row (`a` a Float32Array) is summed in four
 * float64 partial sums (elements i mod 4); with unit stride each step of 16 elements adds
 * to partial sum k the float64 sum of elements k, k+4, k+8, k+12, added pairwise (measured
 * 1.5x faster than one element per partial sum a step: fewer dependent adds, fewer loop
 * checks). The partial sums are added pairwise at the end. Any such order's float64
 * rounding error (about n * 2^-53 of the sum of magnitudes, at worst) is far below
 * float32's half ulp for any realistic row, so the single rounding to float32 gives the
 * sequential order's float32 unless the sum lies within that error of a rounding boundary
 * (and then either answer is within PyTorch's own float32 error). float64 rows (and
 * float16/bfloat16 scratch, which is a Float64Array) keep the sequential order, so float64
 * sums are unchanged. Unit-stride float32 rows of WASM_MIN elements or more are summed the
 * same way, with eight partial sums, by WebAssembly SIMD (Note [WebAssembly float32 sum]).
 */
const SPLIT_MIN = 32;

export function sumFold(n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number): void {
  if (cs === 0) {
    if (n >= SPLIT_MIN && a instanceof Float32Array) {
      if (as === 1 && n >= WASM_MIN) {
        const w = sumF32Row(n, a, ao);
        if (w !== null) {
          acc[co] += w;
          return;
        }
      }
      // In pieces (Note [Long rows in pieces]); each piece's partial sums are float64.
      let s = 0;
      for (let start = 0; start < n; start += ROW_PIECE) s += sumF32(n - start < ROW_PIECE ? n - start : ROW_PIECE, a, ao + start * as, as);
      acc[co] += s;
      return;
    }
    let s = 0;
    if (as === 1) for (let i = 0; i < n; i++) s += a[ao + i];
    else for (let i = 0; i < n; i++, ao += as) s += a[ao];
    acc[co] += s;
  } else {
    for (let i = 0; i < n; i++, co += cs, ao += as) acc[co] += a[ao];
  }
}

/** Rows at least this long take the WebAssembly kernel (Note [float32 sums on the WebAssembly kernels]). */
const WASM_MIN = 256;

/** Note [Four float64 partial sums of float32]. */
function sumF32(n: number, a: Float32Array, ao: number, as: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  if (as === 1) {
    for (; i + 15 < n; i += 16) {
      const j = ao + i;
      s0 += a[j] + a[j + 4] + (a[j + 8] + a[j + 12]);
      s1 += a[j + 1] + a[j + 5] + (a[j + 9] + a[j + 13]);
      s2 += a[j + 2] + a[j + 6] + (a[j + 10] + a[j + 14]);
      s3 += a[j + 3] + a[j + 7] + (a[j + 11] + a[j + 15]);
    }
    for (; i < n; i++) s0 += a[ao + i];
  } else {
    for (; i + 3 < n; i += 4, ao += 4 * as) {
      s0 += a[ao];
      s1 += a[ao + as];
      s2 += a[ao + 2 * as];
      s3 += a[ao + 3 * as];
    }
    for (; i < n; i++, ao += as) s0 += a[ao];
  }
  return s0 + s1 + (s2 + s3);
}

export function sumIntFold(n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number): void {
  if (cs === 0) {
    let s = 0;
    for (let i = 0; i < n; i++, ao += as) s += a[ao];
    acc[co] = (acc[co] + s) | 0;
  } else {
    for (let i = 0; i < n; i++, co += cs, ao += as) acc[co] = (acc[co] + a[ao]) | 0;
  }
}

export function prodFold(n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number): void {
  if (cs === 0) {
    let s = acc[co];
    for (let i = 0; i < n; i++, ao += as) s *= a[ao];
    acc[co] = s;
  } else {
    for (let i = 0; i < n; i++, co += cs, ao += as) acc[co] *= a[ao];
  }
}

export function prodIntFold(n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number): void {
  if (cs === 0) {
    let s = acc[co];
    for (let i = 0; i < n; i++, ao += as) s = Math.imul(s, a[ao]);
    acc[co] = s;
  } else {
    for (let i = 0; i < n; i++, co += cs, ao += as) acc[co] = Math.imul(acc[co], a[ao]);
  }
}

/** Running maximum; a NaN sticks (x !== x takes it, and nothing is greater than NaN). */
export function amaxFold(n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number): void {
  if (cs === 0) {
    let m = acc[co];
    for (let i = 0; i < n; i++, ao += as) {
      const x = a[ao];
      if (x > m || x !== x) m = x;
    }
    acc[co] = m;
  } else {
    for (let i = 0; i < n; i++, co += cs, ao += as) {
      const x = a[ao];
      if (x > acc[co] || x !== x) acc[co] = x;
    }
  }
}

export function aminFold(n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number): void {
  if (cs === 0) {
    let m = acc[co];
    for (let i = 0; i < n; i++, ao += as) {
      const x = a[ao];
      if (x < m || x !== x) m = x;
    }
    acc[co] = m;
  } else {
    for (let i = 0; i < n; i++, co += cs, ao += as) {
      const x = a[ao];
      if (x < acc[co] || x !== x) acc[co] = x;
    }
  }
}

/** int64 folds on BigInt64Array accumulators (stores wrap modulo 2^64). */
export type Int64Fold = (n: number, acc: BigInt64Array, co: number, cs: number, a: BigInt64Array, w: Int32Array, ao: number, as: number) => void;

const TWO_32 = 4294967296n;
/** Elements of one word-sum batch: 2^20 low words stay below 2^52. */
const WORD_BATCH = 1 << 20;

/** Sums the words of int64 elements in doubles and carries into BigInt once per batch. */
export function sumInt64Fold(n: number, acc: BigInt64Array, co: number, cs: number, a: BigInt64Array, w: Int32Array, ao: number, as: number): void {
  if (cs !== 0) {
    for (let i = 0; i < n; i++, co += cs, ao += as) acc[co] += a[ao];
    return;
  }
  for (let start = 0; start < n; start += WORD_BATCH) {
    const m = Math.min(WORD_BATCH, n - start);
    let lo = 0;
    let hi = 0;
    for (let i = 0, j = 2 * (ao + start * as); i < m; i++, j += 2 * as) {
      lo += w[j] >>> 0;
      hi += w[j + 1];
    }
    acc[co] += BigInt(hi) * TWO_32 + BigInt(lo);
  }
}

export function prodInt64Fold(n: number, acc: BigInt64Array, co: number, cs: number, a: BigInt64Array, _w: Int32Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, co += cs, ao += as) acc[co] *= a[ao];
}

export function amaxInt64Fold(n: number, acc: BigInt64Array, co: number, cs: number, a: BigInt64Array, _w: Int32Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, co += cs, ao += as) {
    const x = a[ao];
    if (x > acc[co]) acc[co] = x;
  }
}

export function aminInt64Fold(n: number, acc: BigInt64Array, co: number, cs: number, a: BigInt64Array, _w: Int32Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, co += cs, ao += as) {
    const x = a[ao];
    if (x < acc[co]) acc[co] = x;
  }
}
