import { front } from './front';
import type { Tensor } from '../tensor/tensor';

/**
 * PyTorch's function forms of Tensor's own methods (queries, and detach_): `torch.numel(x)` is
 * `x.numel()`. The methods are Tensor's own (tensor.ts), so these declare no method.
 */

/** The number of elements of `input`. */
export const numel = front('numel(Tensor self) -> int', { method: false }).run(([self]): number => self.numel());

/** Whether `input`'s dtype is a floating point one. */
export const isFloatingPoint = front('is_floating_point(Tensor self) -> bool', { method: false }).run(([self]): boolean => self.isFloatingPoint());

/** Whether `input` was made under `inferenceMode`. */
export const isInference = front('is_inference(Tensor self) -> bool', { method: false }).run(([self]): boolean => self.isInference());

/** `torch.detach_(x)` is `x.detach_()`: `x` leaves its graph in place and is returned. */
export const detach_ = front('detach_(Tensor self) -> Tensor', { method: false }).run(([self]): Tensor => self.detach_());
