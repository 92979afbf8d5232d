import { BACKEND_KEYS } from '../dispatch/dispatch-key';
import { registerKernel, registerOperator, type OperatorHandle } from '../dispatch/dispatcher';
import { TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
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
import { callFunctional, unwrapTensor } from './call';

/**
 * Note [View ops]
 * A view op is pure stride arithmetic on the same storage, identical on every backend, so
 * its kernel is registered at every backend key (PyTorch's CompositeExplicitAutograd). The
 * result shares the base's storage and version counter (TensorImpl.view). Autograd registers
 * its own kernels for these ops above the backend keys.
 */
function defineView(schema: string, geometry: (self: TensorImpl, args: unknown[]) => Geometry): OperatorHandle {
  const h = registerOperator({ schema, tags: ['view'] });
  const kernel = (_ks: unknown, args: unknown[]) => {
    const self = args[0] as TensorImpl;
    const g = geometry(self, args);
    return self.view(g.sizes, g.strides, g.offset);
  };
  for (const k of BACKEND_KEYS) registerKernel(h, k, kernel);
  return h;
}

export function geometryOf(t: TensorImpl): Geometry {
  return { sizes: t.sizes, strides: t.strides, offset: t.storageOffset };
}

export const VIEW = defineView('view(Tensor(a) self, SymInt[] size) -> Tensor(a)', (t, [, size]) =>
  viewGeometry('view', geometryOf(t), size as number[]),
);
export const AS_STRIDED = defineView(
  'as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)',
  (t, [, size, stride, offset]) =>
    asStridedGeometry(
      'asStrided',
      geometryOf(t),
      size as number[],
      stride as number[],
      offset as number | null | undefined,
      t.storage.nbytes / t.itemSize,
    ),
);
export const PERMUTE = defineView('permute(Tensor(a) self, int[] dims) -> Tensor(a)', (t, [, dims]) =>
  permuteGeometry('permute', geometryOf(t), dims as number[]),
);
export const TRANSPOSE = defineView('transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)', (t, [, d0, d1]) =>
  transposeGeometry('transpose', geometryOf(t), d0 as number, d1 as number),
);
export const SELECT = defineView('select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)', (t, [, dim, index]) =>
  selectGeometry('select', geometryOf(t), dim as number, index as number),
);
export const SLICE = defineView(
  'slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)',
  (t, [, dim, start, end, step]) =>
    sliceGeometry('slice', geometryOf(t), dim as number, start as number | null, end as number | null, step as number | null),
);
export const UNSQUEEZE = defineView('unsqueeze(Tensor(a) self, int dim) -> Tensor(a)', (t, [, dim]) =>
  unsqueezeGeometry('unsqueeze', geometryOf(t), dim as number),
);
export const SQUEEZE = defineView('squeeze.dims(Tensor(a) self, int[]? dim) -> Tensor(a)', (t, [, dims]) =>
  squeezeGeometry('squeeze', geometryOf(t), dims as number[] | null | undefined),
);
export const EXPAND = defineView('expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)', (t, [, size]) =>
  expandGeometry('expand', geometryOf(t), size as number[]),
);
export const UNFOLD = defineView('unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)', (t, [, d, s, st]) =>
  unfoldGeometry('unfold', geometryOf(t), d as number, s as number, st as number),
);
export const DIAGONAL = defineView(
  'diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)',
  (t, [, offset, d1, d2]) => diagonalGeometry('diagonal', geometryOf(t), offset as number, d1 as number, d2 as number),
);
/** `detach` aliases the data and drops autograd history (autograd's kernel does the latter). */
export const DETACH = defineView('detach(Tensor(a) self) -> Tensor(a)', (t) => geometryOf(t));
/** An alias with the same geometry, used where PyTorch returns a new handle to the same data. */
export const ALIAS = defineView('alias(Tensor(a) self) -> Tensor(a)', (t) => geometryOf(t));

// ---- front ends ----

/** Sizes given as an array or as variadic numbers (`x.view(2, 3)` or `x.view([2, 3])`). */
export function sizesArg(op: string, args: readonly unknown[]): number[] {
  const list = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  for (const s of list) {
    if (typeof s !== 'number' || !Number.isInteger(s)) {
      throw new TorchError(`${op}(): argument 'size' must be a list of integers, but got ${JSON.stringify(args)}`);
    }
  }
  return list as number[];
}

export function view(self: Tensor, ...shape: (number | readonly number[])[]): Tensor {
  return callFunctional(VIEW, [unwrapTensor('view', 'self', self), sizesArg('view', shape)]);
}

export function asStrided(self: Tensor, size: readonly number[], stride: readonly number[], storageOffset?: number | null): Tensor {
  return callFunctional(AS_STRIDED, [unwrapTensor('asStrided', 'self', self), [...size], [...stride], storageOffset ?? null]);
}

export function permute(self: Tensor, ...dims: (number | readonly number[])[]): Tensor {
  return callFunctional(PERMUTE, [unwrapTensor('permute', 'self', self), sizesArg('permute', dims)]);
}

export function transpose(self: Tensor, dim0: number, dim1: number): Tensor {
  return callFunctional(TRANSPOSE, [unwrapTensor('transpose', 'self', self), dim0, dim1]);
}

export function select(self: Tensor, dim: number, index: number): Tensor {
  return callFunctional(SELECT, [unwrapTensor('select', 'self', self), dim, index]);
}

export function unsqueeze(self: Tensor, dim: number): Tensor {
  return callFunctional(UNSQUEEZE, [unwrapTensor('unsqueeze', 'self', self), dim]);
}

export function squeeze(self: Tensor, dim?: number | readonly number[] | null): Tensor {
  const dims = dim == null ? null : typeof dim === 'number' ? [dim] : [...dim];
  return callFunctional(SQUEEZE, [unwrapTensor('squeeze', 'self', self), dims]);
}

export function expand(self: Tensor, ...shape: (number | readonly number[])[]): Tensor {
  return callFunctional(EXPAND, [unwrapTensor('expand', 'self', self), sizesArg('expand', shape), false]);
}

export function unfold(self: Tensor, dimension: number, size: number, step: number): Tensor {
  return callFunctional(UNFOLD, [unwrapTensor('unfold', 'self', self), dimension, size, step]);
}

export interface DiagonalOptions {
  offset?: number;
  dim1?: number;
  dim2?: number;
}

export function diagonal(self: Tensor, offset: number | DiagonalOptions = 0, dim1 = 0, dim2 = 1): Tensor {
  const o = typeof offset === 'object' ? offset : { offset, dim1, dim2 };
  return callFunctional(DIAGONAL, [unwrapTensor('diagonal', 'self', self), o.offset ?? 0, o.dim1 ?? 0, o.dim2 ?? 1]);
}

/** `torch.alias(x)`: a new view of all of `x` (AliasBackward0), as `x[...]` gives. */
export function alias(self: Tensor): Tensor {
  return callFunctional(ALIAS, [unwrapTensor('alias', 'self', self)]);
}

export function detach(self: Tensor): Tensor {
  return callFunctional(DETACH, [unwrapTensor('detach', 'self', self)]);
}

/** `x.slice(dim, start, end, step)` (aten::slice); users mostly write `x.index(...)`. */
export function sliceDim(self: Tensor, dim = 0, start: number | null = null, end: number | null = null, step = 1): Tensor {
  return callFunctional(SLICE, [unwrapTensor('slice', 'self', self), dim, start, end, step]);
}
