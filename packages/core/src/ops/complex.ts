/**
 * Complex ops as composites over real views, registered at the Complex dispatch key (Note
 * [Complex tensors are pairs of reals]). An op with a complex operand and no kernel here is
 * PyTorch's "not implemented for 'ComplexFloat'" (the dispatcher's noComplexKernel). The
 * helpers over parts are exported for complex-math.ts, which holds the math kernels.
 *
 * Note [Complex gradients]
 * PyTorch's gradient of a real loss L with respect to a complex z = x + iy is the conjugate
 * Wirtinger derivative times two, which is dL/dx + i dL/dy. These kernels compute with real
 * ops on views of the parts, so autograd records only real ops and the parts' gradients
 * (dL/dx, dL/dy) reach z through view_as_real's derivative as exactly that complex number:
 * no complex derivative formula is needed, on any backend.
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { getOperator, registerKernel, type OperatorHandle } from '../dispatch/dispatcher';
import type { DeviceLike } from '../device';
import { isComplexType, resultType, toComplexType, toRealValueType, type DType } from '../dtype';
import { DTypeError, NotImplementedError, ShapeError, TorchError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { composite, type CompositeArgs } from './composite';
import type { OpSchemas } from './generated/schemas';
import { conjView, viewAsComplexOf, viewAsRealOf } from './complex-views';
import { to } from './copy';
import { front } from './front';
import { full, zerosLike } from './factories';
import { add, atan2, cos, div, eq, exp, hypot, logicalAnd, logicalOr, mul, ne, neg, sin, sub, sum, mean } from './generated/table-ops';
import { where } from './pointwise';
import { torchTypeName } from './meta-utils';
import { cat, stack } from './join';
import { alias, expandOf, selectOf } from './views';
import { broadcastShapes } from '../iterator';

// ---- parts ----

export const cplx = (t: Tensor): boolean => isComplexType(t.dtype);
/** The parts of a complex tensor as a real view, trailing dim 2. */
export const parts = (z: Tensor): Tensor => viewAsRealOf(z);
export const re = (z: Tensor): Tensor => selectOf(parts(z), -1, 0);
export const im = (z: Tensor): Tensor => selectOf(parts(z), -1, 1);

/** A complex tensor from a real one whose trailing dim of 2 holds the parts. */
export function fromPairs(p: Tensor): Tensor {
  const n = p.dim();
  const s = p.stride();
  const viewable = s[n - 1] === 1 && s.slice(0, -1).every((x) => x % 2 === 0) && p.storageOffset() % 2 === 0;
  return viewAsComplexOf(viewable ? p : p.contiguous());
}

/** A complex tensor from its real and imaginary parts (broadcast to one shape). */
export function fromParts(r: Tensor, i: Tensor): Tensor {
  const shape = broadcastShapes('complex', r.shape, i.shape);
  return viewAsComplexOf(stack([expandOf(r, shape), expandOf(i, shape)], -1));
}

/** A binary op's operand: a tensor, or a JS number where the binder let one through. */
export type Operand = Tensor | number | boolean | bigint;

/** `x` as the complex dtype `d` (a real tensor's imaginary parts are zeros; a number becomes a 0-dim tensor on `like`'s device). */
export function asComplex(x: Operand, d: DType, like?: Tensor): Tensor {
  const real = toRealValueType(d);
  if (!(x instanceof Tensor)) x = full([], Number(x), { dtype: real, device: like?.device });
  if (cplx(x)) return x.dtype === d ? x : fromPairs(to(parts(x), real));
  const r = to(x, real);
  return fromParts(r, zerosLike(r));
}

/** The complex dtype of a binary op's result (type promotion with a complex operand). */
export function complexResult(op: string, a: Operand, b: Operand): DType {
  return resultType(op, [a, b]);
}

/** A real operand as a factor of both parts: a number as it is, a tensor with a trailing dim. */
export const realFactor = (x: Operand, d: DType): Tensor | number => (x instanceof Tensor ? to(x, toRealValueType(d)).unsqueeze(-1) : Number(x));
export const isRealOperand = (x: Operand): boolean => !(x instanceof Tensor) || !cplx(x);

/** In-place ops write a complex result: a real `self` cannot hold it (PyTorch's canCast error). */
export function checkComplexSelf(self: Tensor, result: DType, op = ''): void {
  const name = op ? `${op}: ` : '';
  if (!isComplexType(self.dtype)) throw new DTypeError(`${name}result type ${torchTypeName(result)} can't be cast to the desired output type ${torchTypeName(self.dtype)}`);
}

// ---- arithmetic ----

function addSub(op: 'add' | 'sub', self: Tensor, other: Operand, alpha: number | boolean | bigint): Tensor {
  const d = complexResult(op, self, other);
  const f = op === 'add' ? add : sub;
  // (a number operand becomes a tensor on the other operand's device: `sub(1, w)` on WebGPU)
  return fromPairs(f(parts(asComplex(self, d, other instanceof Tensor ? other : undefined)), parts(asComplex(other, d, self)), { alpha }));
}

export function product(self: Tensor, other: Operand): Tensor {
  const d = complexResult('mul', self, other);
  // a real factor scales both parts
  if (isRealOperand(other)) return fromPairs(mul(parts(asComplex(self, d)), realFactor(other, d)));
  if (!cplx(self)) return fromPairs(mul(parts(asComplex(other, d)), realFactor(self, d)));
  const a = asComplex(self, d);
  const b = asComplex(other, d);
  const [ar, ai, br, bi] = [re(a), im(a), re(b), im(b)];
  return fromParts(sub(mul(ar, br), mul(ai, bi)), add(mul(ar, bi), mul(ai, br)));
}

/**
 * a / b with both operands scaled by 1 / max(|c|, |d|) first, so that neither |b|^2 nor the
 * numerator overflows or underflows where the quotient does not (PyTorch 1.13's vectorised
 * complex64 kernel overflows to nan for parts near 3e38; c10's scalar one, Smith's, too).
 */
export function quotient(self: Tensor, other: Operand, roundingMode: string | null | undefined): Tensor {
  const d = complexResult('div', self, other);
  if (roundingMode != null) throw new DTypeError(`"div_${roundingMode}_cpu" not implemented for '${torchTypeName(d)}'`);
  if (isRealOperand(other)) return fromPairs(div(parts(asComplex(self, d)), realFactor(other, d)));
  const a = asComplex(self, d);
  const b = asComplex(other, d, self);
  const [ar, ai, br, bi] = [re(a), im(a), re(b), im(b)];
  // (both operands scaled, so that neither |b|^2 nor the numerator's products overflow)
  const s = br.abs().maximum(bi.abs());
  const [c, e, x, y] = [div(br, s), div(bi, s), div(ar, s), div(ai, s)];
  const den = add(mul(c, c), mul(e, e));
  return fromParts(div(add(mul(x, c), mul(y, e)), den), div(sub(mul(y, c), mul(x, e)), den));
}

/**
 * |z| as C's hypot (no overflow of re^2 + im^2), with PyTorch's gradient at 0: sgn(0) = 0.
 * hypot's own derivative is 0/0 there, and masking its result would still send NaN back
 * (0 * NaN), so zeros go through hypot(1, 0) and are then replaced (the double-where trick).
 */
export function modulus(z: Tensor): Tensor {
  const [x, y] = [re(z), im(z)];
  const zero = logicalAnd(eq(x, 0), eq(y, 0));
  return where(zero, 0, hypot(where(zero, 1, x), y));
}

/** Ones of z's shape, dtype and device (1 + 0i). */
export const onesOf = (z: Tensor): Tensor => asComplex(full(z.shape, 1, { dtype: toRealValueType(z.dtype), device: z.device }), z.dtype);

/**
 * The principal square root, without cancellation: t = sqrt((|x| + |z|) / 2), then
 * (t, y / 2t) for x >= 0 and (|y| / 2t, t with y's sign) for x < 0 (0 at 0).
 */
export function principalSqrt(z: Tensor): Tensor {
  const [x, y] = [re(z), im(z)];
  const t = div(add(x.abs(), modulus(z)), 2).sqrt();
  const zero = eq(t, 0);
  const safe = where(zero, 1, t);
  const half = where(zero, 0, div(y, mul(safe, 2)));
  const posX = x.ge(0);
  // (y's sign bit, -0 included: 1 / -0 is -inf)
  const negY = logicalOr(y.lt(0), eq(y.reciprocal(), -Infinity));
  return fromParts(where(posX, t, half.abs()), where(posX, half, where(negY, neg(t), t)));
}

/**
 * An in-place op's operands to compute from (`self` first): where autograd records the
 * computation, `self` copied, since the derivatives save views of what they read and the
 * write into `self` would change them (PyTorch's in-place derivatives save `original_self`).
 */
export function readable<A extends readonly unknown[]>(args: A): A {
  const self = args[0];
  if (!(self instanceof Tensor) || !args.some((a) => a instanceof Tensor && a.requiresGrad)) return args;
  const copy = self.clone();
  // (the same tuple with `self` swapped for a tensor of its type)
  return args.map((a) => (a === self ? copy : a)) as unknown as A;
}

/**
 * A binary in-place op's checks, made before its kernels as PyTorch's TensorIterator makes
 * them: `self` must hold the result's dtype and broadcast shape. Made after, they would lose
 * to a kernel's own error on a device without the parts' dtype (complex128 on WebGPU raises
 * the DTypeError of the real kernel it calls, naming that kernel, not the op).
 */
export function checkInplaceBinary(op: string, self: Tensor, other: Operand): void {
  checkComplexSelf(self, complexResult(op, self, other), op);
  if (!(other instanceof Tensor)) return;
  const shape = broadcastShapes(op, self.shape, other.shape);
  if (shape.join() !== self.shape.join()) throw new ShapeError(`${op}: output with shape ${fmtShape(self.shape)} doesn't match the broadcast shape ${fmtShape(shape)}`);
}

/** `self.op_(other)` of a complex op: the checks, then `compute`'s result written into self. */
export function inplaceBinary(op: string, self: Tensor, other: Operand, compute: () => Tensor): Tensor {
  checkInplaceBinary(op, self, other);
  return writeInto(self, compute(), op);
}

/** An in-place op's result written into `self` (complex), which must have the result's (broadcast) shape. */
export function writeInto(self: Tensor, value: Tensor, op = ''): Tensor {
  checkComplexSelf(self, value.dtype, op);
  if (self.shape.join() !== value.shape.join()) {
    throw new ShapeError(`${op ? `${op}: ` : ''}output with shape ${fmtShape(self.shape)} doesn't match the broadcast shape ${fmtShape(value.shape)}`);
  }
  parts(self).copy_(parts(value));
  return self;
}

// ---- matrix products: (A + iB)(C + iD) = (AC - BD) + i(AD + BC) ----

function sameDtype(op: string, a: Tensor, b: Tensor): void {
  if (a.dtype !== b.dtype) {
    throw new DTypeError(`${op}: expected scalar type ${torchTypeName(a.dtype)} but found ${torchTypeName(b.dtype)}`);
  }
}

function matrixProduct(op: string, f: (x: Tensor, y: Tensor) => Tensor, a: Tensor, b: Tensor): Tensor {
  sameDtype(op, a, b);
  const [ar, ai, br, bi] = [re(a), im(a), re(b), im(b)];
  return fromParts(sub(f(ar, br), f(ai, bi)), add(f(ar, bi), f(ai, br)));
}

// ---- reductions over the complex dims ----

/** A reduction's dims as dims of the parts' view (the trailing parts dim is never reduced). */
export function partDims(z: Tensor, dims: readonly number[] | null | undefined): number[] {
  const n = z.dim();
  if (dims == null || dims.length === 0) return Array.from({ length: n }, (_, i) => i);
  return dims.map((d) => {
    if (d < -Math.max(n, 1) || d >= Math.max(n, 1)) throw new TorchError(`Dimension out of range (expected to be in range of [${-Math.max(n, 1)}, ${Math.max(n, 1) - 1}], but got ${d})`);
    return d < 0 ? d + n : d;
  });
}

function reduceParts(f: typeof sum, z: Tensor, dims: readonly number[] | null | undefined, keepdim: boolean, dtype: DType | null | undefined): Tensor {
  const real = dtype == null ? undefined : toRealValueType(dtype);
  const opts = real === undefined ? {} : { dtype: real };
  if (z.dim() === 0) {
    // a 0-d z reduces over its one implicit dim (dims [], [0] or [-1]): its parts [2] get a
    // leading dim of 1 to reduce, since [] on the parts would reduce the parts dim too
    partDims(z, dims);
    return fromPairs(f(parts(z).unsqueeze(0), [0], false, opts));
  }
  const r = f(parts(z), partDims(z, dims), keepdim, opts);
  return fromPairs(r);
}

// ---- copies ----

/** A tensor without the conjugate bit on the same storage, and whether it had it (Note [The conjugate bit]). */
function unconjugated(t: Tensor): [Tensor, boolean] {
  return t.impl.isConj ? [conjView(t), true] : [t, false];
}

/** copy_ is the one kernel a conjugated tensor reaches (Note [The conjugate bit]): it reads and writes storage. */
function copyInto(self: Tensor, src: Tensor): Tensor {
  if (cplx(self)) {
    const [dst, dstConj] = unconjugated(self);
    if (cplx(src)) {
      const [from, srcConj] = unconjugated(src);
      if (dstConj === srcConj) parts(dst).copy_(parts(from));
      else {
        re(dst).copy_(re(from));
        im(dst).copy_(neg(im(from)));
      }
    } else {
      re(dst).copy_(src);
      im(dst).fill_(0);
    }
  } else {
    // (PyTorch warns that the imaginary parts are discarded; a conjugate's real parts are its storage's)
    self.copy_(re(unconjugated(src)[0]));
  }
  return self;
}

function toCopy(self: Tensor, dtype: DType | null | undefined, device: DeviceLike | null | undefined): Tensor {
  const d = dtype ?? self.dtype;
  const options = device == null ? {} : { device };
  if (isComplexType(d)) return fromPairs(to(parts(self), { dtype: toRealValueType(d), ...options, copy: true }));
  return to(re(self), { dtype: d, ...options, copy: true });
}

// ---- the Complex key's kernels ----

/** Registers `fn` at the Complex key of the op named `name`, its arguments typed by the op's schema. */
function kernel<N extends keyof OpSchemas>(name: N, fn: (args: CompositeArgs<OpSchemas[N]>) => Tensor): void {
  registerComplexKernel(getOperator(name) as OperatorHandle<OpSchemas[N]>, fn);
}

/** Registers the kernels of this module at the Complex key (core's api.ts, once every op exists). */
export function registerComplexKernels(): void {
  kernel('add', ([a, b, alpha]) => addSub('add', a, b, alpha));
  kernel('sub', ([a, b, alpha]) => addSub('sub', a, b, alpha));
  kernel('add_', ([a, b, alpha]) => inplaceBinary('add_', a, b, () => addSub('add', a, b, alpha)));
  kernel('sub_', ([a, b, alpha]) => inplaceBinary('sub_', a, b, () => addSub('sub', a, b, alpha)));
  kernel('mul', ([a, b]) => product(a, b));
  kernel('mul_', ([a, b]) => inplaceBinary('mul_', a, b, () => product(...readable([a, b] as const))));
  kernel('div', ([a, b, mode]) => quotient(a, b, mode));
  kernel('div_', ([a, b, mode]) => inplaceBinary('div_', a, b, () => quotient(...readable([a, b] as const), mode)));
  kernel('neg', ([a]) => fromPairs(neg(parts(a))));
  kernel('neg_', ([a]) => (parts(a).neg_(), a));
  kernel('abs', ([a]) => modulus(a));
  kernel('exp', ([z]) => {
    const r = exp(re(z));
    return fromParts(mul(r, cos(im(z))), mul(r, sin(im(z))));
  });
  kernel('log', ([z]) => fromParts(modulus(z).log(), atan2(im(z), re(z))));
  kernel('sqrt', ([z]) => principalSqrt(z));
  kernel('reciprocal', ([z]) => quotient(onesOf(z), z, null));
  kernel('sin', ([z]) => fromParts(mul(sin(re(z)), im(z).cosh()), mul(cos(re(z)), im(z).sinh())));
  kernel('cos', ([z]) => fromParts(mul(cos(re(z)), im(z).cosh()), neg(mul(sin(re(z)), im(z).sinh()))));
  kernel('cumsum', ([z, dim, dtype]) => {
    const d = dim < 0 ? dim + Math.max(z.dim(), 1) : dim;
    return fromPairs(parts(z).cumsum(d, { dtype: dtype == null ? undefined : toRealValueType(dtype) }));
  });
  kernel('eq', ([a, b]) => {
    const d = complexResult('eq', a, b);
    const [x, y] = [asComplex(a, d), asComplex(b, d, a)];
    return logicalAnd(eq(re(x), re(y)), eq(im(x), im(y)));
  });
  kernel('ne', ([a, b]) => {
    const d = complexResult('ne', a, b);
    const [x, y] = [asComplex(a, d), asComplex(b, d, a)];
    return logicalOr(ne(re(x), re(y)), ne(im(x), im(y)));
  });
  kernel('where', ([c, a, b]) => {
    const d = complexResult('where', a, b);
    return fromPairs(where(c.unsqueeze(-1), parts(asComplex(a, d, c)), parts(asComplex(b, d, c))));
  });
  kernel('sum.dim_IntList', ([z, dims, keepdim, dtype]) => reduceParts(sum, z, dims, keepdim, dtype));
  kernel('mean.dim', ([z, dims, keepdim, dtype]) => reduceParts(mean, z, dims, keepdim, dtype));
  kernel('mm', ([a, b]) => matrixProduct('mm', (x, y) => x.mm(y), a, b));
  kernel('bmm', ([a, b]) => matrixProduct('bmm', (x, y) => x.bmm(y), a, b));
  kernel('dot', ([a, b]) => matrixProduct('dot', (x, y) => x.dot(y), a, b));
  kernel('mv', ([a, b]) => matrixProduct('mv', (x, y) => x.mv(y), a, b));
  kernel('copy_', ([self, src]) => copyInto(self, src));
  kernel('fill_.Scalar', ([z, value]) => {
    re(z).fill_(value);
    im(z).fill_(0);
    return z;
  });
  kernel('_to_copy', ([self, dtype, device]) => toCopy(self, dtype, device));
  kernel('clone', ([self, format]) => {
    if (format === 'channels_last' || format === 'channels_last_3d') throw new NotImplementedError(`clone: memory_format '${format}' is not supported for complex tensors by torch-ts yet`);
    return fromPairs(parts(self).clone({ memoryFormat: format === 'contiguous' ? 'contiguous' : 'preserve' }));
  });
  kernel('cat', ([tensors, dim]) => catParts(tensors, dim));
  kernel('stack', ([tensors, dim]) => {
    const d = dim < 0 ? dim + (tensors[0]?.dim() ?? 0) + 1 : dim;
    const c = commonComplex('stack', tensors);
    return fromPairs(stack(tensors.map((t) => parts(asComplex(t, c))), d));
  });
}

function commonComplex(op: string, ts: readonly Tensor[]): DType {
  return toComplexType(resultType(op, ts.map((t) => ({ dtype: t.dtype, shape: [1] }))));
}

function catParts(ts: readonly Tensor[], dim: number): Tensor {
  const c = commonComplex('cat', ts);
  const n = Math.max(...ts.map((t) => t.dim()));
  const d = dim < 0 ? dim + n : dim;
  return fromPairs(cat(ts.map((t) => parts(asComplex(t, c))), d));
}

/**
 * Registers `fn` as `op`'s kernel for complex operands (the Complex key): a composite that
 * receives the arguments as Tensor handles (numbers and lists as they are) and computes with
 * ops on real views (`viewAsReal`), so that autograd and every backend see real ops only.
 */
export function registerComplexKernel<S extends string>(op: OperatorHandle<S>, fn: (args: CompositeArgs<S>) => Tensor): void {
  // (composite lends the boxed arguments in schema order, which CompositeArgs<S> types: Note [Schema types])
  const k = composite(fn as (args: unknown[]) => Tensor);
  if (!op.schema.args.some((a) => a.mutable)) return registerKernel(op, DispatchKey.Complex, k);
  registerKernel(op, DispatchKey.Complex, (ks, args) => {
    const r = k(ks, args);
    // An in-place or out= kernel returns its self / out borrowed (Note [Kernel results and
    // ownership]); the composite handed back a new reference to it.
    if (r instanceof TensorImpl && args.includes(r)) r.release();
    return r;
  });
}

// ---- front ends ----

/** `torch.complex(real, imag)`: a complex tensor from two float tensors of one dtype. */
export const complex = front('complex(Tensor real, Tensor imag, *, Tensor? out=None) -> Tensor', { method: false }).run(([r, i, out]): Tensor => {
  if (r.dtype !== i.dtype) throw new DTypeError(`complex: Expected object of scalar type ${torchTypeName(r.dtype)} but got scalar type ${torchTypeName(i.dtype)} for second argument`);
  if (r.dtype !== 'float32' && r.dtype !== 'float64') throw new DTypeError(`complex: Expected both inputs to be Float or Double tensors but got ${torchTypeName(r.dtype)} and ${torchTypeName(i.dtype)} (torch-ts has no complex32 for Half)`);
  const z = fromParts(r, i);
  return out ? copyResult(out, z) : z;
});

/** `torch.polar(abs, angle)`: abs * (cos(angle) + i sin(angle)). */
export const polar = front('polar(Tensor abs, Tensor angle, *, Tensor? out=None) -> Tensor', { method: false }).run(([r, theta, out]): Tensor => {
  if (r.dtype !== theta.dtype) throw new DTypeError(`polar: Expected object of scalar type ${torchTypeName(r.dtype)} but got scalar type ${torchTypeName(theta.dtype)} for second argument`);
  if (r.dtype !== 'float32' && r.dtype !== 'float64') throw new DTypeError(`polar: Expected both inputs to be Float or Double tensors but got ${torchTypeName(r.dtype)} and ${torchTypeName(theta.dtype)} (torch-ts has no complex32 for Half)`);
  const z = fromParts(mul(r, cos(theta)), mul(r, sin(theta)));
  return out ? copyResult(out, z) : z;
});

/** An out= result, checked as core's out variants check theirs (same shape and dtype). */
function copyResult(out: Tensor, z: Tensor): Tensor {
  if (out.dtype !== z.dtype) throw new DTypeError(`Expected object of scalar type ${torchTypeName(z.dtype)} but got scalar type ${torchTypeName(out.dtype)} for argument 'out'`);
  if (out.shape.join() !== z.shape.join()) throw new ShapeError(`out= tensor has shape ${fmtShape(out.shape)}, but the result has shape ${fmtShape(z.shape)}`);
  return out.copy_(z);
}

/** `torch.angle(z)`: the argument of each element (atan2(imag, real)); of a real tensor, 0 or pi. */
export const angle = front('angle(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => {
  if (out) throw new TorchError('angle: out= is not supported by torch-ts yet');
  if (cplx(self)) return atan2(im(self), re(self));
  const x = self.dtype.startsWith('float') || self.dtype === 'bfloat16' ? self : to(self, 'float32');
  // (NaN stays NaN, as PyTorch's where(x < 0, pi, 0) on a float does not: it maps NaN through isnan)
  return where(x.isnan(), x, where(x.lt(0), Math.PI, 0).to(x.dtype));
});

/** The conjugate of a complex tensor without the conjugate bit, as a new tensor. */
const conjugated = (z: Tensor): Tensor => fromParts(re(z), neg(im(z)));

/**
 * `torch.conj(z)`: PyTorch's lazy conjugate, a view of z with the conjugate bit set (Note
 * [The conjugate bit]): nothing is computed, and writing into it writes into z. A real tensor
 * is returned as an alias.
 */
export const conj = front('conj(Tensor(a) self) -> Tensor(a)').run(([self]): Tensor => (cplx(self) ? conjView(self) : alias(self)));

/** `torch.conjPhysical(z)`: the conjugate as a new tensor, without the bit. */
export const conjPhysical = front('conj_physical(Tensor self, *, Tensor? out=None) -> Tensor').run(([self, out]): Tensor => {
  const z = !cplx(self) ? self.clone() : self.impl.isConj ? conjView(self).clone() : conjugated(self);
  return out ? copyResult(out, z) : z;
});

/** `x.conjPhysical_()`: conjugates in place (negates the imaginary parts it holds); a real tensor is left as it is. */
export const conjPhysical_ = front('conj_physical_(Tensor(a!) self) -> Tensor(a!)').run(([self]): Tensor => {
  // (a conjugate's storage is negated too: conj(conj(s)) = conj(values))
  if (cplx(self)) im(unconjugated(self)[0]).neg_();
  return self;
});

/** `x.isComplex()`: whether the dtype is complex64 or complex128. */
export const isComplex = front('is_complex(Tensor self) -> bool').run(([self]): boolean => cplx(self));

/** `x.isConj()`: whether the conjugate bit is set (`z.conj()` and views of it). */
export const isConj = front('is_conj(Tensor self) -> bool').run(([self]): boolean => self.impl.isConj);

/** `x.resolveConj()`: a conjugated tensor's values as a new tensor without the bit; any other tensor itself (an alias). */
export const resolveConj = front('resolve_conj(Tensor(a) self) -> Tensor(a)').run(([self]): Tensor =>
  self.impl.isConj ? conjugated(conjView(self)) : alias(self),
);
