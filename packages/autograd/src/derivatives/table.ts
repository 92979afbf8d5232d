import { UNARY_TABLE, type Tensor, type UnaryDerivative, type UnaryTableName } from '@torch-ts/core';
import type { Derivative, DerivativeContext } from '../derivative';
import { savedTensor } from './common';

/**
 * The derivatives of the op table's rows (Note [The op table] in core): each row's formula
 * becomes the Node of its functional and in-place operators, named as PyTorch names it
 * (`ExpBackward0`).
 */

/** `log1p` -> `Log1pBackward0` (a row's `node` overrides it where PyTorch spells it otherwise). */
const nodeName = (op: string, d: UnaryDerivative) => d.node ?? `${op[0].toUpperCase()}${op.slice(1)}Backward0`;

/** A one-input formula of `grad` and one saved tensor. */
export function unaryDerivative(name: string, saves: 'self' | 'result' | null, formula: (grad: Tensor, x: Tensor) => Tensor): Derivative {
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

export const TABLE_DERIVATIVES = Object.fromEntries(
  Object.entries(UNARY_TABLE).flatMap(([op, row]) => {
    const d: UnaryDerivative = row.derivative;
    const entry = unaryDerivative(nodeName(op, d), d.saves, d.formula);
    return [
      [op, entry],
      [`${op}_`, entry],
    ];
  }),
) as { readonly [K in UnaryTableName | `${UnaryTableName}_`]: Derivative };
