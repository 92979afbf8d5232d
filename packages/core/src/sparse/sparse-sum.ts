/**
 * `_sparse_sum.dim` (torch.sparse.sum over `dim`), PyTorch 1.13's SparseCPU kernel: the values
 * of the coalesced input summed over the reduced dense dims; then, where sparse dims are
 * reduced, the entries that then share an index summed (a coalesce of the kept index rows),
 * and where every sparse dim is reduced, the entries summed into a dense tensor of the kept
 * dense dims. A sparse result is coalesced. The gradient (SparseSumBackward0) is autograd's.
 */
import { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import { tidy } from '../tensor/scope';
import { normalizeDims } from '../views/dims';
import { tensor } from '../ops/factories';
import type { SparseTensorImpl } from './sparse-tensor-impl';
import { adopt, coalesce } from './sparse-kernels';

export function sparseSumDim(self: SparseTensorImpl, dim: readonly number[]): TensorImpl {
  const op = '_sparse_sum';
  const sd = self.sparseDim;
  const dims = normalizeDims(op, dim, self.sizes.length);
  const c = self.coalesced ? self : coalesce(self);
  try {
    return tidy(() => {
      const idx = new Tensor(c.indices.retain()).detach();
      const val = new Tensor(c.values.retain()).detach();
      const sparseReduced = dims.filter((d) => d < sd);
      const denseReduced = dims.filter((d) => d >= sd).map((d) => d - sd + 1);
      const v = denseReduced.length > 0 ? val.sum(denseReduced) : val;
      if (sparseReduced.length === sd) return v.sum(0).impl.retain();
      const kept = Array.from({ length: self.sizes.length }, (_, d) => d).filter((d) => !dims.includes(d));
      const sizes = kept.map((d) => self.sizes[d]);
      if (sparseReduced.length === 0) return adopt(sizes, idx.impl.retain(), v.contiguous().impl.retain(), true);
      const keptSparse = kept.filter((d) => d < sd);
      const rows = idx.indexSelect(0, tensor(keptSparse, { dtype: 'int64' }));
      const merged = adopt(sizes, rows.impl.retain(), v.contiguous().impl.retain(), false);
      try {
        return coalesce(merged);
      } finally {
        merged.release();
      }
    });
  } finally {
    if (c !== self) c.release();
  }
}
