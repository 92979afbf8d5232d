import { DeviceError, TorchError, type AllocateOptions, type Allocator, type AllocatorStats, type DataPtr, type Device, type HostRegion } from '@torch-ts/core';
import type { Heap } from './wasm/heap';
import { kernelHeap } from './wasm/kernel-heap';
import { memoryIsShared } from './wasm/memory';

/**
 * Note [CPU storage is a region of an ArrayBuffer]
 * A CPU storage's data is a `HostRegion` (buffer, byteOffset, byteLength), not an
 * ArrayBuffer of its own, and every kernel reaches memory only through typed-array views
 * made from that region (`StorageImpl.typed`) or, for the WebAssembly kernels, through its
 * address in the kernels' memory. That keeps the allocation policy out of the kernels: the
 * allocator hands out 64-byte-aligned blocks of one shared WebAssembly.Memory (Note [CPU
 * storage in WebAssembly memory], Note [The CPU heap]) and, where that memory cannot be
 * shared or is full, ArrayBuffers of their own. Alignment is the one thing every region
 * keeps: it starts at a multiple of 8 bytes, so Float64Array, BigInt64Array and the
 * Int32Array word views of int64 data can be made on any storage. Every region starts
 * zero-filled, as a fresh ArrayBuffer does, unless the request says `uninitialized` (Note
 * [Uninitialized outputs]).
 */

/** What the deleter of one allocation needs. */
interface AllocationContext {
  readonly nbytes: number;
  /** The block's address in the heap, or -1 for an ArrayBuffer of its own. */
  readonly ptr: number;
  freed: boolean;
}

/**
 * The CPU allocator: blocks of the heap when the kernels' memory is shared, else (and for
 * what the heap cannot hold) one ArrayBuffer per request. `allocatedBytes` counts the bytes
 * requested; `reservedBytes` the heap's extent plus the live ArrayBuffers; `cachedBytes`
 * the heap's free blocks. The counters change at once when the owning StorageImpl runs the
 * deleter (Note [RefCounted invariants]).
 */
export class CpuAllocator implements Allocator {
  readonly deviceType = 'cpu' as const;
  private allocatedBytes = 0;
  private peakAllocatedBytes = 0;
  private ownBufferBytes = 0;
  private allocations = 0;
  private frees = 0;
  private readonly deleter = (context: unknown): void => this.free(context as AllocationContext);

  /** `heap`: where storages live (null: ArrayBuffers only). */
  constructor(readonly heap: Heap | null = defaultHeap) {}

  allocate(nbytes: number, device: Device, options?: AllocateOptions): DataPtr<HostRegion> {
    if (device.type !== 'cpu') {
      throw new DeviceError(`${options?.op ?? 'CpuAllocator'}: cannot allocate on device ${device}`);
    }
    if (!Number.isSafeInteger(nbytes) || nbytes < 0) {
      throw new TorchError(`CpuAllocator: invalid allocation size ${nbytes} bytes`);
    }
    const heap = this.heap;
    const ptr = heap === null ? -1 : heap.alloc(nbytes, options?.uninitialized === true);
    let data: HostRegion;
    if (ptr >= 0) {
      data = { buffer: heap!.buffer(), byteOffset: ptr, byteLength: nbytes };
    } else {
      let buffer: ArrayBuffer;
      try {
        buffer = new ArrayBuffer(nbytes);
      } catch (e) {
        throw new TorchError(`CpuAllocator: out of memory allocating ${nbytes} bytes (${e instanceof Error ? e.message : String(e)})`);
      }
      this.ownBufferBytes += nbytes;
      data = { buffer, byteOffset: 0, byteLength: nbytes };
    }
    this.allocatedBytes += nbytes;
    if (this.allocatedBytes > this.peakAllocatedBytes) this.peakAllocatedBytes = this.allocatedBytes;
    this.allocations++;
    const context: AllocationContext = { nbytes, ptr, freed: false };
    return { data, context, deleter: this.deleter, device };
  }

  private free(context: AllocationContext): void {
    if (context.freed) throw new TorchError('CpuAllocator: double free of a CPU allocation');
    context.freed = true;
    this.allocatedBytes -= context.nbytes;
    this.frees++;
    if (context.ptr >= 0) this.heap!.release(context.ptr, context.nbytes);
    else this.ownBufferBytes -= context.nbytes;
  }

  stats(): AllocatorStats {
    return {
      allocatedBytes: this.allocatedBytes,
      peakAllocatedBytes: this.peakAllocatedBytes,
      reservedBytes: (this.heap?.reservedBytes ?? 0) + this.ownBufferBytes,
      cachedBytes: this.heap?.freeBytes ?? 0,
      allocations: this.allocations,
      frees: this.frees,
    };
  }

  resetPeakStats(): void {
    this.peakAllocatedBytes = this.allocatedBytes;
  }

  /**
   * A WebAssembly.Memory cannot shrink, so the heap's free blocks stay reserved: they are
   * reused by later requests (Note [The CPU heap]).
   */
  emptyCache(): void {}
}

/** The heap of the kernels' memory, where it is shared (Note [CPU storage in WebAssembly memory]). */
export const defaultHeap: Heap | null = memoryIsShared ? kernelHeap : null;

export const cpuAllocator: CpuAllocator = new CpuAllocator();
