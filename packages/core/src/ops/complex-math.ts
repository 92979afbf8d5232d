/**
 * Complex math kernels at the Complex dispatch key: composites of real ops on the parts, as
 * complex.ts's (Note [Complex tensors are pairs of reals], Note [Complex gradients]): the
 * hyperbolic and inverse trigonometric functions, pow, rsqrt, sigmoid, log2/log10, products
 * and scans, var/std and norms, addcmul/addcdiv/lerp, and the data-movement ops that act on
 * each part alike (Note [Ops that act on each part]). Then every in-place and out= overload
 * whose functional op has a complex kernel gets one (Note [In-place and out= from the functional]).
 *
 * Note [Complex special values]
 * PyTorch 1.13's CPU kernels compute these with std::complex, that is with C99's csinh,
 * ctanh, casinh, cacos, catanh, cpow... (glibc). The formulas below are chosen to give the same
 * values on the branch cuts (the sign of a zero part picks the side: asinh(-0 + 2i) has a
 * negative real part, acosh(-2 - 0i) the imaginary part -pi) and without overflow where the
 * result is finite (tanh(30 + i) is 1 + tiny i, not nan); test/ops.test.ts checks them
 * against PyTorch's goldens (goldens/ops_complex.json: "c-edges", "c-nonfinite").
 */
import { DispatchKey } from '../dispatch/dispatch-key';
import { allOperators, findOperator, getOperator, type OperatorHandle } from '../dispatch/dispatcher';
import { canCast, isComplexType, toRealValueType, type DType } from '../dtype';
import { viewAsComplexOf, viewAsRealOf } from './complex-views';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import type { CompositeArgs } from './composite';
import type { OpSchemas } from './generated/schemas';
import { callFunctional, callMutating } from './call';
import { asComplex, complexResult, cplx, fromParts, im, inplaceBinary, modulus, onesOf, principalSqrt, product, quotient, re, readable, registerComplexKernel, type Operand } from './complex';
import { full, zerosLike } from './factories';
import { add, atan2, div, eq, exp, logicalAnd, logicalOr, mul, neg, sub } from './generated/table-ops';
import { where } from './pointwise';
import { torchTypeName } from './meta-utils';
import { cat } from './join';

/** Registers `fn` at the Complex key of the op named `name`, its arguments typed by the op's schema. */
function kernel<N extends keyof OpSchemas>(name: N, fn: (args: CompositeArgs<OpSchemas[N]>) => Tensor): void {
  registerComplexKernel(getOperator(name) as OperatorHandle<OpSchemas[N]>, fn);
}

/** Whether x's sign bit is set (-0 included: 1 / -0 is -inf). */
const signBit = (x: Tensor): Tensor => logicalOr(x.lt(0), eq(x.reciprocal(), -Infinity));
/** |r| with the sign of s (C's copysign). */
const withSignOf = (r: Tensor, s: Tensor): Tensor => where(signBit(s), neg(r.abs()), r.abs());
/** i z, and -i z: (x, y) -> (-y, x) and (y, -x). */
const timesI = (z: Tensor): Tensor => fromParts(neg(im(z)), re(z));
const timesMinusI = (z: Tensor): Tensor => fromParts(im(z), neg(re(z)));

/** z + c for a real number c: only the real part moves (std::complex's z + x), so an imaginary -0 stays -0. */
const plusReal = (z: Tensor, c: number): Tensor => fromParts(add(re(z), c), im(z));

/** The principal square root with csqrt's signed zero: sqrt(x - 0i) has an imaginary part -0 for x >= 0. */
function signedSqrt(z: Tensor): Tensor {
  const r = principalSqrt(z);
  return fromParts(re(r), where(eq(im(r), 0), mul(im(z), 0), im(r)));
}

/** log z: log|z| (hypot, no overflow) and the argument atan2(y, x). */
const logOf = (z: Tensor): Tensor => fromParts(modulus(z).log(), atan2(im(z), re(z)));

// ---- hyperbolic and trigonometric ----

const sinhOf = (z: Tensor): Tensor => fromParts(mul(re(z).sinh(), im(z).cos()), mul(re(z).cosh(), im(z).sin()));
const coshOf = (z: Tensor): Tensor => fromParts(mul(re(z).cosh(), im(z).cos()), mul(re(z).sinh(), im(z).sin()));

/**
 * tanh as glibc's ctanh: sinh x cosh x / (sinh^2 x + cos^2 y) + i sin y cos y / (...), and for
 * |x| > 20, where that overflows and tanh x rounds to +-1 in double, (sign x, 4 sin y cos y e^(-2|x|)).
 */
function tanhOf(z: Tensor): Tensor {
  const [x, y] = [re(z), im(z)];
  const big = x.abs().gt(20);
  const xs = where(big, 0, x); // (the large x go the other way: no inf / inf in either direction)
  const [sh, ch, s, c] = [xs.sinh(), xs.cosh(), y.sin(), y.cos()];
  const den = add(mul(sh, sh), mul(c, c));
  const sc = mul(s, c);
  const tail = mul(mul(sc, 4), exp(mul(x.abs(), -2)));
  return fromParts(where(big, x.sign(), div(mul(sh, ch), den)), where(big, tail, div(sc, den)));
}

/** asinh as log(z + sqrt(z^2 + 1)), computed for |x| (no cancellation) and given x's sign back. */
function asinhOf(z: Tensor): Tensor {
  const [x, y] = [re(z), im(z)];
  const ax = x.abs();
  const w = fromParts(ax, y);
  const w2p1 = fromParts(add(sub(mul(ax, ax), mul(y, y)), 1), mul(mul(ax, y), 2));
  const l = logOf(add(w, principalSqrt(w2p1)));
  return fromParts(withSignOf(re(l), x), im(l));
}

/** acosh as log(z + sqrt(z + 1) sqrt(z - 1)): both roots principal, so the cut is x < 1 with y's sign. */
function acoshOf(z: Tensor): Tensor {
  const p = product(signedSqrt(plusReal(z, 1)), signedSqrt(plusReal(z, -1)));
  return logOf(add(z, p));
}

/** atanh as glibc's catanh: log1p(4x / ((1 - x)^2 + y^2)) / 4 + i atan2(2y, (1 - x)(1 + x) - y^2) / 2. */
function atanhOf(z: Tensor): Tensor {
  const [x, y] = [re(z), im(z)];
  const omx = sub(1, x);
  const den = add(mul(omx, omx), mul(y, y));
  const r = mul(div(mul(x, 4), den).log1p(), 0.25);
  const i = mul(atan2(mul(y, 2), sub(mul(omx, add(x, 1)), mul(y, y))), 0.5);
  return fromParts(r, i);
}

/**
 * asin and atan as PyTorch's vectorised kernels compute them (vec256_complex_*.h; its scalar
 * loop, std::asin..., runs only on a contiguous tensor's last few elements and on strided
 * ones): asin z = -i log(iz + sqrt(1 - z^2)) with 1 - z^2 = (1 - (a^2 - b^2), -2ab), and
 * atan z = i/2 log((i + z) / (i - z)), nan at z = +-i. asin loses digits to cancellation
 * where glibc's does not (|z| large, for complex64), as PyTorch's does. acos follows glibc's
 * cacos (pi/2 - casin z, casin z = -i casinh(iz)), as PyTorch's complex64 results do.
 */
function asinOf(z: Tensor): Tensor {
  const [a, b] = [re(z), im(z)];
  const oneMinusZ2 = fromParts(sub(1, sub(mul(a, a), mul(b, b))), mul(mul(a, b), -2));
  return timesMinusI(logOf(add(timesI(z), principalSqrt(oneMinusZ2))));
}
function acosOf(z: Tensor): Tensor {
  const a = timesMinusI(asinhOf(timesI(z)));
  return fromParts(sub(Math.PI / 2, re(a)), neg(im(a)));
}
function atanOf(z: Tensor): Tensor {
  const [a, b] = [re(z), im(z)];
  // (i + z, i - z part by part as the vector code adds: 0 + a and 0 - a are +0 at a = -0)
  const q = quotient(fromParts(add(a, 0), add(b, 1)), fromParts(sub(0, a), sub(1, b)), null);
  const [u, v] = [re(logOf(q)), im(logOf(q))];
  // (0 + 0.5i)(u + iv) as a complex product: 0 * u is nan at u = -inf (z = -i)
  return fromParts(sub(mul(u, 0), mul(v, 0.5)), add(mul(v, 0), mul(u, 0.5)));
}

// ---- powers ----

/**
 * base ** exponent as std::pow (glibc's cpow: exp(w log z)), with PyTorch's shortcuts for a
 * number exponent (Pow.cpp: 0 fills ones, 1 copies; PowKernel.cpp: 0.5, -0.5 and -1 are
 * sqrt, rsqrt and reciprocal, 2, 3 and -2 products). A zero base gives 0 for an exponent
 * with a positive real part (cexp(-inf ...)) and is kept off log's -inf otherwise.
 */
function power(self: Operand, exponent: Operand): Tensor {
  const d = complexResult('pow', self, exponent);
  if (!(exponent instanceof Tensor) && self instanceof Tensor) {
    const e = Number(exponent);
    const z = asComplex(self, d);
    if (e === 0) return onesOf(z);
    if (e === 1) return z.clone();
    if (e === 0.5) return principalSqrt(z);
    if (e === -0.5) return quotient(onesOf(z), principalSqrt(z), null);
    if (e === -1) return quotient(onesOf(z), z, null);
    if (e === 2) return product(z, z);
    if (e === 3) return product(product(z, z), z);
    if (e === -2) return quotient(onesOf(z), product(z, z), null);
  }
  const like = self instanceof Tensor ? self : (exponent as Tensor);
  const z = asComplex(self, d, like);
  const w = asComplex(exponent, d, like);
  const zero = logicalAnd(eq(re(z), 0), eq(im(z), 0));
  const safe = where(zero, onesOf(z), z);
  const general = expOf(product(w, logOf(safe)));
  const atZero = where(re(w).gt(0), 0, Number.NaN);
  return fromParts(where(zero, atZero, re(general)), where(zero, atZero, im(general)));
}

const expOf = (z: Tensor): Tensor => {
  const r = exp(re(z));
  return fromParts(mul(r, im(z).cos()), mul(r, im(z).sin()));
};

// ---- products and scans (a tree of complex products: no complex reduction kernel needed) ----

function prodAlong(z: Tensor, d: number): Tensor {
  let t = z;
  if (t.shape[d] === 0) {
    const shape = [...t.shape];
    shape[d] = 1;
    return asComplex(full(shape, 1, { dtype: toRealValueType(z.dtype), device: z.device }), z.dtype);
  }
  while (t.shape[d] > 1) {
    const n = t.shape[d];
    const h = Math.floor(n / 2);
    const p = product(t.narrow(d, 0, h), t.narrow(d, h, h));
    t = n % 2 ? cat([p, t.narrow(d, 2 * h, 1)], d) : p;
  }
  return t;
}

function prodKernel(z: Tensor, dim: number | null | undefined, keepdim: boolean, dtype: DType | null | undefined): Tensor {
  const x = dtype == null ? z : asComplexDtype('prod', z, dtype);
  if (dim == null) return prodAlong(x.reshape([-1]), 0).reshape([]);
  const n = Math.max(x.dim(), 1);
  const d = dim < 0 ? dim + n : dim;
  const src = x.dim() === 0 ? x.reshape([1]) : x;
  const r = prodAlong(src, d);
  return keepdim || x.dim() === 0 ? r.reshape(x.dim() === 0 ? [] : r.shape) : r.squeeze(d);
}

/** A complex tensor in the complex `dtype` a reduction's dtype= asks for; a real dtype cannot hold it. */
function asComplexDtype(op: string, z: Tensor, dtype: DType): Tensor {
  if (!isComplexType(dtype)) throw new DTypeError(`${op}: Expected a complex dtype= for a ${torchTypeName(z.dtype)} input, but got ${torchTypeName(dtype)}`);
  return asComplex(z, dtype);
}

/** The inclusive scan of products along `d` in log2(n) rounds (Hillis-Steele). */
function cumprodKernel(z: Tensor, dim: number, dtype: DType | null | undefined): Tensor {
  const x = dtype == null ? z : asComplexDtype('cumprod', z, dtype);
  const d = dim < 0 ? dim + Math.max(x.dim(), 1) : dim;
  if (x.dim() === 0) return x.clone();
  const n = x.shape[d];
  let t = x.clone();
  for (let s = 1; s < n; s *= 2) t = cat([t.narrow(d, 0, s), product(t.narrow(d, s, n - s), t.narrow(d, 0, n - s))], d);
  return t;
}

// ---- the kernels ----

/** Registers the kernels of this module at the Complex key (core's api.ts, after complex.ts's). */
export function registerComplexMathKernels(): void {
  kernel('sinh', ([z]) => sinhOf(z));
  kernel('cosh', ([z]) => coshOf(z));
  kernel('tanh', ([z]) => tanhOf(z));
  kernel('tan', ([z]) => timesMinusI(tanhOf(timesI(z))));
  kernel('asinh', ([z]) => asinhOf(z));
  kernel('acosh', ([z]) => acoshOf(z));
  kernel('atanh', ([z]) => atanhOf(z));
  kernel('asin', ([z]) => asinOf(z));
  kernel('acos', ([z]) => acosOf(z));
  kernel('atan', ([z]) => atanOf(z));
  // (c10's log2 and libstdc++'s log10 of a complex: log z over a real constant)
  kernel('log2', ([z]) => viewAsComplexOf(div(viewAsRealOf(logOf(z)), Math.LN2)));
  kernel('log10', ([z]) => viewAsComplexOf(div(viewAsRealOf(logOf(z)), Math.LN10)));
  kernel('rsqrt', ([z]) => quotient(onesOf(z), principalSqrt(z), null));
  // (UnaryOpsKernel.cpp: 1 / (1 + exp(-z)))
  kernel('sigmoid', ([z]) => quotient(onesOf(z), add(expOf(neg(z)), 1), null));
  kernel('pow', ([a, b]) => power(a, b));
  // (its own in-place kernel, not the functional's write (Note [In-place and out= from the functional]): the checks come first)
  kernel('pow_', ([a, b]) => inplaceBinary('pow_', a, b, () => power(...readable([a, b] as const))));
  kernel('prod.dim_int', ([z, dim, keepdim, dtype]) => prodKernel(z, dim, keepdim, dtype));
  kernel('cumprod', ([z, dim, dtype]) => cumprodKernel(z, dim, dtype));
  // var z = var(re z) + var(im z): E|z - mean|^2 splits into the parts; a real result
  kernel('var.correction', ([z, dim, correction, keepdim]) => variance(z, dim, correction, keepdim));
  kernel('std.correction', ([z, dim, correction, keepdim]) => variance(z, dim, correction, keepdim).sqrt());
  kernel('linalg_vector_norm', ([z, ord, dim, keepdim, dtype]) =>
    callFunctional(getOperator('linalg_vector_norm'), [modulus(dtype == null ? z : asComplexDtype('linalg_vector_norm', z, dtype)).impl, ord, dim, keepdim, null]),
  );
  kernel('addcmul', ([self, t1, t2, value]) => add(self, mul(t1, t2), { alpha: value }));
  kernel('addcdiv', ([self, t1, t2, value]) => add(self, div(t1, t2), { alpha: value }));
  kernel('lerp', ([self, end, weight]) => lerp(self, end, weight));
  // (beta = 0 ignores self, nan and inf included, as PyTorch's addmm)
  kernel('addmm', ([self, m1, m2, beta, alpha]) => affine(self, m1.mm(m2), beta, alpha));
  kernel('baddbmm', ([self, b1, b2, beta, alpha]) => affine(self, b1.bmm(b2), beta, alpha));
  kernel('abs_', () => {
    throw new TorchError('abs_: In-place abs is not supported for complex tensors.');
  });
  registerPartwiseKernels();
  registerDerivedKernels();
}

/** beta self + alpha product, self broadcast to the product's shape. */
function affine(self: Tensor, prod: Tensor, beta: number | boolean | bigint, alpha: number | boolean | bigint): Tensor {
  const scaled = Number(alpha) === 1 ? prod : mul(prod, Number(alpha));
  if (Number(beta) === 0) return scaled.clone();
  const s = Number(beta) === 1 ? self : mul(self, Number(beta));
  const shape = prod.shape;
  return add(s.expand([...shape]), scaled);
}

function variance(z: Tensor, dim: readonly number[] | null | undefined, correction: number | boolean | bigint | null | undefined, keepdim: boolean): Tensor {
  const op = getOperator('var.correction');
  const part = (p: Tensor) => callFunctional(op, [p.impl, dim ?? null, correction ?? null, keepdim]);
  return add(part(re(z)), part(im(z)));
}

/** PyTorch's lerp (Lerp.h): start + w (end - start) for |w| < 0.5, else end - (end - start)(1 - w). */
function lerp(self: Tensor, end: Tensor, weight: Tensor | number | boolean | bigint): Tensor {
  if (!(weight instanceof Tensor)) {
    if (self.dtype !== end.dtype) throw new DTypeError(`lerp: expected dtype ${torchTypeName(self.dtype)} for \`end\` but got dtype ${torchTypeName(end.dtype)}`);
    const w = Number(weight);
    const d = sub(end, self);
    return Math.abs(w) < 0.5 ? add(self, mul(d, w)) : sub(end, mul(d, 1 - w));
  }
  if (self.dtype !== end.dtype || self.dtype !== weight.dtype) {
    const other = self.dtype !== end.dtype ? end : weight;
    throw new DTypeError(`lerp: expected dtype ${torchTypeName(self.dtype)} for \`${other === end ? 'end' : 'weight'}\` but got dtype ${torchTypeName(other.dtype)}`);
  }
  const diff = sub(end, self);
  const low = add(self, mul(weight, diff));
  const high = sub(end, mul(diff, sub(1, weight)));
  return where(modulus(weight).lt(0.5), low, high);
}

/**
 * Note [Ops that act on each part]
 * Indexing, masking, flips, rolls, repeats, triangles and padding move elements without
 * combining them, so on a complex tensor they are the real op on each part, the results
 * joined again (a complex operand of the same role split alike; a Scalar fill value is real,
 * its imaginary part 0). Autograd records the real ops, so gradients need nothing more.
 */
function partwise(name: string, roles: readonly number[], args: readonly unknown[]): Tensor {
  const h = getOperator(name);
  const call = (k: 0 | 1) => callFunctional(h, args.map((a, i) => (roles.includes(i) ? partOf(a, k) : unwrap(a))) as never);
  return fromParts(call(0), call(1));
}

function partwiseInplace(name: string, roles: readonly number[], args: readonly unknown[]): Tensor {
  const self = args[0] as Tensor;
  if (!cplx(self)) throw new DTypeError(`${getOperator(name).schema.name}: expected self of a complex dtype for a complex operand, but got ${torchTypeName(self.dtype)}`);
  const h = getOperator(name);
  for (const k of [0, 1] as const) callMutating(h, args.map((a, i) => (roles.includes(i) ? partOf(a, k) : unwrap(a))) as never, self);
  return self;
}

const unwrap = (a: unknown): unknown => (a instanceof Tensor ? a.impl : a);

/** Part k (0 real, 1 imaginary) of an operand: a real tensor's imaginary part is zeros, a number's 0. */
function partOf(a: unknown, k: 0 | 1): TensorImpl | number | unknown {
  if (a instanceof Tensor) {
    if (cplx(a)) return (k ? im(a) : re(a)).impl;
    return k ? zerosLike(a).impl : a.impl;
  }
  if (typeof a === 'number' || typeof a === 'bigint' || typeof a === 'boolean') return k ? 0 : a;
  return a;
}

/** PyTorch's same-dtype check of an op's value operand (scatter's src, index_put's values). */
function sameDtype(op: string, self: Tensor, other: Tensor, what: string): void {
  if (self.dtype !== other.dtype) throw new DTypeError(`${op}(): Expected self.dtype to be equal to ${what}.dtype (got ${torchTypeName(self.dtype)} and ${torchTypeName(other.dtype)})`);
}

function registerPartwiseKernels(): void {
  kernel('index_select', (args) => partwise('index_select', [0], args));
  kernel('gather', (args) => partwise('gather', [0], args));
  kernel('take', (args) => partwise('take', [0], args));
  kernel('masked_select', (args) => partwise('masked_select', [0], args));
  kernel('flip', (args) => partwise('flip', [0], args));
  kernel('roll', (args) => partwise('roll', [0], args));
  kernel('repeat', (args) => partwise('repeat', [0], args));
  kernel('tril', (args) => partwise('tril', [0], args));
  kernel('triu', (args) => partwise('triu', [0], args));
  kernel('constant_pad_nd', (args) => partwise('constant_pad_nd', [0, 2], args));
  kernel('scatter.src', (args) => {
    sameDtype('scatter', args[0], args[3], 'src');
    return partwise('scatter.src', [0, 3], args);
  });
  kernel('scatter_.src', (args) => {
    sameDtype('scatter_', args[0], args[3], 'src');
    return partwiseInplace('scatter_.src', [0, 3], args);
  });
  kernel('index_put_.packed', (args) => {
    if (args[0].dtype !== args[3].dtype) {
      throw new DTypeError(`Index put requires the source and destination dtypes match, got ${torchTypeName(args[0].dtype)} for the destination and ${torchTypeName(args[3].dtype)} for the source.`);
    }
    return partwiseInplace('index_put_.packed', [0, 3], args);
  });
  kernel('masked_fill_.Scalar', (args) => partwiseInplace('masked_fill_.Scalar', [0, 2], args));
  kernel('tril_', (args) => partwiseInplace('tril_', [0], args));
  kernel('triu_', (args) => partwiseInplace('triu_', [0], args));
}

/**
 * Note [In-place and out= from the functional]
 * An in-place overload (`tanh_`) or an out= overload (`tanh.out`) of an op that has a complex
 * kernel computes the functional op and writes its result: into self, which must be able to
 * hold it (PyTorch's "result type ComplexFloat can't be cast to the desired output type
 * Float"), or into out, of the result's shape and a dtype the result can be cast to. Ops
 * with their own complex kernel, or composites (which reach complex through the ops they
 * call), are left alone.
 */
function registerDerivedKernels(): void {
  for (const h of allOperators()) {
    if (h.kernels[DispatchKey.Complex] !== undefined || h.def.composite) continue;
    const { name, overload } = h.schema;
    const isOut = overload === 'out' || overload.endsWith('_out');
    const isInplace = !isOut && name.endsWith('_') && h.schema.args[0]?.mutable === true;
    if (!isOut && !isInplace) continue;
    const base = isOut ? name : name.slice(0, -1);
    const fOverload = isOut ? overload.replace(/_?out$/, '') : overload;
    const functional = findOperator(fOverload ? `${base}.${fOverload}` : base);
    if (!functional || (functional.kernels[DispatchKey.Complex] === undefined && !functional.def.composite)) continue;
    if (functional.schema.args.length !== h.schema.args.length - (isOut ? 1 : 0)) continue;
    registerComplexKernel(h, (args: unknown[]) => (isOut ? writeOut(functional, args) : writeSelf(functional, args)));
  }
}

function writeSelf(functional: OperatorHandle, args: readonly unknown[]): Tensor {
  const self = args[0] as Tensor;
  const r = callFunctional(functional, readable(args).map(unwrap) as never);
  if (!canCast(r.dtype, self.dtype)) throw new DTypeError(`${functional.schema.name}_: result type ${torchTypeName(r.dtype)} can't be cast to the desired output type ${torchTypeName(self.dtype)}`);
  if (r.shape.join() !== self.shape.join()) throw new ShapeError(`${functional.schema.name}_: output with shape ${fmtShape(self.shape)} doesn't match the broadcast shape ${fmtShape(r.shape)}`);
  return self.copy_(r);
}

function writeOut(functional: OperatorHandle, args: readonly unknown[]): Tensor {
  const out = args[args.length - 1] as Tensor;
  const r = callFunctional(functional, args.slice(0, -1).map(unwrap) as never);
  if (!canCast(r.dtype, out.dtype)) throw new DTypeError(`${functional.schema.name}: result type ${torchTypeName(r.dtype)} can't be cast to the desired output type ${torchTypeName(out.dtype)}`);
  if (r.shape.join() !== out.shape.join()) throw new ShapeError(`${functional.schema.name}: out= tensor has shape ${fmtShape(out.shape)}, but the result has shape ${fmtShape(r.shape)}`);
  return out.copy_(r);
}

