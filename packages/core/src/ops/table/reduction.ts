import type { Tensor } from '../../tensor/tensor';
import { div, eq, exp, expand, mul, prod, sub, sum, unsqueeze, where } from './formula-ops';
import { reductionRow, type ReductionContext, type ReductionRow } from './reduction-types';

/**
 * The reductions (Note [The op table]): `name.overload(Tensor self, <args>) -> Tensor` and its
 * out= variant, one row each, with the front ends `torch.name(x, ...)` and `x.name(...)`
 * bound by the row's arguments. Formulas as PyTorch 1.13's derivatives.yaml and
 * FunctionsManual.cpp write them (sum_backward, mean_backward, prod_backward,
 * scale_grad_by_count, logsumexp_backward), in core ops so that they are differentiable again.
 * max/min (three overloads, two outputs), var/std (three overloads: Note [Reductions outside
 * the table] in reduction-stats.ts), norm, median and mode stay hand-written.
 */

/**
 * A reduction's output (or its gradient) with the reduced dims put back as size-1 dims, so that
 * it broadcasts against the input (PyTorch's `restore_reduced_dims`); `dims` ascending.
 */
export function restoreReducedDims(t: Tensor, dims: readonly number[], keepdim: boolean): Tensor {
  if (keepdim) return t;
  let out = t;
  // Ascending order: each dim is at its final position once the ones before it are back.
  for (const d of dims) out = unsqueeze(out, d);
  return out;
}

/** `grad` of a reduction's output spread back over the input's shape (sum's backward). */
export function expandReduced(grad: Tensor, sizes: readonly number[], dims: readonly number[], keepdim: boolean): Tensor {
  return expand(restoreReducedDims(grad, dims, keepdim), [...sizes]);
}

/** The number of elements each result summarises. */
const countOf = (r: ReductionContext): number => r.dims.reduce((n, d) => n * r.sizes[d], 1);

/**
 * amax / amin: the gradient shared evenly among the elements equal to the result (PyTorch's
 * `scale_grad_by_count`), so ties each get grad / count.
 */
function extremumBackward(g: Tensor, r: ReductionContext): Tensor {
  const mask = eq(r.self, restoreReducedDims(r.result, r.dims, r.keepdim));
  const count = r.dims.length === 0 ? 1 : sum(mask, r.dims, true);
  return where(mask, div(restoreReducedDims(g, r.dims, r.keepdim), count), 0);
}

const DIM_ARGS = 'int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None';

export const REDUCTION_TABLE = {
  sum: reductionRow({
    doc: 'The sum of the elements (over `dim`, or all); integers and bool sum in int64 unless `dtype` is given.',
    overload: 'dim_IntList',
    args: DIM_ARGS,
    rule: 'sum',
    reduces: 'dims',
    impl: 'sum',
    // sum_backward: grad expanded back over the input
    derivative: { saves: [], dimOverloadNodes: true, formula: (g, r): Tensor => expandReduced(g, r.sizes, r.dims, r.keepdim) },
  }),
  mean: reductionRow({
    doc: 'The mean of the elements (over `dim`, or all): the sum in the result dtype over the count; floating dtypes only.',
    overload: 'dim',
    args: DIM_ARGS,
    rule: 'floating',
    reduces: 'dims',
    impl: 'sum',
    average: true,
    // mean_backward: the sum's gradient over the count
    derivative: { saves: [], dimOverloadNodes: true, formula: (g, r): Tensor => div(expandReduced(g, r.sizes, r.dims, r.keepdim), countOf(r)) },
  }),
  prod: reductionRow({
    doc: 'The product of the elements (over one `dim`, or all); integers and bool multiply in int64 unless `dtype` is given.',
    overload: 'dim_int',
    args: 'int? dim=None, bool keepdim=False, *, ScalarType? dtype=None',
    rule: 'sum',
    reduces: 'dims',
    impl: 'prod',
    derivative: {
      saves: ['self'],
      dimOverloadNodes: true,
      /**
       * Note [prod backward with zeros]
       * d prod / d x_i is the product of the other elements. `result / x_i` gives it only when
       * no element of the slice is zero, so the formula counts the zeros of each reduced slice,
       * with x' = x whose zeros are replaced by 1:
       *   none:  prod(x') / x'_i (here x' = x);
       *   one:   the zero element gets prod(x'), the product of the others; the rest get 0;
       *   more:  every element gets 0.
       * No branch divides by zero, so `where` only ever selects finite values. The first
       * derivative is exact everywhere; the second is exact away from zeros (PyTorch's
       * cumprod-based formula is exact there too).
       */
      formula: (g, r, [dim]): Tensor => {
        // no dim (and a 0-dim input's only "dim"): every element; the results then broadcast as 0-dim
        const d = dim == null || r.sizes.length === 0 ? null : r.dims[0];
        const isZero = eq(r.self, 0);
        const noZeros = where(isZero, 1, r.self);
        const others = d === null ? prod(noZeros) : prod(noZeros, d, true);
        const zeroCount = d === null ? sum(isZero) : sum(isZero, [d], true);
        const grad = d === null || r.keepdim ? g : unsqueeze(g, d);
        const factor = where(isZero, where(eq(zeroCount, 1), others, 0), where(eq(zeroCount, 0), div(others, noZeros), 0));
        return mul(grad, factor);
      },
    },
  }),
  amax: reductionRow({
    doc: 'The largest element (over `dim`, or all; NaN propagates); every element of a tie gets an equal share of the gradient.',
    args: 'int[1] dim=[], bool keepdim=False',
    rule: 'self',
    reduces: 'dims',
    impl: 'amax',
    identity: false,
    derivative: { saves: ['self', 'result'], formula: (g, r): Tensor => extremumBackward(g, r) },
  }),
  amin: reductionRow({
    doc: 'The smallest element (over `dim`, or all; NaN propagates); every element of a tie gets an equal share of the gradient.',
    args: 'int[1] dim=[], bool keepdim=False',
    rule: 'self',
    reduces: 'dims',
    impl: 'amin',
    identity: false,
    derivative: { saves: ['self', 'result'], formula: (g, r): Tensor => extremumBackward(g, r) },
  }),
  argmax: reductionRow({
    doc: 'The int64 position of the largest element (along `dim`, or of the flattened input); the first of a tie, NaN counting as the largest.',
    args: 'int? dim=None, bool keepdim=False',
    rule: 'index',
    reduces: 'index',
    impl: 'argmax',
    kernel: 'argmax_cpu',
    rejects: { bool: true },
    derivative: { notDifferentiable: 'returns int64 indices, which have no gradient' },
  }),
  argmin: reductionRow({
    doc: 'The int64 position of the smallest element (along `dim`, or of the flattened input); the first of a tie, NaN counting as the smallest.',
    args: 'int? dim=None, bool keepdim=False',
    rule: 'index',
    reduces: 'index',
    impl: 'argmin',
    kernel: 'argmin_cpu',
    rejects: { bool: true },
    derivative: { notDifferentiable: 'returns int64 indices, which have no gradient' },
  }),
  logsumexp: reductionRow({
    doc: 'log(sum(exp(x))) over `dim` (required), computed stably; integers and bool in the default float dtype.',
    args: 'int[1] dim, bool keepdim=False',
    rule: 'float',
    reduces: 'rows',
    impl: 'logsumexp',
    // logsumexp_backward: grad * exp(self - result), the reduced dims restored
    derivative: {
      saves: ['self', 'result'],
      formula: (g, r): Tensor => mul(restoreReducedDims(g, r.dims, r.keepdim), exp(sub(r.self, restoreReducedDims(r.result, r.dims, r.keepdim)))),
    },
  }),
  all: reductionRow({
    doc: 'True where every element (over `dim`, or all) is nonzero; a uint8 input gives uint8.',
    overload: 'dims',
    args: 'int[1]? dim=None, bool keepdim=False',
    rule: 'bool',
    reduces: 'rows',
    impl: 'all',
    derivative: { notDifferentiable: 'returns a bool (or uint8) result, which has no gradient' },
  }),
  any: reductionRow({
    doc: 'True where some element (over `dim`, or all) is nonzero; a uint8 input gives uint8.',
    overload: 'dims',
    args: 'int[1]? dim=None, bool keepdim=False',
    rule: 'bool',
    reduces: 'rows',
    impl: 'any',
    derivative: { notDifferentiable: 'returns a bool (or uint8) result, which has no gradient' },
  }),
} as const satisfies Readonly<Record<string, ReductionRow>>;

export type ReductionTableName = keyof typeof REDUCTION_TABLE;
