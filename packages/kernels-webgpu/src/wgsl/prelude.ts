import { PLAIN_DIVISION } from './division';

/**
 * WGSL helpers every generated kernel may call. NaN and infinity are tested on the bits, not
 * with `x != x`, which a shader compiler is allowed to fold away. The approximations are
 * chosen to stay within float32's assert_close tolerance of PyTorch's CPU results.
 */
export const PRELUDE = /* wgsl */ `
${PLAIN_DIVISION}
fn isnan_f(x: f32) -> bool { let u = bitcast<u32>(x); return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0u; }
fn isinf_f(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn nan_f() -> f32 { var u = 0x7fc00000u; return bitcast<f32>(u); }
fn inf_f() -> f32 { var u = 0x7f800000u; return bitcast<f32>(u); }
fn isnan4(x: vec4<f32>) -> vec4<bool> { let u = bitcast<vec4<u32>>(x); return ((u & vec4<u32>(0x7f800000u)) == vec4<u32>(0x7f800000u)) & ((u & vec4<u32>(0x7fffffu)) != vec4<u32>(0u)); }
fn exp_f(x: f32) -> f32 {
  // Cody-Waite reduction x = n ln2 + r, |r| <= ln2/2, and a degree-7 Taylor polynomial:
  // about 1 ulp, where WGSL's exp may be off by 3 + 2|x| ulp. Branch-free: x is clamped to
  // [-104, 88.8], where the formula already gives 0 and inf; 2^n is two normal powers of two
  // built from their bits, applied by two multiplies (the first exact, the second rounding
  // once), so that results near the subnormal and overflow edges stay exact.
  let xc = clamp(x, -104.0, 88.8);
  let n = round(xc * 1.4426950408889634);
  let r = (xc - n * 0.693145751953125) - n * 1.428606765330187e-06;
  let p = 1.0 + r * (1.0 + r * (0.5 + r * (0.16666666666666666 + r * (0.041666666666666664 + r * (0.008333333333333333 + r * (0.001388888888888889 + r * 0.0001984126984126984))))));
  let ni = i32(n);
  let h = ni >> 1u;
  let e = (p * bitcast<f32>(u32(h + 127) << 23u)) * bitcast<f32>(u32(ni - h + 127) << 23u);
  return select(e, x, isnan_f(x));
}
fn exp_f4(x: vec4<f32>) -> vec4<f32> {
  // exp_f on 4 lanes, the same operations (bit-identical results).
  let xc = clamp(x, vec4<f32>(-104.0), vec4<f32>(88.8));
  let n = round(xc * 1.4426950408889634);
  let r = (xc - n * 0.693145751953125) - n * 1.428606765330187e-06;
  let p = 1.0 + r * (1.0 + r * (0.5 + r * (0.16666666666666666 + r * (0.041666666666666664 + r * (0.008333333333333333 + r * (0.001388888888888889 + r * 0.0001984126984126984))))));
  let ni = vec4<i32>(n);
  let h = ni >> vec4<u32>(1u);
  let e = (p * bitcast<vec4<f32>>(vec4<u32>(h + 127) << vec4<u32>(23u))) * bitcast<vec4<f32>>(vec4<u32>(ni - h + 127) << vec4<u32>(23u));
  return select(e, x, isnan4(x));
}
fn exp2_f(x: f32) -> f32 {
  // 2^n exp((x - n) ln2), branch-free as exp_f: clamped to [-150, 128], where it gives 0 and inf.
  let xc = clamp(x, -150.0, 128.0);
  let n = round(xc);
  let ni = i32(n);
  let h = ni >> 1u;
  let e = (exp_f((xc - n) * 0.6931471805599453) * bitcast<f32>(u32(h + 127) << 23u)) * bitcast<f32>(u32(ni - h + 127) << 23u);
  return select(e, x, isnan_f(x));
}
fn exp2_f4(x: vec4<f32>) -> vec4<f32> {
  let xc = clamp(x, vec4<f32>(-150.0), vec4<f32>(128.0));
  let n = round(xc);
  let ni = vec4<i32>(n);
  let h = ni >> vec4<u32>(1u);
  let e = (exp_f4((xc - n) * 0.6931471805599453) * bitcast<vec4<f32>>(vec4<u32>(h + 127) << vec4<u32>(23u))) * bitcast<vec4<f32>>(vec4<u32>(ni - h + 127) << vec4<u32>(23u));
  return select(e, x, isnan4(x));
}
fn sinh_f(x: f32) -> f32 {
  if (abs(x) < 1.0) { return 0.5 * (expm1_f(x) - expm1_f(-x)); }
  let e = exp_f(abs(x));
  if (isinf_f(e) && !isinf_f(x)) { let h = exp_f(0.5 * abs(x)); return sign(x) * ((0.5 * h) * h); }
  return sign(x) * (0.5 * e - 0.5 / e);
}
fn cosh_f(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  let e = exp_f(abs(x));
  if (isinf_f(e) && !isinf_f(x)) { let h = exp_f(0.5 * abs(x)); return (0.5 * h) * h; }
  return 0.5 * e + 0.5 / e;
}
fn exp4(x: vec4<f32>) -> vec4<f32> { return exp_f4(x); }
fn max_nan(a: f32, b: f32) -> f32 { if (isnan_f(a)) { return a; } if (isnan_f(b)) { return b; } return max(a, b); }
fn min_nan(a: f32, b: f32) -> f32 { if (isnan_f(a)) { return a; } if (isnan_f(b)) { return b; } return min(a, b); }
fn expm1_f(x: f32) -> f32 {
  // Kahan's trick: exact where exp(x) rounds to 1, relative accuracy near 0.
  if (abs(x) >= 0.5) { return exp_f(x) - 1.0; }
  let u = exp_f(x);
  if (u == 1.0) { return x; }
  let um1 = u - 1.0;
  if (um1 == -1.0) { return -1.0; }
  if (isinf_f(u)) { return u; }
  return um1 * x / log(u);
}
fn log1p_f(x: f32) -> f32 {
  if (isnan_f(x) || x < -1.0) { return nan_f(); }
  if (x == -1.0) { return -inf_f(); }
  let u = 1.0 + x;
  if (u == 1.0) { return x; }
  if (isinf_f(u)) { return u; }
  return log(u) * x / (u - 1.0);
}
fn tanh_f(x: f32) -> f32 {
  // An odd polynomial below 0.55, else (e^2|x| - 1) / (e^2|x| + 1) (e^2|x| - 1 is expm1_f's
  // value there, its argument being >= 1.1): both computed, then selected (no branches).
  let x2 = x * x;
  let poly = x * (1.0 + x2 * (-0.3333333333 + x2 * (0.1333333333 + x2 * (-0.0539682540 + x2 * (0.0218694885 + x2 * (-0.0088632355))))));
  let e = exp_f(2.0 * min(abs(x), 20.0)) - 1.0;
  return select(select(sign(x) * e / (e + 2.0), poly, abs(x) < 0.55), x, isnan_f(x));
}
fn tanh_f4(x: vec4<f32>) -> vec4<f32> {
  let x2 = x * x;
  let poly = x * (1.0 + x2 * (-0.3333333333 + x2 * (0.1333333333 + x2 * (-0.0539682540 + x2 * (0.0218694885 + x2 * (-0.0088632355))))));
  let e = exp_f4(2.0 * min(abs(x), vec4<f32>(20.0))) - 1.0;
  return select(select(sign(x) * e / (e + 2.0), poly, abs(x) < vec4<f32>(0.55)), x, isnan4(x));
}
fn sigmoid_f(x: f32) -> f32 {
  // 1 / (1 + exp(-x)) for x >= 0, exp(x) / (1 + exp(x)) below: both from exp(-|x|).
  let e = exp_f(-abs(x));
  return select(e / (1.0 + e), 1.0 / (1.0 + e), x >= 0.0);
}
fn sigmoid_f4(x: vec4<f32>) -> vec4<f32> {
  let e = exp_f4(-abs(x));
  return select(e / (1.0 + e), 1.0 / (1.0 + e), x >= vec4<f32>(0.0));
}
fn erf_f(x: f32) -> f32 {
  // erf(x) = 1 - erfc(x); erfc by Numerical Recipes' erfcc (fractional error < 1.2e-7).
  if (isnan_f(x)) { return x; }
  let ax = abs(x);
  if (ax < 0.5) {
    let x2 = x * x;
    return x * (1.1283791671 + x2 * (-0.3761263890 + x2 * (0.1128379167 + x2 * (-0.0268661706 + x2 * (0.0052239776 + x2 * (-0.0008548327))))));
  }
  return sign(x) * (1.0 - erfc_pos(ax));
}
fn erfc_pos(z: f32) -> f32 {
  let t = 1.0 / (1.0 + 0.5 * z);
  let r = t * exp_f(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return r;
}
fn erfc_f(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (abs(x) < 0.5) { return 1.0 - erf_f(x); }
  if (x > 0.0) { return erfc_pos(x); }
  return 2.0 - erfc_pos(-x);
}
fn erfinv_f(x: f32) -> f32 {
  // M. Giles, "Approximating the erfinv function" (single precision).
  if (isnan_f(x) || abs(x) > 1.0) { return nan_f(); }
  if (abs(x) == 1.0) { return sign(x) * inf_f(); }
  var w = -log((1.0 - x) * (1.0 + x));
  var p: f32;
  if (w < 5.0) {
    w = w - 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w; p = -0.00125372503 + p * w; p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w; p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w; p = -0.0076224613 + p * w; p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w; p = 2.83297682 + p * w;
  }
  return p * x;
}
fn pow_f(a: f32, b: f32) -> f32 {
  if (b == 0.0) { return 1.0; }
  if (a == 1.0) { return 1.0; }
  if (isnan_f(a) || isnan_f(b)) { return nan_f(); }
  if (b == 1.0) { return a; }
  if (b == 2.0) { return a * a; }
  // (sqrt's shortcut, but C's pow(-inf, 0.5) = inf and pow(-0, 0.5) = +0: the tensor-scalar
  // form's sqrt semantics are core's, Note [pow with a scalar exponent])
  if (b == 0.5) { if (a == 0.0) { return 0.0; } if (isinf_f(a)) { return inf_f(); } return sqrt(a); }
  if (a == 0.0) {
    if (b < 0.0) { if (fract(b * 0.5) == 0.5 && bitcast<u32>(a) != 0u) { return -inf_f(); } return inf_f(); }
    if (fract(b * 0.5) == 0.5) { return a; }
    return 0.0;
  }
  let m = abs(a);
  var r: f32;
  if (isinf_f(b)) {
    if (m == 1.0) { return 1.0; }
    if ((m > 1.0) == (b > 0.0)) { return inf_f(); }
    return 0.0;
  }
  if (isinf_f(m)) {
    // C's pow(±inf, y): inf for y > 0, 0 for y < 0, negative only for -inf and an odd integer
    // y; a non-integer y is not NaN here (that rule is for finite negative bases)
    let odd = a < 0.0 && trunc(b) == b && fract(b * 0.5) != 0.0;
    if (b > 0.0) { return select(inf_f(), -inf_f(), odd); }
    return bitcast<f32>(select(0u, 0x80000000u, odd)); // (a -0.0 literal may be folded to +0)
  }
  r = exp2(b * log2(m));
  if (a < 0.0) {
    if (trunc(b) != b) { return nan_f(); }
    if (fract(b * 0.5) != 0.0) { return -r; }
  }
  return r;
}
fn pow_i(a: i32, b: i32) -> i32 {
  if (b < 0) {
    if (a == 1) { return 1; }
    if (a == -1) { return select(-1, 1, (b & 1) == 0); }
    return 0;
  }
  var base = a; var e = b; var r = 1;
  loop { if (e == 0) { break; } if ((e & 1) == 1) { r = r * base; } base = base * base; e = e >> 1u; }
  return r;
}
fn pow_u(a: u32, b: u32) -> u32 {
  var base = a; var e = b; var r = 1u;
  loop { if (e == 0u) { break; } if ((e & 1u) == 1u) { r = r * base; } base = base * base; e = e >> 1u; }
  return r & 255u;
}
fn div_floor_f(a: f32, b: f32) -> f32 {
  if (isnan_f(a) || isnan_f(b)) { return nan_f(); }
  if (b == 0.0) { return a / b; }
  let m = fmod_f(a, b);
  var d = div_f(a - m, b);
  // (nz_f: a NaN counts as non-zero, as C's truthiness; SwiftShader's != is ordered)
  if (nz_f(m) && ((b < 0.0) != (m < 0.0))) { d = d - 1.0; }
  if (nz_f(d)) {
    var f = floor(d);
    if (d - f > 0.5) { f = f + 1.0; }
    return f;
  }
  return select(0.0, -0.0, (a < 0.0) != (b < 0.0));
}
fn div_floor_i(a: i32, b: i32) -> i32 {
  if (b == 0) { return 0; }
  let q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) { return q - 1; }
  return q;
}
fn fmod_f(a: f32, b: f32) -> f32 {
  // Exact, as C's fmod: subtract b scaled by powers of two (each step exact by Sterbenz).
  if (b == 0.0 || isinf_f(a) || isnan_f(a) || isnan_f(b)) { return nan_f(); }
  if (isinf_f(b)) { return a; }
  var x = abs(a);
  let y = abs(b);
  loop {
    if (x < y) { break; }
    let e = frexp(x).exp - frexp(y).exp;
    var t = ldexp(y, e);
    if (t > x) { t = ldexp(y, e - 1); }
    x = x - t;
  }
  return select(x, -x, a < 0.0 || (a == 0.0 && bitcast<u32>(a) != 0u));
}
fn remainder_f(a: f32, b: f32) -> f32 {
  var m = fmod_f(a, b);
  if (nz_f(m) && ((b < 0.0) != (m < 0.0))) { m = m + b; }
  return m;
}
fn remainder_i(a: i32, b: i32) -> i32 {
  if (b == 0) { return 0; }
  var r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) { r = r + b; }
  return r;
}
fn hypot_f(a: f32, b: f32) -> f32 {
  if (isinf_f(a) || isinf_f(b)) { return inf_f(); }
  let x = abs(a); let y = abs(b);
  let m = max(x, y);
  if (m == 0.0 || isnan_f(a) || isnan_f(b)) { return x + y; }
  let q = div_f(min(x, y), m);
  return m * sqrt(1.0 + q * q);
}
// WGSL leaves builtins outside their domain undefined (SwiftShader's log(-1) is a number,
// log(0) is -88): these give IEEE's results there, as PyTorch's CPU kernels do.
fn log_f(x: f32) -> f32 {
  if (isnan_f(x) || x < 0.0) { return nan_f(); }
  if (x == 0.0) { return -inf_f(); }
  if (isinf_f(x)) { return x; }
  return log(x);
}
fn log2_f(x: f32) -> f32 {
  if (isnan_f(x) || x < 0.0) { return nan_f(); }
  if (x == 0.0) { return -inf_f(); }
  if (isinf_f(x)) { return x; }
  return log2(x);
}
fn sqrt_f(x: f32) -> f32 {
  if (isnan_f(x) || x < 0.0) { return nan_f(); }
  if (isinf_f(x) || x == 0.0) { return x; }
  return sqrt(x);
}
fn trig_arg_ok(x: f32) -> bool { return !isnan_f(x) && !isinf_f(x); }
fn sin_poly(x: f32, z: f32) -> f32 { return x + x * z * (-1.6666654611e-1 + z * (8.3321608736e-3 + z * (-1.9515295891e-4))); }
fn cos_poly(z: f32) -> f32 { return 1.0 - 0.5 * z + z * z * (4.166664568298827e-2 + z * (-1.388731625493765e-3 + z * 2.443315711809948e-5)); }
// sin and cos of x: Cephes' reduction by pi/4 in three parts, with the multiple y split in
// two (yh, 12 low bits yl) so that each product with the first two parts is exact up to
// |x| = 2^18; beyond, WGSL's builtins, whose accuracy the spec leaves open (NVIDIA's lose
// 1e-2 at 1e5).
fn sincos_f(x: f32) -> vec2<f32> {
  let ax = abs(x);
  if (ax > 262144.0) { return vec2<f32>(sin(x), cos(x)); }
  var j = u32(ax * 1.2732395447351628);
  var y = f32(j);
  if ((j & 1u) == 1u) { j = j + 1u; y = y + 1.0; }
  j = j & 7u;
  var ss = select(1.0, -1.0, x < 0.0);
  var cs = 1.0;
  if (j > 3u) { ss = -ss; cs = -cs; j = j - 4u; }
  if (j > 1u) { cs = -cs; }
  let yl = f32(u32(y) & 4095u);
  let yh = y - yl;
  let r = ((((ax - yh * 0.78515625) - yl * 0.78515625) - yh * 2.4187564849853515625e-4) - yl * 2.4187564849853515625e-4) - y * 3.77489497744594108e-8;
  let z = r * r;
  let sp = sin_poly(r, z);
  let cp = cos_poly(z);
  if (j == 1u || j == 2u) { return vec2<f32>(ss * cp, cs * sp); }
  return vec2<f32>(ss * sp, cs * cp);
}
fn sin_f(x: f32) -> f32 { if (!trig_arg_ok(x)) { return nan_f(); } return sincos_f(x).x; }
fn cos_f(x: f32) -> f32 { if (!trig_arg_ok(x)) { return nan_f(); } return sincos_f(x).y; }
fn tan_f(x: f32) -> f32 { if (!trig_arg_ok(x)) { return nan_f(); } let sc = sincos_f(x); return div_f(sc.x, sc.y); }
// asin/acos: Cephes' asinf polynomial, with the half-angle identity above 0.5.
fn asin_core(a: f32) -> f32 {
  var x = a; var z = a * a; var big = false;
  if (a > 0.5) { z = 0.5 * (1.0 - a); x = sqrt(z); big = true; }
  var r = ((((4.2163199048e-2 * z + 2.4181311049e-2) * z + 4.5470025998e-2) * z + 7.4953002686e-2) * z + 1.6666752422e-1) * z * x + x;
  if (big) { r = 1.5707963267948966 - (r + r); }
  return r;
}
fn asin_f(x: f32) -> f32 {
  if (isnan_f(x) || abs(x) > 1.0) { return nan_f(); }
  return select(asin_core(x), -asin_core(-x), x < 0.0);
}
fn acos_f(x: f32) -> f32 {
  if (isnan_f(x) || abs(x) > 1.0) { return nan_f(); }
  if (x < -0.5) { return 3.141592653589793 - 2.0 * asin_core(sqrt(0.5 * (1.0 + x))); }
  if (x > 0.5) { return 2.0 * asin_core(sqrt(0.5 * (1.0 - x))); }
  return 1.5707963267948966 - select(asin_core(x), -asin_core(-x), x < 0.0);
}
fn signbit_f(x: f32) -> bool { return (bitcast<u32>(x) >> 31u) == 1u; }
fn atan2_f(y: f32, x: f32) -> f32 {
  // C's atan2, signed zeros and infinities included (WGSL leaves those cases open).
  if (isnan_f(x) || isnan_f(y)) { return nan_f(); }
  let ay = abs(y); let ax = abs(x);
  var r: f32;
  if (isinf_f(ay) && isinf_f(ax)) { r = 0.7853981633974483; }
  else if (ay == 0.0 && ax == 0.0) { r = 0.0; }
  else if (ay <= ax) { r = atan(div_f(ay, ax)); }
  else { r = 1.5707963267948966 - atan(div_f(ax, ay)); }
  if (signbit_f(x)) { r = 3.141592653589793 - r; }
  return select(r, -r, signbit_f(y));
}
// round half to even (WGSL's round); with decimals: mode 1 scales by s = 10^d, mode 2 by 10^-d.
fn round_dec(x: f32, s: f32, mode: u32) -> f32 {
  if (isnan_f(x) || isinf_f(x)) { return x; }
  if (mode == 1u) { return div_f(round(x * s), s); }
  if (mode == 2u) { return round(div_f(x, s)) * s; }
  return round(x);
}
fn nz_f(x: f32) -> bool { return isnan_f(x) || x != 0.0; }
fn sign_f(x: f32) -> f32 { return select(0.0, 1.0, x > 0.0) - select(0.0, 1.0, x < 0.0); }
// int64 values as vec2<u32> (lo, hi), wrapping modulo 2^64 (Note [int64 on WebGPU], wgsl/int64.ts).
fn i64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let lo = a.x + b.x; return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x)); }
fn i64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x)); }
fn i64_neg(a: vec2<u32>) -> vec2<u32> { return i64_sub(vec2<u32>(0u, 0u), a); }
fn i64_of_i32(v: i32) -> vec2<u32> { return vec2<u32>(bitcast<u32>(v), bitcast<u32>(v >> 31u)); }
fn i64_isneg(a: vec2<u32>) -> bool { return (a.y >> 31u) == 1u; }
fn i64_nz(a: vec2<u32>) -> bool { return (a.x | a.y) != 0u; }
fn i64_lt(a: vec2<u32>, b: vec2<u32>) -> bool { return bitcast<i32>(a.y) < bitcast<i32>(b.y) || (a.y == b.y && a.x < b.x); }
// The full 64-bit product of two u32 (16-bit limbs: WGSL has no mulhi).
fn u32_mul_wide(a: u32, b: u32) -> vec2<u32> {
  let al = a & 0xffffu; let ah = a >> 16u; let bl = b & 0xffffu; let bh = b >> 16u;
  let lh = al * bh; let hl = ah * bl;
  let mid = ((al * bl) >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  return vec2<u32>(a * b, ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u));
}
fn i64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let p = u32_mul_wide(a.x, b.x); return vec2<u32>(p.x, p.y + a.x * b.y + a.y * b.x); }
// float16 <-> f32 in integer code (Note [float16 on WebGPU] in kinds.ts). f16_to_f32 widens
// the half in the low 16 bits of h exactly; f32_to_f16 rounds to nearest even (overflow to
// inf from 65520, subnormals, NaN -> 0x7e00 | sign), as c10 and core's f32BitsToF16Bits.
fn f16_to_f32(h: u32) -> f32 {
  let s = (h & 0x8000u) << 16u; let e = (h >> 10u) & 0x1fu; let m = h & 0x3ffu;
  if (e == 0x1fu) { return bitcast<f32>(s | 0x7f800000u | (m << 13u)); }
  if (e != 0u) { return bitcast<f32>(s | ((e + 112u) << 23u) | (m << 13u)); }
  if (m == 0u) { return bitcast<f32>(s); }
  let sh = countLeadingZeros(m) - 21u;
  return bitcast<f32>(s | ((113u - sh) << 23u) | (((m << sh) & 0x3ffu) << 13u));
}
fn f32_to_f16(x: f32) -> u32 {
  let b = bitcast<u32>(x); let s = (b >> 16u) & 0x8000u; let a = b & 0x7fffffffu;
  if (a > 0x7f800000u) { return s | 0x7e00u; }
  if (a >= 0x477ff000u) { return s | 0x7c00u; }
  if (a >= 0x38800000u) {
    let h = (a - 0x38000000u) >> 13u; let r = a & 0x1fffu;
    return s | (h + select(0u, 1u, r > 0x1000u || (r == 0x1000u && (h & 1u) == 1u)));
  }
  if (a <= 0x33000000u) { return s; }
  let sh = 126u - (a >> 23u); let mt = (a & 0x7fffffu) | 0x800000u;
  let h = mt >> sh; let r = mt & ((1u << sh) - 1u); let hf = 1u << (sh - 1u);
  return s | (h + select(0u, 1u, r > hf || (r == hf && (h & 1u) == 1u)));
}
// float16's pow (PyTorch's CPU half kernel calls std::pow in float: no sqrt/rsqrt shortcut for
// exponents ±0.5, so pow(-inf, 0.5) is inf and pow(-0, 0.5) is +0, as C's powf).
fn pow_h(a: f32, b: f32) -> f32 {
  if (b == 0.0 || a == 1.0) { return 1.0; }
  if (isinf_f(a) && a < 0.0 && !isnan_f(b)) {
    let odd = trunc(b) == b && fract(b * 0.5) != 0.0;
    if (b > 0.0) { return select(inf_f(), -inf_f(), odd); }
    return bitcast<f32>(select(0u, 0x80000000u, odd)); // (a -0.0 literal may be folded to +0)
  }
  if (a == 0.0 && (b == 0.5 || b == -0.5)) { return select(0.0, inf_f(), b < 0.0); }
  if (b == -0.5 && !isnan_f(a) && a > 0.0) { return 1.0 / sqrt(a); }
  return pow_f(a, b);
}
// float32 -> bfloat16 bits: round to nearest even (the carry may reach the exponent: up to
// inf), NaN -> 0x7fc0, as c10 and core's f32BitsToBf16Bits (Note [float16 on WebGPU]).
fn f32_to_bf16(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  if ((b & 0x7fffffffu) > 0x7f800000u) { return 0x7fc0u; }
  return ((b + 0x7fffu + ((b >> 16u) & 1u)) >> 16u) & 0xffffu;
}
// a float32 rounded to bfloat16 and back; bfloat16's pow: pow_f, but C's pow(-inf, y) where
// y is not ±0.5 (PyTorch's CPU takes sqrt/rsqrt for those, as for float32)
fn bfr(x: f32) -> f32 { return bitcast<f32>(f32_to_bf16(x) << 16u); }
fn pow_b(a: f32, b: f32) -> f32 {
  if (b == 0.5 || b == -0.5) { return pow_f(a, b); }
  return pow_h(a, b);
}
`;
