import { Heap } from './heap';
import { memory } from './memory';

/**
 * The one heap over the kernels' memory: tensors' storages where the memory is shared
 * (allocator.ts), and the kernels' scratch and staged operands everywhere.
 */
export const kernelHeap: Heap = new Heap({ memory });
