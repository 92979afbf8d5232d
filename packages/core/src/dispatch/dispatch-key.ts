import { privateUse1BackendName, type DeviceType } from '../device';

/**
 * Note [DispatchKey priority]
 * Keys are numbered by priority: the dispatcher runs the kernel of the highest key in a
 * call's key set. Backend keys are lowest, so everything that wraps computation (autograd,
 * version counting of in-place ops) runs first and then redispatches below itself, as
 * PyTorch's DispatchKey order does. Each backend has its own autograd key so that a backend
 * component can be read back from an autograd key. `PrivateUse1` is the key of an
 * out-of-tree backend (Note [PrivateUse1]). `Complex`, the highest, is in the key set of a
 * complex tensor: there complex ops run as composites over real views, above autograd, so
 * that autograd records the real ops (Note [Complex tensors are pairs of reals]). `Conjugate`,
 * above it, is in the key set of a tensor with the conjugate bit set (Note [The conjugate bit]).
 * `FuncTorchBatched`, the highest of all, is in the key set of a BatchedTensorImpl, vmap's
 * logical tensor: its kernels (batching rules) unwrap the physical values and call the ops
 * again on them, so everything below (complex, autograd, backends) sees plain tensors and
 * autograd records the physical ops (Note [Batched tensors]).
 * `SparseCPU`, above the dense backends and below ADInplaceOrView and autograd, is the key of a
 * sparse COO tensor (as PyTorch's SparseCPU): only the ops with a sparse kernel run on one, any
 * other fails with PyTorch's "Could not run 'aten::x' with arguments from the 'SparseCPU'
 * backend" (Note [Sparse COO tensors]). A sparse tensor's autograd key is AutogradCPU.
 */
export const DispatchKey = {
  CPU: 0,
  WebGPU: 1,
  Meta: 2,
  PrivateUse1: 3,
  SparseCPU: 4,
  ADInplaceOrView: 5,
  AutogradCPU: 6,
  AutogradWebGPU: 7,
  AutogradMeta: 8,
  AutogradPrivateUse1: 9,
  Complex: 10,
  Conjugate: 11,
  FuncTorchBatched: 12,
} as const;

export type DispatchKey = (typeof DispatchKey)[keyof typeof DispatchKey];
export type DispatchKeyName = keyof typeof DispatchKey;

export const NUM_DISPATCH_KEYS = 13;

const NAMES: DispatchKeyName[] = [];
for (const [name, k] of Object.entries(DispatchKey)) NAMES[k] = name as DispatchKeyName;

export function dispatchKeyName(k: DispatchKey): DispatchKeyName {
  return NAMES[k];
}

/** A key as errors print it: PrivateUse1 under its backend's name (`foo`, `Autograd(foo)`) once one claimed it. */
export function dispatchKeyDisplayName(k: DispatchKey): string {
  const name = privateUse1BackendName();
  if (name === 'privateuseone') return NAMES[k];
  if (k === DispatchKey.PrivateUse1) return name;
  if (k === DispatchKey.AutogradPrivateUse1) return `Autograd(${name})`;
  return NAMES[k];
}

export const BACKEND_KEYS: readonly DispatchKey[] = [DispatchKey.CPU, DispatchKey.WebGPU, DispatchKey.Meta, DispatchKey.PrivateUse1];
export const AUTOGRAD_KEYS: readonly DispatchKey[] = [
  DispatchKey.AutogradCPU,
  DispatchKey.AutogradWebGPU,
  DispatchKey.AutogradMeta,
  DispatchKey.AutogradPrivateUse1,
];

export function isBackendKey(k: DispatchKey): boolean {
  return k <= DispatchKey.PrivateUse1;
}

export function isAutogradKey(k: DispatchKey): boolean {
  return k >= DispatchKey.AutogradCPU && k <= DispatchKey.AutogradPrivateUse1;
}

/** The key set of a sparse COO tensor on the CPU (Note [Sparse COO tensors]). */
export const SPARSE_CPU_KEYS: readonly DispatchKey[] = [DispatchKey.SparseCPU, DispatchKey.ADInplaceOrView, DispatchKey.AutogradCPU];

export function backendKeyOf(type: DeviceType): DispatchKey {
  return type === 'cpu' ? DispatchKey.CPU : type === 'webgpu' ? DispatchKey.WebGPU : type === 'meta' ? DispatchKey.Meta : DispatchKey.PrivateUse1;
}

export function autogradKeyOf(backend: DispatchKey): DispatchKey {
  return (backend + DispatchKey.AutogradCPU) as DispatchKey;
}
