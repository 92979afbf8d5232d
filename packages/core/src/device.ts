import { DeviceError, TorchError } from './errors';

/**
 * The device types torch-ts knows. `meta` tensors have shapes and dtypes and no data.
 * `privateuseone` is the device of an out-of-tree backend, printed under the name that
 * backend gives it (Note [PrivateUse1]).
 */
export type DeviceType = 'cpu' | 'webgpu' | 'meta' | 'privateuseone';

const DEVICE_TYPES: readonly DeviceType[] = ['cpu', 'webgpu', 'meta', 'privateuseone'];

/**
 * Note [PrivateUse1]
 * As in PyTorch, core reserves one device type and one dispatch key (`PrivateUse1`, with
 * `AutogradPrivateUse1`) for a backend that lives outside this repository. The backend
 * package claims it with `registerPrivateUse1Backend(name, impls, options)` (PyTorch's
 * `torch.utils.rename_privateuse1_backend` plus the registrations): from then on the device
 * parses from `'foo'` / `'foo:1'` as well as `'privateuseone'`, and prints as `foo:0` in
 * devices, reprs and errors. `Device.type` stays `'privateuseone'`, the key every registry
 * (allocators, readers, uploaders, runtimes) is indexed by, so core's tables keep a fixed
 * set of entries; `String(device)` is the name users see. The name is claimed once per
 * process, as in PyTorch: a second, different name is an error.
 * For TypeScript, the backend package declares its name so that `{ device: 'foo' }`
 * type-checks:
 *   declare module '@torch-ts/core' { interface PrivateUse1DeviceNames { foo: true } }
 */
export interface PrivateUse1DeviceNames {}

/** The names out-of-tree backends gave the `privateuseone` device type (declared by those packages). */
export type PrivateUse1Name = Extract<keyof PrivateUse1DeviceNames, string>;

const PRIVATE_USE_1 = 'privateuseone';
let privateUse1Name: string = PRIVATE_USE_1;

/**
 * Names the `privateuseone` device type, as `torch.utils.rename_privateuse1_backend`: once
 * per process (renaming again to the same name is allowed, to another one is an error).
 * `registerPrivateUse1Backend` calls it; a backend rarely needs to call it itself.
 */
export function renamePrivateUse1Backend(name: string): void {
  if (typeof name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new DeviceError(`renamePrivateUse1Backend: a backend name is lower-case letters, digits and _, starting with a letter, but got ${JSON.stringify(name)}`);
  }
  if (name === privateUse1Name) return;
  if (privateUse1Name !== PRIVATE_USE_1) {
    throw new DeviceError(`renamePrivateUse1Backend: the privateuseone backend has already been named! Current backend: ${privateUse1Name}, new name: ${name}`);
  }
  if (DEVICE_TYPES.some((t) => t === name)) {
    throw new DeviceError(`renamePrivateUse1Backend: '${name}' is already a device type; pick another name for the backend`);
  }
  privateUse1Name = name;
}

/** The name of the `privateuseone` device type: `'privateuseone'` until a backend renames it. */
export function privateUse1BackendName(): string {
  return privateUse1Name;
}

/** How a device type prints: its own name, or the name its backend gave `privateuseone`. */
export function deviceTypeName(type: DeviceType): string {
  return type === PRIVATE_USE_1 ? privateUse1Name : type;
}

/** Device types whose devices carry an index (`webgpu:0`), as accelerators do in PyTorch. */
const hasIndex = (type: DeviceType): boolean => type === 'webgpu' || type === PRIVATE_USE_1;

/** The device type a name denotes (`'foo'` once a backend took that name), or undefined. */
function parseType(name: string): DeviceType | undefined {
  if (name === privateUse1Name) return PRIVATE_USE_1;
  return DEVICE_TYPES.find((t) => t === name);
}

/**
 * A device, as `torch.device`: a type and, for accelerators, an index. CPU and meta have no
 * index (`null`), as in PyTorch, and print as `cpu` / `meta`; WebGPU prints `webgpu:0`, and
 * an out-of-tree backend's device its name (`foo:0`, Note [PrivateUse1]).
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
    const idx = hasIndex(type) ? (index ?? 0) : null;
    const key = idx === null ? type : `${type}:${idx}`;
    let d = Device.interned.get(key);
    if (!d) {
      d = new Device(type, idx);
      Device.interned.set(key, d);
    }
    return d;
  }

  toString(): string {
    const name = deviceTypeName(this.type);
    return this.index === null ? name : `${name}:${this.index}`;
  }

  toJSON(): string {
    return this.toString();
  }
}

export type DeviceLike =
  | Device
  | DeviceType
  | `webgpu:${number}`
  | `privateuseone:${number}`
  | PrivateUse1Name
  | `${PrivateUse1Name}:${number}`
  | { type: DeviceType | PrivateUse1Name; index?: number | null };

export const CPU = Device.of('cpu');
export const META = Device.of('meta');

/** Parses `'cpu'`, `'webgpu'`, `'webgpu:0'`, `'meta'`, a PrivateUse1 backend's `'foo'` / `'foo:1'`, a Device or `{type, index}`. */
export function toDevice(op: string, d: DeviceLike | null | undefined): Device {
  if (d === null || d === undefined) return CPU;
  if (d instanceof Device) return d;
  if (typeof d === 'string') {
    const m = /^([a-z][a-z0-9_]*)(?::(\d+))?$/.exec(d);
    const type = m ? parseType(m[1]) : undefined;
    if (m && type) {
      if (m[2] !== undefined && !hasIndex(type)) {
        throw new DeviceError(`${op}: device '${d}' takes no index`);
      }
      return Device.of(type, m[2] === undefined ? null : Number(m[2]));
    }
    throw new DeviceError(`${op}: expected one of cpu, webgpu, meta, ${privateUse1Name} device type at start of device string: ${d}`);
  }
  if (typeof d === 'object') {
    const type = typeof d.type === 'string' ? parseType(d.type) : undefined;
    if (type) return Device.of(type, d.index ?? null);
  }
  throw new DeviceError(`${op}: not a device: ${String(d)}`);
}

/**
 * Note [The default device]
 * PyTorch 2.x's `torch.set_default_device(d)` and `with torch.device(d):` make the factory
 * functions (`zeros`, `empty`, `full`, `tensor`, `arange`, `rand`, ...) allocate on `d`
 * when no `device` is given; ops on existing tensors keep their inputs' device. torch-ts
 * spells the scope as a callback, as its other context managers are:
 * `torch.withDevice('meta', () => new nn.Linear(4, 4))` builds a module whose parameters
 * are on meta (shapes and dtypes, no data), and restores the previous default even when the
 * callback throws. The default is read only by `factoryDevice`, never by `toDevice`.
 */
let defaultDevice: Device = CPU;

/** The device factory functions use when none is given (`torch.get_default_device()`). */
export function getDefaultDevice(): Device {
  return defaultDevice;
}

/** `torch.set_default_device(d)`: null means cpu again. */
export function setDefaultDevice(d: DeviceLike | null): void {
  defaultDevice = d === null ? CPU : toDevice('setDefaultDevice', d);
}

/** `with torch.device(d): fn()`: runs `fn` with `d` as the default device (Note [The default device]). */
export function withDevice<T>(d: DeviceLike, fn: () => T): T {
  const next = toDevice('withDevice', d);
  if (typeof fn !== 'function') throw new TorchError(`withDevice: expected a function to run, but got ${typeof fn}`);
  const prev = defaultDevice;
  defaultDevice = next;
  try {
    return fn();
  } finally {
    defaultDevice = prev;
  }
}

/** A factory's device: the given one, else the default (Note [The default device]). */
export function factoryDevice(op: string, d: DeviceLike | null | undefined): Device {
  return d === null || d === undefined ? defaultDevice : toDevice(op, d);
}
