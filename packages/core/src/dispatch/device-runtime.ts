import type { DeviceType } from '../device';

/**
 * Note [Device runtimes]
 * A backend whose device needs more than kernels (WebGPU: finding an adapter, synchronising,
 * a caching allocator to empty) registers a runtime object here when it is imported, next
 * to its allocator and kernels. The facade finds it here rather than importing the backend
 * package, so that the backend can be an optional package: an application that bundles it
 * (`import '@torch-ts/kernels-webgpu'`) makes it visible to `torch.webgpu` without the
 * facade naming it, and one that does not install it pulls none of its code or its native
 * addon. Core does not look inside a runtime: its shape is a contract between the backend
 * and the facade.
 */
const runtimes = new Map<DeviceType, object>();

export function registerDeviceRuntime(type: DeviceType, runtime: object): void {
  runtimes.set(type, runtime);
}

/** The runtime a backend registered for `type`, or `undefined` when no backend for it is loaded. */
export function deviceRuntime(type: DeviceType): object | undefined {
  return runtimes.get(type);
}
