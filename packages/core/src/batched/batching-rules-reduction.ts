/**
 * Batching rules for ops whose `dim` argument names a dim of `self` (reductions, scans,
 * softmax / log_softmax): `self`'s batch dim moves to 0 and every dim moves up by one; an
 * omitted list of dims (`sum(x)`, `amax(x, [])`) is every logical dim. A logical 0-dim
 * `self`, an omitted single dim (`argmax(x)` flattens) and any other tensor argument
 * batched go to the per-sample loop.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { allOperators, registerKernel, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { normalizeDim } from '../views';
import { atLevel, maxLevel } from './batched-tensor';
import { loopFallback } from './batched-fallback';
import { defineBatchRule, moveBdimToFront } from './batching-util';

const DIM_TYPES = /^int(\[\d*\])?\??$/;

function dimRule(h: OperatorHandle): BoxedKernel {
  const args = h.schema.args;
  const d = args.findIndex((a) => a.name === 'dim');
  const isList = args[d].type.includes('[');
  const loop = loopFallback(h);
  defineBatchRule(h, ({ args: a, level, s }) => {
    const b = atLevel(a[0], level)!;
    const rank = b.dim;
    const dim = a[d] as number | number[] | null | undefined;
    const all = Array.from({ length: rank }, (_, i) => i + 1);
    const moved = isList
      ? dim == null || (Array.isArray(dim) && dim.length === 0)
        ? all
        : (typeof dim === 'number' ? [dim] : dim).map((x) => normalizeDim(h.schema.name, x, rank) + 1)
      : normalizeDim(h.schema.name, dim as number, rank) + 1;
    const phys = [...a];
    phys[0] = moveBdimToFront(s, b);
    phys[d] = moved;
    const multi = h.schema.returns.trim().startsWith('(');
    if (multi) return s.callMulti(h, phys).map((t) => [t, 0] as const);
    return [s.call(h, phys), 0] as const;
  });
  // (defineBatchRule registered the rule; the kernel returned wraps it with the cases it does not cover)
  const rule = h.kernels[DispatchKey.FuncTorchBatched]!;
  return (ks, a) => {
    const level = maxLevel(a);
    const self = atLevel(a[0], level);
    const others = a.slice(1).some((x) => atLevel(x, level) || (Array.isArray(x) && x.some((y) => atLevel(y, level))));
    const dim = a[d];
    if (!self || others || self.dim === 0 || (!isList && dim == null)) return loop(ks, a);
    return rule(ks, a);
  };
}

const EXTRA = new Set(['_softmax', '_log_softmax', 'sort.stable', 'argsort.stable', 'topk', 'median.dim', 'nanmedian.dim', 'mode', 'cummax', 'cummin']);

export function registerReductionRules(): void {
  for (const h of allOperators()) {
    const tags = h.def.tags ?? [];
    const kind = tags.includes('reduction') || tags.includes('scan') || EXTRA.has(h.name);
    if (!kind || tags.includes('out') || tags.includes('inplace') || h.def.composite) continue;
    const args = h.schema.args;
    const d = args.findIndex((a) => a.name === 'dim');
    if (d < 0 || !DIM_TYPES.test(args[d].type) || args[0]?.type !== 'Tensor') continue;
    registerKernel(h, DispatchKey.FuncTorchBatched, dimRule(h));
  }
}
