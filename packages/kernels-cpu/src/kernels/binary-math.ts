import type { BinaryImpl, TableBinaryImpls } from '@torch-ts/core';
import type { FloatArray } from '../loops/arrays';
import { onScratch } from '../loops/pointwise';
import { binary, maximum, minimum, mul, remainder } from './binary';
import { eq, ge, gt, le, lt, ne } from './compare';
import { bitwiseAnd, bitwiseOr, bitwiseXor, logicalAnd, logicalOr, logicalXor } from './logical';
import { zeroDivision } from './binary-int-rows';
import { maximumInt64Row, minimumInt64Row } from './int64-rows';
import {
  chebyshevTRow,
  chebyshevURow,
  chebyshevVRow,
  chebyshevWRow,
  hermiteHeRow,
  hermiteHRow,
  laguerreLRow,
  legendrePRow,
  shiftedChebyshevTRow,
  shiftedChebyshevURow,
  shiftedChebyshevVRow,
  shiftedChebyshevWRow,
} from './special-poly';
import { igammacRow, igammaRow, xlog1pyRow, xlogyRow, zetaRow } from './special-math';

/**
 * The binary math ops fmod, atan2, hypot, fmax and fmin (signature: FloatBinaryRow). They
 * compute in doubles and the store rounds to the output's precision; fmod is exact in any
 * precision, atan2 and hypot round once from the double result.
 */

/** C's fmod: the remainder of truncating division, with the sign of the dividend (JS `%`). */
export function fmodRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] % b[bo];
}

/** Integer fmod on exact integer doubles; a zero divisor raises PyTorch's ZeroDivisionError. */
function fmodIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const y = b[i];
    if (y === 0) throw zeroDivision('fmod');
    o[i] = a[i] % y;
  }
}

function fmodInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const y = b[bo];
    if (y === 0n) throw zeroDivision('fmod');
    o[oo] = a[ao] % y;
  }
}

export function atan2Row(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = Math.atan2(a[ao], b[bo]);
}

export function hypotRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = Math.hypot(a[ao], b[bo]);
}

/** C's fmax: a NaN operand is ignored (NaN only when both are), unlike `maximum`. */
export function fmaxRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const y = b[bo];
    o[oo] = x !== x ? y : y !== y ? x : x < y ? y : x;
  }
}

/** C's fmin: a NaN operand is ignored (NaN only when both are), unlike `minimum`. */
export function fminRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const y = b[bo];
    o[oo] = x !== x ? y : y !== y ? x : y < x ? y : x;
  }
}

/** The CPU kernel of every binary row of core's op table (Note [The op table]): a row missing here is a compile error. */
export const BINARY_MATH_IMPLS = {
  // arithmetic rows (binary.ts, with the WebAssembly fast path of mul)
  mul,
  remainder,
  maximum,
  minimum,
  fmod: binary('fmod', { float: fmodRow, int: fmodIntRow, int64: fmodInt64Row }),
  // floating only: core computes integral inputs in the default float dtype
  atan2: binary('atan2', { float: atan2Row, int: null, int64: null }),
  hypot: binary('hypot', { float: hypotRow, int: null, int64: null }),
  xlogy: binary('xlogy', { float: xlogyRow, int: null, int64: null }),
  specialXlog1py: binary('special_xlog1py', { float: xlog1pyRow, int: null, int64: null }),
  specialZeta: binary('special_zeta', { float: zetaRow, int: null, int64: null }),
  igamma: binary('igamma', { float: igammaRow, int: null, int64: null }),
  igammac: binary('igammac', { float: igammacRow, int: null, int64: null }),
  // torch.special's orthogonal polynomials (Note [Orthogonal polynomials as PyTorch 2.x evaluates them]):
  // float32 and float64 only (core refuses the 16-bit floats); Hermite's limit reads the dtype's rounding mode
  specialChebyshevPolynomialT: binary('special_chebyshev_polynomial_t', { float: chebyshevTRow, int: null, int64: null }),
  specialChebyshevPolynomialU: binary('special_chebyshev_polynomial_u', { float: chebyshevURow, int: null, int64: null }),
  specialChebyshevPolynomialV: binary('special_chebyshev_polynomial_v', { float: chebyshevVRow, int: null, int64: null }),
  specialChebyshevPolynomialW: binary('special_chebyshev_polynomial_w', { float: chebyshevWRow, int: null, int64: null }),
  specialShiftedChebyshevPolynomialT: binary('special_shifted_chebyshev_polynomial_t', { float: shiftedChebyshevTRow, int: null, int64: null }),
  specialShiftedChebyshevPolynomialU: binary('special_shifted_chebyshev_polynomial_u', { float: shiftedChebyshevURow, int: null, int64: null }),
  specialShiftedChebyshevPolynomialV: binary('special_shifted_chebyshev_polynomial_v', { float: shiftedChebyshevVRow, int: null, int64: null }),
  specialShiftedChebyshevPolynomialW: binary('special_shifted_chebyshev_polynomial_w', { float: shiftedChebyshevWRow, int: null, int64: null }),
  specialHermitePolynomialH: binary('special_hermite_polynomial_h', { float: hermiteHRow, int: null, int64: null, rounds: true }),
  specialHermitePolynomialHe: binary('special_hermite_polynomial_he', { float: hermiteHeRow, int: null, int64: null, rounds: true }),
  specialLaguerrePolynomialL: binary('special_laguerre_polynomial_l', { float: laguerreLRow, int: null, int64: null }),
  specialLegendrePolynomialP: binary('special_legendre_polynomial_p', { float: legendrePRow, int: null, int64: null }),
  fmax: binary('fmax', { float: fmaxRow, int: onScratch(fmaxRow), int64: maximumInt64Row }),
  fmin: binary('fmin', { float: fminRow, int: onScratch(fminRow), int64: minimumInt64Row }),
  // comparisons (compare.ts), logical and bitwise ops (logical.ts)
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  logicalAnd,
  logicalOr,
  logicalXor,
  bitwiseAnd,
  bitwiseOr,
  bitwiseXor,
} satisfies TableBinaryImpls;

/**
 * clamp with a Scalar bound (Note [clamp's two kernels] in core): `std::max(x, min)`, so a
 * NaN bound is ignored and a NaN `x` stays NaN. Integers share the row (exact on scratch).
 */
export function clampMinRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const m = b[bo];
    o[oo] = x < m ? m : x;
  }
}

/** `std::min(x, max)`: a NaN bound is ignored, a NaN `x` stays NaN. */
export function clampMaxRow(n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
    const x = a[ao];
    const m = b[bo];
    o[oo] = m < x ? m : x;
  }
}

export const clampMin: BinaryImpl = binary('clamp_min', { float: clampMinRow, int: onScratch(clampMinRow), int64: maximumInt64Row });
export const clampMax: BinaryImpl = binary('clamp_max', { float: clampMaxRow, int: onScratch(clampMaxRow), int64: minimumInt64Row });
