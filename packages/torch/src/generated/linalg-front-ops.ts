// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

// The front ends core declares that torch.linalg has (torch.linalg.inv, torch.linalg.luFactor).
export {
  linalgLuFactorEx as luFactorEx,
  linalgLuFactor as luFactor,
  linalgLu as lu,
  linalgLuSolve as luSolve,
  linalgSolveTriangular as solveTriangular,
  linalgCholeskyEx as choleskyEx,
  linalgCholesky as cholesky,
  linalgInvEx as invEx,
  linalgInv as inv,
  linalgDet as det,
  linalgSlogdet as slogdet,
  linalgSolveEx as solveEx,
  linalgSolve as solve,
  linalgMatrixPower as matrixPower,
  linalgMultiDot as multiDot,
  linalgVectorNorm as vectorNorm,
  linalgMatrixNorm as matrixNorm,
  linalgVecdot as vecdot,
  linalgCross as cross,
  linalgHouseholderProduct as householderProduct,
  linalgQr as qr,
  linalgEigh as eigh,
  linalgEigvalsh as eigvalsh,
  linalgLstsq as lstsq,
  linalgMatrixExp as matrixExp,
} from '@torch-ts/core';
