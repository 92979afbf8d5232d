import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The scans along one dim (Note [Scans]): `out` and `self` have the same shape (any strides;
 * `out` may be `self` itself for the in-place forms); core has cast `self` to `out`'s dtype.
 * A 0-dim tensor arrives as a one-element 1-D view (dim 0).
 */
export interface ScanImpls {
  cumsum: (out: TensorImpl, self: TensorImpl, dim: number) => void;
  cumprod: (out: TensorImpl, self: TensorImpl, dim: number) => void;
  /** Running max/min with the index where it was found (ties and NaN: the latest index, as PyTorch). */
  cummax: (values: TensorImpl, indices: TensorImpl, self: TensorImpl, dim: number) => void;
  cummin: (values: TensorImpl, indices: TensorImpl, self: TensorImpl, dim: number) => void;
}
