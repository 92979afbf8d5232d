/**
 * The host loops of the SparseCPU kernels (Note [Sparse COO tensors]), each PyTorch 1.13's
 * CPU algorithm (aten/src/ATen/native/sparse/SparseTensor.cpp, SparseTensorMath.cpp) so that
 * the order of entries and of floating-point sums is PyTorch's:
 *  - coalesce: entries stably sorted by their row-major linear index over the sparse dims, the
 *    values of equal indices summed in that order;
 *  - sparse + sparse: one merge walk over both entry lists (`add_out_sparse_contiguous`): where
 *    the current indices are equal the entries are summed into one, else the smaller is taken;
 *    sorted inputs give a coalesced result, others an uncoalesced one;
 *  - dense + sparse: each entry's value (times alpha) added into its dense block, in entry order.
 * Members are contiguous (indices int64, values of the tensor's dtype) on the CPU; values are
 * read and written as lanes (Note [Sparse values are lanes] in sparse-lanes.ts), so every dtype
 * is summed in its own arithmetic.
 */
import { CPU } from '../device';
import { isIntegralType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { torchTypeName } from '../ops/meta-utils';
import { TensorImpl } from '../tensor/tensor-impl';
import { SparseTensorImpl } from './sparse-tensor-impl';
import { laneAxpy, lanesOf, laneWidth, negateLanes, type Lanes } from './sparse-lanes';

export function indicesOf(t: SparseTensorImpl): BigInt64Array {
  const i = t.indices;
  return i.storage.typed(BigInt64Array).subarray(i.storageOffset, i.storageOffset + i.numel);
}

/** The lanes of a contiguous tensor (Note [Sparse values are lanes]). */
export const valuesOf = lanesOf;

/** The number of lanes of one entry's dense block. */
export function blockSize(t: SparseTensorImpl): number {
  let n = laneWidth(t.dtype);
  for (let d = t.sparseDim; d < t.dim; d++) n *= t.sizes[d];
  return n;
}

/** Sets every lane to zero. */
function zeroLanes(a: Lanes): void {
  if (a instanceof BigInt64Array) a.fill(0n);
  else a.fill(0);
}

/** Row-major linear index of entry k over the sparse dims. */
export function linearIndices(t: SparseTensorImpl): number[] {
  const idx = indicesOf(t);
  const nnz = t.nnz;
  const sd = t.sparseDim;
  const out = new Array<number>(nnz).fill(0);
  for (let d = 0; d < sd; d++) {
    const size = t.sizes[d];
    for (let k = 0; k < nnz; k++) out[k] = out[k] * size + Number(idx[d * nnz + k]);
  }
  return out;
}

/** New members [sparseDim, nnz] and [nnz, ...dense] on the CPU. */
export function newMembers(op: string, t: SparseTensorImpl, nnz: number, dtype: DType = t.dtype): [TensorImpl, TensorImpl] {
  const indices = TensorImpl.empty(op, [t.sparseDim, nnz], 'int64', CPU);
  const values = TensorImpl.empty(op, [nnz, ...t.sizes.slice(t.sparseDim)], dtype, CPU);
  return [indices, values];
}

/** A new sparse tensor of `t`'s size over fresh members (their references pass to it). */
export function adopt(sizes: readonly number[], indices: TensorImpl, values: TensorImpl, coalesced: boolean): SparseTensorImpl {
  const r = new SparseTensorImpl(sizes, indices, values, coalesced);
  indices.release();
  values.release();
  return r;
}

/** `_coalesce`: PyTorch's coalesce_cpu (an nnz below 2 is a copy marked coalesced). */
export function coalesce(t: SparseTensorImpl): SparseTensorImpl {
  const nnz = t.nnz;
  const sd = t.sparseDim;
  const bs = blockSize(t);
  const lin = linearIndices(t);
  const perm = Array.from(lin, (_, k) => k).sort((a, b) => lin[a] - lin[b] || a - b);
  let unique = 0;
  for (let j = 0; j < nnz; j++) if (j === 0 || lin[perm[j]] !== lin[perm[j - 1]]) unique++;
  const [indices, values] = newMembers('coalesce', t, nnz < 2 ? nnz : unique);
  const src = indicesOf(t);
  const dst = indices.storage.typed(BigInt64Array);
  const sv = valuesOf(t.values);
  const dv = valuesOf(values);
  const add = laneAxpy(t.dtype, 1);
  const n = nnz < 2 ? nnz : unique;
  let r = -1;
  for (let j = 0; j < nnz; j++) {
    const k = perm[j];
    if (j === 0 || lin[k] !== lin[perm[j - 1]]) {
      r++;
      for (let d = 0; d < sd; d++) dst[d * n + r] = src[d * nnz + k];
      for (let e = 0; e < bs; e++) dv[r * bs + e] = sv[k * bs + e];
    } else {
      for (let e = 0; e < bs; e++) add(dv, r * bs + e, sv, k * bs + e);
    }
  }
  return adopt(t.sizes, indices, values, true);
}

/** `_to_dense`: zeros, then every entry added into its block (duplicates sum). */
export function toDense(t: SparseTensorImpl): TensorImpl {
  const out = TensorImpl.empty('to_dense', t.sizes, t.dtype, CPU);
  zeroLanes(valuesOf(out));
  addSparseInto(out, t, 1);
  return out;
}

/**
 * `dense += alpha * sparse` in entry order (add_out_dense_sparse_cpu), in the dtype's lane
 * arithmetic (Note [Sparse values are lanes]).
 */
export function addSparseInto(dense: TensorImpl, t: SparseTensorImpl, alpha: number): void {
  checkAlpha('add', t.dtype, alpha);
  const lin = linearIndices(t);
  const bs = blockSize(t);
  const dv = valuesOf(dense);
  const sv = valuesOf(t.values);
  const add = laneAxpy(t.dtype, alpha);
  for (let k = 0; k < lin.length; k++) {
    const base = lin[k] * bs;
    for (let e = 0; e < bs; e++) add(dv, base + e, sv, k * bs + e);
  }
}

/** PyTorch's alpha check: an integral (or bool) tensor takes an integral alpha. */
function checkAlpha(op: string, dtype: DType, alpha: number): void {
  if (isIntegralType(dtype, true) && !Number.isInteger(alpha)) {
    throw new TorchError(`${op}: For integral input tensors, argument alpha must not be a floating point number.`);
  }
}

/** `sparse + alpha * sparse` (add_out_sparse_cpu with its zero-nnz shortcuts and its merge walk). */
export function addSparse(t: SparseTensorImpl, s: SparseTensorImpl, alpha: number): SparseTensorImpl {
  if (t.sizes.length !== s.sizes.length || t.sizes.some((n, d) => n !== s.sizes[d])) {
    throw new ShapeError(`add: expected 'self' and 'other' to have same size, but self has size ${fmtShape(t.sizes)} while other has size ${fmtShape(s.sizes)}`);
  }
  if (t.sparseDim !== s.sparseDim) {
    throw new ShapeError(`add: expected 'self' and 'other' to have same sparse dims, but self has ${t.sparseDim} while other has ${s.sparseDim}`);
  }
  if (t.dtype !== s.dtype) throw new DTypeError(`add: torch-ts adds sparse tensors of one dtype, got ${t.dtype} and ${s.dtype}`);
  // (PyTorch's sparse + sparse CPU kernel has no 16-bit float or bool instantiation)
  if (t.dtype === 'float16' || t.dtype === 'bfloat16' || t.dtype === 'bool') {
    throw new DTypeError(`add: "cadd_sparse" not implemented for '${torchTypeName(t.dtype)}'`);
  }
  checkAlpha('add', t.dtype, alpha);
  if (s.nnz === 0) return copySparse('add', t);
  if (t.nnz === 0) return scaleSparse('add', s, alpha);
  const tn = t.nnz;
  const sn = s.nnz;
  const sd = t.sparseDim;
  const bs = blockSize(t);
  const ti = indicesOf(t);
  const si = indicesOf(s);
  const tv = valuesOf(t.values);
  const sv = valuesOf(s.values);
  const ri = new BigInt64Array(sd * (tn + sn));
  const rv = new (tv.constructor as { new (n: number): Lanes })(bs * (tn + sn));
  const max = tn + sn;
  const addT = laneAxpy(t.dtype, 1);
  const addS = laneAxpy(t.dtype, alpha);
  let r = 0;
  let a = 0;
  let b = 0;
  while (a < tn || b < sn) {
    let cmp = 0;
    if (a >= tn) cmp = -1;
    else if (b >= sn) cmp = 1;
    else {
      for (let d = 0; d < sd; d++) {
        if (ti[d * tn + a] < si[d * sn + b]) {
          cmp = 1;
          break;
        }
        if (ti[d * tn + a] > si[d * sn + b]) {
          cmp = -1;
          break;
        }
      }
    }
    if (cmp >= 0) {
      for (let d = 0; d < sd; d++) ri[d * max + r] = ti[d * tn + a];
      for (let e = 0; e < bs; e++) addT(rv, r * bs + e, tv, a * bs + e);
      a++;
    }
    if (cmp <= 0) {
      for (let d = 0; d < sd; d++) ri[d * max + r] = si[d * sn + b];
      for (let e = 0; e < bs; e++) addS(rv, r * bs + e, sv, b * bs + e);
      b++;
    }
    r++;
  }
  const [indices, values] = newMembers('add', t, r);
  const di = indices.storage.typed(BigInt64Array);
  for (let d = 0; d < sd; d++) di.set(ri.subarray(d * max, d * max + r), d * r);
  (valuesOf(values) as Float64Array).set(rv.subarray(0, r * bs) as Float64Array);
  return adopt(t.sizes, indices, values, t.coalesced && s.coalesced);
}

/** A sparse tensor with copies of `t`'s members and its coalesced flag (copy_sparse_to_sparse_). */
export function copySparse(op: string, t: SparseTensorImpl): SparseTensorImpl {
  return scaleSparse(op, t, 1);
}

/**
 * `t * c` for a number `c` of the tensor's kind, in the dtype's lane arithmetic, the indices
 * copied: a copy (1), neg (-1), or `alpha * other` of add's shortcuts. (`mul` by a number goes
 * through the dense mul of the values, for its type promotion: sparse-ops.ts.)
 */
export function scaleSparse(op: string, t: SparseTensorImpl, c: number): SparseTensorImpl {
  checkAlpha(op, t.dtype, c);
  const [indices, values] = newMembers(op, t, t.nnz);
  indices.storage.typed(BigInt64Array).set(indicesOf(t));
  const dv = valuesOf(values);
  const sv = valuesOf(t.values);
  if (c === 1) (dv as Float64Array).set(sv as Float64Array);
  else if (c === -1) negateLanes(t.dtype, dv, sv);
  else {
    zeroLanes(dv);
    const add = laneAxpy(t.dtype, c);
    for (let e = 0; e < sv.length; e++) add(dv, e, sv, e);
  }
  return adopt(t.sizes, indices, values, t.coalesced);
}

/** `dense.sparse_mask(mask)` for a coalesced mask: the dense values at the mask's entries, in its order, coalesced. */
export function sparseMask(dense: TensorImpl, mask: SparseTensorImpl): SparseTensorImpl {
  if (dense.sizes.length !== mask.sizes.length || dense.sizes.some((n, d) => n !== mask.sizes[d])) {
    throw new ShapeError(`sparse_mask: operands have incompatible sizes; self has size ${fmtShape(dense.sizes)} but mask has size ${fmtShape(mask.sizes)}`);
  }
  if (!dense.isContiguous) throw new TorchError('sparse_mask: torch-ts reads a contiguous self only; call .contiguous() first');
  const lin = linearIndices(mask);
  // (the block in the lanes of the dense tensor's dtype, which may be another than the mask's)
  const bs = (blockSize(mask) / laneWidth(mask.dtype)) * laneWidth(dense.dtype);
  const [indices, values] = newMembers('sparse_mask', mask, mask.nnz, dense.dtype);
  indices.storage.typed(BigInt64Array).set(indicesOf(mask));
  const dv = valuesOf(values);
  const sv = valuesOf(dense);
  for (let k = 0; k < lin.length; k++) (dv as Float64Array).set(sv.subarray(lin[k] * bs, lin[k] * bs + bs) as Float64Array, k * bs);
  return adopt(mask.sizes, indices, values, mask.coalesced);
}
