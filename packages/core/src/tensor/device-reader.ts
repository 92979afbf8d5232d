import type { DeviceType } from '../device';
import { DeviceError } from '../errors';
import type { TensorImpl } from './tensor-impl';

/**
 * How the async reads (`data()`, `tolistAsync()`, `toAsync('cpu')`) reach a device's
 * memory: a backend whose memory the host cannot read synchronously (WebGPU) registers a
 * reader that resolves to a CPU copy of the tensor (a new TensorImpl the caller owns).
 */
export type DeviceReader = (impl: TensorImpl) => Promise<TensorImpl>;

const readers = new Map<DeviceType, DeviceReader>();

export function registerDeviceReader(type: DeviceType, reader: DeviceReader): void {
  readers.set(type, reader);
}

export function deviceReader(op: string, type: DeviceType): DeviceReader {
  const r = readers.get(type);
  if (!r) throw new DeviceError(`${op}: tensors on ${type} have no data to read (no reader is registered for ${type})`);
  return r;
}
