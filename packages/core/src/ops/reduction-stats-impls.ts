import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * Note [Row reductions]
 * The statistics reductions (var, std, vector norm, and the op table's logsumexp, all and any:
 * RowReduceImpl in backend-impls.ts) reduce a list of
 * dims. Core normalises their input before an impl runs: the reduced dims are moved last and
 * the tensor made contiguous (a copy only when it is not already so), in the dtype the impl
 * computes in. So `self` is contiguous, every run of `rowLength` consecutive elements is one
 * reduced slice, and `out` (contiguous, `self.numel / rowLength` elements, or any count when
 * rowLength is 0) receives one result per slice, in order. `rowLength` may be 0: the empty
 * reduction's value (NaN for var, -inf for logsumexp, 0 for norms, true for all, false for any).
 */

export interface StatsImpls {
  /**
   * var (or std, with `takeSqrt`) of each row: the sum of squared deviations from the row's
   * mean divided by max(rowLength - correction, 0). `self` is float32 or float64 (16-bit
   * inputs arrive as float32); `out`, and `mean` when given, are the input's own float dtype.
   */
  varMean: (out: TensorImpl, mean: TensorImpl | null, self: TensorImpl, rowLength: number, correction: number, takeSqrt: boolean) => void;
  /** The vector `ord`-norm of each row (0: count of nonzeros, ±Infinity: max/min of |x|). */
  vectorNorm: (out: TensorImpl, self: TensorImpl, rowLength: number, ord: number) => void;
  /**
   * The selections along one dim: `values`/`indices` have `self`'s rank with size 1 at `dim`
   * (any strides); `indices` is int64 or null (the global median needs no index); `self` has
   * size > 0 at `dim` and rank >= 1. medianDim: the lower median (a NaN wins: the first NaN's
   * value and index).
   */
  medianDim: (values: TensorImpl, indices: TensorImpl | null, self: TensorImpl, dim: number) => void;
  /** The most frequent value along `dim` (ties: the smallest value), index of its last occurrence. */
  modeDim: (values: TensorImpl, indices: TensorImpl | null, self: TensorImpl, dim: number) => void;
}
