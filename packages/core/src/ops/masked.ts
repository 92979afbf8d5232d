import { checkScalarFits, isComplexType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { broadcastShapes } from '../iterator';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides } from '../views';
import { makeBinder } from './binder';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { clone } from './copy';
import { front, overloadedFront } from './front';
import { setNonzero } from './indexing';
import type { IndexedAccess } from './indexing-impls';
import {
  broadcastTo,
  castTo,
  checkNoInternalOverlap,
  commonDevice,
  isScalar,
  releaseAll,
  sameShape,
  scalarTensor,
  torchTypeName,
} from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { expand } from './views';
import { countsAreAsync, countNonzeroAsync, dataDependentError, takeKnownCount, takeScatterCheck, withKnownCounts } from './data-dependent';
import { defineStructured, implOf, type Backend } from './registry';

/**
 * masked_fill, masked_scatter, masked_select and nonzero. The mask is bool (PyTorch 2.x
 * refuses uint8 masks here) and broadcasts: to `self`'s shape for the in-place ops, with
 * `self` for masked_select. masked_scatter and masked_select visit the true positions in
 * row-major order (nonzero's order), as PyTorch does.
 */

function checkMask(op: string, mask: TensorImpl): void {
  if (mask.dtype !== 'bool') {
    throw new DTypeError(`${op}: expected BoolTensor for mask, but got ${torchTypeName(mask.dtype)} (PyTorch 2.x refuses uint8 masks)`);
  }
}

/** The mask broadcast to `sizes` (in place: it must not change `self`'s shape); caller releases. */
function maskFor(op: string, mask: TensorImpl, sizes: readonly number[]): TensorImpl {
  const shape = broadcastShapes(op, sizes, mask.sizes);
  if (!sameShape(shape, sizes)) {
    throw new ShapeError(`${op}: the mask of shape ${fmtShape(mask.sizes)} cannot be broadcast to self of shape ${fmtShape(sizes)} in place`);
  }
  return broadcastTo(mask, sizes);
}

/** The count for nonzero: a known one (an async form), else the backend's sync count, else the refusal. */
function countOf(b: Backend, op: string, self: TensorImpl): number {
  const known = takeKnownCount();
  if (known !== null) return known;
  if (typeof b.impls.nonzeroCountAsync === 'function') throw dataDependentError(op, self.device);
  return implOf(b, 'nonzeroCount', op)(self);
}

/** [n, ndim] int64, the positions of the nonzero elements (a new tensor). */
function nonzeroImpl(b: Backend, op: string, self: TensorImpl): TensorImpl {
  const n = countOf(b, op, self);
  const out = TensorImpl.empty(op, [n, self.sizes.length], 'int64', self.device);
  try {
    if (n > 0 && self.sizes.length > 0) implOf(b, 'nonzeroFill', op)(out, self);
  } catch (e) {
    out.release();
    throw e;
  }
  return out;
}

/** The access of the true positions of `mask` in `data` (both at sizes, mask bool); iteration [n]. */
function maskedAccess(b: Backend, op: string, data: TensorImpl, mask: TensorImpl): { access: IndexedAccess; n: number; release(): void } {
  const nz = nonzeroImpl(b, op, mask);
  const n = nz.sizes[0];
  const nd = data.sizes.length;
  const d = data.view([n], [0], data.storageOffset);
  const cols = Array.from({ length: nd }, (_, k) => nz.view([n], [nd], nz.storageOffset + k));
  return {
    n,
    access: { data: d, indices: cols, strides: data.strides.slice(), sizes: data.sizes.slice(), dims: data.sizes.map((_, k) => k) },
    release: () => releaseAll([d, ...cols, nz]),
  };
}

export const NONZERO = defineStructured('nonzero(Tensor self) -> Tensor', ([self], b) => nonzeroImpl(b, 'nonzero', self));
const NONZERO_OUT = defineOutVariant(NONZERO);

function maskedFillInto(b: Backend, op: string, self: TensorImpl, mask: TensorImpl, value: TensorImpl): void {
  checkNoInternalOverlap(op, self);
  const m = maskFor(op, mask, self.sizes);
  const v = broadcastTo(value, self.sizes);
  try {
    implOf(b, 'where', op)(self, m, v, self);
  } finally {
    releaseAll([v, m]);
  }
}

export const MASKED_FILL_SCALAR_ = defineStructured(
  'masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)',
  ([self, mask, value], b) => {
    const op = 'masked_fill_';
    const s = self;
    const m = mask;
    commonDevice(op, [s, m]);
    checkMask(op, m);
    checkScalarFits(op, value, s.dtype);
    const v = scalarTensor(b, op, value, s.dtype, s.device);
    try {
      maskedFillInto(b, op, s, m, v);
    } finally {
      v.release();
    }
    return s;
  },
  ['inplace'],
);

export const MASKED_FILL_TENSOR_ = defineStructured(
  'masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)',
  ([self, mask, value], b) => {
    const op = 'masked_fill_';
    const s = self;
    const m = mask;
    const val = value;
    commonDevice(op, [s, m, val]);
    checkMask(op, m);
    if (val.sizes.length !== 0) {
      throw new ShapeError(`${op}: only supports a 0-dimensional value tensor, but got tensor with ${val.sizes.length} dimension(s).`);
    }
    const v = castTo(b, op, val, s.dtype, s.device);
    try {
      maskedFillInto(b, op, s, m, v);
    } finally {
      v.release();
    }
    return s;
  },
  ['inplace'],
);

export const MASKED_SCATTER_ = defineStructured(
  'masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)',
  ([self, mask, source], b) => {
    const op = 'masked_scatter_';
    const s = self;
    const m = mask;
    const src = source;
    commonDevice(op, [s, m, src]);
    checkMask(op, m);
    if (src.dtype !== s.dtype) {
      throw new DTypeError(`${op}: expected self and source to have same dtypes but got ${torchTypeName(s.dtype)} and ${torchTypeName(src.dtype)}`);
    }
    checkNoInternalOverlap(op, s);
    const mb = maskFor(op, m, s.sizes);
    const check = takeScatterCheck();
    if (typeof b.impls.maskedScatterOrdered === 'function') {
      // (Note [Data-dependent sizes on async-read backends]: no count on the host)
      const flat = src.isContiguous ? src.view([src.numel], [1], src.storageOffset) : TensorImpl.empty(op, [src.numel], src.dtype, src.device);
      try {
        if (!src.isContiguous) {
          const fv = flat.view(src.sizes, contiguousStrides(src.sizes), 0);
          try {
            implOf(b, 'copy', op)(fv, src);
          } finally {
            fv.release();
          }
        }
        const short = () => new ShapeError(`${op}: Number of elements of source < number of ones in mask`);
        b.impls.maskedScatterOrdered(op, s, mb, flat, check?.exact ?? false, check?.key ?? `${op}:short`, check?.error ?? short);
      } finally {
        releaseAll([flat, mb]);
      }
      return s;
    }
    let a: ReturnType<typeof maskedAccess> | null = null;
    let flat: TensorImpl | null = null;
    try {
      a = maskedAccess(b, op, s, mb);
      if (a.n === 0) return s;
      if (src.numel < a.n) throw new ShapeError(`${op}: Number of elements of source < number of ones in mask`);
      flat = TensorImpl.empty(op, [src.numel], src.dtype, src.device);
      const fv = flat.view(src.sizes, contiguousStrides(src.sizes), 0);
      try {
        implOf(b, 'copy', op)(fv, src);
      } finally {
        fv.release();
      }
      const head = flat.view([a.n], [1], 0);
      try {
        implOf(b, 'indexScatter', op)(op, a.access, head, 'set', 1, 'nowrap');
      } finally {
        head.release();
      }
    } finally {
      a?.release();
      releaseAll([flat, mb]);
    }
    return s;
  },
  ['inplace'],
);

export const MASKED_SELECT = defineStructured(
  'masked_select(Tensor self, Tensor mask) -> Tensor',
  ([self, mask], b) => {
    const op = 'masked_select';
    const s = self;
    const m = mask;
    commonDevice(op, [s, m]);
    checkMask(op, m);
    const shape = broadcastShapes(op, s.sizes, m.sizes);
    const sb = broadcastTo(s, shape);
    const mb = broadcastTo(m, shape);
    let a: ReturnType<typeof maskedAccess> | null = null;
    try {
      a = maskedAccess(b, op, sb, mb);
      const out = TensorImpl.empty(op, [a.n], s.dtype, s.device);
      try {
        if (a.n > 0) implOf(b, 'indexGather', op)(op, out, a.access, 'nowrap');
      } catch (e) {
        out.release();
        throw e;
      }
      return out;
    } finally {
      a?.release();
      releaseAll([mb, sb]);
    }
  },
);
const MASKED_SELECT_OUT = defineOutVariant(MASKED_SELECT);

// ---- front ends ----
// (Note [Front ends are declared once])

export const maskedFill_ = overloadedFront([
  'masked_fill_(Tensor input, Tensor mask, Tensor value) -> Tensor',
  'masked_fill_(Tensor input, Tensor mask, Scalar value) -> Tensor',
]).run(({ values: [self, mask, value] }): Tensor => {
  const op = 'masked_fill_';
  const s = unwrapTensor(op, 'self', self);
  const m = unwrapTensor(op, 'mask', mask);
  if (isScalar(value)) return callMutating(MASKED_FILL_SCALAR_, [s, m, value], self);
  return callMutating(MASKED_FILL_TENSOR_, [s, m, unwrapTensor(op, 'value', value)], self);
});

/** The out-of-place form: self broadcast with the mask, copied, then filled. */
export const maskedFill = overloadedFront([
  'masked_fill(Tensor input, Tensor mask, Tensor value) -> Tensor',
  'masked_fill(Tensor input, Tensor mask, Scalar value) -> Tensor',
]).run(({ values: [self, mask, value] }): Tensor => {
  const op = 'masked_fill';
  const s = unwrapTensor(op, 'input', self);
  const m = unwrapTensor(op, 'mask', mask);
  const shape = broadcastShapes(op, s.sizes, m.sizes);
  const src = sameShape(shape, s.sizes) ? self : expand(self, shape);
  const c = clone(src);
  if (src !== self) src.dispose();
  try {
    // (PyTorch's two overloads: a Tensor or a Scalar value)
    return isScalar(value) ? maskedFill_(c, mask, value) : maskedFill_(c, mask, value);
  } catch (e) {
    c.dispose();
    throw e;
  }
});

export const maskedScatter_ = front('masked_scatter_(Tensor input, Tensor mask, Tensor source) -> Tensor').run(([self, mask, source]): Tensor => {
  const op = 'masked_scatter_';
  return callMutating(MASKED_SCATTER_, [unwrapTensor(op, 'self', self), unwrapTensor(op, 'mask', mask), unwrapTensor(op, 'source', source)], self);
});

export const maskedScatter = front('masked_scatter(Tensor input, Tensor mask, Tensor source) -> Tensor').run(([self, mask, source]): Tensor => {
  const op = 'masked_scatter';
  const s = unwrapTensor(op, 'input', self);
  const m = unwrapTensor(op, 'mask', mask);
  const shape = broadcastShapes(op, s.sizes, m.sizes);
  const src = sameShape(shape, s.sizes) ? self : expand(self, shape);
  const c = clone(src);
  if (src !== self) src.dispose();
  try {
    return maskedScatter_(c, mask, source);
  } catch (e) {
    c.dispose();
    throw e;
  }
});

const MASKED_SELECT_SCHEMA = 'masked_select(Tensor input, Tensor mask, *, Tensor? out=None) -> Tensor';

export const maskedSelect = front(MASKED_SELECT_SCHEMA).run(([self, mask, out]): Tensor => {
  const op = 'masked_select';
  return callWithOut(MASKED_SELECT, MASKED_SELECT_OUT, [unwrapTensor(op, 'input', self), unwrapTensor(op, 'mask', mask)], out);
});

const nonzeroArgs = makeBinder('nonzero', 'nonzero(Tensor input, *, Tensor? out=None, bool as_tuple=False) -> Tensor');

export interface NonzeroOptions {
  asTuple?: boolean;
  out?: Tensor | null;
}

/**
 * `nonzero(x)`: the [n, ndim] int64 positions of the nonzero elements, row-major;
 * `{ asTuple: true }` gives one 1-dim index tensor per dim instead (a 0-dim input counts as
 * 1-dim, as in PyTorch), which is what `x.index(...)` takes.
 */
export function nonzero(input: Tensor, options: NonzeroOptions & { asTuple: true }): Tensor[];
export function nonzero(input: Tensor, options?: NonzeroOptions): Tensor;
export function nonzero(...a: unknown[]): Tensor | Tensor[] {
  const [self, out, asTuple] = nonzeroArgs.bind(a);
  const s = unwrapTensor('nonzero', 'input', self);
  if (asTuple) {
    if (out) throw new TorchError('nonzero(): as_tuple=True does not support out=');
    const flat = s.sizes.length === 0 ? s.view([1], [1], s.storageOffset) : s.retain();
    let nz: Tensor;
    try {
      nz = callFunctional(NONZERO, [flat]);
    } finally {
      flat.release();
    }
    try {
      const nd = nz.shape[1];
      return Array.from({ length: nd }, (_, k) => {
        const col = nz.select(1, k);
        try {
          return col.clone();
        } finally {
          col.dispose();
        }
      });
    } finally {
      nz.dispose();
    }
  }
  return callWithOut(NONZERO, NONZERO_OUT, [s], out);
}

/** `torch.where(condition)` with one argument: `nonzero(condition, { asTuple: true })`. */
export function whereCondition(condition: Tensor): Tensor[] {
  return nonzero(condition, { asTuple: true });
}

setNonzero((mask) => nonzero(mask));

/**
 * `await torch.nonzeroAsync(x, { asTuple })`: `nonzero` on any device. On a device that
 * reads asynchronously only (WebGPU) the count is read first (a 4-byte read after the count
 * passes, as CUDA's sync), then the device computes the positions; elsewhere it is `nonzero`
 * (Note [Data-dependent sizes on async-read backends]).
 */
export async function nonzeroAsync(input: Tensor, options: NonzeroOptions & { asTuple: true }): Promise<Tensor[]>;
export async function nonzeroAsync(input: Tensor, options?: NonzeroOptions): Promise<Tensor>;
export async function nonzeroAsync(...a: unknown[]): Promise<Tensor | Tensor[]> {
  const [self, out, asTuple] = nonzeroArgs.bind(a);
  const options = { out, asTuple };
  const s = unwrapTensor('nonzero', 'input', self);
  if (!countsAreAsync(s.device)) return nonzero(self, options);
  if (options.asTuple && options.out) throw new TorchError('nonzero(): as_tuple=True does not support out=');
  const n = await countNonzeroAsync(s);
  return withKnownCounts([n], () => nonzero(self, options));
}

/**
 * `await torch.maskedSelectAsync(x, mask)`: `maskedSelect` on any device (the count of the
 * broadcast mask read first on WebGPU; Note [Data-dependent sizes on async-read backends]).
 * Autograd records MaskedSelectBackward0 as the sync form does.
 */
export const maskedSelectAsync = front(MASKED_SELECT_SCHEMA, { name: 'maskedSelectAsync' }).run(async ([self, mask, out]): Promise<Tensor> => {
  const op = 'masked_select';
  const options = { out };
  const s = unwrapTensor(op, 'input', self);
  const m = unwrapTensor(op, 'mask', mask);
  if (!countsAreAsync(s.device) && !countsAreAsync(m.device)) return maskedSelect(self, mask, options);
  // the sync form's checks first, so that a bad call reads nothing
  commonDevice(op, [s, m]);
  checkMask(op, m);
  const mb = broadcastTo(m, broadcastShapes(op, s.sizes, m.sizes));
  let n: number;
  try {
    n = await countNonzeroAsync(mb);
  } finally {
    mb.release();
  }
  // (a complex self is selected part by part, each part's masked_select taking the count:
  // core's complex masked_select kernel, Note [Complex tensors are pairs of reals])
  const counts = isComplexType(s.dtype) ? [n, n] : [n];
  return withKnownCounts(counts, () => maskedSelect(self, mask, options));
});
