/**
 * More batching rules for network ops (Note [Batched tensors]):
 *  - pooling and upsampling: the batch folded into N ([C, *spatial] samples are already a batch);
 *  - pointwise losses: the loss with reduction 'none' on the physical values (unbatched
 *    operands broadcast), then the mean or sum of each sample;
 *  - layer and group norm: the batch folded into the normalised rows (group norm: into N);
 *    a batched weight or bias is applied after, as the affine step it is;
 *  - baddbmm: a broadcasting matmul, as addmm's rule;
 *  - linear algebra over the last dims (factorisations, solves): the batch is one more
 *    leading batch dim; operands with fewer batch dims get size-1 dims after it.
 * Combinations not covered (a batched pooling window: there is none; a batched class weight)
 * run the per-sample loop.
 */
import type { TensorImpl } from '../tensor/tensor-impl';
import { atLevel } from './batched-tensor';
import { moveBdimToFront, padAfterBatch, physicalAtFront, type RuleCall, type RuleResult } from './batching-util';
import { batchedAt, defineCoveredRule } from './batching-rules-shape';

const front = (c: RuleCall, i = 0): TensorImpl => moveBdimToFront(c.s, atLevel(c.args[i], c.level)!);
const fold = (c: RuleCall, t: TensorImpl): TensorImpl => c.s.call('reshape', [t, [t.sizes[0] * t.sizes[1], ...t.sizes.slice(2)]]);
const unfold = (c: RuleCall, t: TensorImpl, n: number): TensorImpl => c.s.call('view', [t, [n, t.sizes[0] / n, ...t.sizes.slice(1)]]);
const noneBatchedAfter = (args: readonly unknown[], level: number, from: number): boolean => args.slice(from).every((a) => !batchedAt(a, level));

/** A spatial op on self [N, C, *spatial] or [C, *spatial]: the batch folded into N. */
function foldRule(op: string, spatial: number): void {
  defineCoveredRule(
    op,
    (args, level) => {
      const b = atLevel(args[0], level);
      return b !== null && (b.dim === spatial + 1 || b.dim === spatial + 2) && noneBatchedAfter(args, level, 1);
    },
    (c) => {
      const plain = (c.args[0] as TensorImpl).dim === spatial + 1;
      const x = front(c);
      const r = c.s.call(op, [plain ? x : fold(c, x), ...c.args.slice(1)]);
      return [plain ? r : unfold(c, r, c.size), 0];
    },
  );
}

/** The per-sample mean (reduction 1) or sum (2) of an unreduced physical loss [N, ...]. */
function reduceLoss(c: RuleCall, loss: TensorImpl, reduction: number): RuleResult {
  if (reduction === 0) return [loss, 0];
  const flat = c.s.call('reshape', [loss, [c.size, -1]]);
  return [c.s.call(reduction === 1 ? 'mean.dim' : 'sum.dim_IntList', [flat, [1], false]), 0];
}

/**
 * A pointwise loss(self, target, *weights, reduction, ...): `tensors` operands (self, target,
 * then optional weights) broadcast against each other, `reduction` the index of the
 * reduction argument.
 */
function lossRule(op: string, tensors: number, reduction: number): void {
  defineCoveredRule(
    op,
    (args, level) => batchedAt(args[0], level) || batchedAt(args[1], level),
    (c) => {
      const ops = c.args.slice(0, tensors) as (TensorImpl | null | undefined)[];
      const rank = Math.max(...ops.map((t) => t?.dim ?? 0));
      const phys = ops.map((t, i) => {
        if (t == null) return t ?? null;
        // (self and target take the batch; a weight that is not batched broadcasts as it is)
        if (i < 2 || batchedAt(t, c.level)) return padAfterBatch(c.s, physicalAtFront(c.s, t, c.level, c.size), rank + 1);
        return t;
      });
      const args = [...phys, ...c.args.slice(tensors)];
      const red = (c.args[reduction] as number | undefined) ?? 1;
      args[reduction] = 0;
      return reduceLoss(c, c.s.call(op, args), red);
    },
  );
}

/** The affine step out * w + b of a norm whose weight or bias is batched (`shapeOf` gives each physical [N, ...] its broadcasting shape). */
function affine(c: RuleCall, out: TensorImpl, w: TensorImpl | null, b: TensorImpl | null, shapeOf: (t: TensorImpl) => number[]): TensorImpl {
  const view = (t: TensorImpl): TensorImpl => {
    const p = physicalAtFront(c.s, t, c.level, c.size);
    return c.s.call('reshape', [p, shapeOf(p)]);
  };
  let r = out;
  if (w) r = c.s.call('mul', [r, view(w)]);
  if (b) r = c.s.call('add', [r, view(b)]);
  return r;
}

function layerNormRule(): void {
  defineCoveredRule(
    'native_layer_norm',
    (args, level) => batchedAt(args[0], level) && (args[0] as TensorImpl).dim >= (args[1] as number[]).length,
    (c) => {
      const [, shape, w, b, eps] = c.args as [TensorImpl, number[], TensorImpl | null, TensorImpl | null, number];
      const x = front(c);
      const batchedAffine = batchedAt(w, c.level) || batchedAt(b, c.level);
      const [out, mean, rstd] = c.s.callMulti('native_layer_norm', [x, shape, batchedAffine ? null : w, batchedAffine ? null : b, eps]);
      if (!batchedAffine) return [[out, 0], [mean, 0], [rstd, 0]];
      // weight / bias [N, *normalized_shape] against out [N, *, *normalized_shape]
      const lead = x.dim - 1 - shape.length;
      const y = affine(c, out, w, b, (p) => [c.size, ...Array.from({ length: lead }, () => 1), ...p.sizes.slice(1)]);
      return [[y, 0], [mean, 0], [rstd, 0]];
    },
  );
}

function groupNormRule(): void {
  defineCoveredRule(
    'native_group_norm',
    (args, level) => batchedAt(args[0], level) && (args[0] as TensorImpl).dim >= 2,
    (c) => {
      const [self, w, b, n, ch, hxw, group, eps] = c.args as [TensorImpl, TensorImpl | null, TensorImpl | null, number, number, number, number, number];
      const x = fold(c, front(c));
      const batchedAffine = batchedAt(w, c.level) || batchedAt(b, c.level);
      const rs = c.s.callMulti('native_group_norm', [x, batchedAffine ? null : w, batchedAffine ? null : b, n * c.size, ch, hxw, group, eps]);
      let out = unfold(c, rs[0], c.size);
      if (batchedAffine) {
        // weight / bias [N, C] against out [N, n, C, *spatial]
        const ones = Array.from({ length: self.dim - 2 }, () => 1);
        out = affine(c, out, w, b, () => [c.size, 1, ch, ...ones]);
      }
      return [[out, 0], [unfold(c, rs[1], c.size), 0], [unfold(c, rs[2], c.size), 0]];
    },
  );
}

function baddbmmRule(c: RuleCall): RuleResult {
  const [, , , beta, alpha] = c.args as [TensorImpl, TensorImpl, TensorImpl, number | undefined, number | undefined];
  const operand = (i: number): TensorImpl => (batchedAt(c.args[i], c.level) ? padAfterBatch(c.s, front(c, i), 4) : (c.args[i] as TensorImpl));
  const prod = c.s.call('matmul', [operand(1), operand(2)]);
  const scaled = alpha === undefined || Number(alpha) === 1 ? prod : c.s.call('mul', [prod, alpha]);
  if (beta !== undefined && Number(beta) === 0) return [scaled, 0];
  const bias = operand(0);
  const bb = beta === undefined || Number(beta) === 1 ? bias : c.s.call('mul', [bias, beta]);
  return [c.s.call('add', [scaled, bb]), 0];
}

/**
 * An op over the last `core[i]` dims of its tensor operands i with any leading batch dims:
 * every operand gets the batch at dim 0 and size-1 batch dims up to the others' count.
 */
function leadingBatchRule(op: string, core: readonly number[]): void {
  defineCoveredRule(
    op,
    (args, level) => core.some((_, i) => batchedAt(args[i], level)) && core.every((k, i) => args[i] == null || (args[i] as TensorImpl).dim >= k),
    (c) => {
      const ts = core.map((_, i) => c.args[i] as TensorImpl);
      const batchRank = Math.max(...ts.map((t, i) => t.dim - core[i]));
      const phys = ts.map((t, i) => padAfterBatch(c.s, physicalAtFront(c.s, t, c.level, c.size), batchRank + core[i] + 1));
      const args = [...phys, ...c.args.slice(core.length)];
      if (!MULTI.has(op)) return [c.s.call(op, args), 0];
      // (a result without the batch dims, lstsq's empty residuals, is the same for every sample)
      return c.s.callMulti(op, args).map((t) => [t, t.dim > batchRank && t.sizes[0] === c.size ? 0 : null] as const);
    },
  );
}

const MULTI = new Set(['_linalg_eigh', '_linalg_svd', 'geqrf', 'linalg_cholesky_ex', 'linalg_lu_factor_ex', 'linalg_qr', 'linalg_lstsq']);

export function registerNnExtraRules(): void {
  for (const op of ['avg_pool2d', '_adaptive_avg_pool2d', 'upsample_nearest2d', 'upsample_bilinear2d', 'reflection_pad2d', 'replication_pad2d']) foldRule(op, 2);
  foldRule('upsample_trilinear3d', 3);
  for (const op of ['reflection_pad1d', 'replication_pad1d']) foldRule(op, 1);
  lossRule('mse_loss', 2, 2);
  lossRule('smooth_l1_loss', 2, 2);
  lossRule('binary_cross_entropy', 3, 3);
  lossRule('binary_cross_entropy_with_logits', 4, 4);
  layerNormRule();
  groupNormRule();
  defineCoveredRule('baddbmm', (args, level) => [0, 1, 2].some((i) => batchedAt(args[i], level)), baddbmmRule);
  for (const op of ['_linalg_eigh', '_linalg_svd', '_linalg_pinv', 'geqrf', 'linalg_cholesky_ex', 'linalg_lu_factor_ex', 'linalg_matrix_exp', 'linalg_qr']) leadingBatchRule(op, [2]);
  leadingBatchRule('_linalg_det_attach', [2, 0]);
  leadingBatchRule('linalg_householder_product', [2, 1]);
  leadingBatchRule('linalg_solve_triangular', [2, 2]);
  leadingBatchRule('linalg_lu_solve', [2, 1, 2]);
  leadingBatchRule('linalg_lstsq', [2, 2]);
}
