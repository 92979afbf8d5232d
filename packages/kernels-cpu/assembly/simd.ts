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
