import type { Tensor } from '../tensor/tensor';
import { callMutating, optionalTensor, unwrapTensor, unwrapTensorOrScalar } from './call';
import type { Scalar } from './meta-utils';
import { front } from './front';
import { BINARY_OPS, UNARY_OPS } from './pointwise-table';
import { isComplexType } from '../dtype';
import { TorchError } from '../errors';
import { tidy } from '../tensor/scope';
import { where } from './pointwise';
import { reshape } from './shape-ops';
import { copyResult_ } from './copy';

/**
 * PyTorch's composites and aliases over rows of the op table, bound under their own names (so
 * a call that does not fit is refused in their name), then run as the row's function form or
 * its in-place operator, so they record the row's Node:
 *  - true_divide and floor_divide: div with a rounding mode (DivBackward0 / DivBackward2);
 *  - square: pow(x, 2) (PowBackward0): integers stay integers and wrap, bool computes in int64.
 */
// (a number self too, as PyTorch's parser allows for them: `torch.true_divide(1, x)`)
const DIV_NUMBERS = { numbersAsTensors: true, numberSelf: true } as const;

function divWithMode(op: string, self: Tensor | Scalar, other: Tensor | Scalar, out: unknown, mode: 'floor' | null): Tensor {
  // div's function form: two numbers are wrapped as PyTorch's parser wraps them (torch.true_divide(1, 2))
  return BINARY_OPS.div.fn(self, other, { roundingMode: mode, out: optionalTensor(op, 'out', out) });
}

function divWithModeInplace(op: string, self: Tensor, other: Tensor | Scalar, mode: 'floor' | null): Tensor {
  const x = unwrapTensor(op, 'self', self);
  return callMutating(BINARY_OPS.div.op.inplace!, [x, unwrapTensorOrScalar(op, 'other', other), mode], self);
}

/** `div(input, other)`: true division, whatever the dtypes. */
export const trueDivide = front('true_divide(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', DIV_NUMBERS).run(
  ([self, other, out]): Tensor => divWithMode('true_divide', self, other, out, null),
);
/** `div(input, other, { roundingMode: 'floor' })`. */
export const floorDivide = front('floor_divide(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', DIV_NUMBERS).run(
  ([self, other, out]): Tensor => divWithMode('floor_divide', self, other, out, 'floor'),
);
/** The in-place form of `trueDivide`. */
export const trueDivide_ = front('true_divide_(Tensor self, Tensor other) -> Tensor', { numbersAsTensors: true, namespaces: [] }).run(
  ([self, other]): Tensor => divWithModeInplace('true_divide_', self, other, null),
);
/** The in-place form of `floorDivide`. */
export const floorDivide_ = front('floor_divide_(Tensor self, Tensor other) -> Tensor', { numbersAsTensors: true, namespaces: [] }).run(
  ([self, other]): Tensor => divWithModeInplace('floor_divide_', self, other, 'floor'),
);

/** `pow(input, 2)`. */
export const square = front('square(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => BINARY_OPS.pow.fn(self, 2, { out }));
/** The in-place form of `square`. */
export const square_ = front('square_(Tensor self) -> Tensor').run(([self]): Tensor => BINARY_OPS.pow.inplace(self, 2));

/**
 * Note [PyTorch's alias names]
 * PyTorch's NumPy-style aliases are the same ops under other names (the same Node, the same
 * kernels): absolute (abs), arccos arcsin arctan arccosh arcsinh arctanh arctan2 (the `a`
 * trigonometry), negative (neg), fix (trunc), multiply (mul), divide (div, with
 * `rounding_mode`), subtract (sub, with `alpha`), greater less greater_equal less_equal
 * not_equal (gt lt ge le ne); their in-place forms are methods (and the trigonometric,
 * negative_ and fix_ ones torch functions too), as PyTorch has them. `sgn` is sign for real
 * dtypes and x / |x| (0 at 0) for complex ones; `positive` is the input itself (refused for
 * bool); `rsub(x, y, alpha)` is y - alpha x; `ravel` is reshape(-1).
 */
const METHOD_ONLY = { namespaces: [] } as const;

export const absolute = front('absolute(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.abs.fn(self, { out }));
export const absolute_ = front('absolute_(Tensor self) -> Tensor', METHOD_ONLY).run(([self]): Tensor => UNARY_OPS.abs.inplace(self));
export const arccos = front('arccos(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.acos.fn(self, { out }));
export const arccos_ = front('arccos_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.acos.inplace(self));
export const arcsin = front('arcsin(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.asin.fn(self, { out }));
export const arcsin_ = front('arcsin_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.asin.inplace(self));
export const arctan = front('arctan(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.atan.fn(self, { out }));
export const arctan_ = front('arctan_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.atan.inplace(self));
export const arccosh = front('arccosh(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.acosh.fn(self, { out }));
export const arccosh_ = front('arccosh_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.acosh.inplace(self));
export const arcsinh = front('arcsinh(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.asinh.fn(self, { out }));
export const arcsinh_ = front('arcsinh_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.asinh.inplace(self));
export const arctanh = front('arctanh(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.atanh.fn(self, { out }));
export const arctanh_ = front('arctanh_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.atanh.inplace(self));
export const negative = front('negative(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.neg.fn(self, { out }));
export const negative_ = front('negative_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.neg.inplace(self));
export const fix = front('fix(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => UNARY_OPS.trunc.fn(self, { out }));
export const fix_ = front('fix_(Tensor self) -> Tensor').run(([self]): Tensor => UNARY_OPS.trunc.inplace(self));

export const arctan2 = front('arctan2(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor').run(([self, other, out]): Tensor => BINARY_OPS.atan2.fn(self, other, { out }));
export const arctan2_ = front('arctan2_(Tensor self, Tensor other) -> Tensor', METHOD_ONLY).run(([self, other]): Tensor => BINARY_OPS.atan2.inplace(self, other));
const NUMBERS = { numbersAsTensors: true } as const;
const NUMBERS_METHOD = { numbersAsTensors: true, namespaces: [] } as const;
export const multiply = front('multiply(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', NUMBERS).run(([self, other, out]): Tensor => BINARY_OPS.mul.fn(self, other, { out: optionalTensor('multiply', 'out', out) }));
export const multiply_ = front('multiply_(Tensor self, Tensor other) -> Tensor', NUMBERS_METHOD).run(([self, other]): Tensor => BINARY_OPS.mul.inplace(self, other));
export const divide = front('divide(Tensor self, Tensor other, *, str? rounding_mode=None, Tensor? out=None) -> Tensor', NUMBERS).run(
  ([self, other, roundingMode, out]): Tensor => BINARY_OPS.div.fn(self, other, { roundingMode: roundingMode as 'trunc' | 'floor' | null, out: optionalTensor('divide', 'out', out) }),
);
export const divide_ = front('divide_(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor', NUMBERS_METHOD).run(
  ([self, other, roundingMode]): Tensor => BINARY_OPS.div.inplace(self, other, { roundingMode: roundingMode as 'trunc' | 'floor' | null }),
);
export const subtract = front('subtract(Tensor self, Tensor other, *, Scalar alpha=1, Tensor? out=None) -> Tensor', NUMBERS).run(
  ([self, other, alpha, out]): Tensor => BINARY_OPS.sub.fn(self, other, { alpha, out: optionalTensor('subtract', 'out', out) }),
);
export const subtract_ = front('subtract_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor', NUMBERS_METHOD).run(
  ([self, other, alpha]): Tensor => BINARY_OPS.sub.inplace(self, other, { alpha }),
);
export const greater = front('greater(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', NUMBERS).run(([self, other, out]): Tensor => BINARY_OPS.gt.fn(self, other, { out: optionalTensor('greater', 'out', out) }));
export const greater_ = front('greater_(Tensor self, Tensor other) -> Tensor', NUMBERS_METHOD).run(([self, other]): Tensor => BINARY_OPS.gt.inplace(self, other));
export const less = front('less(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', NUMBERS).run(([self, other, out]): Tensor => BINARY_OPS.lt.fn(self, other, { out: optionalTensor('less', 'out', out) }));
export const less_ = front('less_(Tensor self, Tensor other) -> Tensor', NUMBERS_METHOD).run(([self, other]): Tensor => BINARY_OPS.lt.inplace(self, other));
export const greaterEqual = front('greater_equal(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', NUMBERS).run(([self, other, out]): Tensor => BINARY_OPS.ge.fn(self, other, { out: optionalTensor('greater_equal', 'out', out) }));
export const greaterEqual_ = front('greater_equal_(Tensor self, Tensor other) -> Tensor', NUMBERS_METHOD).run(([self, other]): Tensor => BINARY_OPS.ge.inplace(self, other));
export const lessEqual = front('less_equal(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', NUMBERS).run(([self, other, out]): Tensor => BINARY_OPS.le.fn(self, other, { out: optionalTensor('less_equal', 'out', out) }));
export const lessEqual_ = front('less_equal_(Tensor self, Tensor other) -> Tensor', NUMBERS_METHOD).run(([self, other]): Tensor => BINARY_OPS.le.inplace(self, other));
export const notEqual = front('not_equal(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', NUMBERS).run(([self, other, out]): Tensor => BINARY_OPS.ne.fn(self, other, { out: optionalTensor('not_equal', 'out', out) }));
export const notEqual_ = front('not_equal_(Tensor self, Tensor other) -> Tensor', NUMBERS_METHOD).run(([self, other]): Tensor => BINARY_OPS.ne.inplace(self, other));

/** `torch.sgn(x)`: sign for real dtypes; x / |x| (0 where x is 0) for complex ones. */
export const sgn = front('sgn(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => {
  if (!isComplexType(self.dtype)) return UNARY_OPS.sign.fn(self, { out });
  const r = tidy(() => {
    const a = self.abs();
    return where(a.eq(0), 0, self.div(a));
  });
  return out ? copyResult_(out, r) : r;
});
export const sgn_ = front('sgn_(Tensor self) -> Tensor', METHOD_ONLY).run(([self]): Tensor => {
  if (!isComplexType(self.dtype)) return UNARY_OPS.sign.inplace(self);
  return copyResult_(self, sgn(self));
});

/** `torch.positive(x)`: `x` itself; refused for bool, in PyTorch's words. */
export const positive = front('positive(Tensor self) -> Tensor').run(([self]): Tensor => {
  if (self.dtype === 'bool') throw new TorchError('positive: The `+` operator, on a bool tensor is not supported.');
  return self;
});

/** `torch.rsub(x, y, { alpha })`: y - alpha x (subtraction with the operands swapped). */
export const rsub = front('rsub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor', { numbersAsTensors: true, method: false }).run(([self, other, alpha]): Tensor =>
  BINARY_OPS.sub.fn(other, self, { alpha }),
);

/** `torch.ravel(x)`: x flattened, a view where its strides allow. */
export const ravel = front('ravel(Tensor self) -> Tensor').run(([self]): Tensor => reshape(self, [-1]));
