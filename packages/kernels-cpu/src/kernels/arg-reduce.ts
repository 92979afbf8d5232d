import { TorchError, type ArgReduceImpl, type TensorImpl } from '@torch-ts/core';
import { floatArray, itemWidth, words, type FloatArray } from '../loops/arrays';
import { readerOf } from '../loops/convert';
import { forEachRowOfStrides } from '../loops/iterate';
import { rawMoveRow } from '../loops/raw';

/**
 * Note [Arg reductions]
 * `max(dim)`, `min(dim)`, `argmax` and `argmin` scan `self` along `dim` once per output
 * element and keep the FIRST index of the extreme value, as PyTorch does; a NaN beats every
 * number, so the result is the index of the first NaN when there is one (the scan stops
 * there). Indices are int64, written as words; the value is moved as raw bits from the
 * winning element, so no rounding or NaN payload change can creep in. Scans read float32 and
 * float64 storage directly and every other dtype through float64 scratch of the dim's
 * length (exact for all of them); int64 compares its words.
 */
type Scan = (a: FloatArray, off: number, stride: number, n: number) => number;

function scanMax(a: FloatArray, off: number, stride: number, n: number): number {
  let best = a[off];
  if (best !== best) return 0;
  let at = 0;
  for (let k = 1, j = off + stride; k < n; k++, j += stride) {
    const x = a[j];
    if (x > best) {
      best = x;
      at = k;
    } else if (x !== x) {
      return k;
    }
  }
  return at;
}

function scanMin(a: FloatArray, off: number, stride: number, n: number): number {
  let best = a[off];
  if (best !== best) return 0;
  let at = 0;
  for (let k = 1, j = off + stride; k < n; k++, j += stride) {
    const x = a[j];
    if (x < best) {
      best = x;
      at = k;
    } else if (x !== x) {
      return k;
    }
  }
  return at;
}

/** The first index of the extreme int64 along a dim; `sign` 1 for max, -1 for min. */
function scanInt64(w: Int32Array, off: number, stride: number, n: number, sign: number): number {
  let bhi = w[2 * off + 1];
  let blo = w[2 * off] >>> 0;
  let at = 0;
  for (let k = 1, j = 2 * (off + stride); k < n; k++, j += 2 * stride) {
    const hi = w[j + 1];
    const lo = w[j] >>> 0;
    const c = hi < bhi ? -1 : hi > bhi ? 1 : lo < blo ? -1 : lo > blo ? 1 : 0;
    if (c === sign) {
      bhi = hi;
      blo = lo;
      at = k;
    }
  }
  return at;
}

function argReduce(op: string, scan: Scan, sign: number): ArgReduceImpl {
  return (values, indices, self, dim) => {
    if (indices.numel === 0) return;
    // A 0-d input is a one-element scan.
    const sizes = self.sizes.length === 0 ? [1] : self.sizes;
    const strides = self.sizes.length === 0 ? [0] : self.strides;
    const n = sizes[dim];
    const dimStride = strides[dim];
    if (n === 0) throw new TorchError(`${op}: Expected reduction dim ${dim} to have non-zero size.`);
    const outSizes = sizes.slice();
    outSizes[dim] = 1;
    const rank = (t: TensorImpl): readonly number[] => (t.sizes.length === 0 ? [0] : t.strides);

    const find = finder(self, scan, sign, n);
    const idx = words(indices);
    const move = values === null ? null : rawMoveRow(itemWidth(values), values, self);
    const moveBase = new Int32Array(2);
    const unit = [1, 1];
    const valueStrides = values === null ? rank(indices) : rank(values);
    forEachRowOfStrides(
      outSizes,
      [rank(indices), valueStrides, strides],
      [indices.storageOffset, values?.storageOffset ?? 0, self.storageOffset],
      (m, b, s) => {
        for (let i = 0, io = b[0], vo = b[1], so = b[2]; i < m; i++, io += s[0], vo += s[1], so += s[2]) {
          const k = find(so, dimStride);
          idx[2 * io] = k;
          idx[2 * io + 1] = 0;
          if (move !== null) {
            moveBase[0] = vo;
            moveBase[1] = so + k * dimStride;
            move(1, moveBase, unit);
          }
        }
      },
    );
  };
}

/** The scan of one output element: `(offset, stride) -> index` for self's dtype. */
function finder(self: TensorImpl, scan: Scan, sign: number, n: number): (off: number, stride: number) => number {
  if (self.dtype === 'float32' || self.dtype === 'float64') {
    const a = floatArray(self);
    return (off, stride) => scan(a, off, stride, n);
  }
  if (self.dtype === 'int64') {
    const w = words(self);
    return (off, stride) => scanInt64(w, off, stride, n, sign);
  }
  const read = readerOf(self);
  const line = new Float64Array(n);
  return (off, stride) => {
    read(n, line, off, stride);
    return scan(line, 0, 1, n);
  };
}

export const maxDim: ArgReduceImpl = argReduce('max', scanMax, 1);
export const minDim: ArgReduceImpl = argReduce('min', scanMin, -1);
export const argmax: ArgReduceImpl = argReduce('argmax', scanMax, 1);
export const argmin: ArgReduceImpl = argReduce('argmin', scanMin, -1);
