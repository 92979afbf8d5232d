import type { SchemaArgsText, SchemaBaseValue, SplitArgs, ValueRepr } from '../dispatch/schema-types';
import type { DTypeLike } from '../dtype';
import type { Tensor } from '../tensor/tensor';

/**
 * Note [Front-end types come from the schema]
 * A front end's JS parameters are derived by the compiler from the same schema text its binder
 * binds at run time (Note [The argument binder]), so the two cannot disagree and nobody restates
 * them in an options interface. For `sort(Tensor self, int dim=-1, bool descending=False, *,
 * bool? stable=None)` a caller may write `sort(x)`, `sort(x, 0)`, `sort(x, 0, true)`,
 * `sort(x, { descending: true })`, `sort(x, 0, { stable: true })`: `self` positionally, the
 * other required arguments positionally or by keyword, then any prefix of the optional
 * positionals (null for None), then one options object holding any argument not given yet,
 * camelCased. What a caller may pass for each schema type is what the binder accepts:
 *   Tensor -> Tensor (or a Number too, under `numbersAsTensors`)   Scalar -> number | boolean
 *   | bigint   int, SymInt, float -> number   bool -> boolean   str, MemoryFormat, Layout,
 *   Dimname -> string   ScalarType -> DType or an alias ('double')   Device -> DeviceLike   Generator -> Generator
 *   int[N], int[] -> one int or a list   T[] -> a list   T? -> T | null   Any -> unknown.
 * A `str` (or `MemoryFormat`) argument with `choices` in the declaration takes only those
 * strings (the body checks them at run time with PyTorch's message for the op).
 * With `varargs` the last positional int list may also be variadic ints (`x.view(2, 3)`,
 * `zeros(2, 3, { dtype })`), and a Tensor list variadic Tensors (`einsum('ij,jk', a, b)`, `blockDiag(a, b)`). A first argument that is not a Tensor may come by keyword too
 * (`full({ size: [2], fillValue: 1 })`).
 */

/** What the front end's caller may pass for a Tensor: the binder's options say whether a Number is one. */
export interface FrontRepr {
  readonly tensor: unknown;
  readonly self: unknown;
}

interface PlainRepr extends FrontRepr {
  readonly tensor: Tensor;
  readonly self: Tensor;
}

/** The representation a front end's binder options give (`numbersAsTensors`, `numberSelf`). */
export type FrontReprOf<O> = O extends { readonly numbersAsTensors: true }
  ? { readonly tensor: Tensor | number | boolean | bigint; readonly self: O extends { readonly numberSelf: true } ? Tensor | number | boolean | bigint : Tensor }
  : PlainRepr;

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;
type StripAlias<T extends string> = T extends `${infer B}(${string})${infer R}` ? `${B}${R}` : T;

/** `int[1]? dim=None` -> `['int[1]?', 'dim']`. */
type Parts<A extends string> =
  StripAlias<Trim<A extends `${infer L}=${string}` ? L : A>> extends `${infer T} ${infer N}` ? [T, Trim<N>] : [never, never];
type HasDefault<A extends string> = A extends `${string}=${string}` ? true : false;

/** How a caller spells the types other than Tensor (which InputType gives by the binder's options). */
interface CallerRepr extends ValueRepr {
  readonly tensor: Tensor;
  readonly self: Tensor;
  readonly none: null;
  readonly dtype: DTypeLike;
}
type InputBase<T extends string> = SchemaBaseValue<T, CallerRepr>;

/** A list type's values: one item stands for a list of numbers (the binder expands it), not for Tensors or bools. */
type InputList<E extends string> = E extends 'Tensor'
  ? readonly Tensor[]
  : E extends 'bool'
    ? readonly boolean[]
    : E extends `${infer B}?`
      ? readonly (InputBase<B> | null)[] | InputBase<B>
      : readonly InputBase<E>[] | InputBase<E>;

type InputType<T extends string, R extends FrontRepr, N extends string, C> = T extends `${infer E}[${string}]?`
  ? InputList<E> | null
  : T extends `${infer E}[${string}]`
    ? InputList<E>
    : T extends `${infer B}?`
      ? InputType<B, R, N, C> | null
      : T extends 'Tensor'
        ? N extends 'self'
          ? R['self']
          : R['tensor']
        : T extends 'str' | 'MemoryFormat'
          ? ChoiceOf<C, N>
          : InputBase<T>;

/** A `str` argument's values: its `choices` where the declaration lists them (`'mean' | 'sum' | 'none'`), else any string. */
type ChoiceOf<C, N extends string> = C extends { readonly [K in N]: readonly (infer V extends string)[] } ? V : string;

/** The caller's value for one argument's text (`int? dim=None` -> `number | null`) under the declaration's options `O`. */
export type FrontInput<A extends string, O = unknown> = InputType<Parts<A>[0], FrontReprOf<O>, Parts<A>[1], O extends { readonly choices: infer C } ? C : unknown>;

/** `negative_slope` -> `negativeSlope`; `self` -> `input` (the binder's keyword). */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
export type FrontKeyword<A extends string> = Parts<A>[1] extends 'self' ? 'input' : Camel<Parts<A>[1]>;

/** A positional argument the caller must give: no default, and not optional. */
type IsRequired<A extends string> = HasDefault<A> extends true ? false : Parts<A>[0] extends `${string}?` ? false : true;

type PositionalList<L extends readonly string[]> = L extends readonly [infer H extends string, ...infer T extends string[]]
  ? H extends '*'
    ? []
    : [H, ...PositionalList<T>]
  : [];
type RequiredPrefix<L extends readonly string[]> = L extends readonly [infer H extends string, ...infer T extends string[]]
  ? IsRequired<H> extends true
    ? [H, ...RequiredPrefix<T>]
    : []
  : [];
type Drop<L extends readonly string[], P extends readonly string[]> = P extends readonly [string, ...infer PT extends string[]]
  ? L extends readonly [string, ...infer LT extends string[]]
    ? Drop<LT, PT>
    : []
  : L;
type Inputs<L extends readonly string[], O> = { [I in keyof L]: FrontInput<L[I], O> };

type ArgList<S extends string> = string extends S ? string[] : [SchemaArgsText<S>] extends [never] ? string[] : SplitArgs<SchemaArgsText<S>>;

/** The options object of a front end: every argument but the required ones, by keyword (camelCase), each optional. */
export type FrontOptions<S extends string, O = unknown> = NoKeywordsIfEmpty<
  WithRequired<
    {
      [X in Exclude<ArgList<S>[number], '*'> as IsRequired<X> extends true ? never : FrontKeyword<X>]?: FrontInput<X, O> | null;
    },
    RequiredKeywords<KeywordOnly<ArgList<S>>, O>
  >
>;

/** `A` with the required keys of `B`, if any (an intersection with `{}` would loosen the excess-property checks). */
type WithRequired<A, B> = keyof B extends never ? A : A & B;

/** The arguments after `*`. */
type KeywordOnly<L extends readonly string[]> = L extends readonly [infer H extends string, ...infer T extends string[]] ? (H extends '*' ? T : KeywordOnly<T>) : [];
/** A keyword-only argument without a default (`solve_triangular(A, B, *, bool upper)`): a required key of the options object. */
type RequiredKeywords<L extends readonly string[], O> = { [X in L[number] as IsRequired<X> extends true ? FrontKeyword<X> : never]: FrontInput<X, O> };

/**
 * The options object of a signature without optional arguments: only `{}`. Plain `{}` would take
 * any object (TS checks no excess properties against an empty type), so `median(x, { dim: 0 })`
 * would bind to `median(Tensor self)` in the compiler's overload resolution, as it does not in
 * the binder; a key that names the situation, of type never, makes the type non-empty.
 */
type NoKeywordsIfEmpty<T> = keyof T extends never ? { readonly '(no keyword arguments)'?: never } : T;

type RequiredOptions<L extends readonly string[], O> = { [X in L[number] as FrontKeyword<X>]: FrontInput<X, O> };

/** The required arguments after the first: positionally, or (from any one on) with the rest in the options object. */
type Rest<P extends readonly string[], Q extends readonly string[], Opt, O> = P extends readonly [infer H extends string, ...infer T extends string[]]
  ? [options: Opt & RequiredOptions<P, O>] | [arg: FrontInput<H, O>, ...Rest<T, Q, Opt, O>]
  : Optional<Inputs<Q, O>, Opt>;
type Optional<P extends readonly unknown[], Opt> = P extends readonly [infer H, ...infer T] ? [options?: Opt] | [arg?: H | null, ...Optional<T, Opt>] : [options?: Opt];

/**
 * The ints of a variadic int list (`x.view(2, 3)`), after the required arguments before it, and
 * then the options object (`zeros(2, 3, { dtype })`).
 */
type Varargs<P extends readonly string[], Opt, O> = P extends readonly [...infer Lead extends string[], infer V extends string]
  ? [...Inputs<Lead, O>, ...VarargOf<V>[]] | [...Inputs<Lead, O>, ...VarargOf<V>[], options: Opt]
  : never;
/** One element of a variadic list: an int, or a Tensor (`block_diag(a, b)`). */
type VarargOf<V extends string> = Parts<V>[0] extends `Tensor${string}` ? Tensor : number;

/**
 * A Tensor first argument is positional; any other may come by keyword with the rest
 * (`full({ size: [2], fillValue: 1 })`, `arange({ end: 5 })`), as in PyTorch. (A Tensor's
 * alternative is left out on purpose: telling an options object from a Tensor would make the
 * compiler read Tensor's members, which are derived from these types.)
 */
type Args<L extends readonly string[], Opt, O> = RequiredPrefix<L> extends readonly [infer H extends string, ...infer T extends string[]]
  ? Parts<H>[0] extends `Tensor${string}`
    ? [FrontInput<H, O>, ...Rest<T, Drop<L, RequiredPrefix<L>>, Opt, O>]
    : Rest<RequiredPrefix<L>, Drop<L, RequiredPrefix<L>>, Opt, O>
  : Optional<Inputs<L, O>, Opt>;

/**
 * The JS parameters of a front end that binds schema `S` with binder options `O` (Note
 * [Front-end types come from the schema]).
 */
export type FrontArgs<S extends string, O = unknown> = string extends S
  ? unknown[]
  :
      | Args<PositionalList<ArgList<S>>, FrontOptions<S, O>, O>
      | (O extends { readonly varargs: true } ? Varargs<PositionalList<ArgList<S>>, FrontOptions<S, O>, O> : never);

/** The parameters of a front end with several signatures (PyTorch's overloads): any one of them. */
export type OverloadFrontArgs<S extends readonly string[], O = unknown> = { [K in keyof S]: FrontArgs<S[K], O> }[number];
