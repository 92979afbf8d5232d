import {
  abs,
  add,
  cumprod,
  cumsum,
  div,
  eq,
  isnan,
  logicalAnd,
  logicalOr,
  mean,
  mul,
  normalizeDim,
  pow,
  scatterAdd,
  sign,
  sub,
  sum,
  where,
  zerosLike,
  type Tensor,
} from '@torch-ts/core';
import type { DerivativeArgs, DerivativeContext, DerivativeFamily, DerivativeOf } from '../derivative';
import { expandReduced, inputSizes, reducedDims, restoreReducedDims, savedTensor, selectingReductionBackward } from './common';

/**
 * Derivatives of the statistics reductions and the scans, as PyTorch's derivatives.yaml
 * and FunctionsManual.cpp write them (var_backward, std_backward, logsumexp_backward,
 * linalg_vector_norm's norm_backward, evenly_distribute_backward,
 * value_selecting_reduction_backward, cumprod_backward...), in core ops so that they are
 * differentiable again.
 */

/** The number of elements each result of a reduction over `dims` of `shape` summarises. */
function countOf(shape: readonly number[], dims: readonly number[]): number {
  return dims.reduce((n, d) => n * shape[d], 1);
}

/** 2 / (N - correction) * grad * (x - mean(x)), the reduced dims of `grad` already restored. */
function varBackward(grad: Tensor, x: Tensor, dims: readonly number[], correction: number): Tensor {
  const n = countOf(x.shape, dims);
  const centered = sub(x, mean(x, dims.length === 0 ? null : [...dims], { keepdim: true }));
  return mul(mul(grad, 2 / (n - correction)), centered);
}

/** The std's gradient as a var gradient: grad / (2 std), 0 where std is 0. */
function stdToVarGrad(grad: Tensor, std: Tensor): Tensor {
  const zero = eq(std, 0);
  return where(zero, 0, div(grad, mul(where(zero, 1, std), 2)));
}

interface VarArgs {
  readonly x: Tensor;
  readonly dims: number[];
  readonly keepdim: boolean;
  readonly correction: number;
}

/** (var, std, var_mean and std_mean have the same arguments: var.correction's) */
function varArgs(ctx: DerivativeContext<DerivativeArgs<'var.correction'>>, op: string): VarArgs {
  const x = savedTensor(ctx, 'self', op);
  return {
    x,
    dims: reducedDims(op, ctx.args[1], x.dim()),
    keepdim: ctx.args[3] === true,
    correction: ctx.args[2] == null ? 1 : Number(ctx.args[2]),
  };
}

const VarBackward0: DerivativeOf<'var.correction'> = {
  name: 'VarBackward0',
  inputs: ['self'],
  saves: ['self'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const a = varArgs(ctx, 'var');
    return [varBackward(restoreReducedDims(ctx.grad, a.dims, a.keepdim), a.x, a.dims, a.correction)];
  },
};

const StdBackward0: DerivativeOf<'std.correction'> = {
  name: 'StdBackward0',
  inputs: ['self'],
  saves: ['self', 'result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const a = varArgs(ctx, 'std');
    const std = restoreReducedDims(savedTensor(ctx, 'result', 'std'), a.dims, a.keepdim);
    const g = stdToVarGrad(restoreReducedDims(ctx.grad, a.dims, a.keepdim), std);
    return [varBackward(g, a.x, a.dims, a.correction)];
  },
};

/** var_mean / std_mean: the var (std) part plus the mean's, each only when its output got a gradient. */
function statMeanBackward(name: string, op: string, isStd: boolean): DerivativeOf<'var_mean.correction'> {
  return {
    name,
    inputs: ['self'],
    saves: isStd ? ['self', 'result0'] : ['self'],
    backward: (ctx) => {
      if (!ctx.needs[0]) return [null];
      const a = varArgs(ctx, op);
      const [gStat, gMean] = ctx.grads;
      let total: Tensor | null = null;
      if (gStat) {
        let g = restoreReducedDims(gStat, a.dims, a.keepdim);
        if (isStd) g = stdToVarGrad(g, restoreReducedDims(savedTensor(ctx, 'result0', op), a.dims, a.keepdim));
        total = varBackward(g, a.x, a.dims, a.correction);
      }
      if (gMean) {
        const m = div(expandReduced(gMean, a.x.shape, a.dims, a.keepdim), countOf(a.x.shape, a.dims));
        total = total === null ? m : add(total, m);
      }
      return [total ?? zerosLike(a.x)];
    },
  };
}

/** PyTorch's norm_backward for a vector norm of order `p` (FunctionsManual.cpp). */
const LinalgVectorNormBackward0: DerivativeOf<'linalg_vector_norm'> = {
  name: 'LinalgVectorNormBackward0',
  inputs: ['self'],
  saves: ['self', 'result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const op = 'linalg.vector_norm';
    const x = savedTensor(ctx, 'self', op);
    const p = Number(ctx.args[1] ?? 2);
    const dims = reducedDims(op, ctx.args[2], x.dim());
    const keepdim = ctx.args[3] === true;
    const g = restoreReducedDims(ctx.grad, dims, keepdim);
    const norm = restoreReducedDims(savedTensor(ctx, 'result', op), dims, keepdim);
    if (p === 0) return [zerosLike(x)];
    if (p === 1) return [mul(sign(x), g)];
    const normZero = eq(norm, 0);
    if (p === 2) return [mul(g, where(normZero, 0, div(x, where(normZero, 1, norm))))];
    if (p === Infinity || p === -Infinity) {
      // the gradient shared evenly among the elements whose |x| is the norm (or NaN)
      const ax = abs(x);
      const mask = logicalOr(eq(ax, norm), isnan(ax));
      const count = dims.length === 0 ? sum(mask) : sum(mask, dims, { keepdim: true });
      return [mul(sign(x), mul(div(g, count), mask))];
    }
    if (p < 1) {
      const scaled = mul(sign(x), where(eq(x, 0), 0, pow(abs(x), p - 1)));
      return [mul(mul(scaled, g), pow(norm, 1 - p))];
    }
    const scaled = p < 2 ? mul(sign(x), pow(abs(x), p - 1)) : mul(x, pow(abs(x), p - 2));
    const scale = where(normZero, 0, div(g, pow(where(normZero, 1, norm), p - 1)));
    return [mul(scaled, scale)];
  },
};

/** median(): the gradient shared evenly among the elements equal to the median (NaN: among the NaNs). */
const MedianBackward0: DerivativeOf<'median'> = {
  name: 'MedianBackward0',
  inputs: ['self'],
  saves: ['self', 'result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const x = savedTensor(ctx, 'self', 'median');
    const value = savedTensor(ctx, 'result', 'median');
    const mask = logicalOr(eq(x, value), logicalAnd(isnan(x), isnan(value)));
    return [where(mask, div(ctx.grad, sum(mask)), 0)];
  },
};

/** The sum of `t` from each position to the end of `dim` (a reversed cumsum). */
function reverseCumsum(t: Tensor, d: number): Tensor {
  return add(sub(sum(t, [d], { keepdim: true }), cumsum(t, d)), t);
}

// grad.flip(dim).cumsum(dim).flip(dim), written as sum - cumsum + grad
const CumsumBackward0: DerivativeOf<'cumsum'> = {
  name: 'CumsumBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const shape = inputSizes(ctx, 0, 'cumsum');
    if (shape.length === 0 || ctx.grad.numel() === 0) return [ctx.grad];
    return [reverseCumsum(ctx.grad, normalizeDim('cumsum', ctx.args[1], shape.length))];
  },
};

/**
 * Note [cumprod backward with zeros]
 * d y_k / d x_i (k >= i) is the product of x_0..x_k without x_i. With z the position of the
 * first zero of the line: before it, that product is y_k / x_i (x_i is not 0), so the
 * gradient is revcumsum(grad * y) / x_i; at z it is the cumprod of the line with x_z
 * replaced by 1 (y'), so revcumsum(grad * y'); after z every product holds x_z = 0. No
 * branch divides by zero, so `where` only selects finite values.
 */
const CumprodBackward0: DerivativeOf<'cumprod'> = {
  name: 'CumprodBackward0',
  inputs: ['self'],
  saves: ['self', 'result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const x = savedTensor(ctx, 'self', 'cumprod');
    if (x.dim() === 0 || x.numel() === 0) return [ctx.grad];
    const y = savedTensor(ctx, 'result', 'cumprod');
    const d = normalizeDim('cumprod', ctx.args[1], x.dim());
    const g = ctx.grad;
    const isZero = eq(x, 0);
    const zerosSoFar = cumsum(isZero, d);
    const before = eq(zerosSoFar, 0);
    const firstZero = logicalAnd(isZero, eq(zerosSoFar, 1));
    const gBefore = div(reverseCumsum(mul(g, y), d), where(before, x, 1));
    const gFirst = reverseCumsum(mul(g, cumprod(where(firstZero, 1, x), d)), d);
    return [where(before, gBefore, where(firstZero, gFirst, 0))];
  },
};

/**
 * cummax/cummin: each output took its value from the input at its index, so an input gets
 * the sum of the gradients of the outputs that point at it: PyTorch's scatter_add of the
 * gradient at the indices (differentiable in the gradient, for double backward).
 */
/** (typed as cummax's arguments, which cummin's are too) */
function cumExtremumBackward(name: string, op: string): DerivativeOf<'cummax'> {
  return {
    name,
    inputs: ['self'],
    saves: ['result1'],
    backward: (ctx) => {
      if (!ctx.needs[0]) return [null];
      const shape = inputSizes(ctx, 0, op);
      if (shape.length === 0 || ctx.grad.numel() === 0) return [ctx.grad];
      const d = normalizeDim(op, ctx.args[1], shape.length);
      return [scatterAdd(zerosLike(ctx.grad), d, savedTensor(ctx, 'result1', op), ctx.grad)];
    },
  };
}

export const STATS_DERIVATIVES = {
  'var.correction': VarBackward0,
  'std.correction': StdBackward0,
  'var_mean.correction': statMeanBackward('VarMeanBackward0', 'var_mean', false),
  'std_mean.correction': statMeanBackward('StdMeanBackward0', 'std_mean', true),
  linalg_vector_norm: LinalgVectorNormBackward0,
  median: MedianBackward0,
  'median.dim': selectingReductionBackward('MedianBackward1', 'median'),
  mode: selectingReductionBackward('ModeBackward0', 'mode'),
  cumsum: CumsumBackward0,
  cumsum_: CumsumBackward0,
  cumprod: CumprodBackward0,
  cumprod_: CumprodBackward0,
  cummax: cumExtremumBackward('CummaxBackward0', 'cummax'),
  cummin: cumExtremumBackward('CumminBackward0', 'cummin'),
} satisfies DerivativeFamily;
