import type { BinaryImpl, TensorImpl } from '@torch-ts/core';
import { bytes, type FloatArray } from '../loops/arrays';
import { runCompare, runInt64Words, type CompareRow } from '../loops/pointwise';
import { COMPARE, compareWasm } from './pointwise-wasm';
import { CMP_EQ, CMP_GE, CMP_GT, CMP_LE, CMP_LT, CMP_NE, compareInt64Row } from './int64-rows';

/**
 * Comparisons: `out` is bool, the inputs are in the compute dtype (core casts them). IEEE
 * semantics on doubles are PyTorch's: NaN is unequal to everything, itself included, so
 * every comparison with NaN is false except `ne`; -0 equals 0. Integer inputs other than
 * int64 are exact in doubles; int64 compares its words.
 */

function eqRow(n: number, o: Uint8Array, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] === y ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] === b[bo] ? 1 : 0;
  }
}

function neRow(n: number, o: Uint8Array, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] !== y ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] !== b[bo] ? 1 : 0;
  }
}

function ltRow(n: number, o: Uint8Array, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] < y ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] < b[bo] ? 1 : 0;
  }
}

function leRow(n: number, o: Uint8Array, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] <= y ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] <= b[bo] ? 1 : 0;
  }
}

function gtRow(n: number, o: Uint8Array, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] > y ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] > b[bo] ? 1 : 0;
  }
}

function geRow(n: number, o: Uint8Array, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number): void {
  if (os === 1 && as === 1 && bs === 0) {
    const y = b[bo];
    for (let i = 0; i < n; i++) o[oo + i] = a[ao + i] >= y ? 1 : 0;
  } else {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] >= b[bo] ? 1 : 0;
  }
}

function comparison(row: CompareRow, int64Op: number, wasmOp: number): BinaryImpl {
  return (out: TensorImpl, a: TensorImpl, b: TensorImpl) => {
    if (compareWasm(wasmOp, out, a, b)) return;
    if (a.dtype === 'int64') runInt64Words(out, bytes(out), a, b, compareInt64Row, int64Op);
    else runCompare(out, a, b, row);
  };
}

export const eq: BinaryImpl = comparison(eqRow, CMP_EQ, COMPARE.eq);
export const ne: BinaryImpl = comparison(neRow, CMP_NE, COMPARE.ne);
export const lt: BinaryImpl = comparison(ltRow, CMP_LT, COMPARE.lt);
export const le: BinaryImpl = comparison(leRow, CMP_LE, COMPARE.le);
export const gt: BinaryImpl = comparison(gtRow, CMP_GT, COMPARE.gt);
export const ge: BinaryImpl = comparison(geRow, CMP_GE, COMPARE.ge);
