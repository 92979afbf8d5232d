import { renamePrivateUse1Backend } from './device';
import { DispatchKey } from './dispatch/dispatch-key';
import { registerDeviceRuntime } from './dispatch/device-runtime';
import { DeviceError } from './errors';
import { registerAllocator, type Allocator } from './memory/allocator';
import { notImplemented, type BackendDtypes, type BackendImplTable, type ImplName } from './ops/backend-impls';
import { META_IMPLS } from './ops/meta-backend';
import { registerBackend, type BackendOpHook } from './ops/registry';
import { registerDeviceReader, registerDeviceUploader, type DeviceReader, type DeviceUploader } from './tensor/device-reader';

/** What an out-of-tree backend registers with its impls (Note [PrivateUse1]). */
export interface PrivateUse1BackendOptions {
  /** Its memory; `deviceType` must be `'privateuseone'`. */
  readonly allocator: Allocator;
  /** `await x.data()`, `await x.toAsync('cpu')`: how its memory is read. Without one, its tensors cannot be read. */
  readonly reader?: DeviceReader;
  /** `x.to('foo')`, `copy_` from the CPU: how CPU data reaches it. Without one, nothing can be copied to it. */
  readonly uploader?: DeviceUploader;
  /** An object the backend's users reach with `deviceRuntime('privateuseone')` (initialisation, synchronisation). */
  readonly runtime?: object;
  /** Note [Backend op hooks]. */
  readonly around?: BackendOpHook;
  /** The dtypes each impl computes in, for `supports()` (Note [Dtype support is data]); without it, every dtype. */
  readonly dtypes?: BackendDtypes;
}

/**
 * Registers an out-of-tree backend on the `privateuseone` device type under `name`, as
 * PyTorch's `rename_privateuse1_backend(name)` followed by the backend's kernel, allocator
 * and copy registrations: afterwards `torch.ones([2], { device: name })`, `x.to(name)` and
 * `await x.toAsync('cpu')` work, and devices print as `name:0`.
 *
 * `impls` holds the backend's impls (Note [What a backend implements]); an impl it leaves
 * out, or marks `notImplemented(reason)`, makes the ops that need it fail with an error naming
 * the op and the backend. The ops' meta (shapes, dtypes, broadcasting, validation) is core's,
 * as for the built-in backends, and autograd works on the device once
 * `@torch-ts/autograd` is loaded.
 */
export function registerPrivateUse1Backend(name: string, impls: Partial<BackendImplTable>, options: PrivateUse1BackendOptions): void {
  const { allocator, reader, uploader, runtime, around, dtypes } = options;
  if (!allocator || allocator.deviceType !== 'privateuseone') {
    throw new DeviceError(
      `registerPrivateUse1Backend: the allocator of backend '${name}' must have deviceType 'privateuseone', but got ${allocator ? `'${allocator.deviceType}'` : 'none'}`,
    );
  }
  renamePrivateUse1Backend(name);
  // Every impl name, each one the backend left out marked so that its error names the backend.
  const table: Record<string, unknown> = {};
  for (const impl of Object.keys(META_IMPLS) as ImplName[]) {
    table[impl] = impls[impl] ?? notImplemented(`the ${name} backend does not implement ${impl}`);
  }
  for (const impl of Object.keys(impls)) if (!(impl in table)) table[impl] = impls[impl as ImplName];
  registerAllocator(allocator);
  if (reader) registerDeviceReader('privateuseone', reader);
  if (uploader) registerDeviceUploader('privateuseone', uploader);
  if (runtime) registerDeviceRuntime('privateuseone', runtime);
  registerBackend(DispatchKey.PrivateUse1, table as BackendImplTable, { around, dtypes });
}
