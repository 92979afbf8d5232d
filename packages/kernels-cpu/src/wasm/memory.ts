/**
 * Note [CPU storage in WebAssembly memory]
 * CPU tensors live in one WebAssembly.Memory, so that the kernels of the AssemblyScript
 * module (Note [Kernels in AssemblyScript]) read and write them in place, by address, with
 * no copies. Where the platform allows (Node; a cross-origin-isolated page) the memory is
 * shared, that is backed by a SharedArrayBuffer:
 *  - growing it never detaches anything: `memory.buffer` is a new, longer SharedArrayBuffer
 *    over the same bytes, and typed arrays made on an older one stay valid over their range,
 *    so StorageImpl's cached views (Note [CPU storage is a region of an ArrayBuffer]) live as
 *    long as their storage;
 *  - worker threads instantiate the same module on the same memory (Note [CPU thread pool]).
 * A non-shared memory detaches its buffer on growth, so there it only holds the kernels'
 * scratch, and tensors keep their own ArrayBuffers (the kernels stage them in and out: see
 * `heapAddress`). The memory is wasm32: 4 GiB at most; what does not fit also gets an
 * ArrayBuffer of its own (allocator.ts).
 * The first HEAP_BASE bytes are the module's own (its static data, the thread pool's control
 * words); the heap (heap.ts) hands out the rest.
 */
export const HEAP_BASE = 64 * 1024;
export const MAX_PAGES = 65536;

function makeMemory(): WebAssembly.Memory {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  if (typeof SharedArrayBuffer === 'function' && isolated !== false) {
    try {
      return new WebAssembly.Memory({ initial: 16, maximum: MAX_PAGES, shared: true });
    } catch {
      // An engine without threads, or one that cannot reserve 4 GiB: a plain memory.
    }
  }
  return new WebAssembly.Memory({ initial: 16 });
}

export const memory: WebAssembly.Memory = makeMemory();

/** Whether `memory` is SharedArrayBuffer-backed (tensors live in it; threads can run). */
export const memoryIsShared: boolean = typeof SharedArrayBuffer === 'function' && memory.buffer instanceof SharedArrayBuffer;
