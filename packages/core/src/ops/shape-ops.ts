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
import { defineComposite } from './composite';
import { clone } from './copy';
import { makeBinder, makeOverloads, type BoundArgs, type OptionalArgs } from './binder';
import { expandOf, geometryOf, permute, permuteOf, selectOf, sliceOf, transpose, transposeOf, viewOf, type IntListArgs } from './views';

/** `reshape`: a view when the strides allow one, else a contiguous copy viewed at the shape. */
export const RESHAPE = defineComposite('reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)', ([self, shape]) => {
    const s = self;
    const r = reshapeGeometry('reshape', geometryOf(s.impl), shape);
    return r.view ? viewOf(s, [...r.sizes]) : viewOf(clone(s, { memoryFormat: 'contiguous' }), [...r.sizes]);
  });

export const FLATTEN = defineComposite('flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)', ([self, start, end]) => {
    const s = self;
    const g = geometryOf(s.impl);
    const r = flattenGeometry('flatten', g, start, end);
    // Nothing to merge (start == end): PyTorch returns self, whose size-1 dims keep their
    // strides (a reshape would recompute them).
    if (r.view === g) return s;
    return callFunctional(RESHAPE, [s.impl, [...r.sizes]]);
  });

export const UNFLATTEN = defineComposite('unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)', ([self, dim, sizes]) => {
    const s = self;
    const g = unflattenGeometry('unflatten', geometryOf(s.impl), dim, sizes);
    return viewOf(s, [...g.sizes]);
  });

export const NARROW = defineComposite('narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)', ([self, dim, start, length]) => {
    const s = self;
    // Validated by the geometry helper (PyTorch's errors); the view itself is a slice.
    narrowGeometry('narrow', geometryOf(s.impl), dim, start, length);
    const d = normalizeDim('narrow', dim, s.dim());
    const st = start < 0 ? start + s.shape[d] : start;
    return sliceOf(s, d, st, st + length, 1);
  });

export const MOVEDIM = defineComposite('movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)', ([self, src, dst]) => {
    const s = self;
    return permuteOf(s, movedimPermutation('movedim', s.dim(), src, dst));
  });

function splitComposite(self: Tensor, split: number | number[], dim: number): Tensor[] {
  if (self.dim() === 0) throw new ShapeError('split: split expects at least a 1-dimensional tensor');
  const d = normalizeDim('split', dim, self.dim());
  return pieces(self, d, splitSizes('split', self.shape[d], split, dim));
}

export const SPLIT = defineComposite('split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]', ([self, size, dim]) => splitComposite(self, size, dim));

export const SPLIT_WITH_SIZES = defineComposite('split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]', ([self, sizes, dim]) =>
  splitComposite(self, sizes, dim),
);

export const CHUNK = defineComposite('chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]', ([self, chunks, dim]) => {
    const s = self;
    if (s.dim() === 0) throw new ShapeError('chunk: chunk expects at least a 1-dimensional tensor');
    const n = chunks;
    if (!Number.isInteger(n) || n <= 0) throw new TorchError(`chunk: chunk expects \`chunks\` to be greater than 0, got: ${n}`);
    const d = normalizeDim('chunk', dim, s.dim());
    return pieces(s, d, chunkSizes('chunk', s.shape[d], n));
  });

export const UNBIND = defineComposite('unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]', ([self, dim]) => {
    const s = self;
    const d = normalizeDim('unbind', dim, s.dim(), { wrapScalar: false });
    const out: Tensor[] = [];
    for (let i = 0; i < s.shape[d]; i++) out.push(selectOf(s, d, i));
    return out;
  });

function pieces(s: Tensor, d: number, sizes: readonly number[]): Tensor[] {
  const out: Tensor[] = [];
  let start = 0;
  for (const n of sizes) {
    out.push(sliceOf(s, d, start, start + n, 1));
    start += n;
  }
  return out;
}

// ---- front ends ----
// (Note [The argument binder])
const reshapeArgs = makeBinder('reshape', 'reshape(Tensor self, SymInt[] shape) -> Tensor', { varargs: true });
const flattenArgs = makeBinder('flatten', 'flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor');
const unflattenArgs = makeBinder('unflatten', 'unflatten(Tensor self, int dim, SymInt[] sizes) -> Tensor');
const narrowArgs = makeBinder('narrow', 'narrow(Tensor self, int dim, SymInt start, SymInt length) -> Tensor');
const movedimArgs = makeBinder('movedim', 'movedim(Tensor self, int[1] source, int[1] destination) -> Tensor');
const moveaxisArgs = makeBinder('moveaxis', 'moveaxis(Tensor self, int[1] source, int[1] destination) -> Tensor');
// split_size_or_sections: an int (each piece's size) or a list (the pieces' sizes), PyTorch's two overloads
const splitArgs = makeOverloads('split', ['split(Tensor self, SymInt split_size_or_sections, int dim=0) -> Tensor[]', 'split(Tensor self, SymInt[] split_size_or_sections, int dim=0) -> Tensor[]']);
const chunkArgs = makeBinder('chunk', 'chunk(Tensor self, int chunks, int dim=0) -> Tensor[]');
const unbindArgs = makeBinder('unbind', 'unbind(Tensor self, int dim=0) -> Tensor[]');
const tArgs = makeBinder('t', 't(Tensor self) -> Tensor');
const expandAsArgs = makeBinder('expand_as', 'expand_as(Tensor self, Tensor other) -> Tensor');

/** `x.reshape(2, 3)`, `torch.reshape(x, [2, -1])`: a view where the strides allow, else a copy. */
export function reshape(input: Tensor, ...shape: IntListArgs<'shape'>): Tensor;
export function reshape(...a: unknown[]): Tensor {
  const [self, shape] = reshapeArgs.bind(a);
  return callFunctional(RESHAPE, [unwrapTensor('reshape', 'self', self), shape]);
}

export function flatten(input: Tensor, ...rest: OptionalArgs<[startDim: number, endDim: number], { startDim?: number | null; endDim?: number | null }>): Tensor;
export function flatten(...a: unknown[]): Tensor {
  const [self, start, end] = flattenArgs.bind(a);
  return callFunctional(FLATTEN, [unwrapTensor('flatten', 'self', self), start, end]);
}

export function unflatten(input: Tensor, ...rest: BoundArgs<[dim: number, sizes: readonly number[]], [], { dim?: number; sizes?: readonly number[] }>): Tensor;
export function unflatten(...a: unknown[]): Tensor {
  const [self, dim, sizes] = unflattenArgs.bind(a);
  return callFunctional(UNFLATTEN, [unwrapTensor('unflatten', 'self', self), dim, sizes]);
}

export function narrow(input: Tensor, ...rest: BoundArgs<[dim: number, start: number, length: number], [], { dim?: number; start?: number; length?: number }>): Tensor;
export function narrow(...a: unknown[]): Tensor {
  const [self, dim, start, length] = narrowArgs.bind(a);
  return callFunctional(NARROW, [unwrapTensor('narrow', 'self', self), dim, start, length]);
}

type Dims = number | readonly number[];
type MovedimArgs = BoundArgs<[source: Dims, destination: Dims], [], { source?: Dims; destination?: Dims }>;

export function movedim(input: Tensor, ...rest: MovedimArgs): Tensor;
export function movedim(...a: unknown[]): Tensor {
  const [self, src, dst] = movedimArgs.bind(a);
  return callFunctional(MOVEDIM, [unwrapTensor('movedim', 'self', self), src, dst]);
}

/** `torch.moveaxis`: numpy's name for movedim. */
export function moveaxis(input: Tensor, ...rest: MovedimArgs): Tensor;
export function moveaxis(...a: unknown[]): Tensor {
  const [self, src, dst] = moveaxisArgs.bind(a);
  return callFunctional(MOVEDIM, [unwrapTensor('moveaxis', 'self', self), src, dst]);
}

type SplitSize = number | readonly number[];

/** `split(x, 2)` (pieces of 2 along dim) or `split(x, [1, 3])` (pieces of those sizes). */
export function split(input: Tensor, ...rest: BoundArgs<[splitSizeOrSections: SplitSize], [dim: number], { splitSizeOrSections?: SplitSize; dim?: number | null }>): Tensor[];
export function split(...a: unknown[]): Tensor[] {
  const r = splitArgs.bind(a);
  const [self, , dim] = r.values;
  const x = unwrapTensor('split', 'self', self);
  return r.index === 0 ? callMulti(SPLIT, [x, r.values[1], dim]) : callMulti(SPLIT_WITH_SIZES, [x, r.values[1], dim]);
}

export function chunk(input: Tensor, ...rest: BoundArgs<[chunks: number], [dim: number], { chunks?: number; dim?: number | null }>): Tensor[];
export function chunk(...a: unknown[]): Tensor[] {
  const [self, chunks, dim] = chunkArgs.bind(a);
  return callMulti(CHUNK, [unwrapTensor('chunk', 'self', self), chunks, dim]);
}

export function unbind(input: Tensor, ...rest: OptionalArgs<[dim: number], { dim?: number | null }>): Tensor[];
export function unbind(...a: unknown[]): Tensor[] {
  const [self, dim] = unbindArgs.bind(a);
  return callMulti(UNBIND, [unwrapTensor('unbind', 'self', self), dim]);
}

/** `x.t()`: transpose of a ≤2-D tensor (the tensor itself, as a view, for 0-D and 1-D). */
export function t(input: Tensor): Tensor;
export function t(...a: unknown[]): Tensor {
  const [self] = tArgs.bind(a);
  const n = self.dim();
  if (n > 2) throw new ShapeError(`t: t() expects a tensor with <= 2 dimensions, but self is ${n}D`);
  return n < 2 ? transposeOf(self, 0, 0) : transposeOf(self, 0, 1);
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

export function expandAs(input: Tensor, ...rest: BoundArgs<[other: Tensor], [], { other?: Tensor }>): Tensor;
export function expandAs(...a: unknown[]): Tensor {
  const [self, other] = expandAsArgs.bind(a);
  return expandOf(self, [...other.shape]);
}
