import { front } from './front';

/**
 * PyTorch's function forms of Tensor's queries: `torch.numel(x)` is `x.numel()`. The methods are
 * Tensor's own (tensor.ts), so these declare no method.
 */

/** The number of elements of `input`. */
export const numel = front('numel(Tensor self) -> int', { method: false }).run(([self]): number => self.numel());

/** Whether `input`'s dtype is a floating point one. */
export const isFloatingPoint = front('is_floating_point(Tensor self) -> bool', { method: false }).run(([self]): boolean => self.isFloatingPoint());

/** Whether `input` was made under `inferenceMode`. */
export const isInference = front('is_inference(Tensor self) -> bool', { method: false }).run(([self]): boolean => self.isInference());
