import type { TensorImpl } from '@torch-ts/core';
import { bigints, bytes, floatArray, words, type FloatArray } from './arrays';
import { readerOf, writerOf } from './convert';
import { forEachRowOf, isOneRow } from './iterate';

/**
 * Row kernels and the drivers that feed them (Note [Monomorphic loops]).
 * A float row kernel computes one row: element i of operand k is `x[xo + i * xs]`. It is
 * called on float32/float64 storage directly, with the row's strides (0 for a broadcast
 * input, so kernels hoist such an operand out of the loop), and on float64 scratch with unit
 * strides. `p` is the op's parameter (add's alpha, a rounding mode); kernels without one
 * ignore it.
 */
export type FloatBinaryRow = (
  n: number,
  o: FloatArray, oo: number, os: number,
  a: FloatArray, ao: number, as: number,
  b: FloatArray, bo: number, bs: number,
  p: number,
) => void;

export type FloatUnaryRow = (n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number, p: number) => void;

/** A comparison row: inputs as in FloatBinaryRow, the output a bool (0/1 byte) row. */
export type CompareRow = (
  n: number,
  o: Uint8Array, oo: number, os: number,
  a: FloatArray, ao: number, as: number,
  b: FloatArray, bo: number, bs: number,
) => void;

/** A kernel over contiguous float64 scratch: n elements, no offsets, no strides. */
export type ScratchBinaryRow = (n: number, o: Float64Array, a: Float64Array, b: Float64Array, p: number) => void;
export type ScratchUnaryRow = (n: number, o: Float64Array, a: Float64Array, p: number) => void;

/** Elements per scratch chunk: three chunks of float64 stay inside a 32 KiB L1 cache. */
export const CHUNK = 1024;
const S0 = new Float64Array(CHUNK);
const S1 = new Float64Array(CHUNK);
const S2 = new Float64Array(CHUNK);

/** A float row kernel run on unit-stride scratch. */
export function onScratch(row: FloatBinaryRow): ScratchBinaryRow {
  return (n, o, a, b, p) => row(n, o, 0, 1, a, 0, 1, b, 0, 1, p);
}

export function onScratchUnary(row: FloatUnaryRow): ScratchUnaryRow {
  return (n, o, a, p) => row(n, o, 0, 1, a, 0, 1, p);
}

/** out = row(a, b) on float32/float64 tensors of one dtype, straight on their storage. */
export function runFloatBinary(out: TensorImpl, a: TensorImpl, b: TensorImpl, row: FloatBinaryRow, p: number): void {
  const O = floatArray(out);
  const A = floatArray(a);
  const B = floatArray(b);
  if (isOneRow(out, a, b)) row(out.numel, O, out.storageOffset, 1, A, a.storageOffset, 1, B, b.storageOffset, 1, p);
  else forEachRowOf([out, a, b], (n, base, st) => row(n, O, base[0], st[0], A, base[1], st[1], B, base[2], st[2], p));
}

/** A float row kernel that is only ever called on Float32Array storage (Note [Float32 add is monomorphic]). */
export type F32BinaryRow = (
  n: number,
  o: Float32Array, oo: number, os: number,
  a: Float32Array, ao: number, as: number,
  b: Float32Array, bo: number, bs: number,
) => void;

/** out = row(a, b) on float32 tensors, straight on their storage. */
export function runF32Binary(out: TensorImpl, a: TensorImpl, b: TensorImpl, row: F32BinaryRow): void {
  const O = out.storage.typed(Float32Array);
  const A = a.storage.typed(Float32Array);
  const B = b.storage.typed(Float32Array);
  if (isOneRow(out, a, b)) row(out.numel, O, out.storageOffset, 1, A, a.storageOffset, 1, B, b.storageOffset, 1);
  else forEachRowOf([out, a, b], (n, base, st) => row(n, O, base[0], st[0], A, base[1], st[1], B, base[2], st[2]));
}

export function runFloatUnary(out: TensorImpl, a: TensorImpl, row: FloatUnaryRow, p: number): void {
  const O = floatArray(out);
  const A = floatArray(a);
  if (isOneRow(out, a)) row(out.numel, O, out.storageOffset, 1, A, a.storageOffset, 1, p);
  else forEachRowOf([out, a], (n, base, st) => row(n, O, base[0], st[0], A, base[1], st[1], p));
}

/**
 * out = row(a, b) for any dtype but int64, chunk by chunk through float64 scratch: read
 * (decode) both inputs, compute, write (round / wrap / normalise) the result. In-place ops
 * (out aliasing an input element for element) are safe: a chunk is read before it is written.
 */
export function runScratchBinary(out: TensorImpl, a: TensorImpl, b: TensorImpl, row: ScratchBinaryRow, p: number): void {
  const ra = readerOf(a);
  const rb = readerOf(b);
  const w = writerOf(out);
  forEachRowOf([out, a, b], (n, base, st) => {
    for (let s = 0; s < n; s += CHUNK) {
      const m = n - s < CHUNK ? n - s : CHUNK;
      ra(m, S1, base[1] + s * st[1], st[1]);
      rb(m, S2, base[2] + s * st[2], st[2]);
      row(m, S0, S1, S2, p);
      w(m, S0, base[0] + s * st[0], st[0]);
    }
  });
}

export function runScratchUnary(out: TensorImpl, a: TensorImpl, row: ScratchUnaryRow, p: number): void {
  const ra = readerOf(a);
  const w = writerOf(out);
  forEachRowOf([out, a], (n, base, st) => {
    for (let s = 0; s < n; s += CHUNK) {
      const m = n - s < CHUNK ? n - s : CHUNK;
      ra(m, S1, base[1] + s * st[1], st[1]);
      row(m, S0, S1, p);
      w(m, S0, base[0] + s * st[0], st[0]);
    }
  });
}

/** A comparison into a bool `out`: float32/float64 inputs directly, others through scratch. */
export function runCompare(out: TensorImpl, a: TensorImpl, b: TensorImpl, row: CompareRow): void {
  const O = bytes(out);
  if (a.dtype === 'float32' || a.dtype === 'float64') {
    const A = floatArray(a);
    const B = floatArray(b);
    if (isOneRow(out, a, b)) row(out.numel, O, out.storageOffset, 1, A, a.storageOffset, 1, B, b.storageOffset, 1);
    else forEachRowOf([out, a, b], (n, base, st) => row(n, O, base[0], st[0], A, base[1], st[1], B, base[2], st[2]));
    return;
  }
  const ra = readerOf(a);
  const rb = readerOf(b);
  forEachRowOf([out, a, b], (n, base, st) => {
    for (let s = 0; s < n; s += CHUNK) {
      const m = n - s < CHUNK ? n - s : CHUNK;
      ra(m, S1, base[1] + s * st[1], st[1]);
      rb(m, S2, base[2] + s * st[2], st[2]);
      row(m, O, base[0] + s * st[0], st[0], S1, 0, 1, S2, 0, 1);
    }
  });
}

/** out = row(a, b) on int64 tensors, BigInt by BigInt. */
export function runInt64Binary<P>(
  out: TensorImpl,
  a: TensorImpl,
  b: TensorImpl,
  row: (n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number, b: BigInt64Array, bo: number, bs: number, p: P) => void,
  p: P,
): void {
  const O = bigints(out);
  const A = bigints(a);
  const B = bigints(b);
  if (isOneRow(out, a, b)) row(out.numel, O, out.storageOffset, 1, A, a.storageOffset, 1, B, b.storageOffset, 1, p);
  else forEachRowOf([out, a, b], (n, base, st) => row(n, O, base[0], st[0], A, base[1], st[1], B, base[2], st[2], p));
}

export function runInt64Unary(
  out: TensorImpl,
  a: TensorImpl,
  row: (n: number, o: BigInt64Array, oo: number, os: number, a: BigInt64Array, ao: number, as: number) => void,
): void {
  const O = bigints(out);
  const A = bigints(a);
  forEachRowOf([out, a], (n, base, st) => row(n, O, base[0], st[0], A, base[1], st[1]));
}

/** out = row(a, b) on the Int32 words of int64 tensors (Note [int64 as two words]). */
export function runInt64Words<O extends Int32Array | Uint8Array>(
  out: TensorImpl,
  O: O,
  a: TensorImpl,
  b: TensorImpl,
  row: (n: number, o: O, oo: number, os: number, a: Int32Array, ao: number, as: number, b: Int32Array, bo: number, bs: number, p: number) => void,
  p: number,
): void {
  const A = words(a);
  const B = words(b);
  forEachRowOf([out, a, b], (n, base, st) => row(n, O, base[0], st[0], A, base[1], st[1], B, base[2], st[2], p));
}
