import { TorchError, type Allocator, type AllocatorStats, type DataPtr, type Device, type HostRegion } from '@torch-ts/core';

/**
 * Note [CPU storage is a region of an ArrayBuffer]
 * A CPU storage's data is a `HostRegion` (buffer, byteOffset, byteLength), not an
 * ArrayBuffer of its own, and every kernel reaches memory only through typed-array views
 * made from that region (`StorageImpl.typed`). That keeps the allocation policy out of the
 * kernels: today each request gets a fresh ArrayBuffer at offset 0, but a later allocator
 * can hand out 8-byte-aligned regions of ONE WebAssembly.Memory (so that WebAssembly SIMD
 * kernels address tensors by pointer, with no copies) or of a SharedArrayBuffer (so worker
 * threads see the same tensors), and no kernel changes. Alignment is the one thing such an
 * allocator must keep: regions start at a multiple of 8 bytes, so Float64Array,
 * BigInt64Array and the Int32Array word views of int64 data can be made on any storage.
 * A fresh ArrayBuffer starts at offset 0 and is zero-filled, which satisfies it trivially.
 */

/** What the deleter of one allocation needs: its size, and whether it already ran. */
interface AllocationContext {
  readonly nbytes: number;
  freed: boolean;
}

/**
 * The CPU allocator: one ArrayBuffer per request, no cache, so `reservedBytes` always
 * equals `allocatedBytes` and `cachedBytes` is 0. Memory returns to the JS heap when the
 * last typed-array view of the buffer is collected; the counters drop at once, when the
 * owning StorageImpl runs the deleter (Note [RefCounted invariants]).
 */
export class CpuAllocator implements Allocator {
  readonly deviceType = 'cpu' as const;
  private allocatedBytes = 0;
  private peakAllocatedBytes = 0;
  private allocations = 0;
  private frees = 0;
  private readonly deleter = (context: unknown): void => this.free(context as AllocationContext);

  allocate(nbytes: number, device: Device): DataPtr<HostRegion> {
    if (device.type !== 'cpu') {
      throw new TorchError(`CpuAllocator: cannot allocate on device ${device}`);
    }
    if (!Number.isSafeInteger(nbytes) || nbytes < 0) {
      throw new TorchError(`CpuAllocator: invalid allocation size ${nbytes} bytes`);
    }
    let buffer: ArrayBuffer;
    try {
      buffer = new ArrayBuffer(nbytes);
    } catch (e) {
      throw new TorchError(`CpuAllocator: out of memory allocating ${nbytes} bytes (${(e as Error).message})`);
    }
    this.allocatedBytes += nbytes;
    if (this.allocatedBytes > this.peakAllocatedBytes) this.peakAllocatedBytes = this.allocatedBytes;
    this.allocations++;
    const context: AllocationContext = { nbytes, freed: false };
    return { data: { buffer, byteOffset: 0, byteLength: nbytes }, context, deleter: this.deleter, device };
  }

  private free(context: AllocationContext): void {
    if (context.freed) throw new TorchError('CpuAllocator: double free of a CPU allocation');
    context.freed = true;
    this.allocatedBytes -= context.nbytes;
    this.frees++;
  }

  stats(): AllocatorStats {
    return {
      allocatedBytes: this.allocatedBytes,
      peakAllocatedBytes: this.peakAllocatedBytes,
      reservedBytes: this.allocatedBytes,
      cachedBytes: 0,
      allocations: this.allocations,
      frees: this.frees,
    };
  }

  resetPeakStats(): void {
    this.peakAllocatedBytes = this.allocatedBytes;
  }

  /** Nothing is cached. */
  emptyCache(): void {}
}

export const cpuAllocator: CpuAllocator = new CpuAllocator();
