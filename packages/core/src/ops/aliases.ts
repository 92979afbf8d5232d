import { TorchError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { makeBinder } from './binder';
import { callMutating, describe, unwrapTensor, unwrapTensorOrScalar } from './call';
import type { Scalar } from './meta-utils';
import type { OutOptions } from './pointwise';
import { BINARY_OPS } from './pointwise-table';

/**
 * PyTorch's composites and aliases over rows of the op table, bound under their own names (so
 * a call that does not fit is refused in their name), then run as the row's function form or
 * its in-place operator, so they record the row's Node:
 *  - true_divide and floor_divide: div with a rounding mode (DivBackward0 / DivBackward2);
 *  - square: pow(x, 2) (PowBackward0): integers stay integers and wrap, bool computes in int64.
 */
// (a number self too, as PyTorch's parser allows for them: `torch.true_divide(1, x)`)
const trueDivideArgs = makeBinder('true_divide', 'true_divide(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { numbersAsTensors: true, numberSelf: true });
const floorDivideArgs = makeBinder('floor_divide', 'floor_divide(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { numbersAsTensors: true, numberSelf: true });
const trueDivideInplaceArgs = makeBinder('true_divide_', 'true_divide_(Tensor self, Tensor other) -> Tensor', { numbersAsTensors: true });
const floorDivideInplaceArgs = makeBinder('floor_divide_', 'floor_divide_(Tensor self, Tensor other) -> Tensor', { numbersAsTensors: true });

function divWithMode(op: string, [self, other, out]: readonly [Tensor | Scalar, Tensor | Scalar, unknown?], mode: 'floor' | null): Tensor {
  // (the binder lets a number through where it takes numbers for Tensors: refuse it here)
  if (out !== undefined && !(out instanceof Tensor)) throw new TorchError(`${op}(): argument 'out' must be Tensor, not ${describe(out)}`);
  // div's function form: two numbers are wrapped as PyTorch's parser wraps them (torch.true_divide(1, 2))
  return BINARY_OPS.div.fn(self, other, { roundingMode: mode, out });
}

function divWithModeInplace(op: string, [self, other]: readonly [Tensor, Tensor | Scalar, unknown?], mode: 'floor' | null): Tensor {
  const x = unwrapTensor(op, 'self', self);
  return callMutating(BINARY_OPS.div.op.inplace!, [x, unwrapTensorOrScalar(op, 'other', other), mode], self);
}

export function trueDivide(input: Tensor | Scalar, other: Tensor | Scalar, options?: OutOptions): Tensor;
export function trueDivide(...args: unknown[]): Tensor {
  return divWithMode('true_divide', trueDivideArgs.bind(args), null);
}
export function floorDivide(input: Tensor | Scalar, other: Tensor | Scalar, options?: OutOptions): Tensor;
export function floorDivide(...args: unknown[]): Tensor {
  return divWithMode('floor_divide', floorDivideArgs.bind(args), 'floor');
}
export function trueDivide_(self: Tensor, other: Tensor | Scalar): Tensor;
export function trueDivide_(...args: unknown[]): Tensor {
  return divWithModeInplace('true_divide_', trueDivideInplaceArgs.bind(args), null);
}
export function floorDivide_(self: Tensor, other: Tensor | Scalar): Tensor;
export function floorDivide_(...args: unknown[]): Tensor {
  return divWithModeInplace('floor_divide_', floorDivideInplaceArgs.bind(args), 'floor');
}

const squareArgs = makeBinder('square', 'square(Tensor self, *, Tensor? out=None) -> Tensor');
const squareInplaceArgs = makeBinder('square_', 'square_(Tensor self) -> Tensor');

export function square(input: Tensor, options?: OutOptions): Tensor;
export function square(...args: unknown[]): Tensor {
  const [self, out] = squareArgs.bind(args);
  return BINARY_OPS.pow.fn(self, 2, { out });
}
export function square_(self: Tensor): Tensor;
export function square_(...args: unknown[]): Tensor {
  const [self] = squareInplaceArgs.bind(args);
  return BINARY_OPS.pow.inplace(self, 2);
}
