import { BACKEND_KEYS } from '../dispatch/dispatch-key';
import { registerKernel, registerOperator, type BoxedKernel, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
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
  transposeGeometry,
  unfoldGeometry,
  unsqueezeGeometry,
  viewGeometry,
  type Geometry,
} from '../views';
import { makeBinder, type BoundArgs, type OptionalArgs } from './binder';
import { callFunctional, unwrapTensor } from './call';
import { CHECK_KERNEL_ARGS, checkKernelArgs, type KernelArgs } from './kernel-args';

/**
 * Note [View ops]
 * A view op is pure stride arithmetic on the same storage, identical on every backend, so
 * its kernel is registered at every backend key (PyTorch's CompositeExplicitAutograd). The
 * result shares the base's storage and version counter (TensorImpl.view). Autograd registers
 * its own kernels for these ops above the backend keys.
 */
function defineView<const S extends string>(schema: S, geometry: (self: TensorImpl, args: KernelArgs<S>) => Geometry): OperatorHandle<S> {
  const h = registerOperator({ schema, tags: ['view'] });
  // (the boxed arguments are the schema's tuple, as for structured kernels: registry.ts
  // `unboxed`; checked in the test suites, Note [Checking kernel arguments])
  const typed = geometry as (self: TensorImpl, args: unknown[]) => Geometry;
  const kernel: BoxedKernel = (_ks, args) => {
    if (CHECK_KERNEL_ARGS) checkKernelArgs(h.schema, args, h.def.tags);
    const self = args[0];
    if (!(self instanceof TensorImpl)) throw new TorchError(`${h.schema.qualifiedName}(): argument 'self' must be Tensor`);
    const g = typed(self, args);
    return self.view(g.sizes, g.strides, g.offset);
  };
  for (const k of BACKEND_KEYS) registerKernel(h, k, kernel);
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

const viewArgs = makeBinder('view', 'view(Tensor self, SymInt[] size) -> Tensor', { varargs: true });
const asStridedArgs = makeBinder('as_strided', 'as_strided(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor');
const permuteArgs = makeBinder('permute', 'permute(Tensor self, int[] dims) -> Tensor', { varargs: true });
const transposeArgs = makeBinder('transpose', 'transpose(Tensor self, int dim0, int dim1) -> Tensor');
const swapaxesArgs = makeBinder('swapaxes', 'swapaxes(Tensor self, int axis0, int axis1) -> Tensor');
const swapdimsArgs = makeBinder('swapdims', 'swapdims(Tensor self, int dim0, int dim1) -> Tensor');
const selectArgs = makeBinder('select', 'select(Tensor self, int dim, SymInt index) -> Tensor');
const unsqueezeArgs = makeBinder('unsqueeze', 'unsqueeze(Tensor self, int dim) -> Tensor');
const squeezeArgs = makeBinder('squeeze', 'squeeze(Tensor self, int[1]? dim=None) -> Tensor');
// (`implicit` only marks a trace's expand; the eager result is the same either way)
const expandArgs = makeBinder('expand', 'expand(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor', { varargs: true });
const unfoldArgs = makeBinder('unfold', 'unfold(Tensor self, int dimension, int size, int step) -> Tensor');
const diagonalArgs = makeBinder('diagonal', 'diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor');
const aliasArgs = makeBinder('alias', 'alias(Tensor self) -> Tensor');
const detachArgs = makeBinder('detach', 'detach(Tensor self) -> Tensor');
const sliceArgs = makeBinder('slice', 'slice(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor');

/** `x.view(2, 3)`, `x.view([2, -1])`: the same data seen at another shape (one -1 is inferred). */
export function view(input: Tensor, ...size: IntListArgs<'size'>): Tensor;
export function view(...a: unknown[]): Tensor {
  const [self, size] = viewArgs.bind(a);
  return callFunctional(VIEW, [unwrapTensor('view', 'self', self), size]);
}

export function asStrided(input: Tensor, ...rest: BoundArgs<[size: readonly number[], stride: readonly number[]], [storageOffset: number], { size?: readonly number[]; stride?: readonly number[]; storageOffset?: number | null }>): Tensor;
export function asStrided(...a: unknown[]): Tensor {
  const [self, size, stride, offset] = asStridedArgs.bind(a);
  return callFunctional(AS_STRIDED, [unwrapTensor('as_strided', 'self', self), size, stride, offset ?? null]);
}

/** `x.permute(2, 0, 1)` or `torch.permute(x, [2, 0, 1])`. */
export function permute(input: Tensor, ...dims: IntListArgs<'dims'>): Tensor;
export function permute(...a: unknown[]): Tensor {
  const [self, dims] = permuteArgs.bind(a);
  return callFunctional(PERMUTE, [unwrapTensor('permute', 'self', self), dims]);
}

export function transpose(input: Tensor, ...rest: BoundArgs<[dim0: number, dim1: number], [], { dim0?: number; dim1?: number }>): Tensor;
export function transpose(...a: unknown[]): Tensor {
  const [self, d0, d1] = transposeArgs.bind(a);
  return callFunctional(TRANSPOSE, [unwrapTensor('transpose', 'self', self), d0, d1]);
}

/** `torch.swapaxes` (numpy's name for transpose; keywords axis0 and axis1). */
export function swapaxes(input: Tensor, ...rest: BoundArgs<[axis0: number, axis1: number], [], { axis0?: number; axis1?: number }>): Tensor;
export function swapaxes(...a: unknown[]): Tensor {
  const [self, d0, d1] = swapaxesArgs.bind(a);
  return callFunctional(TRANSPOSE, [unwrapTensor('swapaxes', 'self', self), d0, d1]);
}

/** `torch.swapdims`: transpose by another name. */
export function swapdims(input: Tensor, ...rest: BoundArgs<[dim0: number, dim1: number], [], { dim0?: number; dim1?: number }>): Tensor;
export function swapdims(...a: unknown[]): Tensor {
  const [self, d0, d1] = swapdimsArgs.bind(a);
  return callFunctional(TRANSPOSE, [unwrapTensor('swapdims', 'self', self), d0, d1]);
}

export function select(input: Tensor, ...rest: BoundArgs<[dim: number, index: number], [], { dim?: number; index?: number }>): Tensor;
export function select(...a: unknown[]): Tensor {
  const [self, dim, index] = selectArgs.bind(a);
  return callFunctional(SELECT, [unwrapTensor('select', 'self', self), dim, index]);
}

export function unsqueeze(input: Tensor, ...rest: BoundArgs<[dim: number], [], { dim?: number }>): Tensor;
export function unsqueeze(...a: unknown[]): Tensor {
  const [self, dim] = unsqueezeArgs.bind(a);
  return callFunctional(UNSQUEEZE, [unwrapTensor('unsqueeze', 'self', self), dim]);
}

/** `x.squeeze()` (every size-1 dim), `x.squeeze(1)`, `x.squeeze([0, 2])`. */
export function squeeze(input: Tensor, ...rest: OptionalArgs<[dim: number | readonly number[]], { dim?: number | readonly number[] | null }>): Tensor;
export function squeeze(...a: unknown[]): Tensor {
  const [self, dims] = squeezeArgs.bind(a);
  return callFunctional(SQUEEZE, [unwrapTensor('squeeze', 'self', self), dims ?? null]);
}

/** `x.expand(2, -1)` or `x.expand([2, -1])` (-1 keeps a dim's size). */
export function expand(input: Tensor, ...size: IntListArgs<'size'> | [size: number | readonly number[], options: { implicit?: boolean }]): Tensor;
export function expand(...a: unknown[]): Tensor {
  const [self, size, implicit] = expandArgs.bind(a);
  return callFunctional(EXPAND, [unwrapTensor('expand', 'self', self), size, implicit]);
}

export function unfold(input: Tensor, ...rest: BoundArgs<[dimension: number, size: number, step: number], [], { dimension?: number; size?: number; step?: number }>): Tensor;
export function unfold(...a: unknown[]): Tensor {
  const [self, d, size, step] = unfoldArgs.bind(a);
  return callFunctional(UNFOLD, [unwrapTensor('unfold', 'self', self), d, size, step]);
}

export interface DiagonalOptions {
  offset?: number | null;
  dim1?: number | null;
  dim2?: number | null;
}

export function diagonal(input: Tensor, ...rest: OptionalArgs<[offset: number, dim1: number, dim2: number], DiagonalOptions>): Tensor;
export function diagonal(...a: unknown[]): Tensor {
  const [self, offset, d1, d2] = diagonalArgs.bind(a);
  return callFunctional(DIAGONAL, [unwrapTensor('diagonal', 'self', self), offset, d1, d2]);
}

/** `torch.alias(x)`: a new view of all of `x` (AliasBackward0), as `x[...]` gives. */
export function alias(input: Tensor): Tensor;
export function alias(...a: unknown[]): Tensor {
  const [self] = aliasArgs.bind(a);
  return callFunctional(ALIAS, [unwrapTensor('alias', 'self', self)]);
}

export function detach(input: Tensor): Tensor;
export function detach(...a: unknown[]): Tensor {
  const [self] = detachArgs.bind(a);
  return callFunctional(DETACH, [unwrapTensor('detach', 'self', self)]);
}

export interface SliceOptions {
  dim?: number | null;
  start?: number | null;
  end?: number | null;
  step?: number | null;
}

/** `x.slice(dim, start, end, step)` (aten::slice); users mostly write `x.index(...)`. */
export function sliceDim(input: Tensor, ...rest: OptionalArgs<[dim: number, start: number, end: number, step: number], SliceOptions>): Tensor;
export function sliceDim(...a: unknown[]): Tensor {
  const [self, dim, start, end, step] = sliceArgs.bind(a);
  return callFunctional(SLICE, [unwrapTensor('slice', 'self', self), dim, start ?? null, end ?? null, step]);
}
