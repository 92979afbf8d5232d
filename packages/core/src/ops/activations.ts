import type { Tensor } from '../tensor/tensor';
import { makeBinder, type OptionalArgs } from './binder';
import { callFunctional, callMutating, unwrapTensor } from './call';
import type { OutOptions } from './pointwise';
import { ACTIVATION_OPS, type InplaceOption } from './pointwise-table';

/**
 * The composite activations: selu and relu6 are the elu and hardtanh rows of the op table
 * (table/activation.ts) with fixed arguments, as in PyTorch (`elu` with SELU's constants,
 * `hardtanh(x, 0, 6)`), so their Nodes are EluBackward0 and HardtanhBackward0, as PyTorch's
 * are. They need no kernel and no derivative.
 */

// PyTorch's SELU constants (torch/nn/functional.py, Activation.cpp)
const SELU_ALPHA = 1.6732632423543772848170429916717;
const SELU_SCALE = 1.0507009873554804934193349852946;

const seluArgs = makeBinder('selu', 'selu(Tensor self, bool inplace=False, *, Tensor? out=None) -> Tensor');
const seluInplaceArgs = makeBinder('selu_', 'selu_(Tensor self) -> Tensor');
const relu6Args = makeBinder('relu6', 'relu6(Tensor self, bool inplace=False, *, Tensor? out=None) -> Tensor');

/** `selu(x)` is `elu(x, alpha, scale)` with SELU's constants, as in PyTorch (Node EluBackward0). */
export function selu(input: Tensor, ...rest: OptionalArgs<[inplace: boolean], OutOptions & InplaceOption>): Tensor;
export function selu(...args: unknown[]): Tensor {
  const [self, inplace, out] = seluArgs.bind(args);
  if (inplace) return selu_(self);
  const elu = ACTIVATION_OPS.elu.op;
  const a = [unwrapTensor('selu', 'input', self), SELU_ALPHA, SELU_SCALE, 1];
  return out ? callMutating(elu.out, [...a, unwrapTensor('selu', 'out', out)], out) : callFunctional(elu.functional, a);
}
export function selu_(self: Tensor): Tensor;
export function selu_(...args: unknown[]): Tensor {
  const [self] = seluInplaceArgs.bind(args);
  return callMutating(ACTIVATION_OPS.elu.op.inplace!, [unwrapTensor('selu_', 'self', self), SELU_ALPHA, SELU_SCALE, 1], self);
}

/** `relu6(x)` is `hardtanh(x, 0, 6)`, as in PyTorch (Node HardtanhBackward0); F.relu6's `inplace` is `hardtanh_`. */
export function relu6(input: Tensor, ...rest: OptionalArgs<[inplace: boolean], OutOptions & InplaceOption>): Tensor;
export function relu6(...args: unknown[]): Tensor {
  const [self, inplace, out] = relu6Args.bind(args);
  unwrapTensor(inplace ? 'relu6_' : 'relu6', 'input', self);
  return ACTIVATION_OPS.hardtanh.fn(self, 0, 6, { inplace, out });
}
