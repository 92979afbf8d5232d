import { DTypeError, f16BitsToNumber, f32ToBf16Bits, f32ToF16Bits, type TensorImpl } from '@torch-ts/core';
import { wordsToF32, wordsToF64, storeF64AsInt64 } from './int64-words';

/**
 * Readers and writers move elements between a tensor's storage and float64 scratch, one
 * function per storage array type (Note [Monomorphic loops]). A reader decodes exactly: every
 * dtype but int64 is a subset of float64. A writer is the store of an op's RESULT: it rounds
 * to float32 / float16 / bfloat16 (PyTorch computes 16-bit float ops in float32 and rounds
 * once: float32 rounding comes first inside `f32ToF16Bits`), wraps integers modulo their
 * width (the typed-array store does it, and results of integer kernels are integer-valued),
 * and normalises bool to 0/1 with `!= 0`. Casts of floats to integers need PyTorch's x86
 * rules first (kernels/cast.ts); a writer alone would wrap where x86 saturates.
 */
export type Reader = (n: number, dst: Float64Array, off: number, stride: number) => void;
export type Writer = (n: number, src: Float64Array, off: number, stride: number) => void;

/** How int64 elements are read into doubles; see Note [int64 as two words]. */
export type Int64ReadMode = 'value' | 'float32' | 'low' | 'bool';

/** Below this many elements a plain loop beats `set` on a fresh subarray. */
const SET_MIN = 32;

export function readerOf(t: TensorImpl, int64Mode: Int64ReadMode = 'value'): Reader {
  const s = t.storage;
  switch (t.dtype) {
    case 'float32': {
      const a = s.typed(Float32Array);
      return (n, dst, off, stride) => readF32(n, dst, a, off, stride);
    }
    case 'float64': {
      const a = s.typed(Float64Array);
      return (n, dst, off, stride) => readF64(n, dst, a, off, stride);
    }
    case 'float16': {
      const a = s.typed(Uint16Array);
      const table = f16Table();
      return (n, dst, off, stride) => readF16(n, dst, a, table, off, stride);
    }
    case 'bfloat16': {
      const a = s.typed(Uint16Array);
      return (n, dst, off, stride) => readBf16(n, dst, a, off, stride);
    }
    case 'int8': {
      const a = s.typed(Int8Array);
      return (n, dst, off, stride) => readI8(n, dst, a, off, stride);
    }
    case 'uint8':
    case 'bool': {
      const a = s.typed(Uint8Array);
      return (n, dst, off, stride) => readU8(n, dst, a, off, stride);
    }
    case 'int16': {
      const a = s.typed(Int16Array);
      return (n, dst, off, stride) => readI16(n, dst, a, off, stride);
    }
    case 'int32': {
      const a = s.typed(Int32Array);
      return (n, dst, off, stride) => readI32(n, dst, a, off, stride);
    }
    case 'int64': {
      const w = s.typed(Int32Array);
      return (n, dst, off, stride) => readI64(n, dst, w, off, stride, int64Mode);
    }
    default:
      throw complexElements(t);
  }
}

export function writerOf(t: TensorImpl): Writer {
  const s = t.storage;
  switch (t.dtype) {
    case 'float32': {
      const a = s.typed(Float32Array);
      return (n, src, off, stride) => writeF32(n, src, a, off, stride);
    }
    case 'float64': {
      const a = s.typed(Float64Array);
      return (n, src, off, stride) => writeF64(n, src, a, off, stride);
    }
    case 'float16': {
      const a = s.typed(Uint16Array);
      return (n, src, off, stride) => writeF16(n, src, a, off, stride);
    }
    case 'bfloat16': {
      const a = s.typed(Uint16Array);
      return (n, src, off, stride) => writeBf16(n, src, a, off, stride);
    }
    case 'int8': {
      const a = s.typed(Int8Array);
      return (n, src, off, stride) => writeI8(n, src, a, off, stride);
    }
    case 'uint8': {
      const a = s.typed(Uint8Array);
      return (n, src, off, stride) => writeU8(n, src, a, off, stride);
    }
    case 'bool': {
      const a = s.typed(Uint8Array);
      return (n, src, off, stride) => writeBool(n, src, a, off, stride);
    }
    case 'int16': {
      const a = s.typed(Int16Array);
      return (n, src, off, stride) => writeI16(n, src, a, off, stride);
    }
    case 'int32': {
      const a = s.typed(Int32Array);
      return (n, src, off, stride) => writeI32(n, src, a, off, stride);
    }
    case 'int64': {
      const w = s.typed(Int32Array);
      return (n, src, off, stride) => writeI64(n, src, w, off, stride);
    }
    default:
      throw complexElements(t);
  }
}

/** CPU kernels see real dtypes only: core runs complex ops as composites over real views (core Note [Complex tensors are pairs of reals]). */
function complexElements(t: TensorImpl): Error {
  return new DTypeError(`CPU kernels take real tensors; got ${t.dtype} (core should have run the op on its real view)`);
}

// ---- readers: one per array type, so each loop sees one kind ----

function readF32(n: number, dst: Float64Array, a: Float32Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) dst.set(a.subarray(off, off + n));
  else if (stride === 0) dst.fill(a[off], 0, n);
  else for (let i = 0, j = off; i < n; i++, j += stride) dst[i] = a[j];
}

function readF64(n: number, dst: Float64Array, a: Float64Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) dst.set(a.subarray(off, off + n));
  else if (stride === 0) dst.fill(a[off], 0, n);
  else for (let i = 0, j = off; i < n; i++, j += stride) dst[i] = a[j];
}

function readI8(n: number, dst: Float64Array, a: Int8Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) dst.set(a.subarray(off, off + n));
  else if (stride === 0) dst.fill(a[off], 0, n);
  else for (let i = 0, j = off; i < n; i++, j += stride) dst[i] = a[j];
}

function readU8(n: number, dst: Float64Array, a: Uint8Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) dst.set(a.subarray(off, off + n));
  else if (stride === 0) dst.fill(a[off], 0, n);
  else for (let i = 0, j = off; i < n; i++, j += stride) dst[i] = a[j];
}

function readI16(n: number, dst: Float64Array, a: Int16Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) dst.set(a.subarray(off, off + n));
  else if (stride === 0) dst.fill(a[off], 0, n);
  else for (let i = 0, j = off; i < n; i++, j += stride) dst[i] = a[j];
}

function readI32(n: number, dst: Float64Array, a: Int32Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) dst.set(a.subarray(off, off + n));
  else if (stride === 0) dst.fill(a[off], 0, n);
  else for (let i = 0, j = off; i < n; i++, j += stride) dst[i] = a[j];
}

let F16_TABLE: Float64Array | null = null;

/** Every float16 bit pattern decoded, built on first use (512 KiB). */
function f16Table(): Float64Array {
  if (F16_TABLE === null) {
    F16_TABLE = new Float64Array(65536);
    for (let h = 0; h < 65536; h++) F16_TABLE[h] = f16BitsToNumber(h);
  }
  return F16_TABLE;
}

function readF16(n: number, dst: Float64Array, a: Uint16Array, table: Float64Array, off: number, stride: number): void {
  for (let i = 0, j = off; i < n; i++, j += stride) dst[i] = table[a[j]];
}

// A bfloat16 is the high half of a float32: widen the words, then let `set` convert.
const BF16_CHUNK = 1024;
const bf16Words = new Int32Array(BF16_CHUNK);
const bf16Floats = new Float32Array(bf16Words.buffer);

function readBf16(n: number, dst: Float64Array, a: Uint16Array, off: number, stride: number): void {
  for (let start = 0; start < n; start += BF16_CHUNK) {
    const m = Math.min(BF16_CHUNK, n - start);
    for (let i = 0, j = off + start * stride; i < m; i++, j += stride) bf16Words[i] = a[j] << 16;
    dst.set(bf16Floats.subarray(0, m), start);
  }
}

function readI64(n: number, dst: Float64Array, w: Int32Array, off: number, stride: number, mode: Int64ReadMode): void {
  const s2 = 2 * stride;
  let j = 2 * off;
  if (mode === 'value') for (let i = 0; i < n; i++, j += s2) dst[i] = wordsToF64(w[j], w[j + 1]);
  else if (mode === 'float32') for (let i = 0; i < n; i++, j += s2) dst[i] = wordsToF32(w[j], w[j + 1]);
  else if (mode === 'low') for (let i = 0; i < n; i++, j += s2) dst[i] = w[j];
  else for (let i = 0; i < n; i++, j += s2) dst[i] = (w[j] | w[j + 1]) !== 0 ? 1 : 0;
}

// ---- writers ----

function writeF32(n: number, src: Float64Array, a: Float32Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) a.set(src.subarray(0, n), off);
  else for (let i = 0, j = off; i < n; i++, j += stride) a[j] = src[i];
}

function writeF64(n: number, src: Float64Array, a: Float64Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) a.set(src.subarray(0, n), off);
  else for (let i = 0, j = off; i < n; i++, j += stride) a[j] = src[i];
}

function writeI8(n: number, src: Float64Array, a: Int8Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) a.set(src.subarray(0, n), off);
  else for (let i = 0, j = off; i < n; i++, j += stride) a[j] = src[i];
}

function writeU8(n: number, src: Float64Array, a: Uint8Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) a.set(src.subarray(0, n), off);
  else for (let i = 0, j = off; i < n; i++, j += stride) a[j] = src[i];
}

function writeI16(n: number, src: Float64Array, a: Int16Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) a.set(src.subarray(0, n), off);
  else for (let i = 0, j = off; i < n; i++, j += stride) a[j] = src[i];
}

function writeI32(n: number, src: Float64Array, a: Int32Array, off: number, stride: number): void {
  if (stride === 1 && n >= SET_MIN) a.set(src.subarray(0, n), off);
  else for (let i = 0, j = off; i < n; i++, j += stride) a[j] = src[i];
}

function writeBool(n: number, src: Float64Array, a: Uint8Array, off: number, stride: number): void {
  for (let i = 0, j = off; i < n; i++, j += stride) a[j] = src[i] !== 0 ? 1 : 0;
}

function writeF16(n: number, src: Float64Array, a: Uint16Array, off: number, stride: number): void {
  for (let i = 0, j = off; i < n; i++, j += stride) a[j] = f32ToF16Bits(src[i]);
}

function writeBf16(n: number, src: Float64Array, a: Uint16Array, off: number, stride: number): void {
  for (let i = 0, j = off; i < n; i++, j += stride) a[j] = f32ToBf16Bits(src[i]);
}

function writeI64(n: number, src: Float64Array, w: Int32Array, off: number, stride: number): void {
  for (let i = 0, j = 2 * off; i < n; i++, j += 2 * stride) storeF64AsInt64(w, j, src[i]);
}
