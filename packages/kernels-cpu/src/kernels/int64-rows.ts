import { zeroDivision } from './binary-int-rows';

/**
 * int64 row kernels. Offsets and strides count elements. Arithmetic uses BigInt on
 * BigInt64Array (the store wraps modulo 2^64, which is the int64 overflow PyTorch has),
 * except where the two words are enough (Note [int64 as two words]): add/sub with alpha ±1
 * and the comparisons, which run without allocating.
 */
export type Int64BinaryRow = (
  n: number,
  o: BigInt64Array, oo: number, os: number,
  a: BigInt64Array, ao: number, as: number,
  b: BigInt64Array, bo: number, bs: number,
  p: bigint,
) => void;

export type Int64UnaryRow = (n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number) => void;

/** a + b (sign 1) or a - b (sign -1) with carry between the words. */
export function addSubInt64WordsRow(n: number, o: Int32Array, oo: number, os: number, a: Int32Array, ao: number, as: number, b: Int32Array, bo: number, bs: number, sign: number): void {
  let jo = 2 * oo;
  let ja = 2 * ao;
  let jb = 2 * bo;
  const so = 2 * os;
  const sa = 2 * as;
  const sb = 2 * bs;
  if (sign > 0) {
    for (let i = 0; i < n; i++, jo += so, ja += sa, jb += sb) {
      const lo = (a[ja] >>> 0) + (b[jb] >>> 0);
      const hi = a[ja + 1] + b[jb + 1] + (lo > 0xffffffff ? 1 : 0);
      o[jo] = lo;
      o[jo + 1] = hi;
    }
  } else {
    for (let i = 0; i < n; i++, jo += so, ja += sa, jb += sb) {
      const lo = (a[ja] >>> 0) - (b[jb] >>> 0);
      const hi = a[ja + 1] - b[jb + 1] - (lo < 0 ? 1 : 0);
      o[jo] = lo;
      o[jo + 1] = hi;
    }
  }
}

export function addInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number, alpha: bigint): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] + alpha * b[bo];
}

export function mulInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] * b[bo];
}

/** BigInt division truncates toward zero; INT64_MIN / -1 wraps to INT64_MIN on store. */
export function divTruncInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const y = b[bo];
    if (y === 0n) throw zeroDivision('div');
    o[oo] = a[ao] / y;
  }
}

export function divFloorInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const y = b[bo];
    if (y === 0n) throw zeroDivision('div');
    let q = x / y;
    if (x % y !== 0n && x < 0n !== y < 0n) q -= 1n;
    o[oo] = q;
  }
}

export function remainderInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const y = b[bo];
    if (y === 0n) throw zeroDivision('remainder');
    let m = a[ao] % y;
    if (m !== 0n && m < 0n !== y < 0n) m += y;
    o[oo] = m;
  }
}

/** Integer power modulo 2^64; negative exponents as `powInt`. */
export function powInt64(base: bigint, exp: bigint): bigint {
  if (exp < 0n) {
    if (base === 1n) return 1n;
    if (base === -1n) return exp % 2n === 0n ? 1n : -1n;
    return 0n;
  }
  let result = 1n;
  let b = base;
  let e = exp;
  while (e !== 0n) {
    if ((e & 1n) !== 0n) result = BigInt.asIntN(64, result * b);
    e >>= 1n;
    if (e !== 0n) b = BigInt.asIntN(64, b * b);
  }
  return result;
}

export function powInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = powInt64(a[ao], b[bo]);
}

export function maximumInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const y = b[bo];
    o[oo] = x > y ? x : y;
  }
}

export function minimumInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const y = b[bo];
    o[oo] = x < y ? x : y;
  }
}

export function negInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = -a[ao];
}

export function absInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as) {
    const x = a[ao];
    o[oo] = x < 0n ? -x : x;
  }
}

export function reluInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as) {
    const x = a[ao];
    o[oo] = x < 0n ? 0n : x;
  }
}

export const CMP_EQ = 0;
export const CMP_NE = 1;
export const CMP_LT = 2;
export const CMP_LE = 3;
export const CMP_GT = 4;
export const CMP_GE = 5;

/** A comparison of int64 words into bool bytes: signed high words, then unsigned low words. */
export function compareInt64Row(n: number, o: Uint8Array, oo: number, os: number, a: Int32Array, ao: number, as: number, b: Int32Array, bo: number, bs: number, op: number): void {
  let ja = 2 * ao;
  let jb = 2 * bo;
  const sa = 2 * as;
  const sb = 2 * bs;
  for (let i = 0; i < n; i++, oo += os, ja += sa, jb += sb) {
    const ahi = a[ja + 1];
    const bhi = b[jb + 1];
    const alo = a[ja] >>> 0;
    const blo = b[jb] >>> 0;
    // -1, 0 or 1 as a <=> b
    const c = ahi < bhi ? -1 : ahi > bhi ? 1 : alo < blo ? -1 : alo > blo ? 1 : 0;
    let r: boolean;
    switch (op) {
      case CMP_EQ: r = c === 0; break;
      case CMP_NE: r = c !== 0; break;
      case CMP_LT: r = c < 0; break;
      case CMP_LE: r = c <= 0; break;
      case CMP_GT: r = c > 0; break;
      default: r = c >= 0;
    }
    o[oo] = r ? 1 : 0;
  }
}

export function signInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as) {
    const x = a[ao];
    o[oo] = x > 0n ? 1n : x < 0n ? -1n : 0n;
  }
}
