/**
 * Batching rules for the scatter family and masked / indexed fills (Note [Batched tensors]):
 * every tensor operand gets the batch at dim 0 (an unbatched index or source expanded over it,
 * a view) and `dim` moves up by one, so one call writes every sample. The in-place forms need
 * `self` batched (writing per-sample values into an unbatched `self` raises, and a functional
 * composite that does so then runs per sample: batched-fallback.ts; the messages are
 * functorch's, Note [In-place into an unbatched self]). index_add(_) and index_fill(_) with a
 * batched index (or fill value, or a 0-dim self) call the op per sample inside their rules, as
 * functorch's index_add rule. Not covered, so looped: a logical 0-dim `self` of the scatters
 * and masked_fill_, masked_scatter_ (each sample consumes its source in its own order).
 */
import type { TensorImpl } from '../tensor/tensor-impl';
import { normalizeDim } from '../views';
import { atLevel, inplaceArithmeticMessage, UnbatchedWriteError } from './batched-tensor';
import { defineBatchRule, moveBdimToFront, padAfterBatch, physicalAtFront, type RuleCall, type RuleResult } from './batching-util';
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
  // scatter_(self, dim, index, value[, reduce]): the same with a number for src
  for (const op of ['scatter_.value', 'scatter_.value_reduce']) {
    defineCoveredRule(
      op,
      (args, level) => selfBatched(args, level) && (args[2] as TensorImpl).dim > 0,
      (c) => {
        const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
        c.s.call(op, [self, dimOf(op, c), front(c, 2), ...c.args.slice(3)]);
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
  // masked_fill_(self, mask, value): the mask broadcasts against self as a pointwise operand;
  // an unbatched self with a batched mask is functorch's binary in-place refusal
  defineCoveredRule('masked_fill_.Scalar', (args, level) => selfBatched(args, level) || !batchedAt(args[0], level), (c) => {
    if (!batchedAt(c.args[0], c.level)) throw new UnbatchedWriteError(inplaceArithmeticMessage());
    const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
    const m = atLevel(c.args[1], c.level);
    const mask = m ? padAfterBatch(c.s, moveBdimToFront(c.s, m), (c.args[0] as TensorImpl).dim + 1) : c.args[1];
    c.s.call('masked_fill_.Scalar', [self, mask, c.args[2]]);
    return 'self';
  });
  // index_fill(_) / index_add(_) with an unbatched index: the same rows of every sample, one
  // call; a batched index (or value, or a 0-dim self): per sample (perSample, below). The
  // in-place forms into an unbatched self are refused with functorch's fallback message (the loop's).
  const perSampleCase = (c: RuleCall, batchedArgs: readonly number[]): boolean =>
    (c.args[0] as TensorImpl).dim === 0 || batchedArgs.some((i) => batchedAt(c.args[i], c.level));
  for (const [op, fn] of [
    ['index_fill_.int_Scalar', 'index_fill.int_Scalar'],
    ['index_fill_.int_Tensor', 'index_fill.int_Tensor'],
  ] as const) {
    defineCoveredRule(
      op,
      (args, level) => batchedAt(args[0], level),
      (c) => {
        if (perSampleCase(c, [2, 3])) return perSample(c, op, true);
        const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
        c.s.call(op, [self, dimOf('index_fill_', c), c.args[2], c.args[3]]);
        return 'self';
      },
    );
    defineBatchRule(fn, (c) => (perSampleCase(c, [2, 3]) ? perSample(c, fn, false) : [c.s.call(fn, [front(c, 0), dimOf('index_fill', c), c.args[2], c.args[3]]), 0]));
  }
  // index_add_ into a batched self: one call for an unbatched index, else per sample (below);
  // an unbatched self is refused with functorch's fallback message (the loop's)
  defineCoveredRule(
    'index_add_',
    (args, level) => batchedAt(args[0], level),
    (c) => {
      if (perSampleCase(c, [2])) return perSample(c, 'index_add_', true);
      const self = moveBdimToFront(c.s, atLevel(c.args[0], c.level)!);
      c.s.call('index_add_', [self, dimOf('index_add_', c), c.args[2], front(c, 3), ...c.args.slice(4)]);
      return 'self';
    },
  );
  defineBatchRule('index_add', (c) =>
    perSampleCase(c, [2])
      ? perSample(c, 'index_add', false)
      : [c.s.call('index_add', [front(c, 0), dimOf('index_add', c), c.args[2], front(c, 3), ...c.args.slice(4)]), 0],
  );
}

/**
 * index_add(_) / index_fill(_) with a batched index (or a batched fill value, or a 0-dim self,
 * which has no dim to index once the batch is in front), as functorch 1.13's
 * index_add_batch_rule: every sample writes its own rows, so the rule calls the op once per
 * sample on the samples of the batched tensor arguments (no fallback warning; the errors are
 * the op's own). A functional form stacks the per-sample results; an in-place form writes each
 * sample of self through its `select` view (functorch 1.13 loops index_add_ and index_fill(_)
 * with its fallback, which does the same, and warns). A one-call form (index_put_ over an
 * arange row) would not reject negative or out-of-range indices with the op's message.
 */
function perSample(c: RuleCall, op: string, inplace: boolean): RuleResult | 'self' {
  const sampleOf = (a: unknown, k: number): unknown => {
    const b = atLevel(a, c.level);
    return b ? c.s.call('select.int', [b.value, b.bdim, k]) : a;
  };
  const rows = Array.from({ length: c.size }, (_, k) => c.s.call(op, c.args.map((a) => sampleOf(a, k))));
  return inplace ? 'self' : [c.s.call('stack', [rows, 0]), 0];
}
