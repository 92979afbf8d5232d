import { Heap } from './heap';
import { wasm } from './kernels';
import { memory } from './memory';

/**
 * The one heap over the kernels' memory: tensors' storages where the memory is shared
 * (allocator.ts), and the kernels' scratch and staged operands everywhere. Reused blocks are
 * zeroed by the module's memory.fill (Note [Filling shared memory in WebAssembly]).
 */
export const kernelHeap: Heap = new Heap({ memory, zero: wasm === null ? undefined : (ptr, n) => wasm!.fill8(ptr, 0, n) });
