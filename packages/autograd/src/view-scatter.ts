import { Tensor as TensorHandle, TensorImpl, callBoxed, defineStructured, implOf, type Geometry, type Tensor } from '@torch-ts/core';
import type { Derivative } from './derivative';

/**
 * `viewScatterAdd(grad, baseSizes, g)`: zeros of `baseSizes` with `grad` added at the view
 * geometry `g` (relative to a contiguous tensor of `baseSizes`). It is the backward of the
 * slicing views (select, slice, diagonal, as_strided, unfold): written as one op with its own
 * derivative (taking the view again), so their double backward needs no in-place write into
 * a view. Overlapping windows (unfold with step < size) accumulate: the add runs element by
 * element on the overlapping view.
 */
export const VIEW_SCATTER_ADD = defineStructured(
  'view_scatter_add(Tensor grad, int[] base_sizes, int[] sizes, int[] strides, int offset) -> Tensor',
  ([grad, baseSizes, sizes, strides, offset], b) => {
    const g = grad as TensorImpl;
    const out = TensorImpl.empty('view_scatter_add', baseSizes as number[], g.dtype, g.device);
    const window = out.view(sizes as number[], strides as number[], offset as number);
    try {
      implOf(b, 'fill', 'view_scatter_add')(out, 0);
      implOf(b, 'add', 'view_scatter_add')(window, window, g, 1);
    } catch (e) {
      out.release();
      throw e;
    } finally {
      window.release();
    }
    return out;
  },
);

export const VIEW_SCATTER_ADD_DERIVATIVE: Derivative = {
  name: 'ViewScatterAddBackward0',
  inputs: ['grad'],
  saves: [],
  backward: ({ grad, args }) => {
    const [, , sizes, strides, offset] = args as [unknown, number[], number[], number[], number];
    const c = grad.contiguous();
    return [c.asStrided(sizes, strides, c.storageOffset() + offset)];
  },
};

/** The Tensor-level call used by derivative formulas. */
export function viewScatterAdd(grad: Tensor, baseSizes: readonly number[], g: Geometry): Tensor {
  const impl = callBoxed(VIEW_SCATTER_ADD, [grad.impl, [...baseSizes], [...g.sizes], [...g.strides], g.offset]) as TensorImpl;
  return new TensorHandle(impl);
}
