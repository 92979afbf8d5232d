import { isComplexType, isFloatingType } from '../dtype';
import { DTypeError, ShapeError, TorchError } from '../errors';
import { broadcastShapes } from '../iterator/broadcast';
import { defaultGenerator } from '../random/generator';
import type { Tensor } from '../tensor/tensor';
import { AUTOGRAD_KEYSET, withExcluded } from '../dispatch/local-state';
import { tidy } from '../tensor/scope';
import { empty, emptyLike } from './factories';
import { copyResult_ } from './copy';
import { front, overloadedFront } from './front';
import { amax, amin } from './generated/table-ops';
import { bmm, mv } from './linalg';
import { outer, tensordot } from './linalg-extra';
import { nonzero } from './masked';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';
import { sort } from './sorting';
import { normal_ } from './random';

/**
 * PyTorch's NumPy-style math functions, composites over the op table as their values are:
 * logaddexp / logaddexp2 (`m + log1p(exp(-|a - b|))`, `a` itself where both are the same
 * infinity, as PyTorch's kernel; there PyTorch's gradient is NaN and this one self's), deg2rad / rad2deg, argwhere, inner, vdot, msort, aminmax,
 * addmv / addr / addbmm (`beta` self + `alpha` product; with beta = 0 self is not read, so
 * its NaNs do not propagate, as PyTorch's), and torch.normal's four forms (the values of
 * `normal_` for a seed, then scaled and shifted as PyTorch's normal_out does). Those with a
 * Node of their own in PyTorch (LogaddexpBackward0, AddmvBackward0...) record the Nodes of
 * the ops they are made of here, with the same gradients; torch.normal's result does not
 * require grad (PyTorch's has zero gradients).
 */

function floatPair(op: string, a: Tensor, b: Tensor): void {
  if (!isFloatingType(a.dtype) || !isFloatingType(b.dtype)) {
    throw new DTypeError(`${op}: "${op}_cpu" not implemented for '${torchTypeName(isFloatingType(a.dtype) ? b.dtype : a.dtype)}'`);
  }
}

/** `torch.logaddexp(a, b)`: log(exp(a) + exp(b)) without overflow. */
export const logaddexp = front('logaddexp(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor => {
  floatPair('logaddexp', self, other);
  return tidy(() => {
    const m = self.maximum(other);
    const r = m.add(self.sub(other).abs().neg().exp().log1p());
    return where(self.isinf().logicalAnd(self.eq(other)), self, r);
  });
});

/** `torch.logaddexp2(a, b)`: log2(2^a + 2^b) without overflow. */
export const logaddexp2 = front('logaddexp2(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor => {
  floatPair('logaddexp2', self, other);
  return tidy(() => {
    const m = self.maximum(other);
    const r = m.add(self.sub(other).abs().neg().exp2().log1p().mul(1 / Math.LN2));
    return where(self.isinf().logicalAnd(self.eq(other)), self, r);
  });
});

/** `torch.deg2rad(x)`: x * pi / 180 (a float for integer input). */
export const deg2rad = front('deg2rad(Tensor self, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self]): Tensor => {
  if (isComplexType(self.dtype)) throw new DTypeError('deg2rad is not supported for complex tensors.');
  return self.mul(Math.PI / 180);
});

/** `torch.rad2deg(x)`: x * 180 / pi (a float for integer input). */
export const rad2deg = front('rad2deg(Tensor self, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self]): Tensor => {
  if (isComplexType(self.dtype)) throw new DTypeError('rad2deg is not supported for complex tensors.');
  return self.mul(180 / Math.PI);
});

/** `torch.argwhere(x)`: the indices of the non-zero elements, one row each (nonzero's). */
export const argwhere = front('argwhere(Tensor self) -> Tensor').run(([self]): Tensor => nonzero(self));

/** `torch.inner(a, b)`: the sum over the last dims (a product for a scalar). */
export const inner = front('inner(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor => {
  if (self.dim() === 0 || other.dim() === 0) return self.mul(other);
  const a = self.shape[self.dim() - 1];
  const b = other.shape[other.dim() - 1];
  if (a !== b) {
    throw new ShapeError(
      `inner() the last dimension must match on both input tensors but got shapes [${self.shape.join(', ')}] and [${other.shape.join(', ')}]`,
    );
  }
  return tensordot(self, other, [[-1], [-1]]);
});

/** `torch.vdot(a, b)`: the dot product of two vectors, the first conjugated. */
export const vdot = front('vdot(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor => {
  if (self.dim() !== 1 || other.dim() !== 1) throw new ShapeError(`vdot: 1D tensors expected, but got ${self.dim()}D and ${other.dim()}D tensors`);
  if (self.dtype !== other.dtype) {
    throw new DTypeError(`vdot: expected both vectors to have same dtype, but found ${torchTypeName(self.dtype)} and ${torchTypeName(other.dtype)}`);
  }
  return tidy(() => (isComplexType(self.dtype) ? self.conj() : self).dot(other));
});

/** `torch.msort(x)`: x sorted along its first dim (sort's values). */
export const msort = front('msort(Tensor self, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self]): Tensor => {
  const [values, indices] = sort(self, 0);
  indices.dispose();
  return values;
});

/** aminmax's named result: `[min, max]` with `.min` and `.max`. */
export type MinMax = [Tensor, Tensor] & { readonly min: Tensor; readonly max: Tensor };

/** `torch.aminmax(x, { dim, keepdim })`: amin and amax at once, a named pair. */
export const aminmax = front('aminmax(Tensor self, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)').run(([self, dim, keepdim]): MinMax => {
  if (self.numel() === 0 && dim == null) throw new TorchError('aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.');
  const dims = dim == null ? [] : [dim];
  const lo = amin(self, dims, keepdim);
  const hi = amax(self, dims, keepdim);
  const r = Object.assign([lo, hi] as [Tensor, Tensor], { min: lo, max: hi });
  Object.defineProperty(r, 'min', { enumerable: false });
  Object.defineProperty(r, 'max', { enumerable: false });
  return r;
});

/** beta * self + alpha * product, self not read where beta is 0 (PyTorch's addmm family). */
function betaAlpha(self: Tensor, product: Tensor, beta: number, alpha: number): Tensor {
  const scaled = alpha === 1 ? product : product.mul(alpha);
  if (beta === 0) return scaled;
  return (beta === 1 ? self : self.mul(beta)).add(scaled);
}

/** `torch.addmv(self, mat, vec, { beta, alpha })`: beta self + alpha (mat @ vec). */
export const addmv = front('addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(
  ([self, mat, vec, beta, alpha]): Tensor => tidy(() => betaAlpha(self, mv(mat, vec), Number(beta), Number(alpha))),
);

/** `torch.addr(self, vec1, vec2, { beta, alpha })`: beta self + alpha outer(vec1, vec2). */
export const addr = front('addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(
  ([self, vec1, vec2, beta, alpha]): Tensor => {
    if (vec1.dim() !== 1 || vec2.dim() !== 1) throw new ShapeError(`addr: Expected 1-D argument vec1 and vec2, but got ${vec1.dim()}-D and ${vec2.dim()}-D`);
    return tidy(() => betaAlpha(self, outer(vec1, vec2), Number(beta), Number(alpha)));
  },
);

/** `torch.addbmm(self, batch1, batch2, { beta, alpha })`: beta self + alpha sum_i batch1[i] @ batch2[i]. */
export const addbmm = front('addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(
  ([self, batch1, batch2, beta, alpha]): Tensor => {
    if (batch1.dim() !== 3 || batch2.dim() !== 3) throw new ShapeError(`addbmm: batch1 must be a 3D tensor, batch2 must be a 3D tensor (got ${batch1.dim()}D and ${batch2.dim()}D)`);
    return tidy(() => betaAlpha(self, bmm(batch1, batch2).sum(0), Number(beta), Number(alpha)));
  },
);

const NORMAL_TAIL = '*, Generator? generator=None, Tensor? out=None';

/**
 * `torch.normal(mean, std)` with a tensor mean and / or std (broadcast), or
 * `torch.normal(mean, std, size)` with numbers: PyTorch's normal_out fills the result with
 * normal_(0, std) and adds a tensor mean, or with normal_(0, 1), times the tensor std, plus
 * the mean, so a seed gives PyTorch CPU's values.
 */
export const normal = overloadedFront(
  [
    `normal(Tensor mean, Tensor std, ${NORMAL_TAIL}) -> Tensor`,
    `normal(Tensor mean, float std=1, ${NORMAL_TAIL}) -> Tensor`,
    `normal(float mean, Tensor std, ${NORMAL_TAIL}) -> Tensor`,
    'normal(float mean, float std, SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool requires_grad=False) -> Tensor',
  ],
  { method: false, unsupported: ['out', 'layout', 'pinMemory'] },
).run((call): Tensor => {
  const v = call.values;
  const gen = ((call.index === 3 ? v[3] : v[2]) as typeof defaultGenerator | null) ?? defaultGenerator;
  if (call.index === 3) {
    const [mean, std, size, , dtype, , device, , requiresGrad] = v as unknown as [number, number, number[], unknown, string | null, unknown, string | null, unknown, boolean];
    if (!(std >= 0)) throw new TorchError(`normal expects std >= 0.0, but found std ${std}`);
    const out = empty(size, { dtype: (dtype ?? undefined) as never, device: (device ?? undefined) as never });
    normal_(out, mean, std, { generator: gen });
    return requiresGrad ? out.requiresGrad_(true) : out;
  }
  // (below autograd: PyTorch's result has zero gradients; here it requires none)
  return withExcluded(AUTOGRAD_KEYSET, () => {
    if (call.index === 1) {
      const [mean, std] = v as unknown as [Tensor, number];
      if (!(std >= 0)) throw new TorchError(`normal expects std >= 0.0, but found std ${std}`);
      const out = emptyLike(mean, { memoryFormat: 'contiguous' });
      normal_(out, 0, std, { generator: gen });
      return out.add_(mean);
    }
    const mean = v[0] as Tensor | number;
    const std = v[1] as Tensor;
    if (std.numel() > 0 && std.device.type === 'cpu' && Number(std.min().item()) < 0) throw new TorchError('normal expects all elements of std >= 0.0');
    const shape = typeof mean === 'number' ? [...std.shape] : broadcastShapes('normal', mean.shape, std.shape);
    const dtype = typeof mean === 'number' ? std.dtype : mean.dtype;
    const out = empty(shape, { dtype, device: std.device });
    normal_(out, 0, 1, { generator: gen });
    out.mul_(std);
    return out.add_(mean);
  });
});



/** The in-place forms (`x.deg2rad_()`, `x.addmv_(mat, vec)`...), which write the function's result into x. */
export const deg2rad_ = front('deg2rad_(Tensor self) -> Tensor').run(([self]): Tensor => copyResult_(self, deg2rad(self)));
export const rad2deg_ = front('rad2deg_(Tensor self) -> Tensor').run(([self]): Tensor => copyResult_(self, rad2deg(self)));
export const addmv_ = front('addmv_(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor').run(
  ([self, mat, vec, beta, alpha]): Tensor => copyResult_(self, addmv(self, mat, vec, { beta, alpha })),
);
export const addr_ = front('addr_(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor', { namespaces: [] }).run(
  ([self, vec1, vec2, beta, alpha]): Tensor => copyResult_(self, addr(self, vec1, vec2, { beta, alpha })),
);
export const addbmm_ = front('addbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor', { namespaces: [] }).run(
  ([self, batch1, batch2, beta, alpha]): Tensor => copyResult_(self, addbmm(self, batch1, batch2, { beta, alpha })),
);
