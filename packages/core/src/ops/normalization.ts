/**
 * batch_norm, layer_norm, group_norm as PyTorch builds them on CPU: the fused kernel ops
 * `native_batch_norm` (Node NativeBatchNormBackward0) and `native_layer_norm`
 * (NativeLayerNormBackward0), each with a fused backward op, and `native_group_norm`
 * (NativeGroupNormBackward0), whose gradient is a formula of core ops.
 *
 * Note [batch norm outputs]
 * `native_batch_norm` returns (output, mean, invstd). In training they are the batch mean
 * and 1 / sqrt(biased var + eps), and the running stats are updated in place exactly as
 * PyTorch does: running_mean = (1 - momentum) running_mean + momentum mean, running_var =
 * (1 - momentum) running_var + momentum var * n / (n - 1) (the unbiased variance). In eval
 * they are the running mean and 1 / sqrt(running_var + eps), which the backward reads
 * (PyTorch returns empty tensors there and reads the running stats again).
 */
import { isFloatingType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { front, type OptionsOf } from './front';
import { callMulti, unwrapOptionalTensor, unwrapTensor } from './call';
import { commonDevice, torchTypeName } from './meta-utils';
import { computeDtypeOf, contiguousAs, intoCompute } from './nn-impls';
import { defineStructured, implOf, type Backend } from './registry';
import { formatOf, inFormat } from './output-format';
import { channelsLastOperand, channelsLastOutput, deviceHasHook, nhwcInput } from './pool-channels-last';
import { DispatchKeySet } from '../dispatch/dispatch-key-set';
import { Tensor as TensorClass } from '../tensor/tensor';
import { composite } from './composite';
import { contiguous } from './copy';
import { mean, mul, sub, sum } from './generated/table-ops';
import { reshape } from './shape-ops';
import { unsqueeze } from './views';

function checkFloat(op: string, t: TensorImpl, kernel: string): void {
  if (!isFloatingType(t.dtype)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(t.dtype)}'`);
}

function checkVector(op: string, name: string, t: TensorImpl | null, c: number): void {
  if (t && t.numel !== c) throw new ShapeError(`${op}: ${name} should contain ${c} elements not ${t.numel}`);
}

/** `t` as a contiguous compute-dtype [c] tensor, or null. */
function vec(b: Backend, op: string, t: TensorImpl | null, compute: DType, parts: TensorImpl[]): TensorImpl | null {
  if (!t) return null;
  const c = contiguousAs(b, op, t, compute);
  parts.push(c);
  return c;
}

/** A running stat the kernel updates: itself when contiguous in the compute dtype, else a copy written back after. */
function runningStat(b: Backend, op: string, t: TensorImpl | null, compute: DType, writeBacks: [TensorImpl, TensorImpl][]): TensorImpl | null {
  if (!t) return null;
  if (t.dtype === compute && t.isContiguous) return t;
  const c = contiguousAs(b, op, t, compute);
  writeBacks.push([t, c]);
  return c;
}

function nsOf(input: TensorImpl): [number, number, number] {
  let s = 1;
  for (let i = 2; i < input.dim; i++) s *= input.sizes[i];
  return [input.sizes[0], input.sizes[1], s];
}

export const NATIVE_BATCH_NORM = defineStructured(
  'native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)',
  ([input, weight, bias, runningMean, runningVar, training, momentum, eps], b) => {
    const op = 'native_batch_norm';
    const x = input;
    const w = weight ?? null;
    const bi = bias ?? null;
    const rm = runningMean ?? null;
    const rv = runningVar ?? null;
    checkFloat(op, x, 'batch_norm');
    if (x.dim < 2) throw new ShapeError(`${op}: Expected 2D or more input (got ${x.dim}D input ${fmtShape(x.sizes)})`);
    const [n, c, s] = nsOf(x);
    checkVector(op, 'weight', w, c);
    checkVector(op, 'bias', bi, c);
    checkVector(op, 'running_mean', rm, c);
    checkVector(op, 'running_var', rv, c);
    const train = training === true;
    if (!train && (!rm || !rv)) throw new TorchError(`${op}: running_mean and running_var must be defined in evaluation mode`);
    commonDevice(op, [x, w, bi, rm, rv]);
    const compute = computeDtypeOf(x.dtype);
    const format = formatOf(x);
    // Note [Channels-last pooling impls]: a channels-last input in the compute dtype is
    // normalised as it is, into a channels-last output, where the backend has the kernel.
    const nhwc = x.dtype === compute && nhwcInput(x, format) && typeof b.impls.batchNormChannelsLast === 'function';
    let out = nhwc ? channelsLastOutput(op, x.sizes, x.dtype, x) : TensorImpl.empty(op, x.sizes, x.dtype, x.device);
    const mean = TensorImpl.empty(op, [c], compute, x.device);
    const invstd = TensorImpl.empty(op, [c], compute, x.device);
    const parts: TensorImpl[] = [];
    const writeBacks: [TensorImpl, TensorImpl][] = [];
    try {
      const wc = vec(b, op, w, compute, parts);
      const bc = vec(b, op, bi, compute, parts);
      const rmc = runningStat(b, op, rm, compute, writeBacks);
      const rvc = runningStat(b, op, rv, compute, writeBacks);
      const done = nhwc && implOf(b, 'batchNormChannelsLast', op)(out, mean, invstd, x, wc, bc, rmc, rvc, train, momentum, eps) !== false;
      if (nhwc && !done) {
        out.release();
        out = TensorImpl.empty(op, x.sizes, x.dtype, x.device);
      }
      if (done) {
        // (nhwcInput implies numel > 0: the kernel wrote the output and the statistics)
      } else if (x.numel > 0 || !train) {
        const xc = contiguousAs(b, op, x, compute);
        parts.push(xc);
        intoCompute(b, op, out, compute, (o) =>
          implOf(b, 'batchNorm', op)(o, mean, invstd, xc, wc, bc, rmc, rvc, n, c, s, train, momentum, eps),
        );
      } else {
        implOf(b, 'fill', op)(mean, NaN);
        implOf(b, 'fill', op)(invstd, NaN);
      }
      for (const [dst, src] of writeBacks) implOf(b, 'copy', op)(dst, src);
      if (train) {
        if (rm) rm.version.bump();
        if (rv) rv.version.bump();
      }
    } catch (e) {
      out.release();
      mean.release();
      invstd.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
      for (const [, src] of writeBacks) src.release();
    }
    return [inFormat(b, op, out, format), mean, invstd];
  },
);

export const NATIVE_BATCH_NORM_BACKWARD = defineStructured(
  'native_batch_norm_backward(Tensor grad_out, Tensor input, Tensor? weight, Tensor save_mean, Tensor save_invstd, bool train) -> (Tensor, Tensor, Tensor)',
  ([gradOut, input, weight, saveMean, saveInvstd, train], b) => {
    const op = 'native_batch_norm_backward';
    const g = gradOut;
    const x = input;
    const w = weight ?? null;
    const [n, c, s] = nsOf(x);
    const compute = computeDtypeOf(x.dtype);
    const format = formatOf(x);
    // Note [Channels-last pooling impls]: a channels-last input in the compute dtype (and a
    // weight in it) takes the backend's NHWC kernel, the gradient made dense channels-last.
    const nhwc =
      x.dtype === compute && g.dtype === compute && (!w || w.dtype === compute) && nhwcInput(x, format) && typeof b.impls.batchNormBackwardChannelsLast === 'function';
    let gi = nhwc ? channelsLastOutput(op, x.sizes, x.dtype, x) : TensorImpl.empty(op, x.sizes, x.dtype, x.device);
    const gw = TensorImpl.empty(op, [c], w ? w.dtype : x.dtype, x.device);
    const gb = TensorImpl.empty(op, [c], w ? w.dtype : x.dtype, x.device);
    const parts: TensorImpl[] = [];
    try {
      if (nhwc) {
        const gc = channelsLastOperand(b, op, g);
        parts.push(gc);
        const wc = vec(b, op, w, compute, parts);
        const mc = vec(b, op, saveMean, compute, parts)!;
        const ic = vec(b, op, saveInvstd, compute, parts)!;
        if (implOf(b, 'batchNormBackwardChannelsLast', op)(gi, gw, gb, gc, x, wc, mc, ic, train === true) !== false) return [gi, gw, gb];
        gi.release();
        gi = TensorImpl.empty(op, x.sizes, x.dtype, x.device);
      }
      const gc = contiguousAs(b, op, g, compute);
      parts.push(gc);
      const xc = contiguousAs(b, op, x, compute);
      parts.push(xc);
      const wc = vec(b, op, w, compute, parts);
      const mc = vec(b, op, saveMean, compute, parts)!;
      const ic = vec(b, op, saveInvstd, compute, parts)!;
      intoCompute(b, op, gi, compute, (o1) =>
        intoCompute(b, op, gw, compute, (o2) =>
          intoCompute(b, op, gb, compute, (o3) => implOf(b, 'batchNormBackward', op)(o1, o2, o3, gc, xc, wc, mc, ic, n, c, s, train === true)),
        ),
      );
    } catch (e) {
      gi.release();
      gw.release();
      gb.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
    }
    return [inFormat(b, op, gi, format), gw, gb];
  },
);

function layerNormGeometry(op: string, x: TensorImpl, normalizedShape: readonly number[]): [number, number] {
  const k = normalizedShape.length;
  const tail = x.sizes.slice(x.dim - k);
  if (k === 0 || x.dim < k || tail.some((v, i) => v !== normalizedShape[i])) {
    throw new ShapeError(
      `${op}: Given normalized_shape=${fmtShape(normalizedShape)}, expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size${fmtShape(x.sizes)}`,
    );
  }
  const inner = normalizedShape.reduce((a, v) => a * v, 1);
  return [inner === 0 ? 0 : x.numel / inner, inner];
}

export const NATIVE_LAYER_NORM = defineStructured(
  'native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)',
  ([input, normalizedShape, weight, bias, eps], b) => {
    const op = 'native_layer_norm';
    const x = input;
    const shape = normalizedShape;
    const w = weight ?? null;
    const bi = bias ?? null;
    checkFloat(op, x, 'LayerNormKernelImpl');
    const [m, k] = layerNormGeometry(op, x, shape);
    for (const [name, t] of [['weight', w], ['bias', bi]] as const) {
      if (t && (t.sizes.length !== shape.length || t.sizes.some((v, i) => v !== shape[i]))) {
        throw new ShapeError(`${op}: Expected ${name} to be of same shape as normalized_shape, but got ${name} of shape ${fmtShape(t.sizes)} and normalized_shape = ${fmtShape(shape)}`);
      }
    }
    commonDevice(op, [x, w, bi]);
    const compute = computeDtypeOf(x.dtype);
    const statSizes = [...x.sizes.slice(0, x.dim - shape.length), ...shape.map(() => 1)];
    const out = TensorImpl.empty(op, x.sizes, x.dtype, x.device);
    const mean = TensorImpl.empty(op, statSizes, compute, x.device);
    const rstd = TensorImpl.empty(op, statSizes, compute, x.device);
    const parts: TensorImpl[] = [];
    try {
      if (x.numel > 0) {
        const xc = contiguousAs(b, op, x, compute);
        parts.push(xc);
        const wc = vec(b, op, w, compute, parts);
        const bc = vec(b, op, bi, compute, parts);
        intoCompute(b, op, out, compute, (o) => implOf(b, 'layerNorm', op)(o, mean, rstd, xc, wc, bc, m, k, eps));
      } else if (mean.numel > 0) {
        implOf(b, 'fill', op)(mean, NaN);
        implOf(b, 'fill', op)(rstd, NaN);
      }
    } catch (e) {
      out.release();
      mean.release();
      rstd.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
    }
    return [out, mean, rstd];
  },
);

export const NATIVE_LAYER_NORM_BACKWARD = defineStructured(
  'native_layer_norm_backward(Tensor grad_out, Tensor input, int[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight) -> (Tensor, Tensor, Tensor)',
  ([gradOut, input, normalizedShape, mean, rstd, weight], b) => {
    const op = 'native_layer_norm_backward';
    const g = gradOut;
    const x = input;
    const shape = normalizedShape;
    const w = weight ?? null;
    const [m, k] = layerNormGeometry(op, x, shape);
    const compute = computeDtypeOf(x.dtype);
    const gi = TensorImpl.empty(op, x.sizes, x.dtype, x.device);
    const gw = TensorImpl.empty(op, shape, w ? w.dtype : x.dtype, x.device);
    const gb = TensorImpl.empty(op, shape, w ? w.dtype : x.dtype, x.device);
    const parts: TensorImpl[] = [];
    try {
      const gc = contiguousAs(b, op, g, compute);
      parts.push(gc);
      const xc = contiguousAs(b, op, x, compute);
      parts.push(xc);
      const wc = vec(b, op, w, compute, parts);
      const mc = vec(b, op, mean, compute, parts)!;
      const rc = vec(b, op, rstd, compute, parts)!;
      intoCompute(b, op, gi, compute, (o1) =>
        intoCompute(b, op, gw, compute, (o2) =>
          intoCompute(b, op, gb, compute, (o3) => implOf(b, 'layerNormBackward', op)(o1, o2, o3, gc, xc, mc, rc, wc, m, k)),
        ),
      );
    } catch (e) {
      gi.release();
      gw.release();
      gb.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
    }
    return [gi, gw, gb];
  },
);

/**
 * `native_group_norm` (Node NativeGroupNormBackward0): the groups of [N, C, HxW] normalised
 * as the rows of [N * G, C / G * HxW] by the layer-norm impl, then the per-channel affine
 * applied with the backend's mul / add on broadcast views. mean and rstd are [N, G].
 */
export const NATIVE_GROUP_NORM = defineStructured(
  'native_group_norm(Tensor input, Tensor? weight, Tensor? bias, int N, int C, int HxW, int group, float eps) -> (Tensor, Tensor, Tensor)',
  ([input, weight, bias, nArg, cArg, hwArg, groupArg, eps], b) => {
    const op = 'native_group_norm';
    const x = input;
    const w = weight ?? null;
    const bi = bias ?? null;
    const [n, c, hw, g] = [nArg, cArg, hwArg, groupArg];
    checkFloat(op, x, 'GroupNormKernelImpl');
    if (n * c * hw !== x.numel || c % g !== 0) {
      throw new ShapeError(`${op}: Expected number of channels in input to be divisible by num_groups, but got input of shape ${fmtShape(x.sizes)} and num_groups=${g}`);
    }
    checkVector(op, 'weight', w, c);
    checkVector(op, 'bias', bi, c);
    commonDevice(op, [x, w, bi]);
    const compute = computeDtypeOf(x.dtype);
    const format = formatOf(x);
    // Note [Channels-last pooling impls]: a dense channels-last input in the compute dtype is
    // normalised as it is, into a channels-last output, where the backend has the kernel
    const nhwc = x.dtype === compute && nhwcInput(x, format) && typeof b.impls.groupNormChannelsLast === 'function';
    let out = nhwc ? channelsLastOutput(op, x.sizes, x.dtype, x) : TensorImpl.empty(op, x.sizes, x.dtype, x.device);
    const mean = TensorImpl.empty(op, [n, g], compute, x.device);
    const rstd = TensorImpl.empty(op, [n, g], compute, x.device);
    const parts: TensorImpl[] = [];
    try {
      if (nhwc) {
        const wc = vec(b, op, w, compute, parts);
        const bc = vec(b, op, bi, compute, parts);
        if (implOf(b, 'groupNormChannelsLast', op)(out, mean, rstd, x, wc, bc, g, eps) !== false) return [out, mean, rstd];
        out.release();
        out = TensorImpl.empty(op, x.sizes, x.dtype, x.device);
      }
      if (x.numel > 0) {
        const xc = contiguousAs(b, op, x, compute);
        parts.push(xc);
        const wc = vec(b, op, w, compute, parts);
        const bc = vec(b, op, bi, compute, parts);
        intoCompute(b, op, out, compute, (o) => {
          implOf(b, 'layerNorm', op)(o, mean, rstd, xc, null, null, n * g, (c / g) * hw, eps);
          const o3 = o.view([n, c, hw], [c * hw, hw, 1], o.storageOffset);
          parts.push(o3);
          for (const [p, impl] of [[wc, 'mul'], [bc, 'add']] as const) {
            if (!p) continue;
            const pv = p.view([n, c, hw], [0, 1, 0], p.storageOffset);
            parts.push(pv);
            if (impl === 'mul') implOf(b, 'mul', op)(o3, o3, pv);
            else implOf(b, 'add', op)(o3, o3, pv, 1);
          }
        });
      } else if (mean.numel > 0) {
        implOf(b, 'fill', op)(mean, NaN);
        implOf(b, 'fill', op)(rstd, NaN);
      }
    } catch (e) {
      out.release();
      mean.release();
      rstd.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
    }
    // (its backward's grad_input stays contiguous, as PyTorch 1.13's)
    return [inFormat(b, op, out, format), mean, rstd];
  },
);

/** Whether group norm's gradient of `input` takes native_group_norm_backward (Note [Channels-last pooling impls]). */
export function _groupNormBackwardIsFused(grad: Tensor, input: Tensor, weight: Tensor | null): boolean {
  const x = input.impl;
  const compute = computeDtypeOf(x.dtype);
  return (
    x.dtype === compute &&
    grad.dtype === compute &&
    (!weight || weight.dtype === compute) &&
    nhwcInput(x, formatOf(x)) &&
    deviceHasHook(x.device, 'groupNormBackwardChannelsLast')
  );
}

/**
 * group norm's gradients (the derivative's formula, Node NativeGroupNormBackward0) from the
 * forward's mean and rstd [N, G]: [grad_input (contiguous), grad_weight, grad_bias].
 */
function groupNormBackwardFormula(g: Tensor, x: Tensor, mu: Tensor, rstd: Tensor, w: Tensor | null, c: number, groups: number): Tensor[] {
  const shape = x.shape;
  const grouped = [shape[0], groups, -1];
  const affine = shape.map((_, i) => (i === 1 ? c : 1));
  const spatial = shape.map((_, i) => i).filter((i) => i !== 1);
  const r = unsqueeze(rstd, -1);
  const xhat = mul(sub(reshape(x, grouped), unsqueeze(mu, -1)), r);
  const gw = reshape(w ? mul(g, reshape(w, affine)) : g, grouped);
  const meanGw = mean(gw, [2], { keepdim: true });
  const meanGwX = mean(mul(gw, xhat), [2], { keepdim: true });
  const gi = contiguous(reshape(mul(sub(sub(gw, meanGw), mul(xhat, meanGwX)), r), shape));
  return [gi, sum(mul(g, reshape(xhat, shape)), spatial), sum(g, spatial)].map((t) => (t.dtype === x.dtype ? t : t.to(x.dtype)));
}

/**
 * `native_group_norm_backward` (PyTorch's schema) for a dense channels-last input: the
 * backend's `groupNormBackwardChannelsLast` (grad_input contiguous, as PyTorch 1.13's), or,
 * where it declines, the derivative's formula. An output `output_mask` leaves out is an empty
 * [0] tensor (PyTorch's is undefined).
 */
export const NATIVE_GROUP_NORM_BACKWARD = defineStructured(
  'native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, int N, int C, int HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor)',
  ([gradOut, input, meanIn, rstdIn, weight, n, c, hw, groups, mask], b) => {
    const op = 'native_group_norm_backward';
    const g = gradOut;
    const x = input;
    const w = weight ?? null;
    if (n * c * hw !== x.numel || c % groups !== 0 || g.sizes.length !== x.dim || g.sizes.some((s, i) => s !== x.sizes[i])) {
      throw new ShapeError(`${op}: expected grad_out and input of one shape with N * C * HxW elements and C divisible by group, but got ${fmtShape(g.sizes)}, ${fmtShape(x.sizes)}, N=${n}, C=${c}, HxW=${hw}, group=${groups}`);
    }
    if (meanIn.numel !== n * groups || rstdIn.numel !== n * groups) throw new ShapeError(`${op}: expected mean and rstd of ${n * groups} elements, but got ${meanIn.numel} and ${rstdIn.numel}`);
    checkVector(op, 'weight', w, c);
    const compute = computeDtypeOf(x.dtype);
    const wdt = w ? w.dtype : x.dtype;
    const none = () => TensorImpl.empty(op, [0], x.dtype, x.device);
    if (x.dtype === compute && g.dtype === compute && wdt === compute && nhwcInput(x, formatOf(x)) && typeof b.impls.groupNormBackwardChannelsLast === 'function') {
      const outs = [mask[0] ? TensorImpl.empty(op, x.sizes, x.dtype, x.device) : null, mask[1] ? TensorImpl.empty(op, [c], wdt, x.device) : null, mask[2] ? TensorImpl.empty(op, [c], wdt, x.device) : null];
      const parts: TensorImpl[] = [];
      const release = () => outs.forEach((o) => o?.release());
      try {
        const gc = channelsLastOperand(b, op, g);
        parts.push(gc);
        const mc = vec(b, op, meanIn, compute, parts)!;
        const rc = vec(b, op, rstdIn, compute, parts)!;
        const wc = vec(b, op, w, compute, parts);
        if (implOf(b, 'groupNormBackwardChannelsLast', op)(outs[0], outs[1], outs[2], gc, x, mc, rc, wc, groups) !== false) return outs.map((o) => o ?? none());
      } catch (e) {
        release();
        throw e;
      } finally {
        for (const p of parts) p.release();
      }
      release();
    }
    return composite(([gt, xt, mt, rt, wt]) => {
      const r = groupNormBackwardFormula(gt as Tensor, xt as Tensor, mt as Tensor, rt as Tensor, (wt as Tensor | null) ?? null, c, groups);
      return r.map((t, i) => (mask[i] ? t : new TensorClass(none())));
    })(DispatchKeySet.EMPTY, [g, x, meanIn, rstdIn, w]);
  },
);

/** `native_group_norm_backward`, for the derivative table: [gradInput, gradWeight, gradBias], those `mask` leaves out empty. */
export function _nativeGroupNormBackward(
  grad: Tensor,
  input: Tensor,
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor | null,
  n: number,
  c: number,
  hw: number,
  groups: number,
  mask: readonly boolean[],
): Tensor[] {
  return callMulti(NATIVE_GROUP_NORM_BACKWARD, [grad.impl, input.impl, mean.impl, rstd.impl, weight?.impl ?? null, n, c, hw, groups, [mask[0], mask[1], mask[2]]]);
}

// ---- front ends ----
/**
 * `batchNorm(input, runningMean, runningVar, weight?, bias?, training = false, momentum = 0.1,
 * eps = 1e-5)` (F.batch_norm; any of them by keyword): normalises each channel (dim 1) by the
 * batch statistics when training (updating the running stats in place) or by the running
 * stats otherwise.
 */
export const batchNorm = front(
  'batch_norm(Tensor input, Tensor? running_mean, Tensor? running_var, Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, float eps=1e-05) -> Tensor',
  { method: false, namespaces: ['nn.functional'] },
).run(([input, runningMean, runningVar, weight, bias, training, momentum, eps]): Tensor => {
  const op = 'batch_norm';
  const x = unwrapTensor(op, 'input', input);
  const rm = unwrapOptionalTensor(op, 'running_mean', runningMean) ?? null;
  const rv = unwrapOptionalTensor(op, 'running_var', runningVar) ?? null;
  const w = unwrapOptionalTensor(op, 'weight', weight) ?? null;
  const bi = unwrapOptionalTensor(op, 'bias', bias) ?? null;
  if (training && x.dim >= 2) {
    let size = x.sizes[0];
    for (let i = 2; i < x.dim; i++) size *= x.sizes[i];
    if (size === 1) throw new TorchError(`batch_norm: Expected more than 1 value per channel when training, got input size ${fmtShape(x.sizes)}`);
  }
  const [out, mean, invstd] = callMulti(NATIVE_BATCH_NORM, [x, w, bi, rm, rv, training, momentum, eps]);
  mean.dispose();
  invstd.dispose();
  return out;
});
export type BatchNormOptions = OptionsOf<typeof batchNorm>;

/**
 * `torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps,
 * cudnn_enabled)`: aten's batch_norm, every argument required (Note [aten's own signatures on
 * torch]). F.batch_norm's check of more than one value per channel is Python's, not aten's, so
 * it is not made here. cudnn_enabled picks a CUDA backend, which changes no value: accepted.
 */
export const atenBatchNorm = front(
  'batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor',
  { method: false, name: 'atenBatchNorm', exportAs: 'batchNorm' },
).run(([input, weight, bias, runningMean, runningVar, training, momentum, eps]): Tensor => {
  const op = 'batch_norm';
  const args = [
    unwrapTensor(op, 'input', input),
    unwrapOptionalTensor(op, 'weight', weight) ?? null,
    unwrapOptionalTensor(op, 'bias', bias) ?? null,
    unwrapOptionalTensor(op, 'running_mean', runningMean) ?? null,
    unwrapOptionalTensor(op, 'running_var', runningVar) ?? null,
  ] as const;
  const [out, mean, invstd] = callMulti(NATIVE_BATCH_NORM, [...args, training, momentum, eps]);
  mean.dispose();
  invstd.dispose();
  return out;
});

// (torch.layer_norm and torch.group_norm, F.layer_norm and F.group_norm; no Tensor methods)
const NORM_NAMESPACES = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

function shapeArg(op: string, s: number | readonly number[]): number[] {
  const shape = typeof s === 'number' ? [s] : [...s];
  for (const v of shape) if (!Number.isInteger(v) || v < 0) throw new TorchError(`${op}: normalized_shape must be a list of non-negative integers, got ${fmtShape(shape)}`);
  return shape;
}

/**
 * `layerNorm(input, normalizedShape, weight?, bias?, eps = 1e-5)` (F.layer_norm): normalises over
 * the trailing dims. (One int is a one-dim shape, as PyTorch's F.layer_norm takes it: the binder
 * takes one int for an `int[]`.)
 */
export const layerNorm = front(
  'layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor',
  NORM_NAMESPACES,
).run(([input, normalizedShape, weight, bias, eps]): Tensor => {
  const op = 'layer_norm';
  const x = unwrapTensor(op, 'input', input);
  const w = unwrapOptionalTensor(op, 'weight', weight) ?? null;
  const bi = unwrapOptionalTensor(op, 'bias', bias) ?? null;
  const [out, mean, rstd] = callMulti(NATIVE_LAYER_NORM, [x, shapeArg(op, normalizedShape), w, bi, eps]);
  mean.dispose();
  rstd.dispose();
  return out;
});
export type LayerNormOptions = OptionsOf<typeof layerNorm>;

/**
 * `groupNorm(input, numGroups, weight?, bias?, eps = 1e-5)` (F.group_norm): the channels
 * (dim 1) split into groups, each normalised over its channels and spatial positions, then a
 * per-channel affine.
 */
export const groupNorm = front(
  'group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor',
  NORM_NAMESPACES,
).run(([input, numGroups, weight, bias, eps]): Tensor => {
  const op = 'group_norm';
  const x = unwrapTensor(op, 'input', input);
  const w = unwrapOptionalTensor(op, 'weight', weight) ?? null;
  const bi = unwrapOptionalTensor(op, 'bias', bias) ?? null;
  if (x.dim < 2) throw new ShapeError(`${op}: Expected at least 2 dimensions for input tensor but received ${x.dim}`);
  const [n, c] = x.sizes;
  if (!Number.isInteger(numGroups) || numGroups <= 0) throw new TorchError(`${op}: num_groups must be a positive integer, got ${numGroups}`);
  if (c % numGroups !== 0) {
    throw new ShapeError(`${op}: Expected number of channels in input to be divisible by num_groups, but got input of shape ${fmtShape(x.sizes)} and num_groups=${numGroups}`);
  }
  for (const [name, t] of [['weight', w], ['bias', bi]] as const) {
    if (t && (t.dim !== 1 || t.numel !== c)) {
      throw new ShapeError(`${op}: Expected ${name} to be a vector of size equal to the number of channels in input, but got ${name} of shape ${fmtShape(t.sizes)} and input of shape ${fmtShape(x.sizes)}`);
    }
  }
  checkFloat(op, x, 'GroupNormKernelImpl');
  let hw = 1;
  for (let i = 2; i < x.dim; i++) hw *= x.sizes[i];
  const [out, mean, rstd] = callMulti(NATIVE_GROUP_NORM, [x, w, bi, n, c, hw, numGroups, eps]);
  mean.dispose();
  rstd.dispose();
  return out;
});
export type GroupNormOptions = OptionsOf<typeof groupNorm>;


/** `native_batch_norm_backward` (fused), for the derivative table: [gradInput, gradWeight, gradBias]. */
export function _nativeBatchNormBackward(grad: Tensor, input: Tensor, weight: Tensor | null, mean: Tensor, invstd: Tensor, train: boolean): Tensor[] {
  const op = 'native_batch_norm_backward';
  return callMulti(NATIVE_BATCH_NORM_BACKWARD, [
    unwrapTensor(op, 'grad_out', grad),
    unwrapTensor(op, 'input', input),
    unwrapOptionalTensor(op, 'weight', weight) ?? null,
    unwrapTensor(op, 'save_mean', mean),
    unwrapTensor(op, 'save_invstd', invstd),
    train,
  ]);
}

/** `native_layer_norm_backward` (fused), for the derivative table: [gradInput, gradWeight, gradBias]. */
export function _nativeLayerNormBackward(grad: Tensor, input: Tensor, normalizedShape: readonly number[], mean: Tensor, rstd: Tensor, weight: Tensor | null): Tensor[] {
  const op = 'native_layer_norm_backward';
  return callMulti(NATIVE_LAYER_NORM_BACKWARD, [
    unwrapTensor(op, 'grad_out', grad),
    unwrapTensor(op, 'input', input),
    [...normalizedShape],
    unwrapTensor(op, 'mean', mean),
    unwrapTensor(op, 'rstd', rstd),
    unwrapOptionalTensor(op, 'weight', weight) ?? null,
  ]);
}
