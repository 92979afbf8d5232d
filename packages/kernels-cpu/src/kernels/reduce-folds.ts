import type { FloatArray } from '../loops/arrays';

/**
 * Fold kernels of the reductions over one row (Note [Reduction iteration]): the row's
 * accumulator stride `cs` is 0 when the whole row folds into `acc[co]`, else every element
 * combines with its own accumulator. Accumulators are float64 (Note [Reduction accumulators]).
 * The `...Int` variants serve int8..int32, uint8 and bool on scratch rows of at most CHUNK
 * elements: sums wrap modulo 2^32 per chunk (a chunk's exact sum stays below 2^53), products
 * go through Math.imul.
 */
export type Fold = (n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number) => void;

export function sumFold(n: number, acc: Float64Array, co: number, cs: number, a: FloatArray, ao: number, as: number): void {
  if (cs === 0) {
    let s = 0;
    if (as === 1) for (let i = 0; i < n; i++) s += a[ao + i];
    else for (let i = 0; i < n; i++, ao += as) s += a[ao];
    acc[co] += s;
  } else {
    for (let i = 0; i < n; i++, co += cs, ao += as) acc[co] += a[ao];
  }
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
