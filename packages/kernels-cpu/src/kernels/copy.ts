import { isFloatingType, type DType, type TensorImpl } from '@torch-ts/core';
import { bytes, itemWidth } from '../loops/arrays';
import { readerOf, writerOf, type Int64ReadMode } from '../loops/convert';
import { forEachRowOf } from '../loops/iterate';
import { CHUNK } from '../loops/pointwise';
import { rawMoveRow } from '../loops/raw';
import { copyWasm } from './copy-wasm';

/**
 * Note [Casting rules of copy]
 * `copy(dst, src)` converts every element as PyTorch 1.13 on x86-64 does (checked against
 * torch for every pair of dtypes in test/copy.test.ts):
 *  - float -> int8/int16/int32: truncate toward zero; NaN, ±inf and anything outside int32
 *    become INT32_MIN (`cvttss2si`'s "integer indefinite"), and the narrow types keep its low
 *    bits, so they get 0. In range, the narrow types wrap (300.7 -> int8 44).
 *  - float -> uint8: through int64 (`cvttsd2si` 64-bit): truncate, wrap modulo 256; NaN,
 *    ±inf and |x| >= 2^63 give INT64_MIN's low byte, 0. (float64 -5000000007 -> 249.)
 *  - float -> int64: truncate; NaN, ±inf and outside [-2^63, 2^63) give INT64_MIN.
 *  - int -> narrower int: wrap (modulo 2^width); int64 <-> anything is exact where the value
 *    fits, int64 -> float32 rounds once from the 64-bit value (int64-words.ts).
 *  - -> bool: `x != 0`, so NaN is true; bool -> number: 0 or 1.
 *  - float64 -> float32 rounds to nearest even; -> float16 / bfloat16 rounds to float32
 *    first, as c10 does (Note [Float64 to 16-bit floats rounds twice]); int -> float16 /
 *    bfloat16 likewise goes through float32.
 * Copies within one dtype move raw bits (NaN payloads survive) and skip all of this.
 */
export function copy(dst: TensorImpl, src: TensorImpl): void {
  if (dst.numel === 0) return;
  if (copyWasm(dst, src)) return;
  if (dst.dtype === src.dtype) {
    copySameDtype(dst, src);
    return;
  }
  const read = readerOf(src, int64ReadMode(dst.dtype));
  const write = writerOf(dst);
  const clamp = floatToIntClamp(src.dtype, dst.dtype);
  const scratch = copyScratch;
  forEachRowOf([dst, src], (n, base, st) => {
    for (let s = 0; s < n; s += CHUNK) {
      const m = n - s < CHUNK ? n - s : CHUNK;
      read(m, scratch, base[1] + s * st[1], st[1]);
      if (clamp !== null) clamp(m, scratch);
      write(m, scratch, base[0] + s * st[0], st[0]);
    }
  });
}

const copyScratch = new Float64Array(CHUNK);

function copySameDtype(dst: TensorImpl, src: TensorImpl): void {
  const width = itemWidth(dst);
  if (dst.isContiguous && src.isContiguous) {
    const nbytes = dst.numel * width;
    const from = src.storageOffset * width;
    bytes(dst).set(bytes(src).subarray(from, from + nbytes), dst.storageOffset * width);
    return;
  }
  forEachRowOf([dst, src], rawMoveRow(width, dst, src));
}

/** Which int64 reading gives the destination's rounding or wrapping exactly. */
function int64ReadMode(dst: DType): Int64ReadMode {
  switch (dst) {
    case 'float64':
      return 'value';
    case 'float32':
    case 'float16':
    case 'bfloat16':
      return 'float32';
    case 'bool':
      return 'bool';
    default:
      return 'low';
  }
}

const INT32_LO = -2147483649;
const INT32_HI = 2147483648;
const INT64_LIMIT = 9223372036854775808;

/** float -> int8/int16/int32: out-of-int32-range and NaN become INT32_MIN before the wrap. */
function clampThroughInt32(n: number, s: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const x = s[i];
    if (!(x > INT32_LO && x < INT32_HI)) s[i] = -2147483648;
  }
}

/** float -> uint8: out-of-int64-range and NaN become INT64_MIN, whose low byte is 0. */
function clampThroughInt64(n: number, s: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const x = s[i];
    if (!(x >= -INT64_LIMIT && x < INT64_LIMIT)) s[i] = 0;
  }
}

/** The x86 saturation a float -> integer cast needs before the writer's wrap (or null). */
function floatToIntClamp(src: DType, dst: DType): ((n: number, s: Float64Array) => void) | null {
  if (!isFloatingType(src)) return null;
  if (dst === 'int8' || dst === 'int16' || dst === 'int32') return clampThroughInt32;
  if (dst === 'uint8') return clampThroughInt64;
  return null; // int64's writer saturates itself; bool and floats need nothing
}
