import { isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { normalizeDim, normalizeDims } from '../views';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { defineComposite } from './composite';
import { countsAreAsync } from './data-dependent';
import { arange, full } from './factories';
import type { OverloadCall } from './binder';
import { front, overloadedFront, type OptionsOf } from './front';
import { div, le, logicalNot, logsumexp, sum } from './generated/table-ops';
import { cat } from './join';
import { torchTypeName } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { where } from './pointwise';
import { isnan } from './pointwise-binary';
import { valuesIndices, writeValuesIndicesOut, type ValuesIndices } from './reduction';
import { MEDIAN, MEDIAN_DIM } from './reduction-stats';

/**
 * Note [NaN-ignoring statistics are composites]
 * nansum, nanmean, logcumsumexp, nanmedian, quantile and nanquantile are written with other
 * differentiable ops, so that they run on every backend that has those ops and autograd
 * records the ops they call (PyTorch's own nanmean and quantile are composites too;
 * nansum, logcumsumexp and nanmedian have kernels and Nodes of their own there, whose
 * gradients these composites give as well):
 *  - nansum: sum of where(isnan(x), 0, x) (nansum_backward is grad * ~isnan(x), which is
 *    where's gradient);
 *  - nanmean: nansum over the count of non-NaN elements, as PyTorch's;
 *  - nanmedian: a stable sort puts NaN last; the median's rank, (count - 1) // 2 of the
 *    non-NaN elements (0 when there is none, which finds a NaN), is gathered from the sorted
 *    values and their indices. The index of a tie is the first of the tied elements in input
 *    order, as the CPU kernel of median picks it (PyTorch leaves it unspecified); integral
 *    inputs, 0-dim and empty ones are median's;
 *  - quantile / nanquantile: PyTorch's quantile_compute (Sorting.cpp) step by step: sort,
 *    ranks from q (a NaN row ranks last for quantile, ranks are counted over the non-NaN
 *    elements for nanquantile), gather, lerp;
 *  - logcumsumexp: see logCumSumExpLast.
 */

// ---- nansum / nanmean ----

export const NANSUM = defineComposite(
  'nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ([self, dim, keepdim, dtype]) => {
    if (dim != null) normalizeDims('nansum', dim, self.dim());
    const x = isFloatingType(self.dtype) ? where(isnan(self), 0, self) : self;
    return sum(x, { dim: dim ?? undefined, keepdim, dtype: dtype ?? undefined });
  },
);
const NANSUM_OUT = defineOutVariant(NANSUM);

export const NANMEAN = defineComposite(
  'nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ([self, dim, keepdim, dtype]) => {
    if (!isFloatingType(self.dtype)) throw new DTypeError(`nanmean(): expected input to have floating point dtype but got ${torchTypeName(self.dtype)}`);
    if (dim != null) normalizeDims('nanmean', dim, self.dim());
    const count = sum(logicalNot(isnan(self)), { dim: dim ?? undefined, keepdim });
    return div(callFunctional(NANSUM, [self.impl, dim ?? null, keepdim, dtype ?? null]), count);
  },
);
const NANMEAN_OUT = defineOutVariant(NANMEAN);

/** The sum over `dim` (all dims by default) treating NaN as zero; integers and bool sum in int64 unless `dtype` is given. */
export const nansum = front('nansum(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor').run(
  ([self, dim, keepdim, dtype, out]): Tensor => callWithOut(NANSUM, NANSUM_OUT, [unwrapTensor('nansum', 'input', self), dim ?? null, keepdim, dtype ?? null], out),
);
export type NansumOptions = OptionsOf<typeof nansum>;

/** The mean over `dim` (all dims by default) of the elements that are not NaN; floating dtypes only. */
export const nanmean = front('nanmean(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor? out=None) -> Tensor').run(
  ([self, dim, keepdim, dtype, out]): Tensor => callWithOut(NANMEAN, NANMEAN_OUT, [unwrapTensor('nanmean', 'input', self), dim ?? null, keepdim, dtype ?? null], out),
);

// ---- logcumsumexp ----

/** Lines up to this long are reduced as one [n, n] masked logsumexp; longer ones in blocks of it. */
const LCSE_BLOCK = 32;

/** log(exp(a) + exp(b)), stably and elementwise (`b` broadcast to `a`). */
function logAddExp(a: Tensor, b: Tensor): Tensor {
  return logsumexp(cat([a.unsqueeze(-1), b.expand(a.shape).unsqueeze(-1)], -1), -1);
}

/**
 * Note [logcumsumexp as a composite]
 * The running log(sum(exp)) along the last dim, with no scan kernel: element i is the
 * logsumexp of the line's elements j <= i (the others masked to -inf), which logsumexp
 * computes stably (each term against the largest; the identity max-shift of a single
 * cumsum(exp(x - max)) would underflow the early elements of a line whose later ones are far
 * larger). A line of n elements reduces an [n, n] matrix, so longer lines go in blocks of
 * LCSE_BLOCK: each block's own running values, plus (log-added) the running value of the
 * blocks before it, which is this function applied to the blocks' totals. A NaN poisons the
 * rest of its line as PyTorch's scan does; autograd differentiates the logsumexps.
 */
function logCumSumExpLast(x: Tensor): Tensor {
  const n = x.shape[x.dim() - 1];
  const lead = x.shape.slice(0, -1);
  if (n <= LCSE_BLOCK) {
    const j = arange(n, { device: x.device });
    const mask = le(j, j.unsqueeze(-1)); // [i][j]: j <= i
    return logsumexp(where(mask, x.unsqueeze(-2), -Infinity), -1);
  }
  const blocks = Math.ceil(n / LCSE_BLOCK);
  const padded = blocks * LCSE_BLOCK === n ? x : cat([x, full([...lead, blocks * LCSE_BLOCK - n], -Infinity, { dtype: x.dtype, device: x.device })], -1);
  const inner = logCumSumExpLast(padded.reshape([...lead, blocks, LCSE_BLOCK]));
  const carry = logCumSumExpLast(inner.select(-1, LCSE_BLOCK - 1));
  const before = cat([full([...lead, 1], -Infinity, { dtype: x.dtype, device: x.device }), carry.narrow(-1, 0, blocks - 1)], -1);
  return logAddExp(inner, before.unsqueeze(-1)).reshape([...lead, blocks * LCSE_BLOCK]).narrow(-1, 0, n);
}

export const LOGCUMSUMEXP = defineComposite('logcumsumexp(Tensor self, int dim) -> Tensor', ([self, dim]) => {
  if (!isFloatingType(self.dtype)) throw new DTypeError(`logcumsumexp: "logcumsumexp_out_cpu" not implemented for '${torchTypeName(self.dtype)}'`);
  const d = normalizeDim('logcumsumexp', dim, self.dim());
  if (self.numel() === 0) return self.clone();
  // 16-bit floats in float32, rounded once, as PyTorch 2.x's Half/BFloat16 kernels accumulate
  const wide = self.dtype === 'float16' || self.dtype === 'bfloat16';
  const x = wide ? self.to('float32') : self;
  const line = x.dim() === 0 ? x.reshape([1]) : x.movedim(d, -1);
  const r = logCumSumExpLast(line);
  const back = x.dim() === 0 ? r.reshape([]) : r.movedim(-1, d);
  return wide ? back.to(self.dtype) : back.contiguous();
});
const LOGCUMSUMEXP_OUT = defineOutVariant(LOGCUMSUMEXP);

/** log(cumsum(exp(x))) along `dim`, computed stably; floating dtypes only. */
export const logcumsumexp = front('logcumsumexp(Tensor input, int dim, *, Tensor? out=None) -> Tensor').run(
  ([self, dim, out]): Tensor => callWithOut(LOGCUMSUMEXP, LOGCUMSUMEXP_OUT, [unwrapTensor('logcumsumexp', 'input', self), dim], out),
);

// ---- nanmedian ----

/** The rank of the lower median among the non-NaN elements along `dim` (kept), 0 where all are NaN. */
function nanMedianRank(self: Tensor, dim: number): Tensor {
  const count = sum(logicalNot(isnan(self)), [dim], true);
  return div(count.sub(1), 2, { roundingMode: 'floor' }).clampMin(0);
}

export const NANMEDIAN = defineComposite('nanmedian(Tensor self) -> Tensor', ([self]) => {
  if (!isFloatingType(self.dtype) || self.numel() === 0) return callFunctional(MEDIAN, [self.impl]);
  const flat = self.reshape([-1]);
  const sorted = flat.sort({ stable: true }).values;
  return sorted.gather(0, nanMedianRank(flat, 0)).reshape([]);
});

export const NANMEDIAN_DIM = defineComposite('nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)', ([self, dim, keepdim]) => {
  const d = normalizeDim('nanmedian', dim, self.dim());
  if (!isFloatingType(self.dtype) || self.dim() === 0 || self.numel() === 0) {
    return callMulti(MEDIAN_DIM, [self.impl, dim, keepdim]);
  }
  const { values, indices } = self.sort({ dim: d, stable: true });
  const rank = nanMedianRank(self, d);
  const v = values.gather(d, rank);
  const i = indices.gather(d, rank);
  return keepdim ? [v, i] : [v.squeeze(d), i.squeeze(d)];
});

/** `nanmedian(x)`: the lower median of the elements that are not NaN; `nanmedian(x, dim)`: (values, indices) along `dim`. */
export const nanmedian = overloadedFront([
  'nanmedian(Tensor self) -> Tensor',
  'nanmedian.dim(Tensor self, int dim, bool keepdim=False, *, Tensor[]? out=None) -> (Tensor, Tensor)',
]).runEach<[Tensor, ValuesIndices]>((r): Tensor | ValuesIndices => {
  const s = unwrapTensor('nanmedian', 'input', r.values[0]);
  if (r.index === 0) return callFunctional(NANMEDIAN, [s]);
  const [, dim, keepdim, out] = r.values;
  const vi = valuesIndices(callMulti(NANMEDIAN_DIM, [s, dim, keepdim]));
  return out ? writeValuesIndicesOut('nanmedian', vi, out) : vi;
});

// ---- quantile / nanquantile ----

const INTERPOLATIONS = ['linear', 'lower', 'higher', 'midpoint', 'nearest'] as const;

/** The interpolation's check, then PyTorch's quantile_checks, in its order (both ops say `quantile()`). */
function quantileChecks(self: Tensor, q: Tensor, interpolation: string): void {
  if (!INTERPOLATIONS.some((m) => m === interpolation)) {
    throw new TorchError(`quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got ${interpolation}`);
  }
  if (self.numel() === 0) throw new TorchError('quantile() input tensor must be non-empty');
  if (q.dim() > 1) throw new ShapeError('quantile() q must be a scalar or 1D tensor');
  if (self.dtype !== 'float32' && self.dtype !== 'float64') throw new DTypeError('quantile() input tensor must be either float or double dtype');
  if (self.dtype !== q.dtype) throw new DTypeError('quantile() q tensor must be same dtype as the input tensor');
  if (self.device.type !== q.device.type || self.device.index !== q.device.index) {
    throw new TorchError('quantile() q tensor must be on the same device as the input tensor');
  }
}

function quantileCompute(self: Tensor, q: Tensor, dim: number | null | undefined, keepdim: boolean, interpolation: string, ignoreNan: boolean): Tensor {
  quantileChecks(self, q, interpolation);
  const wrapped = dim == null ? null : normalizeDim('quantile', dim, self.dim());
  // PyTorch checks the range on the CPU only, so as not to wait for an accelerator; so does this
  if (!countsAreAsync(q.device) && q.numel() > 0 && q.ge(0).logicalAnd(q.le(1)).all().item() !== true) {
    throw new TorchError('quantile() q values must be in the range [0, 1]');
  }
  // the result's shape: q's size, then the reduced shape
  let outShape: number[] = [];
  if (wrapped !== null && self.dim() > 0) {
    outShape = keepdim ? self.shape.map((n, i) => (i === wrapped ? 1 : n)) : self.shape.filter((_, i) => i !== wrapped);
  } else if (keepdim) outShape = self.shape.map(() => 1);
  const rows = outShape.slice();
  const sorted0 = wrapped === null ? self.reshape([-1]).sort().values : self.unsqueeze(-1).transpose(wrapped, -1).sort().values;
  const n = sorted0.shape[sorted0.dim() - 1];
  if (n > 2 ** 24) throw new TorchError('quantile() input tensor is too large');
  const sorted = sorted0.reshape([...rows, n]);
  const q1 = q.reshape([-1]);
  let ranks: Tensor;
  if (ignoreNan) {
    const count = sum(logicalNot(isnan(sorted)), [-1], true);
    ranks = q1.mul(count.sub(1)).clampMin(0);
  } else {
    const anyNan = isnan(sorted).any(-1, true);
    ranks = where(anyNan, n - 1, q1.mul(n - 1)).expand([...rows, q1.shape[0]]);
  }
  if (interpolation === 'lower') ranks = ranks.floor();
  else if (interpolation === 'higher') ranks = ranks.ceil();
  else if (interpolation === 'nearest') ranks = ranks.round();
  const below = ranks.to('int64');
  let result = sorted.gather(-1, below);
  if (interpolation === 'linear' || interpolation === 'midpoint') {
    const weights = interpolation === 'midpoint' ? full(ranks.shape, 0.5, { dtype: ranks.dtype, device: ranks.device }) : ranks.sub(below);
    const above = sorted.gather(-1, ranks.ceil().to('int64'));
    result = result.lerp(above, weights);
  }
  return q.dim() === 0 ? result.squeeze(-1) : result.unsqueeze(0).transpose(0, -1).squeeze(-1);
}

export const QUANTILE = defineComposite(
  "quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor",
  ([self, q, dim, keepdim, interpolation]) => quantileCompute(self, q, dim, keepdim, interpolation, false),
);
export const NANQUANTILE = defineComposite(
  "nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor",
  ([self, q, dim, keepdim, interpolation]) => quantileCompute(self, q, dim, keepdim, interpolation, true),
);
const QUANTILE_OUT = defineOutVariant(QUANTILE);
const NANQUANTILE_OUT = defineOutVariant(NANQUANTILE);

function quantileSchemas<const N extends string>(name: N) {
  return [
    `${name}(Tensor input, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear', Tensor? out=None) -> Tensor`,
    `${name}.scalar(Tensor input, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear', Tensor? out=None) -> Tensor`,
  ] as const;
}

type QuantileCall = OverloadCall<ReturnType<typeof quantileSchemas<'quantile'>>, {}>;

/** quantile's and nanquantile's body: a number `q` as PyTorch's `quantile.scalar` takes it. */
function runQuantile(name: 'quantile' | 'nanquantile', { values: [self, qArg, dim, keepdim, interpolation, out] }: QuantileCall): Tensor {
  const [op, opOut] = name === 'quantile' ? [QUANTILE, QUANTILE_OUT] : [NANQUANTILE, NANQUANTILE_OUT];
  const s = unwrapTensor(name, 'input', self);
  if (typeof qArg !== 'number') return callWithOut(op, opOut, [s, unwrapTensor(name, 'q', qArg), dim ?? null, keepdim, interpolation], out);
  if (!(qArg >= 0 && qArg <= 1)) throw new TorchError(`quantile() q must be in the range [0, 1] but got ${qArg}`);
  // (PyTorch's scalar_tensor(q, self.options()); a q that is not floating is refused with the input's dtype anyway)
  const q = full([], qArg, { dtype: isFloatingType(s.dtype) ? s.dtype : 'float32', device: s.device });
  try {
    return callWithOut(op, opOut, [s, q.impl, dim ?? null, keepdim, interpolation], out);
  } finally {
    q.dispose();
  }
}

/** The `q`-th quantiles (a number or a 1-D tensor of them, in [0, 1]) over `dim` (or all elements); NaN where a row has a NaN. */
export const quantile = overloadedFront(quantileSchemas('quantile'), { choices: { interpolation: INTERPOLATIONS } }).run((call): Tensor => runQuantile('quantile', call));
export type QuantileOptions = OptionsOf<typeof quantile>;

/** quantile over the elements that are not NaN (NaN where a row has only NaN). */
export const nanquantile = overloadedFront(quantileSchemas('nanquantile'), { choices: { interpolation: INTERPOLATIONS } }).run((call): Tensor => runQuantile('nanquantile', call));
