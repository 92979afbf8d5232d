import { getDefaultDtype, isComplexType, isFloatingType } from '../dtype';
import { DTypeError, DeviceError, TorchError } from '../errors';
import { broadcastShapes } from '../iterator';
import { tidy } from '../tensor/scope';
import type { Tensor } from '../tensor/tensor';
import type { TensorImpl } from '../tensor/tensor-impl';
import { unwrapTensor } from './call';
import { front } from './front';
import { abs, add, all, eq, le, logicalAnd, logicalOr, mul, ne, sub } from './generated/table-ops';
import { countsAreAsync } from './data-dependent';
import { commonDevice, torchTypeName } from './meta-utils';
import { isfinite } from './pointwise-binary';

/**
 * Note [isclose, allclose and equal are composites]
 * As in PyTorch 1.13 (TensorCompare.cpp), `isclose` is a composite of ordinary ops, so it runs
 * on every backend with no kernel and no derivative (its result is bool):
 *   close = self == other  (| (self != self) & (other != other) with equal_nan, floating or complex)
 *   if rtol == 0 and atol == 0: close            (an exact comparison: int64 beyond 2^53 too)
 *   else close | isfinite(|x - o|) & (|x - o| <= atol + |rtol * o|)
 * where `x` and `o` are `self` and `other` cast to the default float dtype when the inputs are
 * integral or bool (an integral difference could wrap, and bool has no subtraction: 1.13 gives
 * isclose(int8 -128, int8 127, atol=10) = False and int64 2^53+1 close to 2^53 with atol=0.5,
 * float32's rounding), and the inputs themselves otherwise. Each step is the op PyTorch runs, in its order, so the rounding is the
 * same: the tolerances are Python floats, scalars that take the tensor's dtype. Complex inputs
 * compare magnitudes (|self - o| and |rtol * o| are abs of complex); `self != self` is true
 * where either part is NaN, so with equal_nan two complex elements with a NaN anywhere are close.
 * Infinities of the same sign are close by `==` (their difference is NaN, not finite).
 *
 * `allclose` is `isclose(...).all().item()` and `equal` is "same sizes, and `eq(...).all()`"
 * (with type promotion, as 1.13's `torch.equal(float_t, int_t)`). Both give a JS boolean, so
 * they read the device: on a device that cannot be read synchronously (WebGPU: Tensor.item's
 * rule) they throw, after their argument checks and before any work, a DeviceError naming
 * their async forms `allcloseAsync` / `equalAsync`, which run the same composite and await one
 * element (`itemAsync`) on any device.
 */

/** The argument checks of isclose, in PyTorch's order; the broadcast check names `op`. */
function checkClose(op: string, self: TensorImpl, other: TensorImpl, rtol: number, atol: number): void {
  if (self.dtype !== other.dtype) {
    throw new DTypeError(`${op}: ${torchTypeName(self.dtype)} did not match ${torchTypeName(other.dtype)}`);
  }
  if (!(rtol >= 0)) throw new TorchError(`${op}: rtol must be greater than or equal to zero, but got ${rtol}`);
  if (!(atol >= 0)) throw new TorchError(`${op}: atol must be greater than or equal to zero, but got ${atol}`);
  commonDevice(op, [self, other]);
  broadcastShapes(op, self.sizes, other.sizes);
}

/** isclose's composite (Note [isclose, allclose and equal are composites]); the arguments are checked. */
function closeness(self: Tensor, other: Tensor, rtol: number, atol: number, equalNan: boolean): Tensor {
  const dtype = self.dtype;
  const inexact = isFloatingType(dtype) || isComplexType(dtype);
  return tidy(() => {
    let close = eq(self, other);
    if (equalNan && inexact) close = logicalOr(close, logicalAnd(ne(self, self), ne(other, other)));
    if (rtol === 0 && atol === 0) return close;
    const x = inexact ? self : self.to(getDefaultDtype());
    const o = inexact ? other : other.to(getDefaultDtype());
    const allowed = add(abs(mul(o, rtol)), atol);
    const actual = abs(sub(x, o));
    return logicalOr(close, logicalAnd(isfinite(actual), le(actual, allowed)));
  });
}

/** Refuses a synchronous read of a device that is read asynchronously only (Note [Data-dependent sizes on async-read backends]), naming the async form. */
function requireSyncRead(op: string, t: TensorImpl, asyncForm: string): void {
  if (countsAreAsync(t.device)) {
    throw new DeviceError(`${op}: cannot read a tensor on ${t.device} synchronously; use \`await torch.${asyncForm}(...)\` instead`);
  }
}

/** One bool element read back, the tensor disposed. */
function readBool(t: Tensor): boolean {
  try {
    return t.item() as boolean;
  } finally {
    t.dispose();
  }
}

async function readBoolAsync(t: Tensor): Promise<boolean> {
  try {
    return (await t.itemAsync()) as boolean;
  } finally {
    t.dispose();
  }
}

function allOf(t: Tensor): Tensor {
  try {
    return all(t);
  } finally {
    t.dispose();
  }
}

const ISCLOSE = 'isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor';
const ALLCLOSE = 'allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool';
const EQUAL = 'equal(Tensor self, Tensor other) -> bool';

/** `torch.isclose(a, b, { rtol, atol, equalNan })`: elementwise |a - b| <= atol + rtol * |b| (bool), on every device. */
export const isclose = front(ISCLOSE).run(([self, other, rtol, atol, equalNan]): Tensor => {
  checkClose('isclose', unwrapTensor('isclose', 'self', self), unwrapTensor('isclose', 'other', other), rtol, atol);
  return closeness(self, other, rtol, atol, equalNan);
});

/** `torch.allclose(a, b, { rtol, atol, equalNan })`: whether every element is close; a host read (CPU; elsewhere `allcloseAsync`). */
export const allclose = front(ALLCLOSE).run(([self, other, rtol, atol, equalNan]): boolean => {
  const s = unwrapTensor('allclose', 'self', self);
  checkClose('allclose', s, unwrapTensor('allclose', 'other', other), rtol, atol);
  requireSyncRead('allclose', s, 'allcloseAsync');
  return readBool(allOf(closeness(self, other, rtol, atol, equalNan)));
});

/** `await torch.allcloseAsync(a, b, options)`: `allclose` on any device (the one element read asynchronously). */
export const allcloseAsync = front(ALLCLOSE, { name: 'allcloseAsync' }).run(
  async ([self, other, rtol, atol, equalNan]): Promise<boolean> => {
    checkClose('allclose', unwrapTensor('allclose', 'self', self), unwrapTensor('allclose', 'other', other), rtol, atol);
    return readBoolAsync(allOf(closeness(self, other, rtol, atol, equalNan)));
  },
);

/** equal's checks; null where the sizes differ (false without a read). */
function equalElements(op: string, self: Tensor, other: Tensor): Tensor | null {
  const s = unwrapTensor(op, 'self', self);
  const o = unwrapTensor(op, 'other', other);
  commonDevice(op, [s, o]);
  if (s.sizes.length !== o.sizes.length || s.sizes.some((n, i) => n !== o.sizes[i])) return null;
  return allOf(eq(self, other));
}

/** `torch.equal(a, b)`: the same sizes and the same elements (NaN is not equal to NaN); a host read (CPU; elsewhere `equalAsync`). */
export const equal = front(EQUAL).run(([self, other]): boolean => {
  const s = unwrapTensor('equal', 'self', self);
  commonDevice('equal', [s, unwrapTensor('equal', 'other', other)]);
  requireSyncRead('equal', s, 'equalAsync');
  const r = equalElements('equal', self, other);
  return r === null ? false : readBool(r);
});

/** `await torch.equalAsync(a, b)`: `equal` on any device. */
export const equalAsync = front(EQUAL, { name: 'equalAsync' }).run(async ([self, other]): Promise<boolean> => {
  const r = equalElements('equal', self, other);
  return r === null ? false : readBoolAsync(r);
});
