import { mm, mul, normalizeDims, searchsorted, sparseCooTensor, tensor, transpose, where, zeros, type SparseTensorImpl, type Tensor } from '@torch-ts/core';
import type { DerivativeOf, NotDifferentiable } from '../derivative';
import { inputSizes, savedTensor, scalarNumber } from './common';
import { sparseTransposedMm } from './linalg';

/**
 * The sparse COO ops (core Note [Sparse COO tensors]). Differentiable, as PyTorch 1.13's
 * derivatives.yaml has them: building a sparse tensor from values (its gradient to the values)
 * `to_dense` (its gradient to the sparse input, sparse), `_coalesce` (the sparse gradient passed
 * on), `values` (the gradient as the values of a sparse tensor over self's indices) and
 * `_sparse_addmm` (torch.sparse.mm / addmm: a sparse gradient for the sparse factor).
 * `_values` is not differentiable, as PyTorch's; `sparse_mask` records no graph here yet.
 */
const SPARSE: NotDifferentiable = { notDifferentiable: 'torch-ts records no autograd through this sparse COO op yet' };
const QUERY: NotDifferentiable = { notDifferentiable: 'returns a number or flag' };

// _sparse_coo_tensor_unsafe(indices, values, size) (PyTorch's _sparse_coo_tensor_with_dims_and_tensors):
// values: sparse_constructor_values_backward(grad, indices), each entry the (coalesced) gradient at
// its index, so duplicate entries each get the whole of it; a dense gradient is read the same way.
const SparseCooTensorWithDimsAndTensorsBackward0: DerivativeOf<'_sparse_coo_tensor_unsafe'> = {
  name: 'SparseCooTensorWithDimsAndTensorsBackward0',
  inputs: ['values'],
  saves: ['indices'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const indices = savedTensor(ctx, 'indices', '_sparse_coo_tensor_unsafe');
    const valueSizes = inputSizes(ctx, 0, '_sparse_coo_tensor_unsafe');
    const g = ctx.grad.isSparse ? ctx.grad.toDense() : ctx.grad;
    const sparseDim = indices.shape[0];
    const sizes = g.shape;
    // the row-major linear index of each entry over the sparse dims, then the dense blocks there
    let lin: Tensor = indices.select(0, 0);
    for (let d = 1; d < sparseDim; d++) lin = lin.mul(sizes[d]).add(indices.select(0, d));
    const rows = sizes.slice(0, sparseDim).reduce((a, b) => a * b, 1);
    return [g.reshape([rows, ...valueSizes.slice(1)]).indexSelect(0, lin)];
  },
};

// _to_dense(self, dtype): to_dense_backward(grad, self) = grad.sparse_mask(self.coalesce()), sparse
const ToDenseBackward0: DerivativeOf<'_to_dense'> = {
  name: 'ToDenseBackward0',
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const self = savedTensor(ctx, 'self', '_to_dense');
    return [ctx.grad.contiguous().sparseMask(self.coalesce())];
  },
};

// _coalesce(self): the (sparse) gradient as it is, as PyTorch's `self: grad`
const CoalesceBackward0: DerivativeOf<'_coalesce'> = {
  name: 'CoalesceBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => [ctx.needs[0] ? ctx.grad : null],
};

// values(self) of a coalesced self: values_backward, a sparse tensor of self's indices and the gradient
const ValuesBackward0: DerivativeOf<'values'> = {
  name: 'ValuesBackward0',
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const self = savedTensor(ctx, 'self', 'values');
    const g = sparseCooTensor(self._indices(), ctx.grad, self.shape);
    // (over a coalesced self's indices, so coalesced: 1.13's values_backward marks it so)
    (g.impl as SparseTensorImpl).setCoalesced(true);
    return [g];
  },
};

// _sparse_addmm(self, mat1 sparse, mat2 dense, beta, alpha) (torch.sparse.mm / addmm; core's
// Note [torch.sparse.mm's sparse gradient]): self: grad * beta; mat1: mm_mat1_sparse_backward,
// alpha * (grad @ mat2^T) at mat1's coalesced entries, sparse; mat2: alpha * mat1^T @ grad.
const SparseAddmmBackward0: DerivativeOf<'_sparse_addmm'> = {
  name: 'SparseAddmmBackward0',
  inputs: ['self', 'mat1', 'mat2'],
  saves: ['mat1@mat2', 'mat2@mat1'],
  backward: (ctx) => {
    const op = '_sparse_addmm';
    const beta = scalarNumber(ctx.args[3], 1);
    const alpha = scalarNumber(ctx.args[4], 1);
    const scaled = (t: Tensor, k: number): Tensor => (k === 1 ? t : mul(t, k));
    let g1: Tensor | null = null;
    if (ctx.needs[1]) {
      const mat1 = savedTensor(ctx, 'mat1', op);
      g1 = scaled(mm(ctx.grad, transpose(savedTensor(ctx, 'mat2', op), 0, 1)), alpha).sparseMask(mat1.coalesce());
    }
    return [
      ctx.needs[0] ? scaled(ctx.grad, beta) : null,
      g1,
      ctx.needs[2] ? scaled(sparseTransposedMm(savedTensor(ctx, 'mat1', op), ctx.grad), alpha) : null,
    ];
  },
};

/** The row-major linear index of each column of `indices` over `dims` of `sizes` (int64). */
function linearOver(indices: Tensor, dims: readonly number[], sizes: readonly number[]): Tensor {
  let lin = zeros([indices.shape[1]], { dtype: 'int64' });
  for (const d of dims) lin = lin.mul(sizes[d]).add(indices.select(0, d));
  return lin;
}

// _sparse_sum.dim(self, dim): _sparse_sum_backward(grad, self, dim), sparse over self's coalesced
// entries: each entry's value block is the gradient at its kept index (found by a binary search
// among the gradient's coalesced entries; absent: zero), broadcast over the reduced dense dims.
const SparseSumBackward0: DerivativeOf<'_sparse_sum.dim'> = {
  name: 'SparseSumBackward0',
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const op = '_sparse_sum';
    const self = savedTensor(ctx, 'self', op).coalesce();
    const n = self.ndim;
    const sd = self.sparseDim();
    const dims = normalizeDims(op, ctx.args[1] as number[], n);
    const keptSparse = Array.from({ length: sd }, (_, d) => d).filter((d) => !dims.includes(d));
    const keptDense = Array.from({ length: n - sd }, (_, k) => sd + k).filter((d) => !dims.includes(d));
    const idx = self._indices();
    const nnz = idx.shape[1];
    const blockShape = keptDense.map((d) => self.shape[d]);
    let g: Tensor;
    if (keptSparse.length === 0) {
      g = ctx.grad.unsqueeze(0).expand([nnz, ...blockShape]);
    } else {
      const want = linearOver(idx, keptSparse, self.shape);
      if (ctx.grad.isSparse) {
        const gc = ctx.grad.coalesce();
        const have = linearOver(gc._indices(), Array.from({ length: keptSparse.length }, (_, k) => k), gc.shape);
        const gv = gc._values();
        if (have.shape[0] === 0) {
          g = zeros([nnz, ...blockShape], { dtype: gv.dtype });
        } else {
          const at = searchsorted(have, want).clamp(0, have.shape[0] - 1);
          const found = have.indexSelect(0, at).eq(want).reshape([nnz, ...blockShape.map(() => 1)]);
          g = where(found, gv.indexSelect(0, at), tensor(0, { dtype: gv.dtype }));
        }
      } else {
        const rows = keptSparse.reduce((a, d) => a * self.shape[d], 1);
        g = ctx.grad.reshape([rows, ...blockShape]).indexSelect(0, want);
      }
    }
    // (the reduced dense dims back as size-1 dims, then broadcast over them)
    for (let d = sd; d < n; d++) if (dims.includes(d)) g = g.unsqueeze(d - sd + 1);
    return [sparseCooTensor(idx, g.expand(self._values().shape).contiguous(), self.shape)];
  },
};

export const SPARSE_DERIVATIVES = {
  _sparse_coo_tensor_unsafe: SparseCooTensorWithDimsAndTensorsBackward0,
  _indices: { notDifferentiable: 'returns integer indices, which have no gradient' },
  indices: { notDifferentiable: 'returns integer indices, which have no gradient' },
  _values: { notDifferentiable: 'PyTorch 1.13 records no gradient through _values()' },
  values: ValuesBackward0,
  _nnz: QUERY,
  sparse_dim: QUERY,
  dense_dim: QUERY,
  is_coalesced: QUERY,
  _coalesce: CoalesceBackward0,
  _to_dense: ToDenseBackward0,
  _sparse_addmm: SparseAddmmBackward0,
  '_sparse_sum.dim': SparseSumBackward0,
  sparse_mask: SPARSE,
};
