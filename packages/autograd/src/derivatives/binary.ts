import { ge, gt, le, lt, where, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor } from './common';

/**
 * The derivative of clamp (core's pointwise-binary.ts), as PyTorch's derivatives.yaml writes it
 * (the engine sums each result down to its input's shape).
 */

/** Tensor arguments reach `name` as null, scalars as themselves (the Scalar overload records another Node). */
const tensorArg = (args: readonly unknown[], i: number) => args[i] === null;

/** `grad` where both masks hold (PyTorch's `a.logical_and_(b)`), else 0; a null mask always holds. */
function gradWhereAll(grad: Tensor, a: Tensor | null, b: Tensor | null): Tensor {
  const inner = b ? where(b, grad, 0) : grad;
  return a ? where(a, inner, 0) : inner;
}

/**
 * clamp (Note [clamp's two kernels] in core). clamp_backward: `self` takes the gradient
 * where min <= self <= max (the subgradient 1 at the bounds). With Tensor bounds
 * (clamp_backward_min_max), `min` takes it where self < min and min < max, `max` where
 * self > max or max < min; a lone bound takes it where `self` is beyond it.
 */
const ClampBackward: DerivativeOf<'clamp'> = {
  // clamp.Tensor records ClampBackward0, clamp (Scalar bounds) ClampBackward1
  name: (args) => (tensorArg(args, 1) || tensorArg(args, 2) ? 'ClampBackward0' : 'ClampBackward1'),
  inputs: ['self', 'min', 'max'],
  saves: ['self', 'min', 'max'],
  backward: (ctx) => {
    const { grad, needs } = ctx;
    const self = savedTensor(ctx, 'self', 'clamp');
    // a Tensor bound is saved (and is the only kind that can need a gradient), a Scalar one is in args
    const { min, max } = ctx.saved;
    const lo = min ?? ctx.args[1];
    const hi = max ?? ctx.args[2];
    const selfGrad = needs[0] ? gradWhereAll(grad, lo == null ? null : ge(self, lo), hi == null ? null : le(self, hi)) : null;
    let minGrad: Tensor | null = null;
    let maxGrad: Tensor | null = null;
    if (needs[1] && min) minGrad = gradWhereAll(grad, lt(self, min), hi == null ? null : lt(min, hi));
    if (needs[2] && max) {
      const beyond = gt(self, max);
      maxGrad = lo == null ? where(beyond, grad, 0) : where(beyond, grad, where(lt(max, lo), grad, 0));
    }
    return [selfGrad, minGrad, maxGrad];
  },
};

export const BINARY_DERIVATIVES = {
  clamp: ClampBackward,
  clamp_: ClampBackward,
} satisfies DerivativeFamily;
