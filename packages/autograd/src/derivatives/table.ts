import {
  ACTIVATION_OPS,
  ACTIVATION_TABLE,
  ACTIVATION_TABLE_NAMES,
  BINARY_OPS,
  BINARY_TABLE,
  BINARY_TABLE_NAMES,
  dispatcherName,
  TERNARY_OPS,
  TERNARY_TABLE,
  TERNARY_TABLE_NAMES,
  type TernaryRow,
  type TernarySaved,
  type TernaryTableName,
  REDUCTION_TABLE,
  REDUCTION_TABLE_NAMES,
  reductionOperators,
  UNARY_TABLE,
  type ActivationNode,
  type ActivationRow,
  type ActivationTableName,
  type BinaryDerivative,
  type BinaryRow,
  type BinaryTableName,
  type DispatcherName,
  type ReductionContext,
  type ReductionDerivative,
  type ReductionOperatorName,
  type ReductionRow,
  type ReductionTableName,
  type Tensor,
  type UnaryDerivative,
  type UnaryRow,
  type UnaryTableName,
} from '@torch-ts/core';
import type { Derivative, DerivativeArgs, DerivativeContext, DerivativeEntry } from '../derivative';
import { inputSizes, reducedDims, savedTensor } from './common';

/**
 * The derivatives of the op table's rows (Note [The op table] in core): each row's formula
 * becomes the Node of its functional and in-place operators, named as PyTorch names it
 * (`ExpBackward0`), keyed by the operators' dispatcher names (`logical_and`); a row without a
 * gradient becomes a NotDifferentiable entry with its reason.
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
  Object.entries(UNARY_TABLE).flatMap(([op, row]: [string, UnaryRow]) => {
    const d = row.derivative;
    const entry: DerivativeEntry = 'notDifferentiable' in d ? { notDifferentiable: d.notDifferentiable } : unaryDerivative(nodeName(op, d), d.saves, d.formula);
    const name = dispatcherName(op);
    return [
      [name, entry],
      [`${name}_`, entry],
    ];
  }),
) as { readonly [K in UnaryTableName as DispatcherName<K> | `${DispatcherName<K>}_`]: DerivativeEntry };

type BinaryKernelOp = {
  [K in BinaryTableName]: (typeof BINARY_TABLE)[K] extends { readonly inplace: false } ? DispatcherName<K> : DispatcherName<K> | `${DispatcherName<K>}_`;
}[BinaryTableName];
type BinaryEntry = DerivativeEntry<DerivativeArgs<BinaryKernelOp>>;

/** A Node named by the overload that ran: a number `self` (args[0]), a number `other` (args[1]), or two tensors. */
function overloadNode(base: string, [tensor, scalarSelf, scalarOther]: readonly [number, number, number]) {
  return (args: readonly unknown[]): string => `${base}${args[0] !== null ? scalarSelf : args[1] !== null ? scalarOther : tensor}`;
}

/**
 * A binary row's Node: `other` reaches the formula as the number itself where the Scalar
 * overload ran (only tensors are taken out of `args`: Note [Derivative arguments]). Typed by
 * the arguments of every row's operators (`(Tensor self, Tensor other)` each).
 */
function binaryDerivative(op: BinaryTableName, d: BinaryDerivative): Derivative<DerivativeArgs<BinaryKernelOp>> {
  // (`logicalAnd` -> LogicalAndBackward0: PyTorch's CamelCase of `logical_and`)
  const node = `${op[0].toUpperCase()}${op.slice(1)}Backward`;
  const read = BINARY_OPS[op].args;
  const named = d.node;
  return {
    // fmod.Scalar records FmodBackward0, fmod.Tensor FmodBackward1, pow.Scalar (a number
    // self) PowBackward2; div with a rounding mode DivBackward2
    name: named
      ? (args) => named(read(args))
      : d.overloadNodes
        ? overloadNode(d.overloadNodes.base ?? node, d.overloadNodes.numbers)
        : d.scalarOverloadNodes
          ? (args) => `${node}${args[0] !== null ? 2 : args[1] === null ? 1 : 0}`
          : `${node}0`,
    inputs: ['self', 'other'],
    saves: d.saves,
    backward: (ctx) => {
      const { saved } = ctx;
      const { args } = ctx;
      return d.formula(ctx.grad, { self: saved.self ?? args[0] ?? undefined, other: saved.other ?? args[1] ?? undefined, result: saved.result }, ctx.needs, read(args));
    },
  };
}

/** The functional's entry and the in-place form's (a row without a gradient may still give `name_` a Node: eq_). */
function binaryEntries(op: BinaryTableName, row: BinaryRow): [BinaryEntry, BinaryEntry] {
  const d = row.derivative;
  if (!('notDifferentiable' in d)) {
    const entry = binaryDerivative(op, d);
    return [entry, entry];
  }
  const none = { notDifferentiable: d.notDifferentiable };
  return [none, d.inplace ? binaryDerivative(op, d.inplace) : none];
}

export const BINARY_TABLE_DERIVATIVES = Object.fromEntries(
  BINARY_TABLE_NAMES.flatMap((op) => {
    const row: BinaryRow = BINARY_TABLE[op];
    const name = dispatcherName(op);
    const [functional, inplace] = binaryEntries(op, row);
    return row.inplace === false ? [[name, functional]] : [[name, functional], [`${name}_`, inplace]];
  }),
) as { readonly [K in BinaryKernelOp]: BinaryEntry };

// ---- the activation rows ----
type ActivationKernelOp = {
  [K in ActivationTableName]: (typeof ACTIVATION_TABLE)[K] extends { readonly inplace: false } ? DispatcherName<K> : DispatcherName<K> | `${DispatcherName<K>}_`;
}[ActivationTableName];

/**
 * An activation row's Node: the formula gets the row's arguments as its impl gets them
 * (ACTIVATION_OPS' `args`: defaults filled in, from the Node's arguments, `self` first).
 */
function activationDerivative(op: ActivationTableName, d: ActivationNode): Derivative {
  const name = d.node ?? `${op[0].toUpperCase()}${op.slice(1)}Backward0`;
  const args = ACTIVATION_OPS[op].args;
  return {
    name,
    inputs: ['self'],
    saves: [d.saves],
    backward: (ctx: DerivativeContext) => {
      if (!ctx.needs[0]) return [null];
      return [d.formula(ctx.grad, savedTensor(ctx, d.saves, name), args(ctx.args))];
    },
  };
}

export const ACTIVATION_TABLE_DERIVATIVES = Object.fromEntries(
  ACTIVATION_TABLE_NAMES.flatMap((op): [string, DerivativeEntry][] => {
    const row: ActivationRow = ACTIVATION_TABLE[op];
    const name = dispatcherName(op);
    const d = row.derivative;
    if ('notDifferentiable' in d) {
      const entry: DerivativeEntry = { notDifferentiable: d.notDifferentiable };
      return row.inplace === false ? [[name, entry]] : [[name, entry], [`${name}_`, entry]];
    }
    const functional = activationDerivative(op, d);
    if (row.inplace === false) return [[name, functional]];
    return [
      [name, functional],
      [`${name}_`, d.inplace ? activationDerivative(op, d.inplace) : functional],
    ];
  }),
) as { readonly [K in ActivationKernelOp]: DerivativeEntry };

// ---- the ternary rows ----

/**
 * A ternary row's Node (lerp, addcmul, addcdiv): the formula reads the saved operands by the
 * row's names, the last one as the number itself where its Scalar overload ran (lerp.Scalar
 * records LerpBackward0, lerp.Tensor LerpBackward1), and the row's arguments.
 */
function ternaryDerivative(op: TernaryTableName, row: TernaryRow): Derivative {
  const d = row.derivative;
  const node = `${op[0].toUpperCase()}${op.slice(1)}Backward`;
  const read = TERNARY_OPS[op].args;
  const names = row.operands;
  return {
    name: d.scalarOverloadNodes ? (args) => `${node}${args[2] === null ? 1 : 0}` : `${node}0`,
    inputs: names,
    saves: d.saves,
    backward: (ctx: DerivativeContext) => {
      const { args } = ctx;
      const saved: Record<string, TernarySaved[string]> = { result: ctx.saved.result };
      for (let i = 0; i < names.length; i++) {
        const a = args[i];
        saved[names[i]] = ctx.saved[names[i]] ?? (typeof a === 'number' || typeof a === 'bigint' || typeof a === 'boolean' ? a : undefined);
      }
      return d.formula(ctx.grad, saved, ctx.needs, read(args));
    },
  };
}

// ---- the reduction rows ----
type ReductionKernelOp = { [K in ReductionTableName]: ReductionOperatorName<K> }[ReductionTableName];

/** What a reduction's formula reads (ReductionContext); the saved tensors are looked up when it reads them. */
class NodeReduction implements ReductionContext {
  constructor(
    private readonly ctx: DerivativeContext,
    private readonly op: string,
    readonly sizes: readonly number[],
    readonly dims: readonly number[],
    readonly keepdim: boolean,
  ) {}

  get self(): Tensor {
    return savedTensor(this.ctx, 'self', this.op);
  }

  get result(): Tensor {
    return savedTensor(this.ctx, 'result', this.op);
  }
}

/**
 * A reduction row's Node: the formula reads the input's sizes (recorded, not saved), the reduced
 * dims (normalised, ascending; every dim where the call named none) and keepdim, read from the
 * Node's arguments by the row's operators, the tensors the row saves, and the row's arguments.
 */
function reductionDerivative(key: ReductionTableName, d: ReductionDerivative): Derivative {
  const ops = reductionOperators(key);
  const op = ops.op.name;
  const node = `${key[0].toUpperCase()}${key.slice(1)}Backward`;
  return {
    // sum() records SumBackward0, sum(dim) SumBackward1
    name: d.dimOverloadNodes ? (args) => `${node}${ops.dims(args) === null ? 0 : 1}` : `${node}0`,
    inputs: ['self'],
    saves: d.saves,
    backward: (ctx: DerivativeContext) => {
      if (!ctx.needs[0]) return [null];
      const sizes = inputSizes(ctx, 0, op);
      const r = new NodeReduction(ctx, op, sizes, reducedDims(op, ops.dims(ctx.args), sizes.length), ops.keepdim(ctx.args));
      return [d.formula(ctx.grad, r, ctx.args.slice(1))];
    },
  };
}

export const TERNARY_TABLE_DERIVATIVES = Object.fromEntries(
  TERNARY_TABLE_NAMES.flatMap((op) => {
    const entry = ternaryDerivative(op, TERNARY_TABLE[op]);
    const name = dispatcherName(op);
    return [
      [name, entry],
      [`${name}_`, entry],
    ];
  }),
) as { readonly [K in TernaryTableName as DispatcherName<K> | `${DispatcherName<K>}_`]: DerivativeEntry };

export const REDUCTION_TABLE_DERIVATIVES = Object.fromEntries(
  REDUCTION_TABLE_NAMES.map((key) => {
    const row: ReductionRow = REDUCTION_TABLE[key];
    const d = row.derivative;
    const entry: DerivativeEntry = 'notDifferentiable' in d ? { notDifferentiable: d.notDifferentiable } : reductionDerivative(key, d);
    return [reductionOperators(key).op.name, entry];
  }),
) as { readonly [K in ReductionKernelOp]: DerivativeEntry };
