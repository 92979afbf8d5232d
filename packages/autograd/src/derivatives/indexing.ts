import {
  add,
  clone,
  countsAreAsync,
  cumsum,
  copy_,
  narrow,
  lt,
  div,
  eq,
  gather,
  indexAdd,
  indexFill,
  indexPacked,
  indexPutPacked_,
  indexSelect,
  logicalAnd,
  maskedFill,
  maskedScatter,
  maskedSelect,
  maximum,
  mul,
  ones,
  onesLike,
  scatter,
  scatterAdd,
  scatterReduce,
  sum,
  tensor,
  where,
  zeros,
  zerosLike,
  type Tensor,
} from '@torch-ts/core';
import type { Derivative, DerivativeContext, DerivativeFamily, DerivativeOf, NotDifferentiable } from '../derivative';
import { inputSizes, savedTensor, scalarNumber } from './common';

/**
 * Derivatives of the indexing family (core ops/indexing.ts, gather-scatter.ts, masked.ts),
 * as PyTorch's derivatives.yaml states them. The gradient of a read at indexed positions is
 * a scatter-add of the gradient back to them; the gradient of a write is the gradient
 * gathered from the written positions (and zero for the overwritten values). Every formula
 * uses the differentiable ops of the family, so double backward works.
 */

const zerosOf = (ctx: DerivativeContext, i: number, op: string): Tensor =>
  zeros([...inputSizes(ctx, i, op)], { dtype: ctx.grad.dtype, device: ctx.grad.device });

/** The context of an op whose argument 1 is its `int dim` (gather, scatter, index_select, index_add, index_fill). */
type DimContext = DerivativeContext<readonly [unknown, number, ...unknown[]]>;

const dimArg = (ctx: DimContext): number => ctx.args[1];

/**
 * The gradient of a scatter's `src`: what its positions received, `grad.gather(dim, index)`,
 * of index's shape; `src` may be bigger than the index, and its elements the index does not
 * reach had no effect (gradient 0). PyTorch 1.13 refuses that case at backward ("returned an
 * invalid gradient"); the zero-padded gradient is the true one.
 */
function srcGrad(ctx: DimContext, srcInput: number, index: Tensor, op: string): Tensor {
  return padTo(gather(ctx.grad, dimArg(ctx), index), inputSizes(ctx, srcInput, op));
}

/** `g` in the leading corner of zeros of `sizes` (differentiable: a copy_ into a view). */
function padTo(g: Tensor, sizes: readonly number[]): Tensor {
  if (g.dim() !== sizes.length || g.shape.every((n, d) => n === sizes[d])) return g;
  const z = zeros([...sizes], { dtype: g.dtype, device: g.device });
  let corner = z;
  g.shape.forEach((n, d) => {
    corner = narrow(corner, d, 0, n);
  });
  copy_(corner, g);
  return z;
}

// index.packed(self, indices, dims): Note [Packed advanced indices] in core.
const IndexBackward0: DerivativeOf<'index.packed'> = {
  name: 'IndexBackward0',
  inputs: ['self'],
  saves: ['indices'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const idx = savedTensor(ctx, 'indices', 'index');
    return [indexPutPacked_(zerosOf(ctx, 0, 'index'), idx, ctx.args[2], ctx.grad, true)];
  },
};

// index_put_.packed(self, indices, dims, values, accumulate)
const IndexPutBackward0: DerivativeOf<'index_put_.packed'> = {
  name: 'IndexPutBackward0',
  inputs: ['self', 'values'],
  saves: ['indices'],
  backward: (ctx) => {
    const idx = savedTensor(ctx, 'indices', 'index_put_');
    const dims = ctx.args[2];
    const accumulate = ctx.args[4] === true;
    const zero = zeros([], { dtype: ctx.grad.dtype, device: ctx.grad.device });
    const gSelf = !ctx.needs[0] ? null : accumulate ? ctx.grad : indexPutPacked_(clone(ctx.grad), idx, dims, zero, false);
    const gValues = ctx.needs[1] ? indexPacked(ctx.grad, idx, dims) : null;
    return [gSelf, gValues];
  },
};

const GatherBackward0: DerivativeOf<'gather'> = {
  name: 'GatherBackward0',
  inputs: ['self'],
  saves: ['index'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    return [scatterAdd(zerosOf(ctx, 0, 'gather'), dimArg(ctx), savedTensor(ctx, 'index', 'gather'), ctx.grad)];
  },
};

// scatter_.src(self, dim, index, src): the overwritten self gets 0; src gets what its positions received.
const ScatterBackward0: DerivativeOf<'scatter_.src'> = {
  name: 'ScatterBackward0',
  inputs: ['self', 'src'],
  saves: ['index'],
  backward: (ctx) => {
    const index = savedTensor(ctx, 'index', 'scatter');
    return [ctx.needs[0] ? scatter(ctx.grad, dimArg(ctx), index, 0) : null, ctx.needs[1] ? srcGrad(ctx, 1, index, 'scatter') : null];
  },
};

const ScatterBackward1: DerivativeOf<'scatter_.value'> = {
  name: 'ScatterBackward1',
  inputs: ['self'],
  saves: ['index'],
  backward: (ctx) => [ctx.needs[0] ? scatter(ctx.grad, dimArg(ctx), savedTensor(ctx, 'index', 'scatter'), 0) : null],
};

/** PyTorch's derivatives.yaml has no formula for scatter with `reduce=` (deprecated): the Node refuses. */
function notImplemented(op: string, inputs: string[]): Derivative {
  return {
    name: 'NotImplemented',
    inputs,
    saves: [],
    backward: () => {
      throw new Error(`the derivative for '${op}' is not implemented.`);
    },
  };
}

const ScatterAddBackward0: DerivativeOf<'scatter_add_'> = {
  name: 'ScatterAddBackward0',
  inputs: ['self', 'src'],
  saves: ['index'],
  backward: (ctx) => [ctx.needs[0] ? ctx.grad : null, ctx.needs[1] ? srcGrad(ctx, 1, savedTensor(ctx, 'index', 'scatter_add'), 'scatter_add') : null],
};

/**
 * Note [scatter_reduce backward]
 * scatter_reduce_.two(self, dim, index, src, reduce, include_self), PyTorch's
 * scatter_reduce_backward: sum passes the gradient through (gathered for src); mean divides
 * it by the count at each position; amax/amin share it evenly among the values equal to the
 * result (self's and src's); prod is result / value, with a single zero handled by
 * recomputing the product without it. Without include_self, self's old values at scattered
 * positions did not take part: their gradient is 0.
 */
/** The leading corner of `t` of `sizes` (the part of a scatter's src its index reaches). */
function narrowTo(t: Tensor, sizes: readonly number[]): Tensor {
  let r = t;
  if (t.dim() !== sizes.length) return t;
  sizes.forEach((n, d) => {
    if (r.shape[d] !== n) r = narrow(r, d, 0, n);
  });
  return r;
}

const ScatterReduceBackward0: DerivativeOf<'scatter_reduce_.two'> = {
  name: 'ScatterReduceBackward0',
  inputs: ['self', 'src'],
  saves: ['self', 'index', 'src', 'result'],
  backward: (ctx) => {
    const op = 'scatter_reduce';
    const dim = dimArg(ctx);
    const reduce = ctx.args[4];
    const includeSelf = ctx.args[5] !== false;
    const self = savedTensor(ctx, 'self', op);
    const index = savedTensor(ctx, 'index', op);
    const src = narrowTo(savedTensor(ctx, 'src', op), index.shape);
    const result = savedTensor(ctx, 'result', op);
    const grad = ctx.grad;
    let gSelf: Tensor;
    let gSrc: Tensor;
    if (reduce === 'sum') {
      gSelf = grad;
      gSrc = gather(grad, dim, index);
    } else if (reduce === 'mean') {
      const start = includeSelf ? onesLike(grad) : zerosLike(grad);
      const n = maximum(scatterAdd(start, dim, index, onesLike(src)), ones([], { dtype: grad.dtype }));
      gSelf = div(grad, n);
      gSrc = gather(gSelf, dim, index);
    } else if (reduce === 'amax' || reduce === 'amin') {
      const value = gather(result, dim, index);
      const selfIs = eq(self, result).to(grad.dtype);
      const srcIs = eq(src, value).to(grad.dtype);
      const start = includeSelf ? selfIs : zerosLike(selfIs);
      const count = scatterAdd(start, dim, index, srcIs);
      const distributed = div(grad, maximum(count, ones([], { dtype: grad.dtype })));
      gSelf = mul(selfIs, distributed);
      gSrc = mul(srcIs, gather(distributed, dim, index));
    } else if (reduce === 'prod') {
      // self: result / self, with self's zeros recomputed as the product of the others.
      const maskedSelf = where(eq(self, 0), 1, self);
      const maskedSelfResult = scatterReduce(maskedSelf, dim, index, src, 'prod', { includeSelf });
      gSelf = div(mul(grad, maskedSelfResult), maskedSelf);
      // src: a value that is the only zero at its position gets the product of the others.
      const srcZero = eq(src, 0);
      const zeroCount = gather(scatterAdd(zerosLike(grad), dim, index, srcZero.to(grad.dtype)), dim, index);
      const singleZero = logicalAnd(srcZero, eq(zeroCount, 1));
      const maskedSrc = where(singleZero, 1, src);
      const maskedSrcResult = scatterReduce(self, dim, index, maskedSrc, 'prod', { includeSelf });
      gSrc = where(
        singleZero,
        gather(mul(grad, maskedSrcResult), dim, index),
        div(gather(mul(grad, result), dim, index), where(srcZero, 1, src)),
      );
    } else {
      throw new Error(`${op} backward: unknown reduce '${reduce}'`);
    }
    if (!includeSelf) gSelf = scatter(gSelf, dim, index, 0);
    return [ctx.needs[0] ? gSelf : null, ctx.needs[1] ? padTo(gSrc, inputSizes(ctx, 1, op)) : null];
  },
};

const IndexSelectBackward0: DerivativeOf<'index_select'> = {
  name: 'IndexSelectBackward0',
  inputs: ['self'],
  saves: ['index'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const index = savedTensor(ctx, 'index', 'index_select');
    const z = zerosOf(ctx, 0, 'index_select');
    // A 0-dim self: its result is 0-dim or [n]; index_add wants source with self's dims.
    const g = z.dim() === 0 ? sum(ctx.grad) : ctx.grad;
    const i = z.dim() === 0 ? index.reshape([-1]) : index;
    return [z.dim() === 0 ? indexAdd(z.reshape([1]), 0, i, g.reshape([1])).reshape([]) : indexAdd(z, dimArg(ctx), i, g)];
  },
};

// index_add_(self, dim, index, source, alpha)
const IndexAddBackward0: DerivativeOf<'index_add_'> = {
  name: 'IndexAddBackward0',
  inputs: ['self', 'source'],
  saves: ['index'],
  backward: (ctx) => {
    const index = savedTensor(ctx, 'index', 'index_add_');
    const alpha = scalarNumber(ctx.args[4], 1);
    let gSource: Tensor | null = null;
    if (ctx.needs[1]) {
      const g = ctx.grad.dim() === 0 ? ctx.grad.reshape([1]) : ctx.grad;
      const sel = indexSelect(g, dimArg(ctx), index);
      gSource = alpha === 1 ? sel : mul(sel, alpha);
    }
    return [ctx.needs[0] ? ctx.grad : null, gSource];
  },
};

const TakeBackward0: DerivativeOf<'take'> = {
  name: 'TakeBackward0',
  inputs: ['self'],
  saves: ['index'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const sizes = inputSizes(ctx, 0, 'take');
    const numel = sizes.reduce((a, b) => a * b, 1);
    // take wraps negative indices; index_add does not
    const flat = savedTensor(ctx, 'index', 'take').reshape([-1]);
    const index = where(lt(flat, 0), add(flat, numel), flat);
    const z = zeros([numel], { dtype: ctx.grad.dtype, device: ctx.grad.device });
    return [indexAdd(z, 0, index, ctx.grad.reshape([-1])).reshape([...sizes])];
  },
};

const MaskedFillBackward0: DerivativeOf<'masked_fill_.Scalar'> = {
  name: 'MaskedFillBackward0',
  inputs: ['self'],
  saves: ['mask'],
  backward: (ctx) => [ctx.needs[0] ? maskedFill(ctx.grad, savedTensor(ctx, 'mask', 'masked_fill'), 0) : null],
};

const MaskedFillBackward1: DerivativeOf<'masked_fill_.Tensor'> = {
  name: 'MaskedFillBackward1',
  inputs: ['self', 'value'],
  saves: ['mask'],
  backward: (ctx) => {
    const mask = savedTensor(ctx, 'mask', 'masked_fill');
    return [ctx.needs[0] ? maskedFill(ctx.grad, mask, 0) : null, ctx.needs[1] ? sum(where(mask, ctx.grad, 0)) : null];
  },
};

// masked_scatter_(self, mask, source): source's first n elements went to the n true positions.
const MaskedScatterBackward0: DerivativeOf<'masked_scatter_'> = {
  name: 'MaskedScatterBackward0',
  inputs: ['self', 'source'],
  saves: ['mask'],
  backward: (ctx) => {
    const mask = savedTensor(ctx, 'mask', 'masked_scatter');
    let gSource: Tensor | null = null;
    if (ctx.needs[1]) {
      const sizes = inputSizes(ctx, 1, 'masked_scatter');
      const numel = sizes.reduce((a, b) => a * b, 1);
      if (countsAreAsync(ctx.grad.device)) {
        // (core Note [Data-dependent sizes on async-read backends]: no count on the host) the
        // k-th true position's gradient goes to source[k], through its rank (a cumsum of the
        // mask); the false positions go to a spare slot that is cut off.
        const flat = mask.expand(ctx.grad.shape).reshape([-1]);
        const rank = where(flat, cumsum(flat.long(), 0).sub(1), numel);
        const slots = scatterAdd(zeros([numel + 1], { dtype: ctx.grad.dtype, device: ctx.grad.device }), 0, rank, ctx.grad.reshape([-1]));
        return [ctx.needs[0] ? maskedFill(ctx.grad, mask, 0) : null, narrow(slots, 0, 0, numel).reshape([...sizes])];
      }
      const selected = maskedSelect(ctx.grad, mask);
      const n = selected.shape[0];
      const head = tensor(Array.from({ length: numel }, (_, i) => i < n), { dtype: 'bool', device: ctx.grad.device });
      gSource = maskedScatter(zeros([numel], { dtype: ctx.grad.dtype, device: ctx.grad.device }), head, selected).reshape([...sizes]);
    }
    return [ctx.needs[0] ? maskedFill(ctx.grad, mask, 0) : null, gSource];
  },
};

// masked_select(self, mask): the gradient goes back to the true positions (of the broadcast shape).
const MaskedSelectBackward0: DerivativeOf<'masked_select'> = {
  name: 'MaskedSelectBackward0',
  inputs: ['self'],
  saves: ['mask'],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const mask = savedTensor(ctx, 'mask', 'masked_select');
    const sizes = inputSizes(ctx, 0, 'masked_select');
    const shape = broadcast(sizes, mask.shape);
    return [maskedScatter(zeros(shape, { dtype: ctx.grad.dtype, device: ctx.grad.device }), mask, ctx.grad)];
  },
};

function broadcast(a: readonly number[], b: readonly number[]): number[] {
  const n = Math.max(a.length, b.length);
  return Array.from({ length: n }, (_, i) => {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    return x === 1 ? y : x;
  });
}

// index_fill_(self, dim, index, value): the filled slices lose their gradient; a tensor value gets theirs summed.
const IndexFillBackward0: DerivativeOf<'index_fill_.int_Scalar'> = {
  name: 'IndexFillBackward0',
  inputs: ['self'],
  saves: ['index'],
  backward: (ctx) => [ctx.needs[0] ? indexFill(ctx.grad, dimArg(ctx), savedTensor(ctx, 'index', 'index_fill_'), 0) : null],
};

const IndexFillBackward1: DerivativeOf<'index_fill_.int_Tensor'> = {
  name: 'IndexFillBackward1',
  inputs: ['self', 'value'],
  saves: ['index'],
  backward: (ctx) => {
    const index = savedTensor(ctx, 'index', 'index_fill_');
    const g = ctx.grad.dim() === 0 ? ctx.grad.reshape([1]) : ctx.grad;
    // a repeated index fills its slice once: each slice's gradient counts once
    const once = indexFill(zerosLike(g), dimArg(ctx), index, 1);
    return [
      ctx.needs[0] ? indexFill(ctx.grad, dimArg(ctx), index, 0) : null,
      ctx.needs[1] ? sum(mul(g, once)) : null,
    ];
  },
};

const NONZERO: NotDifferentiable = { notDifferentiable: 'returns int64 positions' };

export const INDEXING_DERIVATIVES = {
  'index.packed': IndexBackward0,
  'index_put_.packed': IndexPutBackward0,
  gather: GatherBackward0,
  'scatter_.src': ScatterBackward0,
  'scatter_.value': ScatterBackward1,
  'scatter_.reduce': notImplemented('scatter_', ['self', 'src']),
  'scatter_.value_reduce': notImplemented('scatter_', ['self']),
  scatter_add_: ScatterAddBackward0,
  'scatter_reduce_.two': ScatterReduceBackward0,
  index_select: IndexSelectBackward0,
  index_add_: IndexAddBackward0,
  take: TakeBackward0,
  nonzero: NONZERO,
  'masked_fill_.Scalar': MaskedFillBackward0,
  'masked_fill_.Tensor': MaskedFillBackward1,
  masked_scatter_: MaskedScatterBackward0,
  masked_select: MaskedSelectBackward0,
  'index_fill_.int_Scalar': IndexFillBackward0,
  'index_fill_.int_Tensor': IndexFillBackward1,
} satisfies DerivativeFamily;
