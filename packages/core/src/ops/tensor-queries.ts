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

/** `torch.get_device(x)`: `x.getDevice()` (-1 on the CPU). */
export const getDevice = front('get_device(Tensor self) -> int', { method: false }).run(([self]): number => self.getDevice());

/** `torch.is_nonzero(x)`: `x.isNonzero()`. */
export const isNonzero = front('is_nonzero(Tensor self) -> bool', { method: false }).run(([self]): boolean => self.isNonzero());

/** `torch.is_same_size(x, y)`: `x.isSameSize(y)`. */
export const isSameSize = front('is_same_size(Tensor self, Tensor other) -> bool', { method: false }).run(([self, other]): boolean => self.isSameSize(other));

/** `torch.is_signed(x)`: `x.isSigned()`. */
export const isSigned = front('is_signed(Tensor self) -> bool', { method: false }).run(([self]): boolean => self.isSigned());
