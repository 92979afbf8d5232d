import type { TorchError } from '../errors';
import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * Note [Indexed access]
 * Every indexing op (advanced indexing, index_put_, gather, scatter*, index_select,
 * index_add, take, masked_*) reads or writes the elements of one tensor at positions that
 * index tensors name. Core reduces each of them to one shape, the *iteration shape* N, and
 * an `IndexedAccess` over it:
 *  - `data` is a view of the indexed tensor with sizes N whose strides are the tensor's own
 *    for the dims that are walked as they are, and 0 for the dims the indices stand in for;
 *  - `indices[k]` is an int64 tensor viewed (broadcast, stride 0 where it does not vary) at
 *    sizes N; its value v at a position adds `v * strides[k]` (elements) to that position's
 *    offset in `data`, after a negative v is wrapped by `sizes[k]`;
 *  - a value outside `[-sizes[k], sizes[k])` is an IndexError naming the op, the value,
 *    `dims[k]` and `sizes[k]`, raised BEFORE anything is written (data-dependent checks are
 *    the backend's: core cannot read a device tensor synchronously).
 * A gather then copies data[position] into a contiguous-or-not `out` of sizes N; a scatter
 * combines `src` (sizes N) into data[position] in row-major order of N, so that with
 * duplicate positions the last write wins ('set') or every value is combined.
 */
export interface IndexedAccess {
  readonly data: TensorImpl;
  readonly indices: readonly TensorImpl[];
  readonly strides: readonly number[];
  readonly sizes: readonly number[];
  readonly dims: readonly number[];
}

/**
 * How a scatter combines `src` into `data`: 'set' stores; 'add' adds `alpha * src` (alpha is
 * 1 except for index_add); 'mul' multiplies; 'amax'/'amin' keep the extremum (a NaN on
 * either side wins, as PyTorch's scatter_reduce).
 */
export type ScatterMode = 'set' | 'add' | 'mul' | 'amax' | 'amin';

/**
 * Which index values are valid and how a bad one is reported: 'wrap' (advanced indexing,
 * index_put_) takes [-size, size) and wraps negatives; 'nowrap' (gather, scatter*,
 * index_select, index_add) takes [0, size) only, as PyTorch's kernels do; 'take' wraps and
 * speaks of elements ("tried to access index 12 on a tensor of 12 elements").
 */
export type IndexErrorStyle = 'wrap' | 'nowrap' | 'take';

export interface IndexingImpls {
  /** out[p] = access.data[p + Σ indices]: out has sizes N and access.data's dtype. */
  indexGather: (op: string, out: TensorImpl, access: IndexedAccess, style: IndexErrorStyle) => void;
  /** access.data[p + Σ indices] (op)= src[p]; src has sizes N and access.data's dtype. */
  indexScatter: (op: string, access: IndexedAccess, src: TensorImpl, mode: ScatterMode, alpha: number | bigint, style: IndexErrorStyle) => void;
  /** The number of nonzero (true, NaN included) elements of `self`. */
  nonzeroCount: (self: TensorImpl) => number;
  /** out ([count, ndim] int64, contiguous): the row-major positions of the nonzero elements. */
  nonzeroFill: (out: TensorImpl, self: TensorImpl) => void;
  /**
   * The number of nonzero elements, read asynchronously: a backend that implements this
   * cannot read synchronously (WebGPU), and core then refuses the synchronous data-dependent
   * ops, naming their async forms (Note [Data-dependent sizes on async-read backends]).
   * CPU opts out (`notImplemented`): it counts synchronously.
   */
  nonzeroCountAsync: (self: TensorImpl) => Promise<number>;
  /**
   * masked_scatter_ without a host count (Note [Data-dependent sizes on async-read backends]):
   * `self` (in place) gets, at its k-th true position of `mask` (bool, at self's sizes,
   * row-major), `source[k]` (`source` 1-dim and contiguous). When the ones in the mask
   * outnumber `source` (or, with `exact`, differ from its numel) the backend reports
   * `error(count)`, a device-side error keyed by `errorKey` (one key per message), and
   * writes nothing out of bounds. CPU opts out: core then takes the nonzero path.
   */
  maskedScatterOrdered: (
    op: string,
    self: TensorImpl,
    mask: TensorImpl,
    source: TensorImpl,
    exact: boolean,
    errorKey: string,
    error: (count: number) => TorchError,
  ) => void;
}
