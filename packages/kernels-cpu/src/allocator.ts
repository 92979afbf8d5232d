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
  readonly buffer: ArrayBuffer;
  freed: boolean;
}

/**
 * Note [CPU allocator cache]
 * A fresh ArrayBuffer of a few MiB costs the OS a page fault and a zeroing per 4 KiB page on
 * first touch, and its release waits for a GC; in a loop of large ops (`y = a.add(b)`, then
 * dispose) that is a large share of the op (measured: add of two 4M float32 tensors). So a
 * freed buffer of at least CACHE_MIN bytes is kept, by exact byte size, up to CACHE_MAX
 * bytes in all (the oldest dropped first), and the next request of that size gets it back,
 * zero-filled as a fresh one would be (memset is much cheaper than faulting pages in). Only the deleter puts a
 * buffer back: the owning StorageImpl's count reached zero, so no tensor can reach it.
 * Small buffers are left to V8, which allocates them fast. `emptyCache()` drops everything;
 * `cachedBytes` counts what is kept and `reservedBytes` is allocated plus cached.
 */
const CACHE_MIN = 1 << 20;
const CACHE_MAX = 256 * 1024 * 1024;

/**
 * The CPU allocator: one ArrayBuffer per request (large ones reused, Note [CPU allocator
 * cache]). Memory returns to the JS heap when the last typed-array view of an uncached
 * buffer is collected; the counters drop at once, when the owning StorageImpl runs the
 * deleter (Note [RefCounted invariants]).
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
    let buffer = nbytes >= CACHE_MIN ? this.takeCached(nbytes) : undefined;
    if (buffer === undefined) {
      try {
        buffer = new ArrayBuffer(nbytes);
      } catch (e) {
        this.emptyCache();
        try {
          buffer = new ArrayBuffer(nbytes);
        } catch {
          throw new TorchError(`CpuAllocator: out of memory allocating ${nbytes} bytes (${(e as Error).message})`);
        }
      }
    }
    this.allocatedBytes += nbytes;
    if (this.allocatedBytes > this.peakAllocatedBytes) this.peakAllocatedBytes = this.allocatedBytes;
    this.allocations++;
    const context: AllocationContext = { nbytes, buffer, freed: false };
    return { data: { buffer, byteOffset: 0, byteLength: nbytes }, context, deleter: this.deleter, device };
  }

  private free(context: AllocationContext): void {
    if (context.freed) throw new TorchError('CpuAllocator: double free of a CPU allocation');
    context.freed = true;
    this.allocatedBytes -= context.nbytes;
    this.frees++;
    if (context.nbytes >= CACHE_MIN && context.nbytes <= CACHE_MAX) this.putCached(context.buffer);
  }

  /** Buffers kept for reuse, by byte size; `order` is the order they were put back in. */
  private readonly cache = new Map<number, ArrayBuffer[]>();
  private readonly order: ArrayBuffer[] = [];
  private cachedBytes = 0;

  private takeCached(nbytes: number): ArrayBuffer | undefined {
    const list = this.cache.get(nbytes);
    const buffer = list?.pop();
    if (buffer === undefined) return undefined;
    this.order.splice(this.order.lastIndexOf(buffer), 1);
    this.cachedBytes -= nbytes;
    new Uint8Array(buffer).fill(0);
    return buffer;
  }

  private putCached(buffer: ArrayBuffer): void {
    const n = buffer.byteLength;
    while (this.cachedBytes + n > CACHE_MAX && this.order.length > 0) {
      const old = this.order.shift()!;
      const list = this.cache.get(old.byteLength)!;
      list.splice(list.indexOf(old), 1);
      this.cachedBytes -= old.byteLength;
    }
    let list = this.cache.get(n);
    if (list === undefined) this.cache.set(n, (list = []));
    list.push(buffer);
    this.order.push(buffer);
    this.cachedBytes += n;
  }

  stats(): AllocatorStats {
    return {
      allocatedBytes: this.allocatedBytes,
      peakAllocatedBytes: this.peakAllocatedBytes,
      reservedBytes: this.allocatedBytes + this.cachedBytes,
      cachedBytes: this.cachedBytes,
      allocations: this.allocations,
      frees: this.frees,
    };
  }

  resetPeakStats(): void {
    this.peakAllocatedBytes = this.allocatedBytes;
  }

  /** Drops every cached buffer (Note [CPU allocator cache]). */
  emptyCache(): void {
    this.cache.clear();
    this.order.length = 0;
    this.cachedBytes = 0;
  }
}

export const cpuAllocator: CpuAllocator = new CpuAllocator();
