import { bmm, mm, mul, transpose, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor, scalarNumber } from './common';
import { sparseTransposedMm } from './linalg';

/**
 * addmm / baddbmm: out = beta * self + alpha * (a @ b). self's gradient is grad * beta
 * (the engine sums it to self's shape when self broadcast); each factor's is the product of
 * grad with the other (transposed), times alpha, so each factor is saved only when the
 * other one needs a gradient.
 */
function scaled(t: Tensor, s: number): Tensor {
  return s === 1 ? t : mul(t, s);
}

/** `t(first)^T @ grad`; a sparse COO first factor (addmm(dense, sparse, dense)) as mm's (linalg.ts). */
function secondFactorGrad(first: Tensor, grad: Tensor, product: typeof mm, t: (x: Tensor) => Tensor): Tensor {
  return first.isSparse ? sparseTransposedMm(first, grad) : product(t(first), grad);
}

/** (typed as addmm's arguments, which baddbmm's are too) */
function addProductBackward(name: string, op: string, names: [string, string], product: typeof mm, t: (x: Tensor) => Tensor): DerivativeOf<'addmm'> {
  const [n1, n2] = names;
  return {
    name,
    inputs: ['self', n1, n2],
    saves: [`${n1}@${n2}`, `${n2}@${n1}`],
    backward: (ctx) => {
      const beta = scalarNumber(ctx.args[3], 1);
      const alpha = scalarNumber(ctx.args[4], 1);
      return [
        ctx.needs[0] ? scaled(ctx.grad, beta) : null,
        ctx.needs[1] ? scaled(product(ctx.grad, t(savedTensor(ctx, n2, op))), alpha) : null,
        ctx.needs[2] ? scaled(secondFactorGrad(savedTensor(ctx, n1, op), ctx.grad, product, t), alpha) : null,
      ];
    },
  };
}

export const LINALG_EXTRA_DERIVATIVES = {
  addmm: addProductBackward('AddmmBackward0', 'addmm', ['mat1', 'mat2'], mm, (x) => transpose(x, 0, 1)),
  baddbmm: addProductBackward('BaddbmmBackward0', 'baddbmm', ['batch1', 'batch2'], bmm, (x) => transpose(x, 1, 2)),
  // (in place, the same Nodes as PyTorch's: self's gradient never reads what self held)
  addmm_: addProductBackward('AddmmBackward0', 'addmm_', ['mat1', 'mat2'], mm, (x) => transpose(x, 0, 1)),
  baddbmm_: addProductBackward('BaddbmmBackward0', 'baddbmm_', ['batch1', 'batch2'], bmm, (x) => transpose(x, 1, 2)),
} satisfies DerivativeFamily;
