import type { FloatArray } from '../loops/arrays';
import { ROUND_F64 } from './float-math';

/**
 * Float row kernels of the unary ops (signature: FloatUnaryRow): a unit-stride loop and a
 * strided one each, computed in doubles and rounded by the store. Math's functions are
 * correctly rounded or within an ulp in double, so float32 results are within an ulp of
 * PyTorch's (SLEEF, 1.0 ulp); float64 results may differ from glibc's in the last bit.
 * neg, abs, relu, floor and ceil are exact and serve the integer dtypes too, through
 * scratch, where the writer wraps (abs(-128) stored as int8 is -128, as in PyTorch).
 */

export function negRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = -a[ao + i];
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = -a[ao];
}

export function absRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.abs(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.abs(a[ao]);
}

/**
 * Note [exp below float64]
 * For every dtype but float64 (`mode`), exp is computed by a short polynomial in the JIT
 * rather than by Math.exp (a call into C per element, measured 2.5x slower): x = (256q + j)
 * ln2/256 + r with |r| <= ln2/512 (Cody-Waite: ln2/256 split in two so q * HI is exact),
 * e^r by its Taylor polynomial of degree 4 (truncation below 4e-17), times 2^(j/256) and
 * 2^q from tables of doubles. The result is within a few ulps of double of e^x, far inside
 * the half ulp of float32 (6e-8), so after the store's rounding it is the float32 that
 * Math.exp gives (no difference in millions of random inputs over the whole range), but in
 * ties of about 1 in 2^28; PyTorch's float32 exp (SLEEF) is within 1 ulp. Outside (-100,
 * 88.8), and for NaN and infinities, Math.exp runs (the float32 result there is 0, a
 * subnormal or inf). The unit-stride loop takes four elements a step, the polynomial
 * written out for each (measured 1.9x faster than one a step with a helper call: V8 then
 * keeps the four chains apart); a step with any element out of range runs Math.exp on all
 * four. float64 keeps Math.exp.
 */
const N_LN2 = 256 / Math.LN2;
const LN2_HI = 0.6931471803691238 / 256;
const LN2_LO = 1.9082149292705877e-10 / 256;
/** 2^(j/256), j = 0..255. */
const EXP2_FRAC = new Float64Array(256).map((_, j) => 2 ** (j / 256));
/** m = 256 q + j offset by EXP_BIAS so that it is positive on (-100, 88.8); 2^(m >> 8) is 2^q times 2^(EXP_BIAS/256). */
const EXP_BIAS = 256 * 160;
const EXP2_INT = new Float64Array(321).map((_, i) => 2 ** (i - 160));

/** e^x for x in (-100, 88.8): see Note [exp below float64]. */
function expPoly(x: number): number {
  const m = (x * N_LN2 + (EXP_BIAS + 0.5)) | 0; // positive, so `| 0` floors: round(x 256/ln2) + bias
  const q = m - EXP_BIAS;
  const r = x - q * LN2_HI - q * LN2_LO;
  const r2 = r * r;
  return (1 + r + r2 * (0.5 + r * (1 / 6) + r2 * (1 / 24))) * EXP2_FRAC[m & 255] * EXP2_INT[m >> 8];
}

/** e^x for any x, for dtypes below float64 (Note [exp below float64]). */
export function expBelow64(x: number): number {
  return x > -100 && x < 88.8 ? expPoly(x) : Math.exp(x);
}

/** Unit-stride float exp, four elements a step (Note [exp below float64]). */
function expUnit(n: number, o: FloatArray, oo: number, a: FloatArray, ao: number): void {
  const F = EXP2_FRAC;
  const P = EXP2_INT;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const x0 = a[ao + i];
    const x1 = a[ao + i + 1];
    const x2 = a[ao + i + 2];
    const x3 = a[ao + i + 3];
    if (x0 > -100 && x0 < 88.8 && x1 > -100 && x1 < 88.8 && x2 > -100 && x2 < 88.8 && x3 > -100 && x3 < 88.8) {
      const m0 = (x0 * N_LN2 + (EXP_BIAS + 0.5)) | 0;
      const m1 = (x1 * N_LN2 + (EXP_BIAS + 0.5)) | 0;
      const m2 = (x2 * N_LN2 + (EXP_BIAS + 0.5)) | 0;
      const m3 = (x3 * N_LN2 + (EXP_BIAS + 0.5)) | 0;
      const q0 = m0 - EXP_BIAS;
      const q1 = m1 - EXP_BIAS;
      const q2 = m2 - EXP_BIAS;
      const q3 = m3 - EXP_BIAS;
      const r0 = x0 - q0 * LN2_HI - q0 * LN2_LO;
      const r1 = x1 - q1 * LN2_HI - q1 * LN2_LO;
      const r2 = x2 - q2 * LN2_HI - q2 * LN2_LO;
      const r3 = x3 - q3 * LN2_HI - q3 * LN2_LO;
      const s0 = r0 * r0;
      const s1 = r1 * r1;
      const s2 = r2 * r2;
      const s3 = r3 * r3;
      o[oo + i] = (1 + r0 + s0 * (0.5 + r0 * (1 / 6) + s0 * (1 / 24))) * F[m0 & 255] * P[m0 >> 8];
      o[oo + i + 1] = (1 + r1 + s1 * (0.5 + r1 * (1 / 6) + s1 * (1 / 24))) * F[m1 & 255] * P[m1 >> 8];
      o[oo + i + 2] = (1 + r2 + s2 * (0.5 + r2 * (1 / 6) + s2 * (1 / 24))) * F[m2 & 255] * P[m2 >> 8];
      o[oo + i + 3] = (1 + r3 + s3 * (0.5 + r3 * (1 / 6) + s3 * (1 / 24))) * F[m3 & 255] * P[m3 >> 8];
    } else {
      o[oo + i] = Math.exp(x0);
      o[oo + i + 1] = Math.exp(x1);
      o[oo + i + 2] = Math.exp(x2);
      o[oo + i + 3] = Math.exp(x3);
    }
  }
  for (; i < n; i++) {
    const x = a[ao + i];
    o[oo + i] = expBelow64(x);
  }
}

export function expRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, mode: number): void {
  if (mode === ROUND_F64) {
    if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.exp(a[ao + i]);
    else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.exp(a[ao]);
    return;
  }
  if (os === 1 && as === 1) {
    expUnit(n, o, oo, a, ao);
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as) {
      const x = a[ao];
      o[oo] = expBelow64(x);
    }
  }
}

export function logRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.log(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.log(a[ao]);
}

export function sqrtRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.sqrt(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.sqrt(a[ao]);
}

export function sinRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.sin(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.sin(a[ao]);
}

export function cosRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.cos(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.cos(a[ao]);
}

export function tanhRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.tanh(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.tanh(a[ao]);
}

/**
 * 1 / (1 + exp(-x)), PyTorch's formula, with its intermediates rounded as PyTorch's float32
 * computes them for every dtype but float64 (`mode`): exp(100) overflows float32, so
 * sigmoid(-100) is 0 there, not the float32 subnormal 3.8e-44 that double arithmetic gives.
 */
export function sigmoidRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, mode: number): void {
  if (mode === ROUND_F64) {
    for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = 1 / (1 + Math.exp(-a[ao]));
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = 1 / Math.fround(1 + Math.fround(Math.exp(-a[ao])));
  }
}

/** max(x, 0) that keeps NaN and -0, as PyTorch's clamp_min(0): relu(-0) is -0. */
export function reluRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) {
    for (let i = 0; i < n; i++) {
      const x = a[ao + i];
      o[oo + i] = x < 0 ? 0 : x;
    }
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as) {
      const x = a[ao];
      o[oo] = x < 0 ? 0 : x;
    }
  }
}

export function floorRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.floor(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.floor(a[ao]);
}

export function ceilRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.ceil(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.ceil(a[ao]);
}
