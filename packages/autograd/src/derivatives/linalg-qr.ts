import {
  TorchError,
  abs,
  amax,
  countsAreAsync,
  diagonal,
  imag,
  isComplexType,
  add,
  cat,
  conj,
  div,
  eye,
  linalgMatrixExp,
  linalgPinv,
  linalgSvd,
  linalgSolveTriangular,
  matmul,
  mul,
  narrow,
  neg,
  squeeze,
  sub,
  tril,
  triu,
  unsqueeze,
  zerosLike,
  type Tensor,
} from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf, Derivative } from '../derivative';
import { savedTensor, sumTo } from './common';
import { pinvJvp } from './linalg-jvp';

/**
 * The derivatives of torch.linalg part 2a (core's Note [The QR, eigh, lstsq and matrix_exp
 * primitives]), PyTorch's formulas (derivatives.yaml and FunctionsManual of 1.13) written
 * with matmul, triangular solves and the ops themselves, so they run on every backend and
 * differentiate again. Where a formula reads ^H it holds for complex inputs too (geqrf,
 * householder_product, qr and eigh take them: core's Note [Complex linalg primitives]); for
 * a real dtype ^H is ^T.
 */

const mH = (t: Tensor): Tensor => t.mH;

/** X R^-H for upper-triangular R (a triangular solve from the right). */
function rightSolveRh(X: Tensor, R: Tensor): Tensor {
  return linalgSolveTriangular(mH(R), X, { upper: false, left: false });
}

/**
 * PyTorch's syminvadj(triu(X)): the Hermitian matrix whose strict upper triangle is X's and
 * whose diagonal is Re diag(X) (the adjoint of the map from a Hermitian dQ-part to R's
 * upper triangle with its real diagonal; for a real X, X's upper triangle copied below).
 */
function hermitianFromUpper(X: Tensor): Tensor {
  const U = triu(X, 1);
  const n = X.shape[X.dim() - 1];
  const D = mul(X, eye(n, { dtype: X.dtype, device: X.device }));
  return add(add(U, mH(U)), mul(add(D, mH(D)), 0.5));
}

/**
 * linalg_qr_backward (PyTorch 1.13's, real and complex). For m >= n (reduced): gA = (gQ + Q
 * syminvadj(triu(gR R^H - Q^H gQ))) R^-H. For m < n, A = [X Y] with X = Q R1 square and Y =
 * Q R2: the same formula for X with gQ' = gQ + Y gR2^H, and gY = Q gR2. 'r' mode and
 * complete mode with m > n raise as PyTorch's.
 */
const LinalgQrBackward0: DerivativeOf<'linalg_qr'> = {
  name: 'LinalgQrBackward0',
  inputs: ['A'],
  saves: ['A', 'result0', 'result1'],
  backward: (ctx) => {
    const mode = ctx.args[1];
    if (!ctx.needs[0]) return [null];
    if (mode === 'r') {
      throw new Error("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
    }
    const Q = savedTensor(ctx, 'result0', 'linalg_qr');
    const R = savedTensor(ctx, 'result1', 'linalg_qr');
    const m = Q.shape[Q.dim() - 2];
    const n = R.shape[R.dim() - 1];
    if (mode === 'complete' && m > n) throw new Error("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
    const gQ = ctx.grads[0] ?? zerosLike(Q);
    const gR = ctx.grads[1] ?? zerosLike(R);
    if (m >= n) {
      const X = sub(matmul(gR, mH(R)), matmul(mH(Q), gQ));
      return [rightSolveRh(add(gQ, matmul(Q, hermitianFromUpper(X))), R)];
    }
    const A = savedTensor(ctx, 'A', 'linalg_qr');
    const R1 = narrow(R, -1, 0, m);
    const gR1 = narrow(gR, -1, 0, m);
    const gR2 = narrow(gR, -1, m, n - m);
    const Y = narrow(A, -1, m, n - m);
    const gQ2 = add(gQ, matmul(Y, mH(gR2)));
    const X = sub(matmul(gR1, mH(R1)), matmul(mH(Q), gQ2));
    const gX = rightSolveRh(add(gQ2, matmul(Q, hermitianFromUpper(X))), R1);
    return [cat([gX, matmul(Q, gR2)], -1)];
  },
};

/**
 * householder_product_backward: Q = (H_0 ... H_{k-1})[:, :n], H_i = I - tau_i v_i v_i^H with
 * v_i the column i of `input` below the diagonal and 1 on it. With P_i = H_0 ... H_{i-1} and
 * S_i = H_{i+1} ... H_{k-1} E (E the first n columns of I), the gradient reaching H_i is G_i
 * = P_i^H gQ S_i^H, so g tau_i = -v_i^H G_i v_i and g v_i = -(conj(tau_i) G_i + tau_i
 * G_i^H) v_i (the conjugate Wirtinger gradients of Note [Complex gradients]; for a real
 * dtype -tau_i (G_i + G_i^T) v_i), of which the part below the diagonal is input's. (The
 * gradient is unique: this is PyTorch's value, by the product rule applied reflector by
 * reflector.)
 */
const LinalgHouseholderProductBackward0: DerivativeOf<'linalg_householder_product'> = {
  name: 'LinalgHouseholderProductBackward0',
  inputs: ['input', 'tau'],
  saves: ['input', 'tau'],
  backward: (ctx) => {
    const input = savedTensor(ctx, 'input', 'linalg_householder_product');
    const tau = savedTensor(ctx, 'tau', 'linalg_householder_product');
    const g = ctx.grad;
    const [m, n] = input.shape.slice(-2);
    const k = tau.shape[tau.dim() - 1];
    if (k === 0 || input.numel() === 0) return [ctx.needs[0] ? zerosLike(input) : null, ctx.needs[1] ? zerosLike(tau) : null];
    const V = add(tril(input, -1), eye(m, n, { dtype: input.dtype, device: input.device }));
    const I = eye(m, { dtype: input.dtype, device: input.device });
    const vs: Tensor[] = [];
    const hs: Tensor[] = [];
    for (let i = 0; i < k; i++) {
      const v = narrow(V, -1, i, 1);
      vs.push(v);
      const t = unsqueeze(narrow(tau, -1, i, 1), -1);
      hs.push(sub(I, mul(t, matmul(v, mH(v)))));
    }
    // suffixes S_i (m x n), from the last reflector
    const S: Tensor[] = new Array<Tensor>(k);
    S[k - 1] = eye(m, n, { dtype: input.dtype, device: input.device });
    for (let i = k - 1; i > 0; i--) S[i - 1] = matmul(hs[i], S[i]);
    const gvs: Tensor[] = [];
    const gtaus: Tensor[] = [];
    let P: Tensor | null = null;
    for (let i = 0; i < k; i++) {
      const left = P === null ? g : matmul(mH(P), g);
      const G = matmul(left, mH(S[i]));
      const v = vs[i];
      gtaus.push(squeeze(neg(matmul(mH(v), matmul(G, v))), -1));
      const t = unsqueeze(narrow(tau, -1, i, 1), -1);
      gvs.push(neg(add(mul(conj(t), matmul(G, v)), mul(t, matmul(mH(G), v)))));
      P = P === null ? hs[i] : matmul(P, hs[i]);
    }
    let gInput: Tensor | null = null;
    if (ctx.needs[0]) {
      const cols = k < n ? [...gvs, zerosLike(narrow(input, -1, k, n - k))] : gvs;
      gInput = tril(cat(cols, -1), -1);
    }
    return [gInput, ctx.needs[1] ? cat(gtaus, -1) : null];
  },
};

/**
 * linalg_eig_backward for a symmetric A (PyTorch's, is_hermitian): eigenvalues only, gA = V
 * diag(gL) V^T; with gV, gA = V ((skew(V^T gV) / E) + diag(gL)) V^T, E_ij = L_j - L_i (1 on
 * the diagonal), skew(X) = (X - X^T) / 2. (For real dtypes the eigenvectors' gauge is their
 * sign, to which a well-defined loss is invariant; PyTorch checks the complex phase only.)
 */
const LinalgEighBackward0: DerivativeOf<'_linalg_eigh'> = {
  name: 'LinalgEighBackward0',
  inputs: ['A'],
  saves: ['result0', 'result1'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const [gL, gV] = ctx.grads;
    const L = savedTensor(ctx, 'result0', '_linalg_eigh');
    const V = savedTensor(ctx, 'result1', '_linalg_eigh');
    // (^H: PyTorch's formula, for real and complex A alike: core's Note [Complex linalg primitives])
    const Vh = V.mH;
    if (!gV) {
      if (!gL) return [null];
      return [matmul(mul(V, unsqueeze(gL, -2)), Vh)];
    }
    if (V.numel() === 0 && L.numel() > 0) throw new Error('linalg_eigh_backward: torch.linalg.eigvalsh does not support backpropagation through the eigenvectors');
    let VhgV = matmul(Vh, gV);
    if (isComplexType(V.dtype)) checkEighGauge(VhgV);
    VhgV = mul(sub(VhgV, VhgV.mH), 0.5);
    const n = L.shape[L.dim() - 1];
    const I = eye(n, { dtype: L.dtype, device: L.device });
    // E with ones on the diagonal; gL, where given, replaces the diagonal (PyTorch's copy_)
    const E = add(sub(unsqueeze(L, -2), unsqueeze(L, -1)), I);
    let ret = div(VhgV, E);
    if (gL) ret = add(mul(ret, sub(1, I)), mul(I, unsqueeze(gL, -2)));
    return [matmul(V, matmul(ret, Vh))];
  },
};

/** linalg_eigh_backward's gauge check (complex): Im diag(V^H gV) must be close to 0 (PyTorch's allclose, rtol = atol = 1e-2). */
function checkEighGauge(VhgV: Tensor): void {
  const im = imag(diagonal(VhgV, 0, -2, -1));
  if (im.numel() === 0 || countsAreAsync(im.device)) return;
  if (!((amax(abs(im)).item() as number) <= 1e-2)) {
    throw new TorchError(
      'linalg_eigh_backward: The eigenvectors in the complex case are specified up to multiplication by e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined.',
    );
  }
}

/**
 * pinv_backward (PyTorch 1.13's, FunctionsManual): the gradient of pinv(A) = `pinvA` for the
 * gradient `grad` of it, written with ^H (^T for a real dtype), so complex inputs get
 * PyTorch's conjugate Wirtinger gradient.
 */
export function pinvBackward(grad: Tensor, pinvA: Tensor, A: Tensor): Tensor {
  const [m, n] = A.shape.slice(-2);
  const pinvAh = pinvA.mH;
  const gradh = grad.mH;
  if (m <= n) {
    const K = matmul(gradh, pinvA);
    const KpinvAh = matmul(K, pinvAh);
    return add(sub(add(neg(matmul(pinvA, K).mH), KpinvAh), matmul(matmul(A, pinvA), KpinvAh)), matmul(matmul(pinvAh, pinvA), sub(gradh, matmul(K, A))));
  }
  const K = matmul(pinvA, gradh);
  const pinvAhK = matmul(pinvAh, K);
  return sub(add(add(neg(matmul(K, pinvA).mH), matmul(matmul(sub(gradh, matmul(A, K)), pinvA), pinvAh)), pinvAhK), matmul(matmul(pinvAhK, pinvA), A));
}

/** linalg_pinv's own derivative (core's Note [pinv differentiates itself]): pinv_backward(grad, result, self), for hermitian or not. */
const LinalgPinvBackward0: DerivativeOf<'_linalg_pinv'> = {
  name: 'LinalgPinvBackward0',
  inputs: ['self'],
  saves: ['self', 'result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const A = savedTensor(ctx, 'self', '_linalg_pinv');
    const pinvA = savedTensor(ctx, 'result', '_linalg_pinv');
    return [pinvBackward(ctx.grad, pinvA, A)];
  },
  // pinv_jvp (Note [SVD and pinv JVPs])
  forward: (ctx) => {
    const dA = ctx.tangents[0];
    return [dA ? pinvJvp(ctx.primals[0]!, ctx.results[0]!, dA) : null];
  },
};

/**
 * linalg_lstsq_backward: X = pinv(A) B, so gA = pinv_backward(gX B^H, pinv(A), A) and gB =
 * pinv(A)^H gX, with 1.13's pinv(A): linalg.pinv at its default tolerances, whatever the
 * driver and rcond (FunctionsManual's at::linalg_pinv(A)). The residuals (m > n) are
 * differentiable as in 2.x (1.13 marks them not differentiable; torch-ts records a gradient
 * for every float output, so it gives theirs rather than a silent zero): r_j = |A x_j -
 * b_j|^2 at the optimum, where the gradient in x vanishes, so gA += 2 (A X - B) diag(gr) X^T
 * and gB -= 2 (A X - B) diag(gr). For the same reason the SVD drivers' singular values get
 * svd_backward's gradient for S alone, U diag(gS) Vh (PyTorch marks them not differentiable).
 */
const LinalgLstsqBackward0: DerivativeOf<'linalg_lstsq'> = {
  name: 'LinalgLstsqBackward0',
  inputs: ['self', 'b'],
  saves: ['self', 'b', 'result0'],
  backward: (ctx) => {
    const gX0 = ctx.grads[0];
    const gRes = ctx.grads[1] && ctx.grads[1].numel() > 0 ? ctx.grads[1] : null;
    const gS = ctx.grads[3] && ctx.grads[3].numel() > 0 ? ctx.grads[3] : null;
    if ((!gX0 && !gRes && !gS) || (!ctx.needs[0] && !ctx.needs[1])) return [null, null];
    const A = savedTensor(ctx, 'self', 'linalg_lstsq');
    const B0 = savedTensor(ctx, 'b', 'linalg_lstsq');
    const vector = A.dim() - B0.dim() === 1;
    const asMatrix = (t: Tensor) => (vector ? unsqueeze(t, -1) : t);
    const B = asMatrix(B0);
    let gA: Tensor | null = null;
    let gB: Tensor | null = null;
    if (gX0) {
      const gX = asMatrix(gX0);
      const pinvA = linalgPinv(A);
      if (ctx.needs[0]) gA = pinvBackward(matmul(gX, mH(B)), pinvA, A);
      if (ctx.needs[1]) gB = matmul(mH(pinvA), gX);
    }
    if (gRes) {
      const X = asMatrix(savedTensor(ctx, 'result0', 'linalg_lstsq'));
      const scaled = mul(sub(matmul(A, X), B), mul(unsqueeze(gRes, -2), 2));
      if (ctx.needs[0]) gA = gA ? add(gA, matmul(scaled, mH(X))) : matmul(scaled, mH(X));
      if (ctx.needs[1]) gB = gB ? sub(gB, scaled) : neg(scaled);
    }
    if (gS && ctx.needs[0]) {
      const { U, Vh } = linalgSvd(A, { fullMatrices: false });
      const fromS = matmul(mul(U, unsqueeze(gS, -2)), Vh);
      gA = gA ? add(gA, fromS) : fromS;
    }
    return [gA ? sumTo(gA, A.shape) : null, gB ? sumTo(vector ? squeeze(gB, -1) : gB, B0.shape) : null];
  },
};

/** linalg_matrix_exp_differential (adjoint): exp([[A^H, G], [0, A^H]]), its top-right n x n block. */
const LinalgMatrixExpBackward0: DerivativeOf<'linalg_matrix_exp'> = {
  name: 'LinalgMatrixExpBackward0',
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const A = savedTensor(ctx, 'self', 'linalg_matrix_exp');
    const n = A.shape[A.dim() - 1];
    // (the adjoint: A^H, conjugated for complex A as PyTorch's matrix_exp_backward)
    const Ah = mH(A);
    const meta = cat([cat([Ah, ctx.grad], -1), cat([zerosLike(A), Ah], -1)], -2);
    return [narrow(narrow(linalgMatrixExp(meta), -2, 0, n), -1, n, n)];
  },
};

const GeqrfBackward0: Derivative = {
  name: 'GeqrfBackward0',
  inputs: ['self'],
  saves: [],
  backward: () => {
    throw new Error("the derivative for 'geqrf' is not implemented.");
  },
};

export const LINALG_QR_DERIVATIVES = {
  geqrf: GeqrfBackward0,
  linalg_householder_product: LinalgHouseholderProductBackward0,
  linalg_qr: LinalgQrBackward0,
  _linalg_eigh: LinalgEighBackward0,
  linalg_lstsq: LinalgLstsqBackward0,
  linalg_matrix_exp: LinalgMatrixExpBackward0,
  _linalg_pinv: LinalgPinvBackward0,
} satisfies DerivativeFamily;
