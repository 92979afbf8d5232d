import { arange, eq, expandReduced, normalizeDim, normalizeDims, reshape, restoreReducedDims, sum, view, where, type Scalar, type Tensor } from '@torch-ts/core';
import type { DerivativeContext, DerivativeOf } from '../derivative';

/**
 * Helpers shared by the derivative formulas. Every one of them is built from ordinary core
 * ops on Tensor handles (Note [Derivatives are data]), so a formula that uses them stays
 * differentiable for double backward.
 */

/** A saved tensor the formula cannot do without; a clear error if the engine did not save it. */
export function savedTensor(ctx: DerivativeContext, name: string, op: string): Tensor {
  const t = ctx.saved[name];
  if (!t) throw new Error(`${op} backward: saved tensor '${name}' is missing (is it listed in \`saves\`?)`);
  return t;
}

/**
 * The sizes of input `i` (in the entry's `inputs` order). A formula that needs only an
 * input's shape reads it here and saves nothing, as PyTorch saves only sizes: an in-place
 * change of the input, or a second backward, must not invalidate such a node.
 */
export function inputSizes(ctx: DerivativeContext, i: number, op: string): readonly number[] {
  const info = ctx.inputs[i];
  if (!info) throw new Error(`${op} backward: input ${i} has no recorded sizes (it is not a tensor)`);
  return info.sizes;
}

/** A number, boolean or bigint: a Scalar argument, or a pointwise op's wrapped number. */
function isScalar(v: unknown): v is Scalar {
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';
}

/**
 * A binary op's operand that may be a tensor (saved under `name`) or a JS scalar (then it
 * is still in `args` at `index`, since only tensors are taken out: Note [Derivative arguments]).
 */
export function operand(ctx: DerivativeContext, name: string, index: number): Tensor | Scalar {
  const t = ctx.saved[name];
  if (t) return t;
  const v = ctx.args[index];
  if (isScalar(v)) return v;
  throw new Error(`backward: operand '${name}' is neither a saved tensor nor a scalar (is it listed in \`saves\`?)`);
}

/** A Scalar argument as a JS number (alpha may come boxed as a bigint or a boolean). */
export function scalarNumber(s: Scalar | null | undefined, fallback: number): number {
  if (s === undefined || s === null) return fallback;
  if (typeof s === 'boolean') return s ? 1 : 0;
  return Number(s);
}

/** The reduced dims of a reduction over `dims` (null or [] meaning all), normalised and ascending. */
export function reducedDims(op: string, dims: readonly number[] | null | undefined, ndim: number): number[] {
  if (ndim === 0) return [];
  if (dims == null || dims.length === 0) return Array.from({ length: ndim }, (_, i) => i);
  return normalizeDims(op, dims, ndim).sort((a, b) => a - b);
}

// (restore_reduced_dims and sum's backward: core's, which its reduction rows' formulas use too)
export { expandReduced, restoreReducedDims };

/** `t` summed down to `shape`, which it was broadcast from (PyTorch's `sum_to`). */
export function sumTo(t: Tensor, shape: readonly number[]): Tensor {
  const lead = t.dim() - shape.length;
  const dims: number[] = [];
  for (let d = 0; d < t.dim(); d++) {
    if (d < lead || (shape[d - lead] === 1 && t.shape[d] !== 1)) dims.push(d);
  }
  // No dims: `sum` over an empty list would reduce every dim, so return the tensor as is.
  if (dims.length === 0) return t;
  return reshape(sum(t, dims, { keepdim: true }), [...shape]);
}

/**
 * The derivative of a reduction along one dim that returns (values, indices) with the values
 * picked from the input (max.dim, min.dim, median.dim, mode; args `(self, dim, keepdim)`,
 * typed as max.dim's, which the others share):
 * the gradient goes to the element the indices name, as a one-hot mask (an arange along
 * `dim` compared with the indices).
 */
export function selectingReductionBackward(name: string, op: string): DerivativeOf<'max.dim'> {
  return {
    name,
    inputs: ['self'],
    saves: ['result1'],
    backward: (ctx) => {
      if (!ctx.needs[0]) return [null];
      const shape = inputSizes(ctx, 0, op);
      if (shape.length === 0) return [ctx.grad]; // the value is the input itself
      const d = normalizeDim(op, ctx.args[1], shape.length);
      const keepdim = ctx.args[2] === true;
      const indices = restoreReducedDims(savedTensor(ctx, 'result1', op), [d], keepdim);
      const positions = view(
        arange(shape[d], { device: indices.device }),
        shape.map((n, i) => (i === d ? n : 1)),
      );
      return [where(eq(positions, indices), restoreReducedDims(ctx.grad, [d], keepdim), 0)];
    },
  };
}
