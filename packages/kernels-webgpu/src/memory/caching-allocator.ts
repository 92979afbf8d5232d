import { TorchError, type AllocatorStats } from '@torch-ts/core';

/**
 * Note [WebGPU caching allocator]
 * PyTorch's CUDA caching allocator, on WebGPU buffers. Creating and destroying a GPUBuffer
 * is slow (and, under Dawn, a driver call), so memory is taken from the device in large
 * segments (one GPUBuffer each) and handed out as blocks: `(buffer, offset, size)`, which a
 * kernel binds as a buffer range.
 *  - Sizes are rounded up to 512 bytes (`ROUND`), so every block offset is a multiple of
 *    512, which satisfies any `minStorageBufferOffsetAlignment` (at most 256 by the spec;
 *    a larger one raises the rounding unit to it).
 *  - Requests of at most 1 MiB come from the small pool, carved out of 2 MiB segments.
 *    Larger ones come from the large pool: a 20 MiB segment for requests under 10 MiB
 *    (PyTorch's kMinLargeAlloc), else a segment of exactly the rounded size.
 *  - A request takes the best fitting free block of its pool (smallest size, then lowest
 *    segment and offset, so the choice is deterministic) and splits off the rest when the
 *    rest is worth keeping (small pool: at least 512 bytes; large pool: more than 1 MiB,
 *    as PyTorch), else the whole block is handed out.
 *  - A freed block merges with its free neighbours in the same segment, so a segment whose
 *    blocks are all free is one block again, and `emptyCache()` can give it back.
 *  - A request over the adapter's `maxStorageBufferBindingSize` cannot be bound by any
 *    kernel: it is refused with a TorchError naming the limit, never served as an unbound
 *    (silently zero) buffer. A segment is never larger than `maxBufferSize`; a request that
 *    fits the binding limit but not a 20 MiB segment gets a segment of its own size.
 *  - When creating a segment fails, the cache is emptied and the creation retried once (as
 *    PyTorch frees cached blocks before it reports OOM); a second failure raises a
 *    TorchError that includes the stats.
 * Why handing a freed block to the next request right away is safe: see Note [Block reuse
 * in submission order] in runtime/queue.ts.
 */

export const ROUND = 512;
export const SMALL_SIZE = 1 << 20; // requests up to 1 MiB use the small pool
export const SMALL_SEGMENT = 2 << 20; // 2 MiB
export const LARGE_SEGMENT = 20 << 20; // 20 MiB
export const MIN_LARGE_ALLOC = 10 << 20; // under this, a large request gets a 20 MiB segment

/** Creates and destroys device buffers; injected so the policy is testable without a GPU. */
export interface BufferFactory<B> {
  create(nbytes: number): B;
  destroy(buffer: B): void;
}

export interface CachingAllocatorLimits {
  /** Largest range a kernel may bind (`maxStorageBufferBindingSize`). */
  readonly maxBindingSize: number;
  /** Largest GPUBuffer (`maxBufferSize`). */
  readonly maxBufferSize: number;
  /** `minStorageBufferOffsetAlignment`. */
  readonly offsetAlignment: number;
}

interface Segment<B> {
  readonly id: number;
  readonly buffer: B;
  readonly size: number;
  readonly small: boolean;
  /** The block at offset 0: it never merges into a neighbour, so it lives as long as the segment. */
  head: Block<B> | null;
}

/** A block of a segment: what a DataPtr carries. `offset` and `size` are in bytes. */
export interface Block<B> {
  readonly segment: Segment<B>;
  readonly offset: number;
  size: number;
  /** Bytes the caller asked for (at most `size`). */
  requested: number;
  allocated: boolean;
  prev: Block<B> | null;
  next: Block<B> | null;
}

/** Counters as PyTorch's `torch.cuda.memory_stats()`: current and peak of each byte count. */
export interface CachingAllocatorStats extends AllocatorStats {
  /** Bytes of blocks handed out (rounded sizes). */
  allocatedBytes: number;
  peakAllocatedBytes: number;
  /** Bytes the callers asked for. */
  requestedBytes: number;
  peakRequestedBytes: number;
  /**
   * Bytes of blocks in use. With one queue a freed block is reusable at once (Note [Block
   * reuse in submission order]), so no block is "freed but still in flight" and this equals
   * `allocatedBytes`; it is kept so the report reads as PyTorch's.
   */
  activeBytes: number;
  peakActiveBytes: number;
  /** Bytes of all segments (GPUBuffers) held. */
  reservedBytes: number;
  peakReservedBytes: number;
  cachedBytes: number;
  /** Successful allocations / frees of blocks. */
  allocations: number;
  frees: number;
  /** Allocations served from a cached free block, without creating a buffer. */
  cacheHits: number;
  /** Segments (GPUBuffers) created and destroyed. */
  segmentAllocations: number;
  segmentFrees: number;
  /** Allocations that had to empty the cache and retry. */
  numAllocRetries: number;
  numOoms: number;
}

export class CachingAllocator<B> {
  private readonly unit: number;
  private readonly smallFree: Block<B>[] = [];
  private readonly largeFree: Block<B>[] = [];
  private readonly segments = new Set<Segment<B>>();
  private nextSegmentId = 0;
  private readonly s: CachingAllocatorStats = {
    allocatedBytes: 0,
    peakAllocatedBytes: 0,
    requestedBytes: 0,
    peakRequestedBytes: 0,
    activeBytes: 0,
    peakActiveBytes: 0,
    reservedBytes: 0,
    peakReservedBytes: 0,
    cachedBytes: 0,
    allocations: 0,
    frees: 0,
    cacheHits: 0,
    segmentAllocations: 0,
    segmentFrees: 0,
    numAllocRetries: 0,
    numOoms: 0,
  };

  constructor(
    private readonly factory: BufferFactory<B>,
    readonly limits: CachingAllocatorLimits,
  ) {
    this.unit = Math.max(ROUND, limits.offsetAlignment);
    if (this.unit % limits.offsetAlignment !== 0) {
      throw new TorchError(`webgpu allocator: minStorageBufferOffsetAlignment ${limits.offsetAlignment} does not divide ${this.unit}`);
    }
  }

  /** The size a request of `nbytes` is rounded to. */
  roundSize(nbytes: number): number {
    return Math.max(this.unit, Math.ceil(nbytes / this.unit) * this.unit);
  }

  /** The size of the segment a new block of `rounded` bytes is carved from. */
  segmentSize(rounded: number): number {
    if (rounded <= SMALL_SIZE) return SMALL_SEGMENT;
    const size = rounded < MIN_LARGE_ALLOC ? LARGE_SEGMENT : rounded;
    return size > this.limits.maxBufferSize ? rounded : size;
  }

  /** A block of at least `nbytes` bytes (`nbytes > 0`). `op` names the caller in errors. */
  allocate(nbytes: number, op = 'webgpu allocator'): Block<B> {
    if (!Number.isSafeInteger(nbytes) || nbytes <= 0) {
      throw new TorchError(`${op}: invalid allocation size ${nbytes} bytes`);
    }
    const rounded = this.roundSize(nbytes);
    if (rounded > this.limits.maxBindingSize || rounded > this.limits.maxBufferSize) {
      throw new TorchError(
        `${op}: cannot allocate ${nbytes} bytes on webgpu: the adapter's maxStorageBufferBindingSize is ` +
          `${this.limits.maxBindingSize} bytes (maxBufferSize ${this.limits.maxBufferSize}), and a kernel cannot bind a larger buffer`,
      );
    }
    const small = rounded <= SMALL_SIZE;
    const pool = small ? this.smallFree : this.largeFree;
    let block = this.takeBestFit(pool, rounded);
    if (block) {
      this.s.cacheHits++;
      this.s.cachedBytes -= block.size;
    } else {
      block = this.newSegment(rounded, small, nbytes, op);
    }
    this.maybeSplit(block, rounded, pool, small);
    block.allocated = true;
    block.requested = nbytes;
    const s = this.s;
    s.allocations++;
    s.allocatedBytes += block.size;
    s.activeBytes += block.size;
    s.requestedBytes += nbytes;
    if (s.allocatedBytes > s.peakAllocatedBytes) s.peakAllocatedBytes = s.allocatedBytes;
    if (s.activeBytes > s.peakActiveBytes) s.peakActiveBytes = s.activeBytes;
    if (s.requestedBytes > s.peakRequestedBytes) s.peakRequestedBytes = s.requestedBytes;
    return block;
  }

  /** Returns a block to its pool, merged with its free neighbours. */
  free(block: Block<B>): void {
    if (!block.allocated) throw new TorchError('webgpu allocator: double free of a block');
    const s = this.s;
    block.allocated = false;
    s.frees++;
    s.allocatedBytes -= block.size;
    s.activeBytes -= block.size;
    s.requestedBytes -= block.requested;
    block.requested = 0;
    const pool = block.segment.small ? this.smallFree : this.largeFree;
    let b = block;
    const prev = b.prev;
    if (prev && !prev.allocated) {
      removeFrom(pool, prev);
      s.cachedBytes -= prev.size;
      prev.size += b.size;
      prev.next = b.next;
      if (b.next) b.next.prev = prev;
      b = prev;
    }
    const next = b.next;
    if (next && !next.allocated) {
      removeFrom(pool, next);
      s.cachedBytes -= next.size;
      b.size += next.size;
      b.next = next.next;
      if (next.next) next.next.prev = b;
    }
    insertSorted(pool, b);
    s.cachedBytes += b.size;
  }

  /** Destroys every segment that holds no allocated block. */
  /** Whether `block` is one of this allocator's (not of a released or lost device's allocator). */
  owns(block: Block<B>): boolean {
    return this.segments.has(block.segment);
  }

  emptyCache(): void {
    for (const pool of [this.smallFree, this.largeFree]) {
      for (let i = pool.length - 1; i >= 0; i--) {
        const b = pool[i];
        if (b.prev === null && b.next === null) {
          pool.splice(i, 1);
          this.releaseSegment(b.segment);
          this.s.cachedBytes -= b.size;
        }
      }
    }
  }

  stats(): CachingAllocatorStats {
    return { ...this.s };
  }

  resetPeakStats(): void {
    const s = this.s;
    s.peakAllocatedBytes = s.allocatedBytes;
    s.peakActiveBytes = s.activeBytes;
    s.peakReservedBytes = s.reservedBytes;
    s.peakRequestedBytes = s.requestedBytes;
  }

  /** Segments held, for tests and diagnostics: size and whether each is wholly free. */
  segmentsInfo(): { size: number; small: boolean; blocks: { offset: number; size: number; allocated: boolean }[] }[] {
    const out = [];
    for (const seg of this.segments) {
      const blocks = [];
      let b: Block<B> | null = seg.head;
      while (b) {
        blocks.push({ offset: b.offset, size: b.size, allocated: b.allocated });
        b = b.next;
      }
      out.push({ size: seg.size, small: seg.small, blocks });
    }
    return out;
  }

  private newSegment(rounded: number, small: boolean, nbytes: number, op: string): Block<B> {
    const size = this.segmentSize(rounded);
    let buffer: B;
    try {
      buffer = this.factory.create(size);
    } catch {
      // Free what the cache holds and try once more, as PyTorch does before reporting OOM.
      this.s.numAllocRetries++;
      this.emptyCache();
      try {
        buffer = this.factory.create(size);
      } catch (e2) {
        this.s.numOoms++;
        throw new TorchError(`${op}: out of memory on webgpu: tried to allocate ${nbytes} bytes (a ${size}-byte buffer): ${e2 instanceof Error ? e2.message : String(e2)}. ${formatStats(this.s)}`);
      }
    }
    const seg: Segment<B> = { id: this.nextSegmentId++, buffer, size, small, head: null };
    this.segments.add(seg);
    const s = this.s;
    s.segmentAllocations++;
    s.reservedBytes += size;
    if (s.reservedBytes > s.peakReservedBytes) s.peakReservedBytes = s.reservedBytes;
    const block: Block<B> = { segment: seg, offset: 0, size, requested: 0, allocated: false, prev: null, next: null };
    seg.head = block;
    return block;
  }

  private releaseSegment(seg: Segment<B>): void {
    this.segments.delete(seg);
    seg.head = null;
    this.s.reservedBytes -= seg.size;
    this.s.segmentFrees++;
    this.factory.destroy(seg.buffer);
  }

  private takeBestFit(pool: Block<B>[], size: number): Block<B> | null {
    // pool is sorted by (size, segment id, offset): the first block with size >= `size`.
    let lo = 0;
    let hi = pool.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pool[mid].size < size) lo = mid + 1;
      else hi = mid;
    }
    if (lo === pool.length) return null;
    const [b] = pool.splice(lo, 1);
    return b;
  }

  private maybeSplit(block: Block<B>, size: number, pool: Block<B>[], small: boolean): void {
    const rest = block.size - size;
    if (small ? rest < this.unit : rest <= SMALL_SIZE) return;
    const tail: Block<B> = {
      segment: block.segment,
      offset: block.offset + size,
      size: rest,
      requested: 0,
      allocated: false,
      prev: block,
      next: block.next,
    };
    if (block.next) block.next.prev = tail;
    block.next = tail;
    block.size = size;
    insertSorted(pool, tail);
    this.s.cachedBytes += rest;
  }
}

function compareBlocks<B>(a: Block<B>, b: Block<B>): number {
  return a.size - b.size || a.segment.id - b.segment.id || a.offset - b.offset;
}

function insertSorted<B>(pool: Block<B>[], b: Block<B>): void {
  let lo = 0;
  let hi = pool.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareBlocks(pool[mid], b) < 0) lo = mid + 1;
    else hi = mid;
  }
  pool.splice(lo, 0, b);
}

function removeFrom<B>(pool: Block<B>[], b: Block<B>): void {
  let lo = 0;
  let hi = pool.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareBlocks(pool[mid], b) < 0) lo = mid + 1;
    else hi = mid;
  }
  const i = pool[lo] === b ? lo : -1;
  if (i < 0) throw new TorchError('webgpu allocator: internal error: a free block is missing from its pool');
  pool.splice(i, 1);
}

export function formatStats(s: CachingAllocatorStats): string {
  return (
    `webgpu memory: allocated ${s.allocatedBytes} bytes (peak ${s.peakAllocatedBytes}), ` +
    `reserved ${s.reservedBytes} bytes (peak ${s.peakReservedBytes}), cached ${s.cachedBytes} bytes, ` +
    `active ${s.activeBytes} bytes (peak ${s.peakActiveBytes}), ${s.allocations} allocations, ${s.cacheHits} cache hits`
  );
}
