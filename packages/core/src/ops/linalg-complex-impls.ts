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
}
