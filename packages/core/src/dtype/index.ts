export {
  DTYPES,
  REAL_DTYPES,
  categoryRank,
  isComplexType,
  isDifferentiableType,
  toComplexType,
  toRealValueType,
  getDefaultDtype,
  isDType,
  isFloatingType,
  isIntegralType,
  parseDType,
  scalarDType,
  setDefaultDtype,
  typeMeta,
} from './scalar-type';
export type {
  AnyTypedArray,
  DType,
  DTypeCategory,
  DTypeLike,
  RealDType,
  TypeMeta,
  TypedArrayConstructorOf,
  TypedArrayOf,
} from './scalar-type';
export {
  bf16BitsToNumber,
  f16BitsToNumber,
  f32BitsToBf16Bits,
  f32BitsToF16Bits,
  f32ToBf16Bits,
  f32ToF16Bits,
  f64ToBf16Bits,
  f64ToF16Bits,
} from './half';
export { canCast, checkCanCast, promoteTypes, resultType } from './promotion';
export type { Operand } from './promotion';
export { checkScalarFits, checkTensorValue, scalarFits } from './scalar-range';
export { finfo, iinfo, floatMax, type FInfo, type IInfo } from './finfo';
