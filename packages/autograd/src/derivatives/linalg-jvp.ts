import { cat, complex, diagonal, eye, imag, isComplex, matmul, mul, narrow, real, sub, add, div, unsqueeze, zeros, zerosLike, type Tensor } from '@torch-ts/core';

/**
 * Note [SVD and pinv JVPs]
 * The explicit forward formulas of the SVD with vectors and of pinv, PyTorch's svd_jvp and
 * pinv_jvp (FunctionsManual), so a Jacobian-vector product costs a few matmuls instead of the
 * double-VJP (Note [JVPs from backward formulas]), which rebuilds and differentiates the
 * whole backward each call.
 *
 * svd_jvp: with A = U S V^H (thin: k = min(m, n) columns), dP = U^H dA V, E_ij = s_j^2 - s_i^2
 * (1 on the diagonal) and sym(X) = X + X^H, differentiating A = U S V^H and U^H U = V^H V = I
 * gives dS = Re diag(dP) and, with X = dP - diag(dS) (dP's off-diagonal part and, for a
 * complex A, the imaginary diagonal),
 *   dU = U (sym(X S) / E + i Im diag(dP) / (2 S)) [+ (I - U U^H) dA V S^-1 where m > n]
 *   dV = V (sym(S X) / E - i Im diag(dP) / (2 S)) [+ (I - V V^H) dA^H U S^-1 where m < n]
 * and dVh = dV^H. The imaginary diagonal is the gauge: (u_i, v_i) -> e^{i phi}(u_i, v_i) leaves
 * A unchanged, and PyTorch splits the phase's tangent evenly between U and V, which the terms
 * above do (svd_backward's diag(U^H gU) / (2 S) is the same choice, transposed). With
 * full_matrices, the tangents of the extra columns of U (rows of Vh) are zeros, as PyTorch's
 * (they are not determined by A). Like svd_backward it assumes distinct nonzero singular
 * values: E or S is zero otherwise and the tangent is inf / NaN, as PyTorch's.
 *
 * pinv_jvp: d(A^+) = -A^+ dA A^+ + A^+ A^+^H dA^H (I - A A^+) + (I - A^+ A) dA^H A^+^H A^+,
 * grouped as PyTorch groups it so the products are of the smaller dimension. It holds where
 * the rank is locally constant, which is what pinv's tolerances decide (as in PyTorch, the
 * tolerance does not enter the formula).
 */

const mH = (t: Tensor): Tensor => t.mH;

/** The tangents (dU, dS, dVh) of `_linalg_svd(A, fullMatrices)` along dA, from its results (Note [SVD and pinv JVPs]). */
export function svdJvp(dA: Tensor, U_: Tensor, S: Tensor, Vh_: Tensor, fullMatrices: boolean): [Tensor, Tensor, Tensor] {
  const m = dA.shape[dA.dim() - 2];
  const n = dA.shape[dA.dim() - 1];
  const k = S.shape[S.dim() - 1];
  if (dA.numel() === 0 || k === 0) return [zerosLike(U_), zerosLike(S), zerosLike(Vh_)];
  const U = fullMatrices ? narrow(U_, -1, 0, k) : U_;
  const Vh = fullMatrices ? narrow(Vh_, -2, 0, k) : Vh_;
  const V = mH(Vh);
  const cplx = isComplex(dA);
  // dP = U^H dA V, multiplied in the order that keeps the intermediate k-sided
  const dP = m >= n ? matmul(mH(U), matmul(dA, V)) : matmul(matmul(mH(U), dA), V);
  const dPdiag = diagonal(dP, 0, -2, -1);
  const dS = cplx ? real(dPdiag) : dPdiag;
  const I = eye(k, { dtype: S.dtype, device: S.device });
  const X = sub(dP, mul(unsqueeze(dS, -1), I));
  const S2 = mul(S, S);
  const E = add(sub(unsqueeze(S2, -2), unsqueeze(S2, -1)), I);
  const XS = mul(X, unsqueeze(S, -2));
  const SX = mul(unsqueeze(S, -1), X);
  let omegaU = div(add(XS, mH(XS)), E);
  let omegaV = div(add(SX, mH(SX)), E);
  if (cplx) {
    // the phase's tangent, half to U and half to V: i Im(dP_ii) / (2 s_i) on the diagonal
    const half = div(imag(dPdiag), mul(S, 2));
    const phase = mul(unsqueeze(complex(zerosLike(half), half), -1), I);
    omegaU = add(omegaU, phase);
    omegaV = sub(omegaV, phase);
  }
  let dU = matmul(U, omegaU);
  let dV = matmul(V, omegaV);
  if (m > n) {
    const dAV = div(matmul(dA, V), unsqueeze(S, -2));
    dU = add(dU, sub(dAV, matmul(U, matmul(mH(U), dAV))));
  } else if (m < n) {
    const dAhU = div(matmul(mH(dA), U), unsqueeze(S, -2));
    dV = add(dV, sub(dAhU, matmul(V, matmul(Vh, dAhU))));
  }
  let dVh = mH(dV);
  if (fullMatrices && m !== n) {
    if (m > n) dU = cat([dU, zeros([...dU.shape.slice(0, -1), m - k], { dtype: dU.dtype, device: dU.device })], -1);
    else dVh = cat([dVh, zeros([...dVh.shape.slice(0, -2), n - k, n], { dtype: dVh.dtype, device: dVh.device })], -2);
  }
  return [dU, dS, dVh];
}

/** The tangent of pinv(A) = `pinvA` along dA (PyTorch's pinv_jvp, Note [SVD and pinv JVPs]). */
export function pinvJvp(A: Tensor, pinvA: Tensor, dA: Tensor): Tensor {
  const m = A.shape[A.dim() - 2];
  const n = A.shape[A.dim() - 1];
  const dAh = mH(dA);
  const pinvAh = mH(pinvA);
  if (m <= n) {
    const K = matmul(pinvAh, dAh);
    const first = matmul(pinvA, sub(sub(K, mH(K)), matmul(K, matmul(A, pinvA))));
    return add(first, matmul(sub(dAh, matmul(pinvA, matmul(A, dAh))), matmul(pinvAh, pinvA)));
  }
  const K = matmul(pinvA, dA);
  const Kh = mH(K);
  const first = matmul(sub(sub(Kh, K), matmul(matmul(pinvA, A), Kh)), pinvA);
  return add(first, matmul(matmul(pinvA, pinvAh), sub(dAh, matmul(matmul(dAh, A), pinvA))));
}
