import type { Tensor } from '../../tensor/tensor';

/**
 * Note [The op table]
 * An op of the table is declared once, as data, in the style of PyTorch's
 * native_functions.yaml + derivatives.yaml: one row holds its dtype rule and the dtypes
 * PyTorch's kernel rejects, its variants, its derivative, and a line of documentation.
 * Everything else is derived from the rows:
 *  - the structured operators (functional, in-place `name_`, `name.out`) and their meta
 *    (ops/pointwise-table.ts);
 *  - the front ends `torch.name` / `torch.name_` and the Tensor methods, with their types
 *    (ops/generated/table-ops.ts, written by scripts/gen-op-table.ts and kept current by
 *    a staleness test; the facade's re-exports are generated the same way);
 *  - KERNEL_OP_NAMES (op-names.ts) and the impl names of BackendImpls (backend-impls.ts), so
 *    a backend without the kernel, or autograd without the derivative, does not compile;
 *  - autograd's derivative entries (autograd's derivatives/table.ts);
 *  - the OpInfo entries of the test package, and from them docs/ops.md.
 * Adding a pointwise op takes four places: its row here, the CPU kernel, the WGSL
 * expression, the golden line (CONTRIBUTING.md, "Adding an op"); the compiler names any
 * other piece that is missing.
 * A row is keyed by its torch-ts name (`logicalAnd`), which is also its impl's name in
 * BackendImpls; the dispatcher's name is PyTorch's, the key in snake case (`logical_and`,
 * `dispatcherName`). Rows whose result has no gradient (comparisons, logical and bitwise ops:
 * derivatives.yaml's `output_differentiability: [False]`) declare why instead of a formula.
 */

/** `logicalAnd` -> `logical_and`: the dispatcher's (PyTorch's) name of a row. */
export type DispatcherName<K extends string> = K extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${DispatcherName<T>}`
  : K;

/** `DispatcherName` at run time (typed `string`: the compiler cannot follow the replacement). */
export function dispatcherName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * How a pointwise op picks its compute and result dtypes (TensorIterator's config):
 *  - `float`: integral and bool inputs compute in the default float dtype (exp, sin);
 *  - `promote`: the input's dtype (neg, floor);
 *  - `compare`: computes in the inputs' promoted dtype, the result is bool (eq,
 *    logical_and: PyTorch's comparison config); an in-place `self` or `out=` of another
 *    dtype receives 0 / 1 in its own dtype.
 */
export type UnaryDtypeRule = 'float' | 'promote' | 'compare';

/**
 * Compute dtypes PyTorch's kernel rejects: `bool` (the message names the row's `kernel`, or
 * is the given text), `integral` (floating only, as `frac_cpu`), `floating` (integral and bool
 * only, as `bitwise_and_cpu`).
 */
export interface Rejects {
  readonly bool?: true | string;
  readonly integral?: true;
  readonly floating?: true;
}

/**
 * A row whose result has no gradient (derivatives.yaml's `output_differentiability:
 * [False]`): autograd records no Node and the result never requires grad. `notDifferentiable`
 * says why (autograd's entry and the gradcheck suite's exclusion quote it).
 */
export interface NoDerivative {
  readonly notDifferentiable: string;
}

/**
 * The derivative of a unary op, as derivatives.yaml writes it: a formula of `grad` and of
 * one saved tensor (`self`, the input, or `result`, the output; none: the formula gets
 * `grad` again). Written with ordinary core ops, so double backward needs nothing more
 * (autograd's Note [Derivatives are data]).
 */
export interface UnaryDerivative {
  readonly saves: 'self' | 'result' | null;
  readonly formula: (grad: Tensor, saved: Tensor) => Tensor;
  /** PyTorch's Node name where it is not `${Name}Backward0` (`Log1PBackward0`). */
  readonly node?: string;
}

export interface UnaryRow {
  /** One line for docs/ops.md and the doc comment of the front end. */
  readonly doc: string;
  readonly rule: UnaryDtypeRule;
  /**
   * PyTorch's CPU kernel (`exp_vml_cpu`): named in the error for a dtype it rejects, and
   * by the test package for what PyTorch 1.13's CPU computes in half precision.
   */
  readonly kernel?: string;
  readonly rejects?: Rejects;
  /**
   * Where the op is finite and smooth, where that is not everywhere: `pos` (x > 0), `nonzero`
   * (a kink or pole at 0), `unit` (|x| < 1, or poles at ±pi/2), `above1` (x > 1). Tests draw
   * gradcheck inputs there.
   */
  readonly domain?: 'pos' | 'nonzero' | 'unit' | 'above1';
  /** F.relu's `inplace=False` argument: the F.* spelling of the in-place form. */
  readonly inplaceArg?: boolean;
  readonly derivative: UnaryDerivative | NoDerivative;
}

/** The tensors a binary formula reads; `other` is the number itself where the Scalar overload ran. */
export interface BinarySaved {
  readonly self?: Tensor;
  readonly other?: Tensor | number | bigint | boolean;
  readonly result?: Tensor;
}

/**
 * The derivative of a binary op, as derivatives.yaml writes it: the gradients of `self` and
 * `other` from `grad` and the saved tensors (`name@input` saves `name` only when `input` needs
 * a gradient, as PyTorch's codegen does); an entry `needs` does not ask for may be null.
 */
export interface BinaryDerivative {
  readonly saves: readonly string[];
  readonly formula: (grad: Tensor, saved: BinarySaved, needs: readonly boolean[]) => readonly [Tensor | null, Tensor | null];
  /**
   * PyTorch names the Node of an op with a Scalar overload by the overload that ran: the
   * Scalar one `${Name}Backward0`, the Tensor one `${Name}Backward1` (fmod).
   */
  readonly scalarOverloadNodes?: boolean;
}

/**
 * A binary row without a gradient. `inplace`: the Node its in-place form records where that
 * form may write into a tensor that requires grad (`x.eq_(y)` on a float `x`: PyTorch records
 * `EqBackward0/1`, whose gradients are zeros: `self: zeros_like(self)`).
 */
export interface BinaryNoDerivative extends NoDerivative {
  readonly inplace?: BinaryDerivative;
}

export interface BinaryRow {
  readonly doc: string;
  readonly rule: UnaryDtypeRule;
  readonly kernel?: string;
  readonly rejects?: Rejects;
  /** `other` may be a number (PyTorch has a Scalar overload). */
  readonly scalarOther?: boolean;
  /** Whether `name_` exists (default true; fmax and fmin have none, as in PyTorch). */
  readonly inplace?: boolean;
  /** Where each operand keeps the op smooth (UnaryRow's `domain`), for gradcheck. */
  readonly domain?: readonly [UnaryRow['domain'] | 'any', UnaryRow['domain'] | 'any'];
  readonly derivative: BinaryDerivative | BinaryNoDerivative;
}
