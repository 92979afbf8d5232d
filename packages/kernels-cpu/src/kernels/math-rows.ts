import type { FloatArray } from '../loops/arrays';
import { erf, erfc, erfinv } from './erf-math';
import { ROUND_F64 } from './float-math';

/**
 * Float row kernels of the unary math ops added after the first twelve (signature:
 * FloatUnaryRow), in the style of unary-rows.ts: computed in doubles with V8's Math (or
 * erf-math.ts) and rounded once by the store, so float32 results are within an ulp of
 * PyTorch's SLEEF ones and the 16-bit types round a float32-accurate value once.
 * trunc, frac, sign and reciprocal are exact (frac = x - trunc(x) has no rounding error).
 */

export function exp2Row(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.pow(2, a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.pow(2, a[ao]);
}

export function expm1Row(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.expm1(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.expm1(a[ao]);
}

export function log2Row(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.log2(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.log2(a[ao]);
}

export function log10Row(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.log10(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.log10(a[ao]);
}

export function log1pRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.log1p(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.log1p(a[ao]);
}

export function tanRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.tan(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.tan(a[ao]);
}

export function asinRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.asin(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.asin(a[ao]);
}

export function acosRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.acos(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.acos(a[ao]);
}

export function atanRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.atan(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.atan(a[ao]);
}

export function sinhRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.sinh(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.sinh(a[ao]);
}

export function coshRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.cosh(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.cosh(a[ao]);
}

export function asinhRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.asinh(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.asinh(a[ao]);
}

export function acoshRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.acosh(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.acosh(a[ao]);
}

export function atanhRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.atanh(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.atanh(a[ao]);
}

export function erfRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = erf(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = erf(a[ao]);
}

export function erfcRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = erfc(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = erfc(a[ao]);
}

export function erfinvRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = erfinv(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = erfinv(a[ao]);
}

export function reciprocalRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = 1 / a[ao + i];
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = 1 / a[ao];
}

export function truncRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.trunc(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.trunc(a[ao]);
}

export function fracRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as) {
    const x = a[ao];
    o[oo] = x - Math.trunc(x);
  }
}

/**
 * 1 / sqrt(x), as PyTorch's Vectorized rsqrt computes it: for every dtype but float64 the
 * square root is rounded to float32 before the division (`mode`), which the store then
 * rounds again; both steps are correctly rounded, so the result is PyTorch's to the bit.
 */
export function rsqrtRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, mode: number): void {
  if (mode === ROUND_F64) for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = 1 / Math.sqrt(a[ao]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = 1 / Math.fround(Math.sqrt(a[ao]));
}

/** (0 < x) - (x < 0), as PyTorch's sign kernel: sign(nan) and sign(-0) are 0. */
export function signRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as) {
    const x = a[ao];
    o[oo] = x > 0 ? 1 : x < 0 ? -1 : 0;
  }
}
