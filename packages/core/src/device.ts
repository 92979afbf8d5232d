import { DeviceError } from './errors';

/** The device types torch-ts knows. `meta` tensors have shapes and dtypes and no data. */
export type DeviceType = 'cpu' | 'webgpu' | 'meta';

const DEVICE_TYPES: readonly DeviceType[] = ['cpu', 'webgpu', 'meta'];

/**
 * A device, as `torch.device`: a type and, for accelerators, an index. CPU and meta have no
 * index (`null`), as in PyTorch, and print as `cpu` / `meta`; WebGPU prints `webgpu:0`.
 * Devices are interned, so `===` compares them.
 */
export class Device {
  private static readonly interned = new Map<string, Device>();

  private constructor(
    readonly type: DeviceType,
    readonly index: number | null,
  ) {
    Object.freeze(this);
  }

  static of(type: DeviceType, index: number | null = null): Device {
    const idx = type === 'webgpu' ? (index ?? 0) : null;
    const key = idx === null ? type : `${type}:${idx}`;
    let d = Device.interned.get(key);
    if (!d) {
      d = new Device(type, idx);
      Device.interned.set(key, d);
    }
    return d;
  }

  toString(): string {
    return this.index === null ? this.type : `${this.type}:${this.index}`;
  }

  toJSON(): string {
    return this.toString();
  }
}

export type DeviceLike = Device | DeviceType | `webgpu:${number}` | { type: DeviceType; index?: number | null };

export const CPU = Device.of('cpu');
export const META = Device.of('meta');

/** Parses `'cpu'`, `'webgpu'`, `'webgpu:0'`, `'meta'`, a Device or `{type, index}`. */
export function toDevice(op: string, d: DeviceLike | null | undefined): Device {
  if (d === null || d === undefined) return CPU;
  if (d instanceof Device) return d;
  if (typeof d === 'string') {
    const m = /^([a-z]+)(?::(\d+))?$/.exec(d);
    if (m && (DEVICE_TYPES as readonly string[]).includes(m[1])) {
      const type = m[1] as DeviceType;
      if (m[2] !== undefined && type !== 'webgpu') {
        throw new DeviceError(`${op}: device '${d}' takes no index`);
      }
      return Device.of(type, m[2] === undefined ? null : Number(m[2]));
    }
    throw new DeviceError(`${op}: expected one of cpu, webgpu, meta device type at start of device string: ${d}`);
  }
  if (typeof d === 'object' && DEVICE_TYPES.includes(d.type)) return Device.of(d.type, d.index ?? null);
  throw new DeviceError(`${op}: not a device: ${String(d)}`);
}
