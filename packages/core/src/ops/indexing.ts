import { IndexError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { applyBasicIndexing, type TensorIndexLike } from '../views';
import { readScalar } from './meta-utils';
import { asStrided } from './views';
import { geometryOf } from './views';

const indexingOptions = {
  isTensorIndex: (x: unknown): x is TensorIndexLike => x instanceof Tensor,
  scalarValue: (x: TensorIndexLike): number | boolean | undefined => {
    const t = x as Tensor;
    if (t.device.type !== 'cpu' || t.dim() !== 0) return undefined;
    const v = readScalar(t.impl);
    return typeof v === 'bigint' ? Number(v) : v;
  },
};

/**
 * `x.index(0, ':', '1:5:2', null, '...')`: Python's `x[...]`. Numbers, slices, new axes and
 * ellipses give a view (one as_strided of the combined geometry, so autograd sees one view
 * op); index tensors need advanced indexing (gather), which the CPU-ops work adds.
 */
export function index(self: Tensor, ...items: unknown[]): Tensor {
  const r = applyBasicIndexing('index', geometryOf(self.impl), items, indexingOptions);
  if (r.advanced.length > 0) {
    throw new IndexError('index: indexing with tensors (advanced indexing) is not supported yet; use numbers, slices, null and "..."');
  }
  const g = r.geometry;
  return asStrided(self, g.sizes, g.strides, g.offset);
}
