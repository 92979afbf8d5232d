// Note [float32 exp in SIMD]
// exp(x) on four float32 lanes, within about 1 ulp of the exact result (as PyTorch's Sleef
// expf_u10), subnormal results included:
//  - k = nearest(x / ln 2) (by adding a rounding constant near 1.5 * 2^23: no float-to-int
//    conversion, which V8 makes about eight instructions), r = x - k ln 2 with ln 2 split in
//    two (LN2_HI has 9 bits, so k * LN2_HI is exact for |k| <= 150 and x - k * LN2_HI is
//    exact by Sterbenz's lemma); |r| <= ln 2 / 2;
//  - exp(r) = 1 + r + r^2 q(r), q of degree 4 fitted (weighted least squares, iterated to
//    near-minimax) to (exp(r) - 1 - r) / r^2 for the relative error of exp: 0.07 ulp with
//    the coefficients rounded to float32, so the float32 evaluation's roundings dominate
//    (degree 3 would be 1.8 ulp);
//  - 2^k straight from the rounding sum's bits: the constant added is 1.5 * 2^23 + B, so
//    the sum's low bits hold k + B and a shift by 23 moves them into the exponent field
//    (the constant's own bits shift out). exp32 uses B = 254 and splits 2^k into two normal
//    powers 2^floor(k/2) 2^ceil(k/2), so results below 2^-126 round once, into subnormals,
//    and 2^128 overflows to infinity; expScaled (x <= 0) uses B = 191, one power 2^(k + 64),
//    and returns exp(x) 2^64: never subnormal, two instructions for the scaling.
// x is clamped to [-104, 89] first: below, exp rounds to 0; above, to infinity. NaN stays
// NaN (pmin and pmax keep a NaN first operand). `lo` is a small correction added to r:
// softmax passes the rounding error of x - max there (Note [Softmax rows in SIMD]).
// Where relaxed SIMD is on, each Horner step is one fused multiply-add (`madd`); the
// reduction's products are exact, so fused or not they give the same r.
//
// The constants sit in the module's static data and are splat-loaded (one instruction; V8
// builds a v128.const from immediates with about four, at every use). V8 moves no load out
// of a loop, so loops over many vectors load them into locals first (`expK`) and pass them
// in: kept in registers, they take exp from about 3.3 to 2.0 ms per 4M floats on one core.
import { madd } from './simd';

const LOG2E: f32 = 1.4426950216;
const LN2_HI: f32 = 0.693359375;
const LN2_LO: f32 = -2.1219444170e-4;
/** 1.5 * 2^23 + B (exactly representable): adding it rounds to an integer k + B held in the low bits. */
const ROUND_SPLIT: f32 = 12582912 + 254;
const ROUND_SCALED: f32 = 12582912 + 191;

const K = memory.data<f32>([
  LOG2E, ROUND_SPLIT, -LN2_HI, -LN2_LO,
  0.0013814611593, 0.0083687100559, 0.041668388993, 0.16666521132, 0.49999994040, 1,
  -104, 89, ROUND_SCALED,
], 16);
/** The exponent field of a float32. */
const KI = memory.data<i32>([0x7f800000], 16);

/** Constant i of exp (indices: LOG2E, ROUND, LN2_HI, LN2_LO, ...): load into locals before a loop. */
// @ts-ignore: decorator
@inline export function expK(i: i32): v128 {
  return i == 13 ? v128.load32_splat(KI) : v128.load32_splat(K + (<usize>i << 2));
}

/** exp(r) - 1 for r = x - k ln 2 + lo, by the polynomial (Note [float32 exp in SIMD]). */
// @ts-ignore: decorator
@inline function reduced(x: v128, lo: v128, k: v128, ln2Hi: v128, ln2Lo: v128, c4: v128, c5: v128, c6: v128, c7: v128, c8: v128): v128 {
  let r = madd(k, ln2Hi, x);
  r = f32x4.add(madd(k, ln2Lo, r), lo);
  let q = madd(c4, r, c5);
  q = madd(q, r, c6);
  q = madd(q, r, c7);
  q = madd(q, r, c8);
  return madd(f32x4.mul(r, r), q, r);
}

/**
 * exp of x + lo per lane, x already clamped to [-104, 89] (Note [float32 exp in SIMD]);
 * the other arguments are expK(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13).
 */
// @ts-ignore: decorator
@inline export function expClamped(x: v128, lo: v128, log2e: v128, round: v128, ln2Hi: v128, ln2Lo: v128, c4: v128, c5: v128, c6: v128, c7: v128, c8: v128, one: v128, exponent: v128): v128 {
  const kr = madd(x, log2e, round);
  const p = f32x4.add(reduced(x, lo, f32x4.sub(kr, round), ln2Hi, ln2Lo, c4, c5, c6, c7, c8), one);
  // kr's low bits are v = k + 254; s1 = 2^(floor(v / 2) - 127), s2 = 2^(v - floor(v / 2) - 127).
  const s1 = v128.and(i32x4.shl(kr, 22), exponent);
  const s2 = i32x4.sub(i32x4.shl(kr, 23), s1);
  return f32x4.mul(f32x4.mul(p, s1), s2);
}

/**
 * exp(x + lo) 2^64 for x in [-131, 0] (softmax's x - max): kr's low bits are k + 191, so
 * kr << 23 is 2^(k + 64), a normal float32 for k in [-190, 63]. The other arguments are
 * expK(0, 12, 2, 3, 4, 5, 6, 7, 8, 9) (`one` is unused: the scaling adds the 1).
 */
// @ts-ignore: decorator
@inline export function expScaled(x: v128, lo: v128, log2e: v128, round: v128, ln2Hi: v128, ln2Lo: v128, c4: v128, c5: v128, c6: v128, c7: v128, c8: v128, one: v128): v128 {
  const kr = madd(x, log2e, round);
  // (p + 1) 2^(k + 64) as one fused multiply-add where relaxed SIMD is on.
  const scale = i32x4.shl(kr, 23);
  return madd(reduced(x, lo, f32x4.sub(kr, round), ln2Hi, ln2Lo, c4, c5, c6, c7, c8), scale, scale);
}

/** exp per float32 lane (Note [float32 exp in SIMD]), its constants loaded at the call. */
// @ts-ignore: decorator
@inline export function exp32(x: v128): v128 {
  const c = f32x4.pmin(f32x4.pmax(x, expK(10)), expK(11));
  return expClamped(c, f32x4.splat(0), expK(0), expK(1), expK(2), expK(3), expK(4), expK(5), expK(6), expK(7), expK(8), expK(9), expK(13));
}

/** exp32 with its constants as arguments: expK(10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13). */
// @ts-ignore: decorator
@inline export function exp32With(x: v128, lo: v128, hi: v128, log2e: v128, round: v128, ln2Hi: v128, ln2Lo: v128, c4: v128, c5: v128, c6: v128, c7: v128, c8: v128, one: v128, exponent: v128): v128 {
  const c = f32x4.pmin(f32x4.pmax(x, lo), hi);
  return expClamped(c, f32x4.splat(0), log2e, round, ln2Hi, ln2Lo, c4, c5, c6, c7, c8, one, exponent);
}

/** o[i] = exp(x[i]) for n float32 (byte addresses; o may be x). */
export function expF32(x: usize, o: usize, n: i32): void {
  const k10 = expK(10), k11 = expK(11), k0 = expK(0), k1 = expK(1), k2 = expK(2), k3 = expK(3), k4 = expK(4);
  const k5 = expK(5), k6 = expK(6), k7 = expK(7), k8 = expK(8), k9 = expK(9), k13 = expK(13);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const at = <usize>i << 2;
    v128.store(o + at, exp32With(v128.load(x + at), k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13));
  }
  for (; i < n; i++) {
    const at = <usize>i << 2;
    store<f32>(o + at, f32x4.extract_lane(exp32(f32x4.splat(load<f32>(x + at))), 0));
  }
}
