import { toRealValueType } from '../dtype';
import { abs, neg } from './generated/table-ops';
import type { Tensor } from '../tensor/tensor';
import { imag, real, viewAsComplexOf } from './complex-views';
import { eye, zeros } from './factories';
import { cat, stack } from './join';
import { narrow } from './shape-ops';
import { callFunctional, unwrapTensor } from './call';
import { registerComplexKernel } from './complex';
import { LINALG_VECTOR_NORM } from './reduction-stats';
import { fallThroughComplex } from './linalg-complex-factor';
import { LINALG_CHOLESKY_EX, LINALG_LU_FACTOR_EX, LINALG_LU_SOLVE, LINALG_SOLVE_TRIANGULAR } from './linalg-solve';
import { GEQRF, LINALG_EIGH, LINALG_HOUSEHOLDER_PRODUCT, LINALG_LSTSQ, LINALG_MATRIX_EXP, LINALG_QR } from './linalg-qr';
import { LINALG_DET_ATTACH, LINALG_SVD } from './linalg-svd';
import { LINALG_EIG_PARTS } from './linalg-eig';

/**
 * Note [Complex linear solves by the real embedding]
 * A backend without complex linalg kernels (Note [Complex linalg primitives]; WebGPU has them)
 * still solves a complex system A X = B (A = P + iQ, X = Xr + iXi, B = Br + iBi), as the
 * real 2n x 2n system
 *     [[P, -Q], [Q, P]] [Xr; Xi] = [Br; Bi],
 * which is exact (the embedding is the ring homomorphism C^{n x n} -> R^{2n x 2n}; its
 * determinant is |det A|^2, so it is singular exactly where A is) and is composed of real
 * ops (the real LU family, views, cat), so autograd differentiates it, twice, and every
 * backend runs it. linalg.solve / solve_ex and inv / inv_ex take this path for complex
 * inputs on such a backend (linalg-front.ts; CPU and WebGPU factor the complex matrix itself); their `info` is the embedded factorization's: 0 exactly when
 * PyTorch's is, but a nonzero value indexes the 2n x 2n matrix. The cost is 8x a complex
 * LU's flops in real arithmetic, about 2x.
 */

/** The real embedding [[P, -Q], [Q, P]] of a complex (batch of) n x n matrices. */
export function complexEmbedding(A: Tensor): Tensor {
  const p = real(A);
  const q = imag(A);
  return cat([cat([p, neg(q)], -1), cat([q, p], -1)], -2);
}

/** A complex right-hand side [.., n, k] as its real parts stacked [.., 2n, k]. */
export function stackedParts(B: Tensor): Tensor {
  return cat([real(B), imag(B)], -2);
}

/** The identity's stacked parts [I; 0] (2n x n), in the real dtype of the complex `d`. */
export function stackedIdentity(n: number, like: Tensor): Tensor {
  const opts = { dtype: toRealValueType(like.dtype), device: like.device };
  return cat([eye(n, opts), zeros([n, n], opts)], -2);
}

/** The complex matrix whose parts are stacked in the real [.., 2n, k] `X`. */
export function fromStackedParts(X: Tensor, n: number): Tensor {
  return viewAsComplexOf(stack([narrow(X, -2, 0, n), narrow(X, -2, n, n)], -1));
}

/**
 * Complex inputs to the vector norm (and so to matrix_norm's 'fro', 1 and inf, which reduce
 * with it): the norm of the moduli |z|, as PyTorch's, whose derivative is |z|'s (Note
 * [Complex gradients]); a `dtype` names the result's real dtype.
 */
export function registerLinalgComplexKernels(): void {
  // Note [Complex linalg primitives]
  fallThroughComplex(LINALG_LU_FACTOR_EX, LINALG_LU_SOLVE, LINALG_SOLVE_TRIANGULAR, LINALG_CHOLESKY_EX, LINALG_EIGH, GEQRF, LINALG_HOUSEHOLDER_PRODUCT, LINALG_QR, LINALG_SVD, LINALG_EIG_PARTS, LINALG_LSTSQ, LINALG_MATRIX_EXP, LINALG_DET_ATTACH);
  registerComplexKernel(LINALG_VECTOR_NORM, ([x, ord, dim, keepdim, dtype]) =>
    callFunctional(LINALG_VECTOR_NORM, [unwrapTensor('linalg.vector_norm', 'x', abs(x)), ord, dim, keepdim, dtype == null ? null : toRealValueType(dtype)]),
  );
}
