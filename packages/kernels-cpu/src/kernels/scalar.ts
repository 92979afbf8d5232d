import { checkScalarFits, f32ToBf16Bits, f32ToF16Bits, bf16BitsToNumber, f16BitsToNumber, type DType } from '@torch-ts/core';

/**
 * A scalar argument of a kernel (add's alpha) converted to the compute dtype with c10's
 * checked `Scalar::to<T>()`, which is where PyTorch's kernel raises "value cannot be
 * converted to type int8_t without overflow": floats may not exceed the type's finite range
 * (infinities and NaN pass), integers must fit (uint8 also takes -255..-1), bool is `!= 0`.
 * The result is the value the kernel multiplies by: rounded to float32 or to the 16-bit
 * float for those dtypes, a bigint for int64.
 */
export function checkedScalar(op: string, value: number | bigint | boolean, dtype: DType): number | bigint {
  // Core's meta has already refused values the dtype cannot hold (Note [Checked scalar
  // arguments]); checking again here keeps a direct caller of the impl safe.
  checkScalarFits(op, value, dtype);
  if (typeof value === 'boolean') value = value ? 1 : 0;
  if (dtype === 'bool') return value !== 0 && value !== 0n ? 1 : 0;
  if (dtype === 'int64') return typeof value === 'bigint' ? value : BigInt(value);
  const x = typeof value === 'bigint' ? Number(value) : value;
  if (dtype === 'int8' || dtype === 'int16' || dtype === 'int32' || dtype === 'uint8') return Math.trunc(x);
  if (dtype === 'float32') return Math.fround(x);
  if (dtype === 'float16') return f16BitsToNumber(f32ToF16Bits(x));
  if (dtype === 'bfloat16') return bf16BitsToNumber(f32ToBf16Bits(x));
  return x;
}
