/**
 * Batching rules for single-tensor shape and selection ops (flip, roll, tril / triu, repeat,
 * constant padding, embedding, bucketize / searchsorted, whole-tensor argmax / argmin
 * / prod / median): the batch dim moves to 0 and the op's dims move up by one, or the op
 * runs per sample on a [N, -1] flattening. Each rule covers the common argument
 * combinations; the others (bucketize's batched boundaries, a 3-D or larger batched table,
 * a logical 0-dim tensor) run the per-sample loop. masked_select over an unbatched mask is
 * one call on the physical self. Ops whose result shape depends on the values (nonzero, unique, a
 * masked_select over a batched mask) raise functorch's error: one shape per sample cannot
 * be stacked in general, and PyTorch refuses them even where the samples agree.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { getOperator, registerKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { IndexError, TorchError } from '../errors';
import type { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import { atLevel, maxLevel } from './batched-tensor';
import { loopFallback } from './batched-fallback';
import { defineBatchRule, moveBdimToFront, padAfterBatch, physicalAtFront, type RuleCall, type RuleResult } from './batching-util';

/**
 * Registers `rule` for the calls `covered` accepts and the per-sample loop for the others
 * (`covered` sees the boxed arguments and the call's level).
 */
export function defineCoveredRule(
  op: string | OperatorHandle,
  covered: (args: readonly unknown[], level: number) => boolean,
  rule: (c: RuleCall) => RuleResult | RuleResult[] | 'self',
): void {
  const h = typeof op === 'string' ? getOperator(op) : op;
  defineBatchRule(h, rule);
  const kernel = h.kernels[DispatchKey.FuncTorchBatched]!;
  const loop = loopFallback(h);
  registerKernel(h, DispatchKey.FuncTorchBatched, (ks, args) => (covered(args, maxLevel(args)) ? kernel(ks, args) : loop(ks, args)));
}

/** Whether `t` (a tensor, null or absent) is batched at `level`. */
export const batchedAt = (t: unknown, level: number): boolean => atLevel(t, level) !== null;

/** `self` (argument 0) batched at the level with the given minimum logical rank, no other argument batched. */
const onlySelf =
  (minRank = 1) =>
  (args: readonly unknown[], level: number): boolean => {
    const b = atLevel(args[0], level);
    return b !== null && b.dim >= minRank && args.slice(1).every((a) => !batchedAt(a, level));
  };

const front = (c: RuleCall, i = 0): TensorImpl => moveBdimToFront(c.s, atLevel(c.args[i], c.level)!);
const rankOf = (c: RuleCall, i = 0): number => (c.args[i] as TensorImpl).dim;

/** `self` as [N, numel] (a copy when its batch dim was not leading). */
const flat = (c: RuleCall, t: TensorImpl): TensorImpl => c.s.call('reshape', [t, [c.size, -1]]);

/** Ops whose result shape depends on the values: functorch refuses them under vmap. */
function dynamicShape(op: string, covered: (args: readonly unknown[], level: number) => boolean = () => true): void {
  const h = getOperator(op);
  const loop = loopFallback(h);
  registerKernel(h, DispatchKey.FuncTorchBatched, (ks, args) => {
    if (!covered(args, maxLevel(args))) return loop(ks, args);
    throw new TorchError(
      `vmap: We do not support batching operators that can output dynamic shape. Attempted to vmap over aten::${op.split('.')[0]}. Please voice your support in https://github.com/pytorch/functorch/issues/256`,
    );
  });
}

/** argmax / argmin / prod over every element (dim None): the op along dim 1 of [N, numel]; keepdim gives [N, 1, ...]. */
function wholeTensorRule(op: string, dimArg: number): void {
  const h = getOperator(op);
  const previous = h.kernels[DispatchKey.FuncTorchBatched];
  const loop = previous ?? loopFallback(h);
  defineBatchRule(h, (c) => {
    const args = [...c.args];
    const keepdim = args[dimArg + 1] === true;
    args[0] = flat(c, front(c));
    args[dimArg] = 1;
    args[dimArg + 1] = false;
    const r = c.s.call(h, args);
    return [keepdim ? c.s.call('reshape', [r, [c.size, ...Array.from({ length: rankOf(c) }, () => 1)]]) : r, 0];
  });
  const rule = h.kernels[DispatchKey.FuncTorchBatched]!;
  registerKernel(h, DispatchKey.FuncTorchBatched, (ks, args) => {
    const level = maxLevel(args);
    const b = atLevel(args[0], level);
    const covered = b !== null && b.dim > 0 && b.numel > 0 && args[dimArg] == null && args.slice(1).every((a) => !batchedAt(a, level));
    return covered ? rule(ks, args) : loop(ks, args);
  });
}

export function registerShapeRules(): void {
  defineCoveredRule('flip', onlySelf(), (c) => {
    const dims = (c.args[1] as number[]).map((d) => normalizeDim('flip', d, rankOf(c)) + 1);
    return [c.s.call('flip', [front(c), dims]), 0];
  });
  defineCoveredRule('roll', onlySelf(), (c) => {
    const dims = (c.args[2] as number[] | undefined) ?? [];
    if (dims.length > 0) return [c.s.call('roll', [front(c), c.args[1], dims.map((d) => normalizeDim('roll', d, rankOf(c)) + 1)]), 0];
    // (no dims: roll the flattened sample, then restore its shape)
    const r = c.s.call('roll', [flat(c, front(c)), c.args[1], [1]]);
    return [c.s.call('reshape', [r, [c.size, ...(c.args[0] as TensorImpl).sizes]]), 0];
  });
  for (const op of ['tril', 'triu']) defineCoveredRule(op, onlySelf(2), (c) => [c.s.call(op, [front(c), c.args[1] ?? 0]), 0]);
  defineCoveredRule(
    'repeat',
    (args, level) => onlySelf(0)(args, level) && (args[1] as number[]).length >= (args[0] as TensorImpl).dim,
    (c) => {
      const repeats = c.args[1] as number[];
      let p = front(c);
      // (repeats longer than the rank add leading dims: they go after the batch dim)
      while (p.dim < repeats.length + 1) p = c.s.call('unsqueeze', [p, 1]);
      return [c.s.call('repeat', [p, [1, ...repeats]]), 0];
    },
  );
  defineCoveredRule(
    'constant_pad_nd',
    (args, level) => onlySelf(0)(args, level) && (args[1] as number[]).length / 2 <= (args[0] as TensorImpl).dim,
    (c) => [c.s.call('constant_pad_nd', [front(c), c.args[1], c.args[2] ?? 0]), 0],
  );
  // embedding: a batched index into an unbatched table is the table indexed by the physical
  // indices; a batched (2-D) table is gathered per sample along its rows: indices flattened to
  // (B, M), expanded over the embedding dim, so gather bounds-checks each sample's own table
  // (functorch 1.13 offsets the indices into a (B*N, D) table instead, which lets an index
  // past one sample's rows read the next sample's).
  defineCoveredRule(
    'embedding',
    (args, level) => (batchedAt(args[0], level) ? (args[0] as TensorImpl).dim === 2 : batchedAt(args[1], level)),
    (c) => {
      if (!batchedAt(c.args[0], c.level)) return [c.s.call('embedding', [c.args[0], front(c, 1), ...c.args.slice(2)]), 0];
      const w = front(c, 0);
      const idx = physicalAtFront(c.s, c.args[1] as TensorImpl, c.level, c.size);
      const d = w.sizes[2]!;
      // (embedding takes int32 indices too; gather's index is int64)
      const flatIdx = c.s.call('reshape', [idx.dtype === 'int64' ? idx : c.s.call('_to_copy', [idx, 'int64']), [c.size, -1]]);
      const m = flatIdx.sizes[1]!;
      const expanded = c.s.call('expand', [c.s.call('unsqueeze', [flatIdx, 2]), [c.size, m, d], false]);
      let rows: TensorImpl;
      try {
        rows = c.s.call('gather', [w, 1, expanded, false]);
      } catch (e) {
        // (a sample's index past its table: embedding's own message, as the loop would raise)
        if (e instanceof IndexError) throw new IndexError('embedding: index out of range in self');
        throw e;
      }
      return [c.s.call('reshape', [rows, [...idx.sizes, d]]), 0];
    },
  );
  // bucketize / searchsorted: values batched against unbatched 1-D boundaries are pointwise
  defineCoveredRule(
    'bucketize.Tensor',
    (args, level) => batchedAt(args[0], level) && !batchedAt(args[1], level),
    (c) => [c.s.call('bucketize.Tensor', [front(c), ...c.args.slice(1)]), 0],
  );
  defineCoveredRule(
    'searchsorted.Tensor',
    (args, level) => {
      const seq = args[0] as TensorImpl;
      const values = args[1] as TensorImpl;
      if (args[5] != null) return false;
      if (!batchedAt(seq, level)) return batchedAt(values, level) && seq.dim === 1;
      // (a batched sequence: both get the batch as their leading dim; 1-D sequences take values
      // of any rank, flattened; an N-D one needs values with its leading dims, else the
      // per-sample loop raises PyTorch's error)
      if (seq.dim === 1) return true;
      return values.dim === seq.dim && seq.sizes.slice(0, -1).every((n, i) => n === values.sizes[i]);
    },
    (c) => {
      const seq = c.args[0] as TensorImpl;
      if (!batchedAt(seq, c.level)) return [c.s.call('searchsorted.Tensor', [seq, front(c, 1), ...c.args.slice(2)]), 0];
      const v = physicalAtFront(c.s, c.args[1] as TensorImpl, c.level, c.size);
      if (seq.dim > 1) return [c.s.call('searchsorted.Tensor', [front(c, 0), v, ...c.args.slice(2)]), 0];
      const r = c.s.call('searchsorted.Tensor', [front(c, 0), c.s.call('reshape', [v, [c.size, -1]]), ...c.args.slice(2)]);
      return [c.s.call('reshape', [r, v.sizes]), 0];
    },
  );
  wholeTensorRule('argmax', 1);
  wholeTensorRule('argmin', 1);
  wholeTensorRule('prod.dim_int', 1);
  for (const op of ['median', 'nanmedian']) {
    defineCoveredRule(
      op,
      (args, level) => {
        const b = atLevel(args[0], level);
        return b !== null && b.dim > 0 && b.numel > 0;
      },
      (c) => [c.s.callMulti(`${op}.dim`, [flat(c, front(c)), 1, false])[0], 0],
    );
  }
  dynamicShape('nonzero');
  dynamicShape('_unique2');
  dynamicShape('unique_dim');
  const maskedSelect = getOperator('masked_select');
  // an unbatched mask selects the same elements of every sample: one masked_select over self
  // (batch at the front, padded to the broadcast rank) yields them sample by sample, (B, K)
  defineBatchRule(maskedSelect, (c) => {
    const mask = c.args[1] as TensorImpl;
    const rank = Math.max(rankOf(c, 0), mask.dim);
    const self = padAfterBatch(c.s, front(c, 0), rank + 1);
    const picked = c.s.call('masked_select', [self, mask]);
    return [c.s.call('reshape', [picked, [c.size, c.size === 0 ? 0 : picked.sizes[0]! / c.size]]), 0];
  });
  const rule = maskedSelect.kernels[DispatchKey.FuncTorchBatched]!;
  registerKernel(maskedSelect, DispatchKey.FuncTorchBatched, (ks, args) => {
    if (!batchedAt(args[1], maxLevel(args))) return rule(ks, args);
    throw new TorchError(
      'vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot support this because for each batch this would return a differently shaped Tensor. Please voice your support in https://github.com/pytorch/functorch/issues/256',
    );
  });
}

