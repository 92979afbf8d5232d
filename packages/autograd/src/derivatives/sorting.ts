import { normalizeDim, scatter, zeros } from '@torch-ts/core';
import type { Derivative, DerivativeFamily, NotDifferentiable } from '../derivative';
import { inputSizes, savedTensor } from './common';

/**
 * Sorting derivatives. sort and topk select elements, so the gradient goes back to the
 * positions their indices name: zeros of the input's shape with `grad` scattered there
 * (PyTorch's value_selecting_reduction_backward). A sort's indices are a permutation and a
 * topk's are distinct, so the scatter never writes one place twice.
 */
/** The derivative of sort.stable or topk: both have their `int dim` at argument 2. */
function selectingBackward(name: string, op: string): Derivative<readonly [unknown, unknown, number, ...unknown[]]> {
  return {
    name,
    inputs: ['self'],
    saves: ['result1'],
    backward: (ctx) => {
      if (!ctx.needs[0]) return [null];
      const shape = inputSizes(ctx, 0, op);
      if (shape.length === 0) return [ctx.grad];
      const d = normalizeDim(op, ctx.args[2], shape.length);
      const indices = savedTensor(ctx, 'result1', op);
      const base = zeros([...shape], { dtype: ctx.grad.dtype, device: ctx.grad.device });
      return [scatter(base, d, indices, ctx.grad)];
    },
  };
}

const INDICES: NotDifferentiable = { notDifferentiable: 'returns integer indices, which have no gradient' };

export const SORTING_DERIVATIVES = {
  // sort.stable(self, *, stable, dim, descending)
  'sort.stable': selectingBackward('SortBackward0', 'sort'),
  // topk(self, k, dim, largest, sorted)
  topk: selectingBackward('TopkBackward0', 'topk'),
  'searchsorted.Tensor': INDICES,
  'bucketize.Tensor': INDICES,
  _unique2: { notDifferentiable: "PyTorch has no derivative for unique (_unique2's is not implemented)" },
  unique_dim: { notDifferentiable: "PyTorch has no derivative for unique (unique_dim's is not implemented)" },
} satisfies DerivativeFamily;
