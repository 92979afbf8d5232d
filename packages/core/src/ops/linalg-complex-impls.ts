import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The complex impls of the LU / Cholesky / triangular family and of eigh (Note [Complex
 * linalg primitives] in linalg-complex-factor.ts), on the terms of LinalgImpls'
 * (linalg-solve-impls.ts) but on complex matrices given as their parts: each matrix argument
 * is a fresh contiguous float32 / float64 tensor whose trailing dim of 2 holds the (real,
 * imaginary) parts of a complex64 / complex128 matrix ([B, m, n, 2]); pivots and info are
 * int32 as the real impls'. Where the real impl transposes, these take the conjugate
 * transpose. A backend without complex linalg opts out with notImplemented, which core
 * reports as its "no kernel" error.
 */
export interface ComplexLinalgImpls {
  /** luFactor of complex matrices: the pivot is the first element of largest |re| + |im| (BLAS's izamax, as zgetrf's). */
  luFactorComplex: (lu: TensorImpl, pivots: TensorImpl, info: TensorImpl) => void;
  /** luSolve of complex matrices; `adjoint`: A^H X = B. */
  luSolveComplex: (x: TensorImpl, lu: TensorImpl, pivots: TensorImpl, adjoint: boolean) => void;
  /** solveTriangular of complex matrices. */
  solveTriangularComplex: (x: TensorImpl, a: TensorImpl, upper: boolean, unitriangular: boolean) => void;
  /** cholesky of Hermitian matrices (lower triangle read, A = L L^H; the diagonal's imaginary parts are not read). */
  choleskyComplex: (l: TensorImpl, info: TensorImpl) => void;
  /**
   * `a` ([B, n, n, 2]; only the triangle `upper` names is read, the matrix taken as
   * Hermitian, its diagonal's imaginary parts ignored) becomes its eigenvectors (the columns,
   * orthonormal), `w` ([B, n], the parts' dtype) its eigenvalues in ascending order.
   */
  eighComplex: (a: TensorImpl, w: TensorImpl, upper: boolean) => void;
  /**
   * geqrf of complex matrices (LAPACK's zgeqrf): `a` ([B, m, n, 2]) becomes its packed
   * Householder QR (R's diagonal real), `tau` ([B, min(m, n), 2]) the reflectors' complex
   * scales from zlarfg, H = I - tau v v^H.
   */
  geqrfComplex: (a: TensorImpl, tau: TensorImpl) => void;
  /** householderProduct of complex reflectors (LAPACK's zungqr): `q` [B, m, n, 2], `tau` [B, k, 2], k <= n <= m. */
  householderProductComplex: (q: TensorImpl, tau: TensorImpl) => void;
  /**
   * svd of complex matrices (Note [Complex SVD] in linalg-svd.ts), on SvdImpls' terms: `a`
   * [B, m, n, 2] (may be overwritten), `s` [B, k] real (the parts' dtype), descending; `u`
   * [B, m, k or m, 2] and `vh` [B, k or n, n, 2] both null or both given, unitary columns
   * (rows), each pair (u_i, v_i) unique up to a common unit phase only: any phase will do.
   */
  svdComplex: (a: TensorImpl, s: TensorImpl, u: TensorImpl | null, vh: TensorImpl | null) => void;
  /**
   * lstsq of complex matrices (LinalgQrImpls' lstsq on the parts: `a` [B, m, n, 2], `x` [B,
   * max(m, n), k, 2], every transpose conjugate), except that for m > n (and a full-rank gels)
   * the real part of row n of `x` becomes each column's residual sum |B - A X|^2, its
   * imaginary part zero.
   */
  lstsqComplex: (a: TensorImpl, x: TensorImpl, rank: TensorImpl, info: TensorImpl, pivot: boolean, rcond: number) => void;
  /**
   * lstsqSvd of complex matrices: `u` [B, m, kk, 2], `s` [B, kk] real, `vh` [B, kk, n, 2],
   * `x` [B, max(m, n), k, 2]; X = V diag(1/s_kept) U^H B and, for m > n, row n's real part the
   * residuals (imaginary part zero).
   */
  lstsqSvdComplex: (u: TensorImpl, s: TensorImpl, vh: TensorImpl, x: TensorImpl, rank: TensorImpl, rcond: number, floor: number) => void;
  /** matrixExp of complex matrices (`out`, `a` [B, n, n, 2]): ATen's mexp with the thresholds of the parts' dtype. */
  matrixExpComplex: (out: TensorImpl, a: TensorImpl) => void;
}
