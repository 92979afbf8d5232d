import { BACKEND_KEYS, DispatchKey } from '../dispatch/dispatch-key';
import { FALLTHROUGH, registerKernel, registerOperator, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import {
  asStridedGeometry,
  diagonalGeometry,
  expandGeometry,
  permuteGeometry,
  selectGeometry,
  sliceGeometry,
  squeezeGeometry,
  tGeometry,
  transposeGeometry,
  unfoldGeometry,
  unsqueezeGeometry,
  viewGeometry,
  type Geometry,
} from '../views';
import { callFunctional, callMutating, unwrapTensor } from './call';
import { front, overloadedFront, type OptionsOf } from './front';
import { CHECK_KERNEL_ARGS, checkKernelArgs, type KernelArgs } from './kernel-args';

/**
 * Note [View ops]
 * A view op is pure stride arithmetic on the same storage, identical on every backend, so
 * its kernel is registered at every backend key (PyTorch's CompositeExplicitAutograd). The
 * result shares the base's storage and version counter (TensorImpl.view). Autograd registers
 * its own kernels for these ops above the backend keys.
 */
function defineView<const S extends string>(schema: S, geometry: (self: TensorImpl, args: KernelArgs<S>) => Geometry): OperatorHandle<S> {
  return defineGeometryOp(schema, 'view', geometry);
}

/**
 * An in-place view op (PyTorch's `inplace_view` tag: `t_`, `transpose_`, `squeeze_`,
 * `unsqueeze_`, `as_strided_`): the same stride arithmetic as its view op, written onto `self`
 * itself (TensorImpl.setGeometry, Note [In-place view ops]), which it returns borrowed as every
 * in-place kernel does (Note [Kernel results and ownership]). The schema's `Tensor(a!)` gives
 * it the ADInplaceOrView kernel that bumps the version; autograd records it as an in-place op
 * whose Node becomes `self`'s gradFn (autograd's Note [In-place view ops]).
 */
function defineInplaceView<const S extends string>(schema: S, geometry: (self: TensorImpl, args: KernelArgs<S>) => Geometry): OperatorHandle<S> {
  return defineGeometryOp(schema, 'inplace_view', geometry);
}

function defineGeometryOp<const S extends string>(schema: S, tag: 'view' | 'inplace_view', geometry: (self: TensorImpl, args: KernelArgs<S>) => Geometry): OperatorHandle<S> {
  const h = registerOperator({ schema, tags: [tag] });
  // (the boxed arguments are the schema's tuple, as for structured kernels: registry.ts
  // `unboxed`; checked in the test suites, Note [Checking kernel arguments])
  const typed = geometry as (self: TensorImpl, args: unknown[]) => Geometry;
  const kernel: BoxedKernel = (_ks, args) => {
    if (CHECK_KERNEL_ARGS) checkKernelArgs(h.schema, args, h.def.tags);
    const self = args[0];
    if (!(self instanceof TensorImpl)) throw new TorchError(`${h.schema.qualifiedName}(): argument 'self' must be Tensor`);
    const g = typed(self, args);
    if (tag === 'view') return self.view(g.sizes, g.strides, g.offset);
    self.setGeometry(g.sizes, g.strides, g.offset);
    return self;
  };
  for (const k of BACKEND_KEYS) registerKernel(h, k, kernel);
  // stride arithmetic is the same for complex elements (Note [Complex tensors are pairs of reals])
  registerKernel(h, DispatchKey.Complex, FALLTHROUGH);
  // a view of a conjugated tensor is conjugated too (TensorImpl.view keeps the bit)
  registerKernel(h, DispatchKey.Conjugate, FALLTHROUGH);
  return h;
}

export function geometryOf(t: TensorImpl): Geometry {
  return { sizes: t.sizes, strides: t.strides, offset: t.storageOffset };
}

export const VIEW = defineView('view(Tensor(a) self, SymInt[] size) -> Tensor(a)', (t, [, size]) =>
  viewGeometry('view', geometryOf(t), size),
);
export const AS_STRIDED = defineView(
  'as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)',
  (t, [, size, stride, offset]) => asStridedGeometry('asStrided', geometryOf(t), size, stride, offset, t.storage.nbytes / t.itemSize),
);
export const PERMUTE = defineView('permute(Tensor(a) self, int[] dims) -> Tensor(a)', (t, [, dims]) =>
  permuteGeometry('permute', geometryOf(t), dims),
);
export const TRANSPOSE = defineView('transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)', (t, [, d0, d1]) =>
  transposeGeometry('transpose', geometryOf(t), d0, d1),
);
export const SELECT = defineView('select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)', (t, [, dim, index]) =>
  selectGeometry('select', geometryOf(t), dim, index),
);
export const SLICE = defineView(
  'slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)',
  (t, [, dim, start, end, step]) => sliceGeometry('slice', geometryOf(t), dim, start, end, step),
);
export const UNSQUEEZE = defineView('unsqueeze(Tensor(a) self, int dim) -> Tensor(a)', (t, [, dim]) =>
  unsqueezeGeometry('unsqueeze', geometryOf(t), dim),
);
export const SQUEEZE = defineView('squeeze.dims(Tensor(a) self, int[]? dim) -> Tensor(a)', (t, [, dims]) =>
  squeezeGeometry('squeeze', geometryOf(t), dims),
);
export const EXPAND = defineView('expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)', (t, [, size]) =>
  expandGeometry('expand', geometryOf(t), size),
);
export const UNFOLD = defineView('unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)', (t, [, d, s, st]) =>
  unfoldGeometry('unfold', geometryOf(t), d, s, st),
);
export const DIAGONAL = defineView(
  'diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)',
  (t, [, offset, d1, d2]) => diagonalGeometry('diagonal', geometryOf(t), offset, d1, d2),
);

export const T_ = defineInplaceView('t_(Tensor(a!) self) -> Tensor(a!)', (t) => {
  if (t.dim > 2) throw new ShapeError(`t_: t_() expects a tensor with <= 2 dimensions, but self is ${t.dim}D`);
  return tGeometry('t_', geometryOf(t));
});
export const TRANSPOSE_ = defineInplaceView('transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)', (t, [, d0, d1]) =>
  transposeGeometry('transpose_', geometryOf(t), d0, d1),
);
export const SQUEEZE_ = defineInplaceView('squeeze_(Tensor(a!) self) -> Tensor(a!)', (t) => squeezeGeometry('squeeze_', geometryOf(t), null));
export const SQUEEZE_DIM_ = defineInplaceView('squeeze_.dim(Tensor(a!) self, int dim) -> Tensor(a!)', (t, [, dim]) =>
  squeezeGeometry('squeeze_', geometryOf(t), dim),
);
export const UNSQUEEZE_ = defineInplaceView('unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)', (t, [, dim]) =>
  unsqueezeGeometry('unsqueeze_', geometryOf(t), dim),
);
export const AS_STRIDED_ = defineInplaceView(
  'as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a!)',
  (t, [, size, stride, offset]) => asStridedGeometry('as_strided_', geometryOf(t), size, stride, offset, t.storage.nbytes / t.itemSize),
);
/** `detach` aliases the data and drops autograd history (autograd's kernel does the latter). */
export const DETACH = defineView('detach(Tensor(a) self) -> Tensor(a)', (t) => geometryOf(t));
/** An alias with the same geometry, used where PyTorch returns a new handle to the same data. */
export const ALIAS = defineView('alias(Tensor(a) self) -> Tensor(a)', (t) => geometryOf(t));

// ---- front ends ----
// (Note [The argument binder]; Note [Variadic int lists] for `x.view(2, 3)`)

/**
 * The view ops on values already bound, for composites and front ends that bound their own
 * call: a user's call is bound once, not again by each view it is built from.
 */
export const viewOf = (t: Tensor, size: number[]): Tensor => callFunctional(VIEW, [unwrapTensor('view', 'self', t), size]);
export const sliceOf = (t: Tensor, dim: number, start: number | null, end: number | null, step: number): Tensor =>
  callFunctional(SLICE, [unwrapTensor('slice', 'self', t), dim, start, end, step]);
export const selectOf = (t: Tensor, dim: number, index: number): Tensor => callFunctional(SELECT, [unwrapTensor('select', 'self', t), dim, index]);
export const permuteOf = (t: Tensor, dims: number[]): Tensor => callFunctional(PERMUTE, [unwrapTensor('permute', 'self', t), dims]);
export const transposeOf = (t: Tensor, d0: number, d1: number): Tensor => callFunctional(TRANSPOSE, [unwrapTensor('transpose', 'self', t), d0, d1]);
export const expandOf = (t: Tensor, size: number[]): Tensor => callFunctional(EXPAND, [unwrapTensor('expand', 'self', t), size, false]);

/** An int list given as one list, or (Note [Variadic int lists]) as variadic ints: `(2, 3)`, `([2, 3])`, `({ size: [2, 3] })`. */
export type IntListArgs<K extends string> = number[] | [list: number | readonly number[]] | [options: { [P in K]: number | readonly number[] }];

/** `x.view(2, 3)`, `x.view([2, -1])`: the same data seen at another shape (one -1 is inferred). */
export const view = front('view(Tensor self, SymInt[] size) -> Tensor', { varargs: true }).run(([self, size]): Tensor =>
  callFunctional(VIEW, [unwrapTensor('view', 'self', self), size]),
);

export const asStrided = front('as_strided(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor').run(
  ([self, size, stride, offset]): Tensor => callFunctional(AS_STRIDED, [unwrapTensor('as_strided', 'self', self), size, stride, offset ?? null]),
);

/** `x.permute(2, 0, 1)` or `torch.permute(x, [2, 0, 1])`. */
export const permute = front('permute(Tensor self, int[] dims) -> Tensor', { varargs: true }).run(([self, dims]): Tensor =>
  callFunctional(PERMUTE, [unwrapTensor('permute', 'self', self), dims]),
);

export const transpose = front('transpose(Tensor self, int dim0, int dim1) -> Tensor').run(([self, d0, d1]): Tensor =>
  callFunctional(TRANSPOSE, [unwrapTensor('transpose', 'self', self), d0, d1]),
);

/** `torch.swapaxes` (numpy's name for transpose; keywords axis0 and axis1). */
export const swapaxes = front('swapaxes(Tensor self, int axis0, int axis1) -> Tensor').run(([self, d0, d1]): Tensor =>
  callFunctional(TRANSPOSE, [unwrapTensor('swapaxes', 'self', self), d0, d1]),
);

/** `torch.swapdims`: transpose by another name. */
export const swapdims = front('swapdims(Tensor self, int dim0, int dim1) -> Tensor').run(([self, d0, d1]): Tensor =>
  callFunctional(TRANSPOSE, [unwrapTensor('swapdims', 'self', self), d0, d1]),
);

export const select = front('select(Tensor self, int dim, SymInt index) -> Tensor').run(([self, dim, index]): Tensor =>
  callFunctional(SELECT, [unwrapTensor('select', 'self', self), dim, index]),
);

export const unsqueeze = front('unsqueeze(Tensor self, int dim) -> Tensor').run(([self, dim]): Tensor =>
  callFunctional(UNSQUEEZE, [unwrapTensor('unsqueeze', 'self', self), dim]),
);

/** `x.squeeze()` (every size-1 dim), `x.squeeze(1)`, `x.squeeze([0, 2])`. */
export const squeeze = front('squeeze(Tensor self, int[1]? dim=None) -> Tensor').run(([self, dims]): Tensor =>
  callFunctional(SQUEEZE, [unwrapTensor('squeeze', 'self', self), dims ?? null]),
);

// (`implicit` only marks a trace's expand; the eager result is the same either way)
/** `x.expand(2, -1)` or `x.expand([2, -1])` (-1 keeps a dim's size). */
export const expand = front('expand(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor', { varargs: true }).run(([self, size, implicit]): Tensor =>
  callFunctional(EXPAND, [unwrapTensor('expand', 'self', self), size, implicit]),
);

export const unfold = front('unfold(Tensor self, int dimension, int size, int step) -> Tensor').run(([self, d, size, step]): Tensor =>
  callFunctional(UNFOLD, [unwrapTensor('unfold', 'self', self), d, size, step]),
);

export const diagonal = front('diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor').run(([self, offset, d1, d2]): Tensor =>
  callFunctional(DIAGONAL, [unwrapTensor('diagonal', 'self', self), offset, d1, d2]),
);
export type DiagonalOptions = OptionsOf<typeof diagonal>;

/** `torch.alias(x)`: a new view of all of `x` (AliasBackward0), as `x[...]` gives. */
export const alias = front('alias(Tensor self) -> Tensor', { method: false, namespaces: [] }).run(([self]): Tensor =>
  callFunctional(ALIAS, [unwrapTensor('alias', 'self', self)]),
);

export const detach = front('detach(Tensor self) -> Tensor').run(([self]): Tensor => callFunctional(DETACH, [unwrapTensor('detach', 'self', self)]));

/** `x.slice(dim, start, end, step)` (aten::slice); users mostly write `x.index(...)`. */
export const sliceDim = front('slice(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor', {
  name: 'sliceDim',
  method: false,
  namespaces: [],
}).run(([self, dim, start, end, step]): Tensor => callFunctional(SLICE, [unwrapTensor('slice', 'self', self), dim, start ?? null, end ?? null, step]));
export type SliceOptions = OptionsOf<typeof sliceDim>;

// ---- in-place view ops (Note [In-place view ops]): methods only, but torch.as_strided_, as in PyTorch 1.13 ----

/** `x.t_()`: `x` itself becomes its transpose (a 0-D or 1-D tensor is unchanged). */
export const t_ = front('t_(Tensor(a!) self) -> Tensor(a!)', { namespaces: [] }).run(([self]): Tensor =>
  callMutating(T_, [unwrapTensor('t_', 'self', self)], self),
);

/** `x.transpose_(0, 1)`: swaps two dims of `x` itself. */
export const transpose_ = front('transpose_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)', { namespaces: [] }).run(([self, d0, d1]): Tensor =>
  callMutating(TRANSPOSE_, [unwrapTensor('transpose_', 'self', self), d0, d1], self),
);

/** `x.swapaxes_(0, 1)`: transpose_ (numpy's name; keywords axis0 and axis1). */
export const swapaxes_ = front('swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)', { namespaces: [] }).run(([self, d0, d1]): Tensor =>
  callMutating(TRANSPOSE_, [unwrapTensor('swapaxes_', 'self', self), d0, d1], self),
);

/** `x.swapdims_(0, 1)`: transpose_ by another name. */
export const swapdims_ = front('swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)', { namespaces: [] }).run(([self, d0, d1]): Tensor =>
  callMutating(TRANSPOSE_, [unwrapTensor('swapdims_', 'self', self), d0, d1], self),
);

// (PyTorch 1.13's overloads: none and one dim; its Dimname one needs named tensors, which torch-ts has not)
/** `x.squeeze_()` drops every size-1 dim of `x` itself, `x.squeeze_(dim)` that one if its size is 1. */
export const squeeze_ = overloadedFront(['squeeze_(Tensor(a!) self) -> Tensor(a!)', 'squeeze_(Tensor(a!) self, int dim) -> Tensor(a!)'], {
  namespaces: [],
}).run((call): Tensor => {
  const self = call.values[0];
  const x = unwrapTensor('squeeze_', 'self', self);
  return call.index === 0 ? callMutating(SQUEEZE_, [x], self) : callMutating(SQUEEZE_DIM_, [x, call.values[1]], self);
});

/** `x.unsqueeze_(dim)`: inserts a size-1 dim into `x` itself. */
export const unsqueeze_ = front('unsqueeze_(Tensor(a!) self, int dim) -> Tensor(a!)', { namespaces: [] }).run(([self, dim]): Tensor =>
  callMutating(UNSQUEEZE_, [unwrapTensor('unsqueeze_', 'self', self), dim], self),
);

/** `x.asStrided_(size, stride, storageOffset?)`, `torch.asStrided_(x, ...)`: `x` itself gets that window onto its storage. */
export const asStrided_ = front('as_strided_(Tensor(a!) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a!)').run(
  ([self, size, stride, offset]): Tensor => callMutating(AS_STRIDED_, [unwrapTensor('as_strided_', 'self', self), size, stride, offset ?? null], self),
);
