import type { SplitArgs } from '../../dispatch/schema-types';
import type { DType } from '../../dtype';
import type { Tensor } from '../../tensor/tensor';
import type { TensorImpl } from '../../tensor/tensor-impl';
import type { BackendImpls, ImplName } from '../backend-impls';
import type { Scalar } from '../meta-utils';

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
 *    a staleness test; the facade's re-exports, torch.* and torch.nn.functional's, are
 *    generated the same way);
 *  - KERNEL_OP_NAMES (op-names.ts) and the impl names (and, for the activations, the
 *    parameter types) of BackendImpls (backend-impls.ts), so a backend without the kernel,
 *    or autograd without the derivative, does not compile;
 *  - autograd's derivative entries (autograd's derivatives/table.ts);
 *  - the OpInfo entries of the test package, and from them docs/ops.md.
 * Adding a pointwise op takes four places: its row, the CPU kernel, the WGSL expression,
 * the golden line (CONTRIBUTING.md, "Adding an op"); the compiler names any other piece
 * that is missing.
 * A row is keyed by its torch-ts name (`logicalAnd`), which is also its impl's name in
 * BackendImpls; the dispatcher's name is PyTorch's, the key in snake case (`logical_and`,
 * `dispatcherName`). Rows whose result has no gradient (comparisons, logical and bitwise ops:
 * derivatives.yaml's `output_differentiability: [False]`) declare why instead of a formula.
 *
 * Five kinds of row: unary (table/unary.ts, `name(Tensor self)`), binary (table/binary.ts,
 * `name(Tensor self, Tensor other)`, and keyword-only arguments where the row declares them:
 * add's `*, Scalar alpha=1`, div's `*, str? rounding_mode=None`), ternary (table/ternary.ts,
 * `lerp(Tensor self, Tensor end, Tensor weight)`), unary with arguments (table/activation.ts:
 * the activations, `leaky_relu(Tensor self, Scalar negative_slope=0.01)`), and reductions
 * (table/reduction.ts, types in table/reduction-types.ts: `sum.dim_IntList(Tensor self, int[1]?
 * dim=None, bool keepdim=False, *, ScalarType? dtype=None)`; operators and front ends in
 * ops/reduction-table.ts). A reduction's row says its result dtype rule, its impl and how core
 * calls it (ReduceImpl over dims, a row impl, or an index along one dim), whether an empty
 * reduced dim is an error, and a formula of `grad`, the reduced dims, keepdim, the input's
 * sizes and the saved tensors; its arguments type the front ends (`x.sum(0, true)`,
 * `x.sum({ dtype })`) and the formula, as an activation's do. An activation's row
 * writes its arguments in PyTorch's schema syntax, with their defaults; the schema, the front
 * ends' binders and types (positional in schema order, any by keyword), the impl's parameter
 * types and the values its check and formula read are all derived from that text (its
 * formulas and checks are typed by it: `[slope]` is a number). What F.* spells differently
 * is data too: `frontArgs` (F.elu takes alpha only; the kernel also scale and input_scale,
 * which F.elu leaves at their defaults), `inplaceArg` (F.*'s `inplace=False`),
 * `nnFunctional` (whether torch.nn.functional has it, and its `name_`), `method` (whether
 * Tensor has it: only logit), `choices` (gelu's approximate, checked with PyTorch's
 * message), `check` (hardtanh's unsigned limits), and an in-place form's own Node
 * (LeakyReluBackward1, EluBackward1). Composites over rows (selu, relu6: ops/activations.ts)
 * are not rows: they need no kernel and no derivative.
 * A binary row's arguments work the same way (binaryRow: a Scalar reaches its check, compute
 * and formula as given, number, bigint or boolean, so int64 alphas stay exact and a bool alpha
 * can be refused); a row whose kernel is not the impl of its name says how it computes
 * (`compute`: sub is `add` with -alpha, div picks its impl by rounding mode, pow has PyTorch's
 * special scalar exponents) and has no impl of its own (TableBinaryImplName). `scalarSelf`
 * gives the function form PyTorch's number-`self` overload (`torch.pow(2, x)`).
 * Ternary rows (table/ternary.ts: lerp, addcmul, addcdiv) name their operands as PyTorch's
 * schema does (`self, end, weight`), which the operators, the front ends' keywords and the
 * formulas' saved tensors take; `scalarLast` gives the last operand PyTorch's Scalar overload
 * (lerp's weight, LerpBackward0 / LerpBackward1). Their impls take more than the operands, so
 * each says how it computes.
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
 * only, as `bitwise_and_cpu`), `reducedFloating` (float16 and bfloat16: a kernel dispatched
 * with AT_DISPATCH_FLOATING_TYPES, float32 and float64 only, as `chebyshev_polynomial_t_cpu`;
 * with the `float` rule integral and bool inputs still compute in the default float dtype).
 */
export interface Rejects {
  readonly bool?: true | string;
  readonly integral?: true;
  readonly floating?: true;
  readonly reducedFloating?: true;
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
   * (a kink or pole at 0), `unit` (|x| < 1, or poles at ±pi/2), `above1` (x > 1), `prob`
   * (0 < x < 1, logit). Tests draw gradcheck inputs there.
   */
  readonly domain?: 'pos' | 'nonzero' | 'unit' | 'above1' | 'prob';
  /** F.relu's `inplace=False` argument: the F.* spelling of the in-place form. */
  readonly inplaceArg?: boolean;
  readonly derivative: UnaryDerivative | NoDerivative;
}

/** The tensors a binary formula reads; `other` (`self`) is the number itself where a Scalar overload ran. */
export interface BinarySaved {
  readonly self?: Tensor | number | bigint | boolean;
  readonly other?: Tensor | number | bigint | boolean;
  readonly result?: Tensor;
}

/**
 * The derivative of a binary op, as derivatives.yaml writes it: the gradients of `self` and
 * `other` from `grad`, the saved tensors (`name@input` saves `name` only when `input` needs
 * a gradient, as PyTorch's codegen does) and the row's arguments (add's `[alpha]`); an entry
 * `needs` does not ask for may be null. (Methods, as ActivationNode's: a row's formula reads
 * its own arguments' types, and a table of rows is read through the erased type.)
 */
export interface BinaryDerivative<A extends string = string, C = ArgChoices> {
  readonly saves: readonly string[];
  formula(grad: Tensor, saved: BinarySaved, needs: readonly boolean[], args: BinaryArgs<A, C>): readonly [Tensor | null, Tensor | null];
  /**
   * PyTorch names the Node of an op with a Scalar overload by the overload that ran: the
   * Scalar one `${Name}Backward0`, the Tensor one `${Name}Backward1` (fmod), a Scalar `self`
   * (`scalarSelf`: pow(2, x)) `${Name}Backward2`.
   */
  readonly scalarOverloadNodes?: boolean;
  /** The Node's name where it depends on the arguments (div with a rounding mode records DivBackward2). */
  node?(args: BinaryArgs<A, C>): string;
  /**
   * The Node's number by the overload that ran, where PyTorch numbers them otherwise than
   * `scalarOverloadNodes` (xlogy: `xlogy.Tensor` 0, `xlogy.Scalar_Self` 1, `xlogy.Scalar_Other`
   * 2), and the name before it where it is not the row's CamelCase (`SpecialXlog1PyBackward`).
   */
  readonly overloadNodes?: { readonly numbers: readonly [tensor: number, scalarSelf: number, scalarOther: number]; readonly base?: string };
}

/**
 * A binary row without a gradient. `inplace`: the Node its in-place form records where that
 * form may write into a tensor that requires grad (`x.eq_(y)` on a float `x`: PyTorch records
 * `EqBackward0/1`, whose gradients are zeros: `self: zeros_like(self)`).
 */
export interface BinaryNoDerivative extends NoDerivative {
  readonly inplace?: BinaryDerivative;
}

/** A binary row's argument as its check, compute and formula get it: a Scalar as given (its default where none was), a `str?` as a string or null. */
export type BinaryArg = number | bigint | boolean | string | null;

/** The values of a binary row's arguments (`'*, Scalar alpha=1'` -> `[number | bigint | boolean]`). */
export type BinaryArgs<A extends string, C = {}> = string extends A ? readonly BinaryArg[] : Values<SplitArgs<A>, C, number | bigint | boolean>;

/** A backend's impl by name, as a row's `compute` calls it (implOf for the backend that runs the op). */
export type ImplLookup = <K extends ImplName>(name: K) => BackendImpls[K];

export interface BinaryRow<A extends string = string, C = ArgChoices> {
  readonly doc: string;
  readonly rule: UnaryDtypeRule;
  /** The rule where it depends on the arguments (div: `float`, `promote` with a rounding mode); `rule` is the one without them. */
  ruleFor?(args: BinaryArgs<A, C>): UnaryDtypeRule;
  readonly kernel?: string;
  readonly rejects?: Rejects;
  /** `other` may be a number (PyTorch has a Scalar overload). */
  readonly scalarOther?: boolean;
  /**
   * The function form also takes a number for `self` (PyTorch's `name.Scalar(Scalar self,
   * Tensor other)`: pow(2, x)); it then binds as PyTorch's parser does, against the three
   * overloads in turn. Rows with arguments cannot have it.
   */
  readonly scalarSelf?: true;
  /**
   * The function form also takes a number for `self`, as PyTorch's parser allows for add, sub,
   * mul and div (`should_allow_numbers_as_tensors`: `torch.sub(1, p)`, `torch.div(1, x)`); the
   * Node is the row's usual one. (A row with a `name.Scalar` overload of its own, pow, has
   * `scalarSelf` instead.)
   */
  readonly numberSelf?: true;
  /** The second operand's name in PyTorch's schema where it is not `other` (pow's `exponent`): the front ends' messages and keywords use it. */
  readonly otherName?: string;
  /** Whether `name_` exists (default true; fmax and fmin have none, as in PyTorch). */
  readonly inplace?: boolean;
  /** `false` where Tensor has no method `x.name(y)` (torch.special's: Note [torch.special's rows]). */
  readonly method?: false;
  /** `false` where PyTorch has no `torch.name` (torch.special's: reached as torch.special.*). */
  readonly torchFunction?: false;
  /**
   * Keyword-only arguments after `other`, in PyTorch's schema syntax with their defaults (`*,
   * Scalar alpha=1`; `*, str? rounding_mode=None`): the operators' schema, the front ends'
   * options (`{ alpha }`, camelCase), and what `check`, `compute` and the formula get. Types:
   * Scalar, str?.
   */
  readonly args?: A;
  /** The values a `str?` argument may take besides None: anything else is refused with the row's `check`. */
  readonly choices?: C;
  /** Checks PyTorch makes beyond `rejects` (add's alpha), given the arguments and the operands as the user gave them. */
  check?(op: string, compute: DType, args: BinaryArgs<A, C>, operands: readonly (TensorImpl | Scalar)[]): void;
  /**
   * How the row computes where it is not the impl of its name (sub is `add` with -alpha; div
   * picks its impl by rounding mode; pow has PyTorch's special scalar exponents): such a row
   * has no impl of its own in BackendImpls. `self` and `other` are cast and broadcast;
   * `operands` are as the user gave them (a scalar as the number).
   */
  compute?(impl: ImplLookup, out: TensorImpl, self: TensorImpl, other: TensorImpl, args: BinaryArgs<A, C>, operands: readonly (TensorImpl | Scalar)[]): void;
  /** Where each operand keeps the op smooth (UnaryRow's `domain`), for gradcheck. */
  readonly domain?: readonly [UnaryRow['domain'] | 'any', UnaryRow['domain'] | 'any'];
  readonly derivative: BinaryDerivative<A, C> | BinaryNoDerivative;
}

/**
 * A binary row with arguments, its check, compute and formula typed by them (as activationRow:
 * `A` and `C` are inferred from `args` and `choices`, and the row keeps its literal type).
 */
export function binaryRow<
  const A extends string,
  const C extends ArgChoices = {},
  const R extends Omit<BinaryRow<A, C>, 'args' | 'choices'> = Omit<BinaryRow<A, C>, 'args' | 'choices'>,
>(row: R & { readonly args: A; readonly choices?: C }): R & { readonly args: A; readonly choices?: C } {
  return row;
}

// ---- ternary rows (lerp, addcmul, addcdiv) ----

/**
 * The tensors a ternary formula reads, by the row's operand names (`self`, `end`, `weight`)
 * and `result`; the last operand is the number itself where its Scalar overload ran.
 */
export type TernarySaved = { readonly [name: string]: Tensor | number | bigint | boolean | undefined };

/** The derivative of a ternary row, as derivatives.yaml writes it (BinaryDerivative's, with three gradients). */
export interface TernaryDerivative<A extends string = string, C = ArgChoices> {
  /** Operand names and `result` (`name@input` as BinaryDerivative's). */
  readonly saves: readonly string[];
  formula(grad: Tensor, saved: TernarySaved, needs: readonly boolean[], args: BinaryArgs<A, C>): readonly [Tensor | null, Tensor | null, Tensor | null];
  /** lerp.Scalar records LerpBackward0, lerp.Tensor LerpBackward1: by whether the last operand was a number. */
  readonly scalarOverloadNodes?: boolean;
}

export interface TernaryRow<A extends string = string, C = ArgChoices> {
  readonly doc: string;
  readonly rule: 'promote';
  readonly kernel?: string;
  readonly rejects?: Rejects;
  /**
   * The operands' names in PyTorch's schema (`['self', 'end', 'weight']`): the operators'
   * schema, the front ends' keywords and messages, and the names the formula reads.
   */
  readonly operands: readonly [string, string, string];
  /** The last operand may be a number (PyTorch's Scalar overload: lerp's weight). */
  readonly scalarLast?: true;
  /** Keyword-only arguments after the operands, as BinaryRow's (`*, Scalar value=1`). */
  readonly args?: A;
  readonly choices?: C;
  /** Checks PyTorch makes beyond `rejects`, given the arguments and the operands as the user gave them. */
  check?(op: string, compute: DType, args: BinaryArgs<A, C>, operands: readonly (TensorImpl | Scalar)[]): void;
  /**
   * How the row computes (its impls take more than the operands: lerp also the number weight,
   * addcmul the value), with the operands cast and broadcast and as given.
   */
  compute(impl: ImplLookup, out: TensorImpl, inputs: readonly TensorImpl[], args: BinaryArgs<A, C>, operands: readonly (TensorImpl | Scalar)[]): void;
  readonly derivative: TernaryDerivative<A, C>;
}

/** A ternary row, its check, compute and formula typed by its arguments (as binaryRow). */
export function ternaryRow<
  const A extends string,
  const C extends ArgChoices = {},
  const R extends Omit<TernaryRow<A, C>, 'args' | 'choices'> = Omit<TernaryRow<A, C>, 'args' | 'choices'>,
>(row: R & { readonly args: A; readonly choices?: C }): R & { readonly args: A; readonly choices?: C } {
  return row;
}

// ---- unary rows with arguments (the activations) ----

/**
 * An activation's argument as its impl, its check and its formula get it: a `Scalar`, `int` or
 * `float` as a number (the default where none was given), a `float?` as a number or null, a
 * `str` as a string (one of the row's `choices`).
 */
export type ActivationArg = number | string | null;

/** The values a `str` argument may take, by argument name (gelu's `approximate`). */
export type ArgChoices = { readonly [arg: string]: readonly string[] };

/** `Scalar negative_slope=0.01` -> `['Scalar', 'negative_slope']`. */
type ArgParts<A extends string> = A extends `${infer T} ${infer N}=${string}` ? [T, N] : A extends `${infer T} ${infer N}` ? [T, N] : [never, never];

type ArgValue<T extends string, N extends string, C, S> = T extends `${infer B}?`
  ? ArgValue<B, N, C, S> | null
  : T extends 'Scalar'
    ? S
    : T extends 'int' | 'float'
      ? number
      : T extends 'str'
      ? N extends keyof C
        ? C[N] extends readonly (infer E)[]
          ? E
          : string
        : string
        : never;

/**
 * The value of one argument's text (`Scalar alpha=1`) under the choices `C`, a Scalar as `S`
 * (a number to an activation's impl; as given, number, bigint or boolean, to a binary row).
 */
export type ArgValueOf<A extends string, C, S = number> = ArgValue<ArgParts<A>[0], ArgParts<A>[1], C, S>;
/** The (snake_case) name of one argument's text. */
export type ArgNameOf<A extends string> = ArgParts<A>[1];

type Values<L extends readonly string[], C, S> = L extends readonly [infer H extends string, ...infer T extends string[]]
  ? H extends '*'
    ? Values<T, C, S>
    : [ArgValueOf<H, C, S>, ...Values<T, C, S>]
  : [];

/**
 * The values of an argument list in schema syntax, in order (`'Scalar min_val=-1, Scalar
 * max_val=1'` -> `[number, number]`): what an activation's impl takes after `self`, and its
 * check and formula read. Any list (`string`): `readonly ActivationArg[]`.
 */
export type ActivationArgs<A extends string, C = {}> = string extends A ? readonly ActivationArg[] : Values<SplitArgs<A>, C, number>;

/** The choices a row declares (`{}` where it has none). */
export type RowChoices<R> = R extends { readonly choices?: infer C } ? NonNullable<C> : {};
/** The values of a row's arguments: its impl's parameters after `self`. */
export type RowArgs<R> = R extends { readonly args: infer A extends string } ? ActivationArgs<A, RowChoices<R>> : never;

/**
 * A Node of an activation, as derivatives.yaml writes it: a formula of `grad`, one saved tensor
 * (the input `self`, or the `result`) and the row's arguments (Note [The op table]). (The
 * formula is a method in this type: a row's formula reads its own arguments' types, `[number]`
 * for leaky_relu, and a table of rows is read through the erased type.)
 */
export interface ActivationNode<A extends string = string, C = ArgChoices> {
  readonly saves: 'self' | 'result';
  formula(grad: Tensor, saved: Tensor, args: ActivationArgs<A, C>): Tensor;
  /** PyTorch's Node name where it is not `${Name}Backward0`. */
  readonly node?: string;
}

export interface ActivationDerivative<A extends string = string, C = ArgChoices> extends ActivationNode<A, C> {
  /**
   * The in-place form's own Node, where it has one: `leaky_relu_` and `elu_` read the result
   * (the input is gone), as PyTorch's `LeakyReluBackward1` and `EluBackward1` do. Default: the
   * functional's.
   */
  readonly inplace?: ActivationNode<A, C>;
}

export interface ActivationRow<A extends string = string, C = ArgChoices> {
  readonly doc: string;
  /** `promote` (the activations with a floating kernel; `rejects` says which dtypes) or `float` (logit). */
  readonly rule: 'promote' | 'float';
  /** PyTorch's CPU kernel, as UnaryRow's (`leaky_relu_cpu`; hardtanh's is `clamp_scalar_cpu`). */
  readonly kernel?: string;
  readonly rejects?: Rejects;
  /**
   * The arguments after `self`, in PyTorch's schema syntax with their defaults (`Scalar
   * negative_slope=0.01`; `*, str approximate='none'` for a keyword-only one; '' for none): the
   * operators' schema, and the impl's parameters after `out` and `self`, in order. Types:
   * Scalar, int, float, float?, str.
   */
  readonly args: A;
  /**
   * The arguments of the front ends (torch.*, F.*, the in-place form), where they are fewer than
   * the kernel's: each names one of `args`, and the others get their defaults (F.elu takes
   * `alpha`; the kernel also `scale` and `input_scale`, which selu sets).
   */
  readonly frontArgs?: string;
  /** The values a `str` argument may take: anything else is refused with PyTorch's message. */
  readonly choices?: C;
  /**
   * Checks PyTorch's kernel makes beyond the dtype (hardtanh: unsigned limits), after `rejects`'s;
   * `input` is the input's own dtype (mvlgamma refuses bool, which `float` would compute in float32).
   */
  check?(op: string, compute: DType, args: ActivationArgs<A, C>, input: DType): void;
  /** What the impl and the formula get, where it is not the arguments as given (logit: a negative eps is none). */
  implArgs?(args: ActivationArgs<A, C>): ActivationArgs<A, C>;
  /** Whether `name_` exists (default true; gelu and softplus have none). */
  readonly inplace?: false;
  /** F.*'s `inplace=False` argument (F.leaky_relu, F.silu): the F.* spelling of the in-place form. */
  readonly inplaceArg?: true;
  /** Whether Tensor has the method (`x.logit()`, `x.logit_()`; the others are functions only, as in PyTorch). */
  readonly method?: true;
  /**
   * `false` where PyTorch has no `torch.name` of this signature (Note [torch.special's rows]):
   * the facade does not re-export the row's function form (polygamma's is `polygamma(int n,
   * Tensor self)`, declared apart; torch.special's functions are reached as torch.special.*).
   * The operators, the method (where `method`) and core's function stay.
   */
  readonly torchFunction?: false;
  /** Whether torch.nn.functional has it: `fn` (F.silu), or `fn and inplace` (F.elu and F.elu_). */
  readonly nnFunctional?: 'fn' | 'fn and inplace';
  readonly domain?: UnaryRow['domain'];
  /** Its Node, or why it has none (torch.special's Bessel functions: PyTorch gives them no gradient). */
  readonly derivative: ActivationDerivative<A, C> | NoDerivative;
}

/**
 * A row of the activation table, its formulas and checks typed by its own arguments: `A` and
 * `C` are inferred from `args` and `choices`, and the row keeps its literal type (whether it
 * has `inplace: false`, `method: true`...), from which the front ends' types are derived.
 */
export function activationRow<
  const A extends string,
  const C extends ArgChoices = {},
  const R extends Omit<ActivationRow<A, C>, 'args' | 'choices'> = Omit<ActivationRow<A, C>, 'args' | 'choices'>,
>(row: R & { readonly args: A; readonly choices?: C }): R & { readonly args: A; readonly choices?: C } {
  return row;
}
