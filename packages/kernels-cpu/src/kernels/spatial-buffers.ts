import type { TensorImpl } from '@torch-ts/core';
import { floatArray, type FloatArray } from '../loops/arrays';
import { readerOf, writerOf, type Reader, type Writer } from '../loops/convert';

/**
 * The element buffers of the spatial kernels (Note [Spatial impls] in core): float32 and
 * float64 tensors are used in place, at their own strides (`dense: false`); any other dtype
 * (16-bit floats, and the integers some ops accept) is decoded into dense row-major float64
 * scratch (`dense: true`, offset 0) and, for an output, written back once by `commit`,
 * which rounds as PyTorch's 16-bit kernels do (compute wide, round on store). So a kernel's
 * loops see only Float32Array and Float64Array.
 */
export interface FloatBuffer {
  readonly a: FloatArray;
  readonly off: number;
  readonly dense: boolean;
}
export interface FloatOutBuffer extends FloatBuffer {
  readonly commit: () => void;
}

function isWide(t: TensorImpl): boolean {
  return t.dtype === 'float32' || t.dtype === 'float64';
}

/** Calls `row(off, dstIndex)` for each innermost row of t (row-major order). */
function forEachRow(t: TensorImpl, row: (off: number, at: number) => void): void {
  const sizes = t.sizes;
  const nd = sizes.length;
  if (nd === 0) {
    row(t.storageOffset, 0);
    return;
  }
  const inner = sizes[nd - 1];
  const outer = t.numel / Math.max(inner, 1);
  if (t.numel === 0) return;
  const idx = new Array<number>(nd).fill(0);
  for (let r = 0; r < outer; r++) {
    let off = t.storageOffset;
    for (let d = 0; d < nd - 1; d++) off += idx[d] * t.strides[d];
    row(off, r * inner);
    for (let d = nd - 2; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
  }
}

export function decode(t: TensorImpl, read: Reader = readerOf(t)): Float64Array {
  const dst = new Float64Array(t.numel);
  const inner = t.sizes.length ? t.sizes[t.sizes.length - 1] : 1;
  const s = t.sizes.length ? t.strides[t.sizes.length - 1] : 1;
  forEachRow(t, (off, at) => read(inner, dst.subarray(at, at + inner), off, s));
  return dst;
}

function encode(t: TensorImpl, src: Float64Array, write: Writer = writerOf(t)): void {
  const inner = t.sizes.length ? t.sizes[t.sizes.length - 1] : 1;
  const s = t.sizes.length ? t.strides[t.sizes.length - 1] : 1;
  forEachRow(t, (off, at) => write(inner, src.subarray(at, at + inner), off, s));
}

export function floatIn(t: TensorImpl): FloatBuffer {
  if (isWide(t)) return { a: floatArray(t), off: t.storageOffset, dense: false };
  return { a: decode(t), off: 0, dense: true };
}

/** An output buffer; `initial` decodes the tensor's current values into the scratch (default: zeros). */
export function floatOut(t: TensorImpl, initial = false): FloatOutBuffer {
  if (isWide(t)) return { a: floatArray(t), off: t.storageOffset, dense: false, commit: () => {} };
  const a = initial ? decode(t) : new Float64Array(t.numel);
  return { a, off: 0, dense: true, commit: () => encode(t, a) };
}

/** The strides a kernel indexes `t` with through its buffer `buf`. */
export function stridesIn(t: TensorImpl, buf: FloatBuffer): number[] {
  if (!buf.dense) return [...t.strides];
  const s = new Array<number>(t.sizes.length);
  let acc = 1;
  for (let d = t.sizes.length - 1; d >= 0; d--) {
    s[d] = acc;
    acc *= t.sizes[d];
  }
  return s;
}
