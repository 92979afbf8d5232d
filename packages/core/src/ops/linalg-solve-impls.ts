import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The impls of the LU / Cholesky / triangular family (linalg-solve.ts; Note [What a backend
 * implements]). Core hands every impl fresh contiguous tensors (no two share storage) of
 * float32 or float64, matrices stacked along one batch dim that core has already broadcast:
 * the impl reads the batch count off the sizes, overwrites its first argument in place and
 * never reads or writes past the tensors it is given. Results follow LAPACK's: getrf's
 * partial pivoting (the first largest magnitude in the column), getrs, trsm and potrf.
 */
export interface LinalgImpls {
  /**
   * `lu` ([B, m, n], holding A) becomes its LU factorization with partial pivoting, as
   * LAPACK's getrf packs it (L strictly below the diagonal, unit diagonal implied; U on and
   * above); `pivots` ([B, min(m, n)] int32) the 1-based row swapped with row i at step i;
   * `info` ([B] int32) 0, or the 1-based index of the first zero pivot (U[i, i] = 0; the
   * factorization still completes, as getrf's).
   */
  luFactor: (lu: TensorImpl, pivots: TensorImpl, info: TensorImpl) => void;
  /**
   * `x` ([B, n, k], holding the right-hand sides) becomes A^-1 X (`adjoint`: A^-H X) for A
   * = P L U given by `lu` ([B, n, n], packed as luFactor writes it) and `pivots` ([B, n]
   * int32, 1-based). A zero pivot divides by zero (inf / NaN, as getrs).
   */
  luSolve: (x: TensorImpl, lu: TensorImpl, pivots: TensorImpl, adjoint: boolean) => void;
  /**
   * `x` ([B, n, k], holding B) becomes A^-1 B for the triangle of `a` ([B, n, n]) that
   * `upper` names (the other is not read); `unitriangular`: the diagonal is taken as ones
   * and not read.
   */
  solveTriangular: (x: TensorImpl, a: TensorImpl, upper: boolean, unitriangular: boolean) => void;
  /**
   * `l` ([B, n, n], holding a symmetric A of which only the lower triangle is read) becomes
   * its lower Cholesky factor, the strict upper triangle zeroed; `info` ([B] int32) 0, or
   * the order of the first leading minor that is not positive-definite: then, as potrf, the
   * columns before it are the factor's, its diagonal element holds the value whose square
   * root was refused, and the rest keeps A's lower triangle.
   */
  cholesky: (l: TensorImpl, info: TensorImpl) => void;
}
