import type { Device } from '../device';
import { DeviceError, TorchError } from '../errors';
import { getAllocator, type AllocateOptions, type Allocator, type DataPtr, type HostRegion } from './allocator';
import { liveCounts } from './live-counts';
import { RefCounted } from './ref-counted';

type TypedArrayCtor<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

/**
 * A refcounted block of device memory, as c10's StorageImpl. Owned by the TensorImpls that
 * view it (each holds one reference); when the last one releases it, the DataPtr's deleter
 * returns the memory to the allocator at once (Note [RefCounted invariants]).
 * Meta storages have a byte size and no memory.
 */
export class StorageImpl extends RefCounted {
  private dataPtr: DataPtr | null;
  private views: Map<unknown, unknown> | null = null;

  constructor(
    readonly nbytes: number,
    readonly device: Device,
    dataPtr: DataPtr | null,
    readonly allocator: Allocator | null,
  ) {
    super();
    this.dataPtr = dataPtr;
    liveCounts(device.type).storages++;
  }

  /** Allocates `nbytes` on `device` with the allocator registered for its type. */
  static allocate(op: string, nbytes: number, device: Device, options?: AllocateOptions): StorageImpl {
    if (device.type === 'meta') return new StorageImpl(nbytes, device, null, null);
    const allocator = getAllocator(op, device.type);
    let ptr: DataPtr;
    try {
      ptr = allocator.allocate(nbytes, device, { ...options, op });
    } catch (e) {
      // A device that cannot be used (WebGPU before `init()`) is not short of memory.
      if (e instanceof DeviceError) throw e;
      const s = allocator.stats();
      throw new TorchError(
        `${op}: out of memory: tried to allocate ${nbytes} bytes on ${device} (${e instanceof Error ? e.message : String(e)}; live ${s.allocatedBytes} bytes, peak ${s.peakAllocatedBytes} bytes)`,
      );
    }
    return new StorageImpl(nbytes, device, ptr, allocator);
  }

  /** The backend's handle to the memory (a HostRegion on CPU). */
  get data(): unknown {
    if (!this.dataPtr) throw new TorchError(`storage on ${this.device} has no data`);
    return this.dataPtr.data;
  }

  /** The host memory of a CPU storage. */
  get host(): HostRegion {
    if (this.device.type !== 'cpu' || !this.dataPtr) {
      throw new TorchError(`storage on ${this.device} is not host memory`);
    }
    return this.dataPtr.data as HostRegion;
  }

  /** A typed-array view of the whole CPU storage, cached per element type. */
  typed<T>(ArrayType: TypedArrayCtor<T>): T {
    this.views ??= new Map();
    let v = this.views.get(ArrayType) as T | undefined;
    if (!v) {
      const h = this.host;
      v = new ArrayType(h.buffer, h.byteOffset, Math.floor(h.byteLength / ArrayType.BYTES_PER_ELEMENT));
      this.views.set(ArrayType, v);
    }
    return v;
  }

  protected releaseResources(): void {
    const p = this.dataPtr;
    this.dataPtr = null;
    this.views = null;
    liveCounts(this.device.type).storages--;
    if (p?.deleter) p.deleter(p.context);
  }
}
