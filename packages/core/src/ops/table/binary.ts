import { checkScalarFits, isFloatingType, type DType } from '../../dtype';
import { DTypeError, TorchError } from '../../errors';
import type { Tensor } from '../../tensor/tensor';
import { TensorImpl } from '../../tensor/tensor-impl';
import type { Scalar } from '../meta-utils';
import { add, div, eq, exp, fullLike, ge, gt, le, lgamma, log, logicalAnd, lt, mul, ne, neg, pow, reciprocal, specialXlog1py, specialZeta, sub, where, xlogy, zerosLike } from './formula-ops';
import { powSpecial } from './pow-scalar';
import { binaryRow, type BinaryDerivative, type BinaryNoDerivative, type BinaryRow } from './types';

/**
 * What torch.special's orthogonal polynomials share (PyTorch 2.x's `special_*_polynomial_*(Tensor
 * x, Tensor n)` with its `x_scalar` and `n_scalar` overloads): the float rule, no float16 or
 * bfloat16 kernel, no in-place form, method or torch.* function, and no derivative.
 */
const ORTHOGONAL_POLYNOMIAL = {
  rule: 'float',
  rejects: { reducedFloating: true },
  scalarOther: true,
  scalarSelf: true,
  otherName: 'n',
  inplace: false,
  method: false,
  torchFunction: false,
  derivative: {
    notDifferentiable: "PyTorch 2.x's derivatives.yaml marks x and n non_differentiable: the result never requires grad",
  } satisfies BinaryNoDerivative,
} as const;

/**
 * The binary pointwise ops of the op table (Note [The op table]): `name(Tensor self, Tensor
 * other) -> Tensor`, `name_` where the row has it, and `name.out`. Formulas as PyTorch's
 * derivatives.yaml writes them.
 */
// (formulas declare their result type: the table's type must not depend on Tensor's, whose
// methods are derived from the table)
type Grads = readonly [Tensor | null, Tensor | null];

/**
 * A saved operand a formula cannot do without (a row whose `saves` omits it is a bug). Typed
 * apart from the rows (an explicit return type), so that the table's type does not depend on
 * Tensor's, whose methods are derived from the table.
 */
function need(x: unknown, what: string): Tensor {
  if (x === undefined) throw new Error(`op table: the formula reads '${what}', which its row does not save`);
  return x as Tensor;
}
/** `other` where the Scalar overload may have run: the number itself. */
function operand(x: unknown, what: string): Tensor | number {
  if (x === undefined) throw new Error(`op table: the formula reads '${what}', which its row does not save`);
  return x as Tensor | number;
}

/** alpha as the add impl and the formulas take it: a bool alpha (bool results only) as 0 / 1. */
function alphaOf(alpha: Scalar): number | bigint {
  return typeof alpha === 'boolean' ? Number(alpha) : alpha;
}

/** PyTorch's alpha_check, then alpha converted to the compute dtype as its kernel does. */
function checkAlpha(op: string, compute: DType, alpha: Scalar): void {
  if (typeof alpha === 'boolean' && compute !== 'bool') throw new DTypeError(`${op}: Boolean alpha only supported for Boolean results.`);
  if (!isFloatingType(compute) && typeof alpha === 'number' && !Number.isInteger(alpha)) {
    throw new DTypeError(`${op}: For integral input tensors, argument alpha must not be a floating point number.`);
  }
  checkScalarFits(op, alpha, compute);
}

/** sub with one bool operand (two are the row's `rejects`): PyTorch's sub_check. */
function checkSubOperands(op: string, operands: readonly (TensorImpl | Scalar)[]): void {
  const isBool = (o: TensorImpl | Scalar) => (o instanceof TensorImpl ? o.dtype === 'bool' : typeof o === 'boolean');
  if (isBool(operands[0]) || isBool(operands[1])) {
    throw new DTypeError(`${op}: Subtraction, the \`-\` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the \`~\` or \`logical_not()\` operator instead.`);
  }
}

/**
 * clamp_min / clamp_max (Note [clamp's two kernels] in pointwise-binary.ts): a number bound runs
 * the clamp kernel, which ignores a NaN in `self`'s favour and is refused for bool; a NaN
 * number bound fills the result with NaN (PyTorch's clamp_min_out checks it first); a tensor
 * bound runs maximum / minimum. `self` takes the gradient on its side of the bound, ties
 * included; a tensor bound beyond it.
 */
function oneBound(side: 'min' | 'max'): Required<Pick<BinaryRow, 'check' | 'compute' | 'derivative'>> {
  const kernel = side === 'min' ? 'clamp_min_cpu' : 'clamp_max_scalar_cpu';
  const inside = side === 'min' ? ge : le;
  const beyond = side === 'min' ? lt : gt;
  return {
    check: (op, compute, _args, [, bound]) => {
      if (bound instanceof TensorImpl) return;
      if (compute === 'bool') throw new DTypeError(`${op}: "${kernel}" not implemented for 'Bool'`);
      checkScalarFits(op, bound, compute);
    },
    compute: (impl, out, x, y, _args, [, bound]): void => {
      if (typeof bound === 'number' && Number.isNaN(bound)) impl('fill')(out, NaN);
      else if (bound instanceof TensorImpl) impl(side === 'min' ? 'maximum' : 'minimum')(out, x, y);
      else impl(side === 'min' ? 'clampMin' : 'clampMax')(out, x, y);
    },
    derivative: {
      saves: ['self', 'other'],
      scalarOverloadNodes: true,
      formula: (grad, { self, other }, needs): Grads => {
        const x = need(self, 'self');
        const b = operand(other, 'other');
        return [needs[0] ? where(inside(x, b), grad, 0) : null, needs[1] ? where(beyond(x, b), grad, 0) : null];
      },
    },
  };
}

/**
 * fmax / fmin: unlike maximum's, a tie is not split: `self` takes the whole gradient where it
 * wins or ties, or where `other` is NaN (PyTorch's `(self >= other).logical_or_(other.isnan())`
 * mask); `other` takes it elsewhere.
 */
function nanIgnoring(winner: 'ge' | 'le'): BinaryDerivative {
  // (ge/le picked here, not passed in: comparing their types would tie the table's type to Tensor's)
  const wins = winner === 'ge' ? ge : le;
  return {
    saves: ['self', 'other'],
    formula: (grad, { self, other }, needs): Grads => {
      const x = need(self, 'self');
      const y = need(other, 'other');
      const selfWins = wins(x, y);
      const otherNan = ne(y, y);
      return [needs[0] ? where(selfWins, grad, where(otherNan, grad, 0)) : null, needs[1] ? where(selfWins, 0, where(otherNan, 0, grad)) : null];
    },
  };
}

/**
 * remainder (`floor`) and fmod (`trunc`): self: grad; other: -grad * self.div(other,
 * rounding_mode=mode). The Scalar overload records `${Name}Backward0`, the Tensor one
 * `${Name}Backward1`.
 */
function remainderOf(mode: 'floor' | 'trunc'): BinaryDerivative {
  return {
    saves: ['self@other', 'other@other'],
    scalarOverloadNodes: true,
    formula: (grad, { self, other }, needs): Grads => [
      needs[0] ? grad : null,
      needs[1] ? mul(neg(grad), div(need(self, 'self'), operand(other, 'other'), { roundingMode: mode })) : null,
    ],
  };
}

/**
 * maximum / minimum: the larger (smaller) operand takes the gradient; a tie splits it in two
 * (derivatives.yaml: `grad.masked_fill(self < other, 0) / 2` where equal).
 */
function extremum(loses: 'lt' | 'gt'): BinaryDerivative {
  const lose = loses === 'lt' ? lt : gt;
  return {
    saves: ['self', 'other'],
    formula: (grad, { self, other }, needs): Grads => {
      const x = need(self, 'self');
      const y = need(other, 'other');
      const tie = eq(x, y);
      const half = div(grad, 2);
      return [needs[0] ? where(tie, half, where(lose(x, y), 0, grad)) : null, needs[1] ? where(tie, half, where(lose(y, x), 0, grad)) : null];
    },
  };
}

/**
 * The comparisons: `x.eq_(y)` writes 0 / 1 into `self`, which may require grad, so PyTorch
 * records a Node whose gradients are zeros (derivatives.yaml's `eq_.Scalar` / `eq_.Tensor`:
 * `self: zeros_like(self)`, `other: zeros_like(other)`), named by the overload that ran.
 */
const COMPARISON = {
  notDifferentiable: 'a comparison: its bool result has no gradient',
  inplace: {
    saves: [],
    scalarOverloadNodes: true,
    formula: (grad, _saved, needs): Grads => [needs[0] ? zerosLike(grad) : null, needs[1] ? zerosLike(grad) : null],
  },
} as const satisfies BinaryNoDerivative;
const LOGICAL = { notDifferentiable: 'a logical op: its bool result has no gradient' } as const satisfies BinaryNoDerivative;
const BITWISE = { notDifferentiable: 'a bitwise op: integral and bool only, which have no gradient' } as const satisfies BinaryNoDerivative;

/**
 * igamma's and igammac's derivative (±): PyTorch has none for `self` (an error at backward,
 * in its words); `other`'s is the integrand, x^(a-1) e^-x / Gamma(a).
 */
function incompleteGamma(op: 'igamma' | 'igammac', sign: 1 | -1): BinaryDerivative {
  return {
    saves: ['self', 'other'],
    formula: (grad, { self, other }, needs): Grads => {
      if (needs[0]) throw new TorchError(`the derivative for '${op}: input' is not implemented.`);
      if (!needs[1]) return [null, null];
      const a = need(self, 'self');
      const x = need(other, 'other');
      const d = exp(sub(sub(mul(sub(a, 1), log(x)), x), lgamma(a)));
      return [null, mul(sign === 1 ? grad : neg(grad), d)];
    },
  };
}

export const BINARY_TABLE = {
  add: binaryRow({
    doc: 'self + alpha * other for each element (logical or for bool).',
    rule: 'promote',
    scalarOther: true,
    numberSelf: true,
    args: '*, Scalar alpha=1',
    check: (op, compute, [alpha]) => checkAlpha(op, compute, alpha),
    compute: (impl, out, x, y, [alpha]): void => impl('add')(out, x, y, alphaOf(alpha)),
    // self: grad; other: grad * alpha
    derivative: {
      saves: [],
      formula: (grad, _saved, needs, [alpha]): Grads => [needs[0] ? grad : null, needs[1] ? (alpha === 1 ? grad : mul(grad, alphaOf(alpha))) : null],
    },
  }),
  sub: binaryRow({
    doc: 'self - alpha * other for each element (not for bool: use logical_xor or logical_not).',
    rule: 'promote',
    rejects: {
      bool: 'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.',
    },
    scalarOther: true,
    numberSelf: true,
    args: '*, Scalar alpha=1',
    check: (op, compute, [alpha], operands) => {
      checkSubOperands(op, operands);
      checkAlpha(op, compute, alpha);
    },
    // (PyTorch's sub kernel is add's with -alpha)
    compute: (impl, out, x, y, [alpha]): void => {
      const a = alphaOf(alpha);
      impl('add')(out, x, y, typeof a === 'bigint' ? -a : -a);
    },
    // self: grad; other: -grad * alpha
    derivative: {
      saves: [],
      formula: (grad, _saved, needs, [alpha]): Grads => {
        const a = alphaOf(alpha);
        return [needs[0] ? grad : null, needs[1] ? (a === 1 ? neg(grad) : mul(grad, typeof a === 'bigint' ? -a : -a)) : null];
      },
    },
  }),
  mul: {
    doc: 'self * other for each element (logical and for bool).',
    rule: 'promote',
    scalarOther: true,
    numberSelf: true,
    // self: grad * other; other: grad * self (`name@input`: x * 2 keeps nothing of x; a number
    // self, `torch.mul(2, x)`, is the number itself)
    derivative: {
      saves: ['self@other', 'other@self'],
      formula: (grad, { self, other }, needs): Grads => [
        needs[0] ? mul(grad, operand(other, 'other')) : null,
        needs[1] ? mul(grad, operand(self, 'self')) : null,
      ],
    },
  },
  div: binaryRow({
    doc: "self / other for each element: true division (integers divide in the default float dtype), or with rounding_mode 'trunc' (toward zero) or 'floor' (down) in the promoted dtype.",
    rule: 'float',
    ruleFor: ([mode]) => (mode === null ? 'float' : 'promote'),
    scalarOther: true,
    numberSelf: true,
    args: '*, str? rounding_mode=None',
    choices: { rounding_mode: ['trunc', 'floor'] },
    domain: ['any', 'nonzero'], // a pole at 0
    check: (op, compute, [mode]) => {
      if (mode !== null && compute === 'bool') throw new DTypeError(`${op}: "div_${mode}_cpu" not implemented for 'Bool'`);
    },
    compute: (impl, out, x, y, [mode]): void => impl(mode === 'trunc' ? 'divTrunc' : mode === 'floor' ? 'divFloor' : 'div')(out, x, y),
    // self: grad / other; other: -grad * self / other², as `(self / other) / other` to stay
    // finite longer. With a rounding mode div is piecewise constant: both are `grad * 0`, so a
    // nan stays nan, as PyTorch's DivBackward2.
    derivative: {
      saves: ['self@other', 'other'],
      node: ([mode]) => (mode === null ? 'DivBackward0' : 'DivBackward2'),
      formula: (grad, { self, other }, needs, [mode]): Grads => {
        if (mode !== null) return [needs[0] ? mul(grad, 0) : null, needs[1] ? mul(grad, 0) : null];
        const y = operand(other, 'other');
        const selfGrad = needs[0] ? div(grad, y) : null;
        if (!needs[1]) return [selfGrad, null];
        // (`other` needs a gradient, so it is a tensor; a number self, `torch.div(1, x)`, divides
        // as PyTorch's wrapped number does: in other's dtype)
        const x = operand(self, 'self');
        const yt = need(other, 'other');
        return [selfGrad, mul(neg(grad), div(div(typeof x === 'object' ? x : fullLike(yt, x), yt), yt))];
      },
    },
  }),
  pow: {
    doc: 'self to the power of exponent for each element (self or exponent may be a number; integers to a negative integer power are an error).',
    rule: 'promote',
    kernel: 'pow',
    rejects: { bool: true },
    scalarOther: true,
    scalarSelf: true,
    otherName: 'exponent',
    domain: ['pos', 'any'], // a negative base to a fractional power is nan
    check: (op, compute, _args, [, e]) => {
      if (!isFloatingType(compute) && typeof e === 'number' && Number.isInteger(e) && e < 0) {
        throw new TorchError(`${op}: Integers to negative integer powers are not allowed.`);
      }
    },
    compute: (impl, out, x, y, _args, [, e]): void => {
      if (typeof e === 'number' && powSpecial(impl, out, x, e)) return;
      impl('pow')(out, x, y);
    },
    derivative: {
      saves: ['self', 'other', 'result@other'],
      scalarOverloadNodes: true,
      formula: (grad, { self, other, result }, needs): Grads => {
        const x = operand(self, 'self');
        const e = operand(other, 'other');
        if (typeof e !== 'object') {
          // pow_backward: e * x^(e-1), and exactly zero for e == 0 (0^-1 would be inf)
          const en = Number(e);
          return [needs[0] ? (en === 0 ? zerosLike(grad) : mul(grad, mul(pow(need(self, 'self'), en - 1), en))) : null, null];
        }
        const selfGrad = needs[0] ? where(eq(e, 0), 0, mul(grad, mul(e, pow(need(self, 'self'), sub(e, 1))))) : null;
        if (!needs[1]) return [selfGrad, null];
        // pow_backward_exponent: grad * result * log(self), 0 where self == 0 and exponent >= 0
        // (the limit; log would give -inf * 0)
        const r = need(result, 'result');
        if (typeof x !== 'object') {
          const base = Number(x);
          const g = mul(grad, mul(r, Math.log(base)));
          return [selfGrad, base === 0 ? where(ge(e, 0), 0, g) : g];
        }
        const atZero = logicalAnd(eq(x, 0), ge(e, 0));
        return [selfGrad, mul(grad, where(atZero, 0, mul(r, log(x))))];
      },
    },
  },
  remainder: {
    doc: "Python's modulus: the remainder of self / other with the sign of other (an integer divisor of 0 raises ZeroDivisionError).",
    rule: 'promote',
    kernel: 'remainder_cpu',
    rejects: { bool: true },
    scalarOther: true,
    domain: ['any', 'nonzero'],
    derivative: remainderOf('floor'),
  },
  maximum: {
    doc: 'The larger of self and other for each element (NaN if either is NaN).',
    rule: 'promote',
    inplace: false,
    derivative: extremum('lt'),
  },
  minimum: {
    doc: 'The smaller of self and other for each element (NaN if either is NaN).',
    rule: 'promote',
    inplace: false,
    derivative: extremum('gt'),
  },
  clampMin: {
    doc: 'max(self, min) for each element: a number bound ignores NaN, a tensor bound propagates it (as maximum).',
    rule: 'promote',
    scalarOther: true,
    otherName: 'min',
    ...oneBound('min'),
  },
  clampMax: {
    doc: 'min(self, max) for each element: a number bound ignores NaN, a tensor bound propagates it (as minimum).',
    rule: 'promote',
    scalarOther: true,
    otherName: 'max',
    ...oneBound('max'),
  },
  fmod: {
    doc: "C's fmod: the remainder of self / other with the sign of self (an integer divisor of 0 raises ZeroDivisionError).",
    rule: 'promote',
    kernel: 'fmod_cpu',
    rejects: { bool: true },
    scalarOther: true,
    domain: ['any', 'nonzero'],
    derivative: remainderOf('trunc'),
  },
  atan2: {
    doc: 'atan(self / other) in the quadrant of (other, self).',
    rule: 'float',
    kernel: 'atan2_cpu',
    domain: ['nonzero', 'nonzero'], // atan2(0, 0) has no derivative
    // with r = 1 / (self² + other²): self gets grad * other * r, other gets grad * -self * r
    derivative: {
      saves: ['self', 'other'],
      formula: (grad, { self, other }, needs): Grads => {
        const x = need(self, 'self');
        const y = need(other, 'other');
        const r = reciprocal(add(mul(x, x), mul(y, y)));
        return [needs[0] ? mul(mul(grad, y), r) : null, needs[1] ? mul(mul(grad, neg(x)), r) : null];
      },
    },
  },
  hypot: {
    doc: 'sqrt(self² + other²) without overflow (floating dtypes only).',
    rule: 'promote',
    kernel: 'hypot_cpu',
    rejects: { bool: true, integral: true },
    domain: ['nonzero', 'nonzero'], // a kink at (0, 0)
    // self: grad * self / result; other: grad * other / result
    derivative: {
      saves: ['self@self', 'other@other', 'result'],
      formula: (grad, { self, other, result }, needs): Grads => {
        const r = need(result, 'result');
        return [needs[0] ? div(mul(grad, need(self, 'self')), r) : null, needs[1] ? div(mul(grad, need(other, 'other')), r) : null];
      },
    },
  },
  // The special functions of two operands (Note [The special functions in doubles] in
  // kernels-cpu). Each has PyTorch's Scalar overloads for either operand, whose Nodes PyTorch
  // numbers Tensor 0, Scalar_Self 1, Scalar_Other 2.
  // self: grad * xlogy(self != 0, other); other: grad * self / other
  xlogy: {
    doc: 'self * log(other) for each element, 0 where self is 0 unless other is nan.',
    rule: 'float',
    kernel: 'xlogy_cpu',
    scalarOther: true,
    scalarSelf: true,
    domain: ['nonzero', 'pos'],
    derivative: {
      saves: ['self', 'other'],
      overloadNodes: { numbers: [0, 1, 2] },
      formula: (grad, { self, other }, needs): Grads => {
        const y = operand(other, 'other');
        const x = operand(self, 'self');
        return [
          needs[0] ? mul(grad, xlogy(ne(need(self, 'self'), 0), y)) : null,
          needs[1] ? div(mul(grad, x), need(other, 'other')) : null,
        ];
      },
    },
  },
  // self: grad * xlog1py(self != 0, other); other: grad * self / (other + 1)
  specialXlog1py: {
    doc: 'self * log1p(other) for each element, 0 where self is 0 unless other is nan.',
    rule: 'float',
    kernel: 'xlog1py_cpu',
    scalarOther: true,
    scalarSelf: true,
    inplace: false,
    method: false,
    torchFunction: false,
    domain: ['nonzero', 'pos'],
    derivative: {
      saves: ['self', 'other'],
      overloadNodes: { numbers: [0, 1, 2], base: 'SpecialXlog1PyBackward' },
      formula: (grad, { self, other }, needs): Grads => {
        const y = operand(other, 'other');
        const x = operand(self, 'self');
        return [
          needs[0] ? mul(grad, specialXlog1py(ne(need(self, 'self'), 0), y)) : null,
          needs[1] ? div(mul(grad, x), add(need(other, 'other'), 1)) : null,
        ];
      },
    },
  },
  // self: not_implemented("zeta"); other: grad * -self * special_zeta(self + 1., other)
  specialZeta: {
    doc: 'The Hurwitz zeta function sum_k (other + k)^-self of each pair (inf at self = 1; nan for self < 1).',
    rule: 'float',
    kernel: 'zeta_cpu',
    scalarOther: true,
    scalarSelf: true,
    inplace: false,
    method: false,
    torchFunction: false,
    domain: ['above1', 'pos'],
    derivative: {
      saves: ['self', 'other'],
      overloadNodes: { numbers: [0, 1, 2] },
      formula: (grad, { self, other }, needs): Grads => {
        if (needs[0]) throw new TorchError("the derivative for 'zeta' is not implemented.");
        const x = operand(self, 'self');
        const q = operand(other, 'other');
        return [null, needs[1] ? mul(mul(grad, typeof x === 'number' ? -x : neg(x)), specialZeta(typeof x === 'number' ? x + 1 : add(x, 1), q)) : null];
      },
    },
  },
  // The regularized incomplete gamma functions (torch.special.gammainc / gammaincc): floating
  // only. self: not_implemented("igamma: input"); other: grad * exp((self - 1) * log(other) - other - lgamma(self))
  igamma: {
    doc: 'The regularized lower incomplete gamma function P(self, other) of each pair.',
    rule: 'promote',
    kernel: 'igamma_cpu',
    rejects: { bool: true, integral: true },
    domain: ['pos', 'pos'],
    derivative: incompleteGamma('igamma', 1),
  },
  igammac: {
    doc: 'The regularized upper incomplete gamma function Q(self, other) = 1 - P(self, other) of each pair.',
    rule: 'promote',
    kernel: 'igammac_cpu',
    rejects: { bool: true, integral: true },
    domain: ['pos', 'pos'],
    derivative: incompleteGamma('igammac', -1),
  },
  // torch.special's orthogonal polynomials of (x, n) (PyTorch 2.x; Note [Orthogonal polynomials
  // as PyTorch 2.x evaluates them] in kernels-cpu): n truncated to an integer, 0 for n < 0;
  // float32 and float64 only; x: non_differentiable, n: non_differentiable
  specialChebyshevPolynomialT: {
    doc: 'The Chebyshev polynomial of the first kind T_n(x) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'chebyshev_polynomial_t_cpu',
  },
  specialChebyshevPolynomialU: {
    doc: 'The Chebyshev polynomial of the second kind U_n(x) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'chebyshev_polynomial_u_cpu',
  },
  specialChebyshevPolynomialV: {
    doc: 'The Chebyshev polynomial of the third kind V_n(x) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'chebyshev_polynomial_v_cpu',
  },
  specialChebyshevPolynomialW: {
    doc: 'The Chebyshev polynomial of the fourth kind W_n(x) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'chebyshev_polynomial_w_cpu',
  },
  specialShiftedChebyshevPolynomialT: {
    doc: 'The shifted Chebyshev polynomial of the first kind T_n(2x - 1) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'shifted_chebyshev_polynomial_t_cpu',
  },
  specialShiftedChebyshevPolynomialU: {
    doc: 'The shifted Chebyshev polynomial of the second kind U_n(2x - 1) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'shifted_chebyshev_polynomial_u_cpu',
  },
  specialShiftedChebyshevPolynomialV: {
    doc: 'The shifted Chebyshev polynomial of the third kind V_n(2x - 1) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'shifted_chebyshev_polynomial_v_cpu',
  },
  specialShiftedChebyshevPolynomialW: {
    doc: 'The shifted Chebyshev polynomial of the fourth kind W_n(2x - 1) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'shifted_chebyshev_polynomial_w_cpu',
  },
  specialHermitePolynomialH: {
    doc: 'The physicists\' Hermite polynomial H_n(x) of each pair (x, n) (nan above n = 128 in float32, 512 in float64).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'hermite_polynomial_h_cpu',
  },
  specialHermitePolynomialHe: {
    doc: 'The probabilists\' Hermite polynomial He_n(x) of each pair (x, n) (nan above n = 128 in float32, 512 in float64).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'hermite_polynomial_he_cpu',
  },
  specialLaguerrePolynomialL: {
    doc: 'The Laguerre polynomial L_n(x) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'laguerre_polynomial_l_cpu',
  },
  specialLegendrePolynomialP: {
    doc: 'The Legendre polynomial P_n(x) of each pair (x, n).',
    ...ORTHOGONAL_POLYNOMIAL,
    kernel: 'legendre_polynomial_p_cpu',
  },
  fmax: {
    doc: "C's fmax: the larger of self and other, a NaN operand ignored (maximum propagates it).",
    rule: 'promote',
    inplace: false,
    derivative: nanIgnoring('ge'),
  },
  fmin: {
    doc: "C's fmin: the smaller of self and other, a NaN operand ignored (minimum propagates it).",
    rule: 'promote',
    inplace: false,
    derivative: nanIgnoring('le'),
  },
  // Comparisons: computed in the promoted dtype (NaN compares unequal to everything, -0 equal to 0).
  eq: { doc: 'self == other for each element, as bool (NaN equals nothing).', rule: 'compare', scalarOther: true, derivative: COMPARISON },
  ne: { doc: 'self != other for each element, as bool (true where either is NaN).', rule: 'compare', scalarOther: true, derivative: COMPARISON },
  lt: { doc: 'self < other for each element, as bool.', rule: 'compare', scalarOther: true, derivative: COMPARISON },
  le: { doc: 'self <= other for each element, as bool.', rule: 'compare', scalarOther: true, derivative: COMPARISON },
  gt: { doc: 'self > other for each element, as bool.', rule: 'compare', scalarOther: true, derivative: COMPARISON },
  ge: { doc: 'self >= other for each element, as bool.', rule: 'compare', scalarOther: true, derivative: COMPARISON },
  // Logical ops: an element is true when nonzero (NaN included); PyTorch has no Scalar overload.
  logicalAnd: { doc: 'self and other for each element (nonzero is true), as bool.', rule: 'compare', derivative: LOGICAL },
  logicalOr: { doc: 'self or other for each element (nonzero is true), as bool.', rule: 'compare', derivative: LOGICAL },
  logicalXor: { doc: 'Exactly one of self and other for each element (nonzero is true), as bool.', rule: 'compare', derivative: LOGICAL },
  // Bitwise ops: a Scalar `other` is converted to the compute dtype with wrap-around, as
  // PyTorch does (`uint8 & -1` is `uint8 & 255`).
  bitwiseAnd: {
    doc: 'self & other for each element, in two\'s complement (integral and bool dtypes only).',
    rule: 'promote',
    kernel: 'bitwise_and_cpu',
    rejects: { floating: true },
    scalarOther: true,
    derivative: BITWISE,
  },
  bitwiseOr: {
    doc: 'self | other for each element, in two\'s complement (integral and bool dtypes only).',
    rule: 'promote',
    kernel: 'bitwise_or_cpu',
    rejects: { floating: true },
    scalarOther: true,
    derivative: BITWISE,
  },
  bitwiseXor: {
    doc: 'self ^ other for each element, in two\'s complement (integral and bool dtypes only).',
    rule: 'promote',
    kernel: 'bitwise_xor_cpu',
    rejects: { floating: true },
    scalarOther: true,
    derivative: BITWISE,
  },
} as const satisfies Readonly<Record<string, BinaryRow>>;

export type BinaryTableName = keyof typeof BINARY_TABLE;
