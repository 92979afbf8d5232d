/**
 * Batching rules for the scatter family and masked / indexed fills (Note [Batched tensors]):
 * every tensor operand gets the batch at dim 0 (an unbatched index or source expanded over it,
 * a view) and `dim` moves up by one, so one call writes every sample. The in-place forms need
 * `self` batched (writing per-sample values into an unbatched `self` raises, and a functional
 * composite that does so then runs per sample: batched-fallback.ts). Not covered, so looped:
 * a logical 0-dim `self`, a batched index of index_fill_ / index_add (its rows would differ
 * per sample), masked_scatter_ (each sample consumes its source in its own order).
 */
import type { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import { atLevel } from './batched-tensor';
import { moveBdimToFront, padAfterBatch, physicalAtFront, type RuleCall } from './batching-util';
import { batchedAt, defineCoveredRule } from './batching-rules-shape';

const front = (c: RuleCall, i: number): TensorImpl => physicalAtFront(c.s, c.args[i] as TensorImpl, c.level, c.size);
const dimOf = (op: string, c: RuleCall): number => normalizeDim(op, c.args[1] as number, (c.args[0] as TensorImpl).dim) + 1;
const selfBatched = (args: readonly unknown[], level: number): boolean => {
  const b = atLevel(args[0], level);
  return b !== null && b.dim > 0;
};

export function registerScatterRules(): void {
  // scatter_(self, dim, index, src[, reduce...]) and scatter_add_: index and src alongside self
  for (const op of ['scatter_.src', 'scatter_add_', 'scatter_reduce_.two']) {
    defineCoveredRule(
      op,
      (args, level) => selfBatched(args, level) && (args[2] as TensorImpl).dim > 0,
      (c) => {
        const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
        c.s.call(op, [self, dimOf(op, c), front(c, 2), front(c, 3), ...c.args.slice(4)]);
        return 'self';
      },
    );
  }
  for (const op of ['scatter.src', 'scatter_add', 'scatter_reduce.two']) {
    defineCoveredRule(
      op,
      (args, level) => (args[0] as TensorImpl).dim > 0 && (args[2] as TensorImpl).dim > 0 && [0, 2, 3].some((i) => batchedAt(args[i], level)),
      (c) => [c.s.call(op, [front(c, 0), dimOf(op, c), front(c, 2), front(c, 3), ...c.args.slice(4)]), 0],
    );
  }
  // masked_fill_(self, mask, value): the mask broadcasts against self as a pointwise operand
  defineCoveredRule('masked_fill_.Scalar', selfBatched, (c) => {
    const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
    const m = atLevel(c.args[1], c.level);
    const mask = m ? padAfterBatch(c.s, moveBdimToFront(c.s, m), (c.args[0] as TensorImpl).dim + 1) : c.args[1];
    c.s.call('masked_fill_.Scalar', [self, mask, c.args[2]]);
    return 'self';
  });
  // index_fill_ / index_add(_) with an unbatched index: the same rows of every sample
  defineCoveredRule(
    'index_fill_.int_Scalar',
    (args, level) => selfBatched(args, level) && !batchedAt(args[2], level),
    (c) => {
      const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
      c.s.call('index_fill_.int_Scalar', [self, dimOf('index_fill_', c), c.args[2], c.args[3]]);
      return 'self';
    },
  );
  defineCoveredRule(
    'index_add_',
    (args, level) => selfBatched(args, level) && !batchedAt(args[2], level),
    (c) => {
      const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
      c.s.call('index_add_', [self, dimOf('index_add_', c), c.args[2], front(c, 3), ...c.args.slice(4)]);
      return 'self';
    },
  );
  defineCoveredRule(
    'index_add',
    (args, level) => (args[0] as TensorImpl).dim > 0 && !batchedAt(args[2], level) && (batchedAt(args[0], level) || batchedAt(args[3], level)),
    (c) => [c.s.call('index_add', [front(c, 0), dimOf('index_add', c), c.args[2], front(c, 3), ...c.args.slice(4)]), 0],
  );
}
