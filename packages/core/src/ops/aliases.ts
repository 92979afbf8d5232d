import type { Tensor } from '../tensor/tensor';
import { callMutating, optionalTensor, unwrapTensor, unwrapTensorOrScalar } from './call';
import type { Scalar } from './meta-utils';
import { front } from './front';
import { BINARY_OPS } from './pointwise-table';

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
