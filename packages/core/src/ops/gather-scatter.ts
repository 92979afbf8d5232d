import { checkScalarFits, isFloatingType, type DType } from '../dtype';
import { DTypeError, IndexError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides, normalizeDim } from '../views';
import type { OperatorHandle } from '../dispatch/dispatcher';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { defineComposite, type CompositeArgs } from './composite';
import { front, overloadedFront } from './front';
import type { KernelArgs } from './kernel-args';
import { clone } from './copy';
import type { IndexedAccess, ScatterMode } from './indexing-impls';
import { castTo, checkNoInternalOverlap, commonDevice, isScalar, releaseAll, scalarTensor, torchTypeName, type Scalar } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { defineStructured, implOf, type Backend } from './registry';

/**
 * gather, scatter (src / value / reduce), scatter_add, scatter_reduce, index_select,
 * index_add and take: each one gather or scatter over an iteration shape
 * (Note [Indexed access]). The scatters are kernel ops in place only; their functional forms
 * are `clone` + the in-place op (so the result's gradFn is the in-place op's Node, e.g.
 * ScatterAddBackward0, as in PyTorch).
 */

/** A 0-dim tensor as the 1-element 1-dim tensor PyTorch's index kernels treat it as; caller releases. */
function atLeast1d(t: TensorImpl): TensorImpl {
  return t.sizes.length === 0 ? t.view([1], [1], t.storageOffset) : t.retain();
}

function ndimOf(t: TensorImpl): number {
  return Math.max(t.sizes.length, 1);
}

function sizeAt(t: TensorImpl, d: number): number {
  return t.sizes.length === 0 ? 1 : t.sizes[d];
}

function checkLong(op: string, index: TensorImpl): void {
  if (index.dtype !== 'int64') throw new DTypeError(`${op}(): Expected dtype int64 for index`);
}

/**
 * The access of a gather/scatter along `dim`: iteration shape = index's (at least 1-dim),
 * `self` walked with its own strides except along `dim`, where the index decides.
 */
function alongDim(self: TensorImpl, dim: number, index: TensorImpl): { access: IndexedAccess; release(): void } {
  const s = atLeast1d(self);
  const i = atLeast1d(index);
  const data = s.view(i.sizes, s.strides.map((st, d) => (d === dim ? 0 : st)), s.storageOffset);
  return {
    access: { data, indices: [i], strides: [s.strides[dim]], sizes: [s.sizes[dim]], dims: [dim] },
    release: () => releaseAll([data, i, s]),
  };
}

// ---- gather ----
function gatherShapeCheck(op: string, self: TensorImpl, dim: number, index: TensorImpl): void {
  if (index.numel === 0) return;
  if (ndimOf(index) !== ndimOf(self)) {
    throw new ShapeError(`${op}(): Index tensor must have the same number of dimensions as input tensor`);
  }
  for (let d = 0; d < ndimOf(self); d++) {
    if (d !== dim && sizeAt(index, d) > sizeAt(self, d)) {
      throw new ShapeError(
        `${op}(): Size does not match at dimension ${d} expected index ${fmtShape(index.sizes)} to be smaller than self ${fmtShape(self.sizes)} apart from dimension ${dim}`,
      );
    }
  }
}

export const GATHER = defineStructured(
  'gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor',
  ([self, dim, index], b) => {
    const s = self;
    const ix = index;
    commonDevice('gather', [s, ix]);
    const d = normalizeDim('gather', dim, s.sizes.length);
    checkLong('gather', ix);
    gatherShapeCheck('gather', s, d, ix);
    const out = TensorImpl.empty('gather', ix.sizes, s.dtype, s.device);
    if (ix.numel === 0) return out;
    const a = alongDim(s, d, ix);
    const o = atLeast1d(out);
    try {
      implOf(b, 'indexGather', 'gather')('gather', o, a.access, 'nowrap');
    } catch (e) {
      out.release();
      throw e;
    } finally {
      o.release();
      a.release();
    }
    return out;
  },
);
const GATHER_OUT = defineOutVariant(GATHER);

// ---- scatter family (in place) ----
function scatterShapeCheck(op: string, self: TensorImpl, dim: number, index: TensorImpl, src: TensorImpl | null): void {
  if (index.numel === 0) return;
  if (ndimOf(index) !== ndimOf(self) || (src && ndimOf(src) !== ndimOf(self))) {
    throw new ShapeError(`${op}(): Index tensor must have the same number of dimensions as self tensor`);
  }
  for (let d = 0; d < ndimOf(self); d++) {
    const bad = (d !== dim && sizeAt(index, d) > sizeAt(self, d)) || (src !== null && sizeAt(index, d) > sizeAt(src, d));
    if (bad) {
      throw new ShapeError(
        `${op}(): Expected index ${fmtShape(index.sizes)} to be smaller than self ${fmtShape(self.sizes)} apart from dimension ${dim}` +
          (src ? ` and to be smaller size than src ${fmtShape(src.sizes)}` : ''),
      );
    }
  }
}

/** src (or a 0-dim value) viewed at the index's iteration shape; caller releases. */
function srcAtIndex(src: TensorImpl, index: TensorImpl): TensorImpl {
  const i = atLeast1d(index);
  try {
    if (src.sizes.length === 0 && index.sizes.length === 0) return src.view([1], [1], src.storageOffset);
    if (src.sizes.length === 0) return src.view(i.sizes, i.sizes.map(() => 0), src.storageOffset); // a broadcast value
    return src.view(i.sizes, src.strides, src.storageOffset);
  } finally {
    i.release();
  }
}

function runScatter(b: Backend, op: string, self: TensorImpl, d: number, index: TensorImpl, src: TensorImpl, mode: ScatterMode, alpha: number | bigint = 1): void {
  if (index.numel === 0) return;
  const a = alongDim(self, d, index);
  const sv = srcAtIndex(src, index);
  try {
    implOf(b, 'indexScatter', op)(op, a.access, sv, mode, alpha, 'nowrap');
  } finally {
    sv.release();
    a.release();
  }
}

function scatterPrologue(op: string, self: TensorImpl, dim: number, index: TensorImpl, src: TensorImpl | null): number {
  commonDevice(op, [self, index, src]);
  const d = normalizeDim(op, dim, self.sizes.length);
  checkLong(op, index);
  if (src && src.dtype !== self.dtype) {
    throw new DTypeError(`${op}(): Expected self.dtype to be equal to src.dtype`);
  }
  checkNoInternalOverlap(op, self);
  scatterShapeCheck(op, self, d, index, src);
  return d;
}

function valueTensor(b: Backend, op: string, value: Scalar, self: TensorImpl): TensorImpl {
  return scalarTensor(b, op, value, self.dtype, self.device);
}

const REDUCE_MODES: Record<string, ScatterMode> = { add: 'add', multiply: 'mul' };
function scatterReduceMode(op: string, reduce: string): ScatterMode {
  const m = REDUCE_MODES[reduce];
  if (!m) throw new TorchError(`${op}(): reduce argument must be either add or multiply. Got ${String(reduce)}`);
  return m;
}

export const SCATTER_SRC_ = defineStructured(
  'scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)',
  ([self, dim, index, src], b) => {
    const s = self;
    const d = scatterPrologue('scatter', s, dim, index, src);
    runScatter(b, 'scatter', s, d, index, src, 'set');
    return s;
  },
  ['inplace'],
);

export const SCATTER_VALUE_ = defineStructured(
  'scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)',
  ([self, dim, index, value], b) => {
    const s = self;
    const d = scatterPrologue('scatter', s, dim, index, null);
    const v = valueTensor(b, 'scatter', value, s);
    try {
      runScatter(b, 'scatter', s, d, index, v, 'set');
    } finally {
      v.release();
    }
    return s;
  },
  ['inplace'],
);

export const SCATTER_REDUCE_ = defineStructured(
  'scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor(a!)',
  ([self, dim, index, src, reduce], b) => {
    const s = self;
    const mode = scatterReduceMode('scatter', reduce);
    const d = scatterPrologue('scatter', s, dim, index, src);
    runScatter(b, 'scatter', s, d, index, src, mode);
    return s;
  },
  ['inplace'],
);

export const SCATTER_VALUE_REDUCE_ = defineStructured(
  'scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor(a!)',
  ([self, dim, index, value, reduce], b) => {
    const s = self;
    const mode = scatterReduceMode('scatter', reduce);
    const d = scatterPrologue('scatter', s, dim, index, null);
    const v = valueTensor(b, 'scatter', value, s);
    try {
      runScatter(b, 'scatter', s, d, index, v, mode);
    } finally {
      v.release();
    }
    return s;
  },
  ['inplace'],
);

export const SCATTER_ADD_ = defineStructured(
  'scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)',
  ([self, dim, index, src], b) => {
    const s = self;
    const d = scatterPrologue('scatter_add', s, dim, index, src);
    runScatter(b, 'scatter_add', s, d, index, src, 'add');
    return s;
  },
  ['inplace'],
);

const SCATTER_REDUCTIONS = ['sum', 'prod', 'mean', 'amax', 'amin'] as const;
type ScatterReduction = (typeof SCATTER_REDUCTIONS)[number];

/** The identity a reduction starts from when `include_self=False` (PyTorch's init values). */
function reductionIdentity(r: ScatterReduction, dtype: DType): Scalar {
  if (r === 'sum' || r === 'mean') return dtype === 'bool' ? false : 0;
  if (r === 'prod') return dtype === 'bool' ? true : 1;
  const lowest = r === 'amax';
  if (isFloatingType(dtype)) return lowest ? -Infinity : Infinity;
  const range: Record<string, [Scalar, Scalar]> = {
    bool: [false, true],
    uint8: [0, 255],
    int8: [-128, 127],
    int16: [-32768, 32767],
    int32: [-2147483648, 2147483647],
    int64: [-(2n ** 63n), 2n ** 63n - 1n],
  };
  return range[dtype][lowest ? 0 : 1];
}

export const SCATTER_REDUCE_TWO_ = defineStructured(
  'scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)',
  ([self, dim, index, src, reduce, includeSelf], b) => {
    const op = 'scatter_reduce';
    const s = self;
    const ix = index;
    const sr = src;
    const r = SCATTER_REDUCTIONS.find((m) => m === reduce);
    if (r === undefined) throw new TorchError(`${op}(): reduce argument must be either sum, prod, mean, amax or amin, got ${reduce}`);
    const d = scatterPrologue(op, s, dim, ix, sr);
    if (r === 'mean' && s.dtype === 'bool') throw new DTypeError(`${op}(): "scatter_gather_tensor_cpu_reduce_mean" not implemented for 'Bool'`);
    if (ix.numel === 0) return s;
    if (includeSelf === false) {
      const init = valueTensor(b, op, reductionIdentity(r, s.dtype), s);
      try {
        runScatter(b, op, s, d, ix, init, 'set');
      } finally {
        init.release();
      }
    }
    const mode: ScatterMode = r === 'sum' || r === 'mean' ? 'add' : r === 'prod' ? 'mul' : r;
    if (r !== 'mean') {
      runScatter(b, op, s, d, ix, sr, mode);
      return s;
    }
    // mean: the sum divided by how many values met at each position (self counting once
    // when included); positions nothing was scattered to keep their value (count 1).
    const count = TensorImpl.empty(op, s.sizes, s.dtype, s.device);
    const one = valueTensor(b, op, 1, s);
    const oneB = one.view(s.sizes, s.sizes.map(() => 0), one.storageOffset);
    try {
      implOf(b, 'fill', op)(count, includeSelf === false ? 0 : 1);
      runScatter(b, op, s, d, ix, sr, 'add');
      runScatter(b, op, count, d, ix, one, 'add');
      implOf(b, 'maximum', op)(count, count, oneB);
      if (s.dtype !== 'bool') implOf(b, isFloatingType(s.dtype) ? 'div' : 'divFloor', op)(s, s, count);
    } finally {
      releaseAll([oneB, one, count]);
    }
    return s;
  },
  ['inplace'],
);

// ---- index_select / index_add ----
function checkIntIndex(op: string, index: TensorImpl): void {
  if (index.dtype !== 'int64' && index.dtype !== 'int32') throw new DTypeError(`${op}(): Expected dtype int32 or int64 for index`);
  if (index.sizes.length > 1) throw new IndexError(`${op}(): Index is supposed to be a vector`);
}

/** int32 indices as int64 (the kernels read int64); caller releases. */
function asLong(b: Backend, op: string, index: TensorImpl): TensorImpl {
  if (index.dtype === 'int64') return index.retain();
  const out = TensorImpl.empty(op, index.sizes, 'int64', index.device);
  implOf(b, 'copy', op)(out, index);
  return out;
}

/**
 * The access of index_select / index_add: iteration shape `sizes` (self's with `dim` sized
 * by the index), self walked except along `dim`, the 1-dim index broadcast over the rest.
 */
function selectAccess(self: TensorImpl, dim: number, index: TensorImpl, sizes: readonly number[]): { access: IndexedAccess; release(): void } {
  const s = atLeast1d(self);
  const data = s.view(sizes, s.strides.map((st, d) => (d === dim ? 0 : st)), s.storageOffset);
  const istride = index.sizes.length === 0 ? 0 : index.strides[0];
  const iv = index.view(sizes, sizes.map((_, d) => (d === dim ? istride : 0)), index.storageOffset);
  return {
    access: { data, indices: [iv], strides: [s.strides[dim]], sizes: [s.sizes[dim]], dims: [dim] },
    release: () => releaseAll([data, iv, s]),
  };
}

export const INDEX_SELECT = defineStructured(
  'index_select(Tensor self, int dim, Tensor index) -> Tensor',
  ([self, dim, index], b) => {
    const op = 'index_select';
    const s = self;
    const ix = index;
    commonDevice(op, [s, ix]);
    const d = normalizeDim(op, dim, s.sizes.length);
    checkIntIndex(op, ix);
    const sizes = s.sizes.length === 0 ? [ix.numel] : s.sizes.map((n, k) => (k === d ? ix.numel : n));
    const outSizes = s.sizes.length === 0 ? (ix.sizes.length === 0 ? [] : [ix.numel]) : sizes;
    const out = TensorImpl.empty(op, outSizes, s.dtype, s.device);
    if (out.numel === 0) return out;
    if (s.numel === 0) {
      out.release();
      throw new IndexError(`${op}(): self indexing axis dim should be positive`);
    }
    const long = asLong(b, op, ix);
    const a = selectAccess(s, d, long, sizes);
    const o = out.view(sizes, contiguousStrides(sizes), out.storageOffset);
    try {
      implOf(b, 'indexGather', op)(op, o, a.access, 'nowrap');
    } catch (e) {
      out.release();
      throw e;
    } finally {
      releaseAll([o, long]);
      a.release();
    }
    return out;
  },
);
const INDEX_SELECT_OUT = defineOutVariant(INDEX_SELECT);

export const INDEX_ADD_ = defineStructured(
  'index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)',
  ([self, dim, index, source, alpha], b) => {
    const op = 'index_add_';
    const s = self;
    const ix = index;
    const src = source;
    commonDevice(op, [s, ix, src]);
    const d = normalizeDim(op, dim, s.sizes.length);
    checkIntIndex(op, ix);
    if (src.dtype !== s.dtype) {
      throw new DTypeError(`${op}(): self (${torchTypeName(s.dtype)}) and source (${torchTypeName(src.dtype)}) must have the same scalar type`);
    }
    if (ndimOf(src) !== ndimOf(s)) throw new ShapeError(`${op}(): Source/destination tensor must have same number of dimensions`);
    if (sizeAt(src, d) !== ix.numel) {
      throw new ShapeError(`${op}(): Number of indices (${ix.numel}) should be equal to source.size(dim) (${sizeAt(src, d)})`);
    }
    for (let k = 0; k < ndimOf(s); k++) {
      if (k !== d && sizeAt(src, k) !== sizeAt(s, k)) {
        throw new ShapeError(`${op}(): source ${fmtShape(src.sizes)} and self ${fmtShape(s.sizes)} must have the same size except along dim ${d}`);
      }
    }
    checkNoInternalOverlap(op, s);
    const a0 = (alpha ?? 1);
    if (!isFloatingType(s.dtype) && typeof a0 === 'number' && !Number.isInteger(a0)) {
      throw new TorchError(`${op}(): For integral input tensors, argument alpha must not be a floating point number.`);
    }
    const sizes = src.sizes.length === 0 ? [1] : [...src.sizes];
    if (src.numel === 0) return s;
    const long = asLong(b, op, ix);
    const a = selectAccess(s, d, long, sizes);
    const sv = atLeast1d(src);
    try {
      const al = typeof a0 === 'boolean' ? (a0 ? 1 : 0) : a0;
      implOf(b, 'indexScatter', op)('index_add_', a.access, sv, 'add', al, 'nowrap');
    } finally {
      releaseAll([sv, long]);
      a.release();
    }
    return s;
  },
  ['inplace'],
);

// ---- index_fill ----
/** index_fill_: the slices of `self` along `dim` that `index` names (int64, negatives wrap) set to `value`. */
function runIndexFill(b: Backend, self: TensorImpl, dim: number, index: TensorImpl, value: TensorImpl): TensorImpl {
  const op = 'index_fill_';
  commonDevice(op, [self, index]);
  const d = normalizeDim(op, dim, self.sizes.length);
  if (index.dtype !== 'int64') throw new IndexError(`${op}(): Expected dtype int64 for index.`);
  if (index.sizes.length > 1) throw new IndexError(`${op}(): Index has to be a vector/scalar`);
  checkNoInternalOverlap(op, self);
  const sizes = self.sizes.length === 0 ? [index.numel] : self.sizes.map((n, k) => (k === d ? index.numel : n));
  if (sizes.includes(0)) return self;
  const a = selectAccess(self, d, index, sizes);
  const v = value.view(sizes, sizes.map(() => 0), value.storageOffset);
  try {
    implOf(b, 'indexScatter', op)(op, a.access, v, 'set', 1, 'wrap');
  } finally {
    v.release();
    a.release();
  }
  return self;
}

export const INDEX_FILL_SCALAR_ = defineStructured(
  'index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)',
  ([self, dim, index, value], b) => {
    const s = self;
    checkScalarFits('index_fill_', value, s.dtype);
    const v = valueTensor(b, 'index_fill_', value, s);
    try {
      return runIndexFill(b, s, dim, index, v);
    } finally {
      v.release();
    }
  },
  ['inplace'],
);

export const INDEX_FILL_TENSOR_ = defineStructured(
  'index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)',
  ([self, dim, index, value], b) => {
    const s = self;
    const val = value;
    if (val.sizes.length !== 0) {
      throw new ShapeError(`index_fill_: only supports a 0-dimensional value tensor, but got tensor with ${val.sizes.length} dimension(s).`);
    }
    const v = castTo(b, 'index_fill_', val, s.dtype, s.device);
    try {
      return runIndexFill(b, s, dim, index, v);
    } finally {
      v.release();
    }
  },
  ['inplace'],
);

// ---- take ----
export const TAKE = defineStructured(
  'take(Tensor self, Tensor index) -> Tensor',
  ([self, index], b) => {
    const op = 'take';
    const s = self;
    const ix = index;
    commonDevice(op, [s, ix]);
    if (ix.dtype !== 'int64') throw new DTypeError(`${op}(): Expected a long tensor for index, but got ${torchTypeName(ix.dtype)}`);
    const out = TensorImpl.empty(op, ix.sizes, s.dtype, s.device);
    if (ix.numel === 0) return out;
    if (s.numel === 0) {
      out.release();
      throw new IndexError(`${op}(): tried to take from an empty tensor`);
    }
    // take indexes the row-major flattening: a contiguous copy when self is not contiguous.
    let flat: TensorImpl;
    if (s.isContiguous) flat = s.view([s.numel], [1], s.storageOffset);
    else {
      flat = TensorImpl.empty(op, [s.numel], s.dtype, s.device);
      const v = flat.view(s.sizes, contiguousStrides(s.sizes), 0);
      try {
        implOf(b, 'copy', op)(v, s);
      } finally {
        v.release();
      }
    }
    const i = atLeast1d(ix);
    const o = atLeast1d(out);
    const data = flat.view(i.sizes, i.sizes.map(() => 0), flat.storageOffset);
    try {
      implOf(b, 'indexGather', op)(op, o, { data, indices: [i], strides: [1], sizes: [s.numel], dims: [0] }, 'take');
    } catch (e) {
      out.release();
      throw e;
    } finally {
      releaseAll([data, o, i, flat]);
    }
    return out;
  },
);
const TAKE_OUT = defineOutVariant(TAKE);

// ---- front ends ----
// (Note [Front ends are declared once])

/** The values of `input` at `index` along `dim` (`out[i][j] = input[index[i][j]][j]` for dim 0). */
export const gather = front('gather(Tensor input, int dim, Tensor index, *, bool sparse_grad=False, Tensor? out=None) -> Tensor').run(
  ([self, dim, index, sparseGrad, out]): Tensor =>
    callWithOut(GATHER, GATHER_OUT, [unwrapTensor('gather', 'input', self), dim, unwrapTensor('gather', 'index', index), sparseGrad], out),
);

const SCATTER_REDUCE_CHOICES = { reduce: ['add', 'multiply'] } as const;

/** `self.scatter_(dim, index, src | value, { reduce })`. */
export const scatter_ = overloadedFront(
  [
    'scatter_(Tensor input, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor',
    'scatter_(Tensor input, int dim, Tensor index, Scalar value, *, str? reduce=None) -> Tensor',
  ],
  { choices: SCATTER_REDUCE_CHOICES },
).run(({ values: [self, dim, index, src, reduce] }): Tensor => {
  const op = 'scatter_';
  const s = unwrapTensor(op, 'self', self);
  const ix = unwrapTensor(op, 'index', index);
  if (isScalar(src)) {
    checkScalarFits(op, src, self.dtype);
    if (reduce != null) return callMutating(SCATTER_VALUE_REDUCE_, [s, dim, ix, src, reduce], self);
    return callMutating(SCATTER_VALUE_, [s, dim, ix, src], self);
  }
  const sr = unwrapTensor(op, 'src', src);
  if (reduce != null) return callMutating(SCATTER_REDUCE_, [s, dim, ix, sr, reduce], self);
  return callMutating(SCATTER_SRC_, [s, dim, ix, sr], self);
});

/**
 * The functional forms: `clone(self)` then the in-place kernel op (CompositeImplicit, so the
 * result's Node is the in-place op's, as in PyTorch), each with its out= variant.
 */
function onClone<const S extends string>(schema: S, fn: (args: CompositeArgs<S>) => Tensor) {
  const h = defineComposite(schema, fn);
  return { h, out: defineOutVariant(h) };
}
/** Runs the in-place `h` on a clone of `self` (its first argument) and returns the clone. */
function intoClone<S extends string>(h: OperatorHandle<S>, self: Tensor, rest: (c: TensorImpl) => KernelArgs<S>): Tensor {
  const c = clone(self);
  return callMutating(h, rest(c.impl), c);
}
const SCATTER_SRC = onClone('scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor', ([self, dim, index, src]) =>
  intoClone(SCATTER_SRC_, self, (c) => [c, dim, index.impl, src.impl]),
);
const SCATTER_VALUE = onClone('scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor', ([self, dim, index, value]) => {
  checkScalarFits('scatter', value, self.dtype);
  return intoClone(SCATTER_VALUE_, self, (c) => [c, dim, index.impl, value]);
});
const SCATTER_REDUCE = onClone('scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor', ([self, dim, index, src, reduce]) =>
  intoClone(SCATTER_REDUCE_, self, (c) => [c, dim, index.impl, src.impl, reduce]),
);
const SCATTER_VALUE_REDUCE = onClone('scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor', ([self, dim, index, value, reduce]) => {
  checkScalarFits('scatter', value, self.dtype);
  return intoClone(SCATTER_VALUE_REDUCE_, self, (c) => [c, dim, index.impl, value, reduce]);
});
const SCATTER_ADD = onClone('scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor', ([self, dim, index, src]) =>
  intoClone(SCATTER_ADD_, self, (c) => [c, dim, index.impl, src.impl]),
);
const SCATTER_REDUCE_TWO = onClone(
  'scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor',
  ([self, dim, index, src, reduce, includeSelf]) => intoClone(SCATTER_REDUCE_TWO_, self, (c) => [c, dim, index.impl, src.impl, reduce, includeSelf]),
);
const INDEX_FILL_SCALAR = onClone('index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor', ([self, dim, index, value]) =>
  intoClone(INDEX_FILL_SCALAR_, self, (c) => [c, dim, index.impl, value]),
);
const INDEX_FILL_TENSOR = onClone('index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor', ([self, dim, index, value]) =>
  intoClone(INDEX_FILL_TENSOR_, self, (c) => [c, dim, index.impl, value.impl]),
);
const INDEX_ADD = onClone('index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor', ([self, dim, index, source, alpha]) =>
  intoClone(INDEX_ADD_, self, (c) => [c, dim, index.impl, source.impl, alpha]),
);

function callForm<S extends string>(op: { h: OperatorHandle<S>; out: OperatorHandle }, args: KernelArgs<S>, out: Tensor | null | undefined): Tensor {
  return callWithOut(op.h, op.out, args, out);
}

/** `scatter(input, dim, index, src | value, { reduce, out })`: a copy of `input`, scattered into. */
export const scatter = overloadedFront(
  [
    'scatter(Tensor input, int dim, Tensor index, Tensor src, *, str? reduce=None, Tensor? out=None) -> Tensor',
    'scatter(Tensor input, int dim, Tensor index, Scalar value, *, str? reduce=None, Tensor? out=None) -> Tensor',
  ],
  { choices: SCATTER_REDUCE_CHOICES },
).run(({ values: [self, dim, index, src, reduce, out] }): Tensor => {
  const op = 'scatter';
  const s = unwrapTensor(op, 'input', self);
  const ix = unwrapTensor(op, 'index', index);
  if (isScalar(src)) return reduce != null ? callForm(SCATTER_VALUE_REDUCE, [s, dim, ix, src, reduce], out) : callForm(SCATTER_VALUE, [s, dim, ix, src], out);
  const sr = unwrapTensor(op, 'src', src);
  return reduce != null ? callForm(SCATTER_REDUCE, [s, dim, ix, sr, reduce], out) : callForm(SCATTER_SRC, [s, dim, ix, sr], out);
});

export const scatterAdd_ = front('scatter_add_(Tensor input, int dim, Tensor index, Tensor src) -> Tensor').run(([self, dim, index, src]): Tensor => {
  const op = 'scatter_add_';
  return callMutating(SCATTER_ADD_, [unwrapTensor(op, 'self', self), dim, unwrapTensor(op, 'index', index), unwrapTensor(op, 'src', src)], self);
});

export const scatterAdd = front('scatter_add(Tensor input, int dim, Tensor index, Tensor src, *, Tensor? out=None) -> Tensor').run(([self, dim, index, src, out]): Tensor => {
  const op = 'scatter_add';
  return callForm(SCATTER_ADD, [unwrapTensor(op, 'input', self), dim, unwrapTensor(op, 'index', index), unwrapTensor(op, 'src', src)], out);
});

const SCATTER_REDUCE_TWO_CHOICES = { reduce: SCATTER_REDUCTIONS };

export const scatterReduce_ = front('scatter_reduce_(Tensor input, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor', {
  choices: SCATTER_REDUCE_TWO_CHOICES,
}).run(([self, dim, index, src, reduce, includeSelf]): Tensor => {
  const op = 'scatter_reduce_';
  return callMutating(SCATTER_REDUCE_TWO_, [unwrapTensor(op, 'self', self), dim, unwrapTensor(op, 'index', index), unwrapTensor(op, 'src', src), reduce, includeSelf], self);
});

export const scatterReduce = front('scatter_reduce(Tensor input, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True, Tensor? out=None) -> Tensor', {
  choices: SCATTER_REDUCE_TWO_CHOICES,
}).run(([self, dim, index, src, reduce, includeSelf, out]): Tensor => {
  const op = 'scatter_reduce';
  return callForm(SCATTER_REDUCE_TWO, [unwrapTensor(op, 'input', self), dim, unwrapTensor(op, 'index', index), unwrapTensor(op, 'src', src), reduce, includeSelf], out);
});

export const indexSelect = front('index_select(Tensor input, int dim, Tensor index, *, Tensor? out=None) -> Tensor').run(([self, dim, index, out]): Tensor => {
  const op = 'index_select';
  return callWithOut(INDEX_SELECT, INDEX_SELECT_OUT, [unwrapTensor(op, 'input', self), dim, unwrapTensor(op, 'index', index)], out);
});

export const indexAdd_ = front('index_add_(Tensor input, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor').run(([self, dim, index, source, alpha]): Tensor => {
  const op = 'index_add_';
  return callMutating(INDEX_ADD_, [unwrapTensor(op, 'self', self), dim, unwrapTensor(op, 'index', index), unwrapTensor(op, 'source', source), alpha], self);
});

export const indexAdd = front('index_add(Tensor input, int dim, Tensor index, Tensor source, *, Scalar alpha=1, Tensor? out=None) -> Tensor').run(
  ([self, dim, index, source, alpha, out]): Tensor => {
    const op = 'index_add';
    return callForm(INDEX_ADD, [unwrapTensor(op, 'input', self), dim, unwrapTensor(op, 'index', index), unwrapTensor(op, 'source', source), alpha], out);
  },
);

export const take = front('take(Tensor input, Tensor index, *, Tensor? out=None) -> Tensor').run(([self, index, out]): Tensor =>
  callWithOut(TAKE, TAKE_OUT, [unwrapTensor('take', 'input', self), unwrapTensor('take', 'index', index)], out),
);

/** `self.indexFill_(dim, index, value)`: the slices `index` names along `dim` set to `value` (a Scalar or a 0-dim tensor). */
export const indexFill_ = overloadedFront([
  'index_fill_(Tensor input, int dim, Tensor index, Tensor value) -> Tensor',
  'index_fill_(Tensor input, int dim, Tensor index, Scalar value) -> Tensor',
]).run(({ values: [self, dim, index, value] }): Tensor => {
  const op = 'index_fill_';
  const s = unwrapTensor(op, 'self', self);
  const ix = unwrapTensor(op, 'index', index);
  if (isScalar(value)) return callMutating(INDEX_FILL_SCALAR_, [s, dim, ix, value], self);
  return callMutating(INDEX_FILL_TENSOR_, [s, dim, ix, unwrapTensor(op, 'value', value)], self);
});

export const indexFill = overloadedFront([
  'index_fill(Tensor input, int dim, Tensor index, Tensor value) -> Tensor',
  'index_fill(Tensor input, int dim, Tensor index, Scalar value) -> Tensor',
]).run(({ values: [self, dim, index, value] }): Tensor => {
  const op = 'index_fill';
  const s = unwrapTensor(op, 'input', self);
  const ix = unwrapTensor(op, 'index', index);
  if (isScalar(value)) return callFunctional(INDEX_FILL_SCALAR.h, [s, dim, ix, value]);
  return callFunctional(INDEX_FILL_TENSOR.h, [s, dim, ix, unwrapTensor(op, 'value', value)]);
});
