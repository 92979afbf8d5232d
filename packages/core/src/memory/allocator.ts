import { DeviceError } from '../errors';
import { deviceTypeName, type Device, type DeviceType } from '../device';

/**
 * A pointer to device memory with what it takes to free it, as c10's DataPtr: `data` is
 * what kernels read (a host region for CPU, a buffer binding for WebGPU), `context` is what
 * the deleter needs. A DataPtr is owned by exactly one StorageImpl.
 */
export interface DataPtr<T = unknown> {
  readonly data: T;
  readonly context: unknown;
  readonly deleter: ((context: unknown) => void) | null;
  readonly device: Device;
}

/** CPU memory is a region of an ArrayBuffer (a WebAssembly.Memory's buffer is one too). */
export interface HostRegion {
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly byteLength: number;
}

/**
 * Note [Uninitialized outputs]
 * Allocators hand out zero-filled memory by default, as a fresh ArrayBuffer is (`zeros` and
 * kernels that accumulate into their output rely on it). An op whose kernel writes every
 * element of its output (pointwise ops, both on their fast path and through `allocateOutput`;
 * the copies of `to`, `clone` and casts; softmax, mm and bmm) asks for `uninitialized`
 * memory instead, so that a reused block is not cleared only to be overwritten: for a
 * memory-bound op like `a + b` the clearing is a third more traffic. An allocator may ignore
 * the option (zero-filled memory is a valid uninitialized block).
 */
export interface AllocateOptions {
  /** The caller overwrites every byte before reading any: the allocator may skip zero-filling. */
  readonly uninitialized?: boolean;
  /** The op that asks, so that an allocator's errors can name it. */
  readonly op?: string;
}

/** Byte counters an allocator keeps for `memory.stats`. */
export interface AllocatorStats {
  /** Bytes handed out and not yet returned. */
  allocatedBytes: number;
  peakAllocatedBytes: number;
  /** Bytes the allocator holds from the system, in use or cached. */
  reservedBytes: number;
  /** Reserved bytes not in use (a caching allocator's free blocks). */
  cachedBytes: number;
  allocations: number;
  frees: number;
}

export interface Allocator {
  readonly deviceType: DeviceType;
  /**
   * Returns `nbytes` of memory; never fewer. Throws a TorchError when it cannot: a
   * DeviceError when the device cannot be used at all (not initialised, no such device),
   * any other error counts as out of memory.
   */
  allocate(nbytes: number, device: Device, options?: AllocateOptions): DataPtr;
  stats(): AllocatorStats;
  resetPeakStats(): void;
  /** Returns cached, unused memory to the system (no-op for allocators without a cache). */
  emptyCache?(): void;
}

const allocators = new Map<DeviceType, Allocator>();

/** Backends register their allocator on import, one per device type. */
export function registerAllocator(allocator: Allocator): void {
  allocators.set(allocator.deviceType, allocator);
}

export function getAllocator(op: string, type: DeviceType): Allocator {
  const a = allocators.get(type);
  if (!a) {
    // The WebGPU backend registers itself when `torch.webgpu.init()` loads it: before that,
    // the user's mistake is the same as with the backend loaded and no device found yet.
    if (type === 'webgpu') throw new DeviceError(`${op}: WebGPU is not initialised: call \`await torch.webgpu.init()\` first`);
    throw new DeviceError(`${op}: no allocator is registered for device type '${deviceTypeName(type)}'`);
  }
  return a;
}

export function hasAllocator(type: DeviceType): boolean {
  return allocators.has(type);
}

export function emptyStats(): AllocatorStats {
  return { allocatedBytes: 0, peakAllocatedBytes: 0, reservedBytes: 0, cachedBytes: 0, allocations: 0, frees: 0 };
}
