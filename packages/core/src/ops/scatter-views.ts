import { ShapeError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { clone, copy_ } from './copy';
import { front } from './front';
import { asStrided, diagonal, select, sliceDim } from './views';

/**
 * The view scatters (`select_scatter`, `slice_scatter`, `diagonal_scatter`,
 * `as_strided_scatter`): a copy of `self` with the elements a view would show replaced by
 * `src`, the out-of-place form of `x.select(...).copy_(src)` that functional code writes.
 * Each clones `self` (keeping its layout) and copies `src` into that view of the clone, so
 * autograd differentiates them through the copy (PyTorch records SelectScatterBackward0
 * and its siblings: the gradients are the same, `src` gets the view of the gradient and
 * `self` the rest).
 */
function scatterInto(op: string, self: Tensor, src: Tensor, view: (t: Tensor) => Tensor): Tensor {
  const out = clone(self);
  try {
    tidy(() => {
      const v = view(out);
      const a = v.shape;
      const b = src.shape;
      if (a.length !== b.length || a.some((n, i) => n !== b[i])) {
        throw new ShapeError(`${op}: expected src to have a size equal to the slice of self. src size = ${fmtShape(b)}, slice size = ${fmtShape(a)}`);
      }
      copy_(v, src);
    });
  } catch (e) {
    out.dispose();
    throw e;
  }
  return out;
}

/** `torch.select_scatter(x, src, dim, index)`: `x` with `x.select(dim, index)` replaced by `src`. */
export const selectScatter = front('select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor').run(([self, src, dim, index]): Tensor =>
  scatterInto('select_scatter', self, src, (t) => select(t, dim, index)),
);

/** `torch.slice_scatter(x, src, dim, start, end, step)`: `x` with that slice replaced by `src`. */
export const sliceScatter = front('slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor').run(
  ([self, src, dim, start, end, step]): Tensor => scatterInto('slice_scatter', self, src, (t) => sliceDim(t, dim, start, end, step)),
);

/** `torch.diagonal_scatter(x, src, offset, dim1, dim2)`: `x` with that diagonal replaced by `src`. */
export const diagonalScatter = front('diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor').run(
  ([self, src, offset, dim1, dim2]): Tensor => scatterInto('diagonal_scatter', self, src, (t) => diagonal(t, offset, dim1, dim2)),
);

/** `torch.as_strided_scatter(x, src, size, stride, storageOffset)`: `x` with that strided view replaced by `src`. */
export const asStridedScatter = front('as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor').run(
  ([self, src, size, stride, offset]): Tensor => scatterInto('as_strided_scatter', self, src, (t) => asStrided(t, size, stride, offset ?? t.storageOffset())),
);
