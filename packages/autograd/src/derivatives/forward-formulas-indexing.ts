/**
 * Explicit JVP formulas of the indexing ops (Note [Explicit JVP formulas]), as PyTorch's
 * derivatives.yaml `result:` entries: each op is linear in its differentiable inputs for a
 * fixed index / mask, so the tangent is the same op applied to the tangents, with the index
 * and mask arguments read from `tensorArgs` (the context keeps non-differentiable tensors).
 * An in-place op's missing `self` tangent counts as zeros (`self` before the op has no
 * tangent of its own but its written elements get one), a missing source tangent likewise.
 */
import { AutogradError, TensorImpl, Tensor, callBoxed, getOperator, zerosLike } from '@torch-ts/core';
import type { ForwardContext } from '../derivative';

type Formula = (ctx: ForwardContext) => readonly (Tensor | null)[] | null;
type Arg = ForwardContext['tensorArgs'][number];

const unbox = (a: unknown): unknown => (a instanceof Tensor ? a.impl : Array.isArray(a) ? a.map((x) => (x instanceof Tensor ? x.impl : x)) : a);
const call = (name: string, args: unknown[]): Tensor => new Tensor(callBoxed(getOperator(name), args.map(unbox)) as TensorImpl);

/** A single tensor argument (throws if the schema slot holds none: a formula bug). */
function tensorAt(ctx: ForwardContext, i: number): Tensor {
  const a: Arg = ctx.tensorArgs[i] ?? null;
  if (!(a instanceof Tensor)) throw new AutogradError(`forward formula: internal error: argument ${i} is not a tensor`);
  return a;
}

/** The tangent of input `k`, or zeros shaped as that input's primal. */
function orZeros(ctx: ForwardContext, k: number): Tensor {
  return ctx.tangents[k] ?? zerosLike(ctx.primals[k]!);
}

/** `op(self_t, ...)` for an op linear in `self` alone (the other tensor arguments fixed). */
const linearInSelf =
  (op: string, args: (ctx: ForwardContext) => unknown[]): Formula =>
  (ctx) => {
    const t = ctx.tangents[0];
    return [t ? call(op, [t, ...args(ctx)]) : null];
  };

/**
 * An in-place op linear in `self` and its source (input 1): the same op on a copy of self's
 * tangent, with the source's tangent (missing ones as zeros) in place of the source.
 */
const inplaceLinear =
  (op: string, args: (ctx: ForwardContext, srcT: Tensor | null) => unknown[], withSource = true): Formula =>
  (ctx) => {
    if (!ctx.tangents[0] && !(withSource && ctx.tangents[1])) return [null];
    const out = call('clone', [orZeros(ctx, 0), null]);
    // (an in-place op returns its self borrowed: the copy stays owned by `out`)
    callBoxed(getOperator(op), [out, ...args(ctx, withSource ? orZeros(ctx, 1) : null)].map(unbox));
    return [out];
  };

export const INDEXING_FORMULAS: Record<string, Formula> = {
  // index(self, indices, dims): index(self_t, indices, dims)
  'index.packed': linearInSelf('index.packed', (ctx) => [tensorAt(ctx, 1), ctx.args[2]]),
  // index_put_(self, indices, dims, values, accumulate): index_put_(self_t, indices, dims, values_t, accumulate)
  'index_put_.packed': inplaceLinear('index_put_.packed', (ctx, vt) => [tensorAt(ctx, 1), ctx.args[2], vt, ctx.args[4] ?? false]),
  gather: linearInSelf('gather', (ctx) => [ctx.args[1], tensorAt(ctx, 2), false]),
  index_select: linearInSelf('index_select', (ctx) => [ctx.args[1], tensorAt(ctx, 2)]),
  take: linearInSelf('take', (ctx) => [tensorAt(ctx, 1)]),
  // embedding(weight, indices, ...): the rows of weight_t
  embedding: linearInSelf('embedding', (ctx) => [tensorAt(ctx, 1), -1, false, false]),
  // masked_fill_(self, mask, value): the filled elements are constants
  'masked_fill_.Scalar': inplaceLinear('masked_fill_.Scalar', (ctx) => [tensorAt(ctx, 1), 0], false),
  // masked_fill_(self, mask, value: a 0-d tensor): self_t.masked_fill_(mask, value_t), value_t 0 where value has none
  'masked_fill_.Tensor': inplaceLinear('masked_fill_.Tensor', (ctx, vt) => [tensorAt(ctx, 1), vt]),
  'scatter_.src': inplaceLinear('scatter_.src', (ctx, st) => [ctx.args[1], tensorAt(ctx, 2), st]),
  scatter_add_: inplaceLinear('scatter_add_', (ctx, st) => [ctx.args[1], tensorAt(ctx, 2), st]),
  index_add_: inplaceLinear('index_add_', (ctx, st) => [ctx.args[1], tensorAt(ctx, 2), st, ctx.args[4] ?? 1]),
};
