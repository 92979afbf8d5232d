/**
 * Distances and the embedding losses built on them, as PyTorch 1.13 composes them
 * (Note [Composite losses]): cosine_similarity, pairwise_distance, cosine_embedding_loss,
 * triplet_margin_loss and triplet_margin_with_distance_loss.
 */
import { isFloatingType, resultType } from '../dtype';
import { ShapeError, TorchError, TorchTypeError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { broadcastShapes } from '../iterator';
import { front, type OptionsOf } from './front';
import { unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';
import { add, clampMin, div, eq, minimum, mul, neg, rsqrt, sqrt, sub, sum } from './generated/table-ops';
import { linalgVectorNorm } from './linalg-front';
import { to } from './copy';
import { expand } from './views';
import { applyReduction, checkReduction, TORCH_LOSS_FRONT } from './losses-common';

const DISTANCE = { method: false, namespaces: ['torch', 'nn.functional'] } as const;

/**
 * `cosineSimilarity(x1, x2, dim=1, eps=1e-8)`: sum(x1 x2) / sqrt(max(|x1|^2, eps^2) max(|x2|^2, eps^2))
 * over `dim`, the operands broadcast and promoted to a floating dtype, as PyTorch 1.13 (which
 * clamps each squared norm in place under no_grad: the clamp passes the gradient through).
 */
export const cosineSimilarity = front('cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor', DISTANCE).run(
  ([x1, x2, dim, eps]): Tensor => {
    const a = unwrapTensor('cosine_similarity', 'x1', x1);
    const b = unwrapTensor('cosine_similarity', 'x2', x2);
    const shape = broadcastShapes('cosine_similarity', a.sizes, b.sizes);
    const dtype = resultType('cosine_similarity', [{ dtype: a.dtype, shape: a.sizes }, { dtype: b.dtype, shape: b.sizes }]);
    if (!isFloatingType(dtype)) {
      throw new TorchError(`cosine_similarity: expected common dtype to be floating point, yet common dtype is ${torchTypeName(dtype)}`);
    }
    return tidy(() => {
      const u = expand(to(x1, dtype), shape);
      const v = expand(to(x2, dtype), shape);
      const clamped = (n: Tensor) => {
        const d = n.detach();
        return add(n, sub(clampMin(d, eps * eps), d));
      };
      const n1 = clamped(sum(mul(u, u), dim, true));
      const n2 = clamped(sum(mul(v, v), dim, true));
      return sum(mul(mul(u, v), rsqrt(mul(n1, n2))), dim);
    });
  },
);
export type CosineSimilarityOptions = OptionsOf<typeof cosineSimilarity>;

/** `pairwiseDistance(x1, x2, p=2, eps=1e-6, keepdim=False)`: the p-norm of x1 - x2 + eps over the last dim. */
export const pairwiseDistance = front('pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False) -> Tensor', DISTANCE).run(
  ([x1, x2, p, eps, keepdim]): Tensor => {
    const a = unwrapTensor('pairwise_distance', 'x1', x1);
    const b = unwrapTensor('pairwise_distance', 'x2', x2);
    const innermost = Math.max(a.dim, b.dim) - 1;
    return tidy(() => linalgVectorNorm(add(sub(x1, x2), eps), p, [innermost], keepdim));
  },
);
export type PairwiseDistanceOptions = OptionsOf<typeof pairwiseDistance>;

/**
 * F.cosine_embedding_loss(input1, input2, target, margin=0, ...): 1 - cos where target is 1,
 * max(0, cos - margin) where it is -1 (cos with PyTorch's 1e-12 added to each squared norm);
 * [N, D] inputs with an [N] target, or [D] inputs with a 0-d target.
 */
export const cosineEmbeddingLoss = front(
  "cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  TORCH_LOSS_FRONT,
).run(([input1, input2, target, margin, , , reduction]): Tensor => {
  const op = 'cosine_embedding_loss';
  checkReduction(op, reduction);
  const i1 = unwrapTensor(op, 'input1', input1);
  const i2 = unwrapTensor(op, 'input2', input2);
  const t = unwrapTensor(op, 'target', target);
  if (t.dim !== 0 && t.dim !== 1) throw new ShapeError(`${op}: 0D or 1D target tensor expected, multi-target not supported`);
  const want = t.dim + 1;
  if (i1.dim !== want || i2.dim !== want) {
    throw new ShapeError(
      `${op}: ${t.dim}D target tensor expects ${want}D input tensors, but found inputs with sizes ${fmtShape(i1.sizes)} and ${fmtShape(i2.sizes)}.`,
    );
  }
  const d = t.dim;
  return tidy(() => {
    const prodSum = sum(mul(input1, input2), d);
    const mag1 = add(sum(mul(input1, input1), d), 1e-12);
    const mag2 = add(sum(mul(input2, input2), d), 1e-12);
    const cos = div(prodSum, sqrt(mul(mag1, mag2)));
    const pos = add(neg(cos), 1);
    const negative = clampMin(sub(cos, margin), 0);
    const out = add(where(eq(target, 1), pos, 0), where(eq(target, -1), negative, 0));
    return applyReduction(out, reduction);
  });
});
export type CosineEmbeddingLossOptions = OptionsOf<typeof cosineEmbeddingLoss>;

/**
 * F.triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, ...):
 * max(0, margin + d(a, p) - d(a, n)) with d the pairwise distance (and d(a, n) the smaller of
 * it and d(p, n) with `swap`).
 */
export const tripletMarginLoss = front(
  "triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1.0, float p=2, float eps=1e-06, bool swap=False, bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
  TORCH_LOSS_FRONT,
).run(([anchor, positive, negative, margin, p, eps, swap, , , reduction]): Tensor => {
  const op = 'triplet_margin_loss';
  checkReduction(op, reduction);
  const dims = [unwrapTensor(op, 'anchor', anchor).dim, unwrapTensor(op, 'positive', positive).dim, unwrapTensor(op, 'negative', negative).dim];
  if (dims[0] !== dims[1] || dims[1] !== dims[2]) {
    throw new ShapeError(`${op}: All inputs should have same dimension but got ${dims[0]}D, ${dims[1]}D and ${dims[2]}D inputs.`);
  }
  return tidy(() => {
    const dPos = pairwiseDistance(anchor, positive, { p, eps });
    let dNeg = pairwiseDistance(anchor, negative, { p, eps });
    if (swap) dNeg = minimum(dNeg, pairwiseDistance(positive, negative, { p, eps }));
    return applyReduction(clampMin(sub(add(dPos, margin), dNeg), 0), reduction);
  });
});
export type TripletMarginLossOptions = OptionsOf<typeof tripletMarginLoss>;

export interface TripletMarginWithDistanceLossOptions {
  /** The distance of two batches of embeddings (default pairwiseDistance). */
  distanceFunction?: ((x1: Tensor, x2: Tensor) => Tensor) | null;
  margin?: number;
  swap?: boolean;
  reduction?: 'none' | 'mean' | 'sum';
}

/**
 * F.triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None,
 * margin=1.0, swap=False, reduction='mean'): triplet_margin_loss with any distance (Python in
 * PyTorch; a plain function here, since a schema has no callable type).
 */
export function tripletMarginWithDistanceLoss(anchor: Tensor, positive: Tensor, negative: Tensor, options: TripletMarginWithDistanceLossOptions = {}): Tensor {
  const op = 'triplet_margin_with_distance_loss';
  for (const [name, x] of [['anchor', anchor], ['positive', positive], ['negative', negative]] as const) unwrapTensor(op, name, x);
  const known = new Set(['distanceFunction', 'margin', 'swap', 'reduction']);
  for (const k of Object.keys(options)) if (!known.has(k)) throw new TorchTypeError(`${op}() got an unexpected keyword argument '${k}'`);
  const reduction = options.reduction ?? 'mean';
  if (reduction !== 'none' && reduction !== 'mean' && reduction !== 'sum') throw new TorchError(`${op}: ${String(reduction)} is not a valid value for reduction`);
  const margin = options.margin ?? 1;
  const dist = options.distanceFunction ?? ((x1: Tensor, x2: Tensor) => pairwiseDistance(x1, x2));
  if (typeof dist !== 'function') throw new TorchTypeError(`${op}(): argument 'distance_function' must be a function, not ${typeof dist}`);
  return tidy(() => {
    const dPos = dist(anchor, positive);
    let dNeg = dist(anchor, negative);
    if (options.swap) dNeg = minimum(dNeg, dist(positive, negative));
    return applyReduction(clampMin(add(sub(dPos, dNeg), margin), 0), reduction);
  });
}
