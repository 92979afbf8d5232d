import { isfinite, eq, ge, log, mul, pow, sub, where, zerosLike } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { operand, savedTensor, scalarNumber } from './common';
import { unaryDerivative } from './table';

/**
 * Pointwise derivatives, as PyTorch's derivatives.yaml writes them. The engine sums each
 * result down to its input's (broadcast) shape and casts it to the input's dtype, so the
 * formulas work at the output's shape and dtype.
 */

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
  pow: PowBackward,
  pow_: PowBackward,
  nan_to_num: NanToNumBackward0,
  nan_to_num_: NanToNumBackward0,
  round: RoundBackward,
  round_: RoundBackward,
  where: WhereBackward0,
} satisfies DerivativeFamily;
