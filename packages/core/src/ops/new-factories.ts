import type { DType } from '../dtype';
import type { DeviceLike } from '../device';
import { Tensor } from '../tensor/tensor';
import { empty, full, ones, tensor, zeros, type TensorData } from './factories';
import { front } from './front';

/**
 * Tensor's `new_*` factories (`x.newZeros(2, 3)`): a fresh tensor with `x`'s dtype and device
 * unless given, never its shape, layout or values; `requires_grad` False, as PyTorch's. They
 * are methods only, as in PyTorch. `newFull` takes `x`'s dtype whatever the fill value (where
 * `torch.full` infers one from it), and `newTensor` copies its data into `x`'s dtype.
 */

const NEW_KEYWORDS = '*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False';
const NEW = { varargs: true, namespaces: [], unsupported: ['layout', 'pinMemory'] } as const;

const newOptions = (self: Tensor, dtype: DType | undefined, device: DeviceLike | undefined, requiresGrad: boolean) => ({
  dtype: dtype ?? self.dtype,
  device: device ?? self.device,
  requiresGrad,
});

export const newEmpty = front(`new_empty(Tensor self, SymInt[] size, ${NEW_KEYWORDS}) -> Tensor`, NEW).run(([self, size, dtype, , device, , requiresGrad]): Tensor =>
  empty(size, newOptions(self, dtype, device, requiresGrad)),
);

export const newZeros = front(`new_zeros(Tensor self, SymInt[] size, ${NEW_KEYWORDS}) -> Tensor`, NEW).run(([self, size, dtype, , device, , requiresGrad]): Tensor =>
  zeros(size, newOptions(self, dtype, device, requiresGrad)),
);

export const newOnes = front(`new_ones(Tensor self, SymInt[] size, ${NEW_KEYWORDS}) -> Tensor`, NEW).run(([self, size, dtype, , device, , requiresGrad]): Tensor =>
  ones(size, newOptions(self, dtype, device, requiresGrad)),
);

export const newFull = front(`new_full(Tensor self, SymInt[] size, Scalar fill_value, ${NEW_KEYWORDS}) -> Tensor`, { namespaces: [], unsupported: ['layout', 'pinMemory'] }).run(
  ([self, size, fillValue, dtype, , device, , requiresGrad]): Tensor => full(size, fillValue, newOptions(self, dtype, device, requiresGrad)),
);

export const newTensor = front('new_tensor(Tensor self, Any data, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor', { namespaces: [] }).run(
  ([self, data, dtype, device, requiresGrad]): Tensor => tensor(data as TensorData, newOptions(self, dtype, device, requiresGrad)),
);
