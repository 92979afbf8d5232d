import { isFloatingType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { torchTypeName, type Scalar } from './meta-utils';
import { makeBinder, type OptionalArgs } from './binder';
import { binaryFront, definePointwise, unaryFront, type OutOptions, type PointwiseOp } from './pointwise';
import { implOf, type Backend } from './registry';

/**
 * The logical ops: logical_not / logical_and / logical_or / logical_xor. Inputs of any dtype
 * (promoted to their common dtype, as PyTorch's comparison TensorIterator does); a value is
 * true when it is nonzero (NaN included). The result is bool; an `out=` or in-place `self` of
 * another dtype receives 0 / 1 in its own dtype. Not differentiable.
 */

type LogicalName = 'logicalNot' | 'logicalAnd' | 'logicalOr' | 'logicalXor';
const impl = (name: LogicalName) => (b: Backend, op: string, out: TensorImpl, inputs: TensorImpl[]) =>
  implOf(b, name, op)(out, inputs[0], inputs[inputs.length - 1]);

export const LOGICAL_NOT = definePointwise({ name: 'logical_not', arity: 1, rule: 'compare', compute: impl('logicalNot') });
export const LOGICAL_AND = definePointwise({ name: 'logical_and', arity: 2, rule: 'compare', compute: impl('logicalAnd') });
export const LOGICAL_OR = definePointwise({ name: 'logical_or', arity: 2, rule: 'compare', compute: impl('logicalOr') });
export const LOGICAL_XOR = definePointwise({ name: 'logical_xor', arity: 2, rule: 'compare', compute: impl('logicalXor') });


const _not = unaryFront(LOGICAL_NOT);
const _and = binaryFront(LOGICAL_AND, '', { numbers: false });
const _or = binaryFront(LOGICAL_OR, '', { numbers: false });
const _xor = binaryFront(LOGICAL_XOR, '', { numbers: false });

export const logicalNot: (self: Tensor, options?: OutOptions) => Tensor = _not.fn;
export const logicalNot_: (self: Tensor) => Tensor = _not.inplace;
export const logicalAnd: (self: Tensor, other: Tensor, options?: OutOptions) => Tensor = _and.fn;
export const logicalAnd_: (self: Tensor, other: Tensor) => Tensor = _and.inplace;
export const logicalOr: (self: Tensor, other: Tensor, options?: OutOptions) => Tensor = _or.fn;
export const logicalOr_: (self: Tensor, other: Tensor) => Tensor = _or.inplace;
export const logicalXor: (self: Tensor, other: Tensor, options?: OutOptions) => Tensor = _xor.fn;
export const logicalXor_: (self: Tensor, other: Tensor) => Tensor = _xor.inplace;

// ---- bitwise ops ----
/**
 * bitwise_not / and / or / xor: integral and bool dtypes only (PyTorch's "bitwise_*_cpu" has
 * no floating kernel); `other` may be a Scalar, converted to the compute dtype with
 * wrap-around as PyTorch does (`uint8 & -1` is `uint8 & 255`). bool's not is logical not.
 */
type BitwiseName = 'bitwiseAnd' | 'bitwiseOr' | 'bitwiseXor';
const bitImpl = (name: BitwiseName) => (b: Backend, op: string, out: TensorImpl, [x, y]: TensorImpl[]) => implOf(b, name, op)(out, x, y);
function integralOnly(kernel: string) {
  return (op: string, compute: DType) => {
    if (isFloatingType(compute)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(compute)}'`);
  };
}

export const BITWISE_NOT = definePointwise({
  name: 'bitwise_not',
  arity: 1,
  rule: 'promote',
  check: integralOnly('bitwise_not_cpu'),
  compute: (b, op, out, [x]) => implOf(b, 'bitwiseNot', op)(out, x),
});
export const BITWISE_AND = definePointwise({ name: 'bitwise_and', arity: 2, rule: 'promote', check: integralOnly('bitwise_and_cpu'), compute: bitImpl('bitwiseAnd') });
export const BITWISE_OR = definePointwise({ name: 'bitwise_or', arity: 2, rule: 'promote', check: integralOnly('bitwise_or_cpu'), compute: bitImpl('bitwiseOr') });
export const BITWISE_XOR = definePointwise({ name: 'bitwise_xor', arity: 2, rule: 'promote', check: integralOnly('bitwise_xor_cpu'), compute: bitImpl('bitwiseXor') });

const _bnot = unaryFront(BITWISE_NOT);
const _band = binaryFront(BITWISE_AND);
const _bor = binaryFront(BITWISE_OR);
const _bxor = binaryFront(BITWISE_XOR);

export const bitwiseNot: (self: Tensor, options?: OutOptions) => Tensor = _bnot.fn;
export const bitwiseNot_: (self: Tensor) => Tensor = _bnot.inplace;
export const bitwiseAnd: (self: Tensor, other: Tensor | Scalar, options?: OutOptions) => Tensor = _band.fn;
export const bitwiseAnd_: (self: Tensor, other: Tensor | Scalar) => Tensor = _band.inplace;
export const bitwiseOr: (self: Tensor, other: Tensor | Scalar, options?: OutOptions) => Tensor = _bor.fn;
export const bitwiseOr_: (self: Tensor, other: Tensor | Scalar) => Tensor = _bor.inplace;
export const bitwiseXor: (self: Tensor, other: Tensor | Scalar, options?: OutOptions) => Tensor = _bxor.fn;
export const bitwiseXor_: (self: Tensor, other: Tensor | Scalar) => Tensor = _bxor.inplace;

// ---- nan_to_num ----
/** finfo(dtype).max; the default posinf (neginf is its negation, finfo.min). */
const FLOAT_MAX: Partial<Record<DType, number>> = {
  float64: Number.MAX_VALUE,
  float32: 3.4028234663852886e38,
  float16: 65504,
  bfloat16: 3.3895313892515355e38,
};

/**
 * nan_to_num(self, nan=0, posinf=finfo.max, neginf=finfo.min): floating inputs replace NaN
 * and the infinities (the replacements converted to the dtype, so an out-of-range one becomes
 * an infinity); integral and bool inputs are copied unchanged. `out` must have self's dtype.
 */
export const NAN_TO_NUM = definePointwise({
  name: 'nan_to_num',
  arity: 1,
  extraArgs: 'float? nan=None, float? posinf=None, float? neginf=None',
  rule: 'promote',
  check: (op, compute, _operands, args) => {
    const out = args.length > 4 ? (args[4] as TensorImpl) : null;
    if (out && out.dtype !== compute) {
      throw new TorchError(`${op}: dtype of out: ${torchTypeName(out.dtype)} should be same as input: ${torchTypeName(compute)}`);
    }
  },
  compute: (b, op, out, [x], args) => {
    const max = FLOAT_MAX[out.dtype];
    if (max === undefined) {
      implOf(b, 'copy', op)(out, x);
      return;
    }
    const num = (v: unknown, d: number) => (v == null ? d : Number(v));
    implOf(b, 'nanToNum', op)(out, x, num(args[1], 0), num(args[2], max), num(args[3], -max));
  },
});

export interface NanToNumOptions extends OutOptions {
  nan?: number | null;
  posinf?: number | null;
  neginf?: number | null;
}

const nanArgs = makeBinder('nan_to_num', 'nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor? out=None) -> Tensor');
const nanInplaceArgs = makeBinder('nan_to_num_', 'nan_to_num_(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor');
const nanOperands = (op: string, [self, nan, posinf, neginf]: unknown[]) => [
  unwrapTensor(op, op.endsWith('_') ? 'self' : 'input', self),
  nan ?? null,
  posinf ?? null,
  neginf ?? null,
];
type NanToNumRest = OptionalArgs<[nan: number, posinf: number, neginf: number], NanToNumOptions>;
export function nanToNum(input: Tensor, ...rest: NanToNumRest): Tensor;
export function nanToNum(...args: unknown[]): Tensor {
  const b = nanArgs.bind(args);
  const out = b[4];
  const a = nanOperands('nan_to_num', b);
  return out ? callMutating(NAN_TO_NUM.out, [...a, unwrapTensor('nan_to_num', 'out', out)], out) : callFunctional(NAN_TO_NUM.functional, a);
}
export function nanToNum_(self: Tensor, ...rest: OptionalArgs<[nan: number, posinf: number, neginf: number], Omit<NanToNumOptions, 'out'>>): Tensor;
export function nanToNum_(...args: unknown[]): Tensor {
  const b = nanInplaceArgs.bind(args);
  return callMutating(NAN_TO_NUM.inplace!, nanOperands('nan_to_num_', b), b[0]);
}

// ---- clip ----
export { clip, clip_ } from './pointwise-binary';
