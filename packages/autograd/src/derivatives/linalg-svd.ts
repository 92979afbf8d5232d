import { TorchError, conj, countsAreAsync, isComplex, imag, real, sum, abs, add, amax, arange, cat, cumprod, detach, diagonal, div, eye, lt, flip, linalgDet, linalgSolve, linalgSvd, matmul, mul, narrow, ones, sub, transpose, unsqueeze, where, zeros, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor } from './common';
import { svdJvp } from './linalg-jvp';

/**
 * The derivative of core's `_linalg_svd` (Note [The SVD primitive]): PyTorch 1.13's
 * FunctionsManual svd_backward, written with matmul and pointwise ops so it runs on every
 * backend and differentiates again. With full_matrices the extra columns of U and rows of
 * Vh are narrowed away first, as derivatives.yaml does: the loss may not depend on them.
 * It assumes distinct singular values (and, for a rectangular A with gU / gVh, a full-rank
 * A): E below is zero off the diagonal at a repeated value and the result is inf / NaN, as
 * PyTorch's. PyTorch's gauge check (a loss that depends on the phase of the singular
 * vectors) exists only for complex inputs: a real pair's sign is discrete, and a loss that
 * depends on it has the gradient of the sign the forward picked, as in PyTorch.
 *
 * For complex inputs (core's Note [Complex SVD]) the formula is the same with ^H for ^T, plus
 * PyTorch's diagonal term diag(U^H gU)_ii / (2 s_i) (skew(U^H gU) has an imaginary diagonal
 * there; a real one has none), and the gauge check: a loss invariant under
 * (u_i, v_i) -> e^{i phi} (u_i, v_i) has Im diag(skew(U^H gU)) = -Im diag(skew(Vh gVh^H)), which
 * PyTorch checks with allclose(rtol = atol = 1e-2) and torch-ts likewise (a host read; skipped
 * on a device whose reads are asynchronous, as linalg_eig_backward's check is).
 */

const mT = (t: Tensor): Tensor => transpose(t, -2, -1);
const mH = (t: Tensor): Tensor => t.mH;

const GAUGE_MESSAGE =
  'svd_backward: The singular vectors in the complex case are specified up to multiplication by e^{i phi}. The specified loss function depends on this phase term, making it ill-defined.';

/** svd_backward's gauge check: allclose(Im diag(UhgU), -Im diag(VhgV), rtol = atol = 1e-2). */
function checkGauge(UhgU: Tensor | null, VhgV: Tensor | null, S: Tensor): void {
  if (S.numel() === 0 || countsAreAsync(S.device)) return;
  const zero = zeros(S.shape, { dtype: S.dtype, device: S.device });
  const a = UhgU ? imag(diagonal(UhgU, 0, -2, -1)) : zero;
  const b = VhgV ? imag(diagonal(VhgV, 0, -2, -1)) : zero;
  // |a - (-b)| <= atol + rtol |-b|, NaN failing as in allclose
  const worst = amax(sub(abs(add(a, b)), mul(abs(b), 1e-2))).item() as number;
  if (!(worst <= 1e-2)) throw new TorchError(GAUGE_MESSAGE);
}

/**
 * svd_backward(gU, gS, gVh, U, S, Vh): with skew(X) = X - X^H,
 *   gA = U [(skew(U^H gU) S + S skew(Vh gVh^H)) / E + diag(gS)] Vh, E_ij = s_j^2 - s_i^2
 * (1 on the diagonal), plus for a tall A (I - U U^H) gU S^-1 Vh, for a wide one
 * U S^-1 gVh (I - V V^H); for a complex A also U diag(diag(skew(U^H gU)) / (2 S)) Vh.
 */
export function svdBackward(gU: Tensor | null, gS: Tensor | null, gVh: Tensor | null, U: Tensor, S: Tensor, Vh: Tensor): Tensor | null {
  if (!gU && !gS && !gVh) return null;
  const m = U.shape[U.dim() - 2];
  const n = Vh.shape[Vh.dim() - 1];
  const k = S.shape[S.dim() - 1];
  // svdvals: gA = U diag(gS) Vh
  if (!gU && !gVh) return m >= n ? matmul(U, mul(unsqueeze(gS!, -1), Vh)) : matmul(mul(U, unsqueeze(gS!, -2)), Vh);
  const complex = isComplex(U);
  const skew = (X: Tensor) => sub(X, mH(X));
  const UhgU = gU ? skew(matmul(mH(U), gU)) : null;
  const VhgV = gVh ? skew(matmul(Vh, mH(gVh))) : null;
  if (complex) checkGauge(UhgU, VhgV, S);
  const I = eye(k, { dtype: S.dtype, device: S.device });
  const S2 = mul(S, S);
  const E = add(sub(unsqueeze(S2, -2), unsqueeze(S2, -1)), I);
  let gA: Tensor;
  if (UhgU && VhgV) gA = div(add(mul(UhgU, unsqueeze(S, -2)), mul(unsqueeze(S, -1), VhgV)), E);
  else if (UhgU) gA = mul(div(UhgU, E), unsqueeze(S, -2));
  else gA = mul(unsqueeze(S, -1), div(VhgV!, E));
  if (gS) gA = add(gA, mul(unsqueeze(gS, -1), I));
  if (complex && UhgU) gA = add(gA, mul(unsqueeze(div(diagonal(UhgU, 0, -2, -1), mul(S, 2)), -1), I));
  if (m > n && gU) {
    gA = matmul(U, gA);
    const gUSinv = div(gU, unsqueeze(S, -2));
    gA = sub(add(gA, gUSinv), matmul(U, matmul(mH(U), gUSinv)));
    return matmul(gA, Vh);
  }
  if (m < n && gVh) {
    gA = matmul(gA, Vh);
    const SinvgVh = div(gVh, unsqueeze(S, -1));
    gA = sub(add(gA, SinvgVh), matmul(matmul(SinvgVh, mH(Vh)), Vh));
    return matmul(U, gA);
  }
  return m >= n ? matmul(U, matmul(gA, Vh)) : matmul(matmul(U, gA), Vh);
}

const LinalgSvdBackward0: DerivativeOf<'_linalg_svd'> = {
  name: 'LinalgSvdBackward0',
  inputs: ['A'],
  saves: ['result0', 'result1', 'result2'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const [, fullMatrices, computeUv] = ctx.args;
    const [gU, gS, gVh] = ctx.grads;
    const U = savedTensor(ctx, 'result0', '_linalg_svd');
    const S = savedTensor(ctx, 'result1', '_linalg_svd');
    const Vh = savedTensor(ctx, 'result2', '_linalg_svd');
    if (!computeUv) {
      throw new TorchError(
        "linalg.svd: Setting compute_uv to false doesn't compute singular matrices, and hence we cannot compute backward. Please use linalg.svd (compute_uv=True) or linalg.svdvals",
      );
    }
    const k = S.shape[S.dim() - 1];
    const cols = (t: Tensor | null) => (t && fullMatrices ? narrow(t, -1, 0, k) : t);
    const rows = (t: Tensor | null) => (t && fullMatrices ? narrow(t, -2, 0, k) : t);
    return [svdBackward(cols(gU), gS, rows(gVh), cols(U)!, S, rows(Vh)!)];
  },
  // svd_jvp (Note [SVD and pinv JVPs]). Without U and Vh the backward cannot run, but
  // PyTorch's forward formula for S can: dS = Re diag(U^H dA V), with U, V from an SVD that
  // computes them (svdvals' JVP).
  forward: (ctx) => {
    const [, fullMatrices, computeUv] = ctx.args;
    const dA = ctx.tangents[0];
    if (!dA) return [null, null, null];
    if (computeUv) return svdJvp(dA, ctx.results[0]!, ctx.results[1]!, ctx.results[2]!, fullMatrices ?? false);
    const [U, , Vh] = linalgSvd(ctx.primals[0]!, { fullMatrices: false });
    const d = sum(mul(isComplex(U) ? conj(U) : U, matmul(dA, isComplex(Vh) ? conj(mT(Vh)) : mT(Vh))), -2);
    return [null, isComplex(d) ? real(d) : d, null];
  },
};

/** PyTorch's prod_safe_zeros_backward: grad * prod_{j != i} x_j along the last dim, by exclusive cumulative products (no division, so zeros are fine). */
function prodSafeZerosBackward(grad: Tensor, x: Tensor): Tensor {
  const n = x.shape[x.dim() - 1];
  if (x.numel() === 0 || n === 1) return mul(grad, ones(x.shape, { dtype: x.dtype, device: x.device }));
  const one = ones([...x.shape.slice(0, -1), 1], { dtype: x.dtype, device: x.device });
  const before = cumprod(cat([one, narrow(x, -1, 0, n - 1)], -1), -1);
  const after = flip(cumprod(cat([one, flip(narrow(x, -1, 1, n - 1), [-1])], -1), -1), [-1]);
  return mul(grad, mul(before, after));
}

/**
 * linalg_det_backward (core's Note [The determinant's derivative]), PyTorch 1.13's create_graph
 * form: gA = solve(A^H, grad conj(det) I) where |det| >= 100 eps (eps of A's real value type:
 * PyTorch's threshold, found by running 1.13: det 1e-12 solves, 1e-14 takes the SVD in
 * float64), else the SVD form U diag(prod_{j != i} s_j * grad * conj(det(U) det(Vh))) Vh,
 * finite and exact at a singular matrix (the conjugated cofactors, of every rank; for a real
 * A, ^H is ^T and conj nothing). Without a host read of which matrices
 * are singular, both forms run on every matrix of the batch, each on a stand-in where the
 * other applies (the identity for the solve, diag(1..n), whose singular values are distinct,
 * for the SVD), so neither makes inf or NaN that `where` would pass on in double backward.
 */
function detBackward(grad: Tensor, det: Tensor, A: Tensor): Tensor {
  const n = A.shape[A.dim() - 1];
  const opts = { dtype: A.dtype, device: A.device };
  const cplx = isComplex(A);
  const I = eye(n, opts);
  const eps = A.dtype === 'float32' || A.dtype === 'complex64' ? 1.1920928955078125e-7 : 2.220446049250313e-16;
  const singular = unsqueeze(unsqueeze(lt(abs(det), 100 * eps), -1), -1);
  const g = unsqueeze(unsqueeze(mul(grad, cplx ? conj(det) : det), -1), -1);
  const regular = linalgSolve(mH(where(singular, I, A)), mul(g, I));
  const D = mul(I, add(arange(n, opts), 1));
  const [U, S, Vh] = linalgSvd(where(singular, A, D), { fullMatrices: false });
  // det(U) det(Vh) is +-1 for a real A, locally constant: no derivative to carry. For a
  // complex A it is a unit phase that moves with A (e^{i theta} A multiplies it by
  // e^{i n theta}), so it keeps its graph, as PyTorch's does.
  const alpha = cplx ? mul(linalgDet(U), linalgDet(Vh)) : detach(mul(linalgDet(detach(U)), linalgDet(detach(Vh))));
  const Dg = prodSafeZerosBackward(unsqueeze(mul(grad, cplx ? conj(alpha) : alpha), -1), S);
  const fromSvd = matmul(mul(U, unsqueeze(Dg, -2)), Vh);
  return where(singular, fromSvd, regular);
}

const LinalgDetBackward0: DerivativeOf<'_linalg_det_attach'> = {
  name: 'LinalgDetBackward0',
  inputs: ['A'],
  saves: ['A', 'result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const A = savedTensor(ctx, 'A', '_linalg_det_attach');
    if (A.numel() === 0) return [mul(A, 0)];
    return [detBackward(ctx.grad, savedTensor(ctx, 'result', '_linalg_det_attach'), A)];
  },
};

export const LINALG_SVD_DERIVATIVES = {
  _linalg_svd: LinalgSvdBackward0,
  _linalg_det_attach: LinalgDetBackward0,
} satisfies DerivativeFamily;
