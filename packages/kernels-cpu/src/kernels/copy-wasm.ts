import type { DType, TensorImpl } from '@torch-ts/core';
import { pointwiseWasm, runPlanes } from './pointwise-wasm';

/** Dtype codes of assembly/convert.ts for the casts it runs (one side float32). */
const CAST_CODE: Partial<Record<DType, number>> = { float32: 0, float64: 1, int32: 2, int64: 3, float16: 4, bfloat16: 5, uint8: 6, bool: 7 };
/** Raw element moves by width: 1, 2, 4, 8 bytes. */
const RAW_CODE: Record<number, number> = { 1: 8, 2: 9, 4: 10, 8: 11 };

/**
 * dst = src converted to dst's dtype on the WebAssembly kernels (Note [Copy and cast
 * kernels]), split over the thread pool as the pointwise ops are; false when they cannot
 * run it (the caller runs its JS loops).
 */
export function copyWasm(dst: TensorImpl, src: TensorImpl): boolean {
  const w = pointwiseWasm;
  if (w === null) return false;
  let codes: number[];
  if (dst.dtype === src.dtype) {
    codes = [RAW_CODE[dst.itemSize], RAW_CODE[dst.itemSize]];
  } else {
    const s = CAST_CODE[src.dtype];
    const d = CAST_CODE[dst.dtype];
    if (s === undefined || d === undefined || (src.dtype !== 'float32' && dst.dtype !== 'float32')) return false;
    codes = [s, d];
  }
  runPlanes(w, 'convertPlane', [dst, src], codes, []);
  return true;
}
