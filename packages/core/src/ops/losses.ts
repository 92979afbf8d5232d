/**
 * Loss functions of `torch.nn.functional`, built as PyTorch builds them:
 *  - `nll_loss_forward` / `nll_loss2d_forward` are fused kernel ops (Nodes NllLossBackward0 /
 *    NllLoss2DBackward0) with a fused backward op `nll_loss_backward`; inputs of more than
 *    two dims run as [N, C, d1*d2...] like PyTorch's nll_loss_nd;
 *  - `crossEntropy` is `logSoftmax` + `nllLoss` (class indices) or a sum of
 *    `-target * logSoftmax` (class probabilities), with label smoothing as in PyTorch's
 *    cross_entropy_loss;
 *  - mse_loss, smooth_l1_loss, binary_cross_entropy and binary_cross_entropy_with_logits
 *    are fused kernel ops with PyTorch's Nodes (Note [Pointwise loss kernels]); l1_loss is a
 *    composite of sub, abs and a reduction, as in PyTorch 2.x.
 */
import { allSamples } from '../batched/physical';
import { isFloatingType, isIntegralType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { TensorImpl } from '../tensor/tensor-impl';
import { front, type OptionsOf } from './front';
import { callFunctional, callMulti, unwrapOptionalTensor, unwrapTensor } from './call';
import { broadcastTo, torchTypeName, commonDevice } from './meta-utils';
import { broadcastShapes } from '../iterator';
import { computeDtypeOf, contiguousAs, intoCompute, type PointwiseLossKind } from './nn-impls';
import { to } from './copy';
import { defineStructured, implOf, type Backend } from './registry';
import { where } from './pointwise';
import { abs, add, amax, amin, div, eq, mean, mul, neg, sub, sum } from './generated/table-ops';
import { logSoftmax } from './softmax';
import { view } from './views';

export type LossReduction = 'none' | 'mean' | 'sum';
const REDUCTIONS: Readonly<Record<string, number>> = { none: 0, mean: 1, sum: 2 };

/** A bound `reduction` argument, checked: PyTorch's message for any other string. */
function reductionArg(op: string, r: string): LossReduction {
  if (r === 'none' || r === 'mean' || r === 'sum') return r;
  throw new TorchError(`${op}: ${r} is not a valid value for reduction`);
}

function reductionEnum(op: string, r: unknown): number {
  const v = REDUCTIONS[String(r ?? 'mean')];
  if (v === undefined) throw new TorchError(`${op}: ${String(r)} is not a valid value for reduction`);
  return v;
}

/** [n, c, s] of an nll_loss input: [C] -> [1, C, 1], [N, C] -> [N, C, 1], [N, C, d...] -> [N, C, prod d]. */
function nllGeometry(self: TensorImpl): [number, number, number] {
  if (self.dim === 1) return [1, self.sizes[0], 1];
  let s = 1;
  for (let i = 2; i < self.dim; i++) s *= self.sizes[i];
  return [self.sizes[0], self.sizes[1], s];
}

function checkNllArgs(op: string, self: TensorImpl, target: TensorImpl, weight: TensorImpl | null, twoD: boolean): void {
  if (!isFloatingType(self.dtype)) {
    throw new DTypeError(`${op}: "${twoD ? 'nll_loss2d_out_frame' : 'nll_loss_out_frame'}" not implemented for '${torchTypeName(self.dtype)}'`);
  }
  if (target.dtype !== 'int64' && target.dtype !== 'uint8') {
    throw new DTypeError(`${op}: expected scalar type Long but found ${torchTypeName(target.dtype)}`);
  }
  if (twoD) {
    if (self.dim < 3) throw new ShapeError(`${op}: input tensor should be at least 3D, but got ${self.dim}D`);
    const expected = [self.sizes[0], ...self.sizes.slice(2)];
    if (target.dim !== expected.length || target.sizes.some((n, i) => n !== expected[i])) {
      throw new ShapeError(`${op}: input and target batch or spatial sizes don't match: target ${fmtShape(target.sizes)}, input ${fmtShape(self.sizes)}`);
    }
  } else {
    if (self.dim < 1 || self.dim > 2) throw new ShapeError(`${op}: input tensor should be 1D or 2D`);
    if (target.dim > 1) throw new ShapeError(`${op}: 0D or 1D target tensor expected, multi-target not supported`);
    const noBatch = self.dim === 1 && target.dim === 0;
    if (!noBatch && self.sizes[0] !== (target.dim === 0 ? 1 : target.sizes[0])) {
      throw new ShapeError(
        `${op}: size mismatch (got input: ${fmtShape(self.sizes)}, target: ${fmtShape(target.sizes)})`,
      );
    }
  }
  const c = self.dim === 1 ? self.sizes[0] : self.sizes[1];
  if (weight && (weight.dim !== 1 || weight.numel !== c)) {
    throw new ShapeError(
      `${op}: weight tensor should be defined either for all ${c} classes or no classes but got weight tensor of shape: ${fmtShape(weight.sizes)}`,
    );
  }
  commonDevice(op, [self, target, weight]);
}

function nllForward(name: 'nll_loss_forward' | 'nll_loss2d_forward') {
  return defineStructured(
    `${name}(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index) -> (Tensor output, Tensor total_weight)`,
    ([self, target, weight, reduction, ignoreIndex], b) => {
      const s = self;
      const t = target;
      const w = weight ?? null;
      const r = reduction;
      checkNllArgs(name, s, t, w, name === 'nll_loss2d_forward');
      const [n, c, sp] = nllGeometry(s);
      const outSizes = r !== 0 ? [] : s.dim === 1 ? [] : [s.sizes[0], ...s.sizes.slice(2)];
      const output = TensorImpl.empty(name, outSizes, s.dtype, s.device);
      const totalWeight = TensorImpl.empty(name, [], s.dtype, s.device);
      const compute = computeDtypeOf(s.dtype);
      const parts: TensorImpl[] = [];
      try {
        const x = contiguousAs(b, name, s, compute);
        parts.push(x);
        const ti = contiguousAs(b, name, t, 'int64');
        parts.push(ti);
        const wi = w ? contiguousAs(b, name, w, compute) : null;
        if (wi) parts.push(wi);
        intoCompute(b, name, totalWeight, compute, (tw) =>
          intoCompute(b, name, output, compute, (o) => implOf(b, 'nllLoss', name)(o, tw, x, ti, wi, n, c, sp, r, ignoreIndex)),
        );
      } catch (e) {
        output.release();
        totalWeight.release();
        throw e;
      } finally {
        for (const p of parts) p.release();
      }
      return [output, totalWeight];
    },
  );
}

export const NLL_LOSS_FORWARD = nllForward('nll_loss_forward');
export const NLL_LOSS2D_FORWARD = nllForward('nll_loss2d_forward');

/** The gradient of nll_loss w.r.t. its input (used by NllLossBackward0 / NllLoss2DBackward0). */
export const NLL_LOSS_BACKWARD = defineStructured(
  'nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index, Tensor total_weight) -> Tensor',
  ([gradOutput, self, target, weight, reduction, ignoreIndex, totalWeight], b: Backend) => {
    const g = gradOutput;
    const s = self;
    const t = target;
    const w = weight ?? null;
    const tw = totalWeight;
    const [n, c, sp] = nllGeometry(s);
    const out = TensorImpl.empty('nll_loss_backward', s.sizes, s.dtype, s.device);
    const compute = computeDtypeOf(s.dtype);
    const parts: TensorImpl[] = [];
    try {
      const gi = contiguousAs(b, 'nll_loss_backward', g, compute);
      parts.push(gi);
      const ti = contiguousAs(b, 'nll_loss_backward', t, 'int64');
      parts.push(ti);
      const wi = w ? contiguousAs(b, 'nll_loss_backward', w, compute) : null;
      if (wi) parts.push(wi);
      const twi = contiguousAs(b, 'nll_loss_backward', tw, compute);
      parts.push(twi);
      intoCompute(b, 'nll_loss_backward', out, compute, (o) =>
        implOf(b, 'nllLossBackward', 'nll_loss_backward')(o, gi, ti, wi, twi, n, c, sp, reduction, ignoreIndex),
      );
    } catch (e) {
      out.release();
      throw e;
    } finally {
      for (const p of parts) p.release();
    }
    return out;
  },
);

// ---- front ends ----
/** The (output, total_weight) of nll_loss over any input rank (PyTorch's nll_loss_nd). */
function nllLossNd(op: string, input: Tensor, target: Tensor, o: NllLossOptions): [Tensor, Tensor] {
  const s = unwrapTensor(op, 'input', input);
  const t = unwrapTensor(op, 'target', target);
  const w = unwrapOptionalTensor(op, 'weight', o.weight) ?? null;
  const r = reductionEnum(op, o.reduction);
  const ignore = o.ignoreIndex ?? -100;
  if (!Number.isInteger(ignore)) throw new TorchError(`${op}(): argument 'ignore_index' must be int, not number`);
  if (s.dim < 1) throw new ShapeError(`${op}: Expected 1 or more dimensions (got ${s.dim})`);
  if (s.dim !== 1 && t.dim > 0 && s.sizes[0] !== t.sizes[0]) {
    throw new ShapeError(`${op}: Expected input batch_size (${s.sizes[0]}) to match target batch_size (${t.sizes[0]}).`);
  }
  if (s.dim <= 2) {
    const [out, tw] = callMulti(NLL_LOSS_FORWARD, [s, t, w, r, ignore]);
    return [out, tw];
  }
  const [out, tw] = callMulti(NLL_LOSS2D_FORWARD, [s, t, w, r, ignore]);
  return [out, tw];
}

/** `nllLoss(logProbs, target, { weight, ignoreIndex, reduction })`: -logProbs[target] (Node NllLossBackward0). */
function nllLossImpl(input: Tensor, target: Tensor, o: NllLossOptions): Tensor {
  const [out, tw] = nllLossNd('nll_loss', input, target, o);
  tw.dispose();
  return out;
}

/**
 * `crossEntropy(logits, target, { weight, ignoreIndex, reduction, labelSmoothing })`: class
 * indices (an integral target of shape [N, d...]) or class probabilities (a floating target
 * of the input's shape), as PyTorch's cross_entropy_loss.
 */
function crossEntropyImpl(input: Tensor, target: Tensor, o: CrossEntropyOptions): Tensor {
  const s = unwrapTensor('cross_entropy', 'input', input);
  const t = unwrapTensor('cross_entropy', 'target', target);
  const w = unwrapOptionalTensor('cross_entropy', 'weight', o.weight) ?? null;
  const r = reductionEnum('cross_entropy', o.reduction);
  const ls = o.labelSmoothing ?? 0;
  if (!(ls >= 0 && ls <= 1)) throw new TorchError(`cross_entropy: label_smoothing must be between 0.0 and 1.0. Got: ${ls}`);
  const classDim = s.dim === 1 ? 0 : 1;
  if (s.dim < 1) throw new ShapeError(`cross_entropy: Expected 1 or more dimensions (got ${s.dim})`);
  const c = s.sizes[classDim];
  if (isFloatingType(t.dtype) && t.dim === s.dim) {
    // class probabilities
    if (t.sizes.some((n, i) => n !== s.sizes[i])) {
      throw new ShapeError(`cross_entropy: Expected input batch_size (${s.sizes[0]}) to match target batch_size (${t.sizes[0]}).`);
    }
    if (o.ignoreIndex != null && o.ignoreIndex !== -100) {
      throw new TorchError('cross_entropy: ignore_index is not supported for floating point target');
    }
    if (w && (w.dim !== 1 || w.numel !== c)) {
      throw new ShapeError(`cross_entropy: weight tensor should be defined either for all ${c} classes or no classes but got weight tensor of shape: ${fmtShape(w.sizes)}`);
    }
    return tidy(() => {
      const lp = logSoftmax(input, classDim);
      let tt = ls > 0 ? add(mul(target, 1 - ls), ls / c) : target;
      let prod = mul(lp, tt);
      if (o.weight) {
        const shape = s.sizes.map((_, i) => (i === classDim ? c : 1));
        prod = mul(prod, view(o.weight, shape));
      }
      tt = prod;
      const loss = neg(sum(tt, classDim));
      if (r === 0) return loss;
      if (r === 2) return sum(loss);
      return s.numel === 0 ? sum(loss) : mul(sum(loss), c / s.numel);
    });
  }
  if (!isIntegralType(t.dtype, false)) {
    throw new DTypeError(`cross_entropy: expected scalar type Long but found ${torchTypeName(t.dtype)}`);
  }
  return tidy(() => {
    const lp = logSoftmax(input, classDim);
    const [nll, tw] = nllLossNd('cross_entropy', lp, target, o);
    if (ls === 0) return nll;
    // PyTorch's cross_entropy_loss_label_smoothing
    const ignoreMask = eq(target, o.ignoreIndex ?? -100);
    let smooth: Tensor;
    if (o.weight) {
      const shape = s.sizes.map((_, i) => (i === classDim ? c : 1));
      smooth = neg(sum(mul(lp, view(o.weight, shape)), classDim));
    } else {
      smooth = neg(sum(lp, classDim));
    }
    smooth = where(ignoreMask, 0, smooth);
    let ret: Tensor;
    if (r === 1) {
      // normalised by the total weight of the kept targets, as nll_loss's mean
      // (total_weight carries no gradient: it counts, or sums the weights of, the kept targets)
      ret = div(sum(smooth), tw.detach());
    } else if (r === 2) ret = sum(smooth);
    else ret = smooth;
    return add(mul(nll, 1 - ls), mul(ret, ls / c));
  });
}


/**
 * The composite losses compute 16-bit inputs in float32 and round the result once (as
 * PyTorch 2.x's fused loss kernels do in their opmath type), rather than rounding each
 * intermediate op to 16 bits.
 */
function widened(a: Tensor, b: Tensor, body: (a: Tensor, b: Tensor) => Tensor): Tensor {
  const is16 = (x: Tensor) => x.dtype === 'float16' || x.dtype === 'bfloat16';
  const narrow = is16(a);
  return tidy(() => {
    const wide = (x: Tensor) => (narrow && is16(x) ? to(x, 'float32') : x);
    const r = body(wide(a), wide(b));
    return narrow ? to(r, a.dtype) : r;
  });
}

function requireFloat(op: string, x: TensorImpl, kernel: string): void {
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(x.dtype)}'`);
}

function reduce(loss: Tensor, r: number): Tensor {
  if (r === 0) return loss;
  return r === 1 ? mean(loss) : sum(loss);
}

/** Both operands must be tensors; shapes broadcast (mismatches raise the broadcast ShapeError). */
function pair(op: string, input: Tensor, target: Tensor): void {
  unwrapTensor(op, 'input', input);
  unwrapTensor(op, 'target', target);
}

/** `mseLoss(input, target, { reduction })`: (input - target)^2, reduced. */
function mseLossImpl(input: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  pair('mse_loss', input, target);
  const r = reductionEnum('mse_loss', options.reduction);
  return callFunctional(MSE_LOSS, [input.impl, target.impl, r]);
}

/** `l1Loss(input, target, { reduction })`: |input - target|, reduced. */
function l1LossImpl(input: Tensor, target: Tensor, options: LossOptions = {}): Tensor {
  pair('l1_loss', input, target);
  const r = reductionEnum('l1_loss', options.reduction);
  // PyTorch's l1_loss is this composite too: its errors are those of sub and mean
  if (input.dtype === 'bool' && target.dtype === 'bool') {
    throw new DTypeError('l1_loss: Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.');
  }
  if (r === 1 && !isFloatingType(input.dtype) && !isFloatingType(target.dtype)) {
    throw new DTypeError(
      `l1_loss: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ${torchTypeName(input.impl.dtype)}`,
    );
  }
  return widened(input, target, (a, b) => reduce(abs(sub(a, b)), r));
}

/** `smoothL1Loss(input, target, { reduction, beta })`: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta. */
function smoothL1LossImpl(input: Tensor, target: Tensor, options: SmoothL1Options = {}): Tensor {
  pair('smooth_l1_loss', input, target);
  const r = reductionEnum('smooth_l1_loss', options.reduction);
  const beta = options.beta ?? 1;
  if (beta < 0) throw new TorchError('smooth_l1_loss: smooth_l1_loss does not support negative values for beta.');
  requireFloat('smooth_l1_loss', input.impl, 'smooth_l1_cpu');
  // beta = 0 is l1_loss, as PyTorch's smooth_l1_loss
  if (beta === 0) return l1LossImpl(input, target, { reduction: options.reduction });
  return callFunctional(SMOOTH_L1_LOSS, [input.impl, target.impl, r, beta]);
}

function sameSize(op: string, input: Tensor, target: Tensor): void {
  const a = unwrapTensor(op, 'input', input);
  const b = unwrapTensor(op, 'target', target);
  if (a.sizes.length !== b.sizes.length || a.sizes.some((n, i) => n !== b.sizes[i])) {
    throw new ShapeError(
      `${op}: Using a target size (${fmtShape(b.sizes)}) that is different to the input size (${fmtShape(a.sizes)}) is deprecated. Please ensure they have the same size.`,
    );
  }
}

/**
 * `binaryCrossEntropy(probs, target, { weight, reduction })`:
 * -w (t log(x) + (1 - t) log(1 - x)), each log clamped at -100 as PyTorch does.
 */
function binaryCrossEntropyImpl(input: Tensor, target: Tensor, options: BceOptions = {}): Tensor {
  sameSize('binary_cross_entropy', input, target);
  const r = reductionEnum('binary_cross_entropy', options.reduction);
  const x = unwrapTensor('binary_cross_entropy', 'input', input);
  if (!isFloatingType(x.dtype)) {
    throw new DTypeError(`binary_cross_entropy: "binary_cross_entropy" not implemented for '${torchTypeName(x.dtype)}'`);
  }
  if (x.numel > 0 && x.device.type === 'cpu') {
    // (under vmap the check covers every sample: core Note [Batched tensors])
    const lo = amin(allSamples(input));
    const hi = amax(allSamples(input));
    const ok = Number(lo.item()) >= 0 && Number(hi.item()) <= 1;
    lo.dispose();
    hi.dispose();
    if (!ok) throw new TorchError('binary_cross_entropy: all elements of input should be between 0 and 1');
  }
  const w = unwrapOptionalTensor('binary_cross_entropy', 'weight', options.weight) ?? null;
  return callFunctional(BINARY_CROSS_ENTROPY, [x, target.impl, w, r]);
}

/**
 * `binaryCrossEntropyWithLogits(logits, target, { weight, posWeight, reduction })`, stable for
 * any logit as PyTorch 2.x computes it: (1 - t) x - lw * logsigmoid(x), lw = 1 + (pw - 1) t.
 */
function binaryCrossEntropyWithLogitsImpl(input: Tensor, target: Tensor, options: BceWithLogitsOptions = {}): Tensor {
  sameSize('binary_cross_entropy_with_logits', input, target);
  const r = reductionEnum('binary_cross_entropy_with_logits', options.reduction);
  unwrapOptionalTensor('binary_cross_entropy_with_logits', 'weight', options.weight);
  unwrapOptionalTensor('binary_cross_entropy_with_logits', 'pos_weight', options.posWeight);
  if (!isFloatingType(input.dtype)) {
    throw new DTypeError(`binary_cross_entropy_with_logits: result type Float can't be cast to the desired output type ${torchTypeName(input.impl.dtype)}`);
  }
  const w = unwrapOptionalTensor('binary_cross_entropy_with_logits', 'weight', options.weight) ?? null;
  const pw = unwrapOptionalTensor('binary_cross_entropy_with_logits', 'pos_weight', options.posWeight) ?? null;
  return callFunctional(BINARY_CROSS_ENTROPY_WITH_LOGITS, [input.impl, target.impl, w, pw, r]);
}

/** The (output, total_weight) of `nll_loss_forward` (2-D) or `nll_loss2d_forward` (more dims), for the derivative table. */
export function _nllLossForward(self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignoreIndex: number): Tensor[] {
  const s = unwrapTensor('nll_loss', 'self', self);
  const op = s.dim > 2 ? NLL_LOSS2D_FORWARD : NLL_LOSS_FORWARD;
  return callMulti(op, [s, unwrapTensor('nll_loss', 'target', target), unwrapOptionalTensor('nll_loss', 'weight', weight) ?? null, reduction, ignoreIndex]);
}

/** `nll_loss_backward`, for the derivative table. */
export function _nllLossBackward(
  grad: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: number,
  ignoreIndex: number,
  totalWeight: Tensor,
): Tensor {
  const op = 'nll_loss_backward';
  return callFunctional(NLL_LOSS_BACKWARD, [
    unwrapTensor(op, 'grad_output', grad),
    unwrapTensor(op, 'self', self),
    unwrapTensor(op, 'target', target),
    unwrapOptionalTensor(op, 'weight', weight) ?? null,
    reduction,
    ignoreIndex,
    unwrapTensor(op, 'total_weight', totalWeight),
  ]);
}

// ---- fused pointwise losses (mse_loss, smooth_l1_loss, binary_cross_entropy, binary_cross_entropy_with_logits) ----
/**
 * Note [Pointwise loss kernels]
 * PyTorch's mse_loss, smooth_l1_loss, binary_cross_entropy and
 * binary_cross_entropy_with_logits are native ops with Nodes of their own (MseLossBackward0,
 * SmoothL1LossBackward0, BinaryCrossEntropyBackward0, BinaryCrossEntropyWithLogitsBackward0);
 * so are they here. Core broadcasts every operand to one shape, materialises it contiguous
 * in the compute dtype, and the impl computes the loss and its reduction in one pass; the
 * gradients are formulas of core ops (so double backward works). l1_loss stays a composite,
 * as in PyTorch 2.x.
 */
function pointwiseLoss(
  b: Backend,
  op: string,
  kind: PointwiseLossKind,
  kernel: string,
  s: TensorImpl,
  t: TensorImpl,
  w: TensorImpl | null,
  pw: TensorImpl | null,
  reduction: number,
  beta: number,
): TensorImpl {
  if (!isFloatingType(s.dtype)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(s.dtype)}'`);
  const device = commonDevice(op, [s, t, w, pw]);
  let shape = broadcastShapes(op, s.sizes, t.sizes);
  if (w) shape = broadcastShapes(op, shape, w.sizes);
  if (pw) shape = broadcastShapes(op, shape, pw.sizes);
  const n = shape.reduce((a, v) => a * v, 1);
  const out = TensorImpl.empty(op, reduction === 0 ? shape : [], s.dtype, device);
  const compute = computeDtypeOf(s.dtype);
  const parts: TensorImpl[] = [];
  const dense = (x: TensorImpl): TensorImpl => {
    const v = broadcastTo(x, shape);
    try {
      const c = contiguousAs(b, op, v, compute);
      parts.push(c);
      return c;
    } finally {
      v.release();
    }
  };
  try {
    const xs = dense(s);
    const ts = dense(t);
    const ws = w ? dense(w) : null;
    const ps = pw ? dense(pw) : null;
    intoCompute(b, op, out, compute, (o) => implOf(b, 'pointwiseLoss', op)(o, kind, xs, ts, ws, ps, n, reduction, beta));
  } catch (e) {
    out.release();
    throw e;
  } finally {
    for (const p of parts) p.release();
  }
  return out;
}

export const MSE_LOSS = defineStructured('mse_loss(Tensor self, Tensor target, int reduction=1) -> Tensor', ([self, target, reduction], b) =>
  pointwiseLoss(b, 'mse_loss', 'mse', 'mse_cpu', self, target, null, null, reduction, 0),
);
export const SMOOTH_L1_LOSS = defineStructured('smooth_l1_loss(Tensor self, Tensor target, int reduction=1, float beta=1.0) -> Tensor', ([self, target, reduction, beta], b) =>
  pointwiseLoss(b, 'smooth_l1_loss', 'smoothL1', 'smooth_l1_cpu', self, target, null, null, reduction, beta),
);
export const BINARY_CROSS_ENTROPY = defineStructured(
  'binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=1) -> Tensor',
  ([self, target, weight, reduction], b) => pointwiseLoss(b, 'binary_cross_entropy', 'bce', 'binary_cross_entropy', self, target, weight ?? null, null, reduction, 0),
);
export const BINARY_CROSS_ENTROPY_WITH_LOGITS = defineStructured(
  'binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1) -> Tensor',
  ([self, target, weight, posWeight, reduction], b) =>
    pointwiseLoss(b, 'binary_cross_entropy_with_logits', 'bcewl', 'binary_cross_entropy_with_logits', self, target, weight ?? null, posWeight ?? null, reduction, 0),
);

// ---- bound front ends (Note [The argument binder]) ----
// F.*'s full Python signatures: the legacy `size_average` and `reduce` are accepted as None
// only (NotImplementedError otherwise), so nothing a caller passes is ignored. The losses are
// F.* only, not torch.* nor Tensor methods.
const LEGACY = ['sizeAverage', 'reduce'];
const LOSS = { method: false, namespaces: ['nn.functional'], unsupported: LEGACY, choices: { reduction: ['none', 'mean', 'sum'] } } as const;

/** F.nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'). */
export const nllLoss = front(
  "nll_loss(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, int ignore_index=-100, bool? reduce=None, str reduction='mean') -> Tensor",
  LOSS,
).run(([input, target, weight, , ignoreIndex, , reduction]): Tensor =>
  nllLossImpl(input, target, { weight, ignoreIndex, reduction: reductionArg('nll_loss', reduction) }),
);
export type NllLossOptions = OptionsOf<typeof nllLoss>;

/** F.cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0). */
export const crossEntropy = front(
  "cross_entropy(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, int ignore_index=-100, bool? reduce=None, str reduction='mean', float label_smoothing=0.0) -> Tensor",
  LOSS,
).run(([input, target, weight, , ignoreIndex, , reduction, labelSmoothing]): Tensor =>
  crossEntropyImpl(input, target, { weight, ignoreIndex, reduction: reductionArg('cross_entropy', reduction), labelSmoothing }),
);
export type CrossEntropyOptions = OptionsOf<typeof crossEntropy>;

/** F.mse_loss(input, target, size_average=None, reduce=None, reduction='mean'). */
export const mseLoss = front("mse_loss(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor", LOSS).run(
  ([input, target, , , reduction]): Tensor => mseLossImpl(input, target, { reduction: reductionArg('mse_loss', reduction) }),
);
/** The options of mseLoss and l1Loss. */
export type LossOptions = OptionsOf<typeof mseLoss>;

/** F.l1_loss(input, target, size_average=None, reduce=None, reduction='mean'). */
export const l1Loss = front("l1_loss(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor", LOSS).run(
  ([input, target, , , reduction]): Tensor => l1LossImpl(input, target, { reduction: reductionArg('l1_loss', reduction) }),
);

/** F.smooth_l1_loss(input, target, size_average=None, reduce=None, reduction='mean', beta=1.0). */
export const smoothL1Loss = front(
  "smooth_l1_loss(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction='mean', float beta=1.0) -> Tensor",
  LOSS,
).run(([input, target, , , reduction, beta]): Tensor => smoothL1LossImpl(input, target, { reduction: reductionArg('smooth_l1_loss', reduction), beta }));
export type SmoothL1Options = OptionsOf<typeof smoothL1Loss>;

/** F.binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction='mean'). */
export const binaryCrossEntropy = front(
  "binary_cross_entropy(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  LOSS,
).run(([input, target, weight, , , reduction]): Tensor =>
  binaryCrossEntropyImpl(input, target, { weight, reduction: reductionArg('binary_cross_entropy', reduction) }),
);
export type BceOptions = OptionsOf<typeof binaryCrossEntropy>;

/** F.binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction='mean', pos_weight=None). */
export const binaryCrossEntropyWithLogits = front(
  "binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean', Tensor? pos_weight=None) -> Tensor",
  LOSS,
).run(([input, target, weight, , , reduction, posWeight]): Tensor =>
  binaryCrossEntropyWithLogitsImpl(input, target, { weight, reduction: reductionArg('binary_cross_entropy_with_logits', reduction), posWeight }),
);
export type BceWithLogitsOptions = OptionsOf<typeof binaryCrossEntropyWithLogits>;

/**
 * `torch.binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None,
 * reduction=1)`: aten's signature, the reduction an int (Note [aten's own signatures on
 * torch]): 1 mean, 2 sum, and, as PyTorch 1.13's apply_loss_reduction, any other int none.
 */
export const atenBinaryCrossEntropyWithLogits = front(
  'binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=1) -> Tensor',
  { method: false, name: 'atenBinaryCrossEntropyWithLogits', exportAs: 'binaryCrossEntropyWithLogits' },
).run(([input, target, weight, posWeight, reduction]): Tensor =>
  binaryCrossEntropyWithLogitsImpl(input, target, { weight, posWeight, reduction: reduction === 1 ? 'mean' : reduction === 2 ? 'sum' : 'none' }),
);
