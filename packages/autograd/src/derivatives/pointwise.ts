import { isfinite, mul, where, zerosLike } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';
import { savedTensor } from './common';
import { unaryDerivative } from './table';

/**
 * Pointwise derivatives, as PyTorch's derivatives.yaml writes them. The engine sums each
 * result down to its input's (broadcast) shape and casts it to the input's dtype, so the
 * formulas work at the output's shape and dtype.
 */

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
  nan_to_num: NanToNumBackward0,
  nan_to_num_: NanToNumBackward0,
  round: RoundBackward,
  round_: RoundBackward,
  where: WhereBackward0,
  // the gradient of a Gamma sample, whose own derivative PyTorch does not implement
  _standard_gamma_grad: { notDifferentiable: "PyTorch's derivative of _standard_gamma_grad is not implemented" },
} satisfies DerivativeFamily;
