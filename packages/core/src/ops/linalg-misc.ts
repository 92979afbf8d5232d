import { isFloatingType, promoteTypes, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { broadcastShapes } from '../iterator';
import type { Tensor } from '../tensor/tensor';
import { callFunctional, unwrapTensor } from './call';
import { defineComposite } from './composite';
import { clone, to } from './copy';
import { onesLike, tensor, zeros } from './factories';
import { gt, logicalXor, mul, pow, sqrt, sub, sum } from './generated/table-ops';
import { where } from './pointwise';
import { front, type OptionsOf } from './front';
import { indexSelect } from './gather-scatter';
import { cat, stack } from './join';
import { matmul } from './linalg';
import { torchTypeName } from './meta-utils';
import { norm } from './reduction-stats';
import { narrow, reshape } from './shape-ops';
import { diagonal, expand, transpose, unsqueeze } from './views';
import { normalizeDim } from '../views/dims';

/**
 * Note [The common composites]
 * kron, cross, cdist, trace, diff, block_diag, cartesian_prod and combinations are composites
 * of differentiable ops (views, mul, sub, cat, index_select, the vector norm), so each has
 * autograd and every backend that has those ops, with no kernel or derivative of its own.
 * PyTorch has kernels for some of them (trace, linalg_cross, _cdist_forward, block_diag) with
 * Nodes of their own (TraceBackward0, LinalgCrossBackward0, CdistBackward0...): here the graph
 * holds the Nodes of the ops composed instead, whose gradients are the same values. Where
 * PyTorch's dtype support is its kernel's, the composite refuses those dtypes with the
 * kernel's message before composing.
 */

/** `"kernel" not implemented for 'Half'`: a dtype PyTorch's kernel for `op` lacks. */
function rejectDtype(op: string, kernel: string, dtype: DType, rejected: readonly DType[]): void {
  if (rejected.includes(dtype)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(dtype)}'`);
}

// ---- trace ----
export const TRACE = defineComposite('trace(Tensor self) -> Tensor', ([self]) => {
  // (PyTorch's kernel checks its dtype first)
  rejectDtype('trace', 'trace', self.dtype, ['bool', 'float16', 'bfloat16']);
  if (self.dim() !== 2) throw new ShapeError(`trace: expected a matrix, but got tensor with dim ${self.dim()}`);
  // (sum's dtype rule is trace's: integers and bool in int64)
  return sum(diagonal(self));
});

/** `torch.trace(input)`: the sum of a matrix's main diagonal (int64 for integer inputs). */
export const trace = front('trace(Tensor input) -> Tensor').run(([self]): Tensor => callFunctional(TRACE, [unwrapTensor('trace', 'input', self)]));

// ---- kron ----
export const KRON = defineComposite('kron(Tensor self, Tensor other) -> Tensor', ([self, other]) => {
  // As PyTorch's KronImpl: both padded to the same rank, then a's dims interleaved with b's
  // (a as [a0, 1, a1, 1, ...], b as [1, b0, 1, b1, ...]) so one broadcast mul forms every product.
  const nd = Math.max(self.dim(), other.dim());
  const pad = (s: readonly number[]) => [...new Array<number>(nd - s.length).fill(1), ...s];
  const a = pad(self.shape);
  const b = pad(other.shape);
  const av = reshape(self, a.flatMap((n) => [n, 1]));
  const bv = reshape(other, b.flatMap((n) => [1, n]));
  return reshape(mul(av, bv), a.map((n, i) => n * b[i]));
});

/** `torch.kron(input, other)`: the Kronecker product (PyTorch's promotion, as `mul`). */
export const kron = front('kron(Tensor input, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor =>
  callFunctional(KRON, [unwrapTensor('kron', 'input', self), unwrapTensor('kron', 'other', other)]),
);

// ---- cross ----
/**
 * Note [cross's default dim]
 * torch.cross without `dim` takes the first dimension of `input` (not of the broadcast shape)
 * whose size is 3, as PyTorch 1.13's `_default_cross_dim`; `linalg.cross` takes -1. PyTorch
 * documents that the default will change to linalg.cross's, and 1.13 emits no warning for it
 * (the runtime deprecation warning is 2.x's): nor does torch-ts. Then it is linalg_cross: same
 * rank, size 3 at `dim` in both, batch dims broadcast, one dtype.
 */
export const CROSS = defineComposite('cross(Tensor self, Tensor other, int? dim=None) -> Tensor', ([self, other, dimArg]) => {
  let dim: number;
  if (dimArg == null) {
    const found = self.shape.indexOf(3);
    if (found < 0) throw new ShapeError('cross: no dimension of size 3 in input');
    dim = found;
  } else {
    dim = dimArg;
  }
  if (self.dim() !== other.dim()) throw new ShapeError('linalg.cross: inputs must have the same number of dimensions.');
  const d = normalizeDim('cross', dim, self.dim());
  if (self.shape[d] !== 3 || other.shape[d] !== 3) {
    throw new ShapeError(`linalg.cross: inputs dimension ${dim} must have length 3. Got ${self.shape[d]} and ${other.shape[d]}`);
  }
  broadcastShapes('linalg.cross', self.shape, other.shape);
  if (self.dtype !== other.dtype) throw new DTypeError(`cross: expected scalar type ${torchTypeName(self.dtype)} but found ${torchTypeName(other.dtype)}`);
  rejectDtype('cross', 'cross', self.dtype, ['bool', 'float16']);
  const a = [0, 1, 2].map((i) => narrow(self, d, i, 1));
  const b = [0, 1, 2].map((i) => narrow(other, d, i, 1));
  // (each component as PyTorch's kernel computes it: a_j * b_k - a_k * b_j, rounded per op)
  const comp = (j: number, k: number) => sub(mul(a[j], b[k]), mul(a[k], b[j]));
  return cat([comp(1, 2), comp(2, 0), comp(0, 1)], d);
});

/** `torch.cross(input, other, dim?)`: the cross product along `dim` (default: Note [cross's default dim]). */
export const cross = front('cross(Tensor input, Tensor other, int? dim=None, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(
  ([self, other, dim]): Tensor => callFunctional(CROSS, [unwrapTensor('cross', 'input', self), unwrapTensor('cross', 'other', other), dim ?? null]),
);

// ---- cdist ----
/**
 * Note [cdist's two paths]
 * As PyTorch's cdist: p = 2 takes the matrix-product form (`_euclidean_dist`: |x|^2 - 2 x.y +
 * |y|^2 as one matmul of padded operands, clamped at 0 before the sqrt, with gradient 0 at a
 * distance of 0) when
 * compute_mode says so (mode 1), or by default (mode 0) when either operand has more than 25
 * rows; every other case takes the direct form, the p-norm of the pairwise differences
 * (PyTorch's `_cdist_forward`), here linalg.vector_norm over the last dim, whose gradient is
 * `_cdist_backward`'s (0 where a distance is 0, for p = 2 as for the others; PyTorch's p = inf
 * gives each tied coordinate the whole gradient where vector_norm shares it). The direct form
 * of PyTorch 1.13's CPU computes float32 and float64 only; the matmul form also bfloat16
 * (and float16 as 2.x's matmul does).
 */
export const CDIST = defineComposite('cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None) -> Tensor', ([x1, x2, p, modeArg]) => {
  if (x1.dim() < 2) throw new ShapeError(`cdist only supports at least 2D tensors, X1 got: ${x1.dim()}D`);
  if (x2.dim() < 2) throw new ShapeError(`cdist only supports at least 2D tensors, X2 got: ${x2.dim()}D`);
  const c = x1.shape[x1.dim() - 1];
  if (c !== x2.shape[x2.dim() - 1]) throw new ShapeError(`cdist: X1 and X2 must have the same number of columns. X1: ${c} X2: ${x2.shape[x2.dim() - 1]}`);
  if (!isFloatingType(x1.dtype)) throw new DTypeError(`cdist only supports floating-point dtypes, X1 got: ${torchTypeName(x1.dtype)}`);
  if (!isFloatingType(x2.dtype)) throw new DTypeError(`cdist only supports floating-point dtypes, X2 got: ${torchTypeName(x2.dtype)}`);
  if (!(p >= 0)) throw new TorchError('cdist only supports non-negative p values');
  const mode = modeArg ?? 0;
  if (mode < 0 || mode > 2) throw new TorchError(`cdist: possible modes: 0, 1, 2, but was: ${mode}`);
  if (x1.dtype !== x2.dtype) throw new DTypeError(`cdist: expected scalar type ${torchTypeName(x1.dtype)} but found ${torchTypeName(x2.dtype)}`);
  const r1 = x1.shape[x1.dim() - 2];
  const r2 = x2.shape[x2.dim() - 2];
  const batch = broadcastShapes('cdist', x1.shape.slice(0, -2), x2.shape.slice(0, -2));
  const a = expand(x1, [...batch, r1, c]);
  const b = expand(x2, [...batch, r2, c]);
  const diffs = () => sub(unsqueeze(a, -2), unsqueeze(b, -3));
  if (a.numel() === 0 || b.numel() === 0) {
    // no distance to compute (or none but of zero columns, all 0): still a graph from x1 and x2
    return sum(diffs(), [-1]);
  }
  if (p === 2 && (mode === 1 || (mode === 0 && (r1 > 25 || r2 > 25)))) return euclideanDist(a, b);
  rejectDtype('cdist', 'cdist', x1.dtype, ['float16', 'bfloat16']);
  return norm(diffs(), p, [-1]);
});

/** PyTorch's `_euclidean_dist` (Note [cdist's two paths]). */
function euclideanDist(x1: Tensor, x2: Tensor): Tensor {
  const n1 = sum(pow(x1, 2), [-1], true);
  const n2 = sum(pow(x2, 2), [-1], true);
  const a = cat([mul(x1, -2), n1, onesLike(n1)], -1);
  const b = cat([x2, onesLike(n2), n2], -1);
  // As 1.13's clamp_min_(0).sqrt_(), with _euclidean_dist_backward's gradient: 0 where the
  // distance is 0 (sqrt of 1 stands in there, so that no inf * 0 reaches the gradient).
  const m = matmul(a, transpose(b, -1, -2));
  const positive = gt(m, 0);
  return where(positive, sqrt(where(positive, m, 1)), 0);
}

const CDIST_MODES = ['use_mm_for_euclid_dist_if_necessary', 'use_mm_for_euclid_dist', 'donot_use_mm_for_euclid_dist'] as const;

/** `torch.dist(x, y, p)`: the p-norm of `x - y` (broadcast), as PyTorch's `norm(self - other, p)`. */
export const dist = front('dist(Tensor self, Tensor other, Scalar p=2) -> Tensor').run(([self, other, p]): Tensor => {
  const d = sub(self, other);
  try {
    return norm(d, p as number);
  } finally {
    d.dispose();
  }
});

/**
 * `torch.cdist(x1, x2, p?, computeMode?)`: the p-norm distance between each row of `x1` and
 * each row of `x2` ([..., r1, c] and [..., r2, c] give [..., r1, r2], batch dims broadcast).
 */
export const cdist = front("cdist(Tensor x1, Tensor x2, float p=2, str compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor", {
  method: false,
  choices: { compute_mode: CDIST_MODES },
}).run(([x1, x2, p, computeMode]): Tensor => {
  const mode = CDIST_MODES.findIndex((m) => m === computeMode);
  if (mode < 0) throw new TorchError(`cdist: ${String(computeMode)} is not a valid value for compute_mode`);
  return callFunctional(CDIST, [unwrapTensor('cdist', 'x1', x1), unwrapTensor('cdist', 'x2', x2), p, mode === 0 ? null : mode]);
});
export type CdistOptions = OptionsOf<typeof cdist>;

// ---- diff ----
export const DIFF = defineComposite('diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor', ([self, n, dimArg, prepend, append]) => {
  if (self.dim() < 1) throw new ShapeError('diff expects input to be at least one-dimensional');
  const dim = normalizeDim('diff', dimArg, self.dim());
  const parts: Tensor[] = [];
  for (const t of [prepend, append]) {
    if (t == null) continue;
    if (t.dim() !== self.dim()) throw new ShapeError('diff expects prepend or append to be the same dimension as input');
    for (let i = 0; i < self.dim(); i++) {
      if (i !== dim && t.shape[i] !== self.shape[i]) {
        throw new ShapeError(
          `diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension; input.size(${i}) = ${self.shape[i]}, but got tensor.size(${i}) = ${t.shape[i]}`,
        );
      }
    }
  }
  if (prepend != null) parts.push(prepend);
  parts.push(self);
  if (append != null) parts.push(append);
  let r = parts.length > 1 ? cat(parts, dim) : self;
  // (n <= 0 is the input, as PyTorch's loop over irange(n) leaves it; a copy here, never an alias)
  if (n <= 0) return clone(r);
  const bool = r.dtype === 'bool';
  for (let i = 0; i < n && r.shape[dim] > 0; i++) {
    const len = r.shape[dim] - 1;
    const hi = narrow(r, dim, 1, len);
    const lo = narrow(r, dim, 0, len);
    // (bool has no sub: PyTorch differences bools with logical_xor)
    r = bool ? logicalXor(hi, lo) : sub(hi, lo);
  }
  return r === self ? clone(r) : r;
});

/** `torch.diff(input, n?, dim?, prepend?, append?)`: the n-th forward difference along `dim`. */
export const diff = front('diff(Tensor input, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None, *, Tensor? out=None) -> Tensor', {
  unsupported: ['out'],
}).run(([self, n, dim, prepend, append]): Tensor =>
  callFunctional(DIFF, [
    unwrapTensor('diff', 'input', self),
    n,
    dim,
    prepend == null ? null : unwrapTensor('diff', 'prepend', prepend),
    append == null ? null : unwrapTensor('diff', 'append', append),
  ]),
);
export type DiffOptions = OptionsOf<typeof diff>;

// ---- block_diag ----
export const BLOCK_DIAG = defineComposite('block_diag(Tensor[] tensors) -> Tensor', ([tensors]) => {
  tensors.forEach((t, i) => {
    if (t.dim() > 2) throw new ShapeError(`torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ${i} has ${t.dim()} dimensions`);
  });
  const device = tensors[0].device;
  for (let i = 1; i < tensors.length; i++) {
    if (tensors[i].device.toString() !== device.toString()) {
      throw new TorchError(`torch.block_diag: input tensors must all be on the same device. Input 0 is on device ${device.toString()} and input ${i} is on device ${tensors[i].device.toString()}.`);
    }
  }
  // (0-dim and 1-dim inputs are one-row blocks)
  const blocks = tensors.map((t) => (t.dim() === 2 ? t : reshape(t, [1, t.numel()])));
  const dtype = blocks.map((t) => t.dtype).reduce(promoteTypes);
  const cols = blocks.reduce((n, t) => n + t.shape[1], 0);
  // Each block between zero blocks, as one row band; the bands stacked. The zeros come from the
  // block itself (a product with 0 would turn inf into nan), so each band stays in the graph.
  let before = 0;
  const rows = blocks.map((t) => {
    const w = t.shape[1];
    const band = [zeroBlock(t, before, dtype), castAs(t, dtype), zeroBlock(t, cols - before - w, dtype)];
    before += w;
    return cat(band, 1);
  });
  return cat(rows, 0);
});

function castAs(t: Tensor, dtype: DType): Tensor {
  return t.dtype === dtype ? t : to(t, dtype);
}

/** A zero block of t's rows and `width` columns in `dtype`, on t's device. */
function zeroBlock(t: Tensor, width: number, dtype: DType): Tensor {
  return expand(tensor(0, { dtype, device: t.device }), [t.shape[0], width]);
}

/** `torch.blockDiag(a, b, ...)`: the inputs (0-, 1- or 2-dim) as blocks on the diagonal of one matrix. */
export const blockDiag = front('block_diag(Tensor[] tensors) -> Tensor', { method: false, varargs: true }).run(([tensors]): Tensor =>
  // (no tensor, no device to dispatch on: PyTorch's empty [1, 0] result in the default dtype)
  tensors.length === 0 ? zeros([1, 0]) : callFunctional(BLOCK_DIAG, [tensors.map((t, i) => unwrapTensor('block_diag', `tensors[${i}]`, t))]),
);

// ---- cartesian_prod ----
function checkVector(op: string, t: Tensor): void {
  if (t.dim() !== 1) throw new ShapeError(`${op}: Expect a 1D vector, but got shape ${fmtShape(t.shape)}`);
}

export const CARTESIAN_PROD = defineComposite('cartesian_prod(Tensor[] tensors) -> Tensor', ([tensors]) => {
  for (const t of tensors) checkVector('cartesian_prod', t);
  // (PyTorch returns a single input itself)
  if (tensors.length === 1) return tensors[0];
  for (const t of tensors) {
    if (t.dtype !== tensors[0].dtype) throw new DTypeError('cartesian_prod: meshgrid expects all tensors to have the same dtype');
    if (t.device.toString() !== tensors[0].device.toString()) throw new TorchError('cartesian_prod: meshgrid expects all tensors to have the same device');
  }
  // meshgrid(indexing='ij'), each grid flattened: column i of the result
  const sizes = tensors.map((t) => t.shape[0]);
  const cols = tensors.map((t, i) => reshape(expand(reshape(t, sizes.map((n, j) => (j === i ? n : 1))), sizes), [-1]));
  return stack(cols, 1);
});

/** `torch.cartesianProd(a, b, ...)`: every tuple of one element of each vector, one per row. */
export const cartesianProd = front('cartesian_prod(Tensor[] tensors) -> Tensor', { method: false, varargs: true }).run(([tensors]): Tensor => {
  if (tensors.length === 0) throw new TorchError('cartesian_prod: meshgrid expects a non-empty TensorList');
  return callFunctional(CARTESIAN_PROD, [tensors.map((t, i) => unwrapTensor('cartesian_prod', `tensors[${i}]`, t))]);
});

// ---- combinations ----
export const COMBINATIONS = defineComposite('combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor', ([self, r, withReplacement]) => {
  checkVector('combinations', self);
  if (r < 0) throw new TorchError(`combinations: Expect a non-negative number, but got ${r}`);
  if (r === 0) return narrow(self, 0, 0, 0);
  // The positions of each combination, in the order PyTorch's masked meshgrid gives them
  // (lexicographic): they depend on the sizes only, so they are made on the host.
  const n = self.shape[0];
  const idx: number[] = [];
  const tuple: number[] = [];
  const visit = (from: number): void => {
    if (tuple.length === r) {
      idx.push(...tuple);
      return;
    }
    for (let i = from; i < n; i++) {
      tuple.push(i);
      visit(withReplacement ? i : i + 1);
      tuple.pop();
    }
  };
  visit(0);
  const positions = tensor(idx, { dtype: 'int64', device: self.device });
  return reshape(indexSelect(self, 0, positions), [idx.length / r, r]);
});

/** `torch.combinations(input, r?, withReplacement?)`: the length-`r` combinations of a vector's elements, one per row. */
export const combinations = front('combinations(Tensor input, int r=2, bool with_replacement=False) -> Tensor', { method: false }).run(
  ([self, r, withReplacement]): Tensor => callFunctional(COMBINATIONS, [unwrapTensor('combinations', 'input', self), r, withReplacement]),
);
