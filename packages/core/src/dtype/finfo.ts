import { TorchTypeError } from '../errors';
import { getDefaultDtype, parseDType, toRealValueType, type DType, type DTypeLike } from './scalar-type';

/** `torch.finfo(dtype)`: the machine limits of a floating dtype, as PyTorch gives them. */
export interface FInfo {
  readonly bits: number;
  /** The smallest x with 1 + x != 1. */
  readonly eps: number;
  readonly max: number;
  readonly min: number;
  /** The smallest positive normal number (`smallest_normal`). */
  readonly tiny: number;
  readonly smallestNormal: number;
  /** 10 ** -(decimal digits of precision). */
  readonly resolution: number;
  readonly dtype: DType;
}

/** `torch.iinfo(dtype)`: the limits of an integral dtype (int64's as bigints, which a number cannot hold). */
export interface IInfo {
  readonly bits: number;
  readonly min: number | bigint;
  readonly max: number | bigint;
  readonly dtype: DType;
}

const FINFO: Partial<Record<DType, Omit<FInfo, 'min' | 'smallestNormal' | 'dtype'>>> = {
  float32: { bits: 32, eps: 2 ** -23, max: 3.4028234663852886e38, tiny: 2 ** -126, resolution: 1e-6 },
  float64: { bits: 64, eps: Number.EPSILON, max: Number.MAX_VALUE, tiny: 2 ** -1022, resolution: 1e-15 },
  float16: { bits: 16, eps: 2 ** -10, max: 65504, tiny: 2 ** -14, resolution: 1e-3 },
  bfloat16: { bits: 16, eps: 2 ** -7, max: 3.3895313892515355e38, tiny: 2 ** -126, resolution: 0.01 },
};

const IINFO: Partial<Record<DType, IInfo>> = {
  int8: { bits: 8, min: -128, max: 127, dtype: 'int8' },
  uint8: { bits: 8, min: 0, max: 255, dtype: 'uint8' },
  int16: { bits: 16, min: -32768, max: 32767, dtype: 'int16' },
  int32: { bits: 32, min: -2147483648, max: 2147483647, dtype: 'int32' },
  int64: { bits: 64, min: -(2n ** 63n), max: 2n ** 63n - 1n, dtype: 'int64' },
};

/** The largest finite value of a floating dtype, or undefined for the others (nan_to_num's default posinf). */
export function floatMax(dtype: DType): number | undefined {
  return FINFO[dtype]?.max;
}

/** The limits of a floating dtype (the default dtype when none is given). */
export function finfo(dtype?: DTypeLike): FInfo {
  // (a complex dtype's limits are its parts', as PyTorch gives them)
  const d = toRealValueType(dtype === undefined ? getDefaultDtype() : parseDType('finfo', dtype));
  const f = FINFO[d];
  if (!f) throw new TorchTypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'");
  return { ...f, min: -f.max, smallestNormal: f.tiny, dtype: d };
}

/** The limits of an integral dtype. */
export function iinfo(dtype: DTypeLike): IInfo {
  const d = parseDType('iinfo', dtype);
  const i = IINFO[d];
  if (!i) throw new TorchTypeError(d === 'bool' ? 'torch.bool is not supported by torch.iinfo' : "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'");
  return i;
}
