import { TorchError, type BinaryImpl, type TensorImpl, type UnaryImpl } from '@torch-ts/core';
import { bytes, type FloatArray } from '../loops/arrays';
import { runCompare, runInt64Unary, runInt64Words, runScratchUnary, type CompareRow } from '../loops/pointwise';
import { binary, unsupportedDtype } from './binary';

/**
 * The logical ops into a bool `out` (rows of core's op table): a value is true when nonzero, NaN
 * included (`x !== 0`). Inputs of any dtype: float32/float64 directly, the others through
 * scratch doubles (exact for them), int64 on its two words. logicalNot reads only `a`.
 */

const OP_NOT = 0;
const OP_AND = 1;
const OP_OR = 2;
const OP_XOR = 3;

function logicalRow(op: number): CompareRow {
  return (n: number, o: Uint8Array, oo: number, os: number, a: FloatArray, ao: number, as: number, b: FloatArray, bo: number, bs: number) => {
    for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) {
      const x = a[ao] !== 0;
      const y = b[bo] !== 0;
      o[oo] = (op === OP_NOT ? !x : op === OP_AND ? x && y : op === OP_OR ? x || y : x !== y) ? 1 : 0;
    }
  };
}

function logicalInt64Row(n: number, o: Uint8Array, oo: number, os: number, a: Int32Array, ao: number, as: number, b: Int32Array, bo: number, bs: number, op: number): void {
  let ja = 2 * ao;
  let jb = 2 * bo;
  const sa = 2 * as;
  const sb = 2 * bs;
  for (let i = 0; i < n; i++, oo += os, ja += sa, jb += sb) {
    const x = (a[ja] | a[ja + 1]) !== 0;
    const y = (b[jb] | b[jb + 1]) !== 0;
    o[oo] = (op === OP_NOT ? !x : op === OP_AND ? x && y : op === OP_OR ? x || y : x !== y) ? 1 : 0;
  }
}

function logical(op: number): BinaryImpl {
  const row = logicalRow(op);
  return (out: TensorImpl, a: TensorImpl, b: TensorImpl) => {
    if (a.dtype === 'int64') runInt64Words(out, bytes(out), a, b, logicalInt64Row, op);
    else runCompare(out, a, b, row);
  };
}

const notImpl = logical(OP_NOT);
export const logicalNot: UnaryImpl = (out, a) => notImpl(out, a, a);
export const logicalAnd: BinaryImpl = logical(OP_AND);
export const logicalOr: BinaryImpl = logical(OP_OR);
export const logicalXor: BinaryImpl = logical(OP_XOR);

// ---- bitwise ops: integral and bool only (core refuses floating dtypes) ----
function noFloat(op: string) {
  return (): void => {
    throw new TorchError(`${op}: the CPU kernel has no floating kernel`);
  };
}

/** On exact integers in doubles: `&`, `|`, `^` of values of int8..int32, uint8 or bool stay in range. */
function andIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) o[i] = a[i] & b[i];
}
function orIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) o[i] = a[i] | b[i];
}
function xorIntRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < n; i++) o[i] = a[i] ^ b[i];
}
function andInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] & b[bo];
}
function orInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] | b[bo];
}
function xorInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as, bo += bs) o[oo] = a[ao] ^ b[bo];
}

export const bitwiseAnd: BinaryImpl = binary('bitwise_and', { float: noFloat('bitwise_and'), int: andIntRow, int64: andInt64Row });
export const bitwiseOr: BinaryImpl = binary('bitwise_or', { float: noFloat('bitwise_or'), int: orIntRow, int64: orInt64Row });
export const bitwiseXor: BinaryImpl = binary('bitwise_xor', { float: noFloat('bitwise_xor'), int: xorIntRow, int64: xorInt64Row });

/** `~x` in two's complement (uint8 masked back to 0..255); bool's not is logical not. */
function notIntRow(n: number, o: Float64Array, a: Float64Array, mask: number): void {
  for (let i = 0; i < n; i++) o[i] = mask ? ~a[i] & mask : ~a[i];
}
function notBoolRow(n: number, o: Float64Array, a: Float64Array): void {
  for (let i = 0; i < n; i++) o[i] = a[i] === 0 ? 1 : 0;
}
function notInt64Row(n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number): void {
  for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = ~a[ao];
}

export const bitwiseNot: UnaryImpl = (out, a) => {
  const d = out.dtype;
  if (d === 'int64') runInt64Unary(out, a, notInt64Row);
  else if (d === 'bool') runScratchUnary(out, a, notBoolRow, 0);
  else if (d === 'uint8') runScratchUnary(out, a, notIntRow, 0xff);
  else if (d === 'int8' || d === 'int16' || d === 'int32') runScratchUnary(out, a, notIntRow, 0);
  else throw unsupportedDtype('bitwise_not', out);
};

/** nan_to_num on floating dtypes, through scratch doubles: the writer converts the replacements (1e300 in float32 is inf). */
export function nanToNum(out: TensorImpl, a: TensorImpl, nan: number, posinf: number, neginf: number): void {
  runScratchUnary(
    out,
    a,
    (n: number, o: Float64Array, x: Float64Array) => {
      for (let i = 0; i < n; i++) {
        const v = x[i];
        o[i] = v !== v ? nan : v === Infinity ? posinf : v === -Infinity ? neginf : v;
      }
    },
    0,
  );
}
