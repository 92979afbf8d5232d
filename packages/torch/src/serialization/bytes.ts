/**
 * Tensors to and from little-endian element bytes, the layout both safetensors and
 * PyTorch's storages use. Browser-safe: no Node APIs.
 */
import { CPU, DeviceError, Tensor, TensorImpl, TorchError, typeMeta, type DType } from '@torch-ts/core';

/** The logical elements of a CPU tensor, row-major, as bytes (a fresh copy). */
export function tensorBytes(op: string, t: Tensor): Uint8Array {
  if (!(t instanceof Tensor)) throw new TorchError(`${op}: expected a Tensor, but got ${t === null ? 'null' : typeof t}`);
  if (t.device.type !== 'cpu') {
    throw new DeviceError(`${op}: tensors on ${t.device} must be moved to the CPU first (await x.toAsync('cpu'))`);
  }
  const c = t.contiguous();
  try {
    const item = typeMeta(c.dtype).itemSize;
    const view = c.impl.storage.typed(Uint8Array);
    const start = c.storageOffset() * item;
    return view.slice(start, start + c.numel() * item);
  } finally {
    if (c !== t) c.dispose();
  }
}

/** A new contiguous CPU tensor holding `bytes` (which must be exactly numel * itemSize long). */
export function tensorFromBytes(op: string, bytes: Uint8Array, dtype: DType, shape: readonly number[]): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const item = typeMeta(dtype).itemSize;
  if (bytes.length !== n * item) {
    throw new TorchError(`${op}: ${bytes.length} bytes cannot hold a ${dtype} tensor of shape [${shape.join(', ')}]`);
  }
  const impl = TensorImpl.empty(op, shape, dtype, CPU);
  impl.storage.typed(Uint8Array).set(bytes);
  return new Tensor(impl);
}
