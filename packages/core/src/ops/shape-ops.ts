import { isComplexType } from '../dtype';
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
import { front, overloadedFront } from './front';
import { EXPAND, VIEW, expandOf, geometryOf, permute, permuteOf, selectOf, sliceOf, transpose, transposeOf, viewOf } from './views';
import { broadcastShapes as broadcastShapesOf } from '../iterator/broadcast';

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
// (Note [Front ends are declared once]; Note [Variadic int lists] for `x.reshape(2, 3)`)

/** `x.reshape(2, 3)`, `torch.reshape(x, [2, -1])`: a view where the strides allow, else a copy. */
export const reshape = front('reshape(Tensor self, SymInt[] shape) -> Tensor', { varargs: true }).run(([self, shape]): Tensor =>
  callFunctional(RESHAPE, [unwrapTensor('reshape', 'self', self), shape]),
);

export const flatten = front('flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor').run(([self, start, end]): Tensor =>
  callFunctional(FLATTEN, [unwrapTensor('flatten', 'self', self), start, end]),
);

export const unflatten = front('unflatten(Tensor self, int dim, SymInt[] sizes) -> Tensor').run(([self, dim, sizes]): Tensor =>
  callFunctional(UNFLATTEN, [unwrapTensor('unflatten', 'self', self), dim, sizes]),
);

export const narrow = front('narrow(Tensor self, int dim, SymInt start, SymInt length) -> Tensor').run(([self, dim, start, length]): Tensor =>
  callFunctional(NARROW, [unwrapTensor('narrow', 'self', self), dim, start, length]),
);

export const movedim = front('movedim(Tensor self, int[1] source, int[1] destination) -> Tensor').run(([self, src, dst]): Tensor =>
  callFunctional(MOVEDIM, [unwrapTensor('movedim', 'self', self), src, dst]),
);

/** `torch.moveaxis`: numpy's name for movedim. */
export const moveaxis = front('moveaxis(Tensor self, int[1] source, int[1] destination) -> Tensor').run(([self, src, dst]): Tensor =>
  callFunctional(MOVEDIM, [unwrapTensor('moveaxis', 'self', self), src, dst]),
);

// split_size_or_sections: an int (each piece's size) or a list (the pieces' sizes), PyTorch's two overloads
/** `split(x, 2)` (pieces of 2 along dim) or `split(x, [1, 3])` (pieces of those sizes). */
export const split = overloadedFront([
  'split(Tensor self, SymInt split_size_or_sections, int dim=0) -> Tensor[]',
  'split(Tensor self, SymInt[] split_size_or_sections, int dim=0) -> Tensor[]',
]).run((call): Tensor[] => {
  const x = unwrapTensor('split', 'self', call.values[0]);
  return call.index === 0 ? callMulti(SPLIT, [x, call.values[1], call.values[2]]) : callMulti(SPLIT_WITH_SIZES, [x, call.values[1], call.values[2]]);
});

/** `torch.split_with_sizes(x, sizes, dim)` / `x.splitWithSizes(sizes, dim)`: pieces of those sizes (SplitWithSizesBackward0). */
export const splitWithSizes = front('split_with_sizes(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]').run(([self, sizes, dim]): Tensor[] =>
  callMulti(SPLIT_WITH_SIZES, [unwrapTensor('split_with_sizes', 'self', self), sizes, dim]),
);

/**
 * `x.sumToSize(...size)`: `x` summed down to `size`, which must expand to `x`'s shape (PyTorch's
 * sum_to: the leading dims and the dims where `size` has 1 are summed, keeping dims, then
 * viewed at `size`).
 */
export const sumToSize = front('sum_to_size(Tensor self, SymInt[] size) -> Tensor', { namespaces: [], varargs: true }).run(([self, size]): Tensor => {
  const sizes = self.shape;
  const lead = sizes.length - size.length;
  const expandable = lead >= 0 && size.every((n, i) => n === sizes[lead + i] || n === 1);
  if (!expandable) throw new ShapeError(`sum_to_size: size {${fmtList(size)}} is not expandable to size {${fmtList(sizes)}}.`);
  const dims: number[] = [];
  for (let d = 0; d < sizes.length; d++) if (d < lead || (size[d - lead] === 1 && sizes[d] !== 1)) dims.push(d);
  if (dims.length === 0) return self;
  const summed = self.sum(dims, true);
  if (lead === 0) return summed;
  try {
    return callFunctional(VIEW, [summed.impl, size]);
  } finally {
    summed.dispose();
  }
});

const fmtList = (s: readonly number[]): string => `[${s.join(', ')}]`;

export const chunk = front('chunk(Tensor self, int chunks, int dim=0) -> Tensor[]').run(([self, chunks, dim]): Tensor[] =>
  callMulti(CHUNK, [unwrapTensor('chunk', 'self', self), chunks, dim]),
);

export const unbind = front('unbind(Tensor self, int dim=0) -> Tensor[]').run(([self, dim]): Tensor[] => callMulti(UNBIND, [unwrapTensor('unbind', 'self', self), dim]));

/** `x.t()`: transpose of a ≤2-D tensor (the tensor itself, as a view, for 0-D and 1-D). */
export const t = front('t(Tensor self) -> Tensor').run(([self]): Tensor => {
  const n = self.dim();
  if (n > 2) throw new ShapeError(`t: t() expects a tensor with <= 2 dimensions, but self is ${n}D`);
  return n < 2 ? transposeOf(self, 0, 0) : transposeOf(self, 0, 1);
});

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

/** `x.H`: the conjugate transpose of a matrix (`matrix_H`); a 0-D tensor is its own. */
export function H(self: Tensor): Tensor {
  const n = self.dim();
  if (n !== 2 && n !== 0) {
    throw new ShapeError(
      `H: tensor.H is only supported on matrices (2-D tensors). Got ${n}-D tensor.` + (n > 2 ? '\nFor batches of matrices, consider using tensor.mH' : ''),
    );
  }
  const t = n === 0 ? permute(self, []) : transpose(self, 0, 1);
  return isComplexType(t.dtype) ? t.conj() : t;
}

/** `x.mH`: the conjugate transpose of the last two dims (`adjoint`). */
export function mH(self: Tensor): Tensor {
  if (self.dim() < 2) throw new ShapeError(`mH: tensor.mH is only supported on matrices or batches of matrices. Got ${self.dim()}-D tensor.`);
  const t = transpose(self, -2, -1);
  return isComplexType(t.dtype) ? t.conj() : t;
}

export const expandAs = front('expand_as(Tensor self, Tensor other) -> Tensor').run(([self, other]): Tensor => expandOf(self, [...other.shape]));

/** `x.viewAs(other)`: `x.view(other.size())`. */
export const viewAs = front('view_as(Tensor self, Tensor other) -> Tensor', { namespaces: [] }).run(([self, other]): Tensor =>
  callFunctional(VIEW, [unwrapTensor('view_as', 'self', self), [...other.shape]]),
);

/** `x.reshapeAs(other)`: `x.reshape(other.size())`. */
export const reshapeAs = front('reshape_as(Tensor self, Tensor other) -> Tensor', { namespaces: [] }).run(([self, other]): Tensor =>
  callFunctional(RESHAPE, [unwrapTensor('reshape_as', 'self', self), [...other.shape]]),
);

/** `torch.broadcast_to(x, shape)` / `x.broadcastTo(shape)`: PyTorch's alias of expand (ExpandBackward0). */
export const broadcastTo = front('broadcast_to(Tensor self, SymInt[] size) -> Tensor').run(([self, size]): Tensor =>
  callFunctional(EXPAND, [unwrapTensor('broadcast_to', 'self', self), size, false]),
);

/** `torch.broadcast_tensors(a, b, ...)`: each tensor expanded (a view) to their broadcast shape. */
export const broadcastTensors = front('broadcast_tensors(Tensor[] tensors) -> Tensor[]', { method: false }).run(([tensors]): Tensor[] => {
  const shape = broadcastShapesOf('broadcast_tensors', ...tensors.map((t) => t.shape));
  return tensors.map((t) => callFunctional(EXPAND, [unwrapTensor('broadcast_tensors', 'tensors', t), shape, false]));
});

/**
 * `torch.broadcast_shapes(...shapes)` (the facade's `broadcastShapes`; core's name is the iterator's
 * broadcastShapes(op, ...)): the shape the given shapes broadcast to, each a list of
 * sizes or one size (`broadcastShapes([2, 1], 3)` is `[2, 3]`), without making tensors.
 */
export function torchBroadcastShapes(...shapes: (number | readonly number[])[]): number[] {
  const lists = shapes.map((s) => (typeof s === 'number' ? [s] : [...s]));
  try {
    return broadcastShapesOf('broadcast_shapes', ...lists);
  } catch (e) {
    // (PyTorch's Python implementation has its own words)
    if (e instanceof ShapeError && !/negative dimension/.test(e.message)) throw new ShapeError('Shape mismatch: objects cannot be broadcast to a single shape');
    throw e;
  }
}
