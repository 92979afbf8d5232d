import type { DeviceType } from '../device';

/**
 * Note [DispatchKey priority]
 * Keys are numbered by priority: the dispatcher runs the kernel of the highest key in a
 * call's key set. Backend keys are lowest, so everything that wraps computation (autograd,
 * version counting of in-place ops) runs first and then redispatches below itself, as
 * PyTorch's DispatchKey order does. Each backend has its own autograd key so that a backend
 * component can be read back from an autograd key.
 */
export const DispatchKey = {
  CPU: 0,
  WebGPU: 1,
  Meta: 2,
  ADInplaceOrView: 3,
  AutogradCPU: 4,
  AutogradWebGPU: 5,
  AutogradMeta: 6,
} as const;

export type DispatchKey = (typeof DispatchKey)[keyof typeof DispatchKey];
export type DispatchKeyName = keyof typeof DispatchKey;

export const NUM_DISPATCH_KEYS = 7;

const NAMES: DispatchKeyName[] = [];
for (const [name, k] of Object.entries(DispatchKey)) NAMES[k] = name as DispatchKeyName;

export function dispatchKeyName(k: DispatchKey): DispatchKeyName {
  return NAMES[k];
}

export const BACKEND_KEYS: readonly DispatchKey[] = [DispatchKey.CPU, DispatchKey.WebGPU, DispatchKey.Meta];
export const AUTOGRAD_KEYS: readonly DispatchKey[] = [
  DispatchKey.AutogradCPU,
  DispatchKey.AutogradWebGPU,
  DispatchKey.AutogradMeta,
];

export function isBackendKey(k: DispatchKey): boolean {
  return k <= DispatchKey.Meta;
}

export function isAutogradKey(k: DispatchKey): boolean {
  return k >= DispatchKey.AutogradCPU;
}

export function backendKeyOf(type: DeviceType): DispatchKey {
  return type === 'cpu' ? DispatchKey.CPU : type === 'webgpu' ? DispatchKey.WebGPU : DispatchKey.Meta;
}

export function autogradKeyOf(backend: DispatchKey): DispatchKey {
  return (backend + DispatchKey.AutogradCPU) as DispatchKey;
}
