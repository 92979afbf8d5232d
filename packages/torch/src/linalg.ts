/**
 * `torch.linalg`: the LU / Cholesky / triangular family and the functions composed of it
 * (inv, det, slogdet, solve, lu, matrixPower, multiDot, the norms, vecdot, cross), the SVD
 * family (svd, svdvals, pinv, matrixRank, cond, norm), camelCased
 * (`torch.linalg.luFactor`, `torch.linalg.invEx`). Named-tuple results are arrays with named
 * fields: `const [LU, pivots] = torch.linalg.luFactor(A)` or `.LU`.
 */
// The front ends declared in core with the `linalg` namespace (Note [Front ends are declared once])
export * from './generated/linalg-front-ops';
/** Raised on CPU by the non-`_ex` functions for a singular or not positive-definite input (PyTorch's torch.linalg.LinAlgError). */
export { LinAlgError } from '@torch-ts/core';
