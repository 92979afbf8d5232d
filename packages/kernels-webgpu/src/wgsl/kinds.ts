import { DTypeError, type DType } from '@torch-ts/core';

/**
 * Note [WebGPU dtypes]
 * How each dtype lives in a storage buffer and what WGSL type its values have in a kernel:
 *   float32  array<f32>            values f32
 *   int32    array<i32>            values i32
 *   uint8    4 per u32 word        values u32 in [0, 255]
 *   bool     4 per u32 word        values u32, 0 or 1
 *   int8     4 per u32 word        values i32 in [-128, 127]        (Note [int8 and int16 on
 *   int16    2 per u32 word        values i32 in [-32768, 32767]     WebGPU])
 *   int64    2 u32 words (lo, hi)  values vec2<u32> in the kernels that emulate int64 (Note
 *                                  [int64 on WebGPU]: pointwise arithmetic, comparisons,
 *                                  casts); kernels that only index read the low word as i32
 *                                  (`loadExpr`); others raise a DTypeError
 *   float16  2 per u32 word        values f32 (Note [float16 on WebGPU]), in the kernels that
 *   bfloat16                       opt in (`kindOf(op, dtype, _, true)`, bfloat16 too with
 *                                  `'bf16'`); others raise a DTypeError
 *   (any)    same-dtype copies move raw bits by element size (u8, u16, i32, i64 words), so
 *            clone/contiguous and views work for every dtype
 * Byte-sized elements are written with atomicAnd/atomicOr on their word, so neighbouring
 * elements written by other invocations (or belonging to other tensors of the same block)
 * are never clobbered. float64 has no WGSL type: every kernel raises a DTypeError naming
 * the op. Storage of any dtype can still be uploaded to and read back from the device
 * (bytes are bytes).
 *
 * Note [int8 and int16 on WebGPU]
 * WGSL has no 8- or 16-bit integers; int8 and int16 are emulated in 32-bit lanes, as int64
 * is in two (Note [int64 on WebGPU]), but more simply: an element is a signed byte or half
 * of a u32 word, sign-extended to an i32 on load (`bitcast<i32>(word << s) >> 24u`) and
 * truncated to its low 8 or 16 bits on store (atomicAnd/atomicOr on the word, as uint8's).
 * Everything in between is the int32 kernel: the kinds 'i8' and 'i16' have i32 values and
 * take the `i` rows of the pointwise table, the int32 accumulators of the reductions and
 * scans, the int32 keys of the sorts. That is exact: every int8/int16 value is an int32, and
 * the operations PyTorch's CPU does on them in int32 or int64 and narrows on store (add,
 * sub, mul wrap modulo 2^8 / 2^16, division and remainder of sign-extended values, bitwise
 * ops, comparisons) give the same low bits when done in int32 and narrowed once. Where the
 * result is wider (`sum` and `cumsum` of int8 give int64), core casts the input to the result
 * dtype first, so those run in the int64 kernels, exactly; a reduction kept in int8/int16
 * (`sum(x, 0, { dtype: 'int8' })`, amax) accumulates in i32 and wraps once on store, which
 * is the same value.

/**
 * Note [float16 on WebGPU]
 * float16 is emulated on every adapter (SwiftShader lacks 'shader-f16', and WGSL's f16 would
 * not round as PyTorch's CPU does anyway), exactly as PyTorch computes float16 on CPU:
 *   - storage: 16-bit halves, 2 per u32 word (element i in bits 16 * (i & 1) of word i >> 1),
 *     written with atomicAnd/atomicOr as the byte kinds are;
 *   - load: the half is widened to f32 exactly in integer code (`f16_to_f32`: subnormals,
 *     ±0, ±inf and NaN payloads as c10's fp16_ieee_to_fp32_value);
 *   - compute: in f32 (PyTorch's opmath type for half), with the float32 expressions;
 *   - store: the f32 rounded to half once, round-to-nearest-even in integer code (`f32_to_f16`:
 *     65520 and above overflow to inf, gradual underflow to subnormals, NaN -> 0x7e00 | sign,
 *     as c10's fp16_ieee_from_fp32_value and core's f32BitsToF16Bits). WGSL's pack2x16float
 *     is not used: its rounding is implementation-defined.
 * So a pointwise op in float16 is the float32 expression on the widened inputs, rounded on
 * store; reductions and matmul accumulate in f32 and round once. The value type of the kind
 * is f32 (`valueType`), so only kernels that opt in (`kindOf`'s `allowF16`), having checked
 * that they treat 'f16' as the float it is (`isFloatKind`, not `k === 'f32'` tests), get it.
 * bfloat16 ('bf16') is the same scheme, as PyTorch's CPU computes it too (opmath float32):
 * a bfloat16 is the top half of a float32, so widening is a shift, and narrowing
 * (`f32_to_bf16`) rounds to nearest even, NaN -> 0x7fc0 (c10's, and core's f32BitsToBf16Bits).
 * A kernel opts in to it separately (`allowF16 = 'bf16'`: float16 and bfloat16), having
 * checked that it treats 'bf16' as it treats 'f16' (`isHalfKind`).
 */
export type Kind = 'f32' | 'i32' | 'u8' | 'bool' | 'i64' | 'u16' | 'f16' | 'bf16' | 'i8' | 'i16';

const KIND: Partial<Record<DType, Kind>> = {
  float32: 'f32',
  int32: 'i32',
  uint8: 'u8',
  bool: 'bool',
  int64: 'i64',
  float16: 'f16',
  bfloat16: 'bf16',
  int8: 'i8',
  int16: 'i16',
};

/** An int32-valued kind: int32, or int8/int16 in 32-bit lanes (Note [int8 and int16 on WebGPU]). */
export function isI32Kind(k: Kind): k is 'i32' | 'i8' | 'i16' {
  return k === 'i32' || k === 'i8' || k === 'i16';
}

/** A narrow int kind, packed in words (Note [int8 and int16 on WebGPU]). */
export function isNarrowIntKind(k: Kind): k is 'i8' | 'i16' {
  return k === 'i8' || k === 'i16';
}

/** A 16-bit float kind (Note [float16 on WebGPU]): values f32, stored as halves. */
export function isHalfKind(k: Kind): k is 'f16' | 'bf16' {
  return k === 'f16' || k === 'bf16';
}

/** A floating kind: f32 values in kernels (float32, float16, bfloat16). */
export function isFloatKind(k: Kind): boolean {
  return k === 'f32' || k === 'f16' || k === 'bf16';
}

/**
 * The storage kind of a dtype for compute kernels (int64 excluded unless `allowInt64`, float16
 * unless `allowF16`, bfloat16 unless `allowF16` is 'bf16': Note [float16 on WebGPU]).
 */
export function kindOf(op: string, dtype: DType, allowInt64 = false, allowF16: boolean | 'bf16' = false): Kind {
  const k = KIND[dtype];
  if (!k || (k === 'i64' && !allowInt64) || (k === 'f16' && !allowF16) || (k === 'bf16' && allowF16 !== 'bf16')) {
    throw new DTypeError(`${op}: "${op}" not implemented for '${dtype}' on webgpu (${whyNot(dtype)}; supported: float32, int32, uint8, bool, int8, int16, and int64, float16 and bfloat16 emulated where the op has kernels for them)`);
  }
  return k;
}

/** Why a dtype has no kernel (the DTypeError's reason; Note [WebGPU dtypes]). */
export function whyNot(dtype: DType): string {
  switch (dtype) {
    case 'float64':
      return 'WebGPU has no 64-bit floats';
    case 'int64':
      return 'int64 is emulated on WebGPU only for copies, casts, pointwise arithmetic, comparisons and index results, not for this op';
    case 'float16':
    case 'bfloat16':
      return `${dtype} is emulated on WebGPU (16-bit storage, float32 compute) only for copies, casts, fill, pointwise ops, reductions and matmul, not for this op`;
    default:
      return `${dtype} is not one of WebGPU's dtypes (float32, int32, uint8, bool, int8, int16; int64, float16 and bfloat16 emulated)`;
  }
}

/** The WGSL type of a value of this kind inside a kernel. */
export function valueType(k: Kind): string {
  return isFloatKind(k) ? 'f32' : isI32Kind(k) || k === 'i64' ? 'i32' : 'u32';
}

/** The binding declaration of operand `i`. Outputs of byte kinds are atomic words. */
export function bindingDecl(i: number, k: Kind, output: boolean, vec4: boolean): string {
  let elem: string;
  if (k === 'f32') elem = vec4 ? 'vec4<f32>' : 'f32';
  else if (k === 'i32') elem = vec4 ? 'vec4<i32>' : 'i32';
  else if ((k === 'u8' || k === 'bool' || k === 'u16' || isHalfKind(k) || isNarrowIntKind(k)) && output) elem = 'atomic<u32>';
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
    case 'i8': {
      const word = atomic ? `atomicLoad(&b${i}[(${idx}) >> 2u])` : `b${i}[(${idx}) >> 2u]`;
      return `(bitcast<i32>(${word} << (24u - ((${idx}) & 3u) * 8u)) >> 24u)`;
    }
    case 'i16': {
      const word = atomic ? `atomicLoad(&b${i}[(${idx}) >> 1u])` : `b${i}[(${idx}) >> 1u]`;
      return `(bitcast<i32>(${word} << (16u - ((${idx}) & 1u) * 16u)) >> 16u)`;
    }
    case 'u16': {
      const word = atomic ? `atomicLoad(&b${i}[(${idx}) >> 1u])` : `b${i}[(${idx}) >> 1u]`;
      return `((${word} >> (((${idx}) & 1u) * 16u)) & 65535u)`;
    }
    case 'f16': {
      const word = atomic ? `atomicLoad(&b${i}[(${idx}) >> 1u])` : `b${i}[(${idx}) >> 1u]`;
      return `f16_to_f32(${word} >> (((${idx}) & 1u) * 16u))`;
    }
    case 'bf16': {
      const word = atomic ? `atomicLoad(&b${i}[(${idx}) >> 1u])` : `b${i}[(${idx}) >> 1u]`;
      return `bitcast<f32>((${word} >> (((${idx}) & 1u) * 16u)) << 16u)`;
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
    case 'i8':
      return (
        `{ let w = (${idx}) >> 2u; let sh = ((${idx}) & 3u) * 8u; ` +
        `atomicAnd(&b${i}[w], ~(255u << sh)); atomicOr(&b${i}[w], (bitcast<u32>(${v}) & 255u) << sh); }`
      );
    case 'i16':
      return (
        `{ let w = (${idx}) >> 1u; let sh = ((${idx}) & 1u) * 16u; ` +
        `atomicAnd(&b${i}[w], ~(65535u << sh)); atomicOr(&b${i}[w], (bitcast<u32>(${v}) & 65535u) << sh); }`
      );
    case 'f16':
      return (
        `{ let w = (${idx}) >> 1u; let sh = ((${idx}) & 1u) * 16u; ` +
        `atomicAnd(&b${i}[w], ~(65535u << sh)); atomicOr(&b${i}[w], f32_to_f16(${v}) << sh); }`
      );
    case 'bf16':
      return (
        `{ let w = (${idx}) >> 1u; let sh = ((${idx}) & 1u) * 16u; ` +
        `atomicAnd(&b${i}[w], ~(65535u << sh)); atomicOr(&b${i}[w], f32_to_bf16(${v}) << sh); }`
      );
    case 'i64':
      return `{ let v64 = ${v}; b${i}[2u * (${idx})] = bitcast<u32>(v64); b${i}[2u * (${idx}) + 1u] = bitcast<u32>(${hi64 ?? 'v64 >> 31u'}); }`;
  }
}

/** Converts a value of kind `from` (as loaded) to the value type of kind `to`, as `to_copy` does. */
export function convertExpr(v: string, from: Kind, to: Kind): string {
  if (from === to) return v;
  if (from === 'u16' || to === 'u16') throw new Error('convertExpr: u16 is a raw-copy kind only');
  // float16 values are f32 in kernels (Note [float16 on WebGPU]): a cast to it is the cast to
  // float32 (int32 -> float16 rounds twice, to float32 and then on store, as c10::Half(float(x))).
  if (isHalfKind(to)) return convertExpr(v, from, 'f32');
  // int8/int16 values are i32 (Note [int8 and int16 on WebGPU]): a cast to them is the cast to
  // int32, narrowed on store (float -> int8 truncates through int32, as CPU's copy does)
  if (isNarrowIntKind(to)) return convertExpr(v, from, 'i32');
  const src = from === 'i64' || isNarrowIntKind(from) ? 'i32' : isHalfKind(from) ? 'f32' : from;
  switch (to) {
    case 'f32':
      return src === 'f32' ? v : `f32(${v})`;
    case 'i32':
    case 'i64':
      // float -> int truncates toward zero (C's cast, as PyTorch's kernels do); NaN, ±inf and
      // values outside int32 give INT32_MIN, x86's "integer indefinite", as on CPU (WGSL's
      // i32() would saturate).
      return src === 'i32' ? v : src === 'f32' ? `select(bitcast<i32>(0x80000000u), i32(trunc(${v})), abs(${v}) < 2147483648.0)` : `i32(${v})`;
    case 'u8':
      // float -> uint8 goes through int64 on CPU: the low byte of the truncated value. A float32
      // of magnitude >= 2^31 is a multiple of 256 (low byte 0), and NaN and ±inf give 0 too.
      return src === 'f32'
        ? `select(0u, bitcast<u32>(i32(trunc(${v}))) & 255u, abs(${v}) < 2147483648.0)`
        : src === 'i32'
          ? `(bitcast<u32>(${v}) & 255u)`
          : v;
    case 'bool':
      return src === 'f32' ? `select(0u, 1u, nz_f(${v}))` : src === 'i32' ? `select(0u, 1u, ${v} != 0)` : `select(0u, 1u, ${v} != 0u)`;
  }
}

/** A WGSL expression loading int64 element `idx` of operand `i` as a vec2<u32> (lo, hi; Note [int64 on WebGPU]). */
export function loadInt64Expr(i: number, idx: string): string {
  return `vec2<u32>(b${i}[2u * (${idx})], b${i}[2u * (${idx}) + 1u])`;
}

/** WGSL statements storing the vec2<u32> int64 value `v` at element `idx` of operand `i`. */
export function storeInt64Stmt(i: number, idx: string, v: string): string {
  return `{ let v64 = ${v}; b${i}[2u * (${idx})] = v64.x; b${i}[2u * (${idx}) + 1u] = v64.y; }`;
}

/**
 * `convertExpr` where int64 values are vec2<u32> (kernels with `PointwiseExpr.int64`); the
 * f32 casts call INT64_CAST_HELPERS (wgsl/int64.ts), which the kernel must include.
 */
export function convertExpr64(v: string, from: Kind, to: Kind): string {
  if (from === to) return v;
  if (from === 'i64') {
    switch (to) {
      case 'f32':
      case 'f16':
      case 'bf16':
        return `i64_to_f32(${v})`;
      case 'i32':
      case 'i8':
      case 'i16':
        return `bitcast<i32>((${v}).x)`;
      case 'u8':
        return `((${v}).x & 255u)`;
      case 'bool':
        return `select(0u, 1u, i64_nz(${v}))`;
    }
  }
  if (to === 'i64') {
    switch (from) {
      case 'f32':
      case 'f16':
      case 'bf16':
        return `f32_to_i64(${v})`;
      case 'i32':
      case 'i8':
      case 'i16':
        return `i64_of_i32(${v})`;
      case 'u8':
      case 'bool':
        return `vec2<u32>(${v}, 0u)`;
    }
  }
  return convertExpr(v, from, to);
}
