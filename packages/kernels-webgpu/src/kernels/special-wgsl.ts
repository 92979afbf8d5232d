/**
 * Note [The special functions in WGSL]
 * float32 versions of the special functions (kernels-cpu's Note [The special functions in
 * doubles] has the double ones): the same mathematics with fewer terms, since float32 needs
 * ~1e-7. lgamma and digamma recur up to 7 then use Stirling's and the asymptotic series;
 * trigamma and zeta(s, q) likewise (Euler-Maclaurin tail above 10); the Bessel functions use
 * the power series to 15 and the asymptotic expansion above; erfcx uses exp(x^2) erfc(x)
 * below 3 (x^2 still exact enough) and Laplace's continued fraction above; ndtri refines the
 * Abramowitz-Stegun tail guess by Halley steps on erfc. sinc and trigamma's reflection round
 * pi * x to float32 first, as PyTorch's float32 kernels do. The Bessel functions J, Y, K are
 * kernels-cpu's algorithms (Note [Bessel functions in doubles]) with float32's thresholds: J by
 * Bessel's integral (trapezoid, 32 panels) to 12 and Hankel's expansion above, Y's and K's
 * ascending series to 6.5 and 2, K's integral by the trapezoid rule above 2.
 */
export const SPECIAL_WGSL = /* wgsl */ `
fn lgamma_pos(x0: f32) -> f32 {
  var x = x0;
  var acc = 0.0;
  while (x < 7.0) { acc -= log_f(x); x += 1.0; }
  let r = 1.0 / x;
  let r2 = r * r;
  return acc + (x - 0.5) * log_f(x) - x + 0.91893853320467274 + r * (0.083333333333 - r2 * (0.0027777777778 - r2 * 0.00079365079365));
}
fn lgamma_f(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (isinf_f(x)) { return inf_f(); }
  if (x == 1.0 || x == 2.0) { return 0.0; }
  if (x >= 0.5) { return lgamma_pos(x); }
  var r = x - 2.0 * round(x * 0.5);
  if (r > 0.5) { r = 1.0 - r; } else if (r < -0.5) { r = -1.0 - r; }
  let s = abs(sin_f(3.14159265358979 * r));
  if (s == 0.0) { return inf_f(); }
  return log_f(3.14159265358979 / s) - lgamma_pos(1.0 - x);
}
fn digamma_f(x0: f32) -> f32 {
  if (isnan_f(x0)) { return x0; }
  if (x0 == 0.0) { return select(-inf_f(), inf_f(), signbit_f(x0)); }
  var x = x0;
  var acc = 0.0;
  if (x < 0.0) {
    if (x == trunc(x)) { return nan_f(); }
    let r = x - round(x);
    acc = -3.14159265358979 / tan_f(3.14159265358979 * r);
    x = 1.0 - x;
  }
  if (isinf_f(x)) { return x; }
  while (x < 7.0) { acc -= 1.0 / x; x += 1.0; }
  let r2 = 1.0 / (x * x);
  return acc + log_f(x) - 0.5 / x - r2 * (0.083333333333 - r2 * (0.0083333333333 - r2 * 0.0039682539683));
}
fn trigamma_f(x0: f32) -> f32 {
  if (isnan_f(x0)) { return x0; }
  var x = x0;
  var sgn = 1.0;
  var acc = 0.0;
  if (x < 0.5) {
    let s = sin_f(3.14159265358979 * x);
    acc = -9.8696044010893586 / (s * s);
    sgn = -1.0;
    x = 1.0 - x;
  }
  if (isinf_f(x)) { return sgn * acc; }
  while (x < 7.0) { acc += 1.0 / (x * x); x += 1.0; }
  let r = 1.0 / x;
  let r2 = r * r;
  return sgn * (acc + r + 0.5 * r2 + r * r2 * (0.16666666667 - r2 * (0.033333333333 - r2 * 0.023809523810)));
}
// a^-s, by repeated products for the integer s of polygamma (pow's exp(log) loses ~1e-6 at 1e32)
fn pow_neg(a: f32, s: f32) -> f32 {
  // An integer s by squaring, then one reciprocal: a few roundings, where a driver's
  // exp2(-s log2 a) is off by |s| times its log2's absolute error (1e-5 at s = 100 on NVIDIA).
  if (s != floor(s) || s > 16777216.0) { return pow_f(a, -s); }
  var base = a;
  var e = u32(s);
  var r = 1.0;
  loop { if ((e & 1u) == 1u) { r *= base; } e = e >> 1u; if (e == 0u) { break; } base *= base; }
  if (r == 0.0 || isinf_f(r)) { return pow_f(a, -s); }
  return div_f(1.0, r);
}
fn zeta_f(s: f32, q: f32) -> f32 {
  if (isnan_f(s) || isnan_f(q)) { return nan_f(); }
  if (s == 1.0) { return inf_f(); }
  if (s < 1.0) { return nan_f(); }
  if (q <= 0.0) {
    if (q == floor(q)) { return inf_f(); }
    if (s != floor(s)) { return nan_f(); }
  }
  if (isinf_f(q)) { return nan_f(); }
  var sum = 0.0;
  var a = q;
  for (var i = 0; i < 10 || (a <= 9.0 && i < 100000); i++) { sum += pow_neg(a, s); a += 1.0; }
  if (sum == 0.0) { return select(0.0, nan_f(), s > 2.5e13); } // (PyTorch's: its tail's rising factorial overflows)
  if (isinf_f(sum) || isnan_f(sum)) { return sum; }
  let lim = min(s, 100.0);
  while (a < lim) { sum += pow_neg(a, s); a += 1.0; }
  let as_ = pow_neg(a, s);
  if (as_ == 0.0) { return sum; } // (the tail underflows; its rising factorial may not)
  var tail = a * as_ / (s - 1.0) + 0.5 * as_;
  let b = array<f32, 6>(0.083333333333, -0.0013888888889, 3.3068783069e-5, -8.2671957672e-7, 2.0876756988e-8, -5.2841901386e-10);
  var rising = s;
  var power = as_ / a;
  let inv2 = 1.0 / (a * a);
  for (var j = 0; j < 6; j++) {
    tail += b[j] * rising * power;
    let fj = f32(j);
    rising *= (s + 2.0 * fj + 1.0) * (s + 2.0 * fj + 2.0);
    power *= inv2;
  }
  return sum + tail;
}
fn polygamma_f(x: f32, n: u32) -> f32 {
  if (n == 0u) { return digamma_f(x); }
  if (n == 1u) { return trigamma_f(x); }
  var fact = 1.0;
  for (var k = 2u; k <= n; k++) { fact *= f32(k); }
  return select(-1.0, 1.0, (n & 1u) == 1u) * fact * zeta_f(f32(n) + 1.0, x);
}
fn mvlgamma_f(x: f32, p: u32) -> f32 {
  let fp = f32(p);
  var s = fp * (fp - 1.0) * 0.25 * 1.1447298858494002;
  for (var j = 0u; j < p; j++) { s += lgamma_f(x - 0.5 * f32(j)); }
  return s;
}
fn bessel_series(x: f32, nu: f32) -> f32 {
  let q = x * x * 0.25;
  var term = 1.0;
  var sum = 1.0;
  for (var k = 1; k < 200; k++) {
    let fk = f32(k);
    term *= q / (fk * (fk + nu));
    sum += term;
    if (term <= 1e-8 * sum) { break; }
  }
  return sum;
}
fn bessel_asym(x: f32, nu: f32) -> f32 {
  let mu = 4.0 * nu * nu;
  var term = 1.0;
  var sum = 1.0;
  for (var k = 1; k < 40; k++) {
    let m = 2.0 * f32(k) - 1.0;
    let next = term * -(mu - m * m) / (f32(k) * 8.0 * x);
    if (abs(next) >= abs(term)) { break; }
    term = next;
    sum += term;
    if (abs(term) <= 1e-8 * abs(sum)) { break; }
  }
  return sum * 0.39894228040143268 / sqrt(x);
}
// I_nu(|x|), times exp(-|x|) when scaled
fn bessel_i(ax: f32, nu: f32, scaled: bool) -> f32 {
  if (isinf_f(ax)) { return select(nan_f(), 0.0, scaled); }
  if (ax <= 15.0) {
    let v = select(1.0, ax * 0.5, nu > 0.5) * bessel_series(ax, nu);
    return select(v, v * exp_f(-ax), scaled);
  }
  let s = bessel_asym(ax, nu);
  if (scaled) { return s; }
  if (ax > 88.72283935546875) { return inf_f(); } // (exp overflows, as in PyTorch's float32 kernel)
  return s * exp_f(ax);
}
fn i0_f(x: f32) -> f32 { if (isnan_f(x)) { return x; } return bessel_i(abs(x), 0.0, false); }
fn i0e_f(x: f32) -> f32 { if (isnan_f(x)) { return x; } return bessel_i(abs(x), 0.0, true); }
fn i1_f(x: f32) -> f32 { if (isnan_f(x) || x == 0.0) { return x; } return sign(x) * bessel_i(abs(x), 1.0, false); }
fn i1e_f(x: f32) -> f32 { if (isnan_f(x) || x == 0.0) { return x; } return sign(x) * bessel_i(abs(x), 1.0, true); }
fn sinc_f(x: f32) -> f32 {
  if (x == 0.0) { return 1.0; }
  let p = 3.14159265358979 * x;
  return sin_f(p) / p;
}
// bfloat16: PyTorch 1.13's kernel rounds pi * x to bfloat16 first
fn sinc_bh(x: f32) -> f32 {
  if (x == 0.0) { return 1.0; }
  let p = bfr(3.140625 * x);
  return sin_f(p) / p;
}
fn xlogy_f(x: f32, y: f32) -> f32 {
  if (isnan_f(y)) { return y; }
  if (x == 0.0) { return 0.0; }
  return x * log_f(y);
}
fn xlog1py_f(x: f32, y: f32) -> f32 {
  if (isnan_f(y)) { return y; }
  if (x == 0.0) { return 0.0; }
  return x * log1p_f(y);
}
fn entr_f(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (x > 0.0) { return -x * log_f(x); }
  return select(-inf_f(), 0.0, x == 0.0);
}
fn erfcx_f(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (x < 0.0) {
    if (x < -9.4) { return inf_f(); }
    return 2.0 * exp_f(x * x) - erfcx_f_pos(-x);
  }
  return erfcx_f_pos(x);
}
fn erfcx_f_pos(x: f32) -> f32 {
  if (x < 3.0) { return exp_f(x * x) * erfc_f(x); }
  if (isinf_f(x)) { return 0.0; }
  var f = x;
  for (var k = 50; k >= 1; k--) { f = x + f32(k) * 0.5 / f; }
  return 1.0 / (1.7724538509055160 * f);
}
fn log_ndtr_f(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  let t = x * 0.70710678118654752;
  if (x < -1.0) {
    if (isinf_f(x)) { return x; }
    return log_f(erfcx_f_pos(-t) * 0.5) - t * t;
  }
  return log1p_f(-erfc_f(t) * 0.5);
}
fn ndtri_f(p: f32) -> f32 {
  if (isnan_f(p) || p < 0.0 || p > 1.0) { return nan_f(); }
  if (p == 0.0) { return -inf_f(); }
  if (p == 1.0) { return inf_f(); }
  if (p >= 0.25 && p <= 0.75) { return 1.4142135623730951 * erfinv_f(2.0 * p - 1.0); }
  var q = p;
  var flip = false;
  if (p > 0.5) { q = 1.0 - p; flip = true; }
  let t = sqrt(-2.0 * log_f(q));
  var x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1.0 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  for (var i = 0; i < 3; i++) {
    let e = 0.5 * erfc_f(-x * 0.70710678118654752) - q;
    let u = e * 2.5066282746310002 * exp_f(x * x * 0.5);
    x -= u / (1.0 + x * u * 0.5);
  }
  return select(x, -x, flip);
}

const EULER_GAMMA: f32 = 0.57721566490153286;
fn bessel_j_trap(n: f32, x: f32) -> f32 {
  let N = 32;
  let h = 3.14159265358979 / f32(N);
  var sum = 0.5 * (1.0 + select(1.0, -1.0, n > 0.5)); // (t = 0 and t = pi)
  for (var k = 1; k < N; k++) {
    let t = f32(k) * h;
    sum += cos_f(n * t - x * sin_f(t));
  }
  return sum / f32(N);
}
// Hankel's expansion: vec2(J, Y) of order nu at x > 12
fn bessel_hankel(nu: f32, x: f32) -> vec2<f32> {
  let mu = 4.0 * nu * nu;
  var p = 1.0;
  var q = 0.0;
  var term = 1.0;
  for (var k = 1; k < 30; k++) {
    let m = 2.0 * f32(k) - 1.0;
    let next = term * (mu - m * m) / (f32(k) * 8.0 * x);
    if (abs(next) >= abs(term) && k > 2) { break; }
    term = next;
    let signed = select(-term, term, ((k / 2) % 2) == 0);
    if ((k % 2) == 1) { q += signed; } else { p += signed; }
    if (abs(term) < 1e-9) { break; }
  }
  // (the phase rounded to float32, as PyTorch's float32 kernel rounds it)
  let chi = x - select(0.78539816339744831, 2.35619449019234492, nu > 0.5);
  let cc = cos_f(chi);
  let ss = sin_f(chi);
  let amp = 0.79788456080286536 / sqrt(x);
  return vec2<f32>(amp * (p * cc - q * ss), amp * (p * ss + q * cc));
}
fn bessel_j0_f(x: f32) -> f32 {
  if (isnan_f(x) || isinf_f(x)) { return nan_f(); }
  let a = abs(x);
  if (a <= 12.0) { return bessel_j_trap(0.0, a); }
  return bessel_hankel(0.0, a).x;
}
fn bessel_j1_f(x: f32) -> f32 {
  if (isnan_f(x) || isinf_f(x)) { return nan_f(); }
  let a = abs(x);
  var v = 0.0;
  if (a <= 12.0) { v = bessel_j_trap(1.0, a); } else { v = bessel_hankel(1.0, a).x; }
  return select(v, -v, x < 0.0);
}
fn bessel_y_f(nu: f32, x: f32) -> f32 {
  if (isnan_f(x) || isinf_f(x) || x < 0.0) { return nan_f(); }
  if (x == 0.0) { return -inf_f(); }
  if (x > 6.5) { return bessel_hankel(nu, x).y; } // (float32's series loses ~1e-5 to cancellation by 8)
  let q = -x * x * 0.25;
  let lh = log_f(x * 0.5);
  var term = 1.0;
  var sum = 0.0;
  if (nu < 0.5) {
    var hk = 0.0;
    for (var k = 1; k < 60; k++) {
      term *= q / f32(k * k);
      hk += 1.0 / f32(k);
      sum += hk * term;
    }
    return 0.63661977236758134 * ((lh + EULER_GAMMA) * bessel_j0_f(x) - sum);
  }
  var psi1 = -EULER_GAMMA;
  for (var k = 0; k < 60; k++) {
    if (k > 0) { term *= q / f32(k * (k + 1)); psi1 += 1.0 / f32(k); }
    sum += (2.0 * psi1 + 1.0 / f32(k + 1)) * term;
  }
  return -0.63661977236758134 / x + 0.63661977236758134 * lh * bessel_j1_f(x) - x * 0.15915494309189535 * sum;
}
fn bessel_y0_f(x: f32) -> f32 { return bessel_y_f(0.0, x); }
fn bessel_y1_f(x: f32) -> f32 { return bessel_y_f(1.0, x); }
// K_nu(x), times e^x when scaled
fn bessel_k_f(nu: f32, x: f32, scaled: bool) -> f32 {
  if (isnan_f(x) || x < 0.0) { return nan_f(); }
  if (x == 0.0) { return inf_f(); }
  if (isinf_f(x)) { return 0.0; }
  if (x < 2.0) {
    let q = x * x * 0.25;
    let lh = log_f(x * 0.5);
    var term = 1.0;
    var sum = 0.0;
    var v = 0.0;
    if (nu < 0.5) {
      var hk = 0.0;
      for (var k = 1; k < 30; k++) { term *= q / f32(k * k); hk += 1.0 / f32(k); sum += hk * term; }
      v = -(lh + EULER_GAMMA) * bessel_i(x, 0.0, false) + sum;
    } else {
      var psi1 = -EULER_GAMMA;
      for (var k = 0; k < 30; k++) {
        if (k > 0) { term *= q / f32(k * (k + 1)); psi1 += 1.0 / f32(k); }
        sum += (2.0 * psi1 + 1.0 / f32(k + 1)) * term;
      }
      v = 1.0 / x + lh * bessel_i(x, 1.0, false) - x * 0.25 * sum;
    }
    return select(v, v * exp_f(x), scaled);
  }
  let h = min(0.25, 0.5 / sqrt(x));
  var sum = 0.5;
  for (var k = 1; k < 4000; k++) {
    let t = f32(k) * h;
    let sh = sinh_f(0.5 * t); // (cosh t - 1 = 2 sinh^2(t/2), exact for the tiny t of a huge x)
    // (x sh first: -2x overflows for x near float32's max, and sh^2 may be flushed to 0)
    let f = exp_f(-((x * sh) * (2.0 * sh))) * select(1.0, cosh_f(t), nu > 0.5);
    sum += f;
    if (f < 1e-9 * sum) { break; }
  }
  let v = sum * h;
  return select(v * exp_f(-x), v, scaled);
}
fn modified_bessel_i0_f(x: f32) -> f32 { return i0_f(x); }
fn modified_bessel_i1_f(x: f32) -> f32 { return i1_f(x); }
fn spherical_bessel_j0_f(x: f32) -> f32 {
  if (isnan_f(x)) { return x; }
  if (isinf_f(x)) { return 0.0; }
  if (abs(x) < 1e-3) { return 1.0 - x * x / 6.0; }
  return sin_f(x) / x;
}
// P(a, x), or Q(a, x) when upper: kernels-cpu's Note [The incomplete gamma functions in doubles] in float32
fn igamma_f(a: f32, x: f32, upper: bool) -> f32 {
  if (isnan_f(a) || isnan_f(x) || a < 0.0 || x < 0.0) { return nan_f(); }
  var p = -1.0;
  if (a == 0.0) { if (x > 0.0) { p = 1.0; } else { return nan_f(); } }
  else if (x == 0.0) { p = 0.0; }
  else if (isinf_f(a)) { if (isinf_f(x)) { return nan_f(); } p = 0.0; }
  else if (isinf_f(x)) { p = 1.0; }
  if (p >= 0.0) { return select(p, 1.0 - p, upper); }
  var q = 0.0;
  if (a > 50.0) {
    // Temme's uniform expansion to its first correction (float32's series and fraction lose ~1e-3 by a = 1e4)
    let mu = div_f(x - a, a);
    var d = mu - log1p_f(mu);
    if (abs(mu) <= 0.1) {
      var term = mu;
      d = 0.0;
      for (var k = 2; k < 20; k++) { term *= -mu; d -= term / f32(k); }
    }
    let eta = sign(mu) * sqrt(2.0 * d);
    var c0 = 1.0 / mu - 1.0 / eta;
    if (abs(eta) < 1e-2) { c0 = -1.0 / 3.0 + eta / 12.0; }
    q = 0.5 * erfc_f(eta * sqrt(a * 0.5)) + exp_f(-a * eta * eta * 0.5) * 0.39894228040143268 / sqrt(a) * c0;
  } else if (x < a + 1.0) {
    var term = 1.0;
    var sum = 1.0;
    for (var n = 1; n < 20000; n++) {
      term *= x / (a + f32(n));
      sum += term;
      if (term < 1e-8 * sum) { break; }
    }
    let pp = exp_f(a * log_f(x) - x - lgamma_f(a + 1.0) + log_f(sum));
    return select(pp, 1.0 - pp, upper);
  } else {
    var b = x + 1.0 - a;
    var c = 1e30;
    var dd = 1.0 / b;
    var f = dd;
    for (var n = 1; n < 20000; n++) {
      let an = -f32(n) * (f32(n) - a);
      b += 2.0;
      dd = an * dd + b;
      if (abs(dd) < 1e-30) { dd = 1e-30; }
      c = b + an / c;
      if (abs(c) < 1e-30) { c = 1e-30; }
      dd = 1.0 / dd;
      let delta = dd * c;
      f *= delta;
      if (abs(delta - 1.0) < 1e-7) { break; }
    }
    q = exp_f(a * log_f(x) - x - lgamma_f(a) + log_f(f));
  }
  return select(1.0 - q, q, upper);
}
`;
