/**
 * The elementwise losses of `torch.nn.functional` that PyTorch 1.13 composes from ordinary
 * differentiable ops (CompositeImplicitAutograd in ATen, or Python in functional.py): kl_div,
 * huber_loss, margin_ranking_loss, hinge_embedding_loss, soft_margin_loss,
 * multilabel_soft_margin_loss, poisson_nll_loss and gaussian_nll_loss. Composites need no
 * kernel and no derivative, so they run on every backend and differentiate twice for free
 * (Note [Composite losses]).
 *
 * Note [Composite losses]
 * Each body is PyTorch's formula written with core ops, in PyTorch's order of operations (so
 * float32 values round as PyTorch's do), and its reduction is PyTorch's
 * apply_loss_reduction: `mean` is the mean over every element, `sum` the sum, `none` the
 * elementwise loss. Where PyTorch has a fused kernel with its own Node (huber_loss,
 * soft_margin_loss, kl_div), the composite computes the same values and gradients; only the
 * Node's name differs. Validation (shapes, values) runs before any op, with PyTorch's
 * messages prefixed by the op name.
 */
import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError, ValueError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { broadcastShapes } from '../iterator';
import { front, type OptionsOf } from './front';
import { unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';
import { abs, add, any, clampMin, div, exp, le, log, lt, mul, ne, neg, softplus, sub, sum, xlogy } from './generated/table-ops';
import { unsqueeze } from './views';
import { applyReduction, checkReduction, LOSS_FRONT, TORCH_LOSS_FRONT } from './losses-common';

/** The losses added after the legacy keywords (huber_loss, gaussian_nll_loss) have none. */
const NEW_LOSS_FRONT = { method: false, namespaces: ['nn.functional'], choices: { reduction: ['none', 'mean', 'sum'] } } as const;

/** Every operand a tensor, and their shapes broadcastable (the broadcast ShapeError names `op`). */

function tensors(op: string, named: Record<string, unknown>): void {
  let shape: readonly number[] = [];
  for (const [name, x] of Object.entries(named)) shape = broadcastShapes(op, shape, unwrapTensor(op, name, x).sizes);
}

/** log(sigmoid(x)), stable for any x: -softplus(-x). */
function logSigmoid(x: Tensor): Tensor {
  return neg(softplus(neg(x)));
}

/**
 * F.kl_div(input, target, size_average=None, reduce=None, reduction='mean', log_target=False):
 * target * (log(target) - input) pointwise (exp(target) * (target - input) with logTarget);
 * `batchmean` is the sum over the first dim's size.
 */
export const klDiv = front(
  "kl_div(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction='mean', bool log_target=False) -> Tensor",
  { ...TORCH_LOSS_FRONT, choices: { reduction: ['none', 'mean', 'sum', 'batchmean'] } },
).run(([input, target, , , reduction, logTarget]): Tensor => {
  tensors('kl_div', { input, target });
  checkReduction('kl_div', reduction, ['none', 'mean', 'sum', 'batchmean']);
  return tidy(() => {
    const pointwise = logTarget ? mul(exp(target), sub(target, input)) : sub(xlogy(target, target), mul(target, input));
    if (reduction !== 'batchmean') return applyReduction(pointwise, reduction);
    const total = sum(pointwise);
    return input.dim() === 0 ? total : div(total, input.shape[0]);
  });
});
export type KlDivOptions = OptionsOf<typeof klDiv>;

/** F.huber_loss(input, target, reduction='mean', delta=1.0): 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta). */
export const huberLoss = front("huber_loss(Tensor input, Tensor target, str reduction='mean', float delta=1.0) -> Tensor", NEW_LOSS_FRONT).run(
  ([input, target, reduction, delta]): Tensor => {
    tensors('huber_loss', { input, target });
  checkReduction('huber_loss', reduction);
    if (!(delta > 0)) throw new TorchError('huber_loss: huber_loss does not support non-positive values for delta.');
    if (!isFloatingType(input.dtype)) throw new DTypeError(`huber_loss: "huber_cpu" not implemented for '${torchTypeName(input.impl.dtype)}'`);
    return tidy(() => {
      const d = sub(input, target);
      const z = abs(d);
      const loss = where(lt(z, delta), mul(mul(d, d), 0.5), mul(sub(z, 0.5 * delta), delta));
      return applyReduction(loss, reduction);
    });
  },
);
export type HuberLossOptions = OptionsOf<typeof huberLoss>;

/** F.margin_ranking_loss(input1, input2, target, margin=0, ...): max(0, -target (input1 - input2) + margin). */
export const marginRankingLoss = front(
  "margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  TORCH_LOSS_FRONT,
).run(([input1, input2, target, margin, , , reduction]): Tensor => {
  tensors('margin_ranking_loss', { input1, input2, target });
  checkReduction('margin_ranking_loss', reduction);
  if (input1.dim() !== input2.dim() || input1.dim() !== target.dim()) {
    throw new ShapeError(
      `margin_ranking_loss: All input tensors should have same dimension but got sizes: input1: ${fmtShape(input1.shape)}, input2: ${fmtShape(input2.shape)}, target: ${fmtShape(target.shape)}`,
    );
  }
  return tidy(() => applyReduction(clampMin(add(mul(neg(target), sub(input1, input2)), margin), 0), reduction));
});
export type MarginRankingLossOptions = OptionsOf<typeof marginRankingLoss>;

/** F.hinge_embedding_loss(input, target, margin=1.0, ...): x where target is 1, max(0, margin - x) where it is -1. */
export const hingeEmbeddingLoss = front(
  "hinge_embedding_loss(Tensor input, Tensor target, float margin=1.0, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  TORCH_LOSS_FRONT,
).run(([input, target, margin, , , reduction]): Tensor => {
  tensors('hinge_embedding_loss', { input, target });
  checkReduction('hinge_embedding_loss', reduction);
  return tidy(() => {
    // PyTorch's: where(target != 1, clamp_min(margin - x, 0), 0) + where(target != -1, x, 0)
    const marginClamp = clampMin(add(neg(input), margin), 0);
    const outMargin = where(ne(target, 1), marginClamp, 0);
    const outSelf = where(ne(target, -1), input, 0);
    return applyReduction(add(outMargin, outSelf), reduction);
  });
});
export type HingeEmbeddingLossOptions = OptionsOf<typeof hingeEmbeddingLoss>;

/** F.soft_margin_loss(input, target, ...): log(1 + exp(-target * input)). */
export const softMarginLoss = front(
  "soft_margin_loss(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  LOSS_FRONT,
).run(([input, target, , , reduction]): Tensor => {
  tensors('soft_margin_loss', { input, target });
  checkReduction('soft_margin_loss', reduction);
  return tidy(() => applyReduction(softplus(mul(neg(target), input)), reduction));
});
export type SoftMarginLossOptions = OptionsOf<typeof softMarginLoss>;

/**
 * F.multilabel_soft_margin_loss(input, target, weight=None, ...): the mean over the last
 * (class) dim of -(t logsigmoid(x) + (1 - t) logsigmoid(-x)), times weight.
 */
export const multilabelSoftMarginLoss = front(
  "multilabel_soft_margin_loss(Tensor input, Tensor target, Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  LOSS_FRONT,
).run(([input, target, weight, , , reduction]): Tensor => {
  tensors('multilabel_soft_margin_loss', weight ? { input, target, weight } : { input, target });
  checkReduction('multilabel_soft_margin_loss', reduction);
  if (input.dim() === 0) throw new ShapeError('multilabel_soft_margin_loss: Dimension specified as -1 but tensor has no dimensions');
  return tidy(() => {
    let loss = neg(add(mul(target, logSigmoid(input)), mul(add(neg(target), 1), logSigmoid(neg(input)))));
    if (weight) loss = mul(loss, weight);
    const classDim = input.dim() - 1;
    loss = div(sum(loss, classDim), input.shape[classDim]);
    return applyReduction(loss, reduction);
  });
});
export type MultilabelSoftMarginLossOptions = OptionsOf<typeof multilabelSoftMarginLoss>;

/**
 * F.poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8,
 * reduce=None, reduction='mean'): exp(x) - t x (logInput) or x - t log(x + eps), plus
 * Stirling's t log t - t + 0.5 log(2 pi t) where t > 1 when `full`.
 */
export const poissonNllLoss = front(
  "poisson_nll_loss(Tensor input, Tensor target, bool log_input=True, bool full=False, bool? size_average=None, float eps=1e-8, bool? reduce=None, str reduction='mean') -> Tensor",
  TORCH_LOSS_FRONT,
).run(([input, target, logInput, full, , eps, , reduction]): Tensor => {
  tensors('poisson_nll_loss', { input, target });
  checkReduction('poisson_nll_loss', reduction);
  return tidy(() => {
    let loss = logInput ? sub(exp(input), mul(target, input)) : sub(input, mul(target, log(add(input, eps))));
    if (full) {
      const stirling = add(sub(mul(target, log(target)), target), mul(log(mul(target, 2 * Math.PI)), 0.5));
      loss = add(loss, where(le(target, 1), 0, stirling));
    }
    return applyReduction(loss, reduction);
  });
});
export type PoissonNllLossOptions = OptionsOf<typeof poissonNllLoss>;

/**
 * F.gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
 * 0.5 (log(max(var, eps)) + (input - target)^2 / max(var, eps)) (+ 0.5 log(2 pi) when
 * `full`); `var` of the input's shape, or one dim short of it, or with a last dim of 1
 * (homoscedastic). The clamp at eps carries no gradient, as PyTorch's in-place clamp under
 * no_grad.
 */
export const gaussianNllLoss = front(
  "gaussian_nll_loss(Tensor input, Tensor target, Tensor var, bool full=False, float eps=1e-6, str reduction='mean') -> Tensor",
  NEW_LOSS_FRONT,
).run(([input, target, variance, full, eps, reduction]): Tensor => {
  tensors('gaussian_nll_loss', { input, target });
  checkReduction('gaussian_nll_loss', reduction);
  unwrapTensor('gaussian_nll_loss', 'var', variance);
  const same = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((n, i) => n === b[i]);
  const inShape = input.shape;
  const vShape = variance.shape;
  let unsqueezeVar = false;
  if (!same(vShape, inShape)) {
    if (same(inShape.slice(0, -1), vShape)) unsqueezeVar = true;
    else if (!(same(inShape.slice(0, -1), vShape.slice(0, -1)) && vShape[vShape.length - 1] === 1)) {
      throw new ValueError(`gaussian_nll_loss: var is of incorrect size (input ${fmtShape(inShape)}, var ${fmtShape(vShape)})`);
    }
  }
  return tidy(() => {
    const v0 = unsqueezeVar ? unsqueeze(variance, -1) : variance;
    if (v0.device.type === 'cpu' && Boolean(any(lt(v0, 0)).item())) throw new ValueError('gaussian_nll_loss: var has negative entry/entries');
    // clamp(var, eps) with the gradient of var itself (PyTorch clamps a clone in place under no_grad)
    const vd = v0.detach();
    const v = add(v0, sub(clampMin(vd, eps), vd));
    const d = sub(input, target);
    let loss = mul(add(log(v), div(mul(d, d), v)), 0.5);
    if (full) loss = add(loss, 0.5 * Math.log(2 * Math.PI));
    return applyReduction(loss, reduction);
  });
});
export type GaussianNllLossOptions = OptionsOf<typeof gaussianNllLoss>;
