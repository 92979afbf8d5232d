import { flip, normalizeDim, reshape, roll, sliceDim, sum, tril, triu, unbind, zeros, type Tensor } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { inputSizes } from './common';

/**
 * Derivatives of the joining and reordering ops (core/src/ops/join.ts, reorder.ts). cat and
 * stack take a Tensor[]: their `tensors` input stands for one input per element (Note
 * [Autograd kernels]), and the formula returns one gradient per element.
 */

/** Whether input i of cat was a skipped 1-D empty tensor (Note [cat's empty inputs]). */
function skipped(sizes: readonly number[]): boolean {
  return sizes.length === 1 && sizes[0] === 0;
}

// cat(tensors, dim): each input's gradient is its slice of grad along dim.
const CatBackward0: DerivativeOf<'cat'> = {
  name: 'CatBackward0',
  inputs: ['tensors'],
  saves: [],
  backward: (ctx) => {
    const shapes = ctx.inputs.map((info) => info?.sizes ?? null);
    const ref = shapes.find((s) => s !== null && !skipped(s)) ?? shapes[0] ?? [0];
    const d = normalizeDim('cat', ctx.args[1], ref.length);
    let at = 0;
    return shapes.map((s, i) => {
      if (s === null) return null;
      if (skipped(s) && s !== ref) {
        return ctx.needs[i] ? zeros([0], { dtype: ctx.grad.dtype, device: ctx.grad.device }) : null;
      }
      const start = at;
      at += s[d];
      return ctx.needs[i] ? sliceDim(ctx.grad, d, start, start + s[d], 1) : null;
    });
  },
};

// stack(tensors, dim): the gradients are grad's slices along the new dim.
const StackBackward0: DerivativeOf<'stack'> = {
  name: 'StackBackward0',
  inputs: ['tensors'],
  saves: [],
  backward: (ctx) => {
    const nd = (ctx.inputs[0]?.sizes.length ?? 0) + 1;
    const d = normalizeDim('stack', ctx.args[1], nd);
    const parts = unbind(ctx.grad, d);
    return parts.map((p, i) => (ctx.needs[i] ? p : null));
  },
};

// repeat(self, repeats): grad viewed at [r0, s0, r1, s1, ...] summed over the r_i (Note [repeat as one copy]).
const RepeatBackward0: DerivativeOf<'repeat'> = {
  name: 'RepeatBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const shape = inputSizes(ctx, 0, 'repeat');
    const reps = ctx.args[1];
    const lead = reps.length - shape.length;
    const doubled: number[] = [];
    const sumDims: number[] = [];
    reps.forEach((r, i) => {
      sumDims.push(doubled.length);
      doubled.push(r, i < lead ? 1 : shape[i - lead]);
    });
    if (reps.length === 0) return [ctx.grad];
    return [reshape(sum(reshape(ctx.grad, doubled), sumDims), [...shape])];
  },
};

const FlipBackward0: DerivativeOf<'flip'> = {
  name: 'FlipBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => [ctx.needs[0] ? flip(ctx.grad, ctx.args[1]) : null],
};

const RollBackward0: DerivativeOf<'roll'> = {
  name: 'RollBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const shifts = ctx.args[1].map((s) => -s);
    return [roll(ctx.grad, shifts, ctx.args[2])];
  },
};

/** (typed as triu's arguments, which tril's and the in-place forms' are too) */
function triBackward(name: string, tri: (g: Tensor, k: number) => Tensor): DerivativeOf<'triu'> {
  return {
    name,
    inputs: ['self'],
    saves: [],
    backward: (ctx) => [ctx.needs[0] ? tri(ctx.grad, ctx.args[1] ?? 0) : null],
  };
}

export const JOIN_DERIVATIVES = {
  cat: CatBackward0,
  stack: StackBackward0,
  repeat: RepeatBackward0,
  flip: FlipBackward0,
  roll: RollBackward0,
  triu: triBackward('TriuBackward0', triu),
  triu_: triBackward('TriuBackward0', triu),
  tril: triBackward('TrilBackward0', tril),
  tril_: triBackward('TrilBackward0', tril),
} satisfies DerivativeFamily;

