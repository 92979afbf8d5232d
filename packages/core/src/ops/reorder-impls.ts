import type { TensorImpl } from '../tensor/tensor-impl';

/** The impls of the reordering family (reorder.ts; Note [What a backend implements]). */
export interface ReorderImpls {
  /**
   * Zeroes in place the elements of `t` (at least 2-D, any layout, no internal overlap)
   * that triu (`upper`) or tril drop over its last two dims: those with column - row < k
   * (triu) or column - row > k (tril).
   */
  triZero: (t: TensorImpl, upper: boolean, k: number) => void;
  /**
   * out = self with `dims` (normalised, distinct, non-empty) reversed; same shape and dtype,
   * `out` fresh and contiguous, `self` any layout. `flipped` is `self` viewed with those dims
   * reversed through negative strides: copying it into `out` is the flip, which a backend
   * may do where it has no faster path.
   */
  flip: (out: TensorImpl, self: TensorImpl, dims: readonly number[], flipped: TensorImpl) => void;
}
