import { TorchError, f32ToBf16Bits, f32ToF16Bits, bf16BitsToNumber, f16BitsToNumber, type DType } from '@torch-ts/core';

/** The C++ names PyTorch's "cannot be converted" message uses. */
const CPP_NAMES: Record<DType, string> = {
  float32: 'float',
  float64: 'double',
  float16: 'at::Half',
  bfloat16: 'at::BFloat16',
  int8: 'int8_t',
  uint8: 'uint8_t',
  int16: 'int16_t',
  int32: 'int',
  int64: 'int64_t',
  bool: 'bool',
};

const FLOAT_MAX: Partial<Record<DType, number>> = {
  float32: 3.4028234663852886e38,
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
};

const INT_RANGE: Partial<Record<DType, readonly [number, number]>> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  // c10 lets a negative int wrap into an unsigned type ("a - b is a + 255 * b").
  uint8: [-255, 255],
};

function overflow(op: string, dtype: DType): TorchError {
  return new TorchError(`${op}: value cannot be converted to type ${CPP_NAMES[dtype]} without overflow`);
}

/**
 * A scalar argument of a kernel (add's alpha) converted to the compute dtype with c10's
 * checked `Scalar::to<T>()`, which is where PyTorch's kernel raises "value cannot be
 * converted to type int8_t without overflow": floats may not exceed the type's finite range
 * (infinities and NaN pass), integers must fit (uint8 also takes -255..-1), bool is `!= 0`.
 * The result is the value the kernel multiplies by: rounded to float32 or to the 16-bit
 * float for those dtypes, a bigint for int64.
 */
export function checkedScalar(op: string, value: number | bigint | boolean, dtype: DType): number | bigint {
  if (typeof value === 'boolean') value = value ? 1 : 0;
  if (dtype === 'bool') return value !== 0 && value !== 0n ? 1 : 0;
  if (dtype === 'int64') {
    const v = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : null;
    if (v === null || BigInt.asIntN(64, v) !== v) throw overflow(op, dtype);
    return v;
  }
  const x = typeof value === 'bigint' ? Number(value) : value;
  const range = INT_RANGE[dtype];
  if (range !== undefined) {
    if (!(x >= range[0] && x <= range[1])) throw overflow(op, dtype);
    return Math.trunc(x);
  }
  const max = FLOAT_MAX[dtype];
  if (max !== undefined && Number.isFinite(x) && Math.abs(x) > max) throw overflow(op, dtype);
  if (dtype === 'float32') return Math.fround(x);
  if (dtype === 'float16') return f16BitsToNumber(f32ToF16Bits(x));
  if (dtype === 'bfloat16') return bf16BitsToNumber(f32ToBf16Bits(x));
  return x;
}
