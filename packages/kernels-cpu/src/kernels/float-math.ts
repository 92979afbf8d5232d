import { bf16BitsToNumber, f16BitsToNumber, f32ToBf16Bits, f32ToF16Bits } from '@torch-ts/core';

/**
 * Scalar float helpers shared by the row kernels: C's `pow`, an emulated fused multiply-add,
 * and rounding to the precision an op's intermediates have in PyTorch.
 */

/** How an op's intermediate results are rounded: as float64, float32, float16 or bfloat16. */
export const ROUND_F64 = 0;
export const ROUND_F32 = 1;
export const ROUND_F16 = 2;
export const ROUND_BF16 = 3;

/** The rounding mode of intermediates for a floating dtype. */
export function roundModeOf(dtype: string): number {
  return dtype === 'float64' ? ROUND_F64 : dtype === 'float32' ? ROUND_F32 : dtype === 'float16' ? ROUND_F16 : ROUND_BF16;
}

/** `x` rounded to the precision of `mode` (float32 first for the 16-bit types, as c10 does). */
export function roundTo(x: number, mode: number): number {
  if (mode === ROUND_F64) return x;
  if (mode === ROUND_F32) return Math.fround(x);
  return mode === ROUND_F16 ? f16BitsToNumber(f32ToF16Bits(x)) : bf16BitsToNumber(f32ToBf16Bits(x));
}

/**
 * C's `pow` (what PyTorch's kernels call), which differs from Math.pow in two special cases:
 * `pow(1, y)` is 1 for every y, NaN included, and `pow(-1, ±Infinity)` is 1.
 */
export function cpow(a: number, b: number): number {
  if (a === 1) return 1;
  if (a === -1 && (b === Infinity || b === -Infinity)) return 1;
  return Math.pow(a, b);
}

const SPLIT = 134217729; // 2^27 + 1: Veltkamp's splitter for 53-bit significands
const FMA_SAFE_MAX = 1e290;
const FMA_SAFE_MIN = 1e-280;

/**
 * Note [Fused multiply-add of add's alpha]
 * PyTorch's CPU add computes `a + alpha * b` as `fmadd(b, alpha, a)`: one rounding of the
 * exact value. For float32 a double product of two floats is exact and the double sum rounds
 * once more, so float32 results match it without help; for float64 `a + alpha * b` in doubles
 * differs in the last bit for about 7% of random inputs. This emulation is exact (Dekker's
 * product and Knuth's sum give a*b + c = s + u + e exactly) and rounds correctly except when
 * `u + e` itself rounds onto a tie of `s`, which needs a 2^-106-relative coincidence. Outside
 * the range where the splitting is exact (huge or tiny products, infinities) it falls back to
 * the plain expression, which is then already exact or the same IEEE special value.
 */
export function fma(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const ap = Math.abs(p);
  if (!(ap < FMA_SAFE_MAX && ap > FMA_SAFE_MIN) || !(Math.abs(c) < FMA_SAFE_MAX) || Math.abs(a) > FMA_SAFE_MAX || Math.abs(b) > FMA_SAFE_MAX) {
    return s;
  }
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  const e = ah * bh - p + ah * bl + al * bh + al * bl;
  const z = s - p;
  const u = p - (s - z) + (c - z);
  return s + (u + e);
}
