import type { FloatArray } from '../loops/arrays';
import { erfc, erfinv } from './erf-math';
import { ROUND_F64, roundTo } from './float-math';

/**
 * Note [The special functions in doubles]
 * torch.special's functions (and lgamma, digamma, polygamma, i0, sinc, xlogy) computed in
 * doubles from their mathematics, then rounded once by the store:
 *  - lgamma: Lanczos's approximation (g = 7, nine terms) on [0.5, 10), Stirling's series with
 *    terms to x^-13 above, and the reflection log(pi / |sin(pi x)|) - lgamma(1 - x) below 0.5
 *    (sin(pi x) reduced exactly, so the poles at 0, -1, -2... are +inf as in C's lgamma);
 *  - digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic
 *    series in Bernoulli numbers; reflection below 0; trigamma: PyTorch's truncated series
 *    (Note [trigamma as PyTorch truncates it]), reflection below 0.5;
 *  - zeta(s, q) (Hurwitz): the direct sum of ten terms and up to q + N >= 10 (and s, up to
 *    100), then the Euler-Maclaurin tail with twelve Bernoulli terms; polygamma(n >= 2, x) =
 *    (-1)^(n+1) n! zeta(n + 1, x);
 *  - I0, I1 and their scaled forms: the power series (all terms positive: no cancellation)
 *    for |x| <= 20, the asymptotic expansion e^x / sqrt(2 pi x) sum (-1)^k a_k(nu) / x^k
 *    above, whose smallest term there is ~e^-40;
 *  - erfcx: exp(x^2) erfc(x) with x^2 split exactly for x < 10, Laplace's continued fraction
 *    above, and 2 exp(x^2) - erfcx(-x) below 0; log_ndtr from it in the lower tail;
 *  - ndtri: sqrt(2) erfinv(2p - 1) on [0.25, 0.75] (2p - 1 exact there), else the tail's
 *    rational first guess (Abramowitz and Stegun 26.2.23) refined by Halley steps on erfc.
 * PyTorch evaluates trigamma's reflection and sinc with sin(pi * x) of the product rounded
 * to the dtype it computes in (`mode`: float32 for float32, and for float16 and trigamma's
 * bfloat16, which compute in float; bfloat16 for sinc's bfloat16 kernel), which is what makes,
 * for example, trigamma(-1) 1.29e15 rather than inf in float32, and sinc(3e38) nan. Likewise
 * its float32 i0 and i1 overflow with exp(x) (x > 88.72), a little before I(x) does; and its
 * unscaled Bessel functions are nan at ±inf.
 */

const LOG_2PI_HALF = 0.5 * Math.log(2 * Math.PI);
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** sin(pi x) with the argument reduced exactly (so sinpi(n) = 0 for an integer n). */
function sinpi(x: number): number {
  let r = x - 2 * Math.round(x / 2); // in [-1, 1], exact
  if (r > 0.5) r = 1 - r;
  else if (r < -0.5) r = -1 - r;
  return Math.sin(Math.PI * r);
}

/** ln Gamma(x) for x >= 0.5. */
function lgammaPositive(x: number): number {
  if (x >= 10) {
    const r = 1 / x;
    const r2 = r * r;
    const series = r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680 - r2 * (1 / 1188 - r2 * (691 / 360360 - r2 / 156))))));
    return (x - 0.5) * Math.log(x) - x + LOG_2PI_HALF + series;
  }
  const z = x - 1;
  let a = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i] / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return LOG_2PI_HALF + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

export function lgamma(x: number): number {
  if (x !== x) return x;
  if (x === Infinity || x === -Infinity) return Infinity;
  if (x === 1 || x === 2) return 0;
  if (x >= 0.5) return lgammaPositive(x);
  const s = sinpi(x);
  if (s === 0) return Infinity;
  return Math.log(Math.PI / Math.abs(s)) - lgammaPositive(1 - x);
}

export function digamma(x: number): number {
  if (x !== x) return x;
  if (x === 0) return Object.is(x, -0) ? Infinity : -Infinity;
  if (x === Infinity) return Infinity;
  if (x < 0) {
    if (x === Math.trunc(x)) return NaN; // the poles (and -inf)
    // psi(x) = psi(1 - x) - pi / tan(pi x)
    return digamma(1 - x) - (Math.PI * cospiOverSinpi(x));
  }
  let acc = 0;
  while (x < 10) {
    acc -= 1 / x;
    x += 1;
  }
  const r2 = 1 / (x * x);
  const series = r2 * (1 / 12 - r2 * (1 / 120 - r2 * (1 / 252 - r2 * (1 / 240 - r2 * (1 / 132 - r2 * (691 / 32760 - r2 / 12))))));
  return acc + Math.log(x) - 0.5 / x - series;
}

/** cot(pi x), the argument reduced exactly. */
function cospiOverSinpi(x: number): number {
  const r = x - Math.round(x); // in [-0.5, 0.5], exact; cot has period 1
  return 1 / Math.tan(Math.PI * r);
}

/**
 * trigamma as PyTorch computes it (Note [trigamma as PyTorch truncates it]), with the
 * reflection's sin(pi x) evaluated in the dtype of `mode`.
 *
 * Note [trigamma as PyTorch truncates it]
 * PyTorch's trigamma takes exactly six steps of the recurrence psi1(x) = psi1(x + 1) + 1/x²
 * and then four terms of the asymptotic series, 1/x + 1/(2x²) + 1/(6x³) - 1/(30x⁵) +
 * 1/(42x⁷); from x = 0.5 that leaves an error near 1e-9 (psi1(0.5) is 4.9348022021 there, not
 * pi²/2 = 4.9348022005). The gradients of lgamma and digamma (digamma's derivative is
 * polygamma(1, x)) carry that value into every KL divergence and log-probability gradient
 * of the Gamma family, so torch-ts computes the same truncation, in doubles.
 */
export function trigamma(x: number, mode: number): number {
  if (x !== x) return x;
  let sign = 1;
  let acc = 0;
  if (x < 0.5) {
    // psi1(1 - x) + psi1(x) = pi^2 / sin^2(pi x)
    const s = Math.sin(roundTo(roundTo(Math.PI, mode) * x, mode));
    acc = -(Math.PI * Math.PI) / (s * s);
    sign = -1;
    x = 1 - x;
  }
  if (x === Infinity) return sign * (acc + 0);
  for (let i = 0; i < 6; i++) {
    acc += 1 / (x * x);
    x += 1;
  }
  const ixx = 1 / (x * x);
  acc += (1 + 1 / (2 * x) + ixx * (1 / 6 - ixx * (1 / 30 - ixx * (1 / 42)))) / x;
  return sign * acc;
}

// B_2j / (2j)!, j = 1..12
const BERNOULLI_OVER_FACTORIAL = [
  1 / 6 / 2, -1 / 30 / 24, 1 / 42 / 720, -1 / 30 / 40320, 5 / 66 / 3628800, -691 / 2730 / 479001600, 7 / 6 / 87178291200,
  -3617 / 510 / 20922789888000, 43867 / 798 / 6402373705728000, -174611 / 330 / 2432902008176640000,
  854513 / 138 / 1.1240007277776077e21, -236364091 / 2730 / 6.204484017332394e23,
];

/**
 * The Hurwitz zeta function sum_k (q + k)^-s, with PyTorch's domain (s = 1: inf; s < 1: nan;
 * q a non-positive integer: inf; q <= 0 and s not an integer: nan). Where every term of the
 * first ten underflows, PyTorch's series gives 0, or nan once its tail's rising factorial
 * s (s + 1) ... (s + 22) overflows (its 0 * inf): so does this one.
 */
export function zeta(s: number, q: number): number {
  if (s !== s || q !== q) return NaN;
  if (s === 1) return Infinity;
  if (s < 1) return NaN;
  if (q <= 0) {
    if (q === Math.floor(q)) return Infinity;
    if (s !== Math.floor(s)) return NaN;
  }
  if (q === Infinity) return NaN; // (PyTorch's: its tail is inf / inf)
  let sum = 0;
  let a = q;
  // (a far negative q would take as many terms as PyTorch's loop does, ~|q|: capped, not hung)
  for (let i = 0; i < 10 || (a <= 9 && i < 1e7); i++, a += 1) sum += Math.pow(a, -s);
  if (sum === 0) {
    let rising = 1;
    for (let k = 0; k < 23; k++) rising *= s + k;
    return rising === Infinity ? NaN : 0;
  }
  if (!Number.isFinite(sum)) return sum;
  // more terms where s is large next to a, for the tail's sake (they fall fast: stop when negligible)
  const limit = Math.min(s, 100);
  while (a < limit) {
    const term = Math.pow(a, -s);
    sum += term;
    a += 1;
    if (Math.abs(term) <= 1e-17 * Math.abs(sum)) return sum;
  }
  // Euler-Maclaurin: int_a^inf t^-s dt + a^-s / 2 + sum_j B_2j / (2j)! (s)_(2j-1) a^(-s-2j+1)
  const as = Math.pow(a, -s);
  let tail = (a * as) / (s - 1) + 0.5 * as;
  let rising = s; // s (s + 1) ... (s + 2j - 2)
  let power = as / a;
  const inv2 = 1 / (a * a);
  for (let j = 0; j < BERNOULLI_OVER_FACTORIAL.length; j++) {
    const term = BERNOULLI_OVER_FACTORIAL[j] * rising * power;
    tail += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(sum + tail)) break;
    rising *= (s + 2 * j + 1) * (s + 2 * j + 2);
    power *= inv2;
  }
  return sum + tail;
}

/** polygamma(n, x): digamma, trigamma, or (-1)^(n+1) n! zeta(n + 1, x). */
export function polygamma(n: number, x: number, mode: number): number {
  if (n === 0) return digamma(x);
  if (n === 1) return trigamma(x, mode);
  let factorial = 1;
  for (let k = 2; k <= n; k++) factorial *= k;
  return (n % 2 === 1 ? 1 : -1) * factorial * zeta(n + 1, x);
}

// ---- modified Bessel functions of the first kind ----

/** sum_k (x^2/4)^k / (k! (k + nu)!), nu = 0 or 1. */
function besselSeries(x: number, nu: 0 | 1): number {
  const q = (x * x) / 4;
  let term = nu === 0 ? 1 : 1;
  let sum = term;
  for (let k = 1; k < 500; k++) {
    term *= q / (k * (k + nu));
    sum += term;
    if (term <= 1e-17 * sum) break;
  }
  return sum;
}

/** sqrt(2 pi x) e^-x I_nu(x) for x > 20, from the asymptotic expansion. */
function besselAsymptotic(x: number, nu: 0 | 1): number {
  const mu = 4 * nu * nu;
  let term = 1;
  let sum = 1;
  for (let k = 1; k < 60; k++) {
    const next = (term * -(mu - (2 * k - 1) * (2 * k - 1))) / (k * 8 * x);
    if (Math.abs(next) >= Math.abs(term)) break; // past the smallest term
    term = next;
    sum += term;
    if (Math.abs(term) <= 1e-17 * Math.abs(sum)) break;
  }
  return sum;
}

const BESSEL_SWITCH = 20;
const F32_EXP_MAX = 88.72283935546875; // above it, float32's exp(x) is inf
const F64_EXP_MAX = 709.782712893384; // and float64's

/**
 * I_nu(|x|) e^(-|x|) when `scaled`, else I_nu(|x|). PyTorch's unscaled ones are e^x times a
 * series, so they are nan at ±inf and, in float32 and below (`mode`), inf once e^x overflows
 * float32, a little before I_nu(x) itself does.
 */
function besselI(ax: number, nu: 0 | 1, scaled: boolean, mode = ROUND_F64): number {
  if (ax === Infinity) return scaled ? 0 : NaN;
  if (!scaled && mode !== ROUND_F64 && ax > F32_EXP_MAX) return Infinity;
  if (ax <= BESSEL_SWITCH) {
    const v = (nu === 0 ? 1 : ax / 2) * besselSeries(ax, nu);
    return scaled ? v * Math.exp(-ax) : v;
  }
  const s = besselAsymptotic(ax, nu) / Math.sqrt(2 * Math.PI * ax);
  if (scaled) return s;
  // e^x overflows before I(x) does only in the last bits: split it
  const h = Math.exp(ax / 2);
  return s * h * h;
}

export const i0 = (x: number, mode?: number): number => (x !== x ? x : besselI(Math.abs(x), 0, false, mode));
export const i0e = (x: number): number => (x !== x ? x : besselI(Math.abs(x), 0, true));
export const i1 = (x: number, mode?: number): number => (x !== x ? x : x === 0 ? x : Math.sign(x) * besselI(Math.abs(x), 1, false, mode));
export const i1e = (x: number): number => (x !== x ? x : x === 0 ? x : Math.sign(x) * besselI(Math.abs(x), 1, true));

// ---- Bessel functions of the first and second kind, the modified ones of the second kind ----
// (Note [Bessel functions in doubles])

/**
 * Note [Bessel functions in doubles]
 *  - J0, J1 for |x| <= 25: Bessel's integral J_n(x) = (1/pi) int_0^pi cos(n t - x sin t) dt by
 *    the trapezoid rule with 64 panels: the integrand is periodic and smooth, so the rule is
 *    exact to rounding (its error is ~J_128(x)); above 25, Hankel's asymptotic expansion,
 *    J = sqrt(2 / (pi x)) (P cos chi - Q sin chi), whose smallest term there is ~e^-50;
 *  - Y0, Y1 for x <= 12: the ascending series (Abramowitz and Stegun 9.1.11, harmonic numbers
 *    for digamma at the integers); above, the same Hankel expansion (Y = ... P sin chi + Q cos chi);
 *  - K0, K1 for x < 2: the ascending series (A&S 9.6.11); above, the integral
 *    K_n(x) e^x = int_0^inf exp(-x (cosh t - 1)) cosh(n t) dt by the trapezoid rule, again
 *    exact to rounding for a smooth, fast-decaying integrand with a step ~0.5 / sqrt(x).
 * cos(chi) and sin(chi) for chi = x - pi/4 or x - 3pi/4 are combinations of cos x and sin x
 * (V8 reduces huge arguments exactly), not cos of a rounded chi.
 */
const EULER_GAMMA = 0.5772156649015329;

function besselJTrapezoid(n: 0 | 1, x: number): number {
  const N = 64;
  const h = Math.PI / N;
  let sum = 0.5 * (Math.cos(0) + Math.cos(n * Math.PI)); // the ends: t = 0 and t = pi (sin t = 0)
  for (let k = 1; k < N; k++) {
    const t = k * h;
    sum += Math.cos(n * t - x * Math.sin(t));
  }
  return sum / N;
}

/** Hankel's P and Q for order nu at x (x > 12). */
function hankelPQ(nu: 0 | 1, x: number): [number, number] {
  const mu = 4 * nu * nu;
  let p = 1;
  let q = 0;
  let term = 1;
  for (let k = 1; k < 60; k++) {
    const next = (term * (mu - (2 * k - 1) * (2 * k - 1))) / (k * 8 * x);
    if (Math.abs(next) >= Math.abs(term) && k > 2) break;
    term = next;
    // a_k enters Q (odd k) or P (even k) with the sign (-1)^floor(k/2)
    const signed = Math.floor(k / 2) % 2 === 0 ? term : -term;
    if (k % 2 === 1) q += signed;
    else p += signed;
    if (Math.abs(term) < 1e-17) break;
  }
  return [p, q];
}

/**
 * J_nu and Y_nu from Hankel's expansion (x > 0 large). PyTorch's float32 kernels round the
 * phase chi to float32 before its cosine (`mode`), which at 2^31 is a different angle: so
 * does this one there, where float64 takes cos(chi) exactly from cos x and sin x.
 */
function besselHankel(nu: 0 | 1, x: number, second: boolean, mode = ROUND_F64): number {
  if (x === Infinity) return 0;
  const [p, q] = hankelPQ(nu, x);
  let cosChi: number;
  let sinChi: number;
  if (mode !== ROUND_F64) {
    const chi = roundTo(x - (nu === 0 ? Math.PI / 4 : (3 * Math.PI) / 4), mode);
    cosChi = Math.cos(chi);
    sinChi = Math.sin(chi);
  } else {
    const c = Math.cos(x);
    const s = Math.sin(x);
    // chi = x - pi/4 (nu = 0) or x - 3pi/4 (nu = 1)
    cosChi = nu === 0 ? (c + s) * Math.SQRT1_2 : (s - c) * Math.SQRT1_2;
    sinChi = nu === 0 ? (s - c) * Math.SQRT1_2 : -(s + c) * Math.SQRT1_2;
  }
  const amp = Math.sqrt(2 / (Math.PI * x));
  return second ? amp * (p * sinChi + q * cosChi) : amp * (p * cosChi - q * sinChi);
}

// (PyTorch's J and Y are nan at ±inf, its K 0 at inf, its unscaled I nan at ±inf)
export function besselJ0(x: number, mode = ROUND_F64): number {
  if (x !== x || x === Infinity || x === -Infinity) return NaN;
  const ax = Math.abs(x);
  return ax <= 25 ? besselJTrapezoid(0, ax) : besselHankel(0, ax, false, mode);
}

export function besselJ1(x: number, mode = ROUND_F64): number {
  if (x !== x || x === Infinity || x === -Infinity) return NaN;
  const ax = Math.abs(x);
  const v = ax <= 25 ? besselJTrapezoid(1, ax) : besselHankel(1, ax, false, mode);
  return x < 0 ? -v : v;
}

/** sum_k>=1 H_k q^k / (k!)^2, H_k the harmonic numbers: Y0's (q = -x^2/4) and K0's (q = x^2/4) series. */
function harmonicSeries(q: number): number {
  let term = 1;
  let h = 0;
  let sum = 0;
  for (let k = 1; k < 200; k++) {
    term *= q / (k * k);
    h += 1 / k;
    sum += h * term;
    if (Math.abs(h * term) < 1e-18 * Math.abs(sum)) break;
  }
  return sum;
}

/** sum_k>=0 (psi(k+1) + psi(k+2)) q^k / (k! (k+1)!): Y1's (q = -x^2/4) and K1's (q = x^2/4) series. */
function digammaPairSeries(q: number): number {
  let term = 1;
  let psi1 = -EULER_GAMMA; // psi(k + 1)
  let sum = 0;
  for (let k = 0; k < 200; k++) {
    if (k > 0) {
      term *= q / (k * (k + 1));
      psi1 += 1 / k;
    }
    const part = (2 * psi1 + 1 / (k + 1)) * term;
    sum += part;
    if (k > 0 && Math.abs(part) < 1e-18 * Math.abs(sum)) break;
  }
  return sum;
}

/** Y0 and Y1's ascending series (x <= 12). */
function besselYSeries(nu: 0 | 1, x: number): number {
  const q = -(x * x) / 4;
  const logHalf = Math.log(x / 2);
  if (nu === 0) {
    // (2/pi) [(ln(x/2) + gamma) J0(x) - sum_k>=1 H_k (-x^2/4)^k / (k!)^2]
    return (2 / Math.PI) * ((logHalf + EULER_GAMMA) * besselJ0(x) - harmonicSeries(q));
  }
  // -2/(pi x) + (2/pi) ln(x/2) J1(x) - (1/pi)(x/2) sum_k>=0 (psi(k+1) + psi(k+2)) (-x^2/4)^k / (k! (k+1)!)
  return -2 / (Math.PI * x) + (2 / Math.PI) * logHalf * besselJ1(x) - (x / (2 * Math.PI)) * digammaPairSeries(q);
}

function besselY(nu: 0 | 1, x: number, mode: number): number {
  if (x !== x || x === Infinity) return NaN;
  if (x < 0) return NaN;
  if (x === 0) return -Infinity;
  return x <= 12 ? besselYSeries(nu, x) : besselHankel(nu, x, true, mode);
}

export const besselY0 = (x: number, mode = ROUND_F64): number => besselY(0, x, mode);
export const besselY1 = (x: number, mode = ROUND_F64): number => besselY(1, x, mode);

/** K_nu(x) e^x for x >= 2 by the trapezoid rule on int_0^inf exp(-x (cosh t - 1)) cosh(nu t) dt. */
function besselKScaledIntegral(nu: 0 | 1, x: number): number {
  const h = Math.min(0.25, 0.5 / Math.sqrt(x));
  let sum = 0.5;
  for (let k = 1; k < 100000; k++) {
    const t = k * h;
    const sh = Math.sinh(t / 2); // (cosh t - 1 = 2 sinh^2(t/2): exact for the tiny t of a huge x)
    const f = Math.exp(-x * 2 * sh * sh) * (nu === 0 ? 1 : Math.cosh(t));
    sum += f;
    if (f < 1e-18 * sum) break;
  }
  return sum * h;
}

/** K0 and K1's ascending series (0 < x < 2). */
function besselKSeries(nu: 0 | 1, x: number): number {
  const q = (x * x) / 4;
  const logHalf = Math.log(x / 2);
  if (nu === 0) {
    // -(ln(x/2) + gamma) I0(x) + sum_k>=1 H_k (x^2/4)^k / (k!)^2
    return -(logHalf + EULER_GAMMA) * i0(x) + harmonicSeries(q);
  }
  // 1/x + ln(x/2) I1(x) - (x/4) sum_k>=0 (psi(k+1) + psi(k+2)) (x^2/4)^k / (k! (k+1)!)
  return 1 / x + logHalf * i1(x) - (x / 4) * digammaPairSeries(q);
}

/** K_nu(x), times e^x when `scaled`. */
function besselK(nu: 0 | 1, x: number, scaled: boolean): number {
  if (x !== x) return x;
  if (x < 0) return NaN;
  if (x === 0) return Infinity;
  if (x === Infinity) return 0;
  if (x < 2) {
    const v = besselKSeries(nu, x);
    return scaled ? v * Math.exp(x) : v;
  }
  const v = besselKScaledIntegral(nu, x);
  return scaled ? v : v * Math.exp(-x);
}

export const modifiedBesselK0 = (x: number): number => besselK(0, x, false);
export const modifiedBesselK1 = (x: number): number => besselK(1, x, false);
export const scaledModifiedBesselK0 = (x: number): number => besselK(0, x, true);
export const scaledModifiedBesselK1 = (x: number): number => besselK(1, x, true);

/** sin(x) / x, 1 at 0. */
export function sphericalBesselJ0(x: number): number {
  if (x !== x) return x;
  if (x === Infinity || x === -Infinity) return 0;
  if (Math.abs(x) < 1e-4) return 1 - (x * x) / 6;
  return Math.sin(x) / x;
}

// ---- the regularized incomplete gamma functions ----

/**
 * Note [The incomplete gamma functions in doubles]
 * P(a, x) (igamma) and Q(a, x) = 1 - P (igammac), with PyTorch's edges (nan for a negative or
 * nan operand and at (0, 0) and (inf, inf); P(0, x > 0) = 1, P(a, 0) = 0, P(inf, x) = 0,
 * P(a, inf) = 1). Below x = a + 1, P's series x^a e^-x / Gamma(a + 1) sum_n x^n / ((a + 1)
 * ... (a + n)); above, Q's continued fraction x^a e^-x / Gamma(a) / (x + 1 - a - 1 (1 - a) /
 * (x + 3 - a - 2 (2 - a) / ...)) by Lentz's method; the other is 1 minus it. Both need
 * ~sqrt(a) terms where x is near a: above a = 1e6, Temme's uniform expansion to its first
 * correction, Q = erfc(eta sqrt(a / 2)) / 2 + exp(-a eta^2 / 2) / sqrt(2 pi a) (1 / (lambda - 1)
 * - 1 / eta), lambda = x / a, eta^2 / 2 = lambda - 1 - log(lambda), whose next term is ~1/a
 * smaller.
 */

/** mu - log1p(mu), exact near 0 (its series there). */
function muMinusLog1p(mu: number): number {
  if (Math.abs(mu) > 0.1) return mu - Math.log1p(mu);
  let term = mu;
  let sum = 0;
  for (let k = 2; k < 40; k++) {
    term *= -mu;
    sum += -term / k; // mu^k (-1)^k / k with the sign of the log's series
  }
  return sum;
}

/** Temme's uniform expansion of Q(a, x), a large (its first correction). */
function igammacTemme(a: number, x: number): number {
  const mu = (x - a) / a;
  const eta = Math.sign(mu) * Math.sqrt(2 * muMinusLog1p(mu));
  const c0 = Math.abs(eta) < 1e-4 ? -1 / 3 + eta / 12 : 1 / mu - 1 / eta;
  return 0.5 * erfc(eta * Math.sqrt(a / 2)) + (Math.exp((-a * eta * eta) / 2) / Math.sqrt(2 * Math.PI * a)) * c0;
}

/** P by its series (x < a + 1). */
function igammaSeries(a: number, x: number): number {
  const logPrefix = a * Math.log(x) - x - lgamma(a + 1);
  let term = 1;
  let sum = 1;
  for (let n = 1; n < 200000; n++) {
    term *= x / (a + n);
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return Math.exp(logPrefix + Math.log(sum));
}

/** Q by its continued fraction, Lentz's method (x >= a + 1). */
function igammacFraction(a: number, x: number): number {
  return Math.exp(a * Math.log(x) - x - lgamma(a) + Math.log(upperGammaFraction(a, x)));
}

/** The edges both share: P there, or undefined to compute. */
function igammaEdge(a: number, x: number): number | undefined {
  if (a !== a || x !== x || a < 0 || x < 0) return NaN;
  if (a === 0) return x > 0 ? 1 : NaN;
  if (x === 0) return 0;
  if (a === Infinity) return x === Infinity ? NaN : 0;
  if (x === Infinity) return 1;
  return undefined;
}

export function igamma(a: number, x: number): number {
  const edge = igammaEdge(a, x);
  if (edge !== undefined) return edge;
  if (a > 1e6) return 1 - igammacTemme(a, x);
  return x < a + 1 ? igammaSeries(a, x) : 1 - igammacFraction(a, x);
}

export function igammac(a: number, x: number): number {
  const edge = igammaEdge(a, x);
  if (edge !== undefined) return edge !== edge ? edge : 1 - edge;
  if (a > 1e6) return igammacTemme(a, x);
  return x < a + 1 ? 1 - igammaSeries(a, x) : igammacFraction(a, x);
}

// ---- the normal distribution ----

/** hi + lo = x * x exactly (Veltkamp's split; |x| < 2^500). */
function exactSquare(x: number): [number, number] {
  const c = 134217729 * x; // 2^27 + 1
  const xh = c - (c - x);
  const xl = x - xh;
  const hi = x * x;
  const lo = xh * xh - hi + 2 * xh * xl + xl * xl;
  return [hi, lo];
}

/** exp(x^2) erfc(x); below 0, PyTorch's float32 kernel squares x in float32 (`mode`) before 2 exp(x^2). */
export function erfcx(x: number, mode = ROUND_F64): number {
  if (x !== x) return x;
  if (x < 0) {
    if (x < -26.7) return Infinity;
    if (mode !== ROUND_F64) return 2 * Math.exp(roundTo(x * x, mode)) - erfcx(-x);
    const [hi, lo] = exactSquare(x);
    return 2 * Math.exp(hi) * Math.exp(lo) - erfcx(-x);
  }
  if (x < 10) {
    const [hi, lo] = exactSquare(x);
    return Math.exp(hi) * Math.exp(lo) * erfc(x);
  }
  if (x === Infinity) return 0;
  // erfc(x) e^(x^2) = 1/sqrt(pi) * 1 / (x + (1/2) / (x + 1 / (x + (3/2) / (x + 2 / (x + ...)))))
  let f = x;
  for (let k = 40; k >= 1; k--) f = x + k / 2 / f;
  return 1 / (Math.sqrt(Math.PI) * f);
}

/** log of the standard normal CDF: log1p(-erfc(x / sqrt 2) / 2) above -1, log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 below. */
export function logNdtr(x: number): number {
  if (x !== x) return x;
  const t = x * Math.SQRT1_2;
  if (x < -1) {
    if (x === -Infinity) return -Infinity;
    return Math.log(erfcx(-t) / 2) - t * t;
  }
  return Math.log1p(-erfc(t) / 2);
}

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** The standard normal quantile: ndtri(0) = -inf, ndtri(1) = inf, nan outside [0, 1]. */
export function ndtri(p: number): number {
  if (p !== p || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p >= 0.25 && p <= 0.75) return Math.SQRT2 * erfinv(2 * p - 1);
  if (p > 0.5) return -ndtri(1 - p); // exact: 1 - p for p in (0.75, 1)
  // p < 0.25: A&S 26.2.23's guess, error < 4.5e-4, then Halley on Phi(x) = erfc(-x / sqrt 2) / 2
  const t = Math.sqrt(-2 * Math.log(p));
  let x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  for (let i = 0; i < 4; i++) {
    const e = erfc(-x * Math.SQRT1_2) / 2 - p;
    const u = e * SQRT_2PI * Math.exp((x * x) / 2);
    const dx = u / (1 + (x * u) / 2);
    x -= dx;
    if (Math.abs(dx) <= 1e-16 * Math.abs(x)) break;
  }
  return x;
}

// ---- the elementary ones ----

/** sin(pi x) / (pi x), 1 at 0; the product pi x rounded to the dtype first, as PyTorch computes it. */
export function sinc(x: number, mode: number): number {
  if (x === 0) return 1;
  const product = roundTo(roundTo(Math.PI, mode) * x, mode);
  return Math.sin(product) / product;
}

/** -x log x for x > 0, 0 at 0, -inf below. */
export function entr(x: number): number {
  if (x !== x) return x;
  if (x > 0) return -x * Math.log(x);
  return x === 0 ? 0 : -Infinity;
}

/** x log y, 0 where x = 0 unless y is nan. */
export function xlogy(x: number, y: number): number {
  if (y !== y) return NaN;
  if (x === 0) return 0;
  return x * Math.log(y);
}

/** x log(1 + y), 0 where x = 0 unless y is nan. */
export function xlog1py(x: number, y: number): number {
  if (y !== y) return NaN;
  if (x === 0) return 0;
  return x * Math.log1p(y);
}

// ---- row kernels (FloatUnaryRow / FloatBinaryRow) ----

type Unary = (x: number, mode: number) => number;

function unaryRow(f: Unary) {
  return (n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, p: number): void => {
    for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = f(a[ao], p);
  };
}

function binaryRow(f: (x: number, y: number) => number) {
  return (n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void => {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = f(a[ao], b[bo]);
  };
}

export const lgammaRow = unaryRow(lgamma);
export const digammaRow = unaryRow(digamma);
export const i0Row = unaryRow(i0);
export const i0eRow = unaryRow(i0e);
export const i1Row = unaryRow(i1);
export const i1eRow = unaryRow(i1e);
export const sincRow = unaryRow(sinc);
export const entrRow = unaryRow(entr);
export const ndtriRow = unaryRow(ndtri);
export const logNdtrRow = unaryRow(logNdtr);
export const erfcxRow = unaryRow(erfcx);
export const besselJ0Row = unaryRow(besselJ0);
export const besselJ1Row = unaryRow(besselJ1);
export const besselY0Row = unaryRow(besselY0);
export const besselY1Row = unaryRow(besselY1);
// (PyTorch's modified_bessel_i0/i1 overflow with exp(x) in float64 too, above 709.78, unlike its i0/i1)
const expOverflows = (x: number, mode: number): boolean => mode === ROUND_F64 && Number.isFinite(x) && Math.abs(x) > F64_EXP_MAX;
export const modifiedBesselI0Row = unaryRow((x, mode) => (expOverflows(x, mode) ? Infinity : i0(x, mode)));
export const modifiedBesselI1Row = unaryRow((x, mode) => (expOverflows(x, mode) ? Math.sign(x) * Infinity : i1(x, mode)));
export const modifiedBesselK0Row = unaryRow(modifiedBesselK0);
export const modifiedBesselK1Row = unaryRow(modifiedBesselK1);
export const scaledModifiedBesselK0Row = unaryRow(scaledModifiedBesselK0);
export const scaledModifiedBesselK1Row = unaryRow(scaledModifiedBesselK1);
export const sphericalBesselJ0Row = unaryRow(sphericalBesselJ0);
export const xlogyRow = binaryRow(xlogy);
export const xlog1pyRow = binaryRow(xlog1py);
export const zetaRow = binaryRow(zeta);
export const igammaRow = binaryRow(igamma);
export const igammacRow = binaryRow(igammac);

/** polygamma(n, x) rows for a given n. */
export function polygammaRow(n: number) {
  return unaryRow((x, mode) => polygamma(n, x, mode));
}

/** Lentz's continued fraction of Q(a, x) e^x x^-a Gamma(a) (Legendre's), for x >= a + 1. */
function upperGammaFraction(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 200000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/**
 * Note [The derivative of a Gamma sample]
 * d x / d alpha for x ~ Gamma(alpha, 1), by implicit differentiation of the CDF at the
 * sample: dx/dalpha = -(dP/dalpha) / (dP/dx), P(alpha, x) the regularized lower incomplete
 * gamma function and dP/dx the density. Both are taken relative to the density, so nothing
 * under- or overflows in the tails:
 *  - x < alpha + 1: P's series, sum_n x^(alpha+n) e^-x / Gamma(alpha+n+1), differentiated
 *    term by term (each term's derivative is itself times log x - psi(alpha + n + 1));
 *    relative to the density the terms are (x / alpha) prod_k x / (alpha + k);
 *  - above: Q = 1 - P by Legendre's continued fraction, Q / density = x CF(alpha, x), and
 *    dQ/dalpha / density = x CF (log x - psi(alpha) + d log CF / dalpha), the last term by a
 *    Richardson-extrapolated central difference.
 * Checked against high-precision values (mpmath) to 2e-11 relative over alpha in [0.01,
 * 1000] and x from 1e-5 to 5 alpha. PyTorch's `_standard_gamma_grad` approximates the same
 * derivative (a series for small x, a saddle-point expansion for large alpha, a fitted
 * rational function between) to within about 2e-3 relative, so torch-ts's gradients of
 * Gamma samples agree with PyTorch's to that, and with the exact derivative closely.
 */
export function standardGammaGrad(alpha: number, x: number): number {
  if (!(x > 0) || !(alpha > 0) || !Number.isFinite(x) || !Number.isFinite(alpha)) return x === 0 ? 0 : NaN;
  const lx = Math.log(x);
  if (x < alpha + 1) {
    let sum = 0;
    let r = 1;
    let psi = digamma(alpha + 1);
    for (let n = 0; n < 1_000_000; n++) {
      sum += r * (lx - psi);
      r *= x / (alpha + n + 1);
      psi += 1 / (alpha + n + 1);
      if (n + 1 > x - alpha && Math.abs(r) < 1e-17 * Math.abs(sum) + 1e-300) break;
    }
    return -(x / alpha) * sum;
  }
  const h = 1e-3 * Math.max(alpha, 1);
  const logCf = (a: number) => Math.log(upperGammaFraction(a, x));
  const central = (s: number) => (logCf(alpha + s) - logCf(alpha - s)) / (2 * s);
  const dLogCf = (4 * central(h / 2) - central(h)) / 3;
  return x * upperGammaFraction(alpha, x) * (lx - digamma(alpha) + dLogCf);
}
