/**
 * Note [Schema types]
 * An operator's schema string (`gather(Tensor self, int dim, Tensor index, *, bool
 * sparse_grad=False) -> Tensor`) is parsed twice: at run time by parseSchema (schema.ts),
 * and here, by the compiler, into the tuple of the values it carries. So a kernel and a
 * binder get typed arguments from the same text PyTorch writes, without anyone restating
 * them (PyTorch's codegen does the same from native_functions.yaml into C++ signatures).
 *
 * `SchemaValues<S, R>` maps each argument of schema `S` to its JS value under the
 * representation `R`, which says what a `Tensor` is (a Tensor handle in the front ends, a
 * TensorImpl in kernels) and what a None is. The other types are the same everywhere:
 *   Scalar -> number | boolean | bigint   int, SymInt, float -> number   bool -> boolean
 *   str, MemoryFormat, Layout, Dimname -> string   ScalarType -> DType (or its JS name, to
 *   a binder)   Device -> DeviceLike   Generator -> Generator   T[] / T[N] -> T[]
 *   T? -> T | None   Any -> unknown (a union the schema language cannot spell).
 * A schema the compiler cannot parse gives `unknown[]`, never a wrong tuple.
 */
import type { DeviceLike } from '../device';
import type { DType } from '../dtype/scalar-type';
import type { Generator } from '../random/generator';

/** What `Tensor`, None and `ScalarType` are in one representation of arguments. */
export interface ValueRepr {
  readonly tensor: unknown;
  /** `self`'s type where it differs from `tensor` (a binder taking numbers for the other Tensors). */
  readonly self: unknown;
  readonly none: null | undefined;
  readonly dtype: unknown;
}

/** The representation with `self`'s type as its Tensor. */
interface SelfRepr<R extends ValueRepr> extends ValueRepr {
  readonly tensor: R['self'];
  readonly self: R['self'];
  readonly none: R['none'];
  readonly dtype: R['dtype'];
}

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;

/** `name.overload(ARGS) -> returns`: ARGS. */
export type SchemaArgsText<S extends string> = S extends `${string}(${infer A}) -> ${string}` ? A : never;

/** `[1, 2]` inside a default holds `, ` that does not end the argument. */
type OpensList<S extends string> = S extends `${string}[${infer R}` ? (R extends `${string}]${string}` ? OpensList<R extends `${string}]${infer T}` ? T : ''> : true) : false;

/** The arguments of an argument list (`Scalar alpha=1, *, str mode='none'`), each as written (`*` included). */
export type SplitArgs<S extends string, Acc extends string = ''> = S extends `${infer H}, ${infer T}`
  ? OpensList<`${Acc}${H}`> extends true
    ? SplitArgs<T, `${Acc}${H}, `>
    : [`${Acc}${H}`, ...SplitArgs<T>]
  : Trim<`${Acc}${S}`> extends ''
    ? []
    : [Trim<`${Acc}${S}`>];

/** `Tensor(a!)` -> `Tensor`; `Tensor(a)[]` -> `Tensor[]`. */
type StripAlias<T extends string> = T extends `${infer B}(${string})${infer R}` ? `${B}${R}` : T;

/** One schema type (`int`, `Tensor`, `ScalarType`...) under representation `R`. */
export type SchemaBaseValue<T extends string, R extends ValueRepr> = T extends 'Tensor'
  ? R['tensor']
  : T extends 'Scalar'
    ? number | boolean | bigint
    : T extends 'int' | 'SymInt' | 'float'
      ? number
      : T extends 'bool'
        ? boolean
        : T extends 'str' | 'MemoryFormat' | 'Layout' | 'Dimname'
          ? string
          : T extends 'ScalarType'
            ? R['dtype']
            : T extends 'Device'
              ? DeviceLike
              : T extends 'Generator'
                ? Generator
                : unknown;

type TypeOf<T extends string, R extends ValueRepr> = T extends `${infer E}[${string}]?`
  ? ElemList<E, R> | R['none']
  : T extends `${infer E}[${string}]`
    ? ElemList<E, R>
    : T extends `${infer B}?`
      ? SchemaBaseValue<B, R> | R['none']
      : SchemaBaseValue<T, R>;

// (an optional element, `int?[2]`, is None as null in every representation)
type ElemList<E extends string, R extends ValueRepr> = E extends `${infer B}?` ? (SchemaBaseValue<B, R> | null)[] : SchemaBaseValue<E, R>[];

/** One argument's text (`int[2] stride=1`, `Tensor(a -> *) self`) -> its value type. */
type ArgValue<A extends string, R extends ValueRepr> = StripAlias<A extends `${infer L}=${string}` ? L : A> extends `${infer T} ${infer N}`
  ? TypeOf<T, N extends 'self' ? SelfRepr<R> : R>
  : unknown;

type Values<L extends readonly string[], R extends ValueRepr> = L extends readonly [infer H extends string, ...infer T extends string[]]
  ? H extends '*'
    ? Values<T, R>
    : [ArgValue<H, R>, ...Values<T, R>]
  : [];

/** The values of schema `S`'s arguments, in order, under representation `R` (Note [Schema types]). */
export type SchemaValues<S extends string, R extends ValueRepr> = string extends S
  ? unknown[]
  : [SchemaArgsText<S>] extends [never]
    ? unknown[]
    : Values<SplitArgs<SchemaArgsText<S>>, R>;

/** Kernels' representation: TensorImpls (of core), None as undefined or null, dtypes resolved. */
export interface KernelRepr<TImpl> extends ValueRepr {
  readonly tensor: TImpl;
  readonly self: TImpl;
  readonly none: null | undefined;
  readonly dtype: DType;
}
