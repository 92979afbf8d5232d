import { BINARY_TABLE, UNARY_TABLE, type BinaryRow, type BinaryTableName, type Tensor, type UnaryDerivative, type UnaryTableName } from '@torch-ts/core';
import type { Derivative, DerivativeArgs, DerivativeContext } from '../derivative';
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

// Object.fromEntries cannot type its keys: the two casts below state that they are the rows'
// operators (the derivative test checks the table's keys against KERNEL_OP_NAMES at run time).
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

type BinaryKernelOp = { [K in BinaryTableName]: (typeof BINARY_TABLE)[K] extends { readonly inplace: false } ? K : K | `${K}_` }[BinaryTableName];

/**
 * A binary row's Node: `other` reaches the formula as the number itself where the Scalar
 * overload ran (only tensors are taken out of `args`: Note [Derivative arguments]). Typed by
 * the arguments of every row's operators (`(Tensor self, Tensor other)` each).
 */
function binaryDerivative(op: string, row: BinaryRow): Derivative<DerivativeArgs<BinaryKernelOp>> {
  const node = `${op[0].toUpperCase()}${op.slice(1)}Backward`;
  const d = row.derivative;
  return {
    // fmod.Scalar records FmodBackward0, fmod.Tensor FmodBackward1
    name: d.scalarOverloadNodes ? (args) => `${node}${args[1] === null ? 1 : 0}` : `${node}0`,
    inputs: ['self', 'other'],
    saves: d.saves,
    backward: (ctx) => {
      const { saved } = ctx;
      return d.formula(ctx.grad, { self: saved.self, other: saved.other ?? ctx.args[1] ?? undefined, result: saved.result }, ctx.needs);
    },
  };
}

export const BINARY_TABLE_DERIVATIVES = Object.fromEntries(
  Object.entries(BINARY_TABLE).flatMap(([op, row]: [string, BinaryRow]) => {
    const entry = binaryDerivative(op, row);
    return row.inplace === false ? [[op, entry]] : [[op, entry], [`${op}_`, entry]];
  }),
) as { readonly [K in BinaryKernelOp]: ReturnType<typeof binaryDerivative> };
