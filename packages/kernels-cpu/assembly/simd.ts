// Shared SIMD helpers. ASC_FEATURE_RELAXED_SIMD is a compile-time constant: the build makes
// one module with relaxed SIMD and one without (Note [Two builds of the kernels]).

/** c + a * b per lane: one fused multiply-add where relaxed SIMD is on, else mul then add. */
// @ts-ignore: decorator
@inline export function madd(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f32x4.relaxed_madd(a, b, c);
  return f32x4.add(c, f32x4.mul(a, b));
}

/** c + a * b per f64 lane, as `madd`. */
// @ts-ignore: decorator
@inline export function madd64(a: v128, b: v128, c: v128): v128 {
  if (ASC_FEATURE_RELAXED_SIMD) return f64x2.relaxed_madd(a, b, c);
  return f64x2.add(c, f64x2.mul(a, b));
}

/** acc + the low two float32 lanes of e, as float64. */
// @ts-ignore: decorator
@inline export function addWide(acc: v128, e: v128): v128 {
  return f64x2.add(acc, f64x2.promote_low_f32x4(e));
}

/** Lanes 2, 3 of e moved to 0, 1 (for addWide). */
// @ts-ignore: decorator
@inline export function highHalf(e: v128): v128 {
  return v128.shuffle<u32>(e, e, 2, 3, 0, 1);
}

/** The first t (1..3) float32 at p, zeros after. */
// @ts-ignore: decorator
@inline export function zeroPart(p: usize, t: i32): v128 {
  let v = f32x4.replace_lane(f32x4.splat(0), 0, load<f32>(p));
  if (t > 1) v = f32x4.replace_lane(v, 1, load<f32>(p, 4));
  if (t > 2) v = f32x4.replace_lane(v, 2, load<f32>(p, 8));
  return v;
}

/** Stores the first t (1..3) float32 lanes of v at p. */
// @ts-ignore: decorator
@inline export function storePart(p: usize, v: v128, t: i32): void {
  store<f32>(p, f32x4.extract_lane(v, 0));
  if (t > 1) store<f32>(p, f32x4.extract_lane(v, 1), 4);
  if (t > 2) store<f32>(p, f32x4.extract_lane(v, 2), 8);
}
