import { isFloatingType, parseDType } from '../dtype';
import { DTypeError, IndexError, NotImplementedError, TorchError } from '../errors';
import { SparseTensorImpl } from '../sparse/sparse-tensor-impl';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides, normalizeDim, normalizeDims } from '../views';
import type { OverloadCall } from './binder';
import { front, overloadedFront, type OptionsOf } from './front';
import type { FrontOptions } from './front-types';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { releaseAll, scalarTensor, torchTypeName, type Scalar } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { ne, sum } from './generated/table-ops';
import { sparseNorm } from './sparse';
import { valuesIndices, writeValuesIndicesOut, type ValuesIndices } from './reduction';
import { dropDims, opmath, rowReduce } from './reduction-kernels';
import { defineStructured, implOf, type Backend } from './registry';
import type { KernelArgs } from './kernel-args';

/**
 * The statistics reductions of docs/api.md that are not rows of the op table (logsumexp, all
 * and any are: table/reduction.ts): var, std, var_mean, std_mean, the vector norm behind
 * `norm`, count_nonzero, median and mode. Multi-dim ones reduce rows (Note [Row reductions]
 * in reduction-stats-impls.ts); median(dim) and mode select one element along a dim, as
 * max(dim) does, and return (values, indices).
 *
 * Note [Reductions outside the table]
 * A reduction row is one operator bound by one signature with one result. These are not:
 *  - var and std: their front ends choose among three overloads, `(unbiased)`, `(dim,
 *    unbiased, keepdim)` and `(dim, *, correction, keepdim)`, with PyTorch's error for both
 *    unbiased and correction, and their impl is varMean's, shared with var_mean and std_mean;
 *  - var_mean, std_mean, median(dim), mode, max(dim), min(dim): two results;
 *  - norm: two overloads (a number or 'fro' / 'nuc') over linalg_vector_norm, whose `ord` is
 *    an argument before `dim`;
 *  - max, min, median: one front end over several operators (all elements, along a dim,
 *    elementwise);
 *  - count_nonzero: a composite of `ne` and `sum`, with no kernel and no derivative.
 */

// ---- var / std / var_mean / std_mean ----

function varStd(name: string, takeSqrt: boolean, withMean: boolean) {
  return ([self, dim, correction, keepdim]: KernelArgs<`var(${typeof VAR_ARGS}) -> Tensor`>, b: Backend): TensorImpl | TensorImpl[] => {
    const s = self;
    if (!isFloatingType(s.dtype)) throw new DTypeError(`${name}(): std and var only support floating point and complex dtypes, got ${torchTypeName(s.dtype)}`);
    const c = correction == null ? 1 : Number(correction);
    const outs = rowReduce(b, name, s, dim ?? null, keepdim, opmath(s.dtype), withMean ? [s.dtype, s.dtype] : [s.dtype], (o, r) =>
      implOf(b, 'varMean', name)(o[0], o[1] ?? null, r.work, r.rowLength, c, takeSqrt),
    );
    return withMean ? outs : outs[0];
  };
}

const VAR_ARGS = 'Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False';
export const VAR = defineStructured(`var.correction(${VAR_ARGS}) -> Tensor`, varStd('var', false, false), ['reduction']);
export const STD = defineStructured(`std.correction(${VAR_ARGS}) -> Tensor`, varStd('std', true, false), ['reduction']);
export const VAR_MEAN = defineStructured(`var_mean.correction(${VAR_ARGS}) -> (Tensor, Tensor)`, varStd('var_mean', false, true), ['reduction']);
export const STD_MEAN = defineStructured(`std_mean.correction(${VAR_ARGS}) -> (Tensor, Tensor)`, varStd('std_mean', true, true), ['reduction']);

// ---- vector norm (torch.norm in PyTorch 2.x is linalg.vector_norm for vector orders) ----

export const LINALG_VECTOR_NORM = defineStructured(
  'linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ([self, ord, dim, keepdim, dtype], b) => {
    const op = 'linalg.vector_norm';
    const s = self;
    if (!isFloatingType(s.dtype)) {
      throw new DTypeError(`${op}: Expected a floating point or complex tensor as input. Got ${torchTypeName(s.dtype)}`);
    }
    const outDtype = dtype == null ? s.dtype : parseDType(op, dtype);
    if (!isFloatingType(outDtype)) throw new DTypeError(`${op}: dtype should be floating point or complex. Got ${torchTypeName(outDtype)}`);
    const p = Number(ord);
    if (s.numel === 0 && (p < 0 || p === Infinity)) {
      const dims = dim == null || dim.length === 0 ? null : normalizeDims(op, dim, s.sizes.length);
      if (dims === null) {
        throw new TorchError(`${op}: cannot compute the ${fmtOrd(p)} norm on an empty tensor because the operation does not have an identity`);
      }
      for (const d of dims) {
        if (s.sizes[d] === 0) {
          throw new TorchError(`${op}: cannot compute the ${fmtOrd(p)} norm on the dimension ${d} because this dimension is empty and the operation does not have an identity`);
        }
      }
    }
    return rowReduce(b, op, s, dim ?? null, keepdim, opmath(outDtype), [outDtype], (o, r) =>
      implOf(b, 'vectorNorm', op)(o[0], r.work, r.rowLength, p),
    )[0];
  },
  ['reduction'],
);

function fmtOrd(p: number): string {
  if (p === Infinity) return 'inf';
  if (p === -Infinity) return '-inf';
  return Number.isInteger(p) ? `${p}` : String(p);
}

// ---- median / mode ----

function checkMedianDtype(op: string, s: TensorImpl): void {
  if (s.dtype === 'bool') throw new DTypeError(`${op}: "median_cpu" not implemented for 'Bool'`);
}

/** median() of every element: the lower median; NaN when there is a NaN (or no element). */
export const MEDIAN = defineStructured(
  'median(Tensor self) -> Tensor',
  ([self], b) => {
    const s = self;
    // PyTorch answers an empty input before its kernel checks the dtype (bool included)
    if (s.numel > 0) checkMedianDtype('median', s);
    const value = TensorImpl.empty('median', [1], s.dtype, s.device);
    try {
      if (s.numel === 0) {
        // PyTorch fills NaN converted to the dtype (x86's conversion: INT_MIN, or 0 for narrow ints)
        const nan = scalarTensor(b, 'median', NaN, 'float32', s.device);
        try {
          // (copied as a [1] view: a backend's copy takes operands of one shape)
          const nan1 = nan.view([1], [0], nan.storageOffset);
          try {
            implOf(b, 'copy', 'median')(value, nan1);
          } finally {
            nan1.release();
          }
        } finally {
          nan.release();
        }
      } else {
        const flat = TensorImpl.empty('median', [s.numel], s.dtype, s.device);
        try {
          const v = flat.view(s.sizes, contiguousStrides(s.sizes), 0);
          try {
            implOf(b, 'copy', 'median')(v, s);
          } finally {
            v.release();
          }
          implOf(b, 'medianDim', 'median')(value, null, flat, 0);
        } finally {
          flat.release();
        }
      }
    } catch (e) {
      value.release();
      throw e;
    }
    return dropDims(value, []);
  },
  ['reduction'],
);

function requireNonEmptyDim(op: string, s: TensorImpl, d: number): void {
  if (s.sizes.length > 0 && s.sizes[d] === 0) throw new IndexError(`${op}(): Expected reduction dim ${d} to have non-zero size.`);
}

function selectAlongDim(name: string, impl: 'medianDim' | 'modeDim', check: (op: string, s: TensorImpl) => void) {
  return ([self, dim, keepdim]: KernelArgs<'median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)'>, b: Backend): TensorImpl[] => {
    const s = self;
    check(name, s);
    const d = normalizeDim(name, dim, s.sizes.length);
    requireNonEmptyDim(name, s, d);
    const keep = s.sizes.map((n, i) => (i === d ? 1 : n));
    const values = TensorImpl.empty(name, keep, s.dtype, s.device);
    const indices = TensorImpl.empty(name, keep, 'int64', s.device);
    try {
      if (s.sizes.length > 0) implOf(b, impl, name)(values, indices, s, d);
      else {
        implOf(b, 'copy', name)(values, s);
        implOf(b, 'fill', name)(indices, 0);
      }
    } catch (e) {
      releaseAll([values, indices]);
      throw e;
    }
    if (keepdim || s.sizes.length === 0) return [values, indices];
    const sizes = s.sizes.filter((_, i) => i !== d);
    return [dropDims(values, sizes), dropDims(indices, sizes)];
  };
}

export const MEDIAN_DIM = defineStructured(
  'median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)',
  selectAlongDim('median', 'medianDim', checkMedianDtype),
  ['reduction'],
);
export const MODE = defineStructured(
  'mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)',
  selectAlongDim('mode', 'modeDim', () => {}),
  ['reduction'],
);

const VAR_OUT = defineOutVariant(VAR);
const STD_OUT = defineOutVariant(STD);
const NORM_OUT = defineOutVariant(LINALG_VECTOR_NORM);

// ---- front ends ----

/**
 * var/std's three overloads, as PyTorch's parser tries them (Note [The argument binder]):
 * `(unbiased)`, `(dim, unbiased, keepdim)` and `(dim, *, correction, keepdim)`; the last also
 * takes `unbiased` by keyword so that giving both raises PyTorch's error.
 */
function varSchemas<const N extends string>(name: N) {
  return [
    `${name}(Tensor self, bool unbiased=True) -> Tensor`,
    `${name}.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor? out=None) -> Tensor`,
    `${name}.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, bool? unbiased=None, Tensor? out=None) -> Tensor`,
  ] as const;
}
type VarSchemas = ReturnType<typeof varSchemas<'var'>>;

/** var_mean/std_mean's: var's, with two results and no `out` (PyTorch has no out= form of them). */
function varMeanSchemas<const N extends string>(name: N) {
  return [
    `${name}(Tensor self, bool unbiased=True) -> (Tensor, Tensor)`,
    `${name}.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)`,
    `${name}.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, bool? unbiased=None) -> (Tensor, Tensor)`,
  ] as const;
}
type VarCall = OverloadCall<VarSchemas, {}> | OverloadCall<ReturnType<typeof varMeanSchemas<'var_mean'>>, {}>;

/** var/std's options object: `correction` (default 1, Bessel's; or the legacy `unbiased`), `dim`, `keepdim`, `out`. */
export type VarOptions = FrontOptions<VarSchemas[2]>;

/** [self, dims, correction, keepdim] of a var/std call. */
function varArgs(op: string, r: VarCall): [TensorImpl, number[] | null, Scalar, boolean] {
  const self = unwrapTensor(op, 'input', r.values[0]);
  if (r.index === 0) return [self, null, r.values[1] ? 1 : 0, false];
  if (r.index === 1) {
    const [, dim, unbiased, keepdim] = r.values;
    return [self, dim ?? null, unbiased ? 1 : 0, keepdim];
  }
  const [, dim, correction, keepdim, unbiased] = r.values;
  if (unbiased !== undefined && correction !== undefined) throw new TorchError(`${op}(): Cannot specify both unbiased and correction`);
  return [self, dim ?? null, unbiased !== undefined ? (unbiased ? 1 : 0) : (correction ?? 1), keepdim];
}

/** var/std's `out` (their `(unbiased)` overload has none). */
const varOut = (r: OverloadCall<VarSchemas, {}>): Tensor | undefined => (r.index === 0 ? undefined : r.index === 1 ? r.values[4] : r.values[5]);

/**
 * The variance over `dim` (all dims by default) with `correction` (default 1). (`var` is a
 * reserved word, so core declares it as `variance` and the facade and the Tensor method name
 * it `var`: Note [aten's own signatures on torch].)
 */
export const variance = overloadedFront(varSchemas('var'), { name: 'variance', exportAs: 'var' }).run(
  (call): Tensor => callWithOut(VAR, VAR_OUT, varArgs('var', call), varOut(call)),
);

/** The standard deviation over `dim` (all dims by default) with `correction` (default 1). */
export const std = overloadedFront(varSchemas('std')).run((call): Tensor => callWithOut(STD, STD_OUT, varArgs('std', call), varOut(call)));

/** `[var, mean]`, a plain array (PyTorch's plain tuple). */
export const varMean = overloadedFront(varMeanSchemas('var_mean'), { method: false }).run((call): [Tensor, Tensor] => {
  const [v, m] = callMulti(VAR_MEAN, varArgs('var_mean', call));
  return [v, m];
});

/** `[std, mean]`, a plain array. */
export const stdMean = overloadedFront(varMeanSchemas('std_mean'), { method: false }).run((call): [Tensor, Tensor] => {
  const [sd, m] = callMulti(STD_MEAN, varArgs('std_mean', call));
  return [sd, m];
});

export type NormOrd = number | 'fro' | 'nuc' | null | undefined;

/**
 * `norm(x, p?, dim?, options?)`: PyTorch 2.x's torch.norm, which is linalg.vector_norm for a
 * number `p` (default 2) and for 'fro' (the 2-norm of the flattened dims); 'nuc' is a matrix
 * norm, not available yet.
 */
export const norm = overloadedFront(
  [
    'norm(Tensor self, Scalar? p=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor',
    'norm.str(Tensor self, str p, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor',
  ],
  { choices: { p: ['fro', 'nuc'] } },
).run(({ values: [self, ord, dims, keepdim, dtype, out] }): Tensor => {
  const s = unwrapTensor('norm', 'input', self);
  if (ord === 'nuc') throw new TorchError("norm(): the nuclear norm ('nuc') is a matrix norm, which torch-ts does not implement yet");
  if (typeof ord === 'string' && ord !== 'fro') throw new TorchError(`norm(): invalid norm type '${ord}'`);
  if (ord === 'fro' && dims !== undefined && dims.length > 2) throw new TorchError(`norm(): 'fro' norm expects at most 2 dims, got ${dims.length}`);
  const value = ord == null || ord === 'fro' ? 2 : ord;
  if (s instanceof SparseTensorImpl) {
    if (out != null) throw new NotImplementedError('norm: torch-ts computes the norm of a sparse tensor without out=');
    return sparseNorm(self, Number(value), dims ?? null, keepdim, dtype ?? null);
  }
  return callWithOut(LINALG_VECTOR_NORM, NORM_OUT, [s, value, dims ?? null, keepdim, dtype ?? null], out);
});
/** norm's options object (its number-`p` overload's: `p`, `dim`, `keepdim`, `dtype`, `out`). */
export type NormOptions = OptionsOf<typeof norm>;

/** The number of nonzero elements (over `dim`, or all), int64: a composite of `ne` and `sum`. */
export const countNonzero = front('count_nonzero(Tensor self, int[1]? dim=None) -> Tensor').run(([self, dimArg]): Tensor => {
  const s = unwrapTensor('count_nonzero', 'input', self);
  const dims = dimArg ?? null;
  if (dims !== null) normalizeDims('count_nonzero', dims, s.sizes.length);
  const mask = ne(self, 0);
  try {
    return dims === null ? sum(mask) : sum(mask, dims.length === 0 ? [] : dims);
  } finally {
    mask.dispose();
  }
});

export interface KeepdimOption {
  keepdim?: boolean;
}

/** `median(x)`: the lower median of all elements; `median(x, dim)`: (values, indices) along `dim`. */
export const median = overloadedFront([
  'median(Tensor self) -> Tensor',
  'median.dim(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)',
]).runEach<[Tensor, ValuesIndices]>((r): Tensor | ValuesIndices => {
  const s = unwrapTensor('median', 'input', r.values[0]);
  if (r.index === 0) return callFunctional(MEDIAN, [s]);
  const [, dim, keepdim, out] = r.values;
  const vi = valuesIndices(callMulti(MEDIAN_DIM, [s, dim, keepdim]));
  return out ? writeValuesIndicesOut('median', vi, out) : vi;
});

/** `mode(x, dim = -1)`: (values, indices), the most frequent value along `dim`. */
export const mode = front('mode(Tensor self, int dim=-1, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)').run(([self, dim, keepdim, out]): ValuesIndices => {
  const r = valuesIndices(callMulti(MODE, [unwrapTensor('mode', 'input', self), dim, keepdim]));
  return out ? writeValuesIndicesOut('mode', r, out) : r;
});

// `var` is a reserved word: core's own callers say `variance`.
export { variance as var };
