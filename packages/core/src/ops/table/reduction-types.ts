import type { KernelRepr, SchemaValues } from '../../dispatch/schema-types';
import type { Tensor } from '../../tensor/tensor';
import type { FrontArgs, FrontOptions } from '../front-types';
import type { NoDerivative, Rejects } from './types';

/**
 * The reduction rows of the op table (Note [The op table]: table/reduction.ts). A row is
 * `name.overload(Tensor self, <args>) -> Tensor` with its `name.overload_out`; its arguments
 * are written in PyTorch's schema syntax, and `dim` and `keepdim` are among them.
 */

/**
 * How a reduction picks its result dtype:
 *  - `sum`: integral and bool inputs accumulate in int64, the others in their own dtype;
 *    `dtype=` chooses another (sum, prod);
 *  - `floating`: the input's dtype, or `dtype=`, which must be floating (mean: PyTorch's
 *    "could not infer output dtype");
 *  - `self`: the input's dtype (amax, amin);
 *  - `index`: int64 positions (argmax, argmin);
 *  - `bool`: bool, or uint8 for a uint8 input (all, any: a legacy of masks); computes in bool;
 *  - `float`: integral and bool inputs in the default float dtype (logsumexp).
 */
export type ReductionDtypeRule = 'sum' | 'floating' | 'self' | 'index' | 'bool' | 'float';

/**
 * How core calls a row's impl (the impl types of backend-impls.ts):
 *  - `dims`: `(out, self, dims)`, ReduceImpl: `self` cast to the result dtype, `out` at the
 *    keepdim shape, the dims sorted and non-empty (Note [Reduction outputs]);
 *  - `rows`: `(out, self, rowLength)`: the reduced dims moved last and contiguous, in the compute
 *    dtype (Note [Row reductions]);
 *  - `index`: `(values, indices, self, dim)`, ArgReduceImpl, `values` null: along one dim (over
 *    every element: along a flat copy).
 */
export type ReductionKernel = 'dims' | 'rows' | 'index';

// ---- the argument text ----

/** The front end's schema of a row: `name(Tensor self, <args>, *, Tensor? out=None)`. */
type FrontSchemaOf<A extends string> = `reduction(Tensor self, ${A}, *, Tensor? out=None) -> Tensor`;

/** The keyword options of a row's front end: every argument but the required ones, and `out`. */
export type ReductionOptionsOf<A extends string> = FrontOptions<FrontSchemaOf<A>>;

/**
 * The parameters after `input` of a reduction whose arguments are the text `A`, derived as
 * every front end's are (Note [Front-end types come from the schema]).
 */
export type ReductionRest<A extends string> = FrontArgs<FrontSchemaOf<A>> extends infer L ? (L extends readonly [unknown, ...infer T] ? T : never) : never;

/**
 * The values of a row's arguments as its operators (and a Node) hold them, in schema order:
 * `int[1]? dim` as `number[] | null | undefined`, `ScalarType?` as a DType or None.
 */
export type ReductionArgs<A extends string> = string extends A ? readonly unknown[] : SchemaValues<`reduction(${A}) -> Tensor`, KernelRepr<never>>;

// ---- the derivative ----

/** What a reduction's formula reads besides `grad` and the arguments. */
export interface ReductionContext {
  /** The input's sizes (recorded, not saved: PyTorch's `self.sizes()`). */
  readonly sizes: readonly number[];
  /** The reduced dims, normalised and ascending (every dim where the call named none; none for a 0-dim input). */
  readonly dims: readonly number[];
  readonly keepdim: boolean;
  /** The input, where the row saves it. */
  readonly self: Tensor;
  /** The output, where the row saves it. */
  readonly result: Tensor;
}

/**
 * The derivative of a reduction, as derivatives.yaml writes it: a formula of `grad`, the
 * context (the input's sizes, the reduced dims, keepdim, the saved tensors) and the row's
 * arguments. (A method, as ActivationNode's: a row's formula reads its own arguments' types.)
 */
export interface ReductionDerivative<A extends string = string> {
  readonly saves: readonly ('self' | 'result')[];
  /**
   * PyTorch names the Node by the overload that ran: `${Name}Backward0` for the one without a
   * dim (`sum(x)`), `${Name}Backward1` for the one with a dim (`sum(x, 0)`): SumBackward0/1.
   * Default: `${Name}Backward0` always (AmaxBackward0).
   */
  readonly dimOverloadNodes?: true;
  formula(grad: Tensor, r: ReductionContext, args: ReductionArgs<A>): Tensor;
}

export interface ReductionRow<A extends string = string> {
  /** One line for docs/ops.md and the doc comment of the front end. */
  readonly doc: string;
  /** The dispatcher's overload name where PyTorch's operator has one (`dim_IntList`: `sum.dim_IntList`). */
  readonly overload?: string;
  /**
   * The arguments after `self`, in PyTorch's schema syntax with their defaults (`int[1]? dim=None,
   * bool keepdim=False, *, ScalarType? dtype=None`): the operators' schema and the front ends'
   * (positional in order, any by keyword). Types: int, int?, int[1], int[1]?, bool, ScalarType?;
   * `dim` and `keepdim` are required, `dtype` is the result dtype where given.
   */
  readonly args: A;
  readonly rule: ReductionDtypeRule;
  readonly reduces: ReductionKernel;
  /** Its impl in BackendImpls, of the type `reduces` says (mean's is `sum`, then `average`). */
  readonly impl: string;
  /** The result is divided by the number of elements each one reduces (mean: `sum`'s result over the count). */
  readonly average?: true;
  /**
   * `false`: no identity, so an empty reduced dim is an error (amax, amin: PyTorch's "Expected
   * reduction dim ... to have non-zero size"); an `index` row has none either.
   */
  readonly identity?: false;
  /** PyTorch's CPU kernel, named in the error for a dtype it rejects (argmax: `argmax_cpu`). */
  readonly kernel?: string;
  readonly rejects?: Pick<Rejects, 'bool'>;
  readonly derivative: ReductionDerivative<A> | NoDerivative;
}

/** A reduction row, its formula typed by its own arguments (`A` inferred from `args`; the row keeps its literal type). */
export function reductionRow<const A extends string, const R extends Omit<ReductionRow<A>, 'args'> = Omit<ReductionRow<A>, 'args'>>(
  row: R & { readonly args: A },
): R & { readonly args: A } {
  return row;
}
