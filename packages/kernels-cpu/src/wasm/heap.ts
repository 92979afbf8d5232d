import { HEAP_BASE } from './memory';

/**
 * Note [The CPU heap]
 * Hands out blocks of a WebAssembly.Memory from HEAP_BASE up, as a malloc would:
 *  - every block starts and ends on a 64-byte boundary (a cache line; v128 loads and the
 *    8-byte alignment of Note [CPU storage is a region of an ArrayBuffer] follow);
 *  - requests of at most SMALL_MAX bytes have exact-size free lists (as PyTorch's small
 *    pool keeps small blocks apart): a freed small block is reused by the next request of
 *    its size, with no search;
 *  - larger blocks are best-fit from a list of free ranges sorted by size; a range larger
 *    than the request is split, and a freed range merges with free neighbours (and with the
 *    unused top of the heap), so freeing in any order leaves no adjacent free ranges;
 *  - when nothing fits, the heap carves from its top, growing the memory; when the memory
 *    cannot grow (wasm32's 4 GiB, or the engine's limit) `alloc` returns -1 and the caller
 *    decides (the CPU allocator gives the request an ArrayBuffer of its own).
 * Blocks come back zero-filled, as fresh ArrayBuffers do: memory past the heap's high-water
 * mark has never been written (grown pages are zero), so only reused bytes are cleared; a
 * caller that overwrites the whole block passes `uninitialized` and skips even that (Note
 * [Uninitialized outputs]).
 * The heap keeps no headers in the memory: sizes and ranges live in JS maps, so a kernel
 * that writes past its tensor cannot corrupt the allocator's bookkeeping.
 */
const ALIGN = 64;
const SMALL_MAX = 4096;
const PAGE = 65536;

interface Range {
  start: number;
  size: number;
}

export interface HeapOptions {
  /** The memory to manage. */
  readonly memory: WebAssembly.Memory;
  /** First byte the heap may use; below it the memory is someone else's. */
  readonly base?: number;
  /** Most pages the memory may grow to (default: the engine's limit). */
  readonly maxPages?: number;
  /** Zeroes `n` bytes at `ptr` (default: a typed-array fill; Note [Filling shared memory in WebAssembly]). */
  readonly zero?: (ptr: number, n: number) => void;
}

export class Heap {
  private readonly memory: WebAssembly.Memory;
  private readonly base: number;
  private readonly maxPages: number;
  private readonly zero: ((ptr: number, n: number) => void) | undefined;
  /** First byte never handed out since it was last free at the top. */
  private top: number;
  /** Bytes at or past this have never been written. */
  private highWater: number;
  private bytes: Uint8Array;
  private readonly small: number[][] = [];
  /** Free large ranges, sorted by (size, start). */
  private readonly free: Range[] = [];
  private readonly freeByStart = new Map<number, Range>();
  private readonly freeByEnd = new Map<number, Range>();
  private readonly generations = new WeakSet<ArrayBufferLike>();
  /** Bytes of free blocks (small lists and large ranges). */
  freeBytes = 0;

  constructor(options: HeapOptions) {
    this.memory = options.memory;
    this.base = Math.ceil((options.base ?? HEAP_BASE) / ALIGN) * ALIGN;
    this.maxPages = options.maxPages ?? 65536;
    this.zero = options.zero;
    this.top = this.base;
    this.highWater = this.base;
    this.bytes = new Uint8Array(this.memory.buffer);
    this.generations.add(this.memory.buffer);
  }

  /** The memory's current buffer (a new object after each growth). */
  buffer(): ArrayBufferLike {
    const b = this.memory.buffer;
    if (b !== this.bytes.buffer) {
      this.bytes = new Uint8Array(b);
      this.generations.add(b);
    }
    return b;
  }

  /** Whether `buffer` is one of this heap's memory buffers (so a region of it has an address). */
  owns(buffer: ArrayBufferLike): boolean {
    return this.generations.has(buffer);
  }

  /** Bytes between the heap's base and its top (in use, free, or padding). */
  get reservedBytes(): number {
    return this.top - this.base;
  }

  /** The rounded size a request of `nbytes` takes (what `free` must be given back). */
  static blockSize(nbytes: number): number {
    return nbytes <= ALIGN ? ALIGN : Math.ceil(nbytes / ALIGN) * ALIGN;
  }

  /**
   * The address of a block of `Heap.blockSize(nbytes)` bytes, or -1: zero-filled, unless
   * `uninitialized` (then a reused block keeps whatever it held).
   */
  alloc(nbytes: number, uninitialized = false): number {
    const size = Heap.blockSize(nbytes);
    let ptr = -1;
    if (size <= SMALL_MAX) {
      const list = this.small[size / ALIGN];
      if (list !== undefined && list.length > 0) {
        ptr = list.pop()!;
        this.freeBytes -= size;
      }
    }
    if (ptr < 0) ptr = this.takeRange(size);
    if (ptr < 0) ptr = this.carve(size);
    if (ptr < 0) return -1;
    if (uninitialized) return ptr;
    const dirtyEnd = Math.min(ptr + size, this.highWater);
    if (dirtyEnd > ptr) {
      if (this.zero !== undefined) this.zero(ptr, dirtyEnd - ptr);
      else {
        this.buffer();
        this.bytes.fill(0, ptr, dirtyEnd);
      }
    }
    return ptr;
  }

  /** Returns the block at `ptr` of `Heap.blockSize(nbytes)` bytes. */
  release(ptr: number, nbytes: number): void {
    const size = Heap.blockSize(nbytes);
    this.freeBytes += size;
    if (size <= SMALL_MAX) {
      (this.small[size / ALIGN] ??= []).push(ptr);
      return;
    }
    let start = ptr;
    let end = ptr + size;
    const before = this.freeByEnd.get(start);
    if (before !== undefined) {
      this.unlink(before);
      start = before.start;
    }
    const after = this.freeByStart.get(end);
    if (after !== undefined) {
      this.unlink(after);
      end = after.start + after.size;
    }
    if (end === this.top) {
      this.top = start;
      this.freeBytes -= end - start;
      return;
    }
    this.link({ start, size: end - start });
  }

  private carve(size: number): number {
    const end = this.top + size;
    if (end > this.memory.buffer.byteLength) {
      const pages = Math.ceil((end - this.memory.buffer.byteLength) / PAGE);
      const have = this.memory.buffer.byteLength / PAGE;
      if (have + pages > this.maxPages) return -1;
      // Grow by at least an eighth, so that a run of growing requests costs few grow calls.
      const step = Math.min(Math.max(pages, Math.ceil(have / 8)), this.maxPages - have);
      try {
        this.memory.grow(step);
      } catch {
        try {
          this.memory.grow(pages);
        } catch {
          return -1;
        }
      }
      this.buffer();
    }
    const ptr = this.top;
    this.top = end;
    if (end > this.highWater) this.highWater = end;
    return ptr;
  }

  /** Best fit among the free ranges; the rest of the range stays free. */
  private takeRange(size: number): number {
    const free = this.free;
    let lo = 0;
    let hi = free.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (free[mid].size < size) lo = mid + 1;
      else hi = mid;
    }
    if (lo === free.length) return -1;
    const r = free[lo];
    this.unlink(r);
    this.freeBytes -= size;
    if (r.size > size) this.link({ start: r.start + size, size: r.size - size });
    return r.start;
  }

  private link(r: Range): void {
    this.free.splice(this.position(r), 0, r);
    this.freeByStart.set(r.start, r);
    this.freeByEnd.set(r.start + r.size, r);
  }

  private unlink(r: Range): void {
    this.free.splice(this.position(r), 1);
    this.freeByStart.delete(r.start);
    this.freeByEnd.delete(r.start + r.size);
  }

  /** Where `r` is, or goes, in the free list's (size, start) order. */
  private position(r: Range): number {
    const free = this.free;
    let lo = 0;
    let hi = free.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = free[mid];
      if (m.size < r.size || (m.size === r.size && m.start < r.start)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
