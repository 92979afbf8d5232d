import { add, div, ge, gt, le, lt, mul, neg, sub, where, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { operand, savedTensor, scalarNumber } from './common';

/**
 * Derivatives of clamp, lerp and addcmul/addcdiv (core's pointwise-binary.ts), as PyTorch's
 * derivatives.yaml writes them (the engine sums each result down to its input's shape).
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

// lerp.Scalar records LerpBackward0, lerp.Tensor LerpBackward1:
// self: grad * (1 - weight); end: grad * weight; weight: grad * (end - self)
const LerpBackward: DerivativeOf<'lerp'> = {
  name: (args) => (tensorArg(args, 2) ? 'LerpBackward1' : 'LerpBackward0'),
  inputs: ['self', 'other', 'other2'],
  saves: ['self@other2', 'other@other2', 'other2'],
  backward: (ctx) => {
    const { grad, needs } = ctx;
    const w = operand(ctx, 'other2', 2);
    const oneMinus = typeof w === 'object' ? add(neg(w), 1) : 1 - Number(w);
    return [
      needs[0] ? mul(grad, oneMinus) : null,
      needs[1] ? mul(grad, w) : null,
      needs[2] ? mul(grad, sub(savedTensor(ctx, 'other', 'lerp'), savedTensor(ctx, 'self', 'lerp'))) : null,
    ];
  },
};

// addcmul: self: grad; tensor1: grad * tensor2 * value; tensor2: grad * tensor1 * value
const AddcmulBackward0: DerivativeOf<'addcmul'> = {
  name: 'AddcmulBackward0',
  inputs: ['self', 'other', 'other2'],
  saves: ['other@other2', 'other2@other'],
  backward: (ctx) => {
    const { grad, needs, args } = ctx;
    const value = scalarNumber(args[3], 1);
    return [
      needs[0] ? grad : null,
      needs[1] ? mul(mul(grad, savedTensor(ctx, 'other2', 'addcmul')), value) : null,
      needs[2] ? mul(mul(grad, savedTensor(ctx, 'other', 'addcmul')), value) : null,
    ];
  },
};

// addcdiv: self: grad; tensor1: grad * value / tensor2; tensor2: -grad * value * tensor1 / (tensor2 * tensor2)
const AddcdivBackward0: DerivativeOf<'addcdiv'> = {
  name: 'AddcdivBackward0',
  inputs: ['self', 'other', 'other2'],
  saves: ['other@other2', 'other2'],
  backward: (ctx) => {
    const { grad, needs, args } = ctx;
    const value = scalarNumber(args[3], 1);
    const t2 = savedTensor(ctx, 'other2', 'addcdiv');
    return [
      needs[0] ? grad : null,
      needs[1] ? div(mul(grad, value), t2) : null,
      needs[2] ? div(mul(mul(neg(grad), value), savedTensor(ctx, 'other', 'addcdiv')), mul(t2, t2)) : null,
    ];
  },
};

export const BINARY_DERIVATIVES = {
  clamp: ClampBackward,
  clamp_: ClampBackward,
  lerp: LerpBackward,
  lerp_: LerpBackward,
  addcmul: AddcmulBackward0,
  addcmul_: AddcmulBackward0,
  addcdiv: AddcdivBackward0,
  addcdiv_: AddcdivBackward0,
} satisfies DerivativeFamily;
