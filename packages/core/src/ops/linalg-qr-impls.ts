import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The impls of torch.linalg's QR / eigh / lstsq / matrix_exp family (linalg-qr.ts), on the
 * terms of the LU family's (linalg-solve-impls.ts): fresh contiguous float32 / float64
 * tensors, matrices stacked along their leading dims (the impl reads the batch count off the
 * sizes), nothing shared, the first argument overwritten in place.
 */
export interface LinalgQrImpls {
  /**
   * `a` ([B, m, n]) becomes its Householder QR as LAPACK's geqrf packs it (R on and above
   * the diagonal, the reflectors' v below it, v[0] = 1 implied) and `tau` ([B, min(m, n)])
   * the reflectors' scales, each from dlarfg: beta = -sign(alpha) * norm, tau = (beta -
   * alpha) / beta (tau = 0 where the column below the diagonal is zero).
   */
  geqrf: (a: TensorImpl, tau: TensorImpl) => void;
  /**
   * `q` ([B, m, n], m >= n, holding k = tau.size(-1) <= n reflectors in its first k columns
   * as geqrf packs them; the other columns are not read) becomes the first n columns of
   * H(0) H(1) ... H(k-1), as LAPACK's orgqr.
   */
  householderProduct: (q: TensorImpl, tau: TensorImpl) => void;
  /**
   * `a` ([B, n, n]; only the triangle `upper` names is read, the matrix taken as symmetric)
   * becomes its eigenvectors (the columns), `w` ([B, n]) its eigenvalues in ascending order;
   * `work` ([B, n, n], same dtype) is scratch.
   */
  eigh: (a: TensorImpl, w: TensorImpl, upper: boolean, work: TensorImpl) => void;
  /**
   * The least-squares solutions of A X = B: `a` ([B, m, n], overwritten with scratch), `x`
   * ([B, max(m, n), k], B's rows first, zeros after) whose first n rows become X.
   * `pivot=false` is LAPACK's gels (A assumed of full rank; `info` [B] int32 the 1-based
   * index of a zero diagonal element of the triangular factor, else 0; for m > n the rows n..m
   * of `x` keep Q^T B's, whose squares are the residuals); `pivot=true` is gelsy (QR with
   * column pivoting; `rank` [B] int32 the number of R's leading diagonal elements above
   * `rcond` times the first; X the minimum-norm solution of the rank-r problem). `work`
   * ([B, lstsqWorkSize(m, n, k)], a's dtype) is scratch.
   */
  lstsq: (a: TensorImpl, x: TensorImpl, rank: TensorImpl, info: TensorImpl, pivot: boolean, rcond: number, work: TensorImpl) => void;
  /**
   * The SVD drivers' (gelsd, gelss) least-squares solutions from A's reduced SVD: `u` ([B,
   * m, kk]), `s` ([B, kk], descending), `vh` ([B, kk, n]), kk = min(m, n) >= 1; `x` ([B,
   * max(m, n), k], B's rows first, zeros after). The singular values above max(rcond *
   * s[0], floor) are kept (core turns LAPACK's rules into these two numbers), `rank` ([B]
   * int32) their count; the first n rows of `x` become the minimum-norm solution V
   * diag(1/s_kept) U^T B and, for m > n, its row n the residuals |B - U_kept U_kept^T B|^2 of
   * each column (the other rows are left as they are). `work` ([B, kk * k], a's dtype) is
   * scratch.
   */
  lstsqSvd: (u: TensorImpl, s: TensorImpl, vh: TensorImpl, x: TensorImpl, rank: TensorImpl, rcond: number, floor: number, work: TensorImpl) => void;
  /**
   * `out` ([B, n, n]) becomes exp of each matrix of `a` (ATen's mexp: its degrees,
   * thresholds and scaling for the dtype); `work` ([B, MATRIX_EXP_WORK, n, n]) is scratch.
   */
  matrixExp: (out: TensorImpl, a: TensorImpl, work: TensorImpl) => void;
}

/** The n x n scratch matrices matrixExp is given per matrix (its kernels' powers, B's and products). */
export const MATRIX_EXP_WORK = 10;

/** The scratch elements lstsq is given per matrix: the taus, pivots, column norms, W^T, its taus and Y. */
export function lstsqWorkSize(m: number, n: number, k: number): number {
  const kk = Math.min(m, n);
  return 2 * kk + 3 * n + n * kk + Math.max(m, n) * k;
}
