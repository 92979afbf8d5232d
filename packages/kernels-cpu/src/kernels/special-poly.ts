import type { FloatArray } from '../loops/arrays';
import { ROUND_F64 } from './float-math';

/**
 * Note [Orthogonal polynomials as PyTorch 2.x evaluates them]
 * torch.special's orthogonal polynomials (PyTorch 2.x; 1.13 lacks them) and airy_ai follow
 * 2.x's aten/src/ATen/native/Math.h step for step, in doubles, rounded once by the store:
 *  - n is `static_cast<int64_t>(n)`: truncated toward zero; NaN, ±inf and |n| >= 2^63 convert
 *    to INT64_MIN on x86 (and hermite's float overload maps them to -1), so all give 0, as
 *    every n < 0 does (`int64Of`);
 *  - the special cases come first, in 2.x's order: n < 0, then |x| == 1 (the shifted ones:
 *    x == 1 and x == 0) in closed form, then the trigonometric form for |x| < 1 above a
 *    degree (T: n > 6; U, V, W: n > 8; the shifted T, U, V: n > 6, W: n > 4), then n = 0, 1,
 *    then the three-term recurrence, which stops early once a term is NaN (an overflow's
 *    inf - inf) except Hermite's, which instead refuses n above 128 (float32) or 512
 *    (float64) with NaN;
 *  - 2.x's loops leave the result unset when the recurrence starts from NaN (x NaN, n >= 2):
 *    undefined behaviour in C++, NaN here;
 *  - the loops run n steps as 2.x's do: a huge n with |x| < 1 (Legendre, Laguerre) takes as
 *    long as it does in PyTorch.
 * Computed in doubles, a float32 recurrence that overflows float32 but not float64 rounds to
 * ±inf where 2.x's float32 arithmetic reaches inf - inf = NaN a step later; float64 behaves
 * as 2.x's.
 * airy_ai is Cephes' airy as 2.x ports it (airy_ai_forward): the asymptotic expansions below
 * -2.09 and above 2.09, the Maclaurin series between; nan at ±inf, 0 above 103.892. 2.x
 * evaluates the AFD and AGD denominators without the leading 1 that Cephes' p1evl implies,
 * which puts Ai up to ~2e-5 off just below -2.09 (less further out): kept, as 2.x computes it.
 */

const INT64_LIMIT = 9223372036854775808; // 2^63

/** `static_cast<int64_t>(n)` on x86, as a double: NaN, ±inf and out-of-range values are negative (-1 stands for INT64_MIN). */
export function int64Of(n: number): number {
  if (!(Math.abs(n) < INT64_LIMIT)) return -1;
  return Math.trunc(n);
}

const isOdd = (n: number): boolean => n % 2 !== 0;

/** The recurrence r = 2 y q - p from p0 = 1, q0 = `q`, for k = 2..n, stopping once q is NaN. */
function chebyshevRecurrence(y: number, q0: number, n: number): number {
  let p = 1;
  let q = q0;
  let r = NaN;
  for (let k = 2; k <= n && q === q; k++) {
    r = (y + y) * q - p;
    p = q;
    q = r;
  }
  return r;
}

export function chebyshevT(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) return x > 0 || !isOdd(n) ? 1 : -1;
  if (n > 6 && Math.abs(x) < 1) return Math.cos(n * Math.acos(x));
  if (n === 0) return 1;
  if (n === 1) return x;
  return chebyshevRecurrence(x, x, n);
}

export function chebyshevU(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) return x > 0 || !isOdd(n) ? n + 1 : -(n + 1);
  if (n > 8 && Math.abs(x) < 1) {
    const t = Math.acos(x);
    if (Math.sin(t) !== 0) return Math.sin((n + 1) * t) / Math.sin(t);
    return ((n + 1) * Math.cos((n + 1) * t)) / x;
  }
  if (n === 0) return 1;
  if (n === 1) return x + x;
  return chebyshevRecurrence(x, x + x, n);
}

export function chebyshevV(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) {
    if (x > 0) return 1;
    return isOdd(n) ? -(n + n + 1) : n + n + 1;
  }
  if (n > 8 && Math.abs(x) < 1) {
    const t = Math.acos(x);
    if (Math.sin(t / 2) !== 1) return Math.cos((n + 0.5) * t) / Math.cos(t / 2);
    return isOdd(n) ? -(n + n + 1) : n + n + 1;
  }
  if (n === 0) return 1;
  if (n === 1) return x + x - 1;
  return chebyshevRecurrence(x, x + x - 1, n);
}

export function chebyshevW(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) {
    if (x > 0) return n + n + 1;
    return isOdd(n) ? -1 : 1;
  }
  if (n > 8 && Math.abs(x) < 1) {
    const t = Math.acos(x);
    if (Math.cos(t / 2) !== 1) return Math.sin((n + 0.5) * t) / Math.sin(t / 2);
    if (x > 0) return n + n + 1;
    return isOdd(n) ? -1 : 1;
  }
  if (n === 0) return 1;
  if (n === 1) return x + x + 1;
  return chebyshevRecurrence(x, x + x + 1, n);
}

export function shiftedChebyshevT(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (x === 1) return 1;
  if (x === 0) return isOdd(n) ? -1 : 1;
  const y = x + x - 1;
  if (n > 6 && Math.abs(y) < 1) return Math.cos(n * Math.acos(y));
  if (n === 0) return 1;
  if (n === 1) return y;
  return chebyshevRecurrence(y, y, n);
}

export function shiftedChebyshevU(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (x === 1) return n + 1;
  if (x === 0) return isOdd(n) ? -(n + 1) : n + 1;
  const y = x + x - 1;
  if (n > 6 && Math.abs(y) < 1) {
    const t = Math.acos(y);
    if (Math.sin(t) !== 0) return Math.sin((n + 1) * t) / Math.sin(t);
    return ((n + 1) * Math.cos((n + 1) * t)) / y;
  }
  if (n === 0) return 1;
  if (n === 1) return y + y;
  return chebyshevRecurrence(y, y + y, n);
}

export function shiftedChebyshevV(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (x === 1) return 1;
  if (x === 0) return isOdd(n) ? -(n + n + 1) : n + n + 1;
  const y = x + x - 1;
  if (n > 6 && Math.abs(y) < 1) {
    const t = Math.acos(y);
    if (Math.sin(t / 2) !== 1) return Math.cos((n + 0.5) * t) / Math.cos(t / 2);
    return isOdd(n) ? -(n + n + 1) : n + n + 1;
  }
  if (n === 0) return 1;
  if (n === 1) return y + y - 1;
  return chebyshevRecurrence(y, y + y - 1, n);
}

export function shiftedChebyshevW(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (x === 1) return n + n + 1;
  if (x === 0) return isOdd(n) ? -1 : 1;
  const y = x + x - 1;
  if (n > 4 && Math.abs(y) < 1) {
    const t = Math.acos(y);
    if (Math.cos(t / 2) !== 1) return Math.sin((n + 0.5) * t) / Math.sin(t / 2);
    return isOdd(n) ? -1 : 1;
  }
  if (n === 0) return 1;
  if (n === 1) return y + y + 1;
  return chebyshevRecurrence(y, y + y + 1, n);
}

/** 2.x's getHermitianLimit: the largest n Hermite's recurrence runs for, by the dtype it computes in. */
const hermiteLimit = (mode: number): number => (mode === ROUND_F64 ? 512 : 128);

/** The physicists' Hermite polynomial H_n(x) (`mode`: the dtype's rounding mode, for the limit). */
export function hermiteH(x: number, nf: number, mode: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (n === 0) return 1;
  if (n === 1) return x + x;
  if (n > hermiteLimit(mode)) return NaN;
  let p = 1;
  let q = x + x;
  let r = 0;
  for (let k = 2; k < n + n; k += 2) {
    r = (x + x) * q - k * p;
    p = q;
    q = r;
  }
  return r;
}

/** The probabilists' Hermite polynomial He_n(x). */
export function hermiteHe(x: number, nf: number, mode: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (n === 0) return 1;
  if (n === 1) return x;
  if (n > hermiteLimit(mode)) return NaN;
  let p = 1;
  let q = x;
  let r = NaN;
  for (let k = 1; k < n; k++) {
    r = x * q - k * p;
    p = q;
    q = r;
  }
  return r;
}

export function laguerreL(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (Math.abs(x) === 0) return 1;
  if (n === 0) return 1;
  if (n === 1) return 1 - x;
  let p = 1;
  let q = 1 - x;
  let r = NaN;
  for (let k = 1; k < n && q === q; k++) {
    r = ((k + k + (1 - x)) * q - k * p) / (k + 1);
    p = q;
    q = r;
  }
  return r;
}

export function legendreP(x: number, nf: number): number {
  const n = int64Of(nf);
  if (n < 0) return 0;
  if (Math.abs(x) === 1) return x > 0 || !isOdd(n) ? 1 : -1;
  if (n === 0) return 1;
  if (n === 1) return x;
  let p = 1;
  let q = x;
  let r = NaN;
  for (let k = 1; k < n && q === q; k++) {
    r = ((k + k + 1) * x * q - k * p) / (k + 1);
    p = q;
    q = r;
  }
  return r;
}

// ---- airy_ai (Cephes' airy, as 2.x's airy_ai_forward) ----
const AN = [
  3.46538101525629032477e-1, 1.20075952739645805542e1, 7.62796053615234516538e1, 1.68089224934630576269e2, 1.59756391350164413639e2,
  7.05360906840444183113e1, 1.40264691163389668864e1, 9.99999999999999995305e-1,
];
const AD = [
  5.67594532638770212846e-1, 1.47562562584847203173e1, 8.45138970141474626562e1, 1.77318088145400459522e2, 1.64234692871529701831e2,
  7.14778400825575695274e1, 1.40959135607834029598e1, 1.00000000000000000470e0,
];
const AFN = [
  -1.31696323418331795333e-1, -6.26456544431912369773e-1, -6.93158036036933542233e-1, -2.79779981545119124951e-1, -4.91900132609500318020e-2,
  -4.06265923594885404393e-3, -1.59276496239262096340e-4, -2.77649108155232920844e-6, -1.67787698489114633780e-8,
];
const AFD = [
  1.33560420706553243746e1, 3.26825032795224613948e1, 2.67367040941499554804e1, 9.18707402907259625840e0, 1.47529146771666414581e0,
  1.15687173795188044134e-1, 4.40291641615211203805e-3, 7.54720348287414296618e-5, 4.51850092970580378464e-7,
];
const AGN = [
  1.97339932091685679179e-2, 3.91103029615688277255e-1, 1.06579897599595591108e0, 9.39169229816650230044e-1, 3.51465656105547619242e-1,
  6.33888919628925490927e-2, 5.85804113048388458567e-3, 2.82851600836737019778e-4, 6.98793669997260967291e-6, 8.11789239554389293311e-8,
  3.41551784765923618484e-10,
];
const AGD = [
  9.30892908077441974853e0, 1.98352928718312140417e1, 1.55646628932864612953e1, 5.47686069422975497931e0, 9.54293611618961883998e-1,
  8.64580826352392193095e-2, 4.12656523824222607191e-3, 1.01259085116509135510e-4, 1.17166733214413521882e-6, 4.91834570062930015649e-9,
];

function horner(c: readonly number[], z: number): number {
  let s = 0;
  for (const v of c) s = s * z + v;
  return s;
}

export function airyAi(x: number): number {
  if (x === Infinity || x === -Infinity) return NaN;
  if (x > 103.892) return 0;
  if (x < -2.09) {
    const z = 1 / ((-2 * x * Math.sqrt(-x)) / 3);
    const zz = z * z;
    const t = (-2 * x * Math.sqrt(-x)) / 3 + 0.25 * Math.PI;
    return (
      (5.64189583547756286948e-1 / Math.sqrt(Math.sqrt(-x))) *
      (Math.sin(t) * (1 + (zz * horner(AFN, zz)) / horner(AFD, zz)) - Math.cos(t) * ((z * horner(AGN, zz)) / horner(AGD, zz)))
    );
  }
  if (x >= 2.09) {
    const zeta = (2 * x * Math.sqrt(x)) / 3;
    return (5.64189583547756286948e-1 * (horner(AN, 1 / zeta) / horner(AD, 1 / zeta))) / (2 * Math.sqrt(Math.sqrt(x)) * Math.exp(zeta));
  }
  // the Maclaurin series of Ai = c1 f - c2 g (NaN stops it at once)
  let f = 1;
  let g = x;
  let k = 1;
  let m = 1;
  let n = x;
  let t = 1;
  const z = x * x * x;
  while (t > Number.EPSILON) {
    m *= z;
    k += 1;
    m /= k;
    n *= z;
    k += 1;
    n /= k;
    m /= k;
    f += m;
    k += 1;
    n /= k;
    g += n;
    t = Math.abs(m / f);
  }
  return 0.35502805388781723926 * f - 0.258819403792806798405 * g;
}

// ---- row kernels (FloatUnaryRow / FloatBinaryRow) ----

function binaryRow(f: (x: number, n: number, mode: number) => number) {
  return (n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number, p: number): void => {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = f(a[ao], b[bo], p);
  };
}

export const airyAiRow = (n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void => {
  for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = airyAi(a[ao]);
};
export const chebyshevTRow = binaryRow(chebyshevT);
export const chebyshevURow = binaryRow(chebyshevU);
export const chebyshevVRow = binaryRow(chebyshevV);
export const chebyshevWRow = binaryRow(chebyshevW);
export const shiftedChebyshevTRow = binaryRow(shiftedChebyshevT);
export const shiftedChebyshevURow = binaryRow(shiftedChebyshevU);
export const shiftedChebyshevVRow = binaryRow(shiftedChebyshevV);
export const shiftedChebyshevWRow = binaryRow(shiftedChebyshevW);
export const hermiteHRow = binaryRow(hermiteH);
export const hermiteHeRow = binaryRow(hermiteHe);
export const laguerreLRow = binaryRow(laguerreL);
export const legendrePRow = binaryRow(legendreP);
