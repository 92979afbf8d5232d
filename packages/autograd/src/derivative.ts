import type { Tensor } from '@torch-ts/core';

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
 *  - `args` is the op's boxed argument list (TensorImpls replaced by `saved` handles are not
 *    there: read tensors from `saved`, plain values such as dims from `args`);
 *  - `needs[i]` says whether input i (in `inputs` order) needs a gradient; return null for
 *    an input that does not, or that has no gradient (integer inputs, a mask);
 * and what it need not do: undo broadcasting or cast to the input's dtype. The engine sums a
 * gradient down to its input's shape (once, not in each formula) and casts it to the input's
 * dtype, as PyTorch's autograd does.
 * Every handle a formula creates other than its results is released by the engine (it runs
 * the formula inside `tidy`).
 */
export interface DerivativeContext {
  readonly grad: Tensor;
  readonly grads: readonly (Tensor | null)[];
  readonly saved: Readonly<Record<string, Tensor>>;
  readonly args: readonly unknown[];
  readonly needs: readonly boolean[];
  /** Sizes, dtype and device of each input (in `inputs` order): a formula that only needs an
   * input's shape reads it here instead of saving the tensor (which an in-place change of
   * the input would then invalidate). */
  readonly inputs: readonly ({
    readonly sizes: readonly number[];
    readonly strides: readonly number[];
    readonly storageOffset: number;
    readonly dtype: string;
  } | null)[];
}

export interface Derivative {
  /**
   * The Node's name, as PyTorch's: `AddBackward0`, `MmBackward0`. A function of the op's
   * (tensor-free) arguments where PyTorch's name depends on the overload that ran: `sum()` is
   * SumBackward0 and `sum(dim)` SumBackward1, a scalar exponent PowBackward0 and a tensor one
   * PowBackward1.
   */
  readonly name: string | ((args: readonly unknown[]) => string);
  /** Names of the schema arguments that are differentiable tensor inputs, in order. */
  readonly inputs: readonly string[];
  /**
   * Schema argument names and/or `result` (`result0`, `result1` for several outputs) the
   * formula reads; `name@input` saves `name` only when `input` needs a gradient (mul saves
   * `self@other` and `other@self`), as PyTorch's codegen does.
   */
  readonly saves: readonly string[];
  /** One gradient per input (null: none). */
  readonly backward: (ctx: DerivativeContext) => readonly (Tensor | null)[];
}

/**
 * Ops that produce no gradient (comparisons, argmax, detach): the engine records nothing
 * and their outputs never require grad.
 */
export interface NotDifferentiable {
  readonly notDifferentiable: string;
}

export type DerivativeEntry = Derivative | NotDifferentiable;
