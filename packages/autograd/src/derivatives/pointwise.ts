import {
  add,
  isfinite,
  cos,
  cosh,
  div,
  erfinv,
  exp,
  eq,
  ge,
  gt,
  log,
  lt,
  mul,
  neg,
  pow,
  rsqrt,
  sin,
  sinh,
  sub,
  where,
  zerosLike,
  type Tensor,
} from '@torch-ts/core';
import type { Derivative, DerivativeContext, NotDifferentiable } from '../derivative';
import { operand, savedTensor, scalarNumber } from './common';

/**
 * Pointwise derivatives, as PyTorch's derivatives.yaml writes them. The engine sums each
 * result down to its input's (broadcast) shape and casts it to the input's dtype, so the
 * formulas work at the output's shape and dtype.
 */

const AddBackward0: Derivative = {
  name: 'AddBackward0',
  inputs: ['self', 'other'],
  saves: [],
  backward: ({ grad, args, needs }) => {
    const alpha = scalarNumber(args[2], 1);
    return [needs[0] ? grad : null, needs[1] ? (alpha === 1 ? grad : mul(grad, alpha)) : null];
  },
};

const SubBackward0: Derivative = {
  name: 'SubBackward0',
  inputs: ['self', 'other'],
  saves: [],
  backward: ({ grad, args, needs }) => {
    const alpha = scalarNumber(args[2], 1);
    return [needs[0] ? grad : null, needs[1] ? (alpha === 1 ? neg(grad) : mul(grad, -alpha)) : null];
  },
};

// `name@input`: saved only when that input needs a gradient (x * 2 keeps nothing of x)
const MulBackward0: Derivative = {
  name: 'MulBackward0',
  inputs: ['self', 'other'],
  saves: ['self@other', 'other@self'],
  backward: (ctx) => [
    ctx.needs[0] ? mul(ctx.grad, operand(ctx, 'other', 1)) : null,
    ctx.needs[1] ? mul(ctx.grad, operand(ctx, 'self', 0)) : null,
  ],
};

/**
 * div: self gets grad / other, other gets -grad * self / other^2. With a rounding mode div is
 * piecewise constant and both gradients are zero (`grad * 0`, so nan stays nan), as in PyTorch.
 */
const DivBackward: Derivative = {
  // div.Tensor_mode / div.Scalar_mode record DivBackward2
  name: (args) => (args[2] == null ? 'DivBackward0' : 'DivBackward2'),
  inputs: ['self', 'other'],
  saves: ['self@other', 'other'],
  backward: (ctx) => {
    const { grad, needs, args } = ctx;
    const other = operand(ctx, 'other', 1);
    if (args[2] != null) return [needs[0] ? mul(grad, 0) : null, needs[1] ? mul(grad, 0) : null];
    return [
      needs[0] ? div(grad, other) : null,
      // -grad * self / other^2, as `-grad * ((self / other) / other)` to stay finite longer
      needs[1] ? mul(neg(grad), div(div(savedTensor(ctx, 'self', 'div'), other), other)) : null,
    ];
  },
};

/**
 * Tensor arguments reach `name` as null (the Node keeps no tensors in its args), scalars as
 * themselves: PyTorch's overloads for a Scalar operand record another Node name.
 */
const tensorArg = (args: readonly unknown[], i: number) => args[i] === null;

// pow.Tensor_Scalar records PowBackward0, pow.Tensor_Tensor PowBackward1; the formula picks
// the rule from the exponent it finds.
const PowBackward: Derivative = {
  name: (args) => (tensorArg(args, 1) ? 'PowBackward1' : 'PowBackward0'),
  inputs: ['self', 'other'],
  saves: ['self', 'other', 'result@other'],
  backward: (ctx) => {
    const { grad, needs } = ctx;
    const self = savedTensor(ctx, 'self', 'pow');
    const exponent = operand(ctx, 'other', 1);
    if (typeof exponent !== 'object') {
      // pow_backward: d/dx x^e = e * x^(e-1), and exactly zero for e == 0 (0^-1 would be inf)
      const e = scalarNumber(exponent, 0);
      return [needs[0] ? (e === 0 ? zerosLike(grad) : mul(grad, mul(pow(self, e - 1), e))) : null, null];
    }
    const selfGrad = needs[0]
      ? where(eq(exponent, 0), 0, mul(grad, mul(exponent, pow(self, sub(exponent, 1)))))
      : null;
    // d/de x^e = x^e * log(x); at x == 0 with e >= 0 the limit is 0 (log would give nan)
    const atZero = needs[1] ? mul(eq(self, 0), ge(exponent, 0)) : null;
    const expGrad = atZero
      ? mul(grad, where(atZero, 0, mul(savedTensor(ctx, 'result', 'pow'), log(self))))
      : null;
    return [selfGrad, expGrad];
  },
};

// remainder.Scalar records RemainderBackward0, remainder.Tensor RemainderBackward1
const RemainderBackward: Derivative = {
  name: (args) => (tensorArg(args, 1) ? 'RemainderBackward1' : 'RemainderBackward0'),
  inputs: ['self', 'other'],
  saves: ['self@other', 'other@other'],
  backward: (ctx) => {
    const { grad, needs } = ctx;
    const other = operand(ctx, 'other', 1);
    const otherGrad = needs[1]
      ? mul(neg(grad), div(savedTensor(ctx, 'self', 'remainder'), other, { roundingMode: 'floor' }))
      : null;
    return [needs[0] ? grad : null, otherGrad];
  },
};

/** maximum / minimum: the larger (smaller) operand takes the gradient; a tie splits it in two. */
function extremumBackward(name: string, op: string, loses: (a: Tensor, b: Tensor) => Tensor): Derivative {
  return {
    name,
    inputs: ['self', 'other'],
    saves: ['self', 'other'],
    backward: (ctx) => {
      const { grad, needs } = ctx;
      const self = savedTensor(ctx, 'self', op);
      const other = savedTensor(ctx, 'other', op);
      const tie = eq(self, other);
      const half = div(grad, 2);
      return [
        needs[0] ? where(tie, half, where(loses(self, other), 0, grad)) : null,
        needs[1] ? where(tie, half, where(loses(other, self), 0, grad)) : null,
      ];
    },
  };
}

const WhereBackward0: Derivative = {
  name: 'WhereBackward0',
  inputs: ['self', 'other'],
  saves: ['condition'],
  backward: (ctx) => {
    const { grad, needs } = ctx;
    const cond = savedTensor(ctx, 'condition', 'where');
    return [needs[0] ? where(cond, grad, 0) : null, needs[1] ? where(cond, 0, grad) : null];
  },
};

/** A one-input formula of `grad` and one saved tensor. */
function unary(name: string, saves: 'self' | 'result' | null, formula: (grad: Tensor, x: Tensor) => Tensor): Derivative {
  return {
    name,
    inputs: ['self'],
    saves: saves ? [saves] : [],
    backward: (ctx: DerivativeContext) => {
      if (!ctx.needs[0]) return [null];
      const x = saves ? savedTensor(ctx, saves, name) : ctx.grad;
      return [formula(ctx.grad, x)];
    },
  };
}

const NegBackward0 = unary('NegBackward0', null, (g) => neg(g));
// nan_to_num: grad * at::isfinite(self)
const NanToNumBackward0 = unary('NanToNumBackward0', 'self', (g, x) => mul(g, isfinite(x)));
// sgn(x) * grad, with sgn(0) = 0
const AbsBackward0 = unary('AbsBackward0', 'self', (g, x) => where(gt(x, 0), g, where(lt(x, 0), neg(g), 0)));
// threshold_backward(grad, result, 0): nothing flows where the output was clamped
const ReluBackward0 = unary('ReluBackward0', 'result', (g, y) => where(gt(y, 0), g, 0));
const FloorBackward0 = unary('FloorBackward0', null, (g) => zerosLike(g));
const CeilBackward0 = unary('CeilBackward0', null, (g) => zerosLike(g));
const ExpBackward0 = unary('ExpBackward0', 'result', (g, y) => mul(g, y));
const LogBackward0 = unary('LogBackward0', 'self', (g, x) => div(g, x));
const SqrtBackward0 = unary('SqrtBackward0', 'result', (g, y) => div(g, mul(y, 2)));
const SinBackward0 = unary('SinBackward0', 'self', (g, x) => mul(g, cos(x)));
const CosBackward0 = unary('CosBackward0', 'self', (g, x) => mul(g, neg(sin(x))));
// tanh_backward: grad * (1 - y^2)
const TanhBackward0 = unary('TanhBackward0', 'result', (g, y) => mul(g, neg(sub(mul(y, y), 1))));
// sigmoid_backward: grad * (1 - y) * y, in PyTorch's order
const SigmoidBackward0 = unary('SigmoidBackward0', 'result', (g, y) => mul(mul(g, neg(sub(y, 1))), y));

// -0.5 * grad * result^3
const RsqrtBackward0 = unary('RsqrtBackward0', 'result', (g, y) => mul(mul(g, -0.5), pow(y, 3)));
// -grad * result^2
const ReciprocalBackward0 = unary('ReciprocalBackward0', 'result', (g, y) => mul(neg(g), mul(y, y)));
const SignBackward0 = unary('SignBackward0', null, (g) => zerosLike(g));
const TruncBackward0 = unary('TruncBackward0', null, (g) => zerosLike(g));
// round() is RoundBackward0, round(decimals=) RoundBackward1, as PyTorch's two overloads
const RoundBackward: Derivative = {
  ...unary('RoundBackward0', null, (g) => zerosLike(g)),
  name: (args) => (args[1] == null ? 'RoundBackward0' : 'RoundBackward1'),
};
const FracBackward0 = unary('FracBackward0', null, (g) => g);
const Exp2Backward0 = unary('Exp2Backward0', 'result', (g, y) => mul(g, mul(y, Math.LN2)));
const Expm1Backward0 = unary('Expm1Backward0', 'result', (g, y) => mul(g, add(y, 1)));
const Log2Backward0 = unary('Log2Backward0', 'self', (g, x) => div(g, mul(x, Math.LN2)));
const Log10Backward0 = unary('Log10Backward0', 'self', (g, x) => div(g, mul(x, Math.LN10)));
// log1p_backward: grad / (self + 1)
const Log1PBackward0 = unary('Log1PBackward0', 'self', (g, x) => div(g, add(x, 1)));
// grad * (1 + result^2)
const TanBackward0 = unary('TanBackward0', 'result', (g, y) => mul(g, add(mul(y, y), 1)));
// grad * rsqrt(1 - self^2), and its negation for acos
const AsinBackward0 = unary('AsinBackward0', 'self', (g, x) => mul(g, rsqrt(add(neg(mul(x, x)), 1))));
const AcosBackward0 = unary('AcosBackward0', 'self', (g, x) => mul(g, neg(rsqrt(add(neg(mul(x, x)), 1)))));
const AtanBackward0 = unary('AtanBackward0', 'self', (g, x) => div(g, add(mul(x, x), 1)));
const SinhBackward0 = unary('SinhBackward0', 'self', (g, x) => mul(g, cosh(x)));
const CoshBackward0 = unary('CoshBackward0', 'self', (g, x) => mul(g, sinh(x)));
// 2 / sqrt(pi) * exp(-self^2) * grad (negated for erfc)
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const ErfBackward0 = unary('ErfBackward0', 'self', (g, x) => mul(mul(exp(neg(mul(x, x))), TWO_OVER_SQRT_PI), g));
const ErfcBackward0 = unary('ErfcBackward0', 'self', (g, x) => mul(mul(exp(neg(mul(x, x))), -TWO_OVER_SQRT_PI), g));
// 0.5 * sqrt(pi) * exp(erfinv(self)^2) * grad
const ErfinvBackward0 = unary('ErfinvBackward0', 'self', (g, x) => {
  const e = erfinv(x);
  return mul(mul(exp(mul(e, e)), 0.5 * Math.sqrt(Math.PI)), g);
});

/**
 * The in-place comparisons write 0/1 into `self` (a float tensor may require grad), so
 * PyTorch records a node whose gradients are zero (`self: zeros_like(self)`).
 */
function inplaceCompare(op: string): Derivative {
  return {
    // eq_.Scalar records EqBackward0, eq_.Tensor EqBackward1
    name: (args) => `${op}Backward${tensorArg(args, 1) ? 1 : 0}`,
    inputs: ['self', 'other'],
    saves: [],
    backward: ({ grad, needs }) => [needs[0] ? zerosLike(grad) : null, needs[1] ? zerosLike(grad) : null],
  };
}

const COMPARISON: NotDifferentiable = { notDifferentiable: 'a comparison: its bool result has no gradient' };
const BITWISE: NotDifferentiable = { notDifferentiable: 'a bitwise op: integral and bool only, which have no gradient' };
const LOGICAL: NotDifferentiable = { notDifferentiable: 'a logical op: its bool result has no gradient' };

export const POINTWISE_DERIVATIVES = {
  add: AddBackward0,
  add_: AddBackward0,
  sub: SubBackward0,
  sub_: SubBackward0,
  mul: MulBackward0,
  mul_: MulBackward0,
  div: DivBackward,
  div_: DivBackward,
  pow: PowBackward,
  pow_: PowBackward,
  remainder: RemainderBackward,
  remainder_: RemainderBackward,
  maximum: extremumBackward('MaximumBackward0', 'maximum', lt),
  minimum: extremumBackward('MinimumBackward0', 'minimum', gt),
  logical_not: LOGICAL,
  logical_not_: LOGICAL,
  logical_and: LOGICAL,
  logical_and_: LOGICAL,
  logical_or: LOGICAL,
  logical_or_: LOGICAL,
  logical_xor: LOGICAL,
  logical_xor_: LOGICAL,
  bitwise_not: BITWISE,
  bitwise_not_: BITWISE,
  bitwise_and: BITWISE,
  bitwise_and_: BITWISE,
  bitwise_or: BITWISE,
  bitwise_or_: BITWISE,
  bitwise_xor: BITWISE,
  bitwise_xor_: BITWISE,
  eq: COMPARISON,
  eq_: inplaceCompare('Eq'),
  ne: COMPARISON,
  ne_: inplaceCompare('Ne'),
  lt: COMPARISON,
  lt_: inplaceCompare('Lt'),
  le: COMPARISON,
  le_: inplaceCompare('Le'),
  gt: COMPARISON,
  gt_: inplaceCompare('Gt'),
  ge: COMPARISON,
  ge_: inplaceCompare('Ge'),
  neg: NegBackward0,
  neg_: NegBackward0,
  nan_to_num: NanToNumBackward0,
  nan_to_num_: NanToNumBackward0,
  abs: AbsBackward0,
  abs_: AbsBackward0,
  relu: ReluBackward0,
  relu_: ReluBackward0,
  floor: FloorBackward0,
  floor_: FloorBackward0,
  ceil: CeilBackward0,
  ceil_: CeilBackward0,
  exp: ExpBackward0,
  exp_: ExpBackward0,
  log: LogBackward0,
  log_: LogBackward0,
  sqrt: SqrtBackward0,
  sqrt_: SqrtBackward0,
  sin: SinBackward0,
  sin_: SinBackward0,
  cos: CosBackward0,
  cos_: CosBackward0,
  tanh: TanhBackward0,
  tanh_: TanhBackward0,
  sigmoid: SigmoidBackward0,
  sigmoid_: SigmoidBackward0,
  rsqrt: RsqrtBackward0,
  rsqrt_: RsqrtBackward0,
  reciprocal: ReciprocalBackward0,
  reciprocal_: ReciprocalBackward0,
  sign: SignBackward0,
  sign_: SignBackward0,
  trunc: TruncBackward0,
  trunc_: TruncBackward0,
  round: RoundBackward,
  round_: RoundBackward,
  frac: FracBackward0,
  frac_: FracBackward0,
  exp2: Exp2Backward0,
  exp2_: Exp2Backward0,
  expm1: Expm1Backward0,
  expm1_: Expm1Backward0,
  log2: Log2Backward0,
  log2_: Log2Backward0,
  log10: Log10Backward0,
  log10_: Log10Backward0,
  log1p: Log1PBackward0,
  log1p_: Log1PBackward0,
  tan: TanBackward0,
  tan_: TanBackward0,
  asin: AsinBackward0,
  asin_: AsinBackward0,
  acos: AcosBackward0,
  acos_: AcosBackward0,
  atan: AtanBackward0,
  atan_: AtanBackward0,
  sinh: SinhBackward0,
  sinh_: SinhBackward0,
  cosh: CoshBackward0,
  cosh_: CoshBackward0,
  erf: ErfBackward0,
  erf_: ErfBackward0,
  erfc: ErfcBackward0,
  erfc_: ErfcBackward0,
  erfinv: ErfinvBackward0,
  erfinv_: ErfinvBackward0,
  where: WhereBackward0,
} as const;
