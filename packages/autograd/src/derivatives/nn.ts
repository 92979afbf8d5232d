import {
  AutogradError,
  _embedding,
  _embeddingDenseBackward,
  _embeddingSparseBackward,
  _nativeBatchNormBackward,
  _nativeGroupNormBackward,
  _groupNormBackwardIsFused,
  _nativeLayerNormBackward,
  _nllLossBackward,
  _nllLossForward,
  _softmaxBackwardData,
  abs,
  add,
  clampMin,
  div,
  eq,
  exp,
  log,
  log1p,
  lt,
  mean,
  mul,
  neg,
  reshape,
  rsqrt,
  sigmoid,
  sign,
  softplus,
  sub,
  sum,
  unsqueeze,
  view,
  where,
  type Tensor,
} from '@torch-ts/core';
import type { Derivative, DerivativeContext, DerivativeFamily, DerivativeOf } from '../derivative';
import { isGradEnabled } from '../grad-mode';
import { inputSizes, savedTensor } from './common';

/**
 * Derivatives of the fused NN ops (softmax.ts, losses.ts, normalization.ts, nn-misc.ts in
 * core), Node names as PyTorch's.
 *
 * Note [Fused backward kernels and double backward]
 * A first backward (grad mode off) runs the fused backward kernel op (one pass, as
 * PyTorch's). When the engine builds a graph of the backward (`createGraph`, grad mode on),
 * batch norm and layer norm compute the same gradients from differentiable core ops
 * instead, recomputing the statistics from the saved input, so that double backward is
 * exact; their fused backward ops are then never recorded, and their own entries refuse.
 * softmax's and nll_loss's backward ops are linear in what they differentiate, so their
 * entries are exact formulas.
 */

// _softmax(self, dim, half_to_float): grad_input = y * (g - sum(g * y))
const SoftmaxBackward0: DerivativeOf<'_softmax'> = {
  name: 'SoftmaxBackward0',
  inputs: ['self'],
  saves: ['result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const dtype = ctx.inputs[0]?.dtype ?? ctx.grad.dtype;
    return [_softmaxBackwardData(ctx.grad, savedTensor(ctx, 'result', '_softmax'), ctx.args[1], dtype, false)];
  },
};

// _log_softmax(self, dim, half_to_float): grad_input = g - exp(y) * sum(g)
const LogSoftmaxBackward0: DerivativeOf<'_log_softmax'> = {
  name: 'LogSoftmaxBackward0',
  inputs: ['self'],
  saves: ['result'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const dtype = ctx.inputs[0]?.dtype ?? ctx.grad.dtype;
    return [_softmaxBackwardData(ctx.grad, savedTensor(ctx, 'result', '_log_softmax'), ctx.args[1], dtype, true)];
  },
};

/** The reduced dim of a softmax (backward) op over a tensor of `ndim` dims, as a keepdim list. */
function softmaxDim(dim: number, ndim: number): number[] {
  if (ndim === 0) return [];
  return [dim < 0 ? dim + ndim : dim];
}

function sumKeep(t: Tensor, dims: number[]): Tensor {
  return dims.length === 0 ? t : sum(t, dims, { keepdim: true });
}

// _softmax_backward_data(grad_output g, output y, dim, input_dtype) = y * (g - s), s = sum(g * y)
//   d/dg . G = y * (G - sum(G * y));  d/dy . G = G * (g - s) - g * sum(G * y)
const SoftmaxBackwardDataBackward0: DerivativeOf<'_softmax_backward_data'> = {
  name: 'SoftmaxBackwardDataBackward0',
  inputs: ['grad_output', 'output'],
  saves: ['grad_output', 'output'],
  backward: (ctx) => {
    const g = savedTensor(ctx, 'grad_output', '_softmax_backward_data');
    const y = savedTensor(ctx, 'output', '_softmax_backward_data');
    const dims = softmaxDim(ctx.args[2], y.dim());
    const G = ctx.grad;
    const gy = sumKeep(mul(G, y), dims);
    return [
      ctx.needs[0] ? mul(y, sub(G, gy)) : null,
      ctx.needs[1] ? sub(mul(G, sub(g, sumKeep(mul(g, y), dims))), mul(g, gy)) : null,
    ];
  },
};

// _log_softmax_backward_data(g, y, dim, input_dtype) = g - exp(y) * sum(g)
//   d/dg . G = G - sum(G * exp(y));  d/dy . G = -G * exp(y) * sum(g)
const LogSoftmaxBackwardDataBackward0: DerivativeOf<'_log_softmax_backward_data'> = {
  name: 'LogSoftmaxBackwardDataBackward0',
  inputs: ['grad_output', 'output'],
  saves: ['grad_output', 'output'],
  backward: (ctx) => {
    const g = savedTensor(ctx, 'grad_output', '_log_softmax_backward_data');
    const y = savedTensor(ctx, 'output', '_log_softmax_backward_data');
    const dims = softmaxDim(ctx.args[2], y.dim());
    const G = ctx.grad;
    const ey = exp(y);
    return [
      ctx.needs[0] ? sub(G, sumKeep(mul(G, ey), dims)) : null,
      ctx.needs[1] ? neg(mul(mul(G, ey), sumKeep(g, dims))) : null,
    ];
  },
};

// nll_loss_forward(self, target, weight, reduction, ignore_index): only self is differentiable
// (PyTorch has no derivative for weight either).
/** (typed as nll_loss_forward's arguments, which nll_loss2d_forward's are too) */
function nllLossBackward(name: string): DerivativeOf<'nll_loss_forward'> {
  return {
    name,
    inputs: ['self'],
    saves: ['self', 'target', 'weight', 'result1'],
    backward: (ctx) => {
      // total_weight (output 1) carries no gradient
      if (!ctx.needs[0] || !ctx.grads[0]) return [null];
      const self = savedTensor(ctx, 'self', 'nll_loss');
      const target = savedTensor(ctx, 'target', 'nll_loss');
      const weight = ctx.saved['weight'] ?? null;
      const total = savedTensor(ctx, 'result1', 'nll_loss');
      return [_nllLossBackward(ctx.grads[0], self, target, weight, ctx.args[3], ctx.args[4], total)];
    },
  };
}

// nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight) is
// linear in grad_output: its adjoint is nll_loss itself. It does not depend on self's values.
const NllLossBackwardBackward0: DerivativeOf<'nll_loss_backward'> = {
  name: 'NllLossBackwardBackward0',
  inputs: ['grad_output', 'self'],
  saves: ['target', 'weight'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null, null];
    const target = savedTensor(ctx, 'target', 'nll_loss_backward');
    const weight = ctx.saved['weight'] ?? null;
    const [out] = _nllLossForward(ctx.grad, target, weight, ctx.args[4], ctx.args[5]);
    return [out, null];
  },
};

/** Dims 0, 2, 3... of an [N, C, ...] tensor: batch norm's reduced dims. */
function bnDims(ndim: number): number[] {
  return [0, ...Array.from({ length: ndim - 2 }, (_, i) => i + 2)];
}

/** A per-channel [C] tensor shaped to broadcast against [N, C, ...]. */
function perChannel(t: Tensor, ndim: number): Tensor {
  return view(t, [1, t.shape[0], ...Array.from({ length: ndim - 2 }, () => 1)]);
}

// native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)
const NativeBatchNormBackward0: DerivativeOf<'native_batch_norm'> = {
  name: 'NativeBatchNormBackward0',
  inputs: ['input', 'weight', 'bias'],
  saves: ['input', 'weight', 'result1', 'result2'],
  backward: (ctx) => {
    // only the output carries a gradient; mean and invstd are statistics (as in PyTorch)
    const g = ctx.grads[0];
    if (!g) return [null, null, null];
    const x = savedTensor(ctx, 'input', 'native_batch_norm');
    const w = ctx.saved['weight'] ?? null;
    const training = ctx.args[5] === true;
    if (!isGradEnabled()) {
      const [gi, gw, gb] = _nativeBatchNormBackward(
        g,
        x,
        w,
        savedTensor(ctx, 'result1', 'native_batch_norm'),
        savedTensor(ctx, 'result2', 'native_batch_norm'),
        training,
      );
      return [ctx.needs[0] ? gi : null, ctx.needs[1] ? gw : null, ctx.needs[2] ? gb : null];
    }
    // differentiable formulas (Note [Fused backward kernels and double backward])
    const nd = x.dim();
    const dims = bnDims(nd);
    let mu: Tensor;
    let inv: Tensor;
    if (training) {
      mu = mean(x, dims, { keepdim: true });
      const xc0 = sub(x, mu);
      inv = rsqrt(add(mean(mul(xc0, xc0), dims, { keepdim: true }), ctx.args[7]));
    } else {
      mu = perChannel(savedTensor(ctx, 'result1', 'native_batch_norm'), nd);
      inv = perChannel(savedTensor(ctx, 'result2', 'native_batch_norm'), nd);
    }
    const xhat = mul(sub(x, mu), inv);
    const gi = (): Tensor => {
      const scale = w ? mul(inv, perChannel(w, nd)) : inv;
      if (!training) return mul(g, scale);
      const meanG = mean(g, dims, { keepdim: true });
      const meanGX = mean(mul(g, xhat), dims, { keepdim: true });
      return mul(sub(sub(g, meanG), mul(xhat, meanGX)), scale);
    };
    return [ctx.needs[0] ? gi() : null, ctx.needs[1] ? sum(mul(g, xhat), dims) : null, ctx.needs[2] ? sum(g, dims) : null];
  },
};

function fusedOnly(name: string, op: string): Derivative {
  return {
    name,
    inputs: ['grad_out'],
    saves: [],
    backward: () => {
      throw new AutogradError(
        `${op}: the fused backward kernel has no derivative; double backward goes through differentiable formulas (Note [Fused backward kernels and double backward])`,
      );
    },
  };
}

// native_layer_norm(input, normalized_shape, weight, bias, eps)
const NativeLayerNormBackward0: DerivativeOf<'native_layer_norm'> = {
  name: 'NativeLayerNormBackward0',
  inputs: ['input', 'weight', 'bias'],
  saves: ['input', 'weight', 'result1', 'result2'],
  backward: (ctx) => {
    const g = ctx.grads[0];
    if (!g) return [null, null, null];
    const x = savedTensor(ctx, 'input', 'native_layer_norm');
    const w = ctx.saved['weight'] ?? null;
    const shape = ctx.args[1];
    if (!isGradEnabled()) {
      const [gi, gw, gb] = _nativeLayerNormBackward(
        g,
        x,
        shape,
        savedTensor(ctx, 'result1', 'native_layer_norm'),
        savedTensor(ctx, 'result2', 'native_layer_norm'),
        w,
      );
      return [ctx.needs[0] ? gi : null, ctx.needs[1] ? gw : null, ctx.needs[2] ? gb : null];
    }
    const nd = x.dim();
    const k = shape.length;
    const inner = Array.from({ length: k }, (_, i) => nd - k + i);
    const outer = Array.from({ length: nd - k }, (_, i) => i);
    const mu = mean(x, inner, { keepdim: true });
    const xc = sub(x, mu);
    const rstd = rsqrt(add(mean(mul(xc, xc), inner, { keepdim: true }), ctx.args[4]));
    const xhat = mul(xc, rstd);
    const reduceOuter = (t: Tensor): Tensor => (outer.length === 0 ? t : sum(t, outer));
    const gi = (): Tensor => {
      const gw = w ? mul(g, w) : g;
      const meanGw = mean(gw, inner, { keepdim: true });
      const meanGwX = mean(mul(gw, xhat), inner, { keepdim: true });
      return mul(sub(sub(gw, meanGw), mul(xhat, meanGwX)), rstd);
    };
    return [ctx.needs[0] ? gi() : null, ctx.needs[1] ? reduceOuter(mul(g, xhat)) : null, ctx.needs[2] ? reduceOuter(g) : null];
  },
};

// native_group_norm(input, weight, bias, N, C, HxW, group, eps): the statistics recomputed per
// group from the saved input (differentiable, so double backward works)
const NativeGroupNormBackward0: DerivativeOf<'native_group_norm'> = {
  name: 'NativeGroupNormBackward0',
  inputs: ['input', 'weight', 'bias'],
  saves: ['input', 'weight', 'result1', 'result2'],
  backward: (ctx) => {
    const g = ctx.grads[0];
    if (!g) return [null, null, null];
    const x = savedTensor(ctx, 'input', 'native_group_norm');
    const w = ctx.saved['weight'] ?? null;
    const [, , , n, c, hw, groups, eps] = ctx.args;
    // a channels-last input's gradient from the backend's fused kernel (core Note
    // [Channels-last pooling impls]); double backward keeps the differentiable formula
    if (!isGradEnabled() && _groupNormBackwardIsFused(g, x, w)) {
      const mask = [ctx.needs[0], ctx.needs[1] && w !== null, ctx.needs[2]];
      const [gi, gw, gb] = _nativeGroupNormBackward(
        g,
        x,
        savedTensor(ctx, 'result1', 'native_group_norm'),
        savedTensor(ctx, 'result2', 'native_group_norm'),
        w,
        n,
        c,
        hw,
        groups,
        mask,
      );
      return [mask[0] ? gi : null, mask[1] ? gw : null, mask[2] ? gb : null];
    }
    const shape = [...x.shape];
    const grouped = [n, groups, (c / groups) * hw];
    const xg = reshape(x, grouped);
    const mu = mean(xg, [2], { keepdim: true });
    const xc = sub(xg, mu);
    const rstd = rsqrt(add(mean(mul(xc, xc), [2], { keepdim: true }), eps));
    const xhat = mul(xc, rstd);
    const affine = shape.map((_, i) => (i === 1 ? c : 1));
    const spatial = shape.map((_, i) => i).filter((i) => i !== 1);
    const gi = (): Tensor => {
      const gw = reshape(w ? mul(g, reshape(w, affine)) : g, grouped);
      const meanGw = mean(gw, [2], { keepdim: true });
      const meanGwX = mean(mul(gw, xhat), [2], { keepdim: true });
      // (contiguous whatever the layouts of input and grad_output, as PyTorch 1.13's
      // native_group_norm_backward: a channels-last grad_output reshapes to its groups as a view)
      return reshape(mul(sub(sub(gw, meanGw), mul(xhat, meanGwX)), rstd), shape).contiguous();
    };
    return [
      ctx.needs[0] ? gi() : null,
      ctx.needs[1] ? sum(mul(g, reshape(xhat, shape)), spatial) : null,
      ctx.needs[2] ? sum(g, spatial) : null,
    ];
  },
};

// embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)
const EmbeddingBackward0: DerivativeOf<'embedding'> = {
  name: 'EmbeddingBackward0',
  inputs: ['weight'],
  saves: ['indices'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const v = inputSizes(ctx, 0, 'embedding')[0];
    const indices = savedTensor(ctx, 'indices', 'embedding');
    // (PyTorch's embedding_backward: `sparse` gives a sparse COO gradient, core Note [Sparse COO tensors])
    if (ctx.args[4] === true) return [_embeddingSparseBackward(ctx.grad, indices, v, ctx.args[2], ctx.args[3] === true)];
    return [_embeddingDenseBackward(ctx.grad, indices, v, ctx.args[2], ctx.args[3] === true)];
  },
};

// embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
// linear in grad_output; its adjoint looks the rows up again, padding_idx rows giving 0.
const EmbeddingDenseBackwardBackward0: DerivativeOf<'embedding_dense_backward'> = {
  name: 'EmbeddingDenseBackwardBackward0',
  inputs: ['grad_output'],
  saves: ['indices'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    if (ctx.args[4] === true) {
      throw new AutogradError('embedding_dense_backward: double backward with scale_grad_by_freq is not supported');
    }
    const indices = savedTensor(ctx, 'indices', 'embedding_dense_backward');
    const rows = _embedding(ctx.grad, indices, -1);
    const pad = ctx.args[3];
    return [pad < 0 ? rows : where(unsqueeze(eq(indices, pad), -1), 0, rows)];
  },
};

/**
 * The pointwise losses (Note [Pointwise loss kernels] in core): `l` of d = f(self, target)
 * per element, reduced. Each formula is d l / d input times the incoming gradient, divided by
 * the element count for mean; weight and pos_weight get no gradient, as in PyTorch.
 */
function lossCount(ctx: DerivativeContext, reduction: number): number {
  if (reduction !== 1) return 1;
  const a = inputSizes(ctx, 0, 'loss');
  const b = inputSizes(ctx, 1, 'loss');
  const n = Math.max(a.length, b.length);
  let count = 1;
  for (let i = 1; i <= n; i++) count *= Math.max(a[a.length - i] ?? 1, b[b.length - i] ?? 1);
  return count;
}

function pointwiseLossBackward<A extends readonly unknown[]>(
  name: string,
  op: string,
  reductionOf: (args: Readonly<A>) => number,
  parts: (ctx: DerivativeContext<A>, x: Tensor, t: Tensor) => [Tensor, Tensor],
): Derivative<A> {
  return {
    name,
    inputs: ['self', 'target'],
    saves: op.startsWith('binary') ? ['self', 'target', 'weight', ...(op.endsWith('logits') ? ['pos_weight'] : [])] : ['self', 'target'],
    backward: (ctx) => {
      const x = savedTensor(ctx, 'self', op);
      const t = savedTensor(ctx, 'target', op);
      const reduction = reductionOf(ctx.args);
      const count = lossCount(ctx, reduction);
      let g = count === 1 ? ctx.grad : div(ctx.grad, count);
      const w = ctx.saved['weight'];
      if (w) g = mul(g, w);
      const [dx, dt] = parts(ctx, x, t);
      return [ctx.needs[0] ? mul(g, dx) : null, ctx.needs[1] ? mul(g, dt) : null];
    },
  };
}

// mse: 2 (x - t), -2 (x - t)
const MseLossBackward0: DerivativeOf<'mse_loss'> = pointwiseLossBackward('MseLossBackward0', 'mse_loss', (a) => a[2], (_c, x, t) => {
  const d = mul(sub(x, t), 2);
  return [d, neg(d)];
});

// smooth L1: d / beta inside (-beta, beta), sign(d) outside
const SmoothL1LossBackward0: DerivativeOf<'smooth_l1_loss'> = pointwiseLossBackward('SmoothL1LossBackward0', 'smooth_l1_loss', (a) => a[2], (ctx, x, t) => {
  const beta = Number(ctx.args[3] ?? 1);
  const d = sub(x, t);
  const s = where(lt(abs(d), beta), div(d, beta), sign(d));
  return [s, neg(s)];
});

// bce: (x - t) / max(x (1 - x), 1e-12); target: log(1 - x) - log(x), logs clamped at -100
const BCE_EPS = 1e-12;
const BinaryCrossEntropyBackward0: DerivativeOf<'binary_cross_entropy'> = pointwiseLossBackward('BinaryCrossEntropyBackward0', 'binary_cross_entropy', (a) => a[3], (_c, x, t) => [
  div(sub(x, t), clampMin(mul(x, neg(sub(x, 1))), BCE_EPS)),
  sub(clampMin(log1p(neg(x)), -100), clampMin(log(x), -100)),
]);

// bce with logits: lw sigmoid(x) - pw t (lw = 1 + (pw - 1) t); target: -x - (pw - 1) logsigmoid(x)
const BinaryCrossEntropyWithLogitsBackward0: DerivativeOf<'binary_cross_entropy_with_logits'> = pointwiseLossBackward(
  'BinaryCrossEntropyWithLogitsBackward0',
  'binary_cross_entropy_with_logits',
  (a) => a[4],
  (ctx, x, t) => {
    const pw = ctx.saved['pos_weight'];
    if (!pw) return [sub(sigmoid(x), t), neg(x)];
    const lw = add(mul(sub(pw, 1), t), 1);
    const logSig = neg(softplus(neg(x)));
    return [sub(mul(sigmoid(x), lw), mul(pw, t)), sub(neg(x), mul(sub(pw, 1), logSig))];
  },
);

export const NN_DERIVATIVES = {
  mse_loss: MseLossBackward0,
  smooth_l1_loss: SmoothL1LossBackward0,
  binary_cross_entropy: BinaryCrossEntropyBackward0,
  binary_cross_entropy_with_logits: BinaryCrossEntropyWithLogitsBackward0,
  _softmax: SoftmaxBackward0,
  _log_softmax: LogSoftmaxBackward0,
  _softmax_backward_data: SoftmaxBackwardDataBackward0,
  _log_softmax_backward_data: LogSoftmaxBackwardDataBackward0,
  nll_loss_forward: nllLossBackward('NllLossBackward0'),
  nll_loss2d_forward: nllLossBackward('NllLoss2DBackward0'),
  nll_loss_backward: NllLossBackwardBackward0,
  native_batch_norm: NativeBatchNormBackward0,
  native_batch_norm_backward: fusedOnly('NativeBatchNormBackwardBackward0', 'native_batch_norm_backward'),
  native_layer_norm: NativeLayerNormBackward0,
  native_group_norm: NativeGroupNormBackward0,
  native_group_norm_backward: fusedOnly('NativeGroupNormBackwardBackward0', 'native_group_norm_backward'),
  native_layer_norm_backward: fusedOnly('NativeLayerNormBackwardBackward0', 'native_layer_norm_backward'),
  embedding: EmbeddingBackward0,
  embedding_dense_backward: EmbeddingDenseBackwardBackward0,
} satisfies DerivativeFamily;
