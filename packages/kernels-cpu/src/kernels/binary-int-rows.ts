import { TorchError } from '@torch-ts/core';

/**
 * Integer row kernels for int8, uint8, int16, int32 and bool, on float64 scratch holding the
 * integer values (signature: ScratchBinaryRow). The writer stores the result modulo the
 * dtype's width, so a kernel only needs a result congruent to the true one modulo 2^32:
 * sums of two int32 are exact in a double, products go through Math.imul (the low 32 bits,
 * where a double product would lose them above 2^53). Working modulo 2^32 and wrapping once
 * gives the same bits as PyTorch's arithmetic in the narrow type, because reduction modulo
 * 2^k commutes with + and *.
 */

export function zeroDivision(op: string): TorchError {
  return new TorchError(`${op}: ZeroDivisionError (integer division by zero)`);
}

/** a + alpha * b; alpha is an integer within the dtype's range (or 0/1 for bool). */
export function addIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array, alpha: number): void {
  if (alpha === 1) for (let i = 0; i < n; i++) o[i] = a[i] + b[i];
  else for (let i = 0; i < n; i++) o[i] = a[i] + Math.imul(alpha, b[i]);
}

export function mulIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) o[i] = Math.imul(a[i], b[i]);
}

/**
 * Truncating division. A double quotient of two int32 never rounds across an integer (that
 * would need |a| > 2^53), so `Math.trunc(a / b)` is exact. INT32_MIN / -1 wraps to INT32_MIN
 * (PyTorch dies of SIGFPE there: x86 `idiv` traps, so any answer is ours to choose).
 */
export function divTruncIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const y = b[i];
    if (y === 0) throw zeroDivision('div');
    o[i] = Math.trunc(a[i] / y);
  }
}

/** Flooring division: exact for the same reason as `divTruncIntRow`. */
export function divFloorIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const y = b[i];
    if (y === 0) throw zeroDivision('div');
    o[i] = Math.floor(a[i] / y);
  }
}

/** Python's modulo: the result has the sign of the divisor. */
export function remainderIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const y = b[i];
    if (y === 0) throw zeroDivision('remainder');
    let m = a[i] % y;
    if (m !== 0 && y < 0 !== m < 0) m += y;
    o[i] = m;
  }
}

/**
 * Integer power by squaring, modulo 2^32 (PyTorch's `powi`). A negative exponent gives 1 for
 * base 1, ±1 for base -1 (by the exponent's parity) and 0 otherwise, 0 ** -1 included.
 */
export function powInt(base: number, exp: number): number {
  if (exp < 0) {
    if (base === 1) return 1;
    if (base === -1) return exp % 2 === 0 ? 1 : -1;
    return 0;
  }
  let result = 1;
  let b = base | 0;
  let e = exp >>> 0;
  while (e !== 0) {
    if ((e & 1) !== 0) result = Math.imul(result, b);
    b = Math.imul(b, b);
    e >>>= 1;
  }
  return result;
}

export function powIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) o[i] = powInt(a[i], b[i]);
}
