/**
 * Batching rules for view ops and joins: the batch dim moves to 0 and the op's dims move up
 * by one, so a view of a batched tensor is a view of its value (writes through it reach the
 * value, as PyTorch's). `cat` / `stack` expand unbatched inputs over the batch (a view).
 */
import { normalizeDim } from '../views';
import { TensorImpl } from '../tensor/tensor-impl';
import { atLevel } from './batched-tensor';
import { defineBatchRule, moveBdimToFront, physicalAtFront, type RuleCall } from './batching-util';

const self0 = ({ args, level, s }: RuleCall): TensorImpl => moveBdimToFront(s, atLevel(args[0], level)!);
const dimOf = (op: string, c: RuleCall, d: number, extra = 0): number => normalizeDim(op, d, (c.args[0] as TensorImpl).dim + extra) + 1;

export function registerViewRules(): void {
  defineBatchRule('view', (c) => [c.s.call('view', [self0(c), [c.size, ...(c.args[1] as number[])]]), 0]);
  defineBatchRule('permute', (c) => {
    const dims = (c.args[1] as number[]).map((d) => dimOf('permute', c, d));
    return [c.s.call('permute', [self0(c), [0, ...dims]]), 0];
  });
  defineBatchRule('transpose.int', (c) => [c.s.call('transpose.int', [self0(c), dimOf('transpose', c, c.args[1] as number), dimOf('transpose', c, c.args[2] as number)]), 0]);
  defineBatchRule('select.int', (c) => [c.s.call('select.int', [self0(c), dimOf('select', c, c.args[1] as number), c.args[2]]), 0]);
  defineBatchRule('slice.Tensor', (c) => [c.s.call('slice.Tensor', [self0(c), dimOf('slice', c, (c.args[1] as number | undefined) ?? 0), ...c.args.slice(2)]), 0]);
  defineBatchRule('unsqueeze', (c) => [c.s.call('unsqueeze', [self0(c), dimOf('unsqueeze', c, c.args[1] as number, 1)]), 0]);
  defineBatchRule('squeeze.dims', (c) => {
    const t = c.args[0] as TensorImpl;
    const given = c.args[1] as number[] | null | undefined;
    const dims = given == null ? t.sizes.flatMap((n, i) => (n === 1 ? [i] : [])) : given.map((d) => normalizeDim('squeeze', d, t.dim));
    const kept = dims.filter((d) => t.sizes[d] === 1).map((d) => d + 1);
    return [kept.length === 0 ? c.s.call('alias', [self0(c)]) : c.s.call('squeeze.dims', [self0(c), kept]), 0];
  });
  defineBatchRule('expand', (c) => {
    const t = c.args[0] as TensorImpl;
    const size = c.args[1] as number[];
    let p = self0(c);
    for (let k = t.dim; k < size.length; k++) p = c.s.call('unsqueeze', [p, 1]);
    return [c.s.call('expand', [p, [c.size, ...size], c.args[2] ?? false]), 0];
  });
  defineBatchRule('unfold', (c) => [c.s.call('unfold', [self0(c), dimOf('unfold', c, c.args[1] as number), c.args[2], c.args[3]]), 0]);
  defineBatchRule('diagonal', (c) => [c.s.call('diagonal', [self0(c), c.args[1], dimOf('diagonal', c, c.args[2] as number), dimOf('diagonal', c, c.args[3] as number)]), 0]);
  // same geometry or a copy: the batch dim stays where it is
  for (const op of ['detach', 'alias', 'clone', '_to_copy']) {
    defineBatchRule(op, ({ args, level, s }) => {
      const b = atLevel(args[0], level)!;
      const r = op === 'clone' || op === '_to_copy' ? [moveBdimToFront(s, b), ...args.slice(1)] : [b.value, ...args.slice(1)];
      return [s.call(op, r), op === 'clone' || op === '_to_copy' ? 0 : b.bdim];
    });
  }
  for (const op of ['cat', 'stack']) {
    defineBatchRule(op, ({ args, level, size, s }) => {
      const list = args[0] as TensorImpl[];
      const rank = Math.max(...list.map((t) => t.dim)) + (op === 'stack' ? 1 : 0);
      const dim = normalizeDim(op, (args[1] as number | undefined) ?? 0, rank) + 1;
      // (PyTorch's cat skips legacy empty 1-D inputs: they stay 1-D, without the batch)
      const phys = list.map((t) => (op === 'cat' && t.dim === 1 && t.sizes[0] === 0 && !atLevel(t, level) ? t : physicalAtFront(s, t, level, size)));
      return [s.call(op, [phys, dim]), 0];
    });
  }
  defineBatchRule('index_select', (c) => {
    if (atLevel(c.args[2], c.level)) return gatherAll(c, 'index_select');
    return [c.s.call('index_select', [self0(c), dimOf('index_select', c, c.args[1] as number), c.args[2]]), 0];
  });
  defineBatchRule('gather', (c) => gatherAll(c, 'gather'));
  // as_strided addresses the storage: each sample's view starts one batch stride after the
  // previous one's (from the given offset, or the physical value's), as functorch's rule
  defineBatchRule('as_strided', ({ args, level, size, s }) => {
    const b = atLevel(args[0], level)!;
    const p = b.value;
    const offset = (args[3] as number | null | undefined) ?? p.storageOffset;
    return [s.call('as_strided', [p, [size, ...(args[1] as number[])], [p.strides[b.bdim], ...(args[2] as number[])], offset]), 0];
  });
}

/** gather along dim + 1 with both tensors at the front (an unbatched one expanded); index_select with a batched index as a gather. */
function gatherAll(c: RuleCall, op: 'gather' | 'index_select'): readonly [TensorImpl, number] {
  const { args, level, size, s } = c;
  const self = physicalAtFront(s, args[0] as TensorImpl, level, size);
  const rank = (args[0] as TensorImpl).dim;
  const dim = normalizeDim(op, args[1] as number, rank);
  let index = physicalAtFront(s, args[2] as TensorImpl, level, size);
  if (op === 'index_select') {
    // index [N, k] -> [N, 1.., k, 1..] expanded to self's sizes with k at dim + 1
    const k = index.sizes[1];
    const shape = [size, ...self.sizes.slice(1)];
    shape[dim + 1] = k;
    const view = shape.map((_, i) => (i === 0 ? size : i === dim + 1 ? k : 1));
    index = s.call('expand', [s.call('reshape', [index, view]), shape, false]);
  }
  return [s.call('gather', [self, dim + 1, index, false]), 0];
}
