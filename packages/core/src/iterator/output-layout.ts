import { TorchError, fmtShape } from '../errors';
import { broadcastStrides } from './broadcast';
import { isRowMajorOrder, iterationOrder } from './dim-order';
import {
  channelsLastStrides,
  isChannelsLast,
  isNonOverlappingAndDense,
  isRowMajor,
  rowMajorStrides,
  sameList,
} from './layout';

/** Sizes and strides (in elements) of one operand; the storage offset plays no part. */
export interface OperandGeometry {
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
}

/**
 * Note [Output layout of pointwise ops]
 * A new output of a pointwise op gets the strides PyTorch's TensorIterator gives it, so
 * that `a.t() + b.t()` stays column-major and channels-last activations stay channels-last.
 * 1. Fast setup, only when every input has exactly the output's sizes (no broadcasting):
 *    all row-major -> row-major; else all channels-last (4-d) -> channels-last; else all
 *    non-overlapping-and-dense with identical strides -> those strides, verbatim (size-1
 *    dims included). The predicates ignore size-1 dims and call every empty tensor
 *    row-major, which is why an empty permuted input gives a row-major output.
 * 2. Otherwise the inputs are broadcast to the shape (stride 0 in broadcast dims), the dims
 *    ordered by Note [Iteration dim order] with the inputs asked in argument order, and the
 *    output laid out densely in that order: row-major strides (0 and 1 sizes counted as 1)
 *    if the order is plain row-major, else `stride[perm[i]] = prod(shape[perm[j]], j < i)`,
 *    where a 0 size makes every slower stride 0, as PyTorch's `compatible_stride` does.
 * Inputs that an op first casts to another dtype keep their dim order in PyTorch (the cast
 * copy uses `infer_dense_strides`), so callers pass them unchanged.
 */
export function computeOutputLayout(
  shape: readonly number[],
  inputs: readonly OperandGeometry[],
): number[] {
  const ndim = shape.length;
  for (let k = 0; k < inputs.length; k++) {
    if (inputs[k].sizes.length !== inputs[k].strides.length) {
      throw new TorchError(
        `computeOutputLayout: input ${k} has sizes ${fmtShape(inputs[k].sizes)} ` +
          `but strides ${fmtShape(inputs[k].strides)}`,
      );
    }
  }
  const fast = fastSetupStrides(shape, inputs);
  if (fast !== null) return fast;

  const full = inputs.map((g) => broadcastStrides(g.sizes, g.strides, shape, 'computeOutputLayout'));
  const perm = iterationOrder(shape, full);
  if (isRowMajorOrder(perm)) return rowMajorStrides(shape);
  const out = new Array<number>(ndim);
  let next = 1;
  for (let i = 0; i < ndim; i++) {
    out[perm[i]] = next;
    next *= shape[perm[i]];
  }
  return out;
}

function fastSetupStrides(shape: readonly number[], inputs: readonly OperandGeometry[]): number[] | null {
  for (const g of inputs) if (!sameList(g.sizes, shape)) return null;
  if (inputs.every((g) => isRowMajor(g.sizes, g.strides))) return rowMajorStrides(shape);
  if (inputs.every((g) => isChannelsLast(g.sizes, g.strides))) return channelsLastStrides(shape);
  if (!inputs.every((g) => isNonOverlappingAndDense(g.sizes, g.strides))) return null;
  const first = inputs[0].strides;
  for (const g of inputs) if (!sameList(g.strides, first)) return null;
  return first.slice();
}
