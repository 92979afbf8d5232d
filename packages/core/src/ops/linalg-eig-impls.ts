import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The impl of the general (non-symmetric) eigendecomposition (linalg-eig.ts; Note [What a
 * backend implements]), on the terms of the LU family's: fresh contiguous float32 / float64
 * tensors, nothing shared, one leading batch dim B > 0 and n > 0 (core fills the empty
 * results itself).
 */
export interface EigImpls {
  /**
   * The eigenvalues (and right eigenvectors) of each matrix of `a` ([B, n, n], overwritten
   * with scratch) exactly as LAPACK's geev computes them (Note [The eig primitive]):
   * `w` ([B, n, 2]) the eigenvalues as (real, imaginary) pairs in geev's order (a complex
   * conjugate pair next to each other, the one with the positive imaginary part first);
   * `v` ([B, n, n, 2], or null when only the values are wanted) the eigenvectors in its
   * columns as pairs, each of unit 2-norm with its largest component real (geev's
   * normalisation; a real eigenvalue's vector real). `info` ([B] int32): 0, -1 where the
   * matrix holds an inf or a NaN (then w and v are not written), or the 1-based index at
   * which the QR iteration failed to converge (LAPACK's info > 0). `work` ([B, 4n], a's
   * dtype) is scratch.
   */
  eig: (a: TensorImpl, w: TensorImpl, v: TensorImpl | null, info: TensorImpl, work: TensorImpl) => void;
  /**
   * eig of complex matrices as LAPACK's zgeev computes them, on their parts (Note [Complex
   * linalg primitives]): `a` [B, n, n, 2] (overwritten with scratch), `w` [B, n, 2] the
   * eigenvalues in zgeev's order, `v` ([B, n, n, 2] or null) the eigenvectors in its columns,
   * each of unit 2-norm with its component of largest modulus real (zgeev's normalisation);
   * `info` and `work` as eig's.
   */
  eigComplex: (a: TensorImpl, w: TensorImpl, v: TensorImpl | null, info: TensorImpl, work: TensorImpl) => void;
}
