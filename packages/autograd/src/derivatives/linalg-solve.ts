import { AutogradError, add, eye, linalgLuSolve, linalgSolveTriangular, matmul, mul, neg, transpose, tril, triu, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor } from './common';

/**
 * The derivatives of the linalg primitives (core's Note [The linalg primitives]), PyTorch's
 * FunctionsManual formulas (lu_factor_ex_backward / linalg_lu_backward,
 * linalg_lu_solve_LU, linalg_solve_triangular_backward, cholesky_backward) written with
 * triangular solves, lu_solve and matmul, so they run on every backend and differentiate
 * again. The permutation P of a factorization is applied without reading the pivots:
 * lu_solve of the identity LU gives P^T B (adjoint: P B), whatever the device.
 * Real dtypes only, so ^H is a transpose.
 */

const mT = (t: Tensor): Tensor => transpose(t, -2, -1);

function unpackL(LU: Tensor): Tensor {
  const n = LU.shape[LU.dim() - 1];
  return add(tril(LU, -1), eye(n, { dtype: LU.dtype, device: LU.device }));
}

/** P @ M for the permutation of `pivots` (square, n = M's rows). */
function applyP(pivots: Tensor, M: Tensor, transposeP: boolean): Tensor {
  const n = M.shape[M.dim() - 2];
  const I = eye(n, { dtype: M.dtype, device: M.device });
  return linalgLuSolve(I, pivots, M, { adjoint: !transposeP });
}

function solveTri(A: Tensor, B: Tensor, upper: boolean, left = true, unitriangular = false): Tensor {
  return linalgSolveTriangular(A, B, { upper, left, unitriangular });
}

// lu_factor_ex(A) = (LU, pivots, info), A = P L U: gA = P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H
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
    if (m !== n) {
      throw new AutogradError(`linalg_lu_factor_ex: the derivative of the LU factorization of non-square matrices (${m} by ${n}) is not implemented yet`);
    }
    const L = unpackL(LU);
    const U = triu(LU);
    const phi = add(tril(matmul(mT(L), tril(g, -1)), -1), triu(matmul(triu(g), mT(U))));
    const Y = solveTri(mT(L), phi, true, true, true);
    const Z = solveTri(mT(U), Y, false, false);
    return [applyP(pivots, Z, false)];
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
      const gR = solveTri(mT(U), neg(matmul(left ? gX : mT(gX), left ? mT(X) : X)), false);
      const gL = tril(solveTri(mT(L), matmul(gR, mT(U)), true, true, true), -1);
      gLU = add(gL, triu(gR));
    } else {
      // gR = -P^T op3(X) op1(op2(gX)) P L^-H; gU = (L^H gR U^-H).triu(); gL = gR.tril(-1)
      const inner = neg(matmul(left ? X : mT(X), left ? mT(gX) : gX));
      // P^T M P = (P^T (P^T M)^T)^T
      const ptm = applyP(pivots, inner, true);
      let gR = mT(applyP(pivots, mT(ptm), true));
      gR = solveTri(mT(L), gR, true, false, true);
      const gU = triu(solveTri(mT(U), matmul(mT(L), gR), false, false));
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
    const gB = solveTri(mT(A), ctx.grad, !upper, left, unitriangular);
    let gA: Tensor | null = null;
    if (ctx.needs[0]) {
      const X = savedTensor(ctx, 'result', 'linalg_solve_triangular');
      const full = neg(left ? matmul(gB, mT(X)) : matmul(mT(X), gB));
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
      L = mT(L);
      gL = mT(gL);
    }
    let gA = tril(matmul(mT(L), gL));
    gA = mul(add(gA, mT(tril(gA, -1))), 0.5);
    gA = solveTri(mT(L), gA, true, true);
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
