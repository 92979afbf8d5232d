import { f32ToBf16Bits, f32ToF16Bits, type DType, type TensorImpl } from '@torch-ts/core';
import { itemWidth, raw1, raw2, raw4 } from '../loops/arrays';
import { bigintWords, storeF64AsInt64, wordsToF32 } from '../loops/int64-words';
import { forEachRowOf } from '../loops/iterate';
import { wasm } from '../wasm/kernels';
import { addressOf } from '../wasm/operands';

const TWO_63 = 9223372036854775808;

/**
 * `fill(dst, value)` stores `value` converted by Note [Casting rules of copy], reading the
 * JS scalar as PyTorch reads a Python one (Note [Integer-valued numbers are integers]): a
 * boolean is a bool, a bigint and an integer-valued number below 2^63 are int64 (so they
 * wrap into narrower integers: 300 -> int8 44, as `int8_tensor + 300` does), anything else
 * (fractions, NaN, ±inf, and -0, which no integer is) is a float64 (so 2.7 -> int32 2, NaN
 * -> int32 INT32_MIN, and -0 stays -0 in a float tensor).
 * PyTorch's `fill_` itself refuses values that overflow the dtype before its kernel runs;
 * that check is the caller's (core's), because core also fills wrapped scalars, which wrap.
 */
export function fill(dst: TensorImpl, value: number | bigint | boolean): void {
  if (dst.numel === 0) return;
  const [lo, hi] = encode(dst.dtype, value);
  const width = itemWidth(dst);
  if (dst.isContiguous) {
    const at = wasm === null ? -1 : addressOf(dst);
    if (at >= 0) {
      if (width === 1) wasm!.fill8(at, lo, dst.numel);
      else if (width === 2) wasm!.fill16(at, lo, dst.numel);
      else if (width === 4) wasm!.fill32(at, lo, dst.numel);
      else wasm!.fill64(at, lo, hi, dst.numel);
      return;
    }
    const start = dst.storageOffset;
    const end = start + dst.numel;
    if (width === 1) raw1(dst).fill(lo, start, end);
    else if (width === 2) raw2(dst).fill(lo, start, end);
    else if (width === 4) raw4(dst).fill(lo, start, end);
    else fill8(dst.numel, raw4(dst), start, 1, lo, hi);
    return;
  }
  if (width === 1) {
    const a = raw1(dst);
    forEachRowOf([dst], (n, b, s) => fill1(n, a, b[0], s[0], lo));
  } else if (width === 2) {
    const a = raw2(dst);
    forEachRowOf([dst], (n, b, s) => fill2(n, a, b[0], s[0], lo));
  } else if (width === 4) {
    const a = raw4(dst);
    forEachRowOf([dst], (n, b, s) => fill4(n, a, b[0], s[0], lo));
  } else {
    const a = raw4(dst);
    forEachRowOf([dst], (n, b, s) => fill8(n, a, b[0], s[0], lo, hi));
  }
}

function fill1(n: number, a: Uint8Array, off: number, stride: number, v: number): void {
  for (let i = 0; i < n; i++, off += stride) a[off] = v;
}

function fill2(n: number, a: Uint16Array, off: number, stride: number, v: number): void {
  for (let i = 0; i < n; i++, off += stride) a[off] = v;
}

function fill4(n: number, a: Int32Array, off: number, stride: number, v: number): void {
  for (let i = 0; i < n; i++, off += stride) a[off] = v;
}

function fill8(n: number, w: Int32Array, off: number, stride: number, lo: number, hi: number): void {
  for (let i = 0, j = 2 * off; i < n; i++, j += 2 * stride) {
    w[j] = lo;
    w[j + 1] = hi;
  }
}

const bits = new Int32Array(2);
const bitsF32 = new Float32Array(bits.buffer, 0, 1);
const bitsF64 = new Float64Array(bits.buffer);

/** The raw element for `value` in `dtype`: its bits as (low word, high word); narrower types use `lo`. */
function encode(dtype: DType, value: number | bigint | boolean): [lo: number, hi: number] {
  let int: bigint | null = null;
  let float = 0;
  if (typeof value === 'boolean') int = value ? 1n : 0n;
  else if (typeof value === 'bigint') int = BigInt.asIntN(64, value);
  else if (Number.isInteger(value) && Math.abs(value) < TWO_63 && !Object.is(value, -0)) int = BigInt(value);
  else float = value;

  if (int !== null) {
    const [lo, hi] = bigintWords(int);
    switch (dtype) {
      case 'int64':
        return [lo, hi];
      case 'bool':
        return [int !== 0n ? 1 : 0, 0];
      case 'float64':
        bitsF64[0] = Number(int);
        return [bits[0], bits[1]];
      case 'float32':
        bitsF32[0] = wordsToF32(lo, hi);
        return [bits[0], 0];
      case 'float16':
        return [f32ToF16Bits(wordsToF32(lo, hi)), 0];
      case 'bfloat16':
        return [f32ToBf16Bits(wordsToF32(lo, hi)), 0];
      default:
        return [lo, 0]; // the low word, wrapped again by the 1-, 2- or 4-byte store
    }
  }
  switch (dtype) {
    case 'int64':
      storeF64AsInt64(bits, 0, float);
      return [bits[0], bits[1]];
    case 'bool':
      return [float !== 0 ? 1 : 0, 0];
    case 'float64':
      bitsF64[0] = float;
      return [bits[0], bits[1]];
    case 'float32':
      bitsF32[0] = float;
      return [bits[0], 0];
    case 'float16':
      return [f32ToF16Bits(float), 0];
    case 'bfloat16':
      return [f32ToBf16Bits(float), 0];
    case 'uint8':
      // through int64, as copy: NaN, ±inf and |x| >= 2^63 give 0; else truncate and wrap
      return [float >= -TWO_63 && float < TWO_63 ? Math.trunc(float) % 256 : 0, 0];
    default:
      // int8 / int16 / int32 through int32: NaN, ±inf and out of range give INT32_MIN
      return [float > -2147483649 && float < 2147483648 ? Math.trunc(float) : -2147483648, 0];
  }
}
