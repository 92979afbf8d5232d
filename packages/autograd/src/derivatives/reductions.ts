import { div, eq, mul, normalizeDim, prod, sum, unsqueeze, where } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf, NotDifferentiable } from '../derivative';
import { expandReduced, inputSizes, reducedDims, restoreReducedDims, savedTensor, selectingReductionBackward } from './common';

/**
 * Reduction derivatives. A reduction without keepdim drops its reduced dims, so every
 * formula first puts them back (`restoreReducedDims`) to broadcast against the input.
 */

// sum.dim_IntList(self, dim?, keepdim, dtype): dim null or [] reduces every dim.
const SumBackward: DerivativeOf<'sum.dim_IntList'> = {
  // sum() records SumBackward0, sum(dim) SumBackward1
  name: (args) => (args[1] == null ? 'SumBackward0' : 'SumBackward1'),
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const shape = inputSizes(ctx, 0, 'sum');
    const dims = reducedDims('sum', ctx.args[1], shape.length);
    return [expandReduced(ctx.grad, shape, dims, ctx.args[2] === true)];
  },
};

// mean.dim(self, dim?, keepdim, dtype): the sum's gradient divided by the count.
const MeanBackward: DerivativeOf<'mean.dim'> = {
  name: (args) => (args[1] == null ? 'MeanBackward0' : 'MeanBackward1'),
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const shape = inputSizes(ctx, 0, 'mean');
    const dims = reducedDims('mean', ctx.args[1], shape.length);
    const count = dims.reduce((n, d) => n * shape[d], 1);
    return [div(expandReduced(ctx.grad, shape, dims, ctx.args[2] === true), count)];
  },
};

/**
 * Note [prod backward with zeros]
 * d prod / d x_i is the product of the other elements. `result / x_i` gives it only when
 * no element of the slice is zero, so the formula counts the zeros of each reduced slice,
 * with x' = x whose zeros are replaced by 1:
 *   none:  prod(x') / x'_i (here x' = x);
 *   one:   the zero element gets prod(x'), the product of the others; the rest get 0;
 *   more:  every element gets 0.
 * No branch divides by zero, so `where` only ever selects finite values. The first
 * derivative is exact everywhere; the second is exact away from zeros (PyTorch's
 * cumprod-based formula is exact there too, but core has no cumprod).
 */
const ProdBackward: DerivativeOf<'prod.dim_int'> = {
  // prod() records ProdBackward0, prod(dim) ProdBackward1
  name: (args) => (args[1] == null ? 'ProdBackward0' : 'ProdBackward1'),
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const self = savedTensor(ctx, 'self', 'prod');
    const ndim = self.dim();
    const dim = ctx.args[1];
    // null: every dim (the 0-dim input's only "dim" is too); the results then broadcast as 0-dim.
    const d = dim == null || ndim === 0 ? null : normalizeDim('prod', dim, ndim);
    const isZero = eq(self, 0);
    const noZeros = where(isZero, 1, self);
    const others = d === null ? prod(noZeros) : prod(noZeros, d, { keepdim: true });
    const zeroCount = d === null ? sum(isZero) : sum(isZero, [d], { keepdim: true });
    const grad = d === null || ctx.args[2] === true ? ctx.grad : unsqueeze(ctx.grad, d);
    const factor = where(
      isZero,
      where(eq(zeroCount, 1), others, 0),
      where(eq(zeroCount, 0), div(others, noZeros), 0),
    );
    return [mul(grad, factor)];
  },
};

/**
 * amax / amin: the gradient is shared evenly among the elements equal to the result
 * (PyTorch's `scale_grad_by_count`), so ties each get grad / count.
 */
/** (typed as amax's arguments, which amin's are too) */
function extremumBackward(name: string, op: string): DerivativeOf<'amax'> {
  return {
    name,
    inputs: ['self'],
    saves: ['self', 'result'],
    backward: (ctx) => {
      if (!ctx.needs[0]) return [null];
      const self = savedTensor(ctx, 'self', op);
      const dims = reducedDims(op, ctx.args[1], self.dim());
      const keepdim = ctx.args[2] === true;
      const result = restoreReducedDims(savedTensor(ctx, 'result', op), dims, keepdim);
      const mask = eq(self, result);
      const count = dims.length === 0 ? 1 : sum(mask, dims, { keepdim: true });
      return [where(mask, div(restoreReducedDims(ctx.grad, dims, keepdim), count), 0)];
    },
  };
}

const ARG_INDEX: NotDifferentiable = { notDifferentiable: 'returns integer indices, which have no gradient' };

export const REDUCTION_DERIVATIVES = {
  'sum.dim_IntList': SumBackward,
  'mean.dim': MeanBackward,
  'prod.dim_int': ProdBackward,
  amax: extremumBackward('AmaxBackward0', 'amax'),
  amin: extremumBackward('AminBackward0', 'amin'),
  'max.dim': selectingReductionBackward('MaxBackward0', 'max'),
  'min.dim': selectingReductionBackward('MinBackward0', 'min'),
  argmax: ARG_INDEX,
  argmin: ARG_INDEX,
} satisfies DerivativeFamily;
