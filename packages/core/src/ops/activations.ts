import type { Tensor } from '../tensor/tensor';
import { front } from './front';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { ACTIVATION_OPS } from './pointwise-table';

/**
 * The composite activations: selu and relu6 are the elu and hardtanh rows of the op table
 * (table/activation.ts) with fixed arguments, as in PyTorch (`elu` with SELU's constants,
 * `hardtanh(x, 0, 6)`), so their Nodes are EluBackward0 and HardtanhBackward0, as PyTorch's
 * are. They need no kernel and no derivative.
 */

// PyTorch's SELU constants (torch/nn/functional.py, Activation.cpp)
const SELU_ALPHA = 1.6732632423543772848170429916717;
const SELU_SCALE = 1.0507009873554804934193349852946;

// (torch.selu and F.selu; Tensor has no selu method)
const SELU_NAMESPACES = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

/** `selu(x)` is `elu(x, alpha, scale)` with SELU's constants, as in PyTorch (Node EluBackward0). */
export const selu = front('selu(Tensor self, bool inplace=False, *, Tensor? out=None) -> Tensor', SELU_NAMESPACES).run(([self, inplace, out]): Tensor => {
  if (inplace) return runSeluInplace(self);
  const elu = ACTIVATION_OPS.elu.op;
  const a = [unwrapTensor('selu', 'input', self), SELU_ALPHA, SELU_SCALE, 1];
  return out ? callMutating(elu.out, [...a, unwrapTensor('selu', 'out', out)], out) : callFunctional(elu.functional, a);
});

function runSeluInplace(self: Tensor): Tensor {
  return callMutating(ACTIVATION_OPS.elu.op.inplace!, [unwrapTensor('selu_', 'self', self), SELU_ALPHA, SELU_SCALE, 1], self);
}
/** The in-place form of `selu`. */
export const selu_ = front('selu_(Tensor self) -> Tensor', SELU_NAMESPACES).run(([self]): Tensor => runSeluInplace(self));

/** `relu6(x)` is `hardtanh(x, 0, 6)`, as in PyTorch (Node HardtanhBackward0); F.relu6's `inplace` is `hardtanh_`. */
export const relu6 = front('relu6(Tensor self, bool inplace=False, *, Tensor? out=None) -> Tensor', SELU_NAMESPACES).run(([self, inplace, out]): Tensor => {
  unwrapTensor(inplace ? 'relu6_' : 'relu6', 'input', self);
  return ACTIVATION_OPS.hardtanh.fn(self, 0, 6, { inplace, out });
});
