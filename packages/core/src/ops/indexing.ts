import { DTypeError, IndexError, ShapeError, TorchError, TorchTypeError, fmtShape } from '../errors';
import { broadcastShapes } from '../iterator';
import { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { TensorImpl } from '../tensor/tensor-impl';
import { advancedIndexShape, applyBasicIndexing, type AdvancedIndex, type AdvancedIndexShape, type BasicViewStep, type TensorIndexLike } from '../views';
import { typeName } from './binder';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { copy_ } from './copy';
import { front, type OptionsOf } from './front';
import { empty, full, tensor as makeTensor } from './factories';
import type { IndexedAccess } from './indexing-impls';
import { broadcastTo, checkNoInternalOverlap, commonDevice, isScalar, readScalar, torchTypeName, type Scalar } from './meta-utils';
import { defineStructured, implOf } from './registry';
import { alias, asStrided, expand, geometryOf, select, sliceDim, unsqueeze } from './views';
import { checkCountReadable, countNonzeroAsync, countsAreAsync, withKnownCounts, withScatterCheck } from './data-dependent';
import { stack } from './join';
import { cloneToWrite } from '../batched/physical';
import { isBatchedImpl } from '../batched/batched-tensor';

/**
 * Advanced indexing: `x.index(...)` with index tensors (aten::index.Tensor) and
 * `x.indexPut_(indices, values)` (aten::index_put_).
 *
 * Note [Packed advanced indices]
 * PyTorch's ops take a list `Tensor?[] indices` (None for a dim left alone). torch-ts's
 * kernel ops take the same information as ONE int64 tensor `indices` of shape [k, ...B]
 * (the k index tensors, masks already turned into integer indices by nonzero, broadcast to
 * their common shape B and stacked) plus `dims`, the k dims of `self` they index (ascending,
 * distinct). A fixed number of tensor arguments is what the autograd package saves and
 * version-checks (its saved variables are per argument), and the kernels need exactly this
 * form anyway. The front ends below do the packing; the kernel ops are `index.packed`
 * (IndexBackward0) and `index_put_.packed` (IndexPutBackward0).
 */

/** The iteration layout of an indexing by packed indices (Note [Advanced index placement]). */
interface PackedLayout {
  /** The result shape of `self[indices]`, which is also the iteration shape. */
  readonly sizes: number[];
  /** The access (views owned by the caller: `release()` them). */
  readonly access: IndexedAccess;
  release(): void;
}

function checkPacked(op: string, self: TensorImpl, indices: TensorImpl, dims: readonly number[]): void {
  if (indices.dtype !== 'int64') throw new DTypeError(`${op}: packed indices must be int64, got ${torchTypeName(indices.dtype)}`);
  if (indices.sizes.length < 1 || indices.sizes[0] !== dims.length || dims.length === 0) {
    throw new ShapeError(`${op}: packed indices of shape ${fmtShape(indices.sizes)} do not match dims [${dims.join(', ')}]`);
  }
  dims.forEach((d, i) => {
    if (!Number.isInteger(d) || d < 0 || d >= self.sizes.length || (i > 0 && d <= dims[i - 1])) {
      throw new IndexError(`${op}: dims [${dims.join(', ')}] must be ascending dims of a tensor of dimension ${self.sizes.length}`);
    }
  });
}

function packedLayout(op: string, self: TensorImpl, indices: TensorImpl, dims: readonly number[]): PackedLayout {
  checkPacked(op, self, indices, dims);
  const b = indices.sizes.slice(1);
  const covered = new Set(dims);
  const adjacent = dims.every((d, i) => i === 0 || d === dims[i - 1] + 1);
  // Each iteration dim is either dim j of B or an untouched dim of self.
  type Slot = { b: number } | { self: number };
  const slots: Slot[] = [];
  const bSlots: Slot[] = b.map((_, j) => ({ b: j }));
  if (!adjacent) slots.push(...bSlots);
  for (let d = 0; d < self.sizes.length; d++) {
    if (covered.has(d)) {
      if (adjacent && d === dims[0]) slots.push(...bSlots);
      continue;
    }
    slots.push({ self: d });
  }
  const sizes = slots.map((s) => ('b' in s ? b[s.b] : self.sizes[s.self]));
  const dataStrides = slots.map((s) => ('b' in s ? 0 : self.strides[s.self]));
  const data = self.view(sizes, dataStrides, self.storageOffset);
  const views = dims.map((_, k) =>
    indices.view(
      sizes,
      slots.map((s) => ('b' in s ? indices.strides[1 + s.b] : 0)),
      indices.storageOffset + k * indices.strides[0],
    ),
  );
  return {
    sizes,
    access: { data, indices: views, strides: dims.map((d) => self.strides[d]), sizes: dims.map((d) => self.sizes[d]), dims },
    release() {
      data.release();
      for (const v of views) v.release();
    },
  };
}

export const INDEX_PACKED = defineStructured(
  'index.packed(Tensor self, Tensor indices, int[] dims) -> Tensor',
  ([self, indices, dims], b) => {
    const s = self;
    const ix = indices;
    commonDevice('index', [s, ix]);
    const layout = packedLayout('index', s, ix, dims);
    const out = TensorImpl.empty('index', layout.sizes, s.dtype, s.device);
    try {
      implOf(b, 'indexGather', 'index')('index', out, layout.access, 'wrap');
    } catch (e) {
      out.release();
      throw e;
    } finally {
      layout.release();
    }
    return out;
  },
);

export const INDEX_PUT_PACKED = defineStructured(
  'index_put_.packed(Tensor(a!) self, Tensor indices, int[] dims, Tensor values, bool accumulate=False) -> Tensor(a!)',
  ([self, indices, dims, values, accumulate], b) => {
    const s = self;
    const ix = indices;
    const v = values;
    commonDevice('index_put_', [s, ix, v]);
    if (v.dtype !== s.dtype) {
      throw new DTypeError(
        `index_put_: Index put requires the source and destination dtypes match, got ${torchTypeName(s.dtype)} for the destination and ${torchTypeName(v.dtype)} for the source.`,
      );
    }
    checkNoInternalOverlap('index_put_', s);
    const layout = packedLayout('index_put_', s, ix, dims);
    try {
      if (!canBroadcastTo(v.sizes, layout.sizes)) {
        throw new ShapeError(
          `index_put_: shape mismatch: value tensor of shape ${fmtShape(v.sizes)} cannot be broadcast to indexing result of shape ${fmtShape(layout.sizes)}`,
        );
      }
      const src = broadcastTo(v, layout.sizes);
      try {
        implOf(b, 'indexScatter', 'index_put_')('index_put_', layout.access, src, accumulate === true ? 'add' : 'set', 1, 'wrap');
      } finally {
        src.release();
      }
    } finally {
      layout.release();
    }
    return s;
  },
  ['inplace'],
);

/** Whether `from` broadcasts to exactly `to` (right-aligned, size 1 stretches). */
function canBroadcastTo(from: readonly number[], to: readonly number[]): boolean {
  if (from.length > to.length) return false;
  const lead = to.length - from.length;
  return from.every((n, i) => n === 1 || n === to[lead + i]);
}

/** `self[packed]` through the dispatcher (the derivatives use it). */
export function indexPacked(self: Tensor, indices: Tensor, dims: readonly number[]): Tensor {
  return callFunctional(INDEX_PACKED, [unwrapTensor('index', 'self', self), unwrapTensor('index', 'indices', indices), [...dims]]);
}

/** `self[packed] = values` (or `+=` with accumulate) in place, through the dispatcher. */
export function indexPutPacked_(self: Tensor, indices: Tensor, dims: readonly number[], values: Tensor, accumulate = false): Tensor {
  return callMutating(
    INDEX_PUT_PACKED,
    [unwrapTensor('index_put_', 'self', self), unwrapTensor('index_put_', 'indices', indices), [...dims], unwrapTensor('index_put_', 'values', values), accumulate],
    self,
  );
}

// ---- front ends ----

const indexingOptions = {
  isTensorIndex: (x: unknown): x is TensorIndexLike => x instanceof Tensor,
  scalarValue: (x: TensorIndexLike): number | boolean | undefined => {
    const t = indexTensor(x);
    // (a batched 0-dim index has a value per sample: it stays an index tensor, as PyTorch
    // keeps a tensor subclass's, and the index rules batch it)
    if (t.device.type !== 'cpu' || t.dim() !== 0 || isBatchedImpl(t.impl)) return undefined;
    const v = readScalar(t.impl);
    return typeof v === 'bigint' ? Number(v) : v;
  },
};

/**
 * An index tensor of the parser's result as the Tensor it is: the parser keeps what
 * `indexingOptions.isTensorIndex` admitted, which is Tensors only.
 */
function indexTensor(x: TensorIndexLike): Tensor {
  if (x instanceof Tensor) return x;
  throw new TorchError('index: an index tensor that is not a Tensor');
}

/** The result of `nonzero` on a CPU-or-device bool tensor: [n, ndim] int64 (masks/booleans). */
type NonzeroFn = (mask: Tensor) => Tensor;
let nonzeroImpl: NonzeroFn | null = null;
/** masked.ts registers nonzero here (it imports this file; this breaks the cycle). */
export function setNonzero(fn: NonzeroFn): void {
  nonzeroImpl = fn;
}
function nonzeroOf(mask: Tensor): Tensor {
  if (!nonzeroImpl) throw new TorchError('index: nonzero is not registered');
  return nonzeroImpl(mask);
}

/**
 * The advanced entries of a basic indexing result as packed indices: integer index tensors
 * as they are (int32 cast to int64), masks and booleans through nonzero, every one checked
 * (dtype, mask shape) and broadcast to the common shape B. Returns null when there are none.
 * Runs inside the caller's tidy.
 */
/** The tensors of `advanced` that nonzero turns into indices (masks, 0-dim bool tensors), in packAdvanced's order. */
function maskTensorsOf(advanced: readonly AdvancedIndex[]): Tensor[] {
  const out: Tensor[] = [];
  for (const a of advanced) {
    if (a.kind === 'bool') {
      if (typeof a.index !== 'boolean') out.push(indexTensor(a.index));
    } else if (a.index.dtype === 'bool' || a.index.dtype === 'uint8') out.push(indexTensor(a.index));
  }
  return out;
}

/**
 * The checks of packAdvanced that need no count, in its order (index dtypes and index count,
 * then the masks' shapes), so that they come before any nonzero (Note [Data-dependent sizes
 * on async-read backends]).
 */
function checkMaskShapes(op: string, sizes: readonly number[], advanced: readonly AdvancedIndex[]): void {
  const entries: AdvancedIndexShape[] = [];
  for (const a of advanced) {
    const t = a.kind === 'tensor' ? indexTensor(a.index) : null;
    const mask = t !== null && (t.dtype === 'bool' || t.dtype === 'uint8');
    if (mask && a.dim + a.dims > sizes.length) throw new IndexError(`${op}: too many indices for tensor of dimension ${sizes.length}`);
    if (t !== null && !mask && t.dtype !== 'int64' && t.dtype !== 'int32') {
      throw new IndexError(`${op}: tensors used as indices must be long, int, byte or bool tensors (got ${torchTypeName(t.dtype)})`);
    }
    entries.push(t !== null && mask ? { dim: a.dim, dims: a.dims, shape: [], maskShape: t.shape } : { dim: a.dim, dims: a.dims, shape: [] });
  }
  advancedIndexShape(op, sizes, entries);
}

function packAdvanced(op: string, sizes: readonly number[], advanced: readonly AdvancedIndex[], device: Tensor['device']): { packed: Tensor; dims: number[] } {
  if (maskTensorsOf(advanced).length > 0) {
    // (Note [Data-dependent sizes on async-read backends]: refused before any work)
    checkMaskShapes(op, sizes, advanced);
    checkCountReadable(op, device);
  }
  const columns: Tensor[] = [];
  const dims: number[] = [];
  const entries: AdvancedIndexShape[] = [];
  for (const a of advanced) {
    if (a.kind === 'bool') {
      // true indexes the inserted size-1 dim by [0], false by []; a 0-dim bool tensor that
      // cannot be read synchronously (a device tensor) gives the same through nonzero.
      const col =
        typeof a.index === 'boolean'
          ? makeTensor(a.index ? [0] : [], { dtype: 'int64', device })
          : select(nonzeroOf(indexTensor(a.index).bool().reshape([1])), 1, 0);
      columns.push(col);
      dims.push(a.dim);
      entries.push({ dim: a.dim, dims: 1, shape: col.shape });
      continue;
    }
    const t = indexTensor(a.index);
    if (t.dtype === 'bool' || t.dtype === 'uint8') {
      const nz = nonzeroOf(t.dtype === 'bool' ? t : t.bool()); // [n, k]
      entries.push({ dim: a.dim, dims: a.dims, shape: [nz.shape[0]], maskShape: t.shape });
      if (a.dim + a.dims > sizes.length) throw new IndexError(`${op}: too many indices for tensor of dimension ${sizes.length}`);
      for (let j = 0; j < a.dims; j++) {
        columns.push(select(nz, 1, j));
        dims.push(a.dim + j);
      }
      continue;
    }
    if (t.dtype !== 'int64' && t.dtype !== 'int32') {
      throw new IndexError(`${op}: tensors used as indices must be long, int, byte or bool tensors (got ${torchTypeName(t.dtype)})`);
    }
    columns.push(t.dtype === 'int64' ? t : t.long());
    dims.push(a.dim);
    entries.push({ dim: a.dim, dims: 1, shape: t.shape });
  }
  advancedIndexShape(op, sizes, entries); // mask shapes, broadcasting and their messages
  const b = broadcastShapesAll(op, columns.map((c) => c.shape));
  // (stacked, not copied into an empty tensor: under vmap the columns may be batched)
  const packed = columns.length === 0 ? empty([0, ...b], { dtype: 'int64', device }) : stack(columns.map((c) => expand(c, b)), 0);
  return { packed, dims };
}

function broadcastShapesAll(op: string, shapes: readonly (readonly number[])[]): number[] {
  let out: readonly number[] = [];
  for (const s of shapes) out = broadcastShapes(op, out, s);
  return [...out];
}

/**
 * `x.index(0, ':', '1:5:2', null, '...', t)`: Python's `x[...]`. Numbers, slices, new axes
 * and ellipses give a view, made by the view ops PyTorch records (Note [Basic indexing as
 * view ops]), so autograd names them as PyTorch does. Index tensors (int64/int32), masks
 * (bool/uint8) and booleans then index that view by advanced indexing, a copy
 * (IndexBackward0), with PyTorch's placement of the indexed dims (Note [Advanced index
 * placement]).
 */
export function index(self: Tensor, ...items: unknown[]): Tensor {
  const r = applyBasicIndexing('index', geometryOf(self.impl), items, indexingOptions);
  if (r.advanced.length === 0) {
    // PyTorch returns an alias, never `self`, when no view op applies (`x[...]`)
    return r.steps.length === 0 ? alias(self) : tidy(() => basicView(self, r.steps));
  }
  return tidy(() => {
    const basic = basicView(self, r.steps);
    const { packed, dims } = packAdvanced('index', r.geometry.sizes, r.advanced, self.device);
    return indexPacked(basic, packed, dims);
  });
}

/** `self` through the view ops of basic indexing (inside a tidy: the intermediate views go with it). */
function basicView(self: Tensor, steps: readonly BasicViewStep[]): Tensor {
  let t = self;
  for (const s of steps) {
    if (s.kind === 'select') t = select(t, s.dim, s.index);
    else if (s.kind === 'slice') t = sliceDim(t, s.dim, s.start, s.end, s.step);
    else t = unsqueeze(t, s.dim);
  }
  return t;
}

/**
 * `await x.indexAsync(...indices)`: `x.index(...)` on any device, same grammar. With bool
 * masks on a device that reads asynchronously only (WebGPU), each mask's count is read first
 * (a 4-byte read each, as CUDA's sync), then `x.index` runs with the counts known; otherwise
 * it is `x.index(...)` (Note [Data-dependent sizes on async-read backends]). Autograd records
 * IndexBackward0 as the sync form does.
 */
export async function indexAsync(self: Tensor, ...items: unknown[]): Promise<Tensor> {
  if (!countsAreAsync(self.device)) return index(self, ...items);
  const r = applyBasicIndexing('index', geometryOf(self.impl), items, indexingOptions);
  const masks = maskTensorsOf(r.advanced);
  if (masks.length === 0) return index(self, ...items);
  checkMaskShapes('index', r.geometry.sizes, r.advanced);
  const counts: number[] = [];
  for (const m of masks) counts.push(await countNonzeroAsync(m.impl));
  return withKnownCounts(counts, () => index(self, ...items));
}

function sameGeometry(t: Tensor, g: { sizes: readonly number[]; strides: readonly number[]; offset: number }): boolean {
  const s = t.impl;
  return (
    s.storageOffset === g.offset &&
    s.sizes.length === g.sizes.length &&
    s.sizes.every((n, i) => n === g.sizes[i] && s.strides[i] === g.strides[i])
  );
}

// (`indices` holds index tensors, or null, numbers, slices and '...' as `x.index` does: the
// binder takes the list as is and applyBasicIndexing checks each item)

/**
 * `x.indexPut_(indices, values, { accumulate })`: `x[indices] = values` (aten::index_put_).
 * `indices` is an array with one entry per leading dim, as PyTorch's: an index tensor
 * (int64/int32; a bool/uint8 mask covers as many dims as it has), or null for a dim left
 * whole. Numbers, slice strings/objects and '...' are accepted too, and then the values are
 * written through the view they select (with autograd's CopySlices, as Python's
 * `x[0, idx] = v`). `values` broadcasts to the indexing result and must have x's dtype (a
 * JS scalar is taken in x's dtype). With `accumulate`, duplicate positions sum.
 */
export const indexPut_ = front('index_put_(Tensor self, Any indices, Tensor values, bool accumulate=False) -> Tensor', { numbersAsTensors: true }).run(
  ([self, indices, values, accumulate]): Tensor => indexPutBound(self, indices, values, accumulate),
);
export type IndexPutOptions = OptionsOf<typeof indexPut_>;

function indexPutBound(self: Tensor, indices: unknown, values: Tensor | Scalar, accumulate: boolean): Tensor {
  if (!Array.isArray(indices)) throw new TorchTypeError(`index_put_(): argument 'indices' must be an array of tensors, not ${typeName(indices)}`);
  const items = indices.map((x) => (x === null || x === undefined ? ':' : x));
  const r = applyBasicIndexing('index_put_', geometryOf(self.impl), items, indexingOptions);
  const g = r.geometry;
  tidy(() => {
    const v = isScalar(values) ? full([], values, { dtype: self.dtype, device: self.device }) : values;
    unwrapTensor('index_put_', 'values', v);
    const target = sameGeometry(self, g) ? self : asStrided(self, g.sizes, g.strides, g.offset);
    if (r.advanced.length === 0) {
      if (v.dtype !== self.dtype) {
        throw new DTypeError(
          `index_put_: Index put requires the source and destination dtypes match, got ${torchTypeName(self.dtype)} for the destination and ${torchTypeName(v.dtype)} for the source.`,
        );
      }
      if (accumulate) copy_(target, target.add(v));
      else copy_(target, v);
      return;
    }
    const a = r.advanced[0];
    if (r.advanced.length === 1 && a.kind === 'tensor' && maskTensorsOf(r.advanced).length === 1 && countsAreAsync(self.device)) {
      maskedIndexPut(target, indexTensor(a.index), a.dim, a.dims, v, accumulate);
      return;
    }
    const { packed, dims } = packAdvanced('index_put_', g.sizes, r.advanced, self.device);
    indexPutPacked_(target, packed, dims, v, accumulate);
  });
  return self;
}

/** `x.indexPut(indices, values, { accumulate })`: the out-of-place form (a copy of x, written). */
export const indexPut = front('index_put(Tensor self, Any indices, Tensor values, bool accumulate=False) -> Tensor', { numbersAsTensors: true }).run(
  ([self, indices, values, accumulate]): Tensor => {
    // (under vmap, an unbatched self with batched indices or values gets a batched copy)
    const c = cloneToWrite(self, [indices, values]);
    try {
      return indexPutBound(c, indices, values, accumulate);
    } catch (e) {
      c.dispose();
      throw e;
    }
  },
);

/**
 * `target[mask] = v` (or `+=`) on a device that reads asynchronously only, without the count
 * (Note [Data-dependent sizes on async-read backends]): the mask covers target's dims
 * [d, d + k) and the indexing result is [pre, n, post]. Values that broadcast along n (size
 * 1 there) are a `where`; values with their own n are consumed in mask order, a
 * masked_scatter_ whose count must equal theirs (a device-side error otherwise). Runs in the
 * caller's tidy; autograd goes through where / masked_scatter_ / copy_ (so the node is not
 * IndexPutBackward0 there), with the same gradients.
 */
function maskedIndexPut(target: Tensor, maskIn: Tensor, d: number, k: number, v: Tensor, accumulate: boolean): void {
  const op = 'index_put_';
  const sizes = target.shape;
  checkMaskShapes(op, sizes, [{ kind: 'tensor', dim: d, dims: k, index: maskIn }]);
  commonDevice(op, [target.impl, maskIn.impl, v.impl]);
  if (v.dtype !== target.dtype) {
    throw new DTypeError(
      `index_put_: Index put requires the source and destination dtypes match, got ${torchTypeName(target.dtype)} for the destination and ${torchTypeName(v.dtype)} for the source.`,
    );
  }
  checkNoInternalOverlap(op, target.impl);
  const pre = sizes.slice(0, d);
  const post = sizes.slice(d + k);
  const rank = pre.length + 1 + post.length;
  const result = (n: number | string) => `[${[...pre, n, ...post].join(', ')}]`;
  const mismatch = (n: number | string) =>
    new ShapeError(`${op}: shape mismatch: value tensor of shape ${fmtShape(v.shape)} cannot be broadcast to indexing result of shape ${result(n)}`);
  // (a mismatch found here names the unknown count n: it is not read on this device)
  if (v.dim() > rank) throw mismatch('n');
  const vs = [...new Array<number>(rank - v.dim()).fill(1), ...v.shape];
  const fixed = [...pre, -1, ...post];
  if (vs.some((x, i) => i !== pre.length && x !== 1 && x !== fixed[i])) throw mismatch('n');
  const mask = maskIn.dtype === 'bool' ? maskIn : maskIn.bool();
  const mx = mask.reshape([...pre.map(() => 1), ...mask.shape, ...post.map(() => 1)]);
  const vn = vs[pre.length];
  if (vn === 1) {
    const vb = v.reshape([...vs.slice(0, pre.length), ...new Array<number>(k).fill(1), ...vs.slice(pre.length + 1)]);
    copy_(target, (accumulate ? target.add(vb) : vb).where(mx, target));
    return;
  }
  const others = pre.concat(post).reduce((x, y) => x * y, 1);
  const source = v.reshape(vs).expand([...pre, vn, ...post]).contiguous().reshape([-1]);
  const me = mx.expand([...sizes]);
  const check = {
    exact: true,
    key: `${op}:mask:${fmtShape(v.shape)}:${result('n')}`,
    error: (count: number) => mismatch(others > 0 ? count / others : 0),
  };
  if (!accumulate) {
    withScatterCheck(check, () => target.maskedScatter_(me, source));
    return;
  }
  const s = full([...sizes], 0, { dtype: target.dtype, device: target.device });
  withScatterCheck(check, () => s.maskedScatter_(me, source));
  copy_(target, target.add(s).where(mx, target));
}
