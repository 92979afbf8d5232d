import type { DType } from '../dtype';
import { IndexError } from '../errors';
import { reductionGeometry } from '../iterator';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides, normalizeDim } from '../views';
import { castTo, releaseAll } from './meta-utils';
import { implOf, type Backend } from './registry';

/**
 * The meta of the reductions, shared by the op table's reduction rows (reduction-table.ts)
 * and the hand-written ones (max/min, var/std, norm, median, mode).
 *
 * Note [Reduction outputs]
 * Core allocates a reduction's result contiguous at the keepdim shape (size 1 in reduced
 * dims), which is what the impl fills; without keepdim the user gets a view of it with the
 * reduced dims dropped. The impl writes every output element (identity for empty inputs).
 */

/** `t` (contiguous, keepdim sizes) viewed at `sizes` without the reduced dims; consumes `t`. */
export function dropDims(t: TensorImpl, sizes: readonly number[]): TensorImpl {
  const v = t.regeometried(sizes, contiguousStrides(sizes), t.storageOffset);
  t.release();
  return v;
}

/** A ReduceImpl reduction (sum, prod, amax, amin) over `dims` (null or []: every dim), in `outDtype`. */
export function reduce(
  b: Backend,
  op: string,
  impl: 'sum' | 'prod' | 'amax' | 'amin',
  self: TensorImpl,
  dims: readonly number[] | null,
  keepdim: boolean,
  outDtype: DType,
): TensorImpl {
  const geom = reductionGeometry(op, self.sizes, self.strides, dims ?? [], keepdim);
  const input = castTo(b, op, self, outDtype, self.device);
  const full = TensorImpl.empty(op, geom.keepdimSizes, outDtype, self.device);
  try {
    if (geom.dims.length > 0 || self.sizes.length === 0) implOf(b, impl, op)(full, input, geom.dims);
    else implOf(b, 'copy', op)(full, input);
  } catch (e) {
    full.release();
    throw e;
  } finally {
    input.release();
  }
  return keepdim ? full : dropDims(full, geom.sizes);
}

/** PyTorch's refusal of an empty reduction without an identity (amax, max): no dim, or an empty reduced dim. */
export function requireNonEmpty(op: string, self: TensorImpl, dims: readonly number[] | null): void {
  if (self.numel !== 0) return;
  if (dims === null || dims.length === 0) {
    throw new IndexError(
      `${op}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`,
    );
  }
  for (const d of dims) {
    const nd = normalizeDim(op, d, self.sizes.length);
    if (self.sizes[nd] === 0) throw new IndexError(`${op}(): Expected reduction dim ${nd} to have non-zero size.`);
  }
}

/** A contiguous copy of `s` (any strides) as a flat [numel] tensor. */
export function flatCopy(b: Backend, s: TensorImpl): TensorImpl {
  const out = TensorImpl.empty('flatten', [s.numel], s.dtype, s.device);
  const v = out.view(s.sizes, contiguousStrides(s.sizes), 0);
  try {
    implOf(b, 'copy', 'flatten')(v, s);
  } finally {
    v.release();
  }
  return out;
}

/** argmax / argmin: the int64 position along `dim`, or in the flattened input without one. */
export function argIndex(b: Backend, name: string, impl: 'argmax' | 'argmin', s: TensorImpl, dim: number | null, keepdim: boolean): TensorImpl {
  if (dim === null) {
    if (s.numel === 0) throw new IndexError(`${name}(): Expected reduction dim to be specified for input.numel() == 0.`);
    // Over all elements: reduce a flat contiguous copy; the result is 0-dim (or all-ones with keepdim).
    const flat = s.isContiguous ? s.view([s.numel], [1], s.storageOffset) : flatCopy(b, s);
    const idx = TensorImpl.empty(name, [1], 'int64', s.device);
    try {
      implOf(b, impl, name)(null, idx, flat, 0);
    } catch (e) {
      idx.release(); // a backend that rejects the dtype must not leak the output
      throw e;
    } finally {
      flat.release();
    }
    const sizes = keepdim ? s.sizes.map(() => 1) : [];
    return dropDims(idx, sizes);
  }
  const d = normalizeDim(name, dim, s.sizes.length);
  requireNonEmpty(name, s, [d]);
  const keep = s.sizes.map((n, i) => (i === d ? 1 : n));
  const idx = TensorImpl.empty(name, keep, 'int64', s.device);
  try {
    if (s.sizes.length === 0) implOf(b, 'fill', name)(idx, 0);
    else implOf(b, impl, name)(null, idx, s, d);
  } catch (e) {
    idx.release();
    throw e;
  }
  return keepdim || s.sizes.length === 0 ? idx : dropDims(idx, s.sizes.filter((_, i) => i !== d));
}

// ---- row reductions (Note [Row reductions] in reduction-stats-impls.ts) ----

/** A contiguous copy (or the tensor itself) with the reduced dims last, in `dtype`. */
export interface Rows {
  readonly work: TensorImpl;
  readonly rowLength: number;
  readonly keepdimSizes: readonly number[];
  readonly sizes: readonly number[];
}

function toRows(b: Backend, op: string, self: TensorImpl, dims: readonly number[] | null, dtype: DType): Rows {
  const geom = reductionGeometry(op, self.sizes, self.strides, dims ?? [], false);
  const reduced = self.sizes.length === 0 ? [] : geom.dims;
  const kept = self.sizes.map((_, d) => d).filter((d) => !reduced.includes(d));
  const perm = [...kept, ...reduced];
  const pSizes = perm.map((d) => self.sizes[d]);
  const pStrides = perm.map((d) => self.strides[d]);
  const rowLength = reduced.reduce((n, d) => n * self.sizes[d], 1);
  const view = self.view(pSizes, pStrides, self.storageOffset);
  if (view.isContiguous && view.dtype === dtype) return { work: view, rowLength, keepdimSizes: geom.keepdimSizes, sizes: geom.sizes };
  const work = TensorImpl.empty(op, pSizes, dtype, self.device);
  try {
    implOf(b, 'copy', op)(work, view);
  } catch (e) {
    work.release();
    throw e;
  } finally {
    view.release();
  }
  return { work, rowLength, keepdimSizes: geom.keepdimSizes, sizes: geom.sizes };
}

/** Runs a row reduction into new outputs (one per dtype in `outDtypes`) of the reduced shape. */
export function rowReduce(
  b: Backend,
  op: string,
  self: TensorImpl,
  dims: readonly number[] | null,
  keepdim: boolean,
  computeDtype: DType,
  outDtypes: readonly DType[],
  run: (outs: TensorImpl[], rows: Rows) => void,
): TensorImpl[] {
  const rows = toRows(b, op, self, dims, computeDtype);
  const outs: TensorImpl[] = [];
  try {
    for (const d of outDtypes) outs.push(TensorImpl.empty(op, rows.keepdimSizes, d, self.device));
    run(outs, rows);
  } catch (e) {
    releaseAll(outs);
    throw e;
  } finally {
    rows.work.release();
  }
  return keepdim ? outs : outs.map((o) => dropDims(o, rows.sizes));
}

/** float64 stays float64; every other floating dtype computes in float32 (PyTorch's opmath). */
export function opmath(d: DType): DType {
  return d === 'float64' ? 'float64' : 'float32';
}
