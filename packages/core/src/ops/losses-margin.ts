/**
 * F.multi_margin_loss and F.multilabel_margin_loss, composites of differentiable ops as the
 * other composite losses (Note [Composite losses]): PyTorch 1.13 has fused kernels for them,
 * whose values and gradients these formulas give (PyTorch counts a hinge only where it is
 * positive, so the hinge is a relu: no gradient at exactly zero, as there). Data-dependent
 * checks (a target out of range) run on CPU tensors before any op, as PyTorch's; on WebGPU
 * the gather raises at the next read.
 */
import { isFloatingType } from '../dtype';
import { DTypeError, IndexError, ShapeError, ValueError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import { tidy } from '../tensor/scope';
import { front, type OptionsOf } from './front';
import { unwrapOptionalTensor, unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';
import { add, any, div, eq, logicalAnd, logicalNot, mul, ne, neg, relu, sum } from './generated/table-ops';
import { cumprod } from './scan';
import { arange } from './factories';
import { gather, indexSelect } from './gather-scatter';
import { to } from './copy';
import { reshape } from './shape-ops';
import { unsqueeze } from './views';
import { applyReduction, checkReduction, LOSS_FRONT } from './losses-common';

/** The input as [N, C] (a vector is one sample), checked as PyTorch's multi-margin kernels check it. */
function checkInput(op: string, x: TensorImpl): void {
  const ok = (x.dim === 1 && x.sizes[0] > 0) || (x.dim === 2 && x.sizes[1] > 0);
  if (!ok) throw new ShapeError(`${op}: Expected non-empty vector or matrix with optional 0-dim batch size, but got: ${fmtShape(x.sizes)}`);
}

function checkTargetDtype(op: string, t: TensorImpl): void {
  if (t.dtype !== 'int64') throw new DTypeError(`${op}: expected scalar type Long but found ${torchTypeName(t.dtype)}`);
}

/** The target's values when they are readable now (CPU), for PyTorch's range checks. */
function cpuValues(t: Tensor): number[] | null {
  if (t.device.type !== 'cpu') return null;
  return Array.from(t.dataSync() as ArrayLike<number | bigint>, Number);
}

/**
 * F.multi_margin_loss(input, target, p=1, margin=1, weight=None, ...): per sample, the sum over
 * classes i != y of max(0, margin - x[y] + x[i])^p (times weight[y]), over the class count.
 */
export const multiMarginLoss = front(
  "multi_margin_loss(Tensor input, Tensor target, int p=1, float margin=1, Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  LOSS_FRONT,
).run(([input, target, p, margin, weight, , , reduction]): Tensor => {
  const op = 'multi_margin_loss';
  const x = unwrapTensor(op, 'input', input);
  const t = unwrapTensor(op, 'target', target);
  unwrapOptionalTensor(op, 'weight', weight);
  if (p !== 1 && p !== 2) throw new ValueError(`${op}: only p == 1 and p == 2 supported`);
  checkReduction(op, reduction);
  checkInput(op, x);
  const N = x.dim === 2 ? x.sizes[0] : 1;
  const C = x.sizes[x.dim - 1];
  if (t.numel !== N || t.dim > 1) throw new ShapeError(`${op}: inconsistent target size, got: ${fmtShape(t.sizes)}`);
  checkTargetDtype(op, t);
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: "multi_margin_loss_cpu_kernel" not implemented for '${torchTypeName(x.dtype)}'`);
  if (cpuValues(target)?.some((v) => v < 0 || v >= C)) throw new IndexError(`${op}: target out of range`);
  return tidy(() => {
    const X = reshape(input, [N, C]);
    const y = reshape(target, [N, 1]);
    const z = relu(add(add(neg(gather(X, 1, y)), margin), X));
    let h = p === 2 ? mul(z, z) : z;
    if (weight) h = mul(h, reshape(indexSelect(weight, 0, reshape(target, [N])), [N, 1]));
    // (the target's own class is not a margin: masked out)
    h = mul(h, ne(unsqueeze(arange(C, { device: input.device }), 0), y));
    let loss = div(sum(h, 1), C);
    if (x.dim === 1) loss = reshape(loss, t.sizes);
    return applyReduction(loss, reduction);
  });
});
export type MultiMarginLossOptions = OptionsOf<typeof multiMarginLoss>;

/**
 * F.multilabel_margin_loss(input, target, ...): target rows list class indices, ended by the
 * first -1; per sample, the sum over listed classes j and unlisted classes i of
 * max(0, 1 - (x[j] - x[i])), over the class count.
 */
export const multilabelMarginLoss = front(
  "multilabel_margin_loss(Tensor input, Tensor target, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  LOSS_FRONT,
).run(([input, target, , , reduction]): Tensor => {
  const op = 'multilabel_margin_loss';
  const x = unwrapTensor(op, 'input', input);
  const t = unwrapTensor(op, 'target', target);
  checkReduction(op, reduction);
  checkInput(op, x);
  if (t.dim !== x.dim || t.sizes.some((s, i) => s !== x.sizes[i])) throw new ShapeError(`${op}: inconsistent size ${fmtShape(t.sizes)} for argument #2 'target'`);
  checkTargetDtype(op, t);
  if (!isFloatingType(x.dtype)) throw new DTypeError(`${op}: "multilabel_margin_loss_forward_out_frame" not implemented for '${torchTypeName(x.dtype)}'`);
  const N = x.dim === 2 ? x.sizes[0] : 1;
  const C = x.sizes[x.dim - 1];
  if (cpuValues(target)?.some((v) => v < -1 || v >= C)) throw new IndexError(`${op}: argument #2 'target' is out of range`);
  return tidy(() => {
    const X = reshape(input, [N, C]);
    const Y = reshape(target, [N, C]);
    // the listed targets: those before a row's first -1
    const listed = cumprod(to(ne(Y, -1), 'int64'), 1);
    const valid = ne(listed, 0);
    const yc = where(valid, Y, 0);
    const classes = reshape(arange(C, { device: input.device }), [1, 1, C]);
    const isTarget = any(logicalAnd(eq(unsqueeze(yc, 2), classes), unsqueeze(valid, 2)), 1);
    const z = relu(add(add(neg(unsqueeze(gather(X, 1, yc), 2)), 1), unsqueeze(X, 1)));
    const pairs = logicalAnd(unsqueeze(valid, 2), unsqueeze(logicalNot(isTarget), 1));
    let loss = div(sum(mul(z, pairs), [1, 2]), C);
    if (x.dim === 1) loss = reshape(loss, []);
    return applyReduction(loss, reduction);
  });
});
export type MultilabelMarginLossOptions = OptionsOf<typeof multilabelMarginLoss>;
