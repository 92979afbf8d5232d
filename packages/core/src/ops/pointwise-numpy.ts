import { getDefaultDtype, isComplexType, isFloatingType, resultType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { copyResult_ } from './copy';
import { front } from './front';
import { onesLike, tensor, zerosLike } from './factories';
import { where } from './pointwise';
import { torchTypeName } from './meta-utils';
import { named } from './named-tuple';
import { broadcastShapes } from '../iterator';

/**
 * PyTorch's NumPy-style elementwise functions that are compositions of the op table's: the
 * queries isneginf, isposinf, isreal and signbit (the sign bit: -0 and -inf count, NaN does
 * not), copysign (|a| with b's sign bit, a float for integers), heaviside, float_power (pow
 * in float64 / complex128), ldexp (x * 2^e) and isin (each element against every test
 * element). Their gradients are their compositions' (PyTorch's CopysignBackward1 gives the
 * same numbers; heaviside has none in PyTorch).
 */

const asTensor = (v: Tensor | number | boolean, like: Tensor): Tensor =>
  typeof v === 'object' ? v : tensor(v, { device: like.device, dtype: typeof v === 'boolean' ? 'bool' : undefined });

/** `torch.isneginf(x)`: where x is -inf. */
export const isneginf = front('isneginf(Tensor self, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self]): Tensor => {
  if (isComplexType(self.dtype)) throw new DTypeError('isneginf does not support complex inputs.');
  return self.eq(-Infinity);
});

/** `torch.isposinf(x)`: where x is +inf. */
export const isposinf = front('isposinf(Tensor self, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self]): Tensor => {
  if (isComplexType(self.dtype)) throw new DTypeError('isposinf does not support complex inputs.');
  return self.eq(Infinity);
});

/** `torch.isreal(x)`: true for every element of a real tensor; where the imaginary part is 0 for a complex one. */
export const isreal = front('isreal(Tensor self) -> Tensor').run(([self]): Tensor =>
  isComplexType(self.dtype) ? tidy(() => self.imag.eq(0)) : onesLike(self, { dtype: 'bool' }),
);

/** `torch.signbit(x)`: whether the sign bit is set (-0 and -inf included; false for NaN and unsigned dtypes). */
export const signbit = front('signbit(Tensor self, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self]): Tensor => {
  if (isComplexType(self.dtype)) throw new DTypeError('signbit is not implemented for complex tensors.');
  if (!isFloatingType(self.dtype)) return self.dtype === 'bool' ? zerosLike(self, { dtype: 'bool' }) : self.lt(0);
  // (-0: its reciprocal is -inf)
  return tidy(() => self.lt(0).logicalOr(self.eq(0).logicalAnd(self.reciprocal().lt(0))));
});

/** The float dtype a binary NumPy-style function computes in (the default for integers and bool). */
function floatResult(op: string, a: Tensor, b: Tensor | number | boolean): DType {
  const d = resultType(op, [a, b]);
  if (isComplexType(d)) throw new DTypeError(`${op}: does not support complex inputs (got ${torchTypeName(d)})`);
  return isFloatingType(d) ? d : getDefaultDtype();
}

/** `torch.copysign(a, b)`: |a| with the sign of b (b's sign bit: -0 counts). */
export const copysign = front('copysign(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { numbersAsTensors: true, unsupported: ['out'] }).run(
  ([self, other]): Tensor => {
    const dtype = floatResult('copysign', self, other as Tensor | number);
    return tidy(() => {
      const a = self.to(dtype).abs();
      const r = where(signbit(asTensor(other as Tensor | number, self).to(dtype)), a.neg(), a);
      // (PyTorch's CopysignBackward gives other a zero gradient: a where that never picks it
      // records one, with no arithmetic on other's infinities or NaNs)
      return typeof other === 'object' && (other as Tensor).requiresGrad ? where(onesLike(r, { dtype: 'bool' }), r, other as Tensor) : r;
    });
  },
);

/** `x.copysign_(y)`. */
export const copysign_ = front('copysign_(Tensor self, Tensor other) -> Tensor', { numbersAsTensors: true, namespaces: [] }).run(([self, other]): Tensor => {
  return copyResult_(self, copysign(self, other as Tensor));
});

/** `torch.heaviside(x, values)`: 0 where x < 0, `values` where x == 0, 1 where x > 0. */
export const heaviside = front('heaviside(Tensor self, Tensor values, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, values]): Tensor => {
  if (isComplexType(self.dtype) || isComplexType(values.dtype)) throw new DTypeError('heaviside is not yet implemented for complex tensors.');
  if (self.dtype !== values.dtype) {
    throw new DTypeError(`heaviside is not yet implemented for tensors with different dtypes (got ${torchTypeName(self.dtype)} and ${torchTypeName(values.dtype)})`);
  }
  return tidy(() => where(self.eq(0), values, self.gt(0).to(self.dtype)));
});

/** `torch.float_power(a, b)`: pow in float64 (complex128 when either is complex). */
export const floatPower = front('float_power(Tensor self, Tensor exponent, *, Tensor? out=None) -> Tensor', {
  numbersAsTensors: true,
  numberSelf: true,
  unsupported: ['out'],
}).run(([self, exponent]): Tensor => {
  const complex = [self, exponent].some((v) => typeof v === 'object' && isComplexType((v as Tensor).dtype));
  const dtype: DType = complex ? 'complex128' : 'float64';
  const like = (typeof self === 'object' ? self : exponent) as Tensor;
  return tidy(() => {
    const base = typeof self === 'object' ? (self as Tensor).to(dtype) : tensor(self as number, { dtype, device: like.device });
    const exp = typeof exponent === 'object' ? (exponent as Tensor).to(dtype) : exponent;
    return base.pow(exp as Tensor | number);
  });
});

/** `torch.ldexp(x, e)`: x * 2^e (a float for integer x). */
export const ldexp = front('ldexp(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor => {
  const dtype = floatResult('ldexp', self, other);
  return tidy(() => self.to(dtype).mul(other.to(dtype).exp2()));
});

/** `torch.isin(elements, testElements, { invert })`: whether each element is among the test elements. */
export const isin = front('isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor', {
  numbersAsTensors: true,
  numberSelf: true,
  method: false,
}).run(([elements, testElements, , invert]): Tensor => {
  if (typeof elements !== 'object' && typeof testElements !== 'object') throw new TorchError('isin: at least one of elements and test_elements must be a Tensor.');
  const like = (typeof elements === 'object' ? elements : testElements) as Tensor;
  return tidy(() => {
    const e = asTensor(elements as Tensor | number, like);
    const t = asTensor(testElements as Tensor | number, like).reshape([-1]);
    const found = t.numel() === 0 ? zerosLike(e, { dtype: 'bool' }) : e.unsqueeze(-1).eq(t).any(-1);
    return invert ? found.logicalNot() : found;
  });
});


/** `x.heaviside_(values)`. */
export const heaviside_ = front('heaviside_(Tensor self, Tensor values) -> Tensor', { namespaces: [] }).run(([self, values]): Tensor => copyResult_(self, heaviside(self, values)));
/** `x.floatPower_(exponent)`: x must be float64 (PyTorch's rule: the result's dtype cannot change). */
export const floatPower_ = front('float_power_(Tensor self, Tensor exponent) -> Tensor', { numbersAsTensors: true, namespaces: [] }).run(([self, exponent]): Tensor => {
  const want = isComplexType(self.dtype) || (typeof exponent === 'object' && isComplexType((exponent as Tensor).dtype)) ? 'complex128' : 'float64';
  if (self.dtype !== want) throw new DTypeError(`the base given to float_power_ has dtype ${torchTypeName(self.dtype)} but the operation's result requires dtype ${torchTypeName(want)}`);
  return copyResult_(self, floatPower(self, exponent as Tensor));
});
/** `x.ldexp_(e)` / `torch.ldexp_`. */
export const ldexp_ = front('ldexp_(Tensor self, Tensor other) -> Tensor').run(([self, other]): Tensor => copyResult_(self, ldexp(self, other)));

export type FrexpResult = [Tensor, Tensor] & { readonly mantissa: Tensor; readonly exponent: Tensor };

/**
 * Note [frexp]
 * torch.frexp splits x into mantissa * 2^exponent, 0.5 <= |mantissa| < 1 (std::frexp): zeros,
 * infinities and NaN keep x as the mantissa with exponent 0. Computed from floor(log2|x|) + 1,
 * corrected by one where log2 rounds across a power of two, in float64 where the device has
 * it (so float32 subnormals and float64's extremes are exact), the scaling by 2^-e done in two
 * steps so that neither factor overflows. The exponent is int32; the mantissa's gradient is
 * 1 / 2^e (the exponent is a constant), as 1.13's.
 */
export const frexp = front('frexp(Tensor self, *, Tensor[]? out=None) -> (Tensor mantissa, Tensor exponent)', { unsupported: ['out'] }).run(([x]): FrexpResult => {
  if (!isFloatingType(x.dtype)) throw new DTypeError('torch.frexp() only supports floating-point dtypes');
  const parts = tidy(() => {
    const wide = x.device.type === 'cpu' ? 'float64' : 'float32';
    const v = x.detach().to(wide);
    const finiteNonzero = v.isfinite().logicalAnd(v.ne(0));
    const a = where(finiteNonzero, v.abs(), tensor(1, { dtype: wide, device: x.device }));
    let e = a.log2().floor().add(1);
    const scaled = (t: Tensor, k: Tensor) => {
      const k1 = k.div(2).trunc();
      return t.mul(k1.neg().exp2()).mul(k.sub(k1).neg().exp2());
    };
    const m0 = scaled(a, e);
    e = where(m0.ge(1), e.add(1), where(m0.lt(0.5), e.sub(1), e));
    e = where(finiteNonzero, e, tensor(0, { dtype: wide, device: x.device }));
    // the mantissa through x's own graph: x * 2^-e, e a constant
    const mantissa = scaled(x, e).to(x.dtype);
    return [where(finiteNonzero, mantissa, x), e.to('int32')];
  });
  return named<FrexpResult>(['mantissa', 'exponent'], parts);
});

/**
 * Note [gcd and lcm]
 * torch.gcd / lcm on integer tensors as 1.13's calc_gcd: Euclid on |a| and |b| with C's
 * truncating remainder (fmod), each |x| kept in the dtype (so |INT_MIN| wraps as C's abs does
 * and the gcd can come out negative, as 1.13's does); lcm = |a / gcd * b| in the dtype (0 when
 * the gcd is 0). Element-wise Euclid runs as whole-tensor steps that stop once every divisor is
 * 0: on the CPU that is checked each step; elsewhere the steps run the dtype's worst case (two
 * consecutive Fibonacci numbers: 92 steps for int64, 46 for int32, 23 for int16, 12 for 8 bits).
 */
const EUCLID_STEPS: Partial<Record<DType, number>> = { int64: 92, int32: 46, int16: 23, int8: 12, uint8: 12 };

function integerResult(op: string, kernel: string, a: Tensor, b: Tensor): DType {
  const d = resultType(op, [a, b]);
  if (d === 'bool' || !(d in EUCLID_STEPS)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(d)}'`);
  return d;
}

function gcdOf(a0: Tensor, b0: Tensor, dtype: DType): Tensor {
  let a = a0.to(dtype).abs();
  let b = b0.to(dtype).abs();
  const zero = tensor(0, { dtype, device: a.device });
  const one = tensor(1, { dtype, device: a.device });
  const steps = EUCLID_STEPS[dtype]! + 2;
  for (let i = 0; i < steps; i++) {
    const live = a.ne(0);
    if (a.device.type === 'cpu' && !(live.any().item() as boolean)) break;
    const r = b.fmod(where(live, a, one));
    [a, b] = [where(live, r, zero), where(live, a, b)];
  }
  return b;
}

/** `torch.gcd(a, b)`: the greatest common divisor of |a| and |b| (integer dtypes; Note [gcd and lcm]). */
export const gcd = front('gcd(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor => {
  const dtype = integerResult('gcd', 'gcd_cpu', self, other);
  return tidy(() => gcdOf(self, other, dtype).expand(broadcastShapes('gcd', self.shape, other.shape)).contiguous());
});

/** `torch.lcm(a, b)`: the least common multiple of |a| and |b| (integer dtypes; Note [gcd and lcm]). */
export const lcm = front('lcm(Tensor self, Tensor other, *, Tensor? out=None) -> Tensor', { unsupported: ['out'] }).run(([self, other]): Tensor => {
  const dtype = integerResult('lcm', 'lcm_cpu', self, other);
  return tidy(() => {
    const a = self.to(dtype);
    const b = other.to(dtype);
    const g = gcdOf(a, b, dtype);
    const zero = g.eq(0);
    const q = a.div(where(zero, tensor(1, { dtype, device: g.device }), g), { roundingMode: 'trunc' });
    return where(zero, tensor(0, { dtype, device: g.device }), q.mul(b).abs()).expand(broadcastShapes('lcm', self.shape, other.shape)).contiguous();
  });
});

/** `x.gcd_(y)` / `torch.gcd_`. */
export const gcd_ = front('gcd_(Tensor self, Tensor other) -> Tensor').run(([self, other]): Tensor => copyResult_(self, gcd(self, other)));
/** `x.lcm_(y)` / `torch.lcm_`. */
export const lcm_ = front('lcm_(Tensor self, Tensor other) -> Tensor').run(([self, other]): Tensor => copyResult_(self, lcm(self, other)));
