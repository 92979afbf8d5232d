/**
 * The sparse COO operators (Note [Sparse COO tensors] in sparse/sparse-tensor-impl.ts): their
 * declarations (PyTorch 1.13's schemas; their SparseCPU kernels are in sparse/sparse-ops.ts)
 * and front ends: `torch.sparseCooTensor`, and the Tensor methods `coalesce`, `isCoalesced`,
 * `toDense`, `_nnz`, `sparseDim`, `denseDim`, `indices`, `values`, `_indices`, `_values`,
 * `sparseMask`.
 */
import { callBoxed, registerOperator } from '../dispatch/dispatcher';
import { toDevice } from '../device';
import { isComplexType, isDType, isFloatingType } from '../dtype';
import { torchTypeName } from './meta-utils';
import { DTypeError, IndexError, NotImplementedError, ShapeError, TorchError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { indexSelect } from './gather-scatter';
import { front } from './front';
import { tidy } from '../tensor/scope';
import { to } from './copy';
import { mm } from './linalg';
import { addmm } from './linalg-extra';
import { zeros } from './factories';
import { nonzero } from './masked';
import { SparseTensorImpl } from '../sparse/sparse-tensor-impl';

// ---- declarations (PyTorch 1.13's schemas) ----
export const SPARSE_COO_UNSAFE = registerOperator({ schema: '_sparse_coo_tensor_unsafe(Tensor indices, Tensor values, int[] size) -> Tensor' });
export const INDICES_ = registerOperator({ schema: '_indices(Tensor(a) self) -> Tensor(a)' });
export const VALUES_ = registerOperator({ schema: '_values(Tensor(a) self) -> Tensor(a)' });
export const INDICES = registerOperator({ schema: 'indices(Tensor(a) self) -> Tensor(a)' });
export const VALUES = registerOperator({ schema: 'values(Tensor(a) self) -> Tensor(a)' });
export const NNZ = registerOperator({ schema: '_nnz(Tensor self) -> int' });
export const SPARSE_DIM = registerOperator({ schema: 'sparse_dim(Tensor self) -> int' });
export const DENSE_DIM = registerOperator({ schema: 'dense_dim(Tensor self) -> int' });
export const IS_COALESCED = registerOperator({ schema: 'is_coalesced(Tensor self) -> bool' });
export const COALESCE_ = registerOperator({ schema: '_coalesce(Tensor self) -> Tensor' });
export const TO_DENSE_ = registerOperator({ schema: '_to_dense(Tensor self, ScalarType? dtype=None) -> Tensor' });
export const SPARSE_SUM_DIM = registerOperator({ schema: '_sparse_sum.dim(Tensor self, int[1] dim) -> Tensor' });
export const SPARSE_ADDMM = registerOperator({ schema: '_sparse_addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor' });
export const SPARSE_MASK = registerOperator({ schema: 'sparse_mask(Tensor self, Tensor mask) -> Tensor' });

// ---- front ends ----

/**
 * `torch.sparseCooTensor(indices, values, size?, { dtype, device })`: a sparse COO tensor of
 * the given entries, uncoalesced (PyTorch's checks: indices 2-D int64, one column per value,
 * in range; `size` inferred from the largest indices where omitted).
 */
export const sparseCooTensor = front(
  'sparse_coo_tensor(Tensor indices, Tensor values, int[]? size=None, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor',
  { method: false },
).run(([indices, values, size, dtype, device, requiresGrad]): Tensor => {
  const op = 'sparse_coo_tensor';
  if (device != null && toDevice(op, device).type !== 'cpu') throw new NotImplementedError(`${op}: torch-ts has sparse tensors on the CPU only (SparseCPU)`);
  if (indices.isSparse || values.isSparse) throw new TorchError(`${op}: expected indices and values to be dense tensors`);
  if (indices.device.type !== 'cpu' || values.device.type !== 'cpu') throw new NotImplementedError(`${op}: torch-ts has sparse tensors on the CPU only (SparseCPU)`);
  if (indices.dim() !== 2) throw new ShapeError(`${op}: indices must be sparse_dim x nnz, but got: ${fmtShape(indices.shape)}`);
  if (values.dim() === 0) throw new ShapeError(`${op}: values must have at least one dimension (nnz), got a 0-d tensor`);
  const [sd, nnz] = indices.shape;
  if (values.shape[0] !== nnz) throw new ShapeError(`${op}: number of indices (${nnz}) must match the first dimension of values (${values.shape[0]})`);
  const vdtype = dtype != null && isDType(dtype) ? dtype : values.dtype;
  const denseSizes = values.shape.slice(1);
  const idx = hostInt64(indices);
  let sizes: number[];
  if (size == null) {
    sizes = [];
    for (let d = 0; d < sd; d++) {
      let m = -1;
      for (let k = 0; k < nnz; k++) m = Math.max(m, Number(idx[d * nnz + k]));
      sizes.push(m + 1);
    }
    sizes.push(...denseSizes);
  } else {
    sizes = [...size];
    if (sizes.length !== sd + denseSizes.length) {
      throw new ShapeError(`${op}: number of dimensions must be sparse_dim (${sd}) + dense_dim (${denseSizes.length}), but got ${sizes.length}`);
    }
    for (let d = 0; d < denseSizes.length; d++) {
      if (sizes[sd + d] !== denseSizes[d]) {
        throw new ShapeError(`${op}: values has incorrect size, expected ${fmtShape([nnz, ...sizes.slice(sd)])}, got ${fmtShape(values.shape)}`);
      }
    }
    for (let d = 0; d < sd; d++) {
      for (let k = 0; k < nnz; k++) {
        const i = Number(idx[d * nnz + k]);
        if (i < 0) throw new IndexError(`${op}: found negative index ${i} for dim ${d}`);
        if (i >= sizes[d]) throw new IndexError(`${op}: size is inconsistent with indices: for dim ${d}, size is ${sizes[d]} but found index ${i}`);
      }
    }
  }
  const v = vdtype === values.dtype ? values : to(values, vdtype);
  // (PyTorch's torch.sparse_coo_tensor converts indices of any dtype to int64, as tensor(..., dtype=long) would)
  const i = indices.dtype === 'int64' ? indices : to(indices, 'int64');
  try {
    const r = new Tensor(callBoxed(SPARSE_COO_UNSAFE, [i.impl, v.impl, sizes]) as TensorImpl);
    // (a leaf that requires grad: its gradient is sparse, as PyTorch's)
    return requiresGrad ? r.requiresGrad_(true) : r;
  } finally {
    if (v !== values) v.dispose();
    if (i !== indices) i.dispose();
  }
});

const METHOD = { namespaces: [] } as const;

/** `x.coalesce()`: `x` itself where it is coalesced, else its entries sorted and duplicates summed. */
export const coalesce = front('coalesce(Tensor self) -> Tensor', METHOD).run(([self]): Tensor => {
  if (isCoalesced(self)) return new Tensor(self.impl.retain());
  return new Tensor(callBoxed(COALESCE_, [self.impl]) as TensorImpl);
});

/** `x.isCoalesced()`: whether the indices are sorted and unique (a sparse tensor only). */
export const isCoalesced = front('is_coalesced(Tensor self) -> bool', METHOD).run(([self]): boolean => callBoxed(IS_COALESCED, [self.impl]) as boolean);

/** `x.toDense(dtype?)`: the strided tensor with the entries' values (duplicates summed). */
export const toDense = front('to_dense(Tensor self, ScalarType? dtype=None) -> Tensor', METHOD).run(
  ([self, dtype]): Tensor => new Tensor(callBoxed(TO_DENSE_, [self.impl, dtype ?? null]) as TensorImpl),
);

/**
 * `x.toSparse(sparseDim?)`: the strided tensor as a coalesced sparse COO tensor: one entry per
 * index over its first `sparseDim` dims (all by default) where any element is non-zero, in
 * row-major order, the rest of each slice its value. A sparse `x` is itself (PyTorch 2's).
 * Written with indexSelect, so the gradient reaches `x` through the values (PyTorch records
 * ToSparseBackward0, `grad.to_dense()`: the same numbers).
 */
export const toSparse = front('to_sparse(Tensor self, int? sparse_dim=None) -> Tensor', METHOD).run(([self, sparseDimArg]): Tensor => {
  const op = 'to_sparse';
  if (self.isSparse) return self;
  const n = self.dim();
  const sd = sparseDimArg ?? n;
  if (sd > n) throw new TorchError(`${op}: sparse_dim must be less than or equal to self.dim()`);
  if (n > 0 && sd <= 0) throw new TorchError(`${op}: sparse_dim must be >0 if dimensionality > 0`);
  if (self.device.type !== 'cpu') throw new NotImplementedError(`${op}: torch-ts has sparse tensors on the CPU only (SparseCPU)`);
  const sizes = self.shape;
  const sparseSizes = sizes.slice(0, sd);
  const rows = sparseSizes.reduce((a, b) => a * b, 1);
  return tidy(() => {
    const slices = self.reshape([rows, ...sizes.slice(sd)]);
    let mask = slices.ne(0);
    if (sd < n) mask = mask.reshape([rows, -1]).any(1);
    const flat = nonzero(mask).reshape([-1]);
    // the flat row numbers unravelled into one row of indices per sparse dim
    const indices = zeros([sd, flat.shape[0]], { dtype: 'int64' });
    let rest = flat;
    for (let d = sd - 1; d >= 0; d--) {
      indices.select(0, d).copy_(rest.remainder(sparseSizes[d]));
      rest = rest.div(sparseSizes[d], { roundingMode: 'floor' });
    }
    const values = indexSelect(slices, 0, flat);
    const r = new Tensor(callBoxed(SPARSE_COO_UNSAFE, [indices.impl, values.impl, [...sizes]]) as TensorImpl);
    (r.impl as SparseTensorImpl).setCoalesced(true);
    return r;
  });
});

/** `x._nnz()`: the number of stored entries. */
export const _nnz = front('_nnz(Tensor self) -> int', { ...METHOD, name: '_nnz' }).run(([self]): number => callBoxed(NNZ, [self.impl]) as number);

/** `x.sparseDim()`: the number of sparse dims. */
export const sparseDim = front('sparse_dim(Tensor self) -> int', METHOD).run(([self]): number => callBoxed(SPARSE_DIM, [self.impl]) as number);

/** `x.denseDim()`: the number of dense dims (the values' dims after the first). */
export const denseDim = front('dense_dim(Tensor self) -> int', METHOD).run(([self]): number => callBoxed(DENSE_DIM, [self.impl]) as number);

/** `x.indices()`: the [sparseDim, nnz] int64 indices of a coalesced tensor, an alias. */
export const indices = front('indices(Tensor self) -> Tensor', METHOD).run(
  ([self]): Tensor => new Tensor(callBoxed(INDICES, [self.impl]) as TensorImpl),
);

/** `x.values()`: the [nnz, ...dense] values of a coalesced tensor, an alias. */
export const values = front('values(Tensor self) -> Tensor', METHOD).run(
  ([self]): Tensor => new Tensor(callBoxed(VALUES, [self.impl]) as TensorImpl),
);

/** `x._indices()`: the indices as stored, coalesced or not, an alias. */
export const _indices = front('_indices(Tensor self) -> Tensor', { ...METHOD, name: '_indices' }).run(([self]): Tensor => new Tensor(callBoxed(INDICES_, [self.impl]) as TensorImpl));

/** `x._values()`: the values as stored, coalesced or not, an alias. */
export const _values = front('_values(Tensor self) -> Tensor', { ...METHOD, name: '_values' }).run(([self]): Tensor => new Tensor(callBoxed(VALUES_, [self.impl]) as TensorImpl));

/** `dense.sparseMask(mask)`: a sparse tensor with a coalesced `mask`'s indices and this tensor's values there (an uncoalesced mask raises, as in 1.13). */
export const sparseMask = front('sparse_mask(Tensor self, Tensor mask) -> Tensor', METHOD).run(
  ([self, mask]): Tensor => new Tensor(callBoxed(SPARSE_MASK, [self.impl, mask.impl]) as TensorImpl),
);


// ---- torch.sparse ----

/**
 * Note [torch.sparse.mm's sparse gradient]
 * `torch.mm(sparse, dense)` refuses a sparse operand that requires grad (1.13's MmBackward0
 * needs a strided self); `torch.sparse.mm` and `torch.sparse.addmm` are 1.13's `_sparse_addmm`
 * (SparseAddmmBackward0), whose gradient for the sparse operand is sparse: the dense gradient
 * `grad @ mat2^T` at the operand's coalesced entries only, so a sparse weight (a graph's
 * adjacency with learnt edge values) trains without ever being densified. With a dense
 * `mat1` both are the dense product, as in 1.13.
 */
const SPARSE_NS = { method: false, namespaces: ['sparse'] } as const;

/** `torch.sparse.mm(mat1, mat2)`: sparse [n, m] @ dense [m, p] -> dense [n, p] (Note [torch.sparse.mm's sparse gradient]). */
export const sparseMm = front('_sparse_mm(Tensor mat1, Tensor mat2) -> Tensor', { ...SPARSE_NS, name: 'sparseMm', exportAs: 'mm' }).run(([mat1, mat2]): Tensor => {
  if (!mat1.isSparse) return mm(mat1, mat2);
  const start = zeros([], { dtype: mat2.dtype, device: mat2.device });
  return new Tensor(callBoxed(SPARSE_ADDMM, [start.impl, mat1.impl, mat2.impl, 0, 1]) as TensorImpl);
});

/** `torch.sparse.addmm(mat, mat1, mat2, { beta, alpha })`: `beta * mat + alpha * (mat1 @ mat2)`, mat1 sparse (Note [torch.sparse.mm's sparse gradient]). */
export const sparseAddmm = front('_sparse_addmm(Tensor mat, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor', {
  ...SPARSE_NS,
  name: 'sparseAddmm',
  exportAs: 'addmm',
}).run(([mat, mat1, mat2, beta, alpha]): Tensor => {
  if (!mat1.isSparse) return addmm(mat, mat1, mat2, { beta, alpha });
  return new Tensor(callBoxed(SPARSE_ADDMM, [mat.impl, mat1.impl, mat2.impl, beta, alpha]) as TensorImpl);
});

/**
 * `torch.sparse.sum(input, dim?, dtype?)`, as 1.13's: over every dim the sum of the coalesced
 * values, a 0-d dense tensor (SumBackward0); over `dim`, `_sparse_sum.dim` (SparseSumBackward0,
 * sparse/sparse-sum.ts): a coalesced sparse tensor, or a dense one where every sparse dim is
 * reduced. `dtype` converts the input first; the gradient of a sparse input is sparse.
 */
export const sparseSum = front('_sparse_sum(Tensor input, int[1]? dim=None, ScalarType? dtype=None) -> Tensor', { ...SPARSE_NS, name: 'sparseSum', exportAs: 'sum' }).run(
  ([input, dim, dtype]): Tensor =>
    tidy(() => {
      // (the values converted, differentiably: torch-ts has no sparse _to_copy)
      const c = dtype == null ? input : input.coalesce();
      const x = dtype == null ? input : sparseCooTensor(c.indices(), c.values().to(dtype), c.shape);
      if (dim == null) return x.coalesce().values().sum();
      return new Tensor(callBoxed(SPARSE_SUM_DIM, [x.impl, dim]) as TensorImpl);
    }),
);

/**
 * `norm(sparse, p)`: PyTorch 1.13's norm_sparse, the `p`-norm of the coalesced values (a full
 * reduction only: `dim` empty or every dim once; no keepdim, no dtype), so duplicates are
 * summed before the norm.
 */
export function sparseNorm(self: Tensor, p: number, dims: readonly number[] | null, keepdim: boolean, dtype: unknown): Tensor {
  const op = 'norm';
  if (dims !== null && dims.length > 0) {
    const n = self.ndim;
    const wrapped = dims.map((d) => (d < 0 ? d + n : d));
    if (dims.length !== n || new Set(wrapped).size !== n || wrapped.some((d) => d < 0 || d >= n)) {
      throw new TorchError(`${op}: norm_sparse currently only supports full reductions, so 'dim' must either be empty or contain all dimensions of the input`);
    }
  }
  if (keepdim) throw new TorchError(`${op}: norm_sparse currently does not support keepdim=True`);
  if (dtype != null) throw new TorchError(`${op}: norm_sparse currently does not support 'dtype' argument`);
  if (!isFloatingType(self.dtype) && !isComplexType(self.dtype)) {
    throw new DTypeError(`norm(): input dtype should be either floating point or complex. Got ${torchTypeName(self.dtype)} instead.`);
  }
  return tidy(() => coalesce(self)._values().norm(p));
}

/**
 * PyTorch's embedding_sparse_backward: the gradient of an embedding's weight as a sparse COO
 * tensor of size [numWeights, d], uncoalesced: one entry per looked-up index (in lookup order),
 * its value the incoming gradient row, the entries of `paddingIdx` dropped (an all-padding
 * lookup gives no entries). Used by autograd's EmbeddingBackward0 when `sparse` is set.
 */
export function _embeddingSparseBackward(grad: Tensor, indices: Tensor, numWeights: number, paddingIdx: number, scaleGradByFreq: boolean): Tensor {
  const op = 'embedding_backward';
  if (scaleGradByFreq) throw new NotImplementedError(`${op}: scale_grad_by_freq not supported with sparse gradients`);
  if (grad.device.type !== 'cpu') throw new NotImplementedError(`${op}: torch-ts has sparse gradients on the CPU only (SparseCPU), got a gradient on ${grad.device}`);
  const d = grad.ndim === 0 ? 1 : grad.shape[grad.ndim - 1];
  const ids = hostInt64(indices);
  const keep: number[] = [];
  for (let k = 0; k < ids.length; k++) if (paddingIdx === -1 || Number(ids[k]) !== paddingIdx) keep.push(k);
  const kept = new BigInt64Array(keep.length);
  keep.forEach((k, j) => (kept[j] = ids[k]));
  const idx = TensorImpl.empty(op, [1, keep.length], 'int64', grad.device);
  idx.storage.typed(BigInt64Array).set(kept);
  const idxH = new Tensor(idx);
  const rows = grad.reshape([-1, d]);
  const positions = keep.length === ids.length ? null : fromInts(op, keep, grad);
  const vals = positions === null ? rows.contiguous() : indexSelect(rows, 0, positions);
  try {
    return new Tensor(callBoxed(SPARSE_COO_UNSAFE, [idx, vals.impl, [numWeights, d]]) as TensorImpl);
  } finally {
    for (const t of [idxH, rows, vals, positions]) t?.dispose();
  }
}

/** The elements of a CPU integer tensor as int64, row-major (a copy). */
function hostInt64(t: Tensor): BigInt64Array {
  return tidy(() => {
    const c = t.to('int64').contiguous();
    return c.impl.storage.typed(BigInt64Array).slice(c.impl.storageOffset, c.impl.storageOffset + c.numel());
  });
}

/** An int64 tensor of `ks` on `like`'s device. */
function fromInts(op: string, ks: readonly number[], like: Tensor): Tensor {
  const t = TensorImpl.empty(op, [ks.length], 'int64', like.device);
  const a = t.storage.typed(BigInt64Array);
  ks.forEach((k, j) => (a[j] = BigInt(k)));
  return new Tensor(t);
}
