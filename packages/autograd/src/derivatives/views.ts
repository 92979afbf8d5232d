import {
  asStrided,
  conj,
  contiguousGeometry,
  diagonalGeometry,
  isContiguous,
  normalizeDims,
  permute,
  reshape,
  selectGeometry,
  sliceGeometry,
  squeeze,
  storageExtent,
  transpose,
  unfoldGeometry,
  viewAsComplex,
  viewAsReal,
  type Geometry,
  type Tensor,
} from '@torch-ts/core';
import type { Derivative, DerivativeContext, DerivativeFamily, DerivativeOf, NotDifferentiable } from '../derivative';
import { viewScatterAdd } from '../view-scatter';
import { inputSizes, sumTo } from './common';

/**
 * View derivatives. A view that drops or repeats nothing is undone by the inverse view
 * (`permute` by the inverse permutation); a view that takes a window of its input (select,
 * slice, diagonal, unfold, as_strided) gives a gradient that is zero outside the window and
 * `grad` added inside it: `viewScatterAdd` at the same window of a contiguous tensor of the
 * input's shape (overlapping unfold windows accumulate).
 */

/** A one-input view formula of `grad`, the input's shape and the op's arguments `A`. */
function viewBackward<A extends readonly unknown[]>(
  name: Derivative<A>['name'],
  op: string,
  formula: (grad: Tensor, shape: readonly number[], args: Readonly<A>) => Tensor,
): Derivative<A> {
  return {
    name,
    inputs: ['self'],
    // only the input's sizes are read, and those come with the context
    saves: [],
    backward: (ctx: DerivativeContext<A>) => (ctx.needs[0] ? [formula(ctx.grad, inputSizes(ctx, 0, op), ctx.args)] : [null]),
  };
}

/** A formula that needs neither the input nor its shape. */
function shapeFree<A extends readonly unknown[]>(name: string, formula: (grad: Tensor, args: Readonly<A>) => Tensor): Derivative<A> {
  return {
    name,
    inputs: ['self'],
    saves: [],
    backward: (ctx: DerivativeContext<A>) => (ctx.needs[0] ? [formula(ctx.grad, ctx.args)] : [null]),
  };
}

/** The gradient of a window `g` (a geometry on a contiguous tensor of `shape`). */
function windowBackward<A extends readonly unknown[]>(
  name: Derivative<A>['name'],
  op: string,
  window: (base: Geometry, args: Readonly<A>) => Geometry,
): Derivative<A> {
  return viewBackward<A>(name, op, (grad, shape, args) => viewScatterAdd(grad, shape, window(contiguousGeometry(shape), args)));
}

/**
 * Note [as_strided backward]
 * as_strided's sizes, strides and offset address the input's *storage*, not its elements,
 * so the formula needs the input's strides and offset too: it saves the input.
 * When the input is contiguous and the window lies inside it, the window relative to the
 * input is the same strides at offset (offset - input offset). Otherwise the gradient is
 * built on a flat stand-in for the storage (one element per storage position the input or
 * the window touches): grad added at the window, then read back at the input's geometry.
 * An input that overlaps itself (stride 0) would need its repeated elements' shares
 * divided out, which PyTorch does and this formula does not.
 */
function asStridedBackward(name: string): DerivativeOf<'as_strided'> {
  return {
    name,
    inputs: ['self'],
    // The input's geometry comes from ctx.inputs: saving the tensor would make a later in-place
    // change of it (through this very view) invalidate this node.
    saves: [],
    backward: (ctx) => {
      if (!ctx.needs[0]) return [null];
      const info = ctx.inputs[0]!;
      const input: Geometry = { sizes: info.sizes, strides: info.strides, offset: info.storageOffset };
      const [, sizes, strides] = ctx.args;
      const offset = ctx.args[3] ?? input.offset;
      const numel = info.sizes.reduce((a, b) => a * b, 1);
      const relative = offset - input.offset;
      if (isContiguous(input.sizes, input.strides) && relative >= 0 && storageExtent(sizes, strides, relative) <= numel) {
        return [viewScatterAdd(ctx.grad, input.sizes, { sizes, strides, offset: relative })];
      }
      const extent = Math.max(storageExtent(input.sizes, input.strides, input.offset), storageExtent(sizes, strides, offset));
      const flat = viewScatterAdd(ctx.grad, [extent], { sizes, strides, offset });
      return [asStrided(flat, input.sizes, input.strides, input.offset)];
    },
  };
}

const PermuteBackward0: DerivativeOf<'permute'> = shapeFree('PermuteBackward0', (grad, args) => {
  const dims = normalizeDims('permute', args[1], grad.dim());
  const inverse = new Array<number>(dims.length);
  dims.forEach((d, i) => (inverse[d] = i));
  return permute(grad, inverse);
});

/**
 * The in-place view ops (autograd's Note [In-place view ops]): the same formulas as their
 * views', under PyTorch's names for the in-place overloads. `ctx.inputs[0]` is `self` as it
 * was before the op changed its geometry.
 */
const INPLACE_VIEW_DERIVATIVES = {
  // (a 0-D or 1-D self is unchanged by t_, and so is its gradient)
  t_: shapeFree('TBackward1', (grad) => (grad.dim() === 2 ? transpose(grad, 0, 1) : grad)),
  transpose_: shapeFree('TransposeBackward1', (grad, args) => transpose(grad, args[1], args[2])),
  squeeze_: viewBackward('SqueezeBackward2', 'squeeze_', (grad, shape) => reshape(grad, [...shape])),
  'squeeze_.dim': viewBackward('SqueezeBackward3', 'squeeze_', (grad, shape) => reshape(grad, [...shape])),
  // unsqueeze_'s dim counts in the output's dims, which is what grad has
  unsqueeze_: shapeFree('UnsqueezeBackward1', (grad, args) => squeeze(grad, args[1])),
  as_strided_: asStridedBackward('AsStridedBackward1'),
} satisfies DerivativeFamily;

const DETACH: NotDifferentiable = { notDifferentiable: 'detach cuts the graph: its result never requires grad' };

export const VIEW_DERIVATIVES = {
  view: viewBackward('ViewBackward0', 'view', (grad, shape) => reshape(grad, [...shape])),
  as_strided: asStridedBackward('AsStridedBackward0'),
  permute: PermuteBackward0,
  'transpose.int': shapeFree('TransposeBackward0', (grad, args) => transpose(grad, args[1], args[2])),
  'select.int': windowBackward('SelectBackward0', 'select', (g, args) =>
    selectGeometry('select', g, args[1], args[2]),
  ),
  'slice.Tensor': windowBackward('SliceBackward0', 'slice', (g, args) =>
    sliceGeometry('slice', g, args[1], args[2], args[3], args[4]),
  ),
  // unsqueeze's dim counts in the output's dims, which is what grad has
  unsqueeze: shapeFree('UnsqueezeBackward0', (grad, args) => squeeze(grad, args[1])),
  // squeeze only drops size-1 dims, so the input's shape is the same elements in the same order;
  // squeeze() records SqueezeBackward0, squeeze(dim) SqueezeBackward1
  'squeeze.dims': viewBackward(
    (args) => (args[1] == null ? 'SqueezeBackward0' : 'SqueezeBackward1'),
    'squeeze',
    (grad, shape) => reshape(grad, [...shape]),
  ),
  expand: viewBackward('ExpandBackward0', 'expand', (grad, shape) => sumTo(grad, shape)),
  unfold: windowBackward('UnfoldBackward0', 'unfold', (g, args) =>
    unfoldGeometry('unfold', g, args[1], args[2], args[3]),
  ),
  diagonal: windowBackward('DiagonalBackward0', 'diagonal', (g, args) =>
    diagonalGeometry('diagonal', g, args[1], args[2], args[3]),
  ),
  detach: DETACH,
  alias: shapeFree('AliasBackward0', (grad) => grad),
  // (Note [Complex gradients] in core: a complex gradient is its parts' gradients, viewed)
  // (a contiguous gradient at an odd offset, a narrow of a larger one, is copied: view_as_complex needs an even offset)
  view_as_real: shapeFree('ViewAsRealBackward0', (grad) => {
    const g = grad.contiguous();
    return viewAsComplex(g.storageOffset() % 2 === 0 ? g : g.clone());
  }),
  // (PyTorch's view_as_real(grad.contiguous().resolve_conj()): a formula's ^H may hand a lazily conjugated gradient)
  view_as_complex: shapeFree('ViewAsComplexBackward0', (grad) => viewAsReal(grad.contiguous().resolveConj())),
  // (the gradient of conj(z) is conj of the gradient: core's Note [The conjugate bit])
  _conj: shapeFree('ConjBackward0', (grad) => conj(grad)),
  ...INPLACE_VIEW_DERIVATIVES,
} satisfies DerivativeFamily;
