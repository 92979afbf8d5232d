import { DTypeError, type DType } from '@torch-ts/core';

/**
 * Note [WebGPU dtypes]
 * How each dtype lives in a storage buffer and what WGSL type its values have in a kernel:
 *   float32  array<f32>            values f32
 *   int32    array<i32>            values i32
 *   uint8    4 per u32 word        values u32 in [0, 255]
 *   bool     4 per u32 word        values u32, 0 or 1
 *   int64    2 u32 words (lo, hi)  copy and cast only (data movement, `to`, `fill`); other
 *                                  kernels raise a DTypeError until int64 is emulated
 *   (any)    same-dtype copies move raw bits by element size (u8, u16, i32, i64 words), so
 *            clone/contiguous and views work for every dtype
 * Byte-sized elements are written with atomicAnd/atomicOr on their word, so neighbouring
 * elements written by other invocations (or belonging to other tensors of the same block)
 * are never clobbered. float64 has no WGSL type: every kernel raises a DTypeError naming
 * the op; so do float16/bfloat16/int8/int16 for now. Storage of any dtype can still be
 * uploaded to and read back from the device (bytes are bytes).
 */
export type Kind = 'f32' | 'i32' | 'u8' | 'bool' | 'i64' | 'u16';

const KIND: Partial<Record<DType, Kind>> = { float32: 'f32', int32: 'i32', uint8: 'u8', bool: 'bool', int64: 'i64' };

/** The storage kind of a dtype for compute kernels (int64 excluded unless `allowInt64`). */
export function kindOf(op: string, dtype: DType, allowInt64 = false): Kind {
  const k = KIND[dtype];
  if (!k || (k === 'i64' && !allowInt64)) {
    const why =
      dtype === 'float64'
        ? 'WebGPU has no 64-bit floats'
        : dtype === 'int64'
          ? 'int64 is not emulated on WebGPU yet for this op'
          : `${dtype} is not supported on WebGPU yet`;
    throw new DTypeError(`${op}: "${op}" not implemented for '${dtype}' on webgpu (${why}; supported: float32, int32, uint8, bool)`);
  }
  return k;
}

/** The WGSL type of a value of this kind inside a kernel. */
export function valueType(k: Kind): string {
  return k === 'f32' ? 'f32' : k === 'i32' || k === 'i64' ? 'i32' : 'u32';
}

/** The binding declaration of operand `i`. Outputs of byte kinds are atomic words. */
export function bindingDecl(i: number, k: Kind, output: boolean, vec4: boolean): string {
  let elem: string;
  if (k === 'f32') elem = vec4 ? 'vec4<f32>' : 'f32';
  else if (k === 'i32') elem = vec4 ? 'vec4<i32>' : 'i32';
  else if ((k === 'u8' || k === 'bool' || k === 'u16') && output) elem = 'atomic<u32>';
  else elem = 'u32';
  return `@group(0) @binding(${i}) var<storage, read_write> b${i}: array<${elem}>;`;
}

/** A WGSL expression loading element `idx` (an element offset) of operand `i`, as `valueType(k)`. */
export function loadExpr(i: number, k: Kind, idx: string, atomic = false): string {
  switch (k) {
    case 'f32':
    case 'i32':
      return `b${i}[${idx}]`;
    case 'u8':
    case 'bool': {
      const word = atomic ? `atomicLoad(&b${i}[(${idx}) >> 2u])` : `b${i}[(${idx}) >> 2u]`;
      return `((${word} >> (((${idx}) & 3u) * 8u)) & 255u)`;
    }
    case 'i64':
      return `bitcast<i32>(b${i}[2u * (${idx})])`;
    case 'u16': {
      const word = atomic ? `atomicLoad(&b${i}[(${idx}) >> 1u])` : `b${i}[(${idx}) >> 1u]`;
      return `((${word} >> (((${idx}) & 1u) * 16u)) & 65535u)`;
    }
  }
}

/** A WGSL expression loading an int64 element as f32 (for casts to float). */
export function loadInt64AsF32(i: number, idx: string): string {
  const lo = `b${i}[2u * (${idx})]`;
  const hi = `bitcast<i32>(b${i}[2u * (${idx}) + 1u])`;
  // Exact (one rounding) when the value fits in an i32, which is what int64 data mostly is.
  return `select(f32(${hi}) * 4294967296.0 + f32(${lo}), f32(bitcast<i32>(${lo})), ${hi} == (bitcast<i32>(${lo}) >> 31u))`;
}

/** WGSL statements storing `v` (of `valueType(k)`) at element `idx` of operand `i`. */
export function storeStmt(i: number, k: Kind, idx: string, v: string, hi64?: string): string {
  switch (k) {
    case 'f32':
    case 'i32':
      return `b${i}[${idx}] = ${v};`;
    case 'u8':
    case 'bool':
      return (
        `{ let w = (${idx}) >> 2u; let sh = ((${idx}) & 3u) * 8u; ` +
        `atomicAnd(&b${i}[w], ~(255u << sh)); atomicOr(&b${i}[w], ((${v}) & 255u) << sh); }`
      );
    case 'u16':
      return (
        `{ let w = (${idx}) >> 1u; let sh = ((${idx}) & 1u) * 16u; ` +
        `atomicAnd(&b${i}[w], ~(65535u << sh)); atomicOr(&b${i}[w], ((${v}) & 65535u) << sh); }`
      );
    case 'i64':
      return `{ let v64 = ${v}; b${i}[2u * (${idx})] = bitcast<u32>(v64); b${i}[2u * (${idx}) + 1u] = bitcast<u32>(${hi64 ?? 'v64 >> 31u'}); }`;
  }
}

/** Converts a value of kind `from` (as loaded) to the value type of kind `to`, as `to_copy` does. */
export function convertExpr(v: string, from: Kind, to: Kind): string {
  if (from === to) return v;
  if (from === 'u16' || to === 'u16') throw new Error('convertExpr: u16 is a raw-copy kind only');
  const src = from === 'i64' ? 'i32' : from;
  switch (to) {
    case 'f32':
      return src === 'f32' ? v : `f32(${v})`;
    case 'i32':
    case 'i64':
      // float -> int truncates toward zero (C's cast, as PyTorch's kernels do).
      return src === 'i32' ? v : src === 'f32' ? `i32(trunc(${v}))` : `i32(${v})`;
    case 'u8':
      return src === 'f32' ? `(bitcast<u32>(i32(trunc(${v}))) & 255u)` : src === 'i32' ? `(bitcast<u32>(${v}) & 255u)` : v;
    case 'bool':
      return src === 'f32' ? `select(0u, 1u, nz_f(${v}))` : src === 'i32' ? `select(0u, 1u, ${v} != 0)` : `select(0u, 1u, ${v} != 0u)`;
  }
}
