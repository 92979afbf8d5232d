import { deviceTypeName, type Device, type DeviceType } from '../device';
import { DeviceError } from '../errors';
import type { HostValues } from './host-data';
import type { TensorImpl } from './tensor-impl';

/**
 * How the async reads (`data()`, `tolistAsync()`, `toAsync('cpu')`) reach a device's
 * memory: a backend whose memory the host cannot read synchronously (WebGPU) registers a
 * reader (`op` names the read in errors). `toHost` resolves to a CPU copy of the tensor (a new TensorImpl the caller owns,
 * any strides). `values` resolves to the tensor's logical elements, row-major, as a new typed
 * array of the storage element type that the caller owns, whatever the tensor's strides (a
 * device gathers a strided view itself): `data()` hands that array to the user as it is, so a
 * read costs one copy out of device memory instead of two (into a CPU storage, then out of it).
 */
export interface DeviceReader {
  toHost(impl: TensorImpl, op: string): Promise<TensorImpl>;
  values(impl: TensorImpl, op: string): Promise<HostValues>;
}

const readers = new Map<DeviceType, DeviceReader>();

export function registerDeviceReader(type: DeviceType, reader: DeviceReader): void {
  readers.set(type, reader);
}

export function deviceReader(op: string, type: DeviceType): DeviceReader {
  const r = readers.get(type);
  if (!r) throw new DeviceError(`${op}: tensors on ${deviceTypeName(type)} have no data to read (no reader is registered for ${deviceTypeName(type)})`);
  return r;
}

/**
 * The other direction: how `to('webgpu')` / `copy_` move a CPU tensor onto a device whose
 * memory the host cannot write synchronously. The uploader takes a CPU tensor (any strides)
 * and returns a new contiguous tensor with the same dtype and values on `device` (a
 * TensorImpl the caller owns). Writes are enqueued in order with the device's other work.
 */
export type DeviceUploader = (src: TensorImpl, device: Device) => TensorImpl;

const uploaders = new Map<DeviceType, DeviceUploader>();

export function registerDeviceUploader(type: DeviceType, uploader: DeviceUploader): void {
  uploaders.set(type, uploader);
}

export function deviceUploader(op: string, type: DeviceType): DeviceUploader {
  const u = uploaders.get(type);
  // As getAllocator: before torch.webgpu.init() has loaded the backend, say to call it.
  if (!u && type === 'webgpu') throw new DeviceError(`${op}: WebGPU is not initialised: call \`await torch.webgpu.init()\` first`);
  if (!u) throw new DeviceError(`${op}: cannot copy to ${deviceTypeName(type)}: no uploader is registered for ${deviceTypeName(type)} (import its backend package and initialise it)`);
  return u;
}
