import { TorchError } from '../errors';
import type { DType } from './scalar-type';

/** The C++ type names PyTorch's "cannot be converted" message uses. */
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
  complex64: 'c10::complex<float>',
  complex128: 'c10::complex<double>',
};

const FLOAT_MAX: Partial<Record<DType, number>> = {
  float32: 3.4028234663852886e38,
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
};

const INT_RANGE: Partial<Record<DType, readonly [number, number]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Note [Checked scalar arguments]
 * A scalar *argument* of an op (add's `alpha`, the value of `fill_` / `full`) is converted to
 * the op's dtype with c10's `checked_convert` (c10/util/TypeCast.h, `overflows`), which
 * refuses values the type cannot hold, and so do the values of `tensor(data, { dtype })`
 * (Note [Checked tensor data]). As c10 sees them:
 *  - an integer (an integer-valued JS number, or a bigint) must fit an integer type's range,
 *    except that an unsigned type also takes negatives down to -max, which wrap ("a - b is
 *    a + 255 * b"); for a float type it must be within the finite range;
 *  - a non-integer number headed for an integer type must be finite and within the range
 *    (it truncates); NaN and infinities are refused (an integer type has neither), and for
 *    uint8 so is anything below 0;
 *  - for a float type, NaN and infinities pass and finite values beyond the largest finite
 *    one are refused;
 *  - anything converts to bool (c10's bool conversion is truthiness).
 * A scalar *operand* (`x + 300`) is not checked: it becomes a wrapped-number tensor and is
 * cast, wrapping as casts do.
 */
export function scalarFits(value: number | bigint | boolean, dtype: DType): boolean {
  if (typeof value === 'boolean' || dtype === 'bool') return true;
  if (typeof value === 'bigint' || Number.isInteger(value)) {
    if (dtype === 'int64') return typeof value === 'bigint' ? value >= INT64_MIN && value <= INT64_MAX : value >= -(2 ** 63) && value < 2 ** 63;
    const x = Number(value);
    const range = INT_RANGE[dtype];
    if (range !== undefined) return x <= range[1] && x >= (dtype === 'uint8' ? -range[1] : range[0]);
    const max = FLOAT_MAX[dtype];
    return max === undefined || Math.abs(x) <= max;
  }
  const x = value;
  if (dtype === 'int64') return x >= -(2 ** 63) && x < 2 ** 63; // false for NaN
  const range = INT_RANGE[dtype];
  if (range !== undefined) return x >= range[0] && x <= range[1]; // false for NaN
  const max = FLOAT_MAX[dtype];
  return max === undefined || !Number.isFinite(x) || Math.abs(x) <= max;
}

/** Refuses a scalar argument of `op` that `dtype` cannot hold, with c10's message. */
export function checkScalarFits(op: string, value: number | bigint | boolean, dtype: DType): void {
  if (!scalarFits(value, dtype)) throw overflow(op, CPP_NAMES[dtype]);
}

/**
 * Note [Checked tensor data]
 * `tensor(data, { dtype })` stores each value as PyTorch's `store_scalar`
 * (torch/csrc/utils/python_scalars.h) does: into an integer dtype through `checked_convert`,
 * so `tensor([300], { dtype: 'uint8' })` and `tensor([NaN], { dtype: 'int64' })` raise "value
 * cannot be converted to type uint8 without overflow"; into a float dtype by a plain cast
 * (1e39 becomes Infinity in float32); into bool by truthiness. This follows PyTorch 2.x on
 * Python 3.10 and later: on older Pythons PyTorch cast integers without a check (300 became
 * 44), which is the wrap this replaces. The message names the dtype as PyTorch's does here
 * (`uint8`, not c10's `uint8_t`).
 */
export function checkTensorValue(op: string, value: number | bigint | boolean, dtype: DType): void {
  if (dtype !== 'int64' && INT_RANGE[dtype] === undefined) return; // float and bool: a cast
  if (!scalarFits(value, dtype)) throw overflow(op, dtype);
}

// A function of its own, not a closure made on every call: every add checks its alpha.
function overflow(op: string, typeName: string): TorchError {
  return new TorchError(`${op}: value cannot be converted to type ${typeName} without overflow`);
}
