import type { TensorImpl } from '@torch-ts/core';
import { forEachRowOfStrides } from '../loops/iterate';

/**
 * Calls `line(offsets)` once per 1-D line along `dim` of tensors of one shape (scans, median,
 * mode): `offsets[k]` is where tensor k's line starts in its storage; the line has
 * `sizes[dim]` elements, `strides[dim]` apart in each tensor. `offsets` is reused between
 * calls. Nothing runs when there is no line.
 */
export function forEachLine(tensors: readonly TensorImpl[], dim: number, line: (offsets: number[]) => void): void {
  const sizes = tensors[0].sizes.slice();
  sizes[dim] = 1;
  const nt = tensors.length;
  const offsets = new Array<number>(nt).fill(0);
  forEachRowOfStrides(
    sizes,
    tensors.map((t) => t.strides),
    tensors.map((t) => t.storageOffset),
    (m, b, s) => {
      for (let i = 0; i < m; i++) {
        for (let k = 0; k < nt; k++) offsets[k] = b[k] + i * s[k];
        line(offsets);
      }
    },
  );
}
