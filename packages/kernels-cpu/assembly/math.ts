// Note [SIMD float32 math]
// log for float32 lanes, and exp for float64 lanes, written for the pointwise kernels
// (assembly/unary.ts; float32 exp is Note [float32 exp in SIMD]); test/pointwise-wasm.test.ts
// holds them to 1 ulp of the float64 reference rounded to float32 (PyTorch's vectorised
// float32 functions are within about 1).
//  - log32: x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1, s = f / (2 + f); then
//    log(1 + f) = 2 atanh(s) = f - s (f - R), R = 2 s^2/3 + 2 s^4/5 + 2 s^6/7 + 2 s^8/9, so
//    the large term f is exact and only the small correction carries rounding error; plus
//    e ln2 split in two as in exp32 (Cody-Waite). Subnormal inputs are scaled by 2^23 first.
//  - exp64: exp32's reduction in float64, Taylor to degree 11 (truncation under 1e-14),
//    for the functions computed in float64 lanes and rounded once to float32 (tanh, gelu).
const LN2_HI: f32 = 0.693359375;
const LN2_LO: f32 = -2.12194440e-4;
const MAGIC64: f64 = 6755399441055744;

// @ts-ignore: decorator
@inline export function log32(x0: v128): v128 {
  const tiny = f32x4.lt(x0, f32x4.splat(1.17549435e-38));
  const x = v128.bitselect(f32x4.mul(x0, f32x4.splat(8388608)), x0, tiny);
  let e = i32x4.sub(i32x4.shr_u(x, 23), i32x4.splat(127));
  e = i32x4.sub(e, v128.and(tiny, i32x4.splat(23)));
  let m = v128.or(v128.and(x, i32x4.splat(0x7fffff)), i32x4.splat(0x3f800000));
  const big = f32x4.gt(m, f32x4.splat(1.41421356));
  m = v128.bitselect(f32x4.mul(m, f32x4.splat(0.5)), m, big);
  e = i32x4.sub(e, big); // `big` lanes are -1: e + 1
  const f = f32x4.sub(m, f32x4.splat(1));
  const s = f32x4.div(f, f32x4.add(f32x4.splat(2), f));
  const z = f32x4.mul(s, s);
  let R = f32x4.add(f32x4.splat(<f32>(2.0 / 7)), f32x4.mul(z, f32x4.splat(<f32>(2.0 / 9))));
  R = f32x4.add(f32x4.splat(<f32>(2.0 / 5)), f32x4.mul(z, R));
  R = f32x4.add(f32x4.splat(<f32>(2.0 / 3)), f32x4.mul(z, R));
  R = f32x4.mul(z, R);
  const ef = f32x4.convert_i32x4_s(e);
  const lo = f32x4.add(f32x4.sub(f, f32x4.mul(s, f32x4.sub(f, R))), f32x4.mul(ef, f32x4.splat(LN2_LO)));
  let y = f32x4.add(f32x4.mul(ef, f32x4.splat(LN2_HI)), lo);
  y = v128.bitselect(f32x4.splat(-Infinity), y, f32x4.eq(x0, f32x4.splat(0)));
  y = v128.bitselect(x0, y, f32x4.eq(x0, f32x4.splat(Infinity)));
  // Negative inputs and NaN give NaN.
  return v128.bitselect(f32x4.splat(NaN), y, v128.not(f32x4.ge(x0, f32x4.splat(0))));
}

const LN2_HI64: f64 = 6.93147180369123816490e-01;
const LN2_LO64: f64 = 1.90821492927058770002e-10;

/** e^x in float64 lanes for x in [-700, 700] (callers clamp). */
// @ts-ignore: decorator
@inline export function exp64(x: v128): v128 {
  const t = f64x2.add(f64x2.mul(x, f64x2.splat(1.4426950408889634)), f64x2.splat(MAGIC64));
  const n = f64x2.sub(t, f64x2.splat(MAGIC64));
  const r = f64x2.sub(f64x2.sub(x, f64x2.mul(n, f64x2.splat(LN2_HI64))), f64x2.mul(n, f64x2.splat(LN2_LO64)));
  let p = f64x2.splat(1.0 / 39916800);
  p = f64x2.add(f64x2.splat(1.0 / 3628800), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1.0 / 362880), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1.0 / 40320), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1.0 / 5040), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1.0 / 720), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1.0 / 120), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1.0 / 24), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1.0 / 6), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(0.5), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1), f64x2.mul(r, p));
  p = f64x2.add(f64x2.splat(1), f64x2.mul(r, p));
  // 2^n from the exponent bits: n in [-1010, 1010] after the callers' clamps.
  const k = i64x2.sub(t, f64x2.splat(MAGIC64));
  return f64x2.mul(p, i64x2.shl(i64x2.add(k, i64x2.splat(1023)), 52));
}
