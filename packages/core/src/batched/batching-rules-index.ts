/**
 * Batching rules for advanced indexing (Note [Packed advanced indices]), as functorch's
 * index / index_put_ rules (BatchRulesScatterOps.cpp, batchIndices): the packed indices are
 * [k, ...B] for the ascending dims `dims` of self.
 *  - self batched, indices not: self's batch moves to 0 and `dims` up by one; the indexed
 *    block stays where the logical result has it, or the batch follows B where the dims are
 *    not adjacent (B goes first).
 *  - indices batched, self not: the index's batch becomes the first dim of B (the k rows
 *    broadcast over it), so one call on self indexes every sample's rows.
 *  - both (and every index_put_): an arange over the batch indexes self's batch dim (0)
 *    alongside the moved indices, so the physical result is [N, ...B, ...rest of self] and is
 *    permuted to the logical placement where the dims are adjacent and start after dim 0.
 * Negative indices wrap and out-of-range ones raise in the kernel, as for one sample. Bool
 * masks reach these ops as integer indices (nonzero in the front end, which refuses a
 * batched mask: its shape depends on the values). index_put_ into an unbatched self with a
 * batched index or value raises functorch's in-place error (UnbatchedWriteError).
 */
import { fmtShape, ShapeError } from '../errors';
import { TensorImpl } from '../tensor/tensor-impl';
import { atLevel, UnbatchedWriteError } from './batched-tensor';
import { defineBatchRule, moveBdimToFront, padAfterBatch, physicalAtFront, type RuleCall, type RuleResult } from './batching-util';

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
const adjacent = (dims: readonly number[]): boolean => dims.every((d, i) => i === 0 || d === dims[i - 1] + 1);

/** arange(N) as int64 on `device` (through dispatched ops, so every backend makes it). */
function batchArange(c: RuleCall, like: TensorImpl): TensorImpl {
  const ones = c.s.own(TensorImpl.empty('index', [c.size], 'int64', like.device));
  c.s.call('fill_.Scalar', [ones, 1]);
  return c.s.call('add', [c.s.call('cumsum', [ones, 0, null]), ones, -1]);
}

/**
 * Packed indices [k + 1, N, ...B] for dims [0, ...dims + 1]: an arange over the batch, then
 * the (moved or expanded) index rows with the batch as the first dim of B.
 */
function withBatchRow(c: RuleCall, indices: TensorImpl): TensorImpl {
  const ip = physicalAtFront(c.s, indices, c.level, c.size); // [N, k, ...B]
  const rows = c.s.call('transpose.int', [ip, 0, 1]); // [k, N, ...B]
  const bShape = rows.sizes.slice(1);
  const ar = c.s.call('reshape', [batchArange(c, indices), [1, c.size, ...bShape.slice(1).map(() => 1)]]);
  const arRow = c.s.call('expand', [ar, [1, ...bShape], false]);
  return c.s.call('cat', [[arRow, rows], 0]);
}

/**
 * The permutation taking [N, ...B, ...pre, ...post] (the arange form's result) to the logical
 * placement [N, ...pre, ...B, ...post], where `dims` are adjacent and start at d0 > 0.
 */
function toLogicalPlacement(nb: number, d0: number, rank: number): number[] {
  return [0, ...range(nb + 1, nb + 1 + d0), ...range(1, nb + 1), ...range(nb + 1 + d0, rank)];
}

function indexRule(c: RuleCall): RuleResult {
  const [self, indices, dims] = c.args as [TensorImpl, TensorImpl, number[]];
  const sb = atLevel(self, c.level);
  const ib = atLevel(indices, c.level);
  const nb = indices.dim - 1; // (the logical B's rank)
  if (!ib) {
    const r = c.s.call('index.packed', [moveBdimToFront(c.s, sb!), indices, dims.map((d) => d + 1)]);
    return [r, adjacent(dims) ? 0 : nb];
  }
  if (!sb) {
    const rows = c.s.call('transpose.int', [moveBdimToFront(c.s, ib), 0, 1]); // [k, N, ...B]
    return [c.s.call('index.packed', [self, rows, dims]), adjacent(dims) ? dims[0] : 0];
  }
  const r = c.s.call('index.packed', [moveBdimToFront(c.s, sb), withBatchRow(c, indices), [0, ...dims.map((d) => d + 1)]]);
  if (!adjacent(dims) || dims[0] === 0) return [r, 0];
  return [c.s.call('permute', [r, toLogicalPlacement(nb, dims[0], r.dim)]), 0];
}

function indexPutRule(c: RuleCall): 'self' {
  const [self, indices, dims, values, accumulate] = c.args as [TensorImpl, TensorImpl, number[], TensorImpl, boolean | undefined];
  const sb = atLevel(self, c.level);
  if (!sb) {
    throw new UnbatchedWriteError(
      'vmap: index_put_(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args that has more elements than `self`. This happened due to `other` being vmapped over but `self` not being vmapped over in a vmap. Please try to use out-of-place operators instead of index_put_. If said operator is being called inside the PyTorch framework, please file a bug report instead.',
    );
  }
  // the logical indexing result's shape, which the values must broadcast to (as the kernel checks)
  const b = indices.sizes.slice(1);
  const rest = self.sizes.filter((_, d) => !dims.includes(d));
  const adj = adjacent(dims);
  const logical = adj ? [...self.sizes.slice(0, dims[0]), ...b, ...self.sizes.slice(dims[dims.length - 1] + 1)] : [...b, ...rest];
  const lead = logical.length - values.dim;
  if (lead < 0 || !values.sizes.every((n, i) => n === 1 || n === logical[lead + i])) {
    throw new ShapeError(
      `index_put_: shape mismatch: value tensor of shape ${fmtShape(values.sizes)} cannot be broadcast to indexing result of shape ${fmtShape(logical)}`,
    );
  }
  const vp = padAfterBatch(c.s, physicalAtFront(c.s, values, c.level, c.size), logical.length + 1);
  let v = c.s.call('expand', [vp, [c.size, ...logical], false]);
  if (adj && dims[0] > 0) {
    // [N, ...pre, ...B, ...post] -> [N, ...B, ...pre, ...post], the arange form's placement
    const d0 = dims[0];
    v = c.s.call('permute', [v, [0, ...range(d0 + 1, d0 + 1 + b.length), ...range(1, d0 + 1), ...range(d0 + 1 + b.length, v.dim)]]);
  }
  c.s.call('index_put_.packed', [moveBdimToFront(c.s, sb), withBatchRow(c, indices), [0, ...dims.map((d) => d + 1)], v, accumulate ?? false]);
  return 'self';
}

export function registerIndexRules(): void {
  defineBatchRule('index.packed', indexRule);
  defineBatchRule('index_put_.packed', indexPutRule);
}
