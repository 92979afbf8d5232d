import { toRealValueType } from '../dtype';
import { abs } from './generated/table-ops';
import { callFunctional, unwrapTensor } from './call';
import { registerComplexKernel } from './complex';
import { LINALG_VECTOR_NORM } from './reduction-stats';
import { fallThroughComplex } from './linalg-complex-factor';
import { LINALG_CHOLESKY_EX, LINALG_LU_FACTOR_EX, LINALG_LU_SOLVE, LINALG_SOLVE_TRIANGULAR } from './linalg-solve';
import { LINALG_EIGH } from './linalg-qr';

/**
 * Complex inputs to the vector norm (and so to matrix_norm's 'fro', 1 and inf, which reduce
 * with it): the norm of the moduli |z|, as PyTorch's, whose derivative is |z|'s (Note
 * [Complex gradients]); a `dtype` names the result's real dtype.
 */
export function registerLinalgComplexKernels(): void {
  // Note [Complex linalg primitives]
  fallThroughComplex(LINALG_LU_FACTOR_EX, LINALG_LU_SOLVE, LINALG_SOLVE_TRIANGULAR, LINALG_CHOLESKY_EX, LINALG_EIGH);
  registerComplexKernel(LINALG_VECTOR_NORM, ([x, ord, dim, keepdim, dtype]) =>
    callFunctional(LINALG_VECTOR_NORM, [unwrapTensor('linalg.vector_norm', 'x', abs(x)), ord, dim, keepdim, dtype == null ? null : toRealValueType(dtype)]),
  );
}
