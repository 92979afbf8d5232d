import { DTypeError, IndexError, ShapeError, TorchError } from '../errors';
import { broadcastShapes } from '../iterator/broadcast';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { normalizeDim } from '../views/dims';
import { clone } from './copy';
import { zeros } from './factories';
import { front, overloadedFront } from './front';
import { gather } from './gather-scatter';
import { cat, hstack, vstack } from './join';
import { torchTypeName } from './meta-utils';
import { narrow, reshape } from './shape-ops';
import { flip } from './reorder';
import { diagonal, expand, transpose, unsqueeze } from './views';

/**
 * PyTorch's NumPy-style shape functions, composites of views, copies and cats as PyTorch's
 * own (CompositeImplicitAutograd) ones are, so they record the same Nodes where PyTorch's
 * do (ExpandBackward0, SliceBackward0, UnsqueezeBackward0, CatBackward0, GatherBackward0):
 * meshgrid, tensor_split / hsplit / vsplit / dsplit, atleast_1d / 2d / 3d, column_stack /
 * row_stack / dstack, rot90, take_along_dim, and the diagonal builders diag, diag_embed and
 * diagflat (a zero tensor whose diagonal view takes the values: PyTorch records DiagBackward0
 * and DiagEmbedBackward0, the same gradients).
 */

/** `torch.meshgrid(a, b, ..., { indexing })`: coordinate grids, each input expanded along its own dim ('ij'; 'xy' swaps the first two). */
export const meshgrid = front('meshgrid(Tensor[] tensors, *, str? indexing=None) -> Tensor[]', { method: false, varargs: true, choices: { indexing: ['ij', 'xy'] } }).run(
  ([tensors, indexing]): Tensor[] => {
    const op = 'torch.meshgrid';
    if (tensors.length === 0) throw new TorchError(`${op}: Expected at least one tensor`);
    const mode = indexing ?? 'ij';
    if (mode !== 'ij' && mode !== 'xy') throw new TorchError(`${op}: indexing must be one of "xy" or "ij", but received: ${String(mode)}`);
    for (const t of tensors) {
      if (t.dim() > 1) throw new ShapeError(`${op}: Expected 0D or 1D tensor in the tensor list but got: ${String(t.dim())}D tensor`);
      if (t.dtype !== tensors[0].dtype) throw new DTypeError(`${op}: Expected all tensors in the tensor list to have the same dtype.`);
      if (t.device.toString() !== tensors[0].device.toString()) throw new TorchError(`${op}: Expected all tensors in the tensor list to have the same device.`);
    }
    const ts = [...tensors];
    const swap = mode === 'xy' && ts.length >= 2;
    if (swap) [ts[0], ts[1]] = [ts[1], ts[0]];
    const shape = ts.map((t) => t.numel());
    const grids = ts.map((t, i) => {
      const view = shape.map((_, j) => (j === i ? -1 : 1));
      const v = reshape(t, view);
      try {
        return expand(v, shape);
      } finally {
        v.dispose();
      }
    });
    if (swap) [grids[0], grids[1]] = [grids[1], grids[0]];
    return grids;
  },
);

/** The slices of `x` along `dim` between consecutive split points. */
function slicesAt(x: Tensor, dim: number, points: readonly number[]): Tensor[] {
  const n = x.shape[dim];
  const out: Tensor[] = [];
  let start = 0;
  for (const p of [...points, n]) {
    const s = Math.min(Math.max(start, 0), n);
    const e = Math.min(Math.max(p < 0 ? p + n : p, s), n);
    out.push(narrow(x, dim, s, e - s));
    start = p < 0 ? p + n : p;
  }
  return out;
}

function tensorSplitOf(op: string, x: Tensor, sectionsOrIndices: number | readonly number[], dimArg: number): Tensor[] {
  if (x.dim() === 0) throw new ShapeError(`${op}: torch.tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims`);
  const dim = normalizeDim(op, dimArg, x.dim());
  if (typeof sectionsOrIndices === 'number') {
    const sections = sectionsOrIndices;
    if (sections <= 0) throw new TorchError(`${op}: number of sections must be larger than 0, got ${sections}`);
    const n = x.shape[dim];
    const small = Math.floor(n / sections);
    const extra = n % sections;
    const points: number[] = [];
    let at = 0;
    for (let i = 0; i < sections - 1; i++) points.push((at += small + (i < extra ? 1 : 0)));
    return slicesAt(x, dim, points);
  }
  return slicesAt(x, dim, sectionsOrIndices);
}

const SPLIT_SCHEMAS = [
  'tensor_split(Tensor self, SymInt sections, int dim=0) -> Tensor[]',
  'tensor_split(Tensor self, SymInt[] indices, int dim=0) -> Tensor[]',
] as const;

/** `torch.tensor_split(x, sections | indices, dim)`: `sections` nearly equal pieces (the first ones one longer), or the pieces between `indices`; views. */
export const tensorSplit = overloadedFront([...SPLIT_SCHEMAS]).run((call): Tensor[] =>
  tensorSplitOf('tensor_split', call.values[0] as Tensor, call.values[1] as number | number[], call.values[2] as number),
);

/** hsplit / vsplit / dsplit: tensor_split along dim 1 (0 for 1-d), 0 or 2, an int splitting evenly or refused. */
function directionalSplit(op: 'hsplit' | 'vsplit' | 'dsplit', x: Tensor, s: number | readonly number[]): Tensor[] {
  const need = op === 'hsplit' ? 1 : op === 'vsplit' ? 2 : 3;
  if (x.dim() < need) {
    throw new ShapeError(`torch.${op} requires a tensor with at least ${need} dimension, but got a tensor with ${x.dim()} dimensions!`);
  }
  const dim = op === 'hsplit' ? (x.dim() === 1 ? 0 : 1) : op === 'vsplit' ? 0 : 2;
  if (typeof s === 'number') {
    if (s === 0 || x.shape[dim] % s !== 0) {
      throw new TorchError(`torch.${op} attempted to split along dimension ${dim}, but the size of the dimension ${x.shape[dim]} is not divisible by the split_size ${s}!`);
    }
  }
  return tensorSplitOf(op, x, s, dim);
}

const dirSchemas = (op: string) => [`${op}(Tensor self, int sections) -> Tensor[]`, `${op}(Tensor self, int[] indices) -> Tensor[]`];
export const hsplit = overloadedFront(dirSchemas('hsplit')).run((call): Tensor[] => directionalSplit('hsplit', call.values[0] as Tensor, call.values[1] as number | number[]));
export const vsplit = overloadedFront(dirSchemas('vsplit')).run((call): Tensor[] => directionalSplit('vsplit', call.values[0] as Tensor, call.values[1] as number | number[]));
export const dsplit = overloadedFront(dirSchemas('dsplit')).run((call): Tensor[] => directionalSplit('dsplit', call.values[0] as Tensor, call.values[1] as number | number[]));

/** One tensor with at least `n` dims, as PyTorch's atleast_nd views it. */
function atLeast(t: Tensor, n: 1 | 2 | 3): Tensor {
  const d = t.dim();
  if (d >= n) return t;
  if (d === 0) return reshape(t, Array<number>(n).fill(1));
  if (n === 2) return unsqueeze(t, 0);
  // (n = 3) a vector becomes [1, N, 1], a matrix [M, N, 1]
  if (d === 1) {
    const u = unsqueeze(t, 0);
    try {
      return unsqueeze(u, -1);
    } finally {
      u.dispose();
    }
  }
  return unsqueeze(t, -1);
}

const atLeastSchemas = (n: number) => [`atleast_${n}d(Tensor self) -> Tensor`, `atleast_${n}d(Tensor[] tensors) -> Tensor[]`];
/** `torch.atleast_1d(x)` (or a list): 0-d tensors become [1]. */
export const atleast1d = overloadedFront(atLeastSchemas(1), { method: false, name: 'atleast1d' }).run((call): Tensor | Tensor[] =>
  call.index === 0 ? atLeast(call.values[0] as Tensor, 1) : (call.values[0] as Tensor[]).map((t) => atLeast(t, 1)),
);
/** `torch.atleast_2d(x)` (or a list): a vector becomes [1, N]. */
export const atleast2d = overloadedFront(atLeastSchemas(2), { method: false, name: 'atleast2d' }).run((call): Tensor | Tensor[] =>
  call.index === 0 ? atLeast(call.values[0] as Tensor, 2) : (call.values[0] as Tensor[]).map((t) => atLeast(t, 2)),
);
/** `torch.atleast_3d(x)` (or a list): a vector becomes [1, N, 1], a matrix [M, N, 1]. */
export const atleast3d = overloadedFront(atLeastSchemas(3), { method: false, name: 'atleast3d' }).run((call): Tensor | Tensor[] =>
  call.index === 0 ? atLeast(call.values[0] as Tensor, 3) : (call.values[0] as Tensor[]).map((t) => atLeast(t, 3)),
);

function nonEmpty(op: string, tensors: readonly Tensor[]): void {
  if (tensors.length === 0) throw new TorchError(`${op} expects a non-empty TensorList`);
}

/** `torch.column_stack(tensors)`: vectors (and scalars) as columns, side by side with the matrices. */
export const columnStack = front('column_stack(Tensor[] tensors) -> Tensor', { method: false }).run(([tensors]): Tensor => {
  nonEmpty('column_stack', tensors);
  return tidy(() => hstack(tensors.map((t) => (t.dim() <= 1 ? reshape(t, [t.numel(), 1]) : t))));
});

/** `torch.row_stack(tensors)`: PyTorch's alias of vstack. */
export const rowStack = front('row_stack(Tensor[] tensors) -> Tensor', { method: false }).run(([tensors]): Tensor => vstack(tensors));

/** `torch.dstack(tensors)`: the tensors, each made at least 3-d, concatenated along dim 2. */
export const dstack = front('dstack(Tensor[] tensors) -> Tensor', { method: false }).run(([tensors]): Tensor => {
  nonEmpty('dstack', tensors);
  return tidy(() => cat(tensors.map((t) => atLeast(t, 3)), 2));
});

/** `torch.rot90(x, k, dims)`: `k` quarter turns from the first dim towards the second (flips and a transpose). */
export const rot90 = front('rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor').run(([self, k, dims]): Tensor => {
  const op = 'rot90';
  if (dims.length !== 2) throw new TorchError(`${op}: expected total rotation dims == 2, but got dims = ${dims.length}`);
  const n = self.dim();
  if (n < 2) throw new TorchError(`${op}: expected total dims >= 2, but got total dims = ${n}`);
  const d0 = normalizeDim(op, dims[0], n);
  const d1 = normalizeDim(op, dims[1], n);
  if (d0 === d1) throw new TorchError(`${op}: expected rotation dims to be different, but got dim0 = ${d0} and dim1 = ${d1}`);
  const turns = ((k % 4) + 4) % 4;
  if (turns === 0) return clone(self, { memoryFormat: 'contiguous' });
  if (turns === 2) return flip(self, [d0, d1]);
  return tidy(() => transpose(flip(self, [turns === 1 ? d1 : d0]), d0, d1));
});

/** `torch.take_along_dim(x, indices, dim?)`: gather along `dim` with `x` and `indices` broadcast elsewhere; the flattened `x` without a dim. */
export const takeAlongDim = front('take_along_dim(Tensor self, Tensor indices, int? dim=None, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(
  ([self, indices, dim]): Tensor => {
    const op = 'torch.take_along_dim()';
    if (indices.dtype !== 'int64') throw new IndexError(`${op}: dtype of indices should be Long but got ${torchTypeName(indices.dtype)}`);
    if (dim === null || dim === undefined) return tidy(() => gather(reshape(self, [-1]), 0, reshape(indices, [-1])));
    if (self.dim() !== indices.dim()) {
      throw new ShapeError(`${op}: input and indices should have the same number of dimensions, but got ${self.dim()} dimensions for input, and ${indices.dim()} dimensions for indices`);
    }
    const d = normalizeDim('take_along_dim', dim, self.dim());
    return tidy(() => {
      const selfSizes = [...self.shape];
      selfSizes[d] = indices.shape[d];
      const shape = broadcastShapes('take_along_dim', selfSizes, indices.shape);
      const ix = expand(indices, shape);
      const selfShape = [...shape];
      selfShape[d] = self.shape[d];
      return gather(expand(self, selfShape), d, ix);
    });
  },
);

/** A zero tensor of `shape` whose diagonal view (offset, dim1, dim2) takes `values`. */
function onDiagonal(values: Tensor, shape: readonly number[], offset: number, dim1: number, dim2: number): Tensor {
  const out = zeros([...shape], { dtype: values.dtype, device: values.device });
  const d = diagonal(out, offset, dim1, dim2);
  try {
    d.copy_(values);
  } finally {
    d.dispose();
  }
  return out;
}

/** `torch.diag(x, k)`: a vector's square matrix with it on diagonal k, or a matrix's diagonal k (a copy). */
export const diag = front('diag(Tensor self, int diagonal=0, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, k]): Tensor => {
  const n = self.dim();
  if (n === 1) {
    const m = self.numel() + Math.abs(k);
    return onDiagonal(self, [m, m], k, 0, 1);
  }
  if (n === 2) return tidy(() => clone(diagonal(self, k, 0, 1), { memoryFormat: 'contiguous' }));
  throw new ShapeError('diag: matrix or a vector expected');
});

/** `torch.diag_embed(x, offset, dim1, dim2)`: the last dim of `x` laid on a diagonal of two new dims. */
export const diagEmbed = front('diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor').run(([self, offset, dim1, dim2]): Tensor => {
  const op = 'diag_embed';
  const rank = self.dim() + 1;
  const d1 = normalizeDim(op, dim1, rank);
  const d2 = normalizeDim(op, dim2, rank);
  if (d1 === d2) throw new TorchError(`${op}: diagonal dimensions cannot be identical ${dim1}, ${dim2}`);
  const m = (self.dim() === 0 ? 1 : self.shape[self.dim() - 1]) + Math.abs(offset);
  const rest = self.shape.slice(0, -1);
  const shape: number[] = [];
  for (let i = 0, j = 0; i < rank; i++) shape.push(i === d1 || i === d2 ? m : rest[j++]);
  return onDiagonal(self, shape, offset, d1, d2);
});

/** `torch.diagflat(x, offset)`: diag of `x` flattened. */
export const diagflat = front('diagflat(Tensor self, int offset=0) -> Tensor').run(([self, offset]): Tensor =>
  tidy(() => diag(reshape(self, [-1]), offset)),
);
