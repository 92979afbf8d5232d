import type { DType, KernelOpName, OpSchemas, Scalar, SchemaValues, Tensor, ValueRepr } from '@torch-ts/core';

/**
 * Note [Derivatives are data]
 * One entry per differentiable op, keyed by the op's dispatcher name (`add`, `add_`,
 * `sum.dim_IntList`), like PyTorch's derivatives.yaml. A formula is written with ordinary
 * core ops on Tensor handles, so when the engine runs it with `createGraph` the formula's
 * own ops are recorded and double backward needs nothing more.
 * What a formula may rely on:
 *  - `grad` is the gradient of the op's (first) output, `grads` of every output (null for an
 *    output that received none); both have the output's shape and dtype;
 *  - `saved` holds the tensors named in `saves` (schema argument names, or `result`),
 *    captured at forward time as PyTorch's SavedVariables are (version-checked on use);
 *  - `args` is the op's boxed argument list without its tensors (read tensors from `saved`,
 *    plain values such as dims from `args`), typed from the op's schema (Note [Derivative
 *    arguments]);
 *  - `needs[i]` says whether input i (in `inputs` order) needs a gradient; return null for
 *    an input that does not, or that has no gradient (integer inputs, a mask);
 * and what it need not do: undo broadcasting or cast to the input's dtype. The engine sums a
 * gradient down to its input's shape (once, not in each formula) and casts it to the input's
 * dtype, as PyTorch's autograd does.
 * Every handle a formula creates other than its results is released by the engine (it runs
 * the formula inside `tidy`).
 */
export interface DerivativeContext<A extends readonly unknown[] = readonly unknown[]> {
  readonly grad: Tensor;
  readonly grads: readonly (Tensor | null)[];
  readonly saved: Readonly<Record<string, Tensor>>;
  readonly args: Readonly<A>;
  readonly needs: readonly boolean[];
  /** Sizes, dtype and device of each input (in `inputs` order): a formula that only needs an
   * input's shape reads it here instead of saving the tensor (which an in-place change of
   * the input would then invalidate). */
  readonly inputs: readonly ({
    readonly sizes: readonly number[];
    readonly strides: readonly number[];
    readonly storageOffset: number;
    readonly dtype: DType;
  } | null)[];
}

/**
 * The derivative of an op whose Node keeps the arguments `A` (`DerivativeOf<'sum.dim_IntList'>`
 * for one op's; the default, any argument list, for a formula that reads none or checks them).
 */
export interface Derivative<A extends readonly unknown[] = readonly unknown[]> {
  /**
   * The Node's name, as PyTorch's: `AddBackward0`, `MmBackward0`. A function of the op's
   * (tensor-free) arguments where PyTorch's name depends on the overload that ran: `sum()` is
   * SumBackward0 and `sum(dim)` SumBackward1, a scalar exponent PowBackward0 and a tensor one
   * PowBackward1.
   */
  readonly name: string | ((args: Readonly<A>) => string);
  /** Names of the schema arguments that are differentiable tensor inputs, in order. */
  readonly inputs: readonly string[];
  /**
   * Schema argument names and/or `result` (`result0`, `result1` for several outputs) the
   * formula reads; `name@input` saves `name` only when `input` needs a gradient (mul saves
   * `self@other` and `other@self`), as PyTorch's codegen does.
   */
  readonly saves: readonly string[];
  /** One gradient per input (null: none). */
  readonly backward: (ctx: DerivativeContext<A>) => readonly (Tensor | null)[];
  /**
   * The JVP, one tangent per output (null: none), where the one derived from `backward` will
   * not do (Note [JVPs from backward formulas]); returning null falls back to that one.
   */
  readonly forward?: (ctx: ForwardContext<A>) => readonly (Tensor | null)[] | null;
}

/** What a forward formula reads: detached primals, with no tangents of their own (Note [Forward-mode AD]). */
export interface ForwardContext<A extends readonly unknown[] = readonly unknown[]> {
  /** The tangent of each input (in `inputs` order), null where it has none. */
  readonly tangents: readonly (Tensor | null)[];
  /** The inputs' values (an in-place op's `self` as it was before the op). */
  readonly primals: readonly (Tensor | null)[];
  /** The op's outputs. */
  readonly results: readonly Tensor[];
  readonly args: Readonly<A>;
  /**
   * Every schema argument's tensors, detached, the non-differentiable ones (indices, masks)
   * included: a tensor argument as a Tensor, a tensor list as a list (null entries kept),
   * anything else null. An in-place op's `self` is its value before the op.
   */
  readonly tensorArgs: readonly (Tensor | readonly (Tensor | null)[] | null)[];
}

/**
 * Ops that produce no gradient (comparisons, argmax, detach): the engine records nothing
 * and their outputs never require grad.
 */
export interface NotDifferentiable {
  readonly notDifferentiable: string;
}

export type DerivativeEntry<A extends readonly unknown[] = readonly unknown[]> = Derivative<A> | NotDifferentiable;

/**
 * Note [Derivative arguments]
 * A Node keeps its op's boxed arguments with the tensors taken out (kernels.ts `nodeArgs`;
 * a formula reads tensors from `saved`), and a formula reads dims, flags and scalars from
 * them. Their types come from the op's schema (Note [Schema types] in core,
 * through the generated OpSchemas), in the kernels' representation (a dtype is a DType,
 * None is null or undefined) with each Tensor slot as the Node holds it:
 *  - a Tensor: null, or the number itself where a pointwise op took a plain number for it
 *    (Note [Checking kernel arguments] in core: the wrapped-number convention), so a
 *    formula tells a Scalar overload by it (`other` of `pow`, `min` of `clamp`);
 *  - a Tensor[] (cat's `tensors`, index's `Tensor?[]`): null when it holds a tensor (the
 *    list as it was when it holds none: empty, or only Nones).
 */
interface RemovedTensor {
  // a brand no value has: only the mapping below ever sees this type
  readonly __removedTensor: never;
}

interface NodeArgRepr extends ValueRepr {
  readonly tensor: RemovedTensor;
  readonly self: RemovedTensor;
  readonly none: null | undefined;
  readonly dtype: DType;
}

type NodeValue<T> = T extends RemovedTensor
  ? null | Scalar
  : T extends readonly (infer E)[]
    ? RemovedTensor extends E
      ? null | Exclude<E, RemovedTensor>[]
      : T
    : T;

type NodeValues<T extends readonly unknown[]> = { [I in keyof T]: NodeValue<T[I]> };

/** The arguments a Node of an op of schema `S` keeps (Note [Derivative arguments]). */
export type NodeArgs<S extends string> = NodeValues<SchemaValues<S, NodeArgRepr>>;

/** The arguments the Node of op `K` keeps. */
export type DerivativeArgs<K extends keyof OpSchemas> = NodeArgs<OpSchemas[K]>;

/** The derivative of op `K`, its formula reading `K`'s arguments. */
export type DerivativeOf<K extends keyof OpSchemas> = Derivative<DerivativeArgs<K>>;

/** The derivative table: one entry per op with kernels, each typed by its op's schema. */
export type DerivativeTable = { readonly [K in KernelOpName]: DerivativeEntry<DerivativeArgs<K>> };

/** One family's part of the table (a file's object literal, checked with `satisfies`). */
export type DerivativeFamily = Partial<DerivativeTable>;
