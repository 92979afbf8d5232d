// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { ACTIVATION_OPS, BINARY_OPS, TERNARY_OPS, UNARY_OPS } from '../pointwise-table';
import { reductionFn, type ReductionFn } from '../reduction-table';

/** The negation of each element. */
export const neg = UNARY_OPS.neg.fn;
/** The in-place form of `neg`: writes the result into `self`. */
export const neg_ = UNARY_OPS.neg.inplace;
/** The absolute value of each element. */
export const abs = UNARY_OPS.abs.fn;
/** The in-place form of `abs`: writes the result into `self`. */
export const abs_ = UNARY_OPS.abs.inplace;
/** max(x, 0) for each element. */
export const relu = UNARY_OPS.relu.fn;
/** The in-place form of `relu`: writes the result into `self`. */
export const relu_ = UNARY_OPS.relu.inplace;
/** The largest integer not greater than each element (integers unchanged). */
export const floor = UNARY_OPS.floor.fn;
/** The in-place form of `floor`: writes the result into `self`. */
export const floor_ = UNARY_OPS.floor.inplace;
/** The smallest integer not less than each element (integers unchanged). */
export const ceil = UNARY_OPS.ceil.fn;
/** The in-place form of `ceil`: writes the result into `self`. */
export const ceil_ = UNARY_OPS.ceil.inplace;
/** e to the power of each element. */
export const exp = UNARY_OPS.exp.fn;
/** The in-place form of `exp`: writes the result into `self`. */
export const exp_ = UNARY_OPS.exp.inplace;
/** The natural logarithm of each element. */
export const log = UNARY_OPS.log.fn;
/** The in-place form of `log`: writes the result into `self`. */
export const log_ = UNARY_OPS.log.inplace;
/** The square root of each element. */
export const sqrt = UNARY_OPS.sqrt.fn;
/** The in-place form of `sqrt`: writes the result into `self`. */
export const sqrt_ = UNARY_OPS.sqrt.inplace;
/** The sine of each element (radians). */
export const sin = UNARY_OPS.sin.fn;
/** The in-place form of `sin`: writes the result into `self`. */
export const sin_ = UNARY_OPS.sin.inplace;
/** The cosine of each element (radians). */
export const cos = UNARY_OPS.cos.fn;
/** The in-place form of `cos`: writes the result into `self`. */
export const cos_ = UNARY_OPS.cos.inplace;
/** The hyperbolic tangent of each element. */
export const tanh = UNARY_OPS.tanh.fn;
/** The in-place form of `tanh`: writes the result into `self`. */
export const tanh_ = UNARY_OPS.tanh.inplace;
/** 1 / (1 + exp(-x)) for each element. */
export const sigmoid = UNARY_OPS.sigmoid.fn;
/** The in-place form of `sigmoid`: writes the result into `self`. */
export const sigmoid_ = UNARY_OPS.sigmoid.inplace;
/** 1 / sqrt(x) for each element. */
export const rsqrt = UNARY_OPS.rsqrt.fn;
/** The in-place form of `rsqrt`: writes the result into `self`. */
export const rsqrt_ = UNARY_OPS.rsqrt.inplace;
/** 1 / x for each element. */
export const reciprocal = UNARY_OPS.reciprocal.fn;
/** The in-place form of `reciprocal`: writes the result into `self`. */
export const reciprocal_ = UNARY_OPS.reciprocal.inplace;
/** -1, 0 or 1: the sign of each element (the dtype is kept, bool included). */
export const sign = UNARY_OPS.sign.fn;
/** The in-place form of `sign`: writes the result into `self`. */
export const sign_ = UNARY_OPS.sign.inplace;
/** Each element rounded toward zero (integers unchanged). */
export const trunc = UNARY_OPS.trunc.fn;
/** The in-place form of `trunc`: writes the result into `self`. */
export const trunc_ = UNARY_OPS.trunc.inplace;
/** The fractional part of each element, x - trunc(x) (floating dtypes only). */
export const frac = UNARY_OPS.frac.fn;
/** The in-place form of `frac`: writes the result into `self`. */
export const frac_ = UNARY_OPS.frac.inplace;
/** 2 to the power of each element. */
export const exp2 = UNARY_OPS.exp2.fn;
/** The in-place form of `exp2`: writes the result into `self`. */
export const exp2_ = UNARY_OPS.exp2.inplace;
/** exp(x) - 1 for each element, exact near 0. */
export const expm1 = UNARY_OPS.expm1.fn;
/** The in-place form of `expm1`: writes the result into `self`. */
export const expm1_ = UNARY_OPS.expm1.inplace;
/** The base-2 logarithm of each element. */
export const log2 = UNARY_OPS.log2.fn;
/** The in-place form of `log2`: writes the result into `self`. */
export const log2_ = UNARY_OPS.log2.inplace;
/** The base-10 logarithm of each element. */
export const log10 = UNARY_OPS.log10.fn;
/** The in-place form of `log10`: writes the result into `self`. */
export const log10_ = UNARY_OPS.log10.inplace;
/** log(1 + x) for each element, exact near 0. */
export const log1p = UNARY_OPS.log1p.fn;
/** The in-place form of `log1p`: writes the result into `self`. */
export const log1p_ = UNARY_OPS.log1p.inplace;
/** The tangent of each element (radians). */
export const tan = UNARY_OPS.tan.fn;
/** The in-place form of `tan`: writes the result into `self`. */
export const tan_ = UNARY_OPS.tan.inplace;
/** The arcsine of each element. */
export const asin = UNARY_OPS.asin.fn;
/** The in-place form of `asin`: writes the result into `self`. */
export const asin_ = UNARY_OPS.asin.inplace;
/** The arccosine of each element. */
export const acos = UNARY_OPS.acos.fn;
/** The in-place form of `acos`: writes the result into `self`. */
export const acos_ = UNARY_OPS.acos.inplace;
/** The arctangent of each element. */
export const atan = UNARY_OPS.atan.fn;
/** The in-place form of `atan`: writes the result into `self`. */
export const atan_ = UNARY_OPS.atan.inplace;
/** The hyperbolic sine of each element. */
export const sinh = UNARY_OPS.sinh.fn;
/** The in-place form of `sinh`: writes the result into `self`. */
export const sinh_ = UNARY_OPS.sinh.inplace;
/** The hyperbolic cosine of each element. */
export const cosh = UNARY_OPS.cosh.fn;
/** The in-place form of `cosh`: writes the result into `self`. */
export const cosh_ = UNARY_OPS.cosh.inplace;
/** The inverse hyperbolic sine of each element. */
export const asinh = UNARY_OPS.asinh.fn;
/** The in-place form of `asinh`: writes the result into `self`. */
export const asinh_ = UNARY_OPS.asinh.inplace;
/** The inverse hyperbolic cosine of each element (nan below 1). */
export const acosh = UNARY_OPS.acosh.fn;
/** The in-place form of `acosh`: writes the result into `self`. */
export const acosh_ = UNARY_OPS.acosh.inplace;
/** The inverse hyperbolic tangent of each element (nan outside [-1, 1]). */
export const atanh = UNARY_OPS.atanh.fn;
/** The in-place form of `atanh`: writes the result into `self`. */
export const atanh_ = UNARY_OPS.atanh.inplace;
/** The error function of each element. */
export const erf = UNARY_OPS.erf.fn;
/** The in-place form of `erf`: writes the result into `self`. */
export const erf_ = UNARY_OPS.erf.inplace;
/** 1 - erf(x) for each element, exact in the tails. */
export const erfc = UNARY_OPS.erfc.fn;
/** The in-place form of `erfc`: writes the result into `self`. */
export const erfc_ = UNARY_OPS.erfc.inplace;
/** The inverse error function of each element (nan outside [-1, 1]). */
export const erfinv = UNARY_OPS.erfinv.fn;
/** The in-place form of `erfinv`: writes the result into `self`. */
export const erfinv_ = UNARY_OPS.erfinv.inplace;
/** The log of the absolute value of the gamma function of each element (+inf at 0, -1, -2...). */
export const lgamma = UNARY_OPS.lgamma.fn;
/** The in-place form of `lgamma`: writes the result into `self`. */
export const lgamma_ = UNARY_OPS.lgamma.inplace;
/** The logarithmic derivative of the gamma function of each element (nan at -1, -2...; -inf at 0). */
export const digamma = UNARY_OPS.digamma.fn;
/** The in-place form of `digamma`: writes the result into `self`. */
export const digamma_ = UNARY_OPS.digamma.inplace;
/** The modified Bessel function of the first kind of order 0 of each element. */
export const i0 = UNARY_OPS.i0.fn;
/** The in-place form of `i0`: writes the result into `self`. */
export const i0_ = UNARY_OPS.i0.inplace;
/** sin(pi x) / (pi x) for each element, 1 at 0. */
export const sinc = UNARY_OPS.sinc.fn;
/** The in-place form of `sinc`: writes the result into `self`. */
export const sinc_ = UNARY_OPS.sinc.inplace;
/** not self for each element: true where it is zero, as bool. */
export const logicalNot = UNARY_OPS.logicalNot.fn;
/** The in-place form of `logicalNot`: writes the result into `self`. */
export const logicalNot_ = UNARY_OPS.logicalNot.inplace;
/** ~self for each element, in two's complement; logical not for bool (integral and bool dtypes only). */
export const bitwiseNot = UNARY_OPS.bitwiseNot.fn;
/** The in-place form of `bitwiseNot`: writes the result into `self`. */
export const bitwiseNot_ = UNARY_OPS.bitwiseNot.inplace;
/** self + alpha * other for each element (logical or for bool). PyTorch's signature: `add(Tensor input, Tensor other, *, Scalar alpha=1)`. */
export const add = BINARY_OPS.add.fn;
/** The in-place form of `add`: writes the result into `self`. */
export const add_ = BINARY_OPS.add.inplace;
/** self - alpha * other for each element (not for bool: use logical_xor or logical_not). PyTorch's signature: `sub(Tensor input, Tensor other, *, Scalar alpha=1)`. */
export const sub = BINARY_OPS.sub.fn;
/** The in-place form of `sub`: writes the result into `self`. */
export const sub_ = BINARY_OPS.sub.inplace;
/** self * other for each element (logical and for bool). */
export const mul = BINARY_OPS.mul.fn;
/** The in-place form of `mul`: writes the result into `self`. */
export const mul_ = BINARY_OPS.mul.inplace;
/** self / other for each element: true division (integers divide in the default float dtype), or with rounding_mode 'trunc' (toward zero) or 'floor' (down) in the promoted dtype. PyTorch's signature: `div(Tensor input, Tensor other, *, str? rounding_mode=None)`. */
export const div = BINARY_OPS.div.fn;
/** The in-place form of `div`: writes the result into `self`. */
export const div_ = BINARY_OPS.div.inplace;
/** self to the power of exponent for each element (self or exponent may be a number; integers to a negative integer power are an error). */
export const pow = BINARY_OPS.pow.fn;
/** The in-place form of `pow`: writes the result into `self`. */
export const pow_ = BINARY_OPS.pow.inplace;
/** Python's modulus: the remainder of self / other with the sign of other (an integer divisor of 0 raises ZeroDivisionError). */
export const remainder = BINARY_OPS.remainder.fn;
/** The in-place form of `remainder`: writes the result into `self`. */
export const remainder_ = BINARY_OPS.remainder.inplace;
/** The larger of self and other for each element (NaN if either is NaN). */
export const maximum = BINARY_OPS.maximum.fn;
/** The smaller of self and other for each element (NaN if either is NaN). */
export const minimum = BINARY_OPS.minimum.fn;
/** max(self, min) for each element: a number bound ignores NaN, a tensor bound propagates it (as maximum). */
export const clampMin = BINARY_OPS.clampMin.fn;
/** The in-place form of `clampMin`: writes the result into `self`. */
export const clampMin_ = BINARY_OPS.clampMin.inplace;
/** min(self, max) for each element: a number bound ignores NaN, a tensor bound propagates it (as minimum). */
export const clampMax = BINARY_OPS.clampMax.fn;
/** The in-place form of `clampMax`: writes the result into `self`. */
export const clampMax_ = BINARY_OPS.clampMax.inplace;
/** C's fmod: the remainder of self / other with the sign of self (an integer divisor of 0 raises ZeroDivisionError). */
export const fmod = BINARY_OPS.fmod.fn;
/** The in-place form of `fmod`: writes the result into `self`. */
export const fmod_ = BINARY_OPS.fmod.inplace;
/** atan(self / other) in the quadrant of (other, self). */
export const atan2 = BINARY_OPS.atan2.fn;
/** The in-place form of `atan2`: writes the result into `self`. */
export const atan2_ = BINARY_OPS.atan2.inplace;
/** sqrt(self² + other²) without overflow (floating dtypes only). */
export const hypot = BINARY_OPS.hypot.fn;
/** The in-place form of `hypot`: writes the result into `self`. */
export const hypot_ = BINARY_OPS.hypot.inplace;
/** self * log(other) for each element, 0 where self is 0 unless other is nan. */
export const xlogy = BINARY_OPS.xlogy.fn;
/** The in-place form of `xlogy`: writes the result into `self`. */
export const xlogy_ = BINARY_OPS.xlogy.inplace;
/** self * log1p(other) for each element, 0 where self is 0 unless other is nan. */
export const specialXlog1py = BINARY_OPS.specialXlog1py.fn;
/** The Hurwitz zeta function sum_k (other + k)^-self of each pair (inf at self = 1; nan for self < 1). */
export const specialZeta = BINARY_OPS.specialZeta.fn;
/** The regularized lower incomplete gamma function P(self, other) of each pair. */
export const igamma = BINARY_OPS.igamma.fn;
/** The in-place form of `igamma`: writes the result into `self`. */
export const igamma_ = BINARY_OPS.igamma.inplace;
/** The regularized upper incomplete gamma function Q(self, other) = 1 - P(self, other) of each pair. */
export const igammac = BINARY_OPS.igammac.fn;
/** The in-place form of `igammac`: writes the result into `self`. */
export const igammac_ = BINARY_OPS.igammac.inplace;
/** The Chebyshev polynomial of the first kind T_n(x) of each pair (x, n). */
export const specialChebyshevPolynomialT = BINARY_OPS.specialChebyshevPolynomialT.fn;
/** The Chebyshev polynomial of the second kind U_n(x) of each pair (x, n). */
export const specialChebyshevPolynomialU = BINARY_OPS.specialChebyshevPolynomialU.fn;
/** The Chebyshev polynomial of the third kind V_n(x) of each pair (x, n). */
export const specialChebyshevPolynomialV = BINARY_OPS.specialChebyshevPolynomialV.fn;
/** The Chebyshev polynomial of the fourth kind W_n(x) of each pair (x, n). */
export const specialChebyshevPolynomialW = BINARY_OPS.specialChebyshevPolynomialW.fn;
/** The shifted Chebyshev polynomial of the first kind T_n(2x - 1) of each pair (x, n). */
export const specialShiftedChebyshevPolynomialT = BINARY_OPS.specialShiftedChebyshevPolynomialT.fn;
/** The shifted Chebyshev polynomial of the second kind U_n(2x - 1) of each pair (x, n). */
export const specialShiftedChebyshevPolynomialU = BINARY_OPS.specialShiftedChebyshevPolynomialU.fn;
/** The shifted Chebyshev polynomial of the third kind V_n(2x - 1) of each pair (x, n). */
export const specialShiftedChebyshevPolynomialV = BINARY_OPS.specialShiftedChebyshevPolynomialV.fn;
/** The shifted Chebyshev polynomial of the fourth kind W_n(2x - 1) of each pair (x, n). */
export const specialShiftedChebyshevPolynomialW = BINARY_OPS.specialShiftedChebyshevPolynomialW.fn;
/** The physicists' Hermite polynomial H_n(x) of each pair (x, n) (nan above n = 128 in float32, 512 in float64). */
export const specialHermitePolynomialH = BINARY_OPS.specialHermitePolynomialH.fn;
/** The probabilists' Hermite polynomial He_n(x) of each pair (x, n) (nan above n = 128 in float32, 512 in float64). */
export const specialHermitePolynomialHe = BINARY_OPS.specialHermitePolynomialHe.fn;
/** The Laguerre polynomial L_n(x) of each pair (x, n). */
export const specialLaguerrePolynomialL = BINARY_OPS.specialLaguerrePolynomialL.fn;
/** The Legendre polynomial P_n(x) of each pair (x, n). */
export const specialLegendrePolynomialP = BINARY_OPS.specialLegendrePolynomialP.fn;
/** C's fmax: the larger of self and other, a NaN operand ignored (maximum propagates it). */
export const fmax = BINARY_OPS.fmax.fn;
/** C's fmin: the smaller of self and other, a NaN operand ignored (minimum propagates it). */
export const fmin = BINARY_OPS.fmin.fn;
/** self == other for each element, as bool (NaN equals nothing). */
export const eq = BINARY_OPS.eq.fn;
/** The in-place form of `eq`: writes the result into `self`. */
export const eq_ = BINARY_OPS.eq.inplace;
/** self != other for each element, as bool (true where either is NaN). */
export const ne = BINARY_OPS.ne.fn;
/** The in-place form of `ne`: writes the result into `self`. */
export const ne_ = BINARY_OPS.ne.inplace;
/** self < other for each element, as bool. */
export const lt = BINARY_OPS.lt.fn;
/** The in-place form of `lt`: writes the result into `self`. */
export const lt_ = BINARY_OPS.lt.inplace;
/** self <= other for each element, as bool. */
export const le = BINARY_OPS.le.fn;
/** The in-place form of `le`: writes the result into `self`. */
export const le_ = BINARY_OPS.le.inplace;
/** self > other for each element, as bool. */
export const gt = BINARY_OPS.gt.fn;
/** The in-place form of `gt`: writes the result into `self`. */
export const gt_ = BINARY_OPS.gt.inplace;
/** self >= other for each element, as bool. */
export const ge = BINARY_OPS.ge.fn;
/** The in-place form of `ge`: writes the result into `self`. */
export const ge_ = BINARY_OPS.ge.inplace;
/** self and other for each element (nonzero is true), as bool. */
export const logicalAnd = BINARY_OPS.logicalAnd.fn;
/** The in-place form of `logicalAnd`: writes the result into `self`. */
export const logicalAnd_ = BINARY_OPS.logicalAnd.inplace;
/** self or other for each element (nonzero is true), as bool. */
export const logicalOr = BINARY_OPS.logicalOr.fn;
/** The in-place form of `logicalOr`: writes the result into `self`. */
export const logicalOr_ = BINARY_OPS.logicalOr.inplace;
/** Exactly one of self and other for each element (nonzero is true), as bool. */
export const logicalXor = BINARY_OPS.logicalXor.fn;
/** The in-place form of `logicalXor`: writes the result into `self`. */
export const logicalXor_ = BINARY_OPS.logicalXor.inplace;
/** self & other for each element, in two's complement (integral and bool dtypes only). */
export const bitwiseAnd = BINARY_OPS.bitwiseAnd.fn;
/** The in-place form of `bitwiseAnd`: writes the result into `self`. */
export const bitwiseAnd_ = BINARY_OPS.bitwiseAnd.inplace;
/** self | other for each element, in two's complement (integral and bool dtypes only). */
export const bitwiseOr = BINARY_OPS.bitwiseOr.fn;
/** The in-place form of `bitwiseOr`: writes the result into `self`. */
export const bitwiseOr_ = BINARY_OPS.bitwiseOr.inplace;
/** self ^ other for each element, in two's complement (integral and bool dtypes only). */
export const bitwiseXor = BINARY_OPS.bitwiseXor.fn;
/** The in-place form of `bitwiseXor`: writes the result into `self`. */
export const bitwiseXor_ = BINARY_OPS.bitwiseXor.inplace;
/** x where x > 0, negative_slope * x elsewhere. PyTorch's signature: `leaky_relu(Tensor input, Scalar negative_slope=0.01, bool inplace=False)`. */
export const leakyRelu = ACTIVATION_OPS.leakyRelu.fn;
/** The in-place form of `leakyRelu`: writes the result into `self`. */
export const leakyRelu_ = ACTIVATION_OPS.leakyRelu.inplace;
/** x where x > 0, alpha * (exp(x) - 1) elsewhere (the kernel also scales: selu is elu with its constants). PyTorch's signature: `elu(Tensor input, Scalar alpha=1, bool inplace=False)`. */
export const elu = ACTIVATION_OPS.elu.fn;
/** The in-place form of `elu`: writes the result into `self`. */
export const elu_ = ACTIVATION_OPS.elu.inplace;
/** Each element clamped to [min_val, max_val], NaN kept (relu6 is hardtanh(x, 0, 6)). PyTorch's signature: `hardtanh(Tensor input, Scalar min_val=-1, Scalar max_val=1, bool inplace=False)`. */
export const hardtanh = ACTIVATION_OPS.hardtanh.fn;
/** The in-place form of `hardtanh`: writes the result into `self`. */
export const hardtanh_ = ACTIVATION_OPS.hardtanh.inplace;
/** x * Phi(x), Phi the standard normal CDF (approximate='tanh': its tanh approximation). PyTorch's signature: `gelu(Tensor input, *, str approximate='none')`. */
export const gelu = ACTIVATION_OPS.gelu.fn;
/** x * sigmoid(x) for each element. PyTorch's signature: `silu(Tensor input, bool inplace=False)`. */
export const silu = ACTIVATION_OPS.silu.fn;
/** The in-place form of `silu`: writes the result into `self`. */
export const silu_ = ACTIVATION_OPS.silu.inplace;
/** x * tanh(softplus(x)) for each element. PyTorch's signature: `mish(Tensor input, bool inplace=False)`. */
export const mish = ACTIVATION_OPS.mish.fn;
/** The in-place form of `mish`: writes the result into `self`. */
export const mish_ = ACTIVATION_OPS.mish.inplace;
/** log(1 + exp(beta * x)) / beta for each element; x itself where beta * x > threshold. PyTorch's signature: `softplus(Tensor input, Scalar beta=1, Scalar threshold=20)`. */
export const softplus = ACTIVATION_OPS.softplus.fn;
/** clamp(x / 6 + 1 / 2, 0, 1) for each element. PyTorch's signature: `hardsigmoid(Tensor input, bool inplace=False)`. */
export const hardsigmoid = ACTIVATION_OPS.hardsigmoid.fn;
/** The in-place form of `hardsigmoid`: writes the result into `self`. */
export const hardsigmoid_ = ACTIVATION_OPS.hardsigmoid.inplace;
/** x * hardsigmoid(x) for each element. PyTorch's signature: `hardswish(Tensor input, bool inplace=False)`. */
export const hardswish = ACTIVATION_OPS.hardswish.fn;
/** The in-place form of `hardswish`: writes the result into `self`. */
export const hardswish_ = ACTIVATION_OPS.hardswish.inplace;
/** log(x / (1 - x)) for each element, x first clamped to [eps, 1 - eps] when eps is given. PyTorch's signature: `logit(Tensor input, float? eps=None)`. */
export const logit = ACTIVATION_OPS.logit.fn;
/** The in-place form of `logit`: writes the result into `self`. */
export const logit_ = ACTIVATION_OPS.logit.inplace;
/** The n-th derivative of digamma of each element (polygamma(0, x) is digamma). PyTorch's signature: `polygamma(Tensor input, int n)`. */
export const polygamma = ACTIVATION_OPS.polygamma.fn;
/** The in-place form of `polygamma`: writes the result into `self`. */
export const polygamma_ = ACTIVATION_OPS.polygamma.inplace;
/** The log of the multivariate gamma function of dimension p of each element: p(p-1)/4 log(pi) + sum_j lgamma(x - j/2). PyTorch's signature: `mvlgamma(Tensor input, int p)`. */
export const mvlgamma = ACTIVATION_OPS.mvlgamma.fn;
/** The in-place form of `mvlgamma`: writes the result into `self`. */
export const mvlgamma_ = ACTIVATION_OPS.mvlgamma.inplace;
/** -x log(x) for each element: 0 at 0, -inf below. PyTorch's signature: `special_entr(Tensor input)`. */
export const specialEntr = ACTIVATION_OPS.specialEntr.fn;
/** The quantile function of the standard normal distribution: ndtri(0) = -inf, ndtri(1) = inf. PyTorch's signature: `special_ndtri(Tensor input)`. */
export const specialNdtri = ACTIVATION_OPS.specialNdtri.fn;
/** The log of the standard normal CDF of each element, accurate in the lower tail. PyTorch's signature: `special_log_ndtr(Tensor input)`. */
export const specialLogNdtr = ACTIVATION_OPS.specialLogNdtr.fn;
/** The scaled complementary error function exp(x^2) erfc(x) of each element. PyTorch's signature: `special_erfcx(Tensor input)`. */
export const specialErfcx = ACTIVATION_OPS.specialErfcx.fn;
/** exp(-|x|) i0(x) for each element. PyTorch's signature: `special_i0e(Tensor input)`. */
export const specialI0e = ACTIVATION_OPS.specialI0e.fn;
/** The modified Bessel function of the first kind of order 1 of each element. PyTorch's signature: `special_i1(Tensor input)`. */
export const specialI1 = ACTIVATION_OPS.specialI1.fn;
/** exp(-|x|) i1(x) for each element. PyTorch's signature: `special_i1e(Tensor input)`. */
export const specialI1e = ACTIVATION_OPS.specialI1e.fn;
/** The Bessel function of the first kind of order 0 of each element. PyTorch's signature: `special_bessel_j0(Tensor input)`. */
export const specialBesselJ0 = ACTIVATION_OPS.specialBesselJ0.fn;
/** The Bessel function of the first kind of order 1 of each element. PyTorch's signature: `special_bessel_j1(Tensor input)`. */
export const specialBesselJ1 = ACTIVATION_OPS.specialBesselJ1.fn;
/** The Bessel function of the second kind of order 0 of each element (nan below 0, -inf at 0). PyTorch's signature: `special_bessel_y0(Tensor input)`. */
export const specialBesselY0 = ACTIVATION_OPS.specialBesselY0.fn;
/** The Bessel function of the second kind of order 1 of each element (nan below 0, -inf at 0). PyTorch's signature: `special_bessel_y1(Tensor input)`. */
export const specialBesselY1 = ACTIVATION_OPS.specialBesselY1.fn;
/** The modified Bessel function of the first kind of order 0 of each element. PyTorch's signature: `special_modified_bessel_i0(Tensor input)`. */
export const specialModifiedBesselI0 = ACTIVATION_OPS.specialModifiedBesselI0.fn;
/** The modified Bessel function of the first kind of order 1 of each element. PyTorch's signature: `special_modified_bessel_i1(Tensor input)`. */
export const specialModifiedBesselI1 = ACTIVATION_OPS.specialModifiedBesselI1.fn;
/** The modified Bessel function of the second kind of order 0 of each element (nan below 0). PyTorch's signature: `special_modified_bessel_k0(Tensor input)`. */
export const specialModifiedBesselK0 = ACTIVATION_OPS.specialModifiedBesselK0.fn;
/** The modified Bessel function of the second kind of order 1 of each element (nan below 0). PyTorch's signature: `special_modified_bessel_k1(Tensor input)`. */
export const specialModifiedBesselK1 = ACTIVATION_OPS.specialModifiedBesselK1.fn;
/** exp(x) times the modified Bessel function of the second kind of order 0 of each element. PyTorch's signature: `special_scaled_modified_bessel_k0(Tensor input)`. */
export const specialScaledModifiedBesselK0 = ACTIVATION_OPS.specialScaledModifiedBesselK0.fn;
/** exp(x) times the modified Bessel function of the second kind of order 1 of each element. PyTorch's signature: `special_scaled_modified_bessel_k1(Tensor input)`. */
export const specialScaledModifiedBesselK1 = ACTIVATION_OPS.specialScaledModifiedBesselK1.fn;
/** The spherical Bessel function of the first kind of order 0, sin(x) / x, of each element. PyTorch's signature: `special_spherical_bessel_j0(Tensor input)`. */
export const specialSphericalBesselJ0 = ACTIVATION_OPS.specialSphericalBesselJ0.fn;
/** The Airy function Ai(x) of each element (nan at ±inf). PyTorch's signature: `special_airy_ai(Tensor input)`. */
export const specialAiryAi = ACTIVATION_OPS.specialAiryAi.fn;
/** self + weight * (end - self) for each element (PyTorch's formula, branching at |weight| = 0.5); all tensors of one floating dtype, weight may be a number. PyTorch's signature: `lerp(Tensor input, Tensor end, Tensor|Number weight)`. */
export const lerp = TERNARY_OPS.lerp.fn;
/** The in-place form of `lerp`: writes the result into `self`. */
export const lerp_ = TERNARY_OPS.lerp.inplace;
/** self + value * tensor1 * tensor2 for each element, in the promoted dtype of the three tensors. PyTorch's signature: `addcmul(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1)`. */
export const addcmul = TERNARY_OPS.addcmul.fn;
/** The in-place form of `addcmul`: writes the result into `self`. */
export const addcmul_ = TERNARY_OPS.addcmul.inplace;
/** self + value * tensor1 / tensor2 for each element, in the promoted dtype (two integral tensor1 / tensor2 are refused, as in PyTorch). PyTorch's signature: `addcdiv(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1)`. */
export const addcdiv = TERNARY_OPS.addcdiv.fn;
/** The in-place form of `addcdiv`: writes the result into `self`. */
export const addcdiv_ = TERNARY_OPS.addcdiv.inplace;
/** The sum of the elements (over `dim`, or all); integers and bool sum in int64 unless `dtype` is given. PyTorch's signature: `sum(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)`. */
export const sum: ReductionFn<'sum'> = reductionFn('sum');
/** The mean of the elements (over `dim`, or all): the sum in the result dtype over the count; floating dtypes only. PyTorch's signature: `mean(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)`. */
export const mean: ReductionFn<'mean'> = reductionFn('mean');
/** The product of the elements (over one `dim`, or all); integers and bool multiply in int64 unless `dtype` is given. PyTorch's signature: `prod(Tensor input, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None)`. */
export const prod: ReductionFn<'prod'> = reductionFn('prod');
/** The largest element (over `dim`, or all; NaN propagates); every element of a tie gets an equal share of the gradient. PyTorch's signature: `amax(Tensor input, int[1] dim=[], bool keepdim=False)`. */
export const amax: ReductionFn<'amax'> = reductionFn('amax');
/** The smallest element (over `dim`, or all; NaN propagates); every element of a tie gets an equal share of the gradient. PyTorch's signature: `amin(Tensor input, int[1] dim=[], bool keepdim=False)`. */
export const amin: ReductionFn<'amin'> = reductionFn('amin');
/** The int64 position of the largest element (along `dim`, or of the flattened input); the first of a tie, NaN counting as the largest. PyTorch's signature: `argmax(Tensor input, int? dim=None, bool keepdim=False)`. */
export const argmax: ReductionFn<'argmax'> = reductionFn('argmax');
/** The int64 position of the smallest element (along `dim`, or of the flattened input); the first of a tie, NaN counting as the smallest. PyTorch's signature: `argmin(Tensor input, int? dim=None, bool keepdim=False)`. */
export const argmin: ReductionFn<'argmin'> = reductionFn('argmin');
/** log(sum(exp(x))) over `dim` (required), computed stably; integers and bool in the default float dtype. PyTorch's signature: `logsumexp(Tensor input, int[1] dim, bool keepdim=False)`. */
export const logsumexp: ReductionFn<'logsumexp'> = reductionFn('logsumexp');
/** True where every element (over `dim`, or all) is nonzero; a uint8 input gives uint8. PyTorch's signature: `all(Tensor input, int[1]? dim=None, bool keepdim=False)`. */
export const all: ReductionFn<'all'> = reductionFn('all');
/** True where some element (over `dim`, or all) is nonzero; a uint8 input gives uint8. PyTorch's signature: `any(Tensor input, int[1]? dim=None, bool keepdim=False)`. */
export const any: ReductionFn<'any'> = reductionFn('any');
