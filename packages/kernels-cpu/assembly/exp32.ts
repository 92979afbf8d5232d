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
import { madd } from './simd';

const LOG2E: f32 = 1.4426950216;
const LN2_HI: f32 = 0.693359375;
const LN2_LO: f32 = -2.1219444170e-4;
/** 1.5 * 2^23 + B (exactly representable): adding it rounds to an integer k + B held in the low bits. */
const ROUND_SPLIT: f32 = 12582912 + 254;
const ROUND_SCALED: f32 = 12582912 + 191;

// The constants sit in the module's static data and are splat-loaded where they are used:
// V8 builds a v128.const from immediates with about four instructions at every use in a
// loop (it does not hoist them), where a splat load is one.
const K = memory.data<f32>([
  LOG2E, ROUND_SPLIT, -LN2_HI, -LN2_LO,
  0.0013814611593, 0.0083687100559, 0.041668388993, 0.16666521132, 0.49999994040, 1,
  -104, 89, ROUND_SCALED, 0,
], 16);
/** The exponent field of a float32. */
const KI = memory.data<i32>([0x7f800000], 16);

// @ts-ignore: decorator
@inline function splat(i: i32): v128 {
  return v128.load32_splat(K + (<usize>i << 2));
}

/** exp(r) for r = x - k ln 2 + lo, by the polynomial (Note [float32 exp in SIMD]). */
// @ts-ignore: decorator
@inline function reduced(x: v128, lo: v128, k: v128): v128 {
  let r = madd(k, splat(2), x);
  r = f32x4.add(madd(k, splat(3), r), lo);
  let q = madd(splat(4), r, splat(5));
  q = madd(q, r, splat(6));
  q = madd(q, r, splat(7));
  q = madd(q, r, splat(8));
  return f32x4.add(madd(f32x4.mul(r, r), q, r), splat(9));
}

/** exp of x + lo per lane, x already clamped to [-104, 89] (Note [float32 exp in SIMD]). */
// @ts-ignore: decorator
@inline export function expClamped(x: v128, lo: v128): v128 {
  const kr = madd(x, splat(0), splat(1));
  const p = reduced(x, lo, f32x4.sub(kr, splat(1)));
  // kr's low bits are v = k + 254; s1 = 2^(floor(v / 2) - 127), s2 = 2^(v - floor(v / 2) - 127).
  const s1 = v128.and(i32x4.shl(kr, 22), v128.load32_splat(KI));
  const s2 = i32x4.sub(i32x4.shl(kr, 23), s1);
  return f32x4.mul(f32x4.mul(p, s1), s2);
}

/**
 * exp(x + lo) 2^64 for x in [-131, 0] (softmax's x - max): kr's low bits are k + 191, so
 * kr << 23 is 2^(k + 64), a normal float32 for k in [-190, 63].
 */
// @ts-ignore: decorator
@inline export function expScaled(x: v128, lo: v128): v128 {
  const kr = madd(x, splat(0), splat(12));
  const p = reduced(x, lo, f32x4.sub(kr, splat(12)));
  return f32x4.mul(p, i32x4.shl(kr, 23));
}

/** exp per float32 lane (Note [float32 exp in SIMD]). */
// @ts-ignore: decorator
@inline export function exp32(x: v128): v128 {
  const c = f32x4.pmin(f32x4.pmax(x, splat(10)), splat(11));
  return expClamped(c, f32x4.splat(0));
}

/** o[i] = exp(x[i]) for n float32 (byte addresses; o may be x). */
export function expF32(x: usize, o: usize, n: i32): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) v128.store(o + (<usize>i << 2), exp32(v128.load(x + (<usize>i << 2))));
  for (; i < n; i++) {
    const at = <usize>i << 2;
    store<f32>(o + at, f32x4.extract_lane(exp32(f32x4.splat(load<f32>(x + at))), 0));
  }
}
