/**
 * The SparseCPU kernels of the sparse COO operators (Note [Sparse COO tensors]; the ops and
 * front ends are declared in ops/sparse.ts). Ops PyTorch declares for sparse tensors only
 * (`_indices`, `_coalesce`, `_to_dense`, ...) get a SparseCPU kernel and none for a dense
 * backend, so a dense tensor meets PyTorch's "Could not run 'aten::indices' with arguments from
 * the 'CPU' backend"; existing dense ops (add, mul, neg, clone, detach, fill_) get a SparseCPU
 * kernel next to their dense ones, reached only when a sparse tensor is among the arguments,
 * so the dense path is the one it was.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { FALLTHROUGH, registerKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { CPU } from '../device';
import type { DType } from '../dtype';
import { NotImplementedError, ShapeError, TorchError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { to } from '../ops/copy';
import { SparseTensorImpl } from './sparse-tensor-impl';
import { addSparse, addSparseInto, adopt, coalesce, newMembers, scaleSparse, sparseMask, toDense, valuesOf } from './sparse-kernels';
import { registerSparseMath } from './sparse-math';
import { COALESCE_, DENSE_DIM, INDICES, INDICES_, IS_COALESCED, NNZ, SPARSE_COO_UNSAFE, SPARSE_DIM, SPARSE_MASK, SPARSE_SUM_DIM, TO_DENSE_, VALUES, VALUES_ } from '../ops/sparse';
import { sparseSumDim } from './sparse-sum';

const sparse = (t: unknown): SparseTensorImpl => t as SparseTensorImpl;
const isSparse = (t: unknown): t is SparseTensorImpl => t instanceof SparseTensorImpl;

function onSparse(op: OperatorHandle | string, kernel: (args: unknown[]) => unknown): void {
  registerKernel(op, DispatchKey.SparseCPU, (_ks, args) => kernel(args));
}

/** A view of a member (PyTorch's `_indices()` / `_values()` alias it: writes reach the sparse tensor). */
function memberView(m: TensorImpl): TensorImpl {
  return m.view(m.sizes, m.strides, m.storageOffset);
}

function dense(op: string, t: unknown): TensorImpl {
  const d = t as TensorImpl;
  if (d.device.type !== 'cpu') throw new NotImplementedError(`${op}: torch-ts has sparse kernels on the CPU only, got a dense tensor on ${d.device}`);
  return d;
}

/** A contiguous CPU copy of `d` where it is not one already (a new reference either way). */
function contiguousCopy(op: string, d: TensorImpl): TensorImpl {
  return d.isContiguous && d.storageOffset === 0 ? d.retain() : newContiguousCopy(op, d);
}

/** A new contiguous CPU tensor holding `d`'s values (one a kernel may then write into). */
function newContiguousCopy(op: string, d: TensorImpl): TensorImpl {
  const out = TensorImpl.empty(op, d.sizes, d.dtype, CPU);
  const h = new Tensor(d.retain());
  try {
    (valuesOf(out) as Float64Array).set(valuesOf(h.contiguous().impl) as Float64Array);
  } finally {
    h.dispose();
  }
  return out;
}

/** Registers the SparseCPU kernels (core's api.ts, once every op they extend is declared). */
export function registerSparseKernels(): void {
  registerKernel(SPARSE_COO_UNSAFE, DispatchKey.CPU, (_ks, [indices, values, size]) => {
    const i = indices as TensorImpl;
    const v = values as TensorImpl;
    const ic = contiguousCopy('_sparse_coo_tensor_unsafe', i);
    const vc = contiguousCopy('_sparse_coo_tensor_unsafe', v);
    // (fewer than two entries are coalesced from the start, as PyTorch's SparseTensorImpl marks them)
    return adopt(size as number[], ic, vc, vc.sizes[0] < 2);
  });
  // (complex values are stored as they are: the op is no arithmetic, so the Complex key passes it on)
  registerKernel(SPARSE_COO_UNSAFE, DispatchKey.Complex, FALLTHROUGH);
  registerKernel(SPARSE_MASK, DispatchKey.Complex, FALLTHROUGH);
  onSparse(INDICES_, ([t]) => memberView(sparse(t).indices));
  onSparse(VALUES_, ([t]) => memberView(sparse(t).values));
  onSparse(INDICES, ([t]) => {
    if (!sparse(t).coalesced) throw new TorchError('indices: Cannot get indices on an uncoalesced tensor, please call .coalesce() first');
    return memberView(sparse(t).indices);
  });
  onSparse(VALUES, ([t]) => {
    if (!sparse(t).coalesced) throw new TorchError('values: Cannot get values on an uncoalesced tensor, please call .coalesce() first');
    return memberView(sparse(t).values);
  });
  onSparse(NNZ, ([t]) => sparse(t).nnz);
  onSparse(SPARSE_DIM, ([t]) => sparse(t).sparseDim);
  onSparse(DENSE_DIM, ([t]) => sparse(t).denseDim);
  onSparse(IS_COALESCED, ([t]) => sparse(t).coalesced);
  onSparse(COALESCE_, ([t]) => coalesce(sparse(t)));
  onSparse(TO_DENSE_, ([t, dtype]) => {
    const d = toDense(sparse(t));
    if (dtype == null || dtype === d.dtype) return d;
    const h = new Tensor(d);
    try {
      return to(h, dtype as DType).impl.retain();
    } finally {
      h.dispose();
    }
  });
  onSparse(SPARSE_SUM_DIM, ([self, dim]) => sparseSumDim(sparse(self), dim as number[]));
  onSparse(SPARSE_MASK, ([self, mask]) => {
    if (isSparse(self)) throw new NotImplementedError("sparse_mask: Could not run 'aten::sparse_mask' with a sparse 'self': self must be a dense tensor");
    if (!isSparse(mask)) throw new TorchError('sparse_mask: expected mask to be a sparse COO tensor');
    // 1.13 refuses before anything else (the sizes included): an uncoalesced mask may repeat an entry
    if (!mask.coalesced) throw new TorchError('sparse_mask: mask is uncoalesced');
    const d = contiguousCopy('sparse_mask', dense('sparse_mask', self));
    try {
      return sparseMask(d, mask);
    } finally {
      d.release();
    }
  });

  // add: dense + sparse is dense, sparse + sparse sparse (Note [Sparse COO tensors]).
  const addOf = (op: string, self: unknown, other: unknown, alpha: unknown): TensorImpl => {
    const a = Number(alpha ?? 1);
    if (isSparse(self) && !isSparse(other)) throw new TorchError(`${op}: add(sparse, dense) is not supported. Use add(dense, sparse) instead.`);
    if (isSparse(self) && isSparse(other)) return addSparse(self, other, a);
    const d = dense(op, self);
    const s = sparse(other);
    if (d.sizes.length !== s.sizes.length || d.sizes.some((n, k) => n !== s.sizes[k])) {
      throw new ShapeError(`${op}: expected 'self' and 'other' to have same size, but self has size ${fmtShape(d.sizes)} while other has size ${fmtShape(s.sizes)} (FYI: dense-sparse addition does not currently support broadcasting)`);
    }
    if (d.dtype !== s.dtype) throw new TorchError(`${op}: torch-ts adds a sparse tensor into a dense one of the same dtype, got ${d.dtype} and ${s.dtype}`);
    const out = newContiguousCopy(op, d);
    addSparseInto(out, s, a);
    return out;
  };
  onSparse('add', ([self, other, alpha]) => addOf('add', self, other, alpha));
  onSparse('add_', ([self, other, alpha]) => {
    const r = addOf('add_', self, other, alpha);
    if (isSparse(self)) {
      const s = r as SparseTensorImpl;
      self.setMembers(s.indices, s.values, s.coalesced);
    } else {
      const d = self as TensorImpl;
      if (!d.isContiguous) {
        r.release();
        throw new NotImplementedError('add_: torch-ts adds a sparse tensor in place into a contiguous dense tensor only');
      }
      (valuesOf(d) as Float64Array).set(valuesOf(r) as Float64Array);
    }
    r.release();
    return self;
  });
  registerSparseMath();
  onSparse('neg', ([self]) => scaleSparse('neg', sparse(self), -1));
  onSparse('clone', ([self, memoryFormat]) => {
    if (memoryFormat != null && memoryFormat !== 'preserve') {
      throw new TorchError(`clone: unsupported memory format option ${memoryFormat === 'contiguous' ? 'Contiguous' : String(memoryFormat)}`);
    }
    return scaleSparse('clone', sparse(self), 1);
  });
  onSparse('detach', ([self]) => {
    const s = sparse(self);
    return new SparseTensorImpl(s.sizes, s.indices, s.values, s.coalesced);
  });
  // (`zero_` is `fill_(0)` in torch-ts: a sparse tensor takes 0 only, and becomes empty and coalesced as PyTorch's zero_)
  onSparse('fill_.Scalar', ([self, value]) => {
    if (Number(value) !== 0) throw new NotImplementedError("fill_: Could not run 'aten::fill_.Scalar' with arguments from the 'SparseCPU' backend (a sparse tensor is zeroed only, x.zero_())");
    const s = sparse(self);
    const [indices, values] = newMembers('zero_', s, 0);
    s.setMembers(indices, values, true);
    indices.release();
    values.release();
    return self;
  });
}


