import { registerOperator } from '../dispatch/dispatcher';
import { ShapeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import {
  chunkSizes,
  flattenGeometry,
  movedimPermutation,
  narrowGeometry,
  normalizeDim,
  reshapeGeometry,
  splitSizes,
  unflattenGeometry,
} from '../views';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { composite } from './composite';
import { clone } from './copy';
import { geometryOf, permute, select, sizesArg, sliceDim, transpose, view, expand } from './views';

/** `reshape`: a view when the strides allow one, else a contiguous copy viewed at the shape. */
export const RESHAPE = registerOperator({
  schema: 'reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)',
  composite: composite(([self, shape]) => {
    const s = self as Tensor;
    const r = reshapeGeometry('reshape', geometryOf(s.impl), shape as number[]);
    return r.view ? view(s, [...r.sizes]) : view(clone(s, { memoryFormat: 'contiguous' }), [...r.sizes]);
  }),
});

export const FLATTEN = registerOperator({
  schema: 'flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)',
  composite: composite(([self, start, end]) => {
    const s = self as Tensor;
    const g = geometryOf(s.impl);
    const r = flattenGeometry('flatten', g, start as number, end as number);
    // Nothing to merge (start == end): PyTorch returns self, whose size-1 dims keep their
    // strides (a reshape would recompute them).
    if (r.view === g) return s;
    return reshape(s, [...r.sizes]);
  }),
});

export const UNFLATTEN = registerOperator({
  schema: 'unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)',
  composite: composite(([self, dim, sizes]) => {
    const s = self as Tensor;
    const g = unflattenGeometry('unflatten', geometryOf(s.impl), dim as number, sizes as number[]);
    return view(s, [...g.sizes]);
  }),
});

export const NARROW = registerOperator({
  schema: 'narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)',
  composite: composite(([self, dim, start, length]) => {
    const s = self as Tensor;
    // Validated by the geometry helper (PyTorch's errors); the view itself is a slice.
    narrowGeometry('narrow', geometryOf(s.impl), dim as number, start as number, length as number);
    const d = normalizeDim('narrow', dim as number, s.dim());
    const st = (start as number) < 0 ? (start as number) + s.shape[d] : (start as number);
    return sliceDim(s, d, st, st + (length as number), 1);
  }),
});

export const MOVEDIM = registerOperator({
  schema: 'movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)',
  composite: composite(([self, src, dst]) => {
    const s = self as Tensor;
    return permute(s, movedimPermutation('movedim', s.dim(), src as number[], dst as number[]));
  }),
});

export const SPLIT = registerOperator({
  schema: 'split.Tensor(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]',
  composite: composite(([self, sizes, dim]) => {
    const s = self as Tensor;
    if (s.dim() === 0) throw new ShapeError('split: split expects at least a 1-dimensional tensor');
    const d = normalizeDim('split', dim as number, s.dim());
    const split = sizes as number | number[];
    return pieces(s, d, splitSizes('split', s.shape[d], split, dim as number));
  }),
});

export const CHUNK = registerOperator({
  schema: 'chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]',
  composite: composite(([self, chunks, dim]) => {
    const s = self as Tensor;
    if (s.dim() === 0) throw new ShapeError('chunk: chunk expects at least a 1-dimensional tensor');
    const n = chunks as number;
    if (!Number.isInteger(n) || n <= 0) throw new TorchError(`chunk: chunk expects \`chunks\` to be greater than 0, got: ${n}`);
    const d = normalizeDim('chunk', dim as number, s.dim());
    return pieces(s, d, chunkSizes('chunk', s.shape[d], n));
  }),
});

export const UNBIND = registerOperator({
  schema: 'unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]',
  composite: composite(([self, dim]) => {
    const s = self as Tensor;
    const d = normalizeDim('unbind', dim as number, s.dim(), { wrapScalar: false });
    const out: Tensor[] = [];
    for (let i = 0; i < s.shape[d]; i++) out.push(select(s, d, i));
    return out;
  }),
});

function pieces(s: Tensor, d: number, sizes: readonly number[]): Tensor[] {
  const out: Tensor[] = [];
  let start = 0;
  for (const n of sizes) {
    out.push(sliceDim(s, d, start, start + n, 1));
    start += n;
  }
  return out;
}

// ---- front ends ----
export function reshape(self: Tensor, ...shape: (number | readonly number[])[]): Tensor {
  return callFunctional(RESHAPE, [unwrapTensor('reshape', 'self', self), sizesArg('reshape', shape)]);
}

export function flatten(self: Tensor, startDim = 0, endDim = -1): Tensor {
  return callFunctional(FLATTEN, [unwrapTensor('flatten', 'self', self), startDim, endDim]);
}

export function unflatten(self: Tensor, dim: number, sizes: readonly number[]): Tensor {
  return callFunctional(UNFLATTEN, [unwrapTensor('unflatten', 'self', self), dim, [...sizes]]);
}

export function narrow(self: Tensor, dim: number, start: number, length: number): Tensor {
  return callFunctional(NARROW, [unwrapTensor('narrow', 'self', self), dim, start, length]);
}

export function movedim(self: Tensor, source: number | readonly number[], destination: number | readonly number[]): Tensor {
  const src = typeof source === 'number' ? [source] : [...source];
  const dst = typeof destination === 'number' ? [destination] : [...destination];
  return callFunctional(MOVEDIM, [unwrapTensor('movedim', 'self', self), src, dst]);
}

export function split(self: Tensor, splitSizeOrSections: number | readonly number[], dim: number | { dim?: number } = 0): Tensor[] {
  const d = typeof dim === 'number' ? dim : (dim.dim ?? 0);
  const sizes = typeof splitSizeOrSections === 'number' ? splitSizeOrSections : [...splitSizeOrSections];
  return callMulti(SPLIT, [unwrapTensor('split', 'self', self), sizes, d]);
}

export function chunk(self: Tensor, chunks: number, dim: number | { dim?: number } = 0): Tensor[] {
  const d = typeof dim === 'number' ? dim : (dim.dim ?? 0);
  return callMulti(CHUNK, [unwrapTensor('chunk', 'self', self), chunks, d]);
}

export function unbind(self: Tensor, dim: number | { dim?: number } = 0): Tensor[] {
  const d = typeof dim === 'number' ? dim : (dim.dim ?? 0);
  return callMulti(UNBIND, [unwrapTensor('unbind', 'self', self), d]);
}

/** `x.t()`: transpose of a ≤2-D tensor (the tensor itself, as a view, for 0-D and 1-D). */
export function t(self: Tensor): Tensor {
  const n = self.dim();
  if (n > 2) throw new ShapeError(`t: t() expects a tensor with <= 2 dimensions, but self is ${n}D`);
  return n < 2 ? transpose(self, 0, 0) : transpose(self, 0, 1);
}

/** `x.mT`: the last two dims swapped (batched matrix transpose). */
export function mT(self: Tensor): Tensor {
  if (self.dim() < 2) throw new ShapeError(`mT: tensor.mT is only supported on matrices or batches of matrices. Got ${self.dim()}-D tensor.`);
  return transpose(self, -2, -1);
}

/**
 * `x.T`: the dims reversed, as PyTorch's `numpy_T` (a 0-D tensor's is a view of itself).
 * PyTorch deprecates it for other than 2-D tensors, with a warning; it still returns the
 * reversed view, and so does this.
 */
export function T(self: Tensor): Tensor {
  const n = self.dim();
  return permute(self, Array.from({ length: n }, (_, i) => n - 1 - i));
}

/**
 * `x.H`: the conjugate transpose of a matrix (`matrix_H`); a 0-D tensor is its own. With no
 * complex dtypes yet, the conjugate is the identity.
 */
export function H(self: Tensor): Tensor {
  const n = self.dim();
  if (n !== 2 && n !== 0) {
    throw new ShapeError(
      `H: tensor.H is only supported on matrices (2-D tensors). Got ${n}-D tensor.` + (n > 2 ? '\nFor batches of matrices, consider using tensor.mH' : ''),
    );
  }
  return n === 0 ? permute(self, []) : transpose(self, 0, 1);
}

/** `x.mH`: the conjugate transpose of the last two dims (`adjoint`); the conjugate is the identity without complex dtypes. */
export function mH(self: Tensor): Tensor {
  if (self.dim() < 2) throw new ShapeError(`mH: tensor.mH is only supported on matrices or batches of matrices. Got ${self.dim()}-D tensor.`);
  return transpose(self, -2, -1);
}

export function expandAs(self: Tensor, other: Tensor): Tensor {
  return expand(self, [...other.shape]);
}
