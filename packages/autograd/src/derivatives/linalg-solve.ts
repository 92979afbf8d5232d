import { add, arange, cat, expand, eye, linalgLuSolve, linalgSolveTriangular, matmul, mul, narrow, neg, sub, tril, triu, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor } from './common';

/**
 * The derivatives of the linalg primitives (core's Note [The linalg primitives]), PyTorch's
 * FunctionsManual formulas (lu_factor_ex_backward / linalg_lu_backward,
 * linalg_lu_solve_LU, linalg_solve_triangular_backward, cholesky_backward) written with
 * triangular solves, lu_solve and matmul, so they run on every backend and differentiate
 * again. The permutation P of a factorization is applied without reading the pivots:
 * lu_solve of the identity LU gives P^T B (adjoint: P B), whatever the device.
 * They hold for complex inputs as written, with ^H the conjugate transpose.
 */

/** ^H (^T for a real dtype): PyTorch's formulas hold for complex inputs as written (core's Note [Complex linalg primitives]). */
const mH = (t: Tensor): Tensor => t.mH;

/** The unit lower-trapezoidal L ([..., m, k], k = min(m, n)) packed in LU ([..., m, n]). */
function unpackL(LU: Tensor): Tensor {
  const [m, n] = LU.shape.slice(-2);
  const k = Math.min(m, n);
  return add(tril(narrow(LU, -1, 0, k), -1), eye(m, k, { dtype: LU.dtype, device: LU.device }));
}

/** P @ M for the permutation of `pivots` ([..., k], k <= m = M's rows; rows past k are not swapped). */
function applyP(pivots: Tensor, M: Tensor, transposeP: boolean): Tensor {
  const m = M.shape[M.dim() - 2];
  const k = pivots.shape[pivots.dim() - 1];
  let piv = pivots;
  if (k < m) {
    const rest = arange(k + 1, m + 1, { dtype: 'int32', device: pivots.device });
    piv = cat([pivots, expand(rest, [...pivots.shape.slice(0, -1), m - k])], -1);
  }
  const I = eye(m, { dtype: M.dtype, device: M.device });
  return linalgLuSolve(I, piv, M, { adjoint: !transposeP });
}

function solveTri(A: Tensor, B: Tensor, upper: boolean, left = true, unitriangular = false): Tensor {
  return linalgSolveTriangular(A, B, { upper, left, unitriangular });
}

/**
 * lu_factor_ex(A) = (LU, pivots, info), A = P L U, k = min(m, n); gL = tril(gLU, -1) and
 * gU = triu(gLU) restricted to L's [m, k] and U's [k, n] (PyTorch's linalg_lu_backward):
 *   square: gA = P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H;
 *   wide (m < n, U = [U1 U2]): gA = P L^-H [tril(L^H gL - gU U^H, -1) U1^-H + gU1, gU2];
 *   tall (m > n, L = [L1; L2]): gA = P [L1^-H triu(gU U^H - L^H gL) + gL1; gL2] U^-H
 * (the square case of each, and the chain rule through A2 = L U2, resp. A2 = L2 U).
 */
const LinalgLuFactorExBackward0: DerivativeOf<'linalg_lu_factor_ex'> = {
  name: 'LinalgLuFactorExBackward0',
  inputs: ['A'],
  saves: ['result0', 'result1'],
  backward: (ctx) => {
    const g = ctx.grads[0];
    if (!ctx.needs[0] || !g) return [null];
    const LU = savedTensor(ctx, 'result0', 'linalg_lu_factor_ex');
    const pivots = savedTensor(ctx, 'result1', 'linalg_lu_factor_ex');
    const [m, n] = LU.shape.slice(-2);
    const k = Math.min(m, n);
    const L = unpackL(LU);
    const U = triu(narrow(LU, -2, 0, k));
    const gL = narrow(tril(g, -1), -1, 0, k);
    const gU = narrow(triu(g), -2, 0, k);
    if (m === n) {
      const phi = add(tril(matmul(mH(L), gL), -1), triu(matmul(gU, mH(U))));
      const Y = solveTri(mH(L), phi, true, true, true);
      const Z = solveTri(mH(U), Y, false, false);
      return [applyP(pivots, Z, false)];
    }
    if (m < n) {
      const T = solveTri(mH(narrow(U, -1, 0, k)), tril(sub(matmul(mH(L), gL), matmul(gU, mH(U))), -1), false, false);
      const G = cat([add(T, narrow(gU, -1, 0, k)), narrow(gU, -1, k, n - k)], -1);
      return [applyP(pivots, solveTri(mH(L), G, true, true, true), false)];
    }
    const T = solveTri(mH(narrow(L, -2, 0, k)), triu(sub(matmul(gU, mH(U)), matmul(mH(L), gL))), true, true, true);
    const G = cat([add(T, narrow(gL, -2, 0, k)), narrow(gL, -2, k, m - k)], -2);
    return [applyP(pivots, solveTri(mH(U), G, false, false), false)];
  },
};

// linalg_lu_solve(LU, pivots, B, left, adjoint): B: lu_solve(LU, pivots, grad, left, !adjoint);
// LU: linalg_lu_solve_LU
const LinalgLuSolveBackward0: DerivativeOf<'linalg_lu_solve'> = {
  name: 'LinalgLuSolveBackward0',
  inputs: ['LU', 'B'],
  saves: ['LU', 'pivots', 'result@LU'],
  backward: (ctx) => {
    const [, , , left, adjoint] = ctx.args;
    const gX = ctx.grad;
    const LU = savedTensor(ctx, 'LU', 'linalg_lu_solve');
    const pivots = savedTensor(ctx, 'pivots', 'linalg_lu_solve');
    const gB = ctx.needs[1] ? linalgLuSolve(LU, pivots, gX, { left, adjoint: !adjoint }) : null;
    if (!ctx.needs[0]) return [null, gB];
    const X = savedTensor(ctx, 'result', 'linalg_lu_solve');
    const L = unpackL(LU);
    const U = triu(LU);
    let gLU: Tensor;
    if (left !== adjoint) {
      // gR = U^-H op2(-gX) op2(X)^H; gL = (L^-H gR U^H).tril(-1); gU = gR.triu()
      const gR = solveTri(mH(U), neg(matmul(left ? gX : mH(gX), left ? mH(X) : X)), false);
      const gL = tril(solveTri(mH(L), matmul(gR, mH(U)), true, true, true), -1);
      gLU = add(gL, triu(gR));
    } else {
      // gR = -P^T op3(X) op1(op2(gX)) P L^-H; gU = (L^H gR U^-H).triu(); gL = gR.tril(-1)
      const inner = neg(matmul(left ? X : mH(X), left ? mH(gX) : gX));
      // P^T M P = (P^T (P^T M)^T)^T
      const ptm = applyP(pivots, inner, true);
      let gR = mH(applyP(pivots, mH(ptm), true));
      gR = solveTri(mH(L), gR, true, false, true);
      const gU = triu(solveTri(mH(U), matmul(mH(L), gR), false, false));
      gLU = add(tril(gR, -1), gU);
    }
    return [gLU, gB];
  },
};

// linalg_solve_triangular(A, B, upper, left, unitriangular): gB = solve(A^H, grad), gA = -gB X^H (left) or -X^H gB, on A's triangle
const LinalgSolveTriangularBackward0: DerivativeOf<'linalg_solve_triangular'> = {
  name: 'LinalgSolveTriangularBackward0',
  inputs: ['self', 'B'],
  saves: ['self', 'result@self'],
  backward: (ctx) => {
    const [, , upper, left, unitriangular] = ctx.args;
    const A = savedTensor(ctx, 'self', 'linalg_solve_triangular');
    const gB = solveTri(mH(A), ctx.grad, !upper, left, unitriangular);
    let gA: Tensor | null = null;
    if (ctx.needs[0]) {
      const X = savedTensor(ctx, 'result', 'linalg_solve_triangular');
      const full = neg(left ? matmul(gB, mH(X)) : matmul(mH(X), gB));
      gA = upper ? triu(full, unitriangular ? 1 : 0) : tril(full, unitriangular ? -1 : 0);
    }
    return [gA, ctx.needs[1] ? gB : null];
  },
};

// cholesky: gA = L^-H Phi(L^H gL) L^-1, Phi taking the lower triangle with half the diagonal, symmetrized (Murray 2016)
const LinalgCholeskyExBackward0: DerivativeOf<'linalg_cholesky_ex'> = {
  name: 'LinalgCholeskyExBackward0',
  inputs: ['self'],
  saves: ['result0'],
  backward: (ctx) => {
    const g = ctx.grads[0];
    if (!ctx.needs[0] || !g) return [null];
    const upper = ctx.args[1];
    let L = savedTensor(ctx, 'result0', 'linalg_cholesky_ex');
    let gL = g;
    if (upper) {
      L = mH(L);
      gL = mH(gL);
    }
    let gA = tril(matmul(mH(L), gL));
    gA = mul(add(gA, mH(tril(gA, -1))), 0.5);
    gA = solveTri(mH(L), gA, true, true);
    gA = solveTri(L, gA, false, false);
    return [gA];
  },
};

export const LINALG_SOLVE_DERIVATIVES = {
  linalg_lu_factor_ex: LinalgLuFactorExBackward0,
  linalg_lu_solve: LinalgLuSolveBackward0,
  linalg_solve_triangular: LinalgSolveTriangularBackward0,
  linalg_cholesky_ex: LinalgCholeskyExBackward0,
} satisfies DerivativeFamily;
