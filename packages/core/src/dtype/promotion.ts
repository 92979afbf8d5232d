/**
 * Type promotion: which dtype an op computes in, given its operands. Equal to
 * `torch.promote_types`, `torch.result_type` and `torch.can_cast` (checked against
 * PyTorch goldens in packages/testing).
 */
import { DTypeError, TorchError } from '../errors';
import { categoryRank, isComplexType, isDType, isFloatingType, scalarDType, toComplexType, toRealValueType, typeMeta, type DType } from './scalar-type';

/**
 * The smallest dtype both `a` and `b` convert to without changing category, as
 * `torch.promote_types`. Symmetric. bool gives way to anything; a float beats any
 * integer; among floats float16 and bfloat16 meet at float32 (neither holds the
 * other's range or precision); among integers uint8 and int8 meet at int16.
 */
export function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  // a complex dtype with anything: the complex dtype of the promoted parts
  if (isComplexType(a) || isComplexType(b)) return toComplexType(promoteTypes(toRealValueType(a), toRealValueType(b)));
  if (a === 'bool') return b;
  if (b === 'bool') return a;
  const fa = isFloatingType(a);
  const fb = isFloatingType(b);
  if (fa !== fb) return fa ? a : b;
  if (fa) {
    if (a === 'float64' || b === 'float64') return 'float64';
    return 'float32'; // float32 with a 16-bit float, or float16 with bfloat16
  }
  const ma = typeMeta(a);
  const mb = typeMeta(b);
  // Integers: uint8 is the only unsigned one, and every signed type wider than a byte
  // holds it, so the wider type wins and only uint8 with int8 needs a third type.
  if (ma.itemSize === mb.itemSize) return 'int16'; // uint8 with int8
  return ma.itemSize > mb.itemSize ? a : b;
}

/** A tensor as type promotion sees it, or a JS scalar (a PyTorch "wrapped number"). */
export type Operand = { readonly dtype: DType; readonly shape: readonly number[] } | number | boolean | bigint;

/**
 * Note [Three priority classes]
 * `torch.result_type` sorts operands into three classes, highest priority first: tensors
 * with at least one dimension, 0-dim tensors, and JS scalars. Within a class dtypes meet by
 * `promoteTypes`. Across classes the higher class wins unless a lower class reaches a
 * higher category (Note [Category lattice]): then the lower class's dtype is the result.
 * (PyTorch promotes the two there, which across categories gives the same answer.) So
 *   int8 [2] + 0-dim float64    -> float64   (float category beats integral)
 *   float32 [2] + 0-dim float64 -> float32   (same category: the dim>0 tensor wins)
 *   int32 [2] + 7               -> int32     (an int scalar never widens an int tensor)
 *   int32 [2] + 2.5             -> the default dtype
 *   bool [2] + 0-dim uint8      -> uint8     (bool is below integral)
 * A float scalar's own dtype is the default dtype (Note [Integer-valued numbers are
 * integers]), so with no float tensor around it decides the result's float type.
 */
export function resultType(op: string, operands: ReadonlyArray<Operand>): DType {
  if (operands.length === 0) throw new TorchError(`${op}: result type needs at least one operand`);
  let dimResult: DType | undefined;
  let zeroResult: DType | undefined;
  let wrappedResult: DType | undefined;
  for (const x of operands) {
    if (typeof x === 'number' || typeof x === 'boolean' || typeof x === 'bigint') {
      wrappedResult = promoteMaybe(wrappedResult, scalarDType(x));
    } else if (typeof x === 'object' && x !== null && isDType(x.dtype) && Array.isArray(x.shape)) {
      if (x.shape.length > 0) dimResult = promoteMaybe(dimResult, x.dtype);
      else zeroResult = promoteMaybe(zeroResult, x.dtype);
    } else {
      throw new DTypeError(`${op}: expected tensors or scalars for type promotion, got ${describeOperand(x)}`);
    }
  }
  const result = combineCategories(dimResult, combineCategories(zeroResult, wrappedResult));
  // At least one class is set, and combining never loses a set dtype.
  return result as DType;
}

function describeOperand(x: unknown): string {
  if (typeof x !== 'object' || x === null) return typeof x === 'string' ? `'${x}'` : String(x);
  const d = 'dtype' in x ? x.dtype : undefined;
  return isDType(d) ? 'an object without a shape array' : `an object with dtype ${String(d)}`;
}

function promoteMaybe(a: DType | undefined, b: DType): DType {
  return a === undefined ? b : promoteTypes(a, b);
}

/** Merges a higher-priority class's dtype with a lower one's; see Note [Three priority classes]. */
function combineCategories(higher: DType | undefined, lower: DType | undefined): DType | undefined {
  if (higher === undefined) return lower;
  if (lower === undefined) return higher;
  // a complex lower class keeps a floating higher class's precision (c10's combine_categories)
  if (isComplexType(lower) && isFloatingType(higher)) return toComplexType(higher);
  // Promoting across categories always yields the higher category's dtype, so the lower
  // class's dtype is the whole answer when it reaches further up the lattice.
  return categoryRank(lower) > categoryRank(higher) ? lower : higher;
}

/**
 * Whether a value of dtype `from` may be written into a tensor of dtype `to` by an op's
 * `out=` or in-place form, as `torch.can_cast`: any cast that does not go down Note
 * [Category lattice] (so float -> int and int -> bool are refused; narrowing within a
 * category, float64 -> float16 or int64 -> int8, is allowed).
 */
export function canCast(from: DType, to: DType): boolean {
  return categoryRank(from) <= categoryRank(to);
}

/** Throws PyTorch's error for an `out=` or in-place result that `canCast` refuses. */
export function checkCanCast(op: string, from: DType, to: DType): void {
  if (!canCast(from, to)) {
    throw new DTypeError(`${op}: result type ${from} can't be cast to the desired output type ${to}`);
  }
}
