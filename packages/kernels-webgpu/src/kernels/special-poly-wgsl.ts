/**
 * Note [Orthogonal polynomials in WGSL]
 * torch.special's orthogonal polynomials and airy_ai in float32, step for step as PyTorch 2.x's
 * float32 kernels (kernels-cpu's Note [Orthogonal polynomials as PyTorch 2.x evaluates them]
 * has the rules): n truncated toward zero, NaN, ±inf and |n| >= 2^63 negative (a 0 result);
 * the closed forms at the edges, the trigonometric form above a degree, then the recurrence,
 * which stops at a NaN term. Loop counters are i32, so an n beyond 2^31 - 1 runs as 2^31 - 1
 * (PyTorch's loop would run as long on any hardware). Hermite's limit is float32's, 128.
 * Where the float32 recurrence overflows, 2.x's float32 answer (and this one) is inf or NaN;
 * the CPU, computing in doubles, rounds a finite double to ±inf.
 */
export const SPECIAL_POLY_WGSL = /* wgsl */ `
fn poly_n(n: f32) -> i32 {
  if (isnan_f(n) || !(abs(n) < 9.2233720e18)) { return -1; }
  let t = trunc(n);
  if (t < 0.0) { return -1; }
  if (t >= 2147483647.0) { return 2147483647; }
  return i32(t);
}
fn poly_odd(n: i32) -> bool { return (n & 1) != 0; }
fn poly_rec(y: f32, q0: f32, n: i32) -> f32 {
  var p = 1.0;
  var q = q0;
  var r = nan_f();
  for (var k = 2; k <= n && !isnan_f(q); k++) {
    r = (y + y) * q - p;
    p = q;
    q = r;
  }
  return r;
}
fn cheb_t_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  if (abs(x) == 1.0) { return select(-1.0, 1.0, x > 0.0 || !poly_odd(n)); }
  if (n > 6 && abs(x) < 1.0) { return cos_f(f32(n) * acos_f(x)); }
  if (n == 0) { return 1.0; }
  if (n == 1) { return x; }
  return poly_rec(x, x, n);
}
fn cheb_u_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  let m = f32(n) + 1.0;
  if (abs(x) == 1.0) { return select(-m, m, x > 0.0 || !poly_odd(n)); }
  if (n > 8 && abs(x) < 1.0) {
    let t = acos_f(x);
    if (sin_f(t) != 0.0) { return div_f(sin_f(m * t), sin_f(t)); }
    return div_f(m * cos_f(m * t), x);
  }
  if (n == 0) { return 1.0; }
  if (n == 1) { return x + x; }
  return poly_rec(x, x + x, n);
}
fn cheb_v_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  let m = 2.0 * f32(n) + 1.0;
  if (abs(x) == 1.0) {
    if (x > 0.0) { return 1.0; }
    return select(m, -m, poly_odd(n));
  }
  if (n > 8 && abs(x) < 1.0) {
    let t = acos_f(x);
    if (sin_f(t / 2.0) != 1.0) { return div_f(cos_f((f32(n) + 0.5) * t), cos_f(t / 2.0)); }
    return select(m, -m, poly_odd(n));
  }
  if (n == 0) { return 1.0; }
  if (n == 1) { return x + x - 1.0; }
  return poly_rec(x, x + x - 1.0, n);
}
fn cheb_w_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  let m = 2.0 * f32(n) + 1.0;
  if (abs(x) == 1.0) {
    if (x > 0.0) { return m; }
    return select(1.0, -1.0, poly_odd(n));
  }
  if (n > 8 && abs(x) < 1.0) {
    let t = acos_f(x);
    if (cos_f(t / 2.0) != 1.0) { return div_f(sin_f((f32(n) + 0.5) * t), sin_f(t / 2.0)); }
    if (x > 0.0) { return m; }
    return select(1.0, -1.0, poly_odd(n));
  }
  if (n == 0) { return 1.0; }
  if (n == 1) { return x + x + 1.0; }
  return poly_rec(x, x + x + 1.0, n);
}
fn scheb_t_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  if (x == 1.0) { return 1.0; }
  if (x == 0.0) { return select(1.0, -1.0, poly_odd(n)); }
  let y = x + x - 1.0;
  if (n > 6 && abs(y) < 1.0) { return cos_f(f32(n) * acos_f(y)); }
  if (n == 0) { return 1.0; }
  if (n == 1) { return y; }
  return poly_rec(y, y, n);
}
fn scheb_u_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  let m = f32(n) + 1.0;
  if (x == 1.0) { return m; }
  if (x == 0.0) { return select(m, -m, poly_odd(n)); }
  let y = x + x - 1.0;
  if (n > 6 && abs(y) < 1.0) {
    let t = acos_f(y);
    if (sin_f(t) != 0.0) { return div_f(sin_f(m * t), sin_f(t)); }
    return div_f(m * cos_f(m * t), y);
  }
  if (n == 0) { return 1.0; }
  if (n == 1) { return y + y; }
  return poly_rec(y, y + y, n);
}
fn scheb_v_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  let m = 2.0 * f32(n) + 1.0;
  if (x == 1.0) { return 1.0; }
  if (x == 0.0) { return select(m, -m, poly_odd(n)); }
  let y = x + x - 1.0;
  if (n > 6 && abs(y) < 1.0) {
    let t = acos_f(y);
    if (sin_f(t / 2.0) != 1.0) { return div_f(cos_f((f32(n) + 0.5) * t), cos_f(t / 2.0)); }
    return select(m, -m, poly_odd(n));
  }
  if (n == 0) { return 1.0; }
  if (n == 1) { return y + y - 1.0; }
  return poly_rec(y, y + y - 1.0, n);
}
fn scheb_w_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  if (x == 1.0) { return 2.0 * f32(n) + 1.0; }
  if (x == 0.0) { return select(1.0, -1.0, poly_odd(n)); }
  let y = x + x - 1.0;
  if (n > 4 && abs(y) < 1.0) {
    let t = acos_f(y);
    if (cos_f(t / 2.0) != 1.0) { return div_f(sin_f((f32(n) + 0.5) * t), sin_f(t / 2.0)); }
    return select(1.0, -1.0, poly_odd(n));
  }
  if (n == 0) { return 1.0; }
  if (n == 1) { return y + y + 1.0; }
  return poly_rec(y, y + y + 1.0, n);
}
fn hermite_h_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  if (n == 0) { return 1.0; }
  if (n == 1) { return x + x; }
  if (n > 128) { return nan_f(); }
  var p = 1.0;
  var q = x + x;
  var r = 0.0;
  for (var k = 2; k < n + n; k += 2) {
    r = (x + x) * q - f32(k) * p;
    p = q;
    q = r;
  }
  return r;
}
fn hermite_he_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  if (n == 0) { return 1.0; }
  if (n == 1) { return x; }
  if (n > 128) { return nan_f(); }
  var p = 1.0;
  var q = x;
  var r = nan_f();
  for (var k = 1; k < n; k++) {
    r = x * q - f32(k) * p;
    p = q;
    q = r;
  }
  return r;
}
fn laguerre_l_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  if (x == 0.0) { return 1.0; }
  if (n == 0) { return 1.0; }
  if (n == 1) { return 1.0 - x; }
  var p = 1.0;
  var q = 1.0 - x;
  var r = nan_f();
  for (var k = 1; k < n && !isnan_f(q); k++) {
    let kf = f32(k);
    r = div_f((kf + kf + (1.0 - x)) * q - kf * p, kf + 1.0);
    p = q;
    q = r;
  }
  return r;
}
fn legendre_p_f(x: f32, nf: f32) -> f32 {
  let n = poly_n(nf);
  if (n < 0) { return 0.0; }
  if (abs(x) == 1.0) { return select(-1.0, 1.0, x > 0.0 || !poly_odd(n)); }
  if (n == 0) { return 1.0; }
  if (n == 1) { return x; }
  var p = 1.0;
  var q = x;
  var r = nan_f();
  for (var k = 1; k < n && !isnan_f(q); k++) {
    let kf = f32(k);
    r = div_f((kf + kf + 1.0) * x * q - kf * p, kf + 1.0);
    p = q;
    q = r;
  }
  return r;
}
fn airy_poly(c: array<f32, 11>, len: i32, z: f32) -> f32 {
  var s = 0.0;
  for (var i = 0; i < len; i++) { s = s * z + c[i]; }
  return s;
}
fn airy_ai_f(x: f32) -> f32 {
  if (isinf_f(x)) { return nan_f(); }
  if (x > 103.892) { return 0.0; }
  if (x < -2.09) {
    let afn = array<f32, 11>(-1.31696323418331795333e-1, -6.26456544431912369773e-1, -6.93158036036933542233e-1, -2.79779981545119124951e-1,
      -4.91900132609500318020e-2, -4.06265923594885404393e-3, -1.59276496239262096340e-4, -2.77649108155232920844e-6, -1.67787698489114633780e-8, 0.0, 0.0);
    let afd = array<f32, 11>(1.33560420706553243746e1, 3.26825032795224613948e1, 2.67367040941499554804e1, 9.18707402907259625840e0,
      1.47529146771666414581e0, 1.15687173795188044134e-1, 4.40291641615211203805e-3, 7.54720348287414296618e-5, 4.51850092970580378464e-7, 0.0, 0.0);
    let agn = array<f32, 11>(1.97339932091685679179e-2, 3.91103029615688277255e-1, 1.06579897599595591108e0, 9.39169229816650230044e-1,
      3.51465656105547619242e-1, 6.33888919628925490927e-2, 5.85804113048388458567e-3, 2.82851600836737019778e-4, 6.98793669997260967291e-6,
      8.11789239554389293311e-8, 3.41551784765923618484e-10);
    let agd = array<f32, 11>(9.30892908077441974853e0, 1.98352928718312140417e1, 1.55646628932864612953e1, 5.47686069422975497931e0,
      9.54293611618961883998e-1, 8.64580826352392193095e-2, 4.12656523824222607191e-3, 1.01259085116509135510e-4, 1.17166733214413521882e-6,
      4.91834570062930015649e-9, 0.0);
    let zeta = -2.0 * x * sqrt(-x) / 3.0;
    let z = div_f(1.0, zeta);
    let zz = z * z;
    // (sin and cos of zeta + pi/4 by the angle sum: zeta is exact enough, pi/4 is not added in float32)
    let s = sin_f(zeta);
    let c = cos_f(zeta);
    let st = (s + c) * 0.70710678118654752;
    let ct = (c - s) * 0.70710678118654752;
    let f = 1.0 + div_f(zz * airy_poly(afn, 9, zz), airy_poly(afd, 9, zz));
    let g = div_f(z * airy_poly(agn, 11, zz), airy_poly(agd, 10, zz));
    return div_f(0.564189583547756286948, sqrt(sqrt(-x))) * (st * f - ct * g);
  }
  if (x >= 2.09) {
    let an = array<f32, 11>(3.46538101525629032477e-1, 1.20075952739645805542e1, 7.62796053615234516538e1, 1.68089224934630576269e2,
      1.59756391350164413639e2, 7.05360906840444183113e1, 1.40264691163389668864e1, 9.99999999999999995305e-1, 0.0, 0.0, 0.0);
    let ad = array<f32, 11>(5.67594532638770212846e-1, 1.47562562584847203173e1, 8.45138970141474626562e1, 1.77318088145400459522e2,
      1.64234692871529701831e2, 7.14778400825575695274e1, 1.40959135607834029598e1, 1.00000000000000000470e0, 0.0, 0.0, 0.0);
    let zeta = 2.0 * x * sqrt(x) / 3.0;
    let iz = div_f(1.0, zeta);
    // (e^-zeta split in two so that neither half underflows before the product)
    let e = exp_f(-0.5 * zeta);
    return div_f(0.564189583547756286948 * div_f(airy_poly(an, 8, iz), airy_poly(ad, 8, iz)) * e, 2.0 * sqrt(sqrt(x))) * e;
  }
  var f = 1.0;
  var g = x;
  var k = 1.0;
  var m = 1.0;
  var n = x;
  var t = 1.0;
  let z = x * x * x;
  for (var i = 0; i < 64 && t > 1.1920929e-7; i++) {
    m *= z;
    k += 1.0;
    m = div_f(m, k);
    n *= z;
    k += 1.0;
    n = div_f(n, k);
    m = div_f(m, k);
    f += m;
    k += 1.0;
    n = div_f(n, k);
    g += n;
    t = abs(div_f(m, f));
  }
  return 0.355028053887817239260 * f - 0.258819403792806798405 * g;
}
`;
