import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The impl of the SVD (linalg-svd.ts; Note [What a backend implements]). Core hands fresh
 * contiguous float32 / float64 tensors with one leading batch dim (B, read off `a`'s sizes;
 * B > 0 and the matrices are not empty: core fills those results itself), nothing shared;
 * the impl may overwrite `a`.
 */
export interface SvdImpls {
  /**
   * The singular value decomposition A = U diag(S) Vh of each matrix of `a` ([B, m, n]),
   * k = min(m, n): `s` ([B, k]) the singular values, descending, as LAPACK's gesdd orders
   * them. `u` ([B, m, k], or [B, m, m] for the full decomposition) and `vh` ([B, k, n], or
   * [B, n, n]) are both null when only the values are wanted, else both given: their
   * columns (rows) are orthonormal, the ones past the k singular vectors (and those of an
   * exactly zero singular value) completing an orthonormal basis. Each pair (u_i, v_i) is
   * unique up to a common sign only (for distinct, nonzero values): any sign will do.
   */
  svd: (a: TensorImpl, s: TensorImpl, u: TensorImpl | null, vh: TensorImpl | null) => void;
}
