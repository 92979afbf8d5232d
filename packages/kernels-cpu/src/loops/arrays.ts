import type { TensorImpl } from '@torch-ts/core';

/**
 * Note [Monomorphic loops]
 * V8 compiles a keyed load such as `a[i]` for the typed-array kinds it has seen there: one
 * kind is a single check hoisted out of the loop, two to four is a short dispatch, and five
 * or more makes the site megamorphic, about 40x slower (measured: a 4M-element float32 add
 * goes from ~12 ms to ~600 ms once the same loop has also seen int8, uint8, int16, int32
 * and float64 arrays). Closures made by one factory share their feedback, so a factory does
 * not help either. The loops of this package therefore keep every element access to at most
 * two array kinds:
 *  - float row kernels (`FloatArray`) read and write float32 and float64 storage directly,
 *    and float64 scratch;
 *  - every other dtype is converted chunk by chunk into float64 scratch by a reader written
 *    for its own array type, computed there, and converted back by a writer for its type
 *    (loops/convert.ts), so int, bool and 16-bit float kernels only ever see Float64Array;
 *  - int64 kernels use BigInt64Array or the Int32Array words of the storage, nothing else;
 *  - dtype-agnostic data movement (copy, where, fill) works on raw element bits by width.
 * The per-row overhead (a closure call, a subarray) is paid once per row or chunk, never per
 * element. A row kernel takes (n, array, offset, stride) per operand: exactly what a
 * WebAssembly SIMD kernel over a region of a WebAssembly.Memory would take, and what a
 * worker given `forEachRowInRange` would run, so neither changes any caller.
 */
export type FloatArray = Float32Array | Float64Array;

/** The float32 or float64 elements of a floating tensor's storage (not 16-bit floats). */
export function floatArray(t: TensorImpl): FloatArray {
  return t.dtype === 'float32' ? t.storage.typed(Float32Array) : t.storage.typed(Float64Array);
}

/** The whole storage as bytes (uint8 and bool elements). */
export function bytes(t: TensorImpl): Uint8Array {
  return t.storage.typed(Uint8Array);
}

/** The storage as 32-bit words: int32 elements, or two words per int64 (low word first). */
export function words(t: TensorImpl): Int32Array {
  return t.storage.typed(Int32Array);
}

export function bigints(t: TensorImpl): BigInt64Array {
  return t.storage.typed(BigInt64Array);
}

/**
 * Raw element access by width, for moves that never look at values. 8-byte elements are
 * moved as two Int32 words rather than as doubles: an int64 such as -1 has the bit pattern
 * of a NaN, and a NaN must never pass through a JS number on its way.
 */
export type RawWidth = 1 | 2 | 4 | 8;

export function itemWidth(t: TensorImpl): RawWidth {
  return t.itemSize as RawWidth;
}

export function raw1(t: TensorImpl): Uint8Array {
  return t.storage.typed(Uint8Array);
}

export function raw2(t: TensorImpl): Uint16Array {
  return t.storage.typed(Uint16Array);
}

export function raw4(t: TensorImpl): Int32Array {
  return t.storage.typed(Int32Array);
}
