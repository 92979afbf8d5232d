/**
 * Note [Sparse COO tensors]
 * A sparse COO tensor is PyTorch's SparseTensorImpl: a logical shape `sizes` whose first
 * `sparseDim` dims are sparse and the other `denseDim` dense, and two dense member tensors,
 *  - `indices`: int64, shape [sparseDim, nnz], column k the coordinates of entry k;
 *  - `values`: shape [nnz, ...sizes[sparseDim:]], row k the (dense) value of entry k;
 * plus the `coalesced` flag: the indices are sorted (row-major over the sparse dims) and
 * unique. An uncoalesced tensor may repeat a coordinate, its value then being the sum.
 * It owns no data of its own: its storage is an empty one (TensorImpl needs a storage), and
 * `strides` are never read by a sparse kernel. Its key set is SparseCPU, ADInplaceOrView and
 * AutogradCPU (dispatch-key.ts): autograd and version counting wrap it as any tensor, and
 * below them only the ops with a SparseCPU kernel (sparse-ops.ts) run; every other op fails
 * with PyTorch's "Could not run 'aten::x' with arguments from the 'SparseCPU' backend"
 * (dispatcher.ts), and dense code paths never see a sparse tensor, so they stay as they were.
 * In-place sparse ops (`add_`, `mul_`, `zero_`) replace the members (`setMembers`), as
 * PyTorch's `set_indices_and_values_unsafe`, except `div_`, which divides the values where they
 * are, as PyTorch's (sparse-math.ts); the members are never shared writable with a user
 * (`indices()` / `values()` hand out views, and `_values()` writes reach the tensor, as PyTorch's).
 * A tensor made with fewer than two entries is coalesced from the start, as PyTorch marks it.
 * Values may be of any dtype (Note [Sparse values are lanes] in sparse-lanes.ts: complex ones
 * pass the Complex key untouched, the kernels add their parts). Autograd: building one from
 * values, `toDense`, `coalesce`, `values`, `mul` by a number and `mm(sparse, dense)` are
 * differentiable (autograd's derivatives/sparse.ts), and a leaf's gradient is sparse.
 * Only the CPU is supported (PyTorch's SparseCPU; no SparseWebGPU).
 */
import { SPARSE_CPU_KEYS } from '../dispatch/dispatch-key';
import { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { StorageImpl } from '../memory/storage-impl';
import { TensorImpl, VersionCounter } from '../tensor/tensor-impl';
import { contiguousStrides } from '../views';

const SPARSE_KEY_SET = DispatchKeySet.of(...SPARSE_CPU_KEYS);

export class SparseTensorImpl extends TensorImpl {
  #indices: TensorImpl;
  #values: TensorImpl;
  #coalesced: boolean;

  /** Takes one reference on `indices` and on `values` (the caller keeps its own). */
  constructor(sizes: readonly number[], indices: TensorImpl, values: TensorImpl, coalesced: boolean) {
    const storage = StorageImpl.allocate('sparse_coo_tensor', 0, values.device);
    super(storage, [...sizes], contiguousStrides(sizes), 0, values.dtype, values.device, new VersionCounter());
    storage.release(); // the TensorImpl holds its own reference
    // (keySet is readonly to everyone else: a sparse tensor's keys are its layout's)
    (this as { keySet: TensorImpl['keySet'] }).keySet = SPARSE_KEY_SET;
    this.#indices = indices.retain();
    this.#values = values.retain();
    this.#coalesced = coalesced;
  }

  get indices(): TensorImpl {
    return this.#indices;
  }

  get values(): TensorImpl {
    return this.#values;
  }

  get coalesced(): boolean {
    return this.#coalesced;
  }

  get sparseDim(): number {
    return this.#indices.sizes[0];
  }

  get denseDim(): number {
    return this.#values.dim - 1;
  }

  get nnz(): number {
    return this.#values.sizes[0];
  }

  /** Replaces the members (an in-place op's result: Note [Sparse COO tensors]); retains the new ones. */
  setMembers(indices: TensorImpl, values: TensorImpl, coalesced: boolean): void {
    indices.retain();
    values.retain();
    this.#indices.release();
    this.#values.release();
    this.#indices = indices;
    this.#values = values;
    this.#coalesced = coalesced;
  }

  /** PyTorch's `_coalesced_(flag)`. */
  setCoalesced(flag: boolean): void {
    this.#coalesced = flag;
  }

  protected override releaseResources(): void {
    super.releaseResources();
    this.#indices.release();
    this.#values.release();
  }
}

export function isSparseImpl(t: unknown): t is SparseTensorImpl {
  return t instanceof SparseTensorImpl;
}
