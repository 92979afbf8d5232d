import type { Tensor } from '../../tensor/tensor';
import { add, cos, cosh, digamma, div, eq, erfinv, exp, gt, lt, mul, neg, polygamma, pow, rsqrt, sin, sinh, specialI1, sub, where, zerosLike } from './formula-ops';
import type { NoDerivative, UnaryRow } from './types';

/**
 * The unary pointwise ops (Note [The op table]): `name(Tensor self) -> Tensor`, `name_`
 * and `name.out`, one row each. Formulas as PyTorch's derivatives.yaml writes them.
 */
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const zero = (g: Tensor): Tensor => zerosLike(g);

export const UNARY_TABLE = {
  neg: {
    doc: 'The negation of each element.',
    rule: 'promote',
    rejects: { bool: 'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.' },
    derivative: { saves: null, formula: (g) => neg(g) },
  },
  abs: {
    doc: 'The absolute value of each element.',
    rule: 'promote',
    domain: 'nonzero',
    kernel: 'abs_cpu',
    rejects: { bool: true },
    // sgn(x) * grad, with sgn(0) = 0
    derivative: { saves: 'self', formula: (g, x) => where(gt(x, 0), g, where(lt(x, 0), neg(g), 0)) },
  },
  relu: {
    doc: 'max(x, 0) for each element.',
    rule: 'promote',
    domain: 'nonzero',
    kernel: 'clamp_min_cpu',
    rejects: { bool: 'Boolean inputs not supported for relu' },
    inplaceArg: true,
    // threshold_backward(grad, result, 0): nothing flows where the output was clamped
    derivative: { saves: 'result', formula: (g, y) => where(gt(y, 0), g, 0) },
  },
  floor: {
    doc: 'The largest integer not greater than each element (integers unchanged).',
    rule: 'promote',
    kernel: 'floor_vml_cpu',
    rejects: { bool: true },
    derivative: { saves: null, formula: zero },
  },
  ceil: {
    doc: 'The smallest integer not less than each element (integers unchanged).',
    rule: 'promote',
    kernel: 'ceil_vml_cpu',
    rejects: { bool: true },
    derivative: { saves: null, formula: zero },
  },
  exp: { doc: 'e to the power of each element.', rule: 'float', kernel: 'exp_vml_cpu', derivative: { saves: 'result', formula: (g, y) => mul(g, y) } },
  log: { doc: 'The natural logarithm of each element.', rule: 'float', domain: 'pos', kernel: 'log_vml_cpu', derivative: { saves: 'self', formula: (g, x) => div(g, x) } },
  sqrt: { doc: 'The square root of each element.', rule: 'float', domain: 'pos', kernel: 'sqrt_vml_cpu', derivative: { saves: 'result', formula: (g, y) => div(g, mul(y, 2)) } },
  sin: { doc: 'The sine of each element (radians).', rule: 'float', kernel: 'sin_vml_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, cos(x)) } },
  cos: { doc: 'The cosine of each element (radians).', rule: 'float', kernel: 'cos_vml_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, neg(sin(x))) } },
  // tanh_backward: grad * (1 - y^2)
  tanh: { doc: 'The hyperbolic tangent of each element.', rule: 'float', kernel: 'tanh_vml_cpu', derivative: { saves: 'result', formula: (g, y) => mul(g, neg(sub(mul(y, y), 1))) } },
  // sigmoid_backward: grad * (1 - y) * y, in PyTorch's order
  sigmoid: { doc: '1 / (1 + exp(-x)) for each element.', rule: 'float', kernel: 'sigmoid_cpu', derivative: { saves: 'result', formula: (g, y) => mul(mul(g, neg(sub(y, 1))), y) } },
  // -0.5 * grad * result^3
  rsqrt: { doc: '1 / sqrt(x) for each element.', rule: 'float', domain: 'pos', kernel: 'rsqrt_cpu', derivative: { saves: 'result', formula: (g, y) => mul(mul(g, -0.5), pow(y, 3)) } },
  // -grad * result^2
  reciprocal: { doc: '1 / x for each element.', rule: 'float', domain: 'nonzero', derivative: { saves: 'result', formula: (g, y) => mul(neg(g), mul(y, y)) } },
  sign: { doc: '-1, 0 or 1: the sign of each element (the dtype is kept, bool included).', rule: 'promote', domain: 'nonzero', derivative: { saves: null, formula: zero } },
  trunc: {
    doc: 'Each element rounded toward zero (integers unchanged).',
    rule: 'promote',
    kernel: 'trunc_vml_cpu',
    rejects: { bool: true },
    derivative: { saves: null, formula: zero },
  },
  frac: {
    doc: 'The fractional part of each element, x - trunc(x) (floating dtypes only).',
    rule: 'promote',
    kernel: 'frac_cpu',
    rejects: { bool: true, integral: true },
    derivative: { saves: null, formula: (g) => g },
  },
  exp2: { doc: '2 to the power of each element.', rule: 'float', derivative: { saves: 'result', formula: (g, y) => mul(g, mul(y, Math.LN2)) } },
  expm1: { doc: 'exp(x) - 1 for each element, exact near 0.', rule: 'float', kernel: 'expm1_vml_cpu', derivative: { saves: 'result', formula: (g, y) => mul(g, add(y, 1)) } },
  log2: { doc: 'The base-2 logarithm of each element.', rule: 'float', domain: 'pos', kernel: 'log2_vml_cpu', derivative: { saves: 'self', formula: (g, x) => div(g, mul(x, Math.LN2)) } },
  log10: { doc: 'The base-10 logarithm of each element.', rule: 'float', domain: 'pos', kernel: 'log10_vml_cpu', derivative: { saves: 'self', formula: (g, x) => div(g, mul(x, Math.LN10)) } },
  // log1p_backward: grad / (self + 1)
  log1p: {
    doc: 'log(1 + x) for each element, exact near 0.',
    rule: 'float',
    domain: 'pos',
    kernel: 'log1p_vml_cpu',
    derivative: { saves: 'self', formula: (g, x) => div(g, add(x, 1)), node: 'Log1PBackward0' },
  },
  // grad * (1 + result^2)
  tan: { doc: 'The tangent of each element (radians).', rule: 'float', domain: 'unit', kernel: 'tan_vml_cpu', derivative: { saves: 'result', formula: (g, y) => mul(g, add(mul(y, y), 1)) } },
  // grad * rsqrt(1 - self^2), and its negation for acos
  asin: { doc: 'The arcsine of each element.', rule: 'float', domain: 'unit', kernel: 'asin_vml_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, rsqrt(add(neg(mul(x, x)), 1))) } },
  acos: { doc: 'The arccosine of each element.', rule: 'float', domain: 'unit', kernel: 'acos_vml_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, neg(rsqrt(add(neg(mul(x, x)), 1)))) } },
  atan: { doc: 'The arctangent of each element.', rule: 'float', kernel: 'atan_vml_cpu', derivative: { saves: 'self', formula: (g, x) => div(g, add(mul(x, x), 1)) } },
  sinh: { doc: 'The hyperbolic sine of each element.', rule: 'float', kernel: 'sinh_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, cosh(x)) } },
  cosh: { doc: 'The hyperbolic cosine of each element.', rule: 'float', kernel: 'cosh_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, sinh(x)) } },
  // grad * (self^2 + 1).rsqrt()
  asinh: { doc: 'The inverse hyperbolic sine of each element.', rule: 'float', kernel: 'asinh_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, rsqrt(add(mul(x, x), 1))) } },
  // grad * (self^2 - 1).rsqrt()
  acosh: { doc: 'The inverse hyperbolic cosine of each element (nan below 1).', rule: 'float', domain: 'above1', kernel: 'acosh_cpu', derivative: { saves: 'self', formula: (g, x) => mul(g, rsqrt(sub(mul(x, x), 1))) } },
  // grad * 1 / (1 - self^2)
  atanh: { doc: 'The inverse hyperbolic tangent of each element (nan outside [-1, 1]).', rule: 'float', domain: 'unit', kernel: 'atanh_cpu', derivative: { saves: 'self', formula: (g, x) => div(g, add(neg(mul(x, x)), 1)) } },
  // 2 / sqrt(pi) * exp(-self^2) * grad (negated for erfc)
  erf: { doc: 'The error function of each element.', rule: 'float', kernel: 'erf_vml_cpu', derivative: { saves: 'self', formula: (g, x) => mul(mul(exp(neg(mul(x, x))), TWO_OVER_SQRT_PI), g) } },
  erfc: { doc: '1 - erf(x) for each element, exact in the tails.', rule: 'float', kernel: 'erfc_vml_cpu', derivative: { saves: 'self', formula: (g, x) => mul(mul(exp(neg(mul(x, x))), -TWO_OVER_SQRT_PI), g) } },
  // 0.5 * sqrt(pi) * exp(erfinv(self)^2) * grad
  erfinv: {
    doc: 'The inverse error function of each element (nan outside [-1, 1]).',
    rule: 'float',
    domain: 'unit',
    kernel: 'erfinv_vml_cpu',
    derivative: {
      saves: 'self',
      formula: (g, x) => {
        const e = erfinv(x);
        return mul(mul(exp(mul(e, e)), 0.5 * Math.sqrt(Math.PI)), g);
      },
    },
  },
  // The gamma family and the special functions PyTorch has as torch.* and methods (Note [The
  // special functions in doubles] in kernels-cpu); torch.special's own are activation rows.
  // digamma(self) * grad
  lgamma: {
    doc: 'The log of the absolute value of the gamma function of each element (+inf at 0, -1, -2...).',
    rule: 'float',
    domain: 'pos',
    kernel: 'lgamma_vml_cpu',
    derivative: { saves: 'self', formula: (g, x) => mul(g, digamma(x)) },
  },
  // polygamma(1, self) * grad
  digamma: {
    doc: 'The logarithmic derivative of the gamma function of each element (nan at -1, -2...; -inf at 0).',
    rule: 'float',
    domain: 'pos',
    kernel: 'digamma',
    derivative: { saves: 'self', formula: (g, x) => mul(g, polygamma(x, 1)) },
  },
  // i1(self) * grad
  i0: {
    doc: 'The modified Bessel function of the first kind of order 0 of each element.',
    rule: 'float',
    kernel: 'i0_vml_cpu',
    derivative: { saves: 'self', formula: (g, x) => mul(g, specialI1(x)) },
  },
  // sinc_backward: grad * (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at 0
  sinc: {
    doc: 'sin(pi x) / (pi x) for each element, 1 at 0.',
    rule: 'float',
    kernel: 'sinc_cpu',
    derivative: {
      saves: 'self',
      formula: (g, x) => {
        const px = mul(x, Math.PI);
        const sq = mul(mul(x, x), Math.PI);
        return where(eq(sq, 0), 0, div(mul(g, sub(mul(px, cos(px)), sin(px))), sq));
      },
    },
  },
  // not: bool results and integral-only ops have no gradient
  logicalNot: {
    doc: 'not self for each element: true where it is zero, as bool.',
    rule: 'compare',
    derivative: { notDifferentiable: 'a logical op: its bool result has no gradient' } satisfies NoDerivative,
  },
  bitwiseNot: {
    doc: "~self for each element, in two's complement; logical not for bool (integral and bool dtypes only).",
    rule: 'promote',
    kernel: 'bitwise_not_cpu',
    rejects: { floating: true },
    derivative: { notDifferentiable: 'a bitwise op: integral and bool only, which have no gradient' } satisfies NoDerivative,
  },
} as const satisfies Readonly<Record<string, UnaryRow>>;

export type UnaryTableName = keyof typeof UNARY_TABLE;
