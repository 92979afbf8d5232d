import { AUTOGRAD_KEYSET, withExcluded } from '../dispatch/local-state';
import { isFloatingType, isIntegralType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { defineComposite } from './composite';
import { checkCountReadable, countsAreAsync, takeKnownCount, withKnownCounts } from './data-dependent';
import { arange, full, linspace, zeros } from './factories';
import { front, overloadedFront, type OptionsOf } from './front';
import { bitwiseAnd, div, eq, ge, le, mul, sub, sum, trunc } from './generated/table-ops';
import { cTypeName, torchTypeName } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { named } from './named-tuple';
import { where } from './pointwise';
import { bucketize } from './sorting';
import { stack } from './join';

/**
 * Note [bincount, histc and histogram are composites]
 * The three count elements into bins with `index_add_` on a zero tensor, so they run on every
 * backend that has index_add, and none of them has a gradient (their Nodes in PyTorch are
 * NotImplemented or absent): their ops run below autograd, so the result never requires grad.
 * The bins follow PyTorch's CPU kernels (HistogramKernel.cpp) exactly, since at a bin edge the
 * rules below differ and a count moves:
 *  - equal bins have the edges linspace(lo, hi, bins + 1) in the input's dtype, bit for bit as
 *    PyTorch's (core's linspace is), from outer edges taken from the range, or from the data
 *    (read where the device reads synchronously, as PyTorch reads them);
 *  - histc interpolates linearly between its outer edges, in the input's dtype:
 *    bin = trunc((x - edges[0]) / (edges[bins] - edges[0]) * bins), the last edge counted in
 *    the last bin (checked against 1.13 on thousands of points at and beside the edges: the
 *    other order of the multiplication and division, or the exact range instead of the
 *    edges, moves some of them);
 *  - histogram finds the bin from its edges (PyTorch: a binary search for a Tensor of edges,
 *    and for a count its interpolation corrected to agree with the edges, which is the same
 *    search): bucketize(x, edges, right=True) - 1, the last edge again in the last bin;
 *  - an element is counted when edges[0] <= x <= edges[bins]; NaN never is, as in 2.x (1.13
 *    counts it in some bin: its kernel casts NaN to an integer).
 * On an async-read device a range from the data is not read: the outer edges and linspace
 * are computed there (linspaceOnDevice, without the CPU kernel's fused multiply-adds, so an
 * edge may differ in its last bit, as any GPU kernel's may), and a non-finite range is not
 * refused (quantile's q range is not checked there either). bincount's result SIZE depends on
 * the data (its largest value), so on such a device the sync form refuses and `bincountAsync`
 * reads the data's min and max first (Note [Data-dependent sizes
 * on async-read backends]).
 */

/** Runs `fn` below autograd: the results of these ops have no gradient (the Note above). */
function withoutGrad<T>(fn: () => T): T {
  return withExcluded(AUTOGRAD_KEYSET, fn);
}

// ---- bincount ----

// (PyTorch's messages do not name bincount; these do, after its kernel's name)
const NOT_NONNEGATIVE = 'bincount: bincount only supports 1-d non-negative integral inputs.';

/** bincount's checks that need no data, in PyTorch's order; true when the input is empty (the result is zeros(minlength)). */
function bincountChecks(self: Tensor, weights: Tensor | null | undefined, minlength: number): boolean {
  if (!isIntegralType(self.dtype, false)) throw new DTypeError(`"bincount_cpu" not implemented for '${torchTypeName(self.dtype)}'`);
  if (minlength < 0) throw new TorchError('bincount: minlength should be >= 0');
  if (self.dim() === 1 && self.numel() === 0) return true;
  if (self.dim() !== 1) throw new ShapeError(NOT_NONNEGATIVE);
  if (weights != null && (weights.dim() !== 1 || weights.shape[0] !== self.shape[0])) {
    throw new ShapeError('bincount: weights should be 1-d and have the same length as input');
  }
  return false;
}

/** The result's length from the data's min and max (read by the caller). */
function binsFromRange(min: number, max: number, minlength: number): number {
  if (min < 0) throw new TorchError(NOT_NONNEGATIVE);
  return Math.max(max + 1, minlength);
}

/** The two numbers of a 2-element tensor's values, read back (`tolist`). */
function twoNumbers(values: unknown): [number, number] {
  if (!Array.isArray(values) || values.length !== 2) throw new TorchError('internal error: expected two values');
  return [Number(values[0]), Number(values[1])];
}

/** The data's [min, max], as one read of two int64 values. */
function minMax(self: Tensor): Tensor {
  return tidy(() => stack([self.amin(), self.amax()]).to('int64'));
}

export const BINCOUNT = defineComposite('bincount(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor', ([self, weights, minlength]) => {
  if (bincountChecks(self, weights, minlength)) return zeros([minlength], { dtype: 'int64', device: self.device });
  let length = takeKnownCount();
  if (length === null) {
    checkCountReadable('bincount', self.device);
    const [min, max] = twoNumbers(minMax(self).tolist());
    length = binsFromRange(Number(min), Number(max), minlength);
  }
  // PyTorch's kernel sums float weights in float, any other weights in double
  const dtype: DType = weights == null ? 'int64' : weights.dtype === 'float32' ? 'float32' : 'float64';
  const n = length;
  return withoutGrad(() => {
    const source = weights == null ? full([self.shape[0]], 1, { dtype, device: self.device }) : weights.to(dtype);
    return zeros([n], { dtype, device: self.device }).indexAdd_(0, self.to('int64'), source);
  });
});

const BINCOUNT_SCHEMA = 'bincount(Tensor input, Tensor? weights=None, int minlength=0) -> Tensor';

/**
 * The number of times each value 0, 1, ..., max(input) occurs in a 1-dim tensor of
 * non-negative integers (at least `minlength` bins), or the sum of the `weights` at each value's
 * positions. Its length depends on the data: on a device read asynchronously only, use
 * `bincountAsync`.
 */
export const bincount = front(BINCOUNT_SCHEMA).run(([self, weights, minlength]): Tensor =>
  callFunctional(BINCOUNT, [unwrapTensor('bincount', 'self', self), weights ? unwrapTensor('bincount', 'weights', weights) : null, minlength]),
);
export type BincountOptions = OptionsOf<typeof bincount>;

/**
 * `await torch.bincountAsync(x)`: `bincount` on any device. On one read asynchronously only
 * (WebGPU) the data's min and max are read first (two int64 values; CUDA syncs there too),
 * then `bincount` runs with its length known (Note [Data-dependent sizes on async-read backends]).
 */
export const bincountAsync = front(BINCOUNT_SCHEMA, { name: 'bincountAsync' }).run(async ([self, weights, minlength]): Promise<Tensor> => {
  if (!countsAreAsync(self.device)) return bincount(self, weights, minlength);
  // the sync form's checks first, so that a bad call reads nothing
  if (bincountChecks(self, weights, minlength)) return bincount(self, weights, minlength);
  const range = minMax(self);
  let min: number;
  let max: number;
  try {
    [min, max] = twoNumbers(await range.tolistAsync());
  } finally {
    range.dispose();
  }
  return withKnownCounts([binsFromRange(min, max, minlength)], () => bincount(self, weights, minlength));
});

// ---- histc and histogram ----

/** PyTorch checks the bin count first, with histogram's message (histc runs its code). */
function checkBins(bins: number): void {
  if (bins <= 0) throw new TorchError(`torch.histogram(): bins must be > 0, but got ${bins} for dimension 0`);
}

/** A double as PyTorch's messages print it (`inf`, `nan`). */
function fmtEdge(x: number): string {
  return Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : x === -Infinity ? '-inf' : String(x);
}

/** How histc or histogram checks and widens its outer edges (PyTorch's select_outer_bin_edges of each). */
interface OuterEdges {
  /** The outer edges when the input is empty and no range is given. */
  readonly empty: readonly [number, number];
  /** Added to hi and taken from lo when they are equal. */
  readonly widen: number;
  readonly notFinite: (lo: string, hi: string) => string;
  /** Throws when lo and hi are not in order (before or after widening, as PyTorch checks). */
  readonly order: (lo: number, hi: number, widened: boolean) => void;
}

const HISTC_EDGES: OuterEdges = {
  empty: [0, 0],
  widen: 1,
  notFinite: (l, h) => `torch.histc: range of [${l}, ${h}] is not finite`,
  order: (lo, hi, widened) => {
    if (widened && !(lo < hi)) throw new TorchError('torch.histc: max must be larger than min');
  },
};

const HISTOGRAM_EDGES: OuterEdges = {
  empty: [0, 1],
  widen: 0.5,
  notFinite: (l, h) => `torch.histogramdd: dimension 0's range [${l}, ${h}] is not finite`,
  order: (lo, hi, widened) => {
    if (!widened && lo > hi) throw new TorchError(`torch.histogramdd: min should not exceed max, but got min ${lo} max ${hi} for dimension 0`);
  },
};

/** linspace(lo, hi, bins + 1) in x's dtype from outer edges known here: PyTorch's CPU values bit for bit. */
function edgesBetween(x: Tensor, lo: number, hi: number, bins: number, rule: OuterEdges): Tensor {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new TorchError(rule.notFinite(fmtEdge(lo), fmtEdge(hi)));
  rule.order(lo, hi, false);
  if (lo === hi) {
    lo -= rule.widen;
    hi += rule.widen;
  }
  rule.order(lo, hi, true);
  return linspace(lo, hi, bins + 1, { dtype: x.dtype, device: x.device });
}

/**
 * linspace(lo, hi, steps) from 0-dim tensors, as linspace's kernel computes it in the dtype
 * (step = (hi - lo) / (steps - 1); the first steps / 2 values lo + step * i, the others
 * hi - step * (steps - 1 - i)) but without its CPU build's fused multiply-adds and vector
 * lanes, so an edge may differ from PyTorch's CPU one in its last bit.
 */
function linspaceOnDevice(lo: Tensor, hi: Tensor, steps: number): Tensor {
  const i = arange(steps, { dtype: lo.dtype, device: lo.device });
  const step = div(sub(hi, lo), steps - 1);
  const up = mul(step, i).add(lo);
  const down = sub(hi, mul(step, sub(steps - 1, i)));
  return where(i.lt(Math.floor(steps / 2)), up, down);
}

/**
 * The `bins + 1` edges of equal bins over `range`, or over the data's min and max (flat `x`).
 * A range from the data is read here where the device reads synchronously (PyTorch reads it
 * too); on an async-read device it stays there (Note [bincount, histc and histogram are composites]).
 */
function equalEdges(x: Tensor, range: readonly [number, number] | null, bins: number, rule: OuterEdges): Tensor {
  if (range !== null) return edgesBetween(x, range[0], range[1], bins, rule);
  if (x.numel() === 0) return edgesBetween(x, rule.empty[0], rule.empty[1], bins, rule);
  const lo = x.amin();
  const hi = x.amax();
  if (!countsAreAsync(x.device)) {
    const [l, h] = twoNumbers(stack([lo, hi]).tolist());
    return edgesBetween(x, l, h, bins, rule);
  }
  const same = eq(lo, hi);
  return linspaceOnDevice(where(same, sub(lo, rule.widen), lo), where(same, hi.add(rule.widen), hi), bins + 1);
}

/** Counts `idx` (int64 bins, valid where `inRange`) into `bins` zeros of `dtype`, each weighing `weight` (default 1). */
function countInto(bins: number, idx: Tensor, inRange: Tensor, dtype: DType, weight: Tensor | null): Tensor {
  const w = where(inRange, weight ?? 1, 0).to(dtype);
  return zeros([bins], { dtype, device: idx.device }).indexAdd_(0, where(inRange, idx, 0), w);
}

/** Whether each element of `x` lies within the outer `edges` (NaN does not). */
function withinEdges(x: Tensor, edges: Tensor): Tensor {
  return bitwiseAnd(ge(x, edges.select(0, 0)), le(x, edges.select(0, edges.shape[0] - 1)));
}

export const HISTC = defineComposite('histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor', ([self, bins, min, max]) => {
  checkBins(bins);
  if (!isFloatingType(self.dtype) || self.dtype === 'float16') throw new DTypeError(`histc: "histogram_cpu" not implemented for '${torchTypeName(self.dtype)}'`);
  const lo = Number(min);
  const hi = Number(max);
  return withoutGrad(() => {
    const x = self.reshape([-1]);
    // min == max asks for the data's range (an empty input's widens [0, 0])
    const edges = equalEdges(x, lo === hi && x.numel() > 0 ? null : [lo, hi], bins, HISTC_EDGES);
    const first = edges.select(0, 0);
    const pos = trunc(mul(div(sub(x, first), sub(edges.select(0, bins), first)), bins));
    return countInto(bins, where(eq(pos, bins), bins - 1, pos).to('int64'), withinEdges(x, edges), self.dtype, null);
  });
});
const HISTC_OUT = defineOutVariant(HISTC);

/**
 * The histogram of `input` in `bins` equal bins between `min` and `max` (the data's min and max
 * when both are equal), as a tensor of the input's dtype; elements outside are not counted.
 */
export const histc = front('histc(Tensor input, int bins=100, Scalar min=0, Scalar max=0, *, Tensor? out=None) -> Tensor').run(
  ([self, bins, min, max, out]): Tensor => callWithOut(HISTC, HISTC_OUT, [unwrapTensor('histc', 'input', self), bins, min, max], out),
);
export type HistcOptions = OptionsOf<typeof histc>;

/** histogram's (hist, bin_edges), indexable and named as PyTorch's named tuple. */
export type HistogramResult = [Tensor, Tensor] & { readonly hist: Tensor; readonly binEdges: Tensor };


/** histogram's checks of the input and weight (PyTorch's histogramdd wording: it runs that code). */
function histogramChecks(self: Tensor, weight: Tensor | null | undefined): void {
  if (!isFloatingType(self.dtype) || self.dtype === 'float16' || self.dtype === 'bfloat16') {
    throw new DTypeError(`histogram: "histogramdd" not implemented for '${torchTypeName(self.dtype)}'`);
  }
  if (weight == null) return;
  if (weight.dtype !== self.dtype) {
    throw new DTypeError(
      `torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, but got input(${cTypeName(self.dtype)}), and weight(${cTypeName(weight.dtype)})`,
    );
  }
  if (weight.shape.length !== self.shape.length || weight.shape.some((n, i) => n !== self.shape[i])) {
    throw new ShapeError(
      `torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor excluding its innermost dimension, but got input with shape ${fmtShape([self.numel(), 1])} and weight with shape ${fmtShape(weight.shape)}`,
    );
  }
}

/** The histogram of flat `x` over the sorted `edges` (1-dim, x's dtype). */
function histogramOver(x: Tensor, edges: Tensor, weight: Tensor | null, density: boolean): Tensor {
  const bins = edges.shape[0] - 1;
  const pos = sub(bucketize(x, edges, { right: true }), 1).clampMax(bins - 1);
  let hist = countInto(bins, pos, withinEdges(x, edges), x.dtype, weight?.reshape([-1]) ?? null);
  if (density) hist = div(div(hist, sum(hist)), edges.diff());
  return hist;
}

const HISTOGRAM_BINS = 'histogram.bins_tensor(Tensor self, Tensor bins, *, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)';
const HISTOGRAM_COUNT = 'histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)';

export const HISTOGRAM_BINS_TENSOR = defineComposite(HISTOGRAM_BINS, ([self, bins, weight, density]) => {
  histogramChecks(self, weight);
  if (bins.dim() !== 1) {
    throw new ShapeError(`torch.histogramdd: bins tensor should have one dimension, but got ${bins.dim()} dimensions in the bins tensor for dimension 0`);
  }
  checkBins(bins.shape[0] - 1);
  if (bins.dtype !== self.dtype) {
    throw new DTypeError(
      `torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype ${cTypeName(self.dtype)} and bins for dimension 0 with dtype ${cTypeName(bins.dtype)}`,
    );
  }
  return withoutGrad(() => [histogramOver(self.reshape([-1]), bins, weight ?? null, density), bins.clone()]);
});

export const HISTOGRAM_BIN_CT = defineComposite(HISTOGRAM_COUNT, ([self, bins, range, weight, density]) => {
  checkBins(bins);
  histogramChecks(self, weight);
  if (range != null && range.length !== 2) {
    throw new TorchError(`torch.histogramdd: for a 1-dimensional histogram range should have 2 elements, but got ${range.length}`);
  }
  return withoutGrad(() => {
    const x = self.reshape([-1]);
    const edges = equalEdges(x, range == null ? null : [range[0], range[1]], bins, HISTOGRAM_EDGES);
    return [histogramOver(x, edges, weight ?? null, density), edges];
  });
});

/**
 * The histogram of `input`: `bins` equal bins over `range` (the data's min and max by
 * default), or the bins between the sorted edges of a Tensor `bins`. Returns `(hist,
 * binEdges)`; with `weight`, each element counts its weight; with `density`, the histogram
 * is normalised to integrate to 1.
 */
export const histogram = overloadedFront(
  [
    'histogram.bins_tensor(Tensor input, Tensor bins, *, Tensor? weight=None, bool density=False, Tensor[]? out=None) -> (Tensor hist, Tensor bin_edges)',
    'histogram.bin_ct(Tensor input, int bins=100, *, float[]? range=None, Tensor? weight=None, bool density=False, Tensor[]? out=None) -> (Tensor hist, Tensor bin_edges)',
  ],
  { unsupported: ['out'] },
).run((r): HistogramResult => {
  const op = 'histogram';
  const s = unwrapTensor(op, 'input', r.values[0]);
  if (r.index === 0) {
    const [, bins, weight, density] = r.values;
    const w = weight ? unwrapTensor(op, 'weight', weight) : null;
    const [hist, edges] = callMulti(HISTOGRAM_BINS_TENSOR, [s, unwrapTensor(op, 'bins', bins), w, density]);
    return named<HistogramResult>(['hist', 'binEdges'], [hist, edges]);
  }
  const [, bins, range, weight, density] = r.values;
  const w = weight ? unwrapTensor(op, 'weight', weight) : null;
  const [hist, edges] = callMulti(HISTOGRAM_BIN_CT, [s, bins, range ?? null, w, density]);
  return named<HistogramResult>(['hist', 'binEdges'], [hist, edges]);
});
export type HistogramOptions = OptionsOf<typeof histogram>;
