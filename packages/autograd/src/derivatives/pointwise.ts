import { isfinite, div, eq, ge, log, mul, neg, pow, sub, where, zerosLike } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { operand, savedTensor, scalarNumber } from './common';
import { unaryDerivative } from './table';

/**
 * Pointwise derivatives, as PyTorch's derivatives.yaml writes them. The engine sums each
 * result down to its input's (broadcast) shape and casts it to the input's dtype, so the
 * formulas work at the output's shape and dtype.
 */

const AddBackward0: DerivativeOf<'add'> = {
  name: 'AddBackward0',
  inputs: ['self', 'other'],
  saves: [],
  backward: ({ grad, args, needs }) => {
    const alpha = scalarNumber(args[2], 1);
    return [needs[0] ? grad : null, needs[1] ? (alpha === 1 ? grad : mul(grad, alpha)) : null];
  },
};

const SubBackward0: DerivativeOf<'sub'> = {
  name: 'SubBackward0',
  inputs: ['self', 'other'],
  saves: [],
  backward: ({ grad, args, needs }) => {
    const alpha = scalarNumber(args[2], 1);
    return [needs[0] ? grad : null, needs[1] ? (alpha === 1 ? neg(grad) : mul(grad, -alpha)) : null];
  },
};

/**
 * div: self gets grad / other, other gets -grad * self / other^2. With a rounding mode div is
 * piecewise constant and both gradients are zero (`grad * 0`, so nan stays nan), as in PyTorch.
 */
const DivBackward: DerivativeOf<'div'> = {
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
const PowBackward: DerivativeOf<'pow'> = {
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

const WhereBackward0: DerivativeOf<'where'> = {
  name: 'WhereBackward0',
  inputs: ['self', 'other'],
  saves: ['condition'],
  backward: (ctx) => {
    const { grad, needs } = ctx;
    const cond = savedTensor(ctx, 'condition', 'where');
    return [needs[0] ? where(cond, grad, 0) : null, needs[1] ? where(cond, 0, grad) : null];
  },
};

const unary = unaryDerivative;

// nan_to_num: grad * at::isfinite(self)
const NanToNumBackward0 = unary('NanToNumBackward0', 'self', (g, x) => mul(g, isfinite(x)));
// round() is RoundBackward0, round(decimals=) RoundBackward1, as PyTorch's two overloads
const RoundBackward: DerivativeOf<'round'> = {
  ...unary('RoundBackward0', null, (g) => zerosLike(g)),
  name: (args) => (args[1] == null ? 'RoundBackward0' : 'RoundBackward1'),
};

export const POINTWISE_DERIVATIVES = {
  add: AddBackward0,
  add_: AddBackward0,
  sub: SubBackward0,
  sub_: SubBackward0,
  div: DivBackward,
  div_: DivBackward,
  pow: PowBackward,
  pow_: PowBackward,
  nan_to_num: NanToNumBackward0,
  nan_to_num_: NanToNumBackward0,
  round: RoundBackward,
  round_: RoundBackward,
  where: WhereBackward0,
} satisfies DerivativeFamily;
