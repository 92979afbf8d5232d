import { TorchError, isComplexType, linalgEig, stack, viewAsComplex, viewAsReal, abs, add, amax, cat, countsAreAsync, diagonal, div, eye, linalgSolve, matmul, mul, narrow, neg, select, sub, transpose, unsqueeze, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor } from './common';

/**
 * The derivative of core's `_linalg_eig_parts` (Note [The eig primitive]): PyTorch 1.13's
 * FunctionsManual linalg_eig_backward (non-Hermitian), on complex values held as their
 * (real, imaginary) parts, so every step is a real op (matmul, pointwise, linalg.solve) and
 * the formula differentiates again. For A = V diag(L) V^-1 with unit-norm columns of V,
 *   gA = V^-H (diag(gL) + (V^H gV - V^H V diag(Re diag(V^H gV))) / E*) V^H,
 * E*_ij = conj(L_j) - conj(L_i) off the diagonal (the diagonal is gL's, or what is left of
 * V^H gV's where there is no gL); V^-H X is the real 2n x 2n solve of the embedding
 * [[P, -Q], [Q, P]] of V^H = P + iQ. A real A takes the real part of gA (PyTorch's
 * handle_r_to_c); a complex A (core's Note [Complex linalg primitives]: the primitive takes
 * complex inputs and still returns parts) the complex gA itself. Repeated eigenvalues make E* zero off the diagonal: inf / NaN, as
 * PyTorch's. Eigenvectors are defined up to a unit phase e^{i phi} per column, so a loss
 * that depends on it is ill-defined: as PyTorch, the backward refuses it when Im diag(V^H gV)
 * is not close to zero (rtol = atol = 1e-2), where the device reads synchronously.
 */

type Parts = [Tensor, Tensor];

const mT = (t: Tensor): Tensor => transpose(t, -2, -1);
const split = (t: Tensor): Parts => [select(t, -1, 0), select(t, -1, 1)];
/** X^H of a complex matrix. */
const adjoint = ([r, i]: Parts): Parts => [mT(r), neg(mT(i))];
const cmatmul = ([ar, ai]: Parts, [br, bi]: Parts): Parts => [sub(matmul(ar, br), matmul(ai, bi)), add(matmul(ar, bi), matmul(ai, br))];
const cdiv = ([ar, ai]: Parts, [br, bi]: Parts): Parts => {
  const den = add(mul(br, br), mul(bi, bi));
  return [div(add(mul(ar, br), mul(ai, bi)), den), div(sub(mul(ai, br), mul(ar, bi)), den)];
};

/** V^-H M (V^H = P + iQ) by the real embedding of the complex solve: its real part, or (`complex`) the complex matrix. */
function adjointSolve([P, Q]: Parts, [mr, mi]: Parts, complex: boolean): Tensor {
  const n = P.shape[P.dim() - 1];
  const big = cat([cat([P, neg(Q)], -1), cat([Q, P], -1)], -2);
  const x = linalgSolve(big, cat([mr, mi], -2));
  if (!complex) return narrow(x, -2, 0, n);
  return viewAsComplex(stack([narrow(x, -2, 0, n), narrow(x, -2, n, n)], -1));
}

/** linalg_eig_backward's gauge check: Im diag(V^H gV) must be close to 0 (PyTorch's allclose with rtol = atol = 1e-2). */
function checkGauge(VhgV: Parts): void {
  const im = diagonal(VhgV[1], 0, -2, -1);
  if (im.numel() === 0 || countsAreAsync(im.device)) return;
  const worst = amax(abs(im)).item() as number;
  if (!(worst <= 1e-2)) {
    throw new TorchError(
      'linalg_eig_backward: The eigenvectors in the complex case are specified up to multiplication by e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined.',
    );
  }
}

/** gA for A = V diag(L) V^-1 given as parts; `complex`: A is complex (else gA is the real part, PyTorch's handle_r_to_c). */
export function eigBackward(gLPairs: Tensor | null, gVPairs: Tensor | null, LPairs: Tensor, VPairs: Tensor, complex = false): Tensor | null {
  if (!gLPairs && !gVPairs) return null;
  if (VPairs.numel() === 0 && LPairs.numel() > 0) {
    throw new TorchError('linalg.eigvals: the eigenvectors were not computed, so the derivative cannot be; call linalg.eig');
  }
  const n = LPairs.shape[LPairs.dim() - 2];
  const V = split(VPairs);
  const Vh = adjoint(V);
  const I = eye(n, { dtype: LPairs.dtype, device: LPairs.device });
  let ret: Parts;
  if (gVPairs) {
    const VhgV = cmatmul(Vh, split(gVPairs));
    checkGauge(VhgV);
    const reDiag = unsqueeze(diagonal(VhgV[0], 0, -2, -1), -2);
    const VhVD = cmatmul(Vh, [mul(V[0], reDiag), mul(V[1], reDiag)]);
    const projected: Parts = [sub(VhgV[0], VhVD[0]), sub(VhgV[1], VhVD[1])];
    const [lr, li] = split(LPairs);
    // E*_ij = conj(L_j) - conj(L_i), ones on the diagonal
    const E: Parts = [add(sub(unsqueeze(lr, -2), unsqueeze(lr, -1)), I), neg(sub(unsqueeze(li, -2), unsqueeze(li, -1)))];
    ret = cdiv(projected, E);
    if (gLPairs) {
      const [gr, gi] = split(gLPairs);
      const off = neg(sub(I, 1));
      ret = [add(mul(ret[0], off), mul(I, unsqueeze(gr, -2))), add(mul(ret[1], off), mul(I, unsqueeze(gi, -2)))];
    }
  } else {
    const [gr, gi] = split(gLPairs!);
    ret = [mul(I, unsqueeze(gr, -2)), mul(I, unsqueeze(gi, -2))];
  }
  return adjointSolve(Vh, cmatmul(ret, Vh), complex);
}

const LinalgEigBackward0: DerivativeOf<'_linalg_eig_parts'> = {
  name: 'LinalgEigBackward0',
  inputs: ['A'],
  saves: ['result0', 'result1'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const [gL, gV] = ctx.grads;
    const L = savedTensor(ctx, 'result0', '_linalg_eig_parts');
    const V = savedTensor(ctx, 'result1', '_linalg_eig_parts');
    return [eigBackward(gL, gV, L, V, isComplexType(ctx.inputs[0]!.dtype))];
  },
  // Without the eigenvectors (eigvals of a dual tensor: core computes them only for a
  // requires-grad input) the backward cannot run, but PyTorch's linalg_eig_jvp for the
  // eigenvalues can, with V from an eig that computes it: dL = diag(V^-1 dA V), as parts.
  forward: (ctx) => {
    const [, computeV] = ctx.args;
    const dA = ctx.tangents[0];
    if (computeV !== false || !dA) return null;
    const [, V] = linalgEig(ctx.primals[0]!);
    const dAc = isComplexType(dA.dtype) ? dA : dA.to(V.dtype);
    return [viewAsReal(diagonal(linalgSolve(V, matmul(dAc, V)), 0, -2, -1)), null];
  },
};

export const LINALG_EIG_DERIVATIVES = {
  _linalg_eig_parts: LinalgEigBackward0,
} satisfies DerivativeFamily;
