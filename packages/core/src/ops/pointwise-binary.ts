import { tidy } from '../tensor/scope';
import { checkScalarFits, isComplexType, isFloatingType, resultType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import { broadcastShapes } from '../iterator';
import type { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { front } from './front';
import { callFunctional, callMutating, optionalTensor, unwrapTensor, unwrapTensorOrScalar } from './call';
import {
  allocateOutput,
  broadcastTo,
  castTo,
  checkWritable,
  commonDevice,
  releaseAll,
  scalarTensor,
  type Scalar,
} from './meta-utils';
import { onesLike, zerosLike } from './factories';
import type { PointwiseOp } from './pointwise';
import { abs, eq, logicalOr, lt, ne } from './generated/table-ops';
import { imag, real } from './complex-views';
import { defineStructured, implOf, type Backend } from './registry';

/**
 * clamp and the classification composites (isnan, isinf, isfinite). (clamp's one-bound forms
 * clamp_min / clamp_max are rows of the op table, table/binary.ts; lerp, addcmul and addcdiv
 * table/ternary.ts.)
 */

type MathName = 'clampMin' | 'clampMax' | 'maximum' | 'minimum';
const impl = (name: MathName) => (b: Backend, op: string, out: TensorImpl, [x, y]: TensorImpl[]) => implOf(b, name, op)(out, x, y);

// ---- clamp ----
/**
 * Note [clamp's two kernels]
 * PyTorch clamps with Scalar bounds and with Tensor bounds by different kernels, and they
 * differ at NaN: a Scalar bound is `std::max(x, min)` / `std::min(x, max)`, so a NaN bound
 * is ignored (only a NaN `x` stays NaN); a Tensor bound is `maximum` / `minimum`, so a NaN
 * bound or `x` gives NaN. Both bounds apply min first, so `min > max` gives `max`. A bound
 * given as a JS scalar next to a Tensor bound takes the Tensor path (PyTorch's arg parser
 * wraps it as a tensor). The ops take scalars in their Tensor slots, as the other binary
 * ops do, and the Node records which overload ran (ClampBackward0 / ClampBackward1).
 * A NaN Scalar bound of `clamp_min` / `clamp_max`, or of `clamp` given both bounds, fills
 * the result with NaN (PyTorch's `clamp_out` / `clamp_min_out` check first); `clamp` given
 * one Scalar bound goes straight to its kernel and ignores a NaN bound.
 */
type Bound = TensorImpl | Scalar | null;

/** The CPU kernel PyTorch dispatches to for Scalar bounds, named in its dtype errors. */
function scalarKernel(lo: Bound, hi: Bound): string {
  return lo != null && hi != null ? 'clamp_scalar_cpu' : lo != null ? 'clamp_min_cpu' : 'clamp_max_scalar_cpu';
}

function checkClampScalars(op: string, compute: DType, lo: Bound, hi: Bound): void {
  if (compute === 'bool') throw new DTypeError(`${op}: "${scalarKernel(lo, hi)}" not implemented for 'Bool'`);
  for (const s of [lo, hi]) if (s != null && !(s instanceof TensorImpl)) checkScalarFits(op, s, compute);
}

/** out = x clamped to the present bounds (inputs already cast and broadcast). */
function computeClamp(b: Backend, op: string, out: TensorImpl, x: TensorImpl, lo: TensorImpl | null, hi: TensorImpl | null, tensorMode: boolean): void {
  let cur = x;
  if (lo) {
    impl(tensorMode ? 'maximum' : 'clampMin')(b, op, out, [cur, lo]);
    cur = out;
  }
  if (hi) impl(tensorMode ? 'minimum' : 'clampMax')(b, op, out, [cur, hi]);
}

type Mode = 'functional' | 'inplace' | 'out';

function runClamp(mode: Mode, args: unknown[], b: Backend): TensorImpl {
  const op = mode === 'inplace' ? 'clamp_' : 'clamp';
  const self = args[0] as TensorImpl;
  const lo = (args[1] ?? null) as Bound;
  const hi = (args[2] ?? null) as Bound;
  if (lo == null && hi == null) throw new TorchError(`${op}: At least one of 'min' or 'max' must not be None`);
  const dst = mode === 'out' ? (args[3] as TensorImpl) : mode === 'inplace' ? self : null;
  const operands = [self, lo, hi].filter((o): o is TensorImpl | Scalar => o != null);
  const device = commonDevice(op, [...operands, dst]);
  const compute = resultType(op, operands.map((o) => (o instanceof TensorImpl ? { dtype: o.dtype, shape: o.sizes } : o)));
  const tensorMode = lo instanceof TensorImpl || hi instanceof TensorImpl;
  if (!tensorMode) checkClampScalars(op, compute, lo, hi);
  else if (compute === 'bool' && lo != null && hi != null) throw new DTypeError(`${op}: "clamp_cpu" not implemented for 'Bool'`);
  const tensors = operands.filter((o): o is TensorImpl => o instanceof TensorImpl);
  const shape = broadcastShapes(op, ...tensors.map((t) => t.sizes));
  if (dst) checkWritable(op, dst, shape, compute, device, tensors);

  const temps: TensorImpl[] = [];
  const prepare = (o: Bound): TensorImpl | null => {
    if (o == null) return null;
    const c = o instanceof TensorImpl ? castTo(b, op, o, compute, device) : scalarTensor(b, op, o, compute, device);
    temps.push(c);
    const v = broadcastTo(c, shape);
    temps.push(v);
    return v;
  };
  try {
    const [x, l, h] = [prepare(self)!, prepare(lo), prepare(hi)];
    const isNan = (s: Bound) => typeof s === 'number' && Number.isNaN(s);
    const run = (out: TensorImpl) => {
      if (!tensorMode && (isNan(lo) || isNan(hi)) && lo != null && hi != null) implOf(b, 'fill', op)(out, NaN);
      else computeClamp(b, op, out, x, l, h, tensorMode);
    };
    if (dst && dst.dtype === compute) {
      run(dst);
      return dst;
    }
    const result = allocateOutput(op, shape, compute, device, tensors);
    if (!dst) {
      try {
        run(result);
      } catch (e) {
        result.release();
        throw e;
      }
      return result;
    }
    temps.push(result);
    run(result);
    implOf(b, 'copy', 'copy_')(dst, result);
    return dst;
  } finally {
    releaseAll(temps);
  }
}

const CLAMP_ARGS = 'Tensor self, Tensor? min=None, Tensor? max=None';
export const CLAMP: PointwiseOp = {
  functional: defineStructured(`clamp(${CLAMP_ARGS}) -> Tensor`, (a, b) => runClamp('functional', a, b), ['pointwise']),
  inplace: defineStructured(
    'clamp_(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)',
    (a, b) => runClamp('inplace', a, b),
    ['pointwise', 'inplace'],
  ),
  out: defineStructured(`clamp.out(${CLAMP_ARGS}, *, Tensor(a!) out) -> Tensor(a!)`, (a, b) => runClamp('out', a, b), ['pointwise', 'out']),
};

const bound = (op: string, name: string, x: unknown) => (x == null ? null : unwrapTensorOrScalar(op, name, x));

/** clamp's body under `name` (`clip` is PyTorch's alias: the same op, its own messages). */
function runClampFront(name: string, self: Tensor, min: unknown, max: unknown, outArg: unknown): Tensor {
  const a = [unwrapTensor(name, 'input', self), bound(name, 'min', min), bound(name, 'max', max)];
  const out = optionalTensor(name, 'out', outArg);
  return out ? callMutating(CLAMP.out, [...a, unwrapTensor(name, 'out', out)], out) : callFunctional(CLAMP.functional, a);
}

function runClampInplace(name: string, self: Tensor, min: unknown, max: unknown): Tensor {
  return callMutating(CLAMP.inplace!, [unwrapTensor(name, 'self', self), bound(name, 'min', min), bound(name, 'max', max)], self);
}

// (a bound is a Tensor or a number: PyTorch's parser takes numbers for clamp's Tensors)
const BOUNDS = { numbersAsTensors: true } as const;
const INPLACE_BOUNDS = { numbersAsTensors: true } as const;

/** `clamp(x, min, max)`: each bound a Tensor, a scalar or null/undefined (either by keyword); at least one must be given. */
export const clamp = front('clamp(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor? out=None) -> Tensor', BOUNDS).run(
  ([self, min, max, out]): Tensor => runClampFront('clamp', self, min, max, out),
);
/** The in-place form of `clamp`. */
export const clamp_ = front('clamp_(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor', INPLACE_BOUNDS).run(
  ([self, min, max]): Tensor => runClampInplace('clamp_', self, min, max),
);
/** `clip` is PyTorch's alias of `clamp` (CompositeImplicit: the Node is clamp's, ClampBackward0 / ClampBackward1). */
export const clip = front('clip(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor? out=None) -> Tensor', BOUNDS).run(
  ([self, min, max, out]): Tensor => runClampFront('clip', self, min, max, out),
);
/** The in-place form of `clip`. */
export const clip_ = front('clip_(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor', INPLACE_BOUNDS).run(
  ([self, min, max]): Tensor => runClampInplace('clip_', self, min, max),
);

// ---- isnan / isinf / isfinite ----
/**
 * Composites, as in PyTorch (TensorCompare.cpp): no kernel and no derivative of their own;
 * the result is bool. Integral and bool inputs are never NaN or infinite.
 */
export const isnan = front('isnan(Tensor self) -> Tensor').run(([self]): Tensor => {
  unwrapTensor('isnan', 'input', self);
  return ne(self, self);
});

export const isinf = front('isinf(Tensor self) -> Tensor').run(([self]): Tensor => {
  unwrapTensor('isinf', 'input', self);
  // (a complex element is infinite where either part is, as PyTorch's)
  // (tidy: real and imag leave a view_as_real temporary each)
  if (isComplexType(self.dtype)) return tidy(() => logicalOr(isinf(real(self)), isinf(imag(self))));
  if (!isFloatingType(self.dtype)) return zerosLike(self, { dtype: 'bool' });
  const a = abs(self);
  try {
    return eq(a, Infinity);
  } finally {
    a.dispose();
  }
});

export const isfinite = front('isfinite(Tensor self) -> Tensor').run(([self]): Tensor => {
  unwrapTensor('isfinite', 'input', self);
  if (!isFloatingType(self.dtype) && !isComplexType(self.dtype)) return onesLike(self, { dtype: 'bool' });
  const a = abs(self);
  try {
    return lt(a, Infinity); // false for NaN, as `self == self && abs(self) != inf`
  } finally {
    a.dispose();
  }
});
