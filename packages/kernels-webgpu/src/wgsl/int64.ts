/**
 * Note [int64 on WebGPU]
 * WGSL has no 64-bit integers. An int64 element is two u32 words in storage (lo, hi; Note
 * [WebGPU dtypes]) and a `vec2<u32>` value in a kernel (x = lo, y = hi, two's complement),
 * so int64 arithmetic is exact and wraps modulo 2^64 as PyTorch's does:
 *  - add/sub: word sums with the carry (borrow) of the low word;
 *  - mul: the low 64 bits of the product: the full 64-bit product of the low words
 *    (`u32_mul_wide`, 16-bit limbs: WGSL has no mulhi) plus the two cross products' low words;
 *  - comparisons: the high words as i32, then the low words as u32;
 *  - division (trunc/floor), remainder, fmod: restoring long division of the magnitudes,
 *    one bit per step from the dividend's top set bit (64 steps at most, one u32 division
 *    when both fit in 32 bits); INT64_MIN / -1 wraps to INT64_MIN as on CPU;
 *  - pow: by squaring, negative exponents as PyTorch's `powi` (1, ±1 or 0);
 *  - casts: int64 -> float32 rounds once, to nearest even, from the 64-bit value (integer
 *    code, not f32 arithmetic that would round twice); float32 -> int64 truncates, and NaN,
 *    ±inf and values outside [-2^63, 2^63) give INT64_MIN (x86's "integer indefinite", as
 *    the CPU backend).
 * The helpers every kernel may need (add, sub, neg, mul, lt, sign tests) are in the prelude;
 * the longer ones here are included only by the kernels that call them (PointwiseExpr.helpers).
 */

/** Division, remainder and fmod of int64 values (`b` must be non-zero; callers select 0 and flag the error). */
export const INT64_DIV_HELPERS = /* wgsl */ `
fn u64_lt(a: vec2<u32>, b: vec2<u32>) -> bool { return a.y < b.y || (a.y == b.y && a.x < b.x); }
// n / d and n % d of unsigned 64-bit values, d != 0: vec4(q.lo, q.hi, r.lo, r.hi).
fn u64_divmod(n: vec2<u32>, d: vec2<u32>) -> vec4<u32> {
  if (n.y == 0u && d.y == 0u) { return vec4<u32>(n.x / d.x, 0u, n.x % d.x, 0u); }
  var q = vec2<u32>(0u, 0u);
  var r = vec2<u32>(0u, 0u);
  var i = select(31i - i32(countLeadingZeros(n.x)), 63i - i32(countLeadingZeros(n.y)), n.y != 0u);
  loop {
    if (i < 0i) { break; }
    let s = u32(i) & 31u;
    let w = select(n.x, n.y, i >= 32i);
    r = vec2<u32>((r.x << 1u) | ((w >> s) & 1u), (r.y << 1u) | (r.x >> 31u));
    if (!u64_lt(r, d)) {
      r = i64_sub(r, d);
      if (i >= 32i) { q.y = q.y | (1u << s); } else { q.x = q.x | (1u << s); }
    }
    i = i - 1i;
  }
  return vec4<u32>(q, r);
}
// Truncating division of int64 values, b != 0: vec4(quotient, C's remainder (sign of a)).
fn i64_divmod(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
  let na = i64_isneg(a);
  let nb = i64_isneg(b);
  let qr = u64_divmod(select(a, i64_neg(a), na), select(b, i64_neg(b), nb));
  return vec4<u32>(select(qr.xy, i64_neg(qr.xy), na != nb), select(qr.zw, i64_neg(qr.zw), na));
}
fn i64_div_trunc(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if (!i64_nz(b)) { return vec2<u32>(0u, 0u); }
  return i64_divmod(a, b).xy;
}
fn i64_div_floor(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if (!i64_nz(b)) { return vec2<u32>(0u, 0u); }
  let qr = i64_divmod(a, b);
  if (i64_nz(qr.zw) && i64_isneg(qr.zw) != i64_isneg(b)) { return i64_sub(qr.xy, vec2<u32>(1u, 0u)); }
  return qr.xy;
}
fn i64_fmod(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if (!i64_nz(b)) { return vec2<u32>(0u, 0u); }
  return i64_divmod(a, b).zw;
}
fn i64_remainder(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if (!i64_nz(b)) { return vec2<u32>(0u, 0u); }
  let r = i64_divmod(a, b).zw;
  if (i64_nz(r) && i64_isneg(r) != i64_isneg(b)) { return i64_add(r, b); }
  return r;
}`;

/** Integer power modulo 2^64 (PyTorch's `powi`). */
export const INT64_POW_HELPER = /* wgsl */ `
fn i64_pow(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if (i64_isneg(b)) {
    if (a.x == 1u && a.y == 0u) { return a; }
    if (a.x == 0xffffffffu && a.y == 0xffffffffu) { return select(vec2<u32>(1u, 0u), a, (b.x & 1u) == 1u); }
    return vec2<u32>(0u, 0u);
  }
  var base = a;
  var e = b;
  var r = vec2<u32>(1u, 0u);
  loop {
    if (!i64_nz(e)) { break; }
    if ((e.x & 1u) == 1u) { r = i64_mul(r, base); }
    e = vec2<u32>((e.x >> 1u) | (e.y << 31u), e.y >> 1u);
    base = i64_mul(base, base);
  }
  return r;
}`;

/** Exact casts between int64 and float32 (Note [int64 on WebGPU]). */
export const INT64_CAST_HELPERS = /* wgsl */ `
// An unsigned 64-bit value to f32, rounded once to nearest even.
fn u64_to_f32(m: vec2<u32>) -> f32 {
  if (m.y == 0u && m.x < 16777216u) { return f32(m.x); }
  var hi: u32;
  var lo: u32;
  var e: i32;
  if (m.y == 0u) {
    let z = countLeadingZeros(m.x);
    hi = m.x << z; lo = 0u; e = 8i - i32(z);
  } else {
    let z = countLeadingZeros(m.y);
    hi = select((m.y << z) | (m.x >> ((32u - z) & 31u)), m.y, z == 0u); lo = m.x << z; e = 40i - i32(z);
  }
  var mant = hi >> 8u;
  let rest = hi & 255u;
  if (rest > 128u || (rest == 128u && (lo != 0u || (mant & 1u) == 1u))) { mant = mant + 1u; }
  return ldexp(f32(mant), e);
}
fn i64_to_f32(v: vec2<u32>) -> f32 {
  let neg = i64_isneg(v);
  let r = u64_to_f32(select(v, i64_neg(v), neg));
  return select(r, -r, neg);
}
fn f32_to_i64(x: f32) -> vec2<u32> {
  if (isnan_f(x) || !(abs(x) < 9223372036854775808.0)) { return vec2<u32>(0u, 0x80000000u); }
  let a = trunc(abs(x));
  let h = floor(a / 4294967296.0);
  let m = vec2<u32>(u32(a - h * 4294967296.0), u32(h));
  return select(m, i64_neg(m), x < 0.0);
}`;
