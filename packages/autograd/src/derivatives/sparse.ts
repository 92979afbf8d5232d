import type { NotDifferentiable } from '../derivative';

/**
 * The sparse COO ops (core Note [Sparse COO tensors]). torch-ts's sparse tensors are
 * gradients (an embedding's with `sparse=True`) and optimizer state, made and used without
 * autograd: no graph is recorded through them (PyTorch's sparse autograd is not rebuilt), so
 * these ops are not differentiable here.
 */
const SPARSE: NotDifferentiable = { notDifferentiable: 'torch-ts records no autograd through sparse COO tensors' };
const QUERY: NotDifferentiable = { notDifferentiable: 'returns a number or flag' };

export const SPARSE_DERIVATIVES = {
  _sparse_coo_tensor_unsafe: SPARSE,
  _indices: { notDifferentiable: 'returns integer indices, which have no gradient' },
  indices: { notDifferentiable: 'returns integer indices, which have no gradient' },
  _values: SPARSE,
  values: SPARSE,
  _nnz: QUERY,
  sparse_dim: QUERY,
  dense_dim: QUERY,
  is_coalesced: QUERY,
  _coalesce: SPARSE,
  _to_dense: SPARSE,
  sparse_mask: SPARSE,
} satisfies Record<string, NotDifferentiable>;
