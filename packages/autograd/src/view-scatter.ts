import { AutogradError, Tensor as TensorHandle, TensorImpl, callBoxed, defineStructured, implOf, registerComplexKernel, viewAsComplex, viewAsReal, type Geometry, type Tensor } from '@torch-ts/core';
import type { Derivative, NodeArgs } from './derivative';

/**
 * `viewScatterAdd(grad, baseSizes, g)`: zeros of `baseSizes` with `grad` added at the view
 * geometry `g` (relative to a contiguous tensor of `baseSizes`). It is the backward of the
 * slicing views (select, slice, diagonal, as_strided, unfold): written as one op with its own
 * derivative (taking the view again), so their double backward needs no in-place write into
 * a view. Overlapping windows (unfold with step < size) accumulate (Note [Overlapping view
 * gradients]).
 *
 * Note [Overlapping view gradients]
 * When several elements of the window share one position of the base (unfold with
 * step < size, as_strided with small strides), a pointwise `add` into the window is a race:
 * a parallel backend reads the old value at each element and the last store wins, so only
 * one of the shares lands. Such a window goes through the backend's scatter in 'add' mode
 * with no index tensor (the window's own strides are the positions), which combines
 * duplicate positions (atomically on WebGPU), as PyTorch's as_strided_backward uses
 * index_add_ when the output may overlap.
 */
const VIEW_SCATTER_ADD_SCHEMA = 'view_scatter_add(Tensor grad, int[] base_sizes, int[] sizes, int[] strides, int offset) -> Tensor';

export const VIEW_SCATTER_ADD = defineStructured(
  VIEW_SCATTER_ADD_SCHEMA,
  ([g, baseSizes, sizes, strides, offset], b) => {
    const out = TensorImpl.empty('view_scatter_add', baseSizes, g.dtype, g.device);
    const window = out.view(sizes, strides, offset);
    try {
      implOf(b, 'fill', 'view_scatter_add')(out, 0);
      if (mayOverlap(window.sizes, window.strides)) {
        // Note [Overlapping view gradients]
        const access = { data: window, indices: [], strides: [], sizes: [], dims: [] };
        implOf(b, 'indexScatter', 'view_scatter_add')('view_scatter_add', access, g, 'add', 1, 'nowrap');
      } else {
        implOf(b, 'add', 'view_scatter_add')(window, window, g, 1);
      }
    } catch (e) {
      out.release();
      throw e;
    } finally {
      window.release();
    }
    return out;
  },
);

// A complex gradient's window is its parts' window with the trailing parts dim (core's Note [Complex tensors are pairs of reals]).
registerComplexKernel(VIEW_SCATTER_ADD, ([g, baseSizes, sizes, strides, offset]) =>
  viewAsComplex(viewScatterAdd(viewAsReal(g), [...baseSizes, 2], { sizes: [...sizes, 2], strides: [...strides.map((s) => 2 * s), 1], offset: 2 * offset })),
);

export const VIEW_SCATTER_ADD_DERIVATIVE: Derivative<NodeArgs<typeof VIEW_SCATTER_ADD_SCHEMA>> = {
  name: 'ViewScatterAddBackward0',
  inputs: ['grad'],
  saves: [],
  backward: ({ grad, args }) => {
    const [, , sizes, strides, offset] = args;
    const c = grad.contiguous();
    return [c.asStrided(sizes, strides, c.storageOffset() + offset)];
  },
};

/**
 * Whether some two elements of a view of `sizes` and `strides` may share a position: a
 * sufficient test of non-overlap (each dim's stride, in increasing order, passes the extent
 * of the dims inside it), so `true` may also mean "too hard to tell", as PyTorch's
 * has_internal_overlap.
 */
export function mayOverlap(sizes: readonly number[], strides: readonly number[]): boolean {
  const dims = sizes
    .map((s, i) => [s, Math.abs(strides[i])] as const)
    .filter(([s]) => s > 1)
    .sort((a, b) => a[1] - b[1]);
  let extent = 0;
  for (const [size, stride] of dims) {
    if (stride <= extent) return true;
    extent += stride * (size - 1);
  }
  return false;
}

/** The Tensor-level call used by derivative formulas. */
export function viewScatterAdd(grad: Tensor, baseSizes: readonly number[], g: Geometry): Tensor {
  const impl = callBoxed(VIEW_SCATTER_ADD, [grad.impl, [...baseSizes], [...g.sizes], [...g.strides], g.offset]);
  if (!(impl instanceof TensorImpl)) throw new AutogradError('view_scatter_add: the operator returned no tensor');
  return new TensorHandle(impl);
}
