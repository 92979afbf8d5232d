import { callBoxed } from '../dispatch/dispatcher';
import { resultType, type DType } from '../dtype';
import { DTypeError, IndexError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides, normalizeDim } from '../views';
import { front, overloadedFront, type OptionsOf } from './front';
import { callFunctional, callMulti, callMutating, unwrapTensor, unwrapTensorOrScalar } from './call';
import { defineComposite } from './composite';
import { checkNoInternalOverlap, commonDevice, releaseAll, sameShape, torchTypeName, type Scalar } from './meta-utils';
import { FILL_ } from './copy';
import { valuesIndices, writeValuesIndicesOut, type ValuesIndices } from './reduction';
import { backendOf, defineStructured, implOf, type Backend } from './registry';
import { backendKeyOf } from '../dispatch/dispatch-key';
import { countUniqueAsync, countsAreAsync, dataDependentError, takeKnownCount, withKnownCounts } from './data-dependent';

/**
 * The sorting family: sort (stable; NaN above every number), argsort (sort's indices),
 * topk, unique, searchsorted and bucketize. Core allocates every output and hands the impls
 * validated arguments (sorting-impls.ts).
 */

function releaseOnError<T>(ts: readonly TensorImpl[], fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    releaseAll(ts);
    throw e;
  }
}

// ---- sort ----
export const SORT = defineStructured(
  'sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)',
  ([self, , dim, descending], b) => {
    const s = self;
    const d = normalizeDim('sort', dim, s.sizes.length);
    const values = TensorImpl.empty('sort', s.sizes, s.dtype, s.device);
    const indices = TensorImpl.empty('sort', s.sizes, 'int64', s.device);
    return releaseOnError([values, indices], () => {
      if (s.numel === 0) return [values, indices];
      if (s.sizes.length === 0) {
        implOf(b, 'copy', 'sort')(values, s);
        implOf(b, 'fill', 'sort')(indices, 0);
      } else implOf(b, 'sort', 'sort')(values, indices, s, d, descending === true);
      return [values, indices];
    });
  },
);

// ---- topk ----
export const TOPK = defineStructured(
  'topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)',
  ([self, k, dim, largest], b) => {
    const s = self;
    const d = normalizeDim('topk', dim, s.sizes.length);
    const n = s.sizes.length === 0 ? 1 : s.sizes[d];
    const kk = k;
    if (!Number.isInteger(kk) || kk < 0 || kk > n) throw new IndexError('topk: selected index k out of range');
    if (s.dtype === 'bool' && s.sizes.length > 0) throw new DTypeError(`topk: "topk_cpu" not implemented for 'Bool'`);
    const sizes = s.sizes.map((x, i) => (i === d ? kk : x));
    const values = TensorImpl.empty('topk', sizes, s.dtype, s.device);
    const indices = TensorImpl.empty('topk', sizes, 'int64', s.device);
    return releaseOnError([values, indices], () => {
      if (values.numel === 0) return [values, indices];
      if (s.sizes.length === 0) {
        implOf(b, 'copy', 'topk')(values, s);
        implOf(b, 'fill', 'topk')(indices, 0);
      } else implOf(b, 'topk', 'topk')(values, indices, s, kk, d, largest !== false);
      return [values, indices];
    });
  },
);

// ---- searchsorted / bucketize ----
function resolveRight(op: string, right: unknown, side: unknown): boolean {
  if (side != null && side !== 'left' && side !== 'right') {
    throw new TorchError(`${op}: side can only be 'left' or 'right' but got ${String(side)}`);
  }
  if (side === 'left' && right === true) {
    throw new TorchError(`${op}: side and right can't be set to opposites, got side of left while right was True`);
  }
  return right === true || side === 'right';
}

function contiguousAs(b: Backend, op: string, t: TensorImpl, dtype: DType, sizes: readonly number[]): TensorImpl {
  if (t.dtype === dtype && t.isContiguous) return t.view(sizes, contiguousStrides(sizes), t.storageOffset);
  const c = TensorImpl.empty(op, t.sizes, dtype, t.device);
  try {
    if (c.numel > 0) implOf(b, 'copy', op)(c, t);
    return c.view(sizes, contiguousStrides(sizes), 0);
  } finally {
    c.release();
  }
}

function runSearchsorted(
  b: Backend,
  op: string,
  seq: TensorImpl,
  value: TensorImpl,
  outInt32: boolean,
  right: boolean,
  sorter: TensorImpl | null,
  out: TensorImpl | null,
): TensorImpl {
  const device = commonDevice(op, [seq, value, sorter, out]);
  if (seq.sizes.length === 0) throw new ShapeError(`${op}: boundaries tensor should have positive dimension, but got 0 dimension`);
  if (seq.sizes.length > 1) {
    const lead = seq.sizes.slice(0, -1);
    if (value.sizes.length !== seq.sizes.length || !sameShape(lead, value.sizes.slice(0, -1))) {
      throw new ShapeError(
        `${op}: boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match, but we got boundaries tensor ${fmtShape(seq.sizes)} and input value tensor ${fmtShape(value.sizes)}`,
      );
    }
  }
  if (sorter) {
    if (sorter.dtype !== 'int64') throw new DTypeError(`${op}: sorter must be a tensor of long dtype but got ${torchTypeName(sorter.dtype)}`);
    if (!sameShape(sorter.sizes, seq.sizes)) {
      throw new ShapeError(`${op}: boundary and sorter must have the same size, but got boundary tensor ${fmtShape(seq.sizes)}and got sorter tensor ${fmtShape(sorter.sizes)}`);
    }
  }
  const compute = resultType(op, [
    { dtype: seq.dtype, shape: seq.sizes },
    { dtype: value.dtype, shape: value.sizes },
  ]);
  const outDtype: DType = outInt32 ? 'int32' : 'int64';
  if (out) {
    checkNoInternalOverlap(op, out);
    if (!sameShape(out.sizes, value.sizes)) {
      throw new ShapeError(`${op}: output with shape ${fmtShape(out.sizes)} doesn't match the input value tensor ${fmtShape(value.sizes)}`);
    }
    if (out.dtype !== outDtype) {
      throw new DTypeError(`${op}: output tensor's dtype is wrong, it can only be Int(int32) or Long(int64) depending on whether out_int32 flag is True, but we got output tensor's dtype ${torchTypeName(out.dtype)} and out_int32 flag is ${outInt32 ? 'True' : 'False'}`);
    }
  }
  const m = seq.sizes[seq.sizes.length - 1];
  // (the product of the leading dims, not numel / m: with empty rows (m = 0) that would be 0
  // rows, an empty view of the output, and the output would never be written)
  const rows = seq.sizes.slice(0, -1).reduce((a, s) => a * s, 1);
  const k = value.sizes.length === 0 ? 1 : value.sizes[value.sizes.length - 1];
  const vrows = seq.sizes.length === 1 ? value.numel / Math.max(k, 1) : rows;
  const result = out ?? TensorImpl.empty(op, value.sizes, outDtype, device);
  if (value.numel === 0) return result;
  // PyTorch's dtype check lives in its kernel, which empty values never reach
  if (compute === 'bool') {
    if (!out) result.release();
    throw new DTypeError(`${op}: "searchsorted_out_cpu" not implemented for 'Bool'`);
  }
  const temps: TensorImpl[] = [];
  try {
    const bd = contiguousAs(b, op, seq, compute, seq.sizes.length === 1 ? [1, m] : [rows, m]);
    temps.push(bd);
    const v = contiguousAs(b, op, value, compute, seq.sizes.length === 1 ? [1, value.numel] : [vrows, k]);
    temps.push(v);
    const so = sorter ? contiguousAs(b, op, sorter, 'int64', bd.sizes) : null;
    if (so) temps.push(so);
    const dst = result.isContiguous ? result : TensorImpl.empty(op, value.sizes, outDtype, device);
    if (dst !== result) temps.push(dst);
    const dst2 = dst.view(v.sizes, contiguousStrides(v.sizes), dst.storageOffset);
    temps.push(dst2);
    implOf(b, 'searchsorted', op)(dst2, bd, v, right, so);
    if (dst !== result) implOf(b, 'copy', op)(result, dst);
  } catch (e) {
    if (!out) result.release();
    throw e;
  } finally {
    releaseAll(temps);
  }
  return result;
}

const SEARCHSORTED_ARGS = 'bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None';
export const SEARCHSORTED = defineStructured(
  `searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, ${SEARCHSORTED_ARGS}) -> Tensor`,
  ([seq, self, outInt32, right, side, sorter], b) =>
    runSearchsorted(b, 'searchsorted', seq, self, outInt32 === true, resolveRight('searchsorted', right, side), sorter ?? null, null),
);
const SEARCHSORTED_OUT = defineStructured(
  `searchsorted.Tensor_out(Tensor sorted_sequence, Tensor self, *, ${SEARCHSORTED_ARGS}, Tensor(a!) out) -> Tensor(a!)`,
  ([seq, self, outInt32, right, side, sorter, out], b) =>
    runSearchsorted(b, 'searchsorted', seq, self, outInt32 === true, resolveRight('searchsorted', right, side), sorter ?? null, out),
  ['out'],
);

function checkBucketBoundaries(op: string, boundaries: TensorImpl): void {
  if (boundaries.sizes.length !== 1) throw new ShapeError(`${op}: boundaries tensor must be 1 dimension, but got dim(${boundaries.sizes.length})`);
}

export const BUCKETIZE = defineStructured(
  'bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor',
  ([self, boundaries, outInt32, right], b) => {
    checkBucketBoundaries('bucketize', boundaries);
    return runSearchsorted(b, 'bucketize', boundaries, self, outInt32 === true, right === true, null, null);
  },
);
const BUCKETIZE_OUT = defineStructured(
  'bucketize.Tensor_out(Tensor self, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor(a!) out) -> Tensor(a!)',
  ([self, boundaries, outInt32, right, out], b) => {
    checkBucketBoundaries('bucketize', boundaries);
    return runSearchsorted(b, 'bucketize', boundaries, self, outInt32 === true, right === true, null, out);
  },
  ['out'],
);

// ---- unique ----
/**
 * Note [unique's outputs]
 * How many distinct elements there are is known only after the kernel ran (PyTorch syncs
 * here too). Core allocates the values and counts at the upper bound (one per row) and the
 * impl returns the count; the results are the first `u` rows of those buffers. unique with a
 * dim moves that dim first and flattens the rest into rows. On a backend that reads
 * asynchronously only (WebGPU) the sync form refuses after the argument checks and
 * `uniqueAsync` awaits the count first (Note [Data-dependent sizes on async-read backends]).
 */
function uniqueRows(b: Backend, s: TensorImpl, dim: number | null, known: () => number | null): { rows: TensorImpl; d: number; rest: number[]; count: number | null } {
  const op = 'unique';
  if (dim === null) {
    const count = known();
    return { rows: contiguousAs(b, op, s, s.dtype, [s.numel, 1]), d: 0, rest: [], count };
  }
  if (s.sizes.length === 0) normalizeDim(op, dim, 0, { wrapScalar: false });
  const d = normalizeDim(op, dim, s.sizes.length);
  const perm = [d, ...s.sizes.map((_, i) => i).filter((i) => i !== d)];
  const rest = perm.slice(1).map((p) => s.sizes[p]);
  const m = rest.reduce((x, y) => x * y, 1);
  if (s.sizes[d] > 0 && m === 0) {
    throw new TorchError(`${op}: Number of zero sized dimensions is more than one, so unique cannot be applied`);
  }
  const count = known();
  const moved = s.view(perm.map((p) => s.sizes[p]), perm.map((p) => s.strides[p]), s.storageOffset);
  try {
    return { rows: contiguousAs(b, op, moved, s.dtype, [s.sizes[d], m]), d, rest, count };
  } finally {
    moved.release();
  }
}

/** The count for the sync form: a known one (uniqueAsync), else null to count in the kernel, else the refusal. */
function knownUniqueCount(s: TensorImpl): number | null {
  const known = takeKnownCount();
  if (known === null && countsAreAsync(s.device)) throw dataDependentError('unique', s.device);
  return known;
}

function runUnique(b: Backend, s: TensorImpl, dim: number | null): TensorImpl[] {
  const op = 'unique';
  const { rows, d, rest, count } = uniqueRows(b, s, dim, () => knownUniqueCount(s));
  const n = rows.sizes[0];
  const values = TensorImpl.empty(op, rows.sizes, s.dtype, s.device);
  const inverse = TensorImpl.empty(op, [n], 'int64', s.device);
  const counts = TensorImpl.empty(op, [n], 'int64', s.device);
  let u = 0;
  try {
    if (n === 0) u = 0;
    else if (count !== null) {
      // (a count awaited earlier: the impl writes no group past it)
      implOf(b, 'unique', op)(values, inverse, counts, rows, count);
      u = Math.min(count, n);
    } else u = implOf(b, 'unique', op)(values, inverse, counts, rows, null);
  } catch (e) {
    releaseAll([values, inverse, counts]);
    throw e;
  } finally {
    rows.release();
  }
  const outCounts = counts.regeometried([u], [1], 0);
  counts.release();
  let outValues: TensorImpl;
  let outInverse: TensorImpl;
  if (dim === null) {
    outValues = values.regeometried([u], [1], 0);
    outInverse = inverse.regeometried(s.sizes, contiguousStrides(s.sizes), 0);
  } else {
    // rows [u, m] back to [u, ...rest], then dim u moved back to d (a contiguous copy)
    const movedSizes = [u, ...rest];
    const movedStrides = contiguousStrides(movedSizes);
    const sizes = s.sizes.map((x, i) => (i === d ? u : x));
    const strides = new Array<number>(sizes.length);
    const order = [d, ...s.sizes.map((_, i) => i).filter((i) => i !== d)];
    order.forEach((p, k) => (strides[p] = movedStrides[k]));
    const v = values.view(sizes, strides, 0);
    outValues = TensorImpl.empty(op, sizes, s.dtype, s.device);
    try {
      if (outValues.numel > 0) implOf(b, 'copy', op)(outValues, v);
    } finally {
      v.release();
    }
    outInverse = inverse.regeometried([n], [1], 0);
  }
  values.release();
  inverse.release();
  return [outValues, outInverse, outCounts];
}

export const UNIQUE = defineStructured(
  '_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)',
  ([self], b) => runUnique(b, self, null),
);
export const UNIQUE_DIM = defineStructured(
  'unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)',
  ([self, dim], b) => runUnique(b, self, dim),
);

// ---- argsort (sort's indices) ----
export const ARGSORT = defineComposite('argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor', ([self, stable, dim, descending]) => {
    const [values, indices] = callMulti(SORT, [self.impl, stable, dim, descending]);
    values.dispose();
    return indices;
  });

// ---- front ends ----
// (Note [Front ends are declared once]: `x.sort(0, true)` is descending along dim 0)

/** The sorted values along `dim` and their positions in the input (stable where asked; NaN sorts above every number). */
export const sort = front(
  'sort(Tensor self, int dim=-1, bool descending=False, *, bool? stable=None, Tensor[]? out=None) -> (Tensor, Tensor)').run(
  ([self, dim, descending, stable, out]): ValuesIndices => {
    const r = valuesIndices(callMulti(SORT, [unwrapTensor('sort', 'self', self), stable ?? null, dim, descending]));
    return out ? writeValuesIndicesOut('sort', r, out) : r;
  },
);
export type SortOptions = OptionsOf<typeof sort>;

/** The positions that sort the input along `dim` (sort's indices). */
export const argsort = front('argsort(Tensor self, int dim=-1, bool descending=False, *, bool stable=False) -> Tensor').run(([self, dim, descending, stable]): Tensor =>
  callFunctional(ARGSORT, [unwrapTensor('argsort', 'self', self), stable, dim, descending]),
);

/** The `k` largest (or smallest) values along `dim` and their positions. */
export const topk = front('topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor[]? out=None) -> (Tensor, Tensor)').run(
  ([self, k, dim, largest, sorted, out]): ValuesIndices => {
    const r = valuesIndices(callMulti(TOPK, [unwrapTensor('topk', 'self', self), k, dim, largest, sorted]));
    return out ? writeValuesIndicesOut('topk', r, out) : r;
  },
);
export type TopkOptions = OptionsOf<typeof topk>;

const UNIQUE_SCHEMA = 'unique(Tensor input, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor';

function runUniqueFront(self: Tensor, sorted: boolean, inv: boolean, cnt: boolean, dim: number | undefined): Tensor | Tensor[] {
  const s = unwrapTensor('unique', 'self', self);
  const parts = dim == null ? callMulti(UNIQUE, [s, sorted, inv, cnt]) : callMulti(UNIQUE_DIM, [s, dim, sorted, inv, cnt]);
  const keep = [true, inv, cnt];
  parts.forEach((p, i) => {
    if (!keep[i]) p.dispose();
  });
  const result = parts.filter((_, i) => keep[i]);
  return result.length === 1 ? result[0] : result;
}

/**
 * `torch.unique(x, { sorted, returnInverse, returnCounts, dim })`: the sorted distinct values
 * alone, or an array [values, inverse?, counts?] when a flag asks for more (as PyTorch's tuple).
 */
export const unique = front(UNIQUE_SCHEMA).run(([self, sorted, inv, cnt, dim]): Tensor | Tensor[] => runUniqueFront(self, sorted, inv, cnt, dim));
export type UniqueOptions = OptionsOf<typeof unique>;

/**
 * `await torch.uniqueAsync(x, options)`: `unique` on any device, with the same options and
 * results. On a device that reads asynchronously only (WebGPU) the number of distinct values
 * (rows, with `dim`) is counted on the device and read first (4 bytes, the sync CUDA makes
 * too), then `unique` runs with it known; elsewhere it is `unique` (Note [Data-dependent sizes
 * on async-read backends]).
 */
export const uniqueAsync = front(UNIQUE_SCHEMA, { name: 'uniqueAsync' }).run(
  async ([self, sorted, returnInverse, returnCounts, dim]): Promise<Tensor | Tensor[]> => {
    const s = unwrapTensor('unique', 'self', self);
    const b = backendOf(backendKeyOf(s.device.type));
    if (!b || !countsAreAsync(s.device)) return runUniqueFront(self, sorted, returnInverse, returnCounts, dim);
    // the sync form's checks first (in uniqueRows), so that a bad call reads nothing
    const { rows } = uniqueRows(b, s, dim ?? null, () => null);
    let n: number;
    try {
      n = await countUniqueAsync(rows);
    } finally {
      rows.release();
    }
    return withKnownCounts([n], () => runUniqueFront(self, sorted, returnInverse, returnCounts, dim));
  },
);

const SEARCHSORTED_SCHEMAS = [
  'searchsorted(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor? out=None) -> Tensor',
  'searchsorted(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None, Tensor? out=None) -> Tensor',
] as const;

/** `torch.searchsorted(sortedSequence, values, { right, side, sorter, outInt32, out })`; `values` (keyword `input`) may be a Scalar. */
export const searchsorted = overloadedFront(SEARCHSORTED_SCHEMAS, { method: false, choices: { side: ['left', 'right'] } }).run(
  ({ values: [sortedSequence, values, outInt32, right, side, sorter, out] }): Tensor => {
    const seq = unwrapTensor('searchsorted', 'sorted_sequence', sortedSequence);
    const v = unwrapTensorOrScalar('searchsorted', 'self', values);
    let value: TensorImpl;
    let temp: TensorImpl | null = null;
    if (v instanceof TensorImpl) value = v;
    else {
      if (seq.sizes.length !== 1) {
        throw new ShapeError(`searchsorted: input value can be a scalar only when boundaries tensor dimension is 1, but we got boundaries tensor dim(${seq.sizes.length}) and input value's dim(0) numel(1)`);
      }
      temp = scalarOf(v, seq);
      value = temp;
    }
    try {
      const so = sorter ? unwrapTensor('searchsorted', 'sorter', sorter) : null;
      if (out) return callMutating(SEARCHSORTED_OUT, [seq, value, outInt32, right, side ?? null, so, unwrapTensor('searchsorted', 'out', out)], out);
      return callFunctional(SEARCHSORTED, [seq, value, outInt32, right, side ?? null, so]);
    } finally {
      temp?.release();
    }
  },
);
export type SearchsortedOptions = OptionsOf<typeof searchsorted>;

function scalarOf(v: Scalar, like: TensorImpl): TensorImpl {
  const dtype = resultType('searchsorted', [{ dtype: like.dtype, shape: like.sizes }, v]);
  const t = TensorImpl.empty('searchsorted', [], dtype, like.device);
  try {
    callBoxed(FILL_, [t, v]);
  } catch (e) {
    t.release();
    throw e;
  }
  return t;
}


/** The index of the bucket of `boundaries` each element falls in. */
export const bucketize = front('bucketize(Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False, Tensor? out=None) -> Tensor', { method: false }).run(
  ([self, boundaries, outInt32, right, out]): Tensor => {
    const x = unwrapTensor('bucketize', 'self', self);
    const b = unwrapTensor('bucketize', 'boundaries', boundaries);
    if (out) return callMutating(BUCKETIZE_OUT, [x, b, outInt32, right, unwrapTensor('bucketize', 'out', out)], out);
    return callFunctional(BUCKETIZE, [x, b, outInt32, right]);
  },
);
export type BucketizeOptions = OptionsOf<typeof bucketize>;
