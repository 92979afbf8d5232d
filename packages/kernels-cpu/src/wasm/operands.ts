import type { TensorImpl } from '@torch-ts/core';
import { kernelHeap } from './kernel-heap';

/** The byte address of `t`'s element 0 in the kernels' memory, or -1 when its storage is elsewhere. */
export function addressOf(t: TensorImpl): number {
  const h = t.storage.host;
  return kernelHeap.owns(h.buffer) ? h.byteOffset + t.storageOffset * t.itemSize : -1;
}

/** Elements from `t`'s element 0 to its last one, for non-negative strides. */
function extent(t: TensorImpl): number {
  let last = 0;
  for (let d = 0; d < t.sizes.length; d++) {
    if (t.sizes[d] === 0) return 0;
    last += (t.sizes[d] - 1) * t.strides[d];
  }
  return last + 1;
}

/**
 * The addresses a WebAssembly kernel call needs, and the temporaries behind them. A tensor
 * whose storage is not in the kernels' memory (a non-shared memory, or one the heap could
 * not hold: Note [CPU storage in WebAssembly memory]) is staged: its elements' byte range
 * is copied into a heap block, strides unchanged, and an output's is copied back by
 * `finish`, which also frees every block. Kernels only ever see addresses.
 */
export class Operands {
  private readonly blocks: number[] = [];
  private readonly sizes: number[] = [];
  private readonly outputs: [TensorImpl, number][] = [];

  /** A zero-filled block of `nbytes`, freed by `finish`. */
  temp(nbytes: number): number {
    const p = kernelHeap.alloc(nbytes);
    if (p < 0) throw new RangeError(`the kernels' memory cannot hold ${nbytes} more bytes`);
    this.blocks.push(p);
    this.sizes.push(nbytes);
    return p;
  }

  /** A block holding `values` as int32 (a kernel's geometry words), freed by `finish`. */
  ints(values: ArrayLike<number>): number {
    const p = this.temp(4 * values.length);
    new Int32Array(kernelHeap.buffer(), p, values.length).set(values);
    return p;
  }

  /** The address of an input's element 0. */
  input(t: TensorImpl): number {
    const a = addressOf(t);
    return a >= 0 ? a : this.stage(t, true);
  }

  /** The address of an output's element 0; staged outputs are written back by `finish`. */
  output(t: TensorImpl, read = false): number {
    const a = addressOf(t);
    if (a >= 0) return a;
    const p = this.stage(t, read);
    this.outputs.push([t, p]);
    return p;
  }

  finish(): void {
    if (this.blocks.length === 0) return;
    const heapBytes = new Uint8Array(kernelHeap.buffer());
    for (const [t, p] of this.outputs) {
      const h = t.storage.host;
      const n = extent(t) * t.itemSize;
      new Uint8Array(h.buffer, h.byteOffset + t.storageOffset * t.itemSize, n).set(heapBytes.subarray(p, p + n));
    }
    for (let i = 0; i < this.blocks.length; i++) kernelHeap.release(this.blocks[i], this.sizes[i]);
    this.blocks.length = 0;
    this.sizes.length = 0;
    this.outputs.length = 0;
  }

  private stage(t: TensorImpl, copyIn: boolean): number {
    const n = extent(t) * t.itemSize;
    const p = this.temp(n);
    if (copyIn) {
      const h = t.storage.host;
      new Uint8Array(kernelHeap.buffer(), p, n).set(new Uint8Array(h.buffer, h.byteOffset + t.storageOffset * t.itemSize, n));
    }
    return p;
  }
}
