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

export function expRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number): void {
  if (os === 1 && as === 1) for (let i = 0; i < n; i++) o[oo + i] = Math.exp(a[ao + i]);
  else for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = Math.exp(a[ao]);
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
