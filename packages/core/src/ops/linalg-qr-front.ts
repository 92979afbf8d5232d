import type { Tensor } from '../tensor/tensor';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { front } from './front';
import { GEQRF, LINALG_EIGH, LINALG_HOUSEHOLDER_PRODUCT, LINALG_LSTSQ, LINALG_MATRIX_EXP, LINALG_QR } from './linalg-qr';
import { named } from './named-tuple';

/**
 * torch.linalg, part 2a: QR, the symmetric eigendecomposition, least squares and the matrix
 * exponential (Note [The QR, eigh, lstsq and matrix_exp primitives] in linalg-qr.ts), with
 * PyTorch's schemas and messages, in the `torch.linalg` namespace (camelCase:
 * `torch.linalg.householderProduct`), and torch.geqrf / orgqr / qr / matrix_exp with their
 * Tensor methods.
 */

const LINALG = { method: false, namespaces: ['linalg'] } as const;
const QR_MODES = { mode: ['reduced', 'complete', 'r'] } as const;

export type GeqrfResult = [Tensor, Tensor] & { readonly a: Tensor; readonly tau: Tensor };
export type QRResult = [Tensor, Tensor] & { readonly Q: Tensor; readonly R: Tensor };
export type EighResult = [Tensor, Tensor] & { readonly eigenvalues: Tensor; readonly eigenvectors: Tensor };
export type LstsqResult = [Tensor, Tensor, Tensor, Tensor] & {
  readonly solution: Tensor;
  readonly residuals: Tensor;
  readonly rank: Tensor;
  readonly singularValues: Tensor;
};

// ---- QR ----

/** LAPACK's geqrf: the packed Householder QR (R on and above the diagonal, the reflectors below) and the reflectors' `tau`. */
export const geqrf = front('geqrf(Tensor self) -> (Tensor a, Tensor tau)').run(([A]): GeqrfResult =>
  named(['a', 'tau'], callMulti(GEQRF, [unwrapTensor('geqrf', 'self', A)])),
);

function householderOf(op: string, A: Tensor, tau: Tensor): Tensor {
  return callFunctional(LINALG_HOUSEHOLDER_PRODUCT, [unwrapTensor(op, 'input', A), unwrapTensor(op, 'tau', tau)]);
}

/** The first n columns of the product of the Householder reflectors (v_i in `A`'s columns below the diagonal, scales `tau`): LAPACK's orgqr. */
export const linalgHouseholderProduct = front('linalg_householder_product(Tensor A, Tensor tau) -> Tensor', { ...LINALG, exportAs: 'householderProduct' }).run(
  ([A, tau]): Tensor => householderOf('linalg.householder_product', A, tau),
);

/** torch.orgqr: linalg.householder_product. */
export const orgqr = front('orgqr(Tensor self, Tensor input2) -> Tensor').run(([A, tau]): Tensor => householderOf('orgqr', A, tau));

function qrOf(A: Tensor, mode: string): QRResult {
  return named(['Q', 'R'], callMulti(LINALG_QR, [unwrapTensor('linalg.qr', 'A', A), mode]));
}

/**
 * A = Q R with orthonormal Q and upper-triangular R, as LAPACK computes them (R's diagonal
 * may be negative): `mode` 'reduced' (Q [m, k], R [k, n], k = min(m, n)), 'complete' (Q [m,
 * m], R [m, n]) or 'r' (R only; Q empty, and no derivative, as PyTorch's).
 */
export const linalgQr = front("linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)", { ...LINALG, exportAs: 'qr', choices: QR_MODES }).run(
  ([A, mode]): QRResult => qrOf(A, mode),
);

/** torch.qr (deprecated in PyTorch for linalg.qr): `some` is mode 'reduced', else 'complete'. */
export const qr = front('qr(Tensor self, bool some=True) -> (Tensor Q, Tensor R)').run(([A, some]): QRResult => qrOf(A, some ? 'reduced' : 'complete'));

// ---- eigh ----

function eighOf(A: Tensor, uplo: string): Tensor[] {
  return callMulti(LINALG_EIGH, [unwrapTensor('linalg.eigh', 'A', A), uplo, true]);
}

/**
 * The eigenvalues (ascending) and orthonormal eigenvectors (columns) of a symmetric matrix,
 * reading only the triangle `UPLO` names. Each eigenvector's sign is arbitrary, as LAPACK's.
 */
export const linalgEigh = front('linalg_eigh(Tensor A, str UPLO="L") -> (Tensor eigenvalues, Tensor eigenvectors)', { ...LINALG, exportAs: 'eigh' }).run(
  ([A, uplo]): EighResult => named(['eigenvalues', 'eigenvectors'], eighOf(A, uplo)),
);

/** The eigenvalues (ascending) of a symmetric matrix, reading only the triangle `UPLO` names. */
export const linalgEigvalsh = front('linalg_eigvalsh(Tensor A, str UPLO="L") -> Tensor', { ...LINALG, exportAs: 'eigvalsh' }).run(([A, uplo]): Tensor => {
  // (the eigenvectors too, as PyTorch's when A requires grad: the derivative needs them)
  const [w, V] = eighOf(A, uplo);
  V.dispose();
  return w;
});

// ---- lstsq ----

/**
 * The least-squares solution of A X = B (B a matrix, or a vector with one dim less than A),
 * with PyTorch's CPU drivers: 'gelsy' (the default: QR with column pivoting, the
 * minimum-norm solution for a rank-deficient A; `rank`), 'gels' (QR, A of full rank;
 * `residuals` for m > n), and 'gelsd' / 'gelss' (from the SVD, the singular values at or
 * below rcond times the largest cut: the minimum-norm solution, `rank`, `singularValues`,
 * and `residuals` for m > n when every matrix has rank n; Note [lstsq by the SVD]).
 */
export const linalgLstsq = front('linalg_lstsq(Tensor A, Tensor B, float? rcond=None, *, str? driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)', {
  ...LINALG,
  exportAs: 'lstsq',
}).run(
  ([A, B, rcond, driver]): LstsqResult =>
    named(['solution', 'residuals', 'rank', 'singularValues'], callMulti(LINALG_LSTSQ, [unwrapTensor('linalg.lstsq', 'A', A), unwrapTensor('linalg.lstsq', 'B', B), rcond ?? null, driver ?? null])),
);

// ---- matrix_exp ----

function matrixExpOf(A: Tensor): Tensor {
  return callFunctional(LINALG_MATRIX_EXP, [unwrapTensor('linalg.matrix_exp', 'A', A)]);
}

/** The matrix exponential, by ATen's degree-optimised Taylor polynomials with scaling and squaring. */
export const linalgMatrixExp = front('linalg_matrix_exp(Tensor A) -> Tensor', { ...LINALG, exportAs: 'matrixExp' }).run(([A]): Tensor => matrixExpOf(A));

/** torch.matrix_exp: linalg.matrix_exp. */
export const matrixExp = front('matrix_exp(Tensor self) -> Tensor').run(([A]): Tensor => matrixExpOf(A));
