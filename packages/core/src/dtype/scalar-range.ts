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

/**
 * Note [Checked scalar arguments]
 * A scalar *argument* of an op (add's `alpha`, the value of `fill_` / `full`) is converted to
 * the op's dtype with c10's checked conversion, which refuses values the type cannot hold:
 * floats beyond the type's finite range (infinities and NaN pass), integers outside its range
 * (uint8 also takes -255..-1); a float headed for an integer type truncates. A scalar *operand* (`x + 300`)
 * is not checked: it becomes a wrapped-number tensor and is cast, wrapping as casts do.
 */
export function checkScalarFits(op: string, value: number | bigint | boolean, dtype: DType): void {
  if (typeof value === 'boolean' || dtype === 'bool') return;
  if (dtype === 'int64') {
    // A float converts by truncation; only the range is checked (NaN passes, as in c10).
    if (typeof value === 'bigint' ? BigInt.asIntN(64, value) !== value : Math.abs(value) >= 2 ** 63) throw overflow(op, dtype);
    return;
  }
  const x = typeof value === 'bigint' ? Number(value) : value;
  const range = INT_RANGE[dtype];
  if (range !== undefined) {
    if (!(x >= range[0] && x <= range[1])) throw overflow(op, dtype);
    return;
  }
  const max = FLOAT_MAX[dtype];
  if (max !== undefined && Number.isFinite(x) && Math.abs(x) > max) throw overflow(op, dtype);
}

// A function of its own, not a closure made on every call: every add checks its alpha.
function overflow(op: string, dtype: DType): TorchError {
  return new TorchError(`${op}: value cannot be converted to type ${CPP_NAMES[dtype]} without overflow`);
}
