import type { JoinImpls, TensorImpl } from '@torch-ts/core';
import { bytes, itemWidth } from '../loops/arrays';
import { copy } from './copy';

/**
 * cat: a part that is contiguous, of out's dtype, into a contiguous out is `outer` blocks
 * of `size * inner` consecutive elements, each moved with one `TypedArray.set` of bytes
 * (outer = the product of the sizes before `dim`, inner = after it). Any other part goes
 * through `copy` into its window of out (which converts dtypes and walks strides).
 */
export const cat: JoinImpls['cat'] = (out, parts, dim) => {
  let at = 0;
  for (const p of parts) {
    const n = p.sizes[dim];
    if (p.numel > 0) {
      if (out.isContiguous && p.isContiguous && p.dtype === out.dtype) setBlocks(out, p, dim, at);
      else {
        const v = out.view(p.sizes, out.strides, out.storageOffset + at * out.strides[dim]);
        try {
          copy(v, p);
        } finally {
          v.release();
        }
      }
    }
    at += n;
  }
};

function setBlocks(out: TensorImpl, p: TensorImpl, dim: number, at: number): void {
  const width = itemWidth(out);
  let outer = 1;
  for (let d = 0; d < dim; d++) outer *= out.sizes[d];
  let inner = 1;
  for (let d = dim + 1; d < out.sizes.length; d++) inner *= out.sizes[d];
  const block = p.sizes[dim] * inner * width; // bytes of one block of the part
  const stride = out.sizes[dim] * inner * width; // bytes between blocks in out
  const src = bytes(p);
  const dst = bytes(out);
  let s = p.storageOffset * width;
  let d = (out.storageOffset + at * inner) * width;
  if (outer === 1) {
    dst.set(src.subarray(s, s + block), d);
    return;
  }
  for (let o = 0; o < outer; o++, s += block, d += stride) dst.set(src.subarray(s, s + block), d);
}
