import { camelName, makeBinder, makeOverloads, type BinderOptions, type BoundValues, type OverloadCall } from './binder';
import type { FrontArgs, FrontOptions, OverloadFrontArgs } from './front-types';

/**
 * Note [Front ends are declared once]
 * A public entry point that is not a row of the op table (Note [The op table]) is one
 * declaration: its signature in PyTorch's schema syntax, the body that runs the operators, and
 * its options (`front(schema, options).run(body)`; `overloadedFront([schemas])` for PyTorch's
 * overloads, tried in order). From that one text come:
 *  - its binder (Note [The argument binder]) and its JS parameter types (Note [Front-end types
 *    come from the schema]);
 *  - its JS name, the schema's name camelCased (`index_select` -> `indexSelect`);
 *  - its Tensor method (generated/front-methods.ts; `method: false` where Tensor has none);
 *  - the facade's re-exports in `torch` and `torch.nn.functional` (`namespaces`) and its line in
 *    docs/ops.md (scripts/front-files.ts and the OpInfo docs, from `allFronts()`);
 *  - the test that an OpInfo entry runs exactly the forms it declares (front-variants).
 * The body gets the bound values typed by the schema, as a kernel does, and writes its result
 * type: Tensor's methods are typed from the front ends, so a result inferred from a body that
 * calls Tensor methods would be circular (the compiler then makes every method `unknown`). For
 * the same reason the op table's formulas call front ends through table/formula-ops.ts, whose
 * types are declared. `runEach<[R0, R1]>` gives each overload its own result type.
 */

/** What the generator and the methods table read of a front end. */
export interface FrontInfo {
  /** The JS name (`indexSelect`). */
  readonly name: string;
  /** The signatures it binds, as written (one, or PyTorch's overloads in the order tried). */
  readonly schemas: readonly string[];
  /** Tensor has it as a method, `self` bound (`x.sort(0)` is `sort(x, 0)`). */
  readonly method: boolean;
  /** The facade's namespaces that export it (`torch.sort`, `F.pad`). */
  readonly namespaces: readonly FrontNamespace[];
  /** The name those namespaces export it as: `name`, but where `exportAs` says otherwise (Note [aten's own signatures on torch]). */
  readonly exportName: string;
  /** Keywords of the schema that torch-ts refuses with NotImplementedError (the binder's `unsupported`): `out` here means no out= form. */
  readonly unsupported: readonly string[];
}

/** A namespace of the facade: `torch`, `torch.nn.functional`, `torch.linalg` or `torch.fft`. */
export type FrontNamespace = 'torch' | 'nn.functional' | 'linalg' | 'fft' | 'sparse';

/**
 * A front end: the function (its call signature `Sig`, or one per overload), and what it was
 * declared with. `MethodSig` is the Tensor method's signature, `self` bound.
 */
export type Front<Sig, MethodSig, M extends boolean = boolean, Opt = unknown> = Sig & {
  readonly front: FrontInfo & { readonly method: M };
  /** (type only: the options object it takes, for `OptionsOf`) */
  readonly options?: Opt;
  /** (type only: the Tensor method's signature, for `FrontMethod`) */
  readonly methodSignature?: MethodSig;
};

/** The options object a front end takes, every keyword it binds: `type SortOptions = OptionsOf<typeof sort>`. */
export type OptionsOf<F> = F extends { readonly options?: infer Opt } ? Exclude<Opt, undefined> : never;

/** A front end's Tensor method: its parameters after `self`. */
export type FrontMethod<F> = F extends { readonly methodSignature?: infer MS } ? Exclude<MS, undefined> : never;

type Tail<A> = A extends readonly [unknown, ...infer T] ? T : never;

/** The signature of a front end taking `A` and giving `R`, and its method's. */
type Fn<A extends unknown[], R> = (...args: A) => R;
type MethodFn<A extends unknown[], R> = (...args: Tail<A>) => R;

/**
 * One call signature per overload, in order (an intersection of functions is an overloaded
 * function to the compiler), each with its own result: `where(condition)` gives a list,
 * `where(condition, input, other)` a Tensor.
 */
type EachOverload<S extends readonly string[], Rs extends readonly unknown[], O, Method extends boolean> = S extends readonly [
  infer S0 extends string,
  ...infer ST extends string[],
]
  ? Rs extends readonly [infer R0, ...infer RT]
    ? (Method extends true ? MethodFn<FrontArgs<S0, O>, R0> : Fn<FrontArgs<S0, O>, R0>) & EachOverload<ST, RT, O, Method>
    : unknown
  : unknown;

export interface FrontDeclOptions extends BinderOptions {
  /** Tensor has no method of it (default: it has, as most ops' `variants: function, method`). */
  readonly method?: false;
  /** The facade's namespaces that export the function (default `['torch']`; `[]`: a Tensor method only, as `x.float()`). */
  readonly namespaces?: readonly FrontNamespace[];
  /** The JS name where it is not the schema's name camelCased. */
  readonly name?: string;
  /** The name the facade's namespaces export it as, where it is not the JS name (Note [aten's own signatures on torch]). */
  readonly exportAs?: string;
  /**
   * The strings a `str` or `MemoryFormat` argument takes, by schema name (`{ reduction: ['none', 'mean', 'sum'] }`):
   * its JS type is their union. The body checks them, in PyTorch's words for the op.
   */
  readonly choices?: { readonly [arg: string]: readonly string[] };
}

type MethodFlag<O> = O extends { readonly method: false } ? false : true;

const FRONTS: FrontInfo[] = [];

/** Every front end declared so far (all of them once core's modules are loaded), in declaration order. */
export function allFronts(): readonly FrontInfo[] {
  return FRONTS;
}

/** `sort.stable(Tensor self, ...)` -> `sort`: the name the binder's messages use (the binder parses the rest). */
function opNameOf(schema: string): string {
  return /^\s*(\w+)/.exec(schema)?.[1] ?? schema;
}

/**
 * Note [aten's own signatures on torch]
 * A few ops are on `torch` with aten's signature and on `torch.nn.functional` with another
 * (`torch.embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)` but
 * `F.embedding(input, weight, padding_idx=None, max_norm=None, ...)`; torch.batch_norm,
 * torch.binary_cross_entropy_with_logits with an int reduction). Both are front ends; core
 * names aten's one `aten<Name>` (`atenEmbedding`) and `exportAs` gives it its PyTorch name in
 * the facade, so `torch.embedding` and `F.embedding` are each PyTorch's. The same way F.unfold
 * (im2col) is core's `im2col`, core's `unfold` being Tensor.unfold's view, and `var`, a reserved
 * word in JS, is core's `variance` (its Tensor method, too, is named as the facade names it).
 */
function infoOf(opName: string, schemas: readonly string[], options: FrontDeclOptions | undefined): FrontInfo {
  const name = options?.name ?? camelName(opName);
  return {
    name,
    exportName: options?.exportAs ?? name,
    schemas: [...schemas],
    method: options?.method !== false,
    namespaces: options?.namespaces ?? ['torch'],
    unsupported: options?.unsupported ?? [],
  };
}

function declare<F>(fn: (...args: unknown[]) => unknown, info: FrontInfo): F {
  FRONTS.push(info);
  // (the binder checks every argument, so the function takes what its signature admits and more)
  return Object.assign(fn, { front: info }) as unknown as F;
}

/**
 * A front end binding one signature: `front(schema).run(([self, dim]): Tensor => ...)`; the body
 * gets the values in schema order, typed by it. The body's result type is written, as a
 * function's is: Tensor's methods are typed from the front ends, so inferring it from a body
 * that calls Tensor methods would be circular.
 */
export function front<const S extends string, const O extends FrontDeclOptions = {}>(schema: S, options?: O): FrontBuilder<FrontArgs<S, O>, BoundValues<S, O>, MethodFlag<O>, FrontOptions<S, O>> {
  const opName = opNameOf(schema);
  const binder = makeBinder(opName, schema, options);
  const info = infoOf(opName, [schema], options);
  return { run: (body) => declare((...args: unknown[]) => body(binder.bind(args)), info) };
}

/** A declared signature waiting for its body. */
export interface FrontBuilder<A extends unknown[], V, M extends boolean, Opt> {
  run<R>(body: (values: V) => R): Front<Fn<A, R>, MethodFn<A, R>, M, Opt>;
}

/**
 * A front end with PyTorch's overloads, tried in order: the body gets which one bound (`index`)
 * and its `values`. `run` gives every overload the body's result type; `runEach<[R0, R1]>`
 * gives each its own (`where(condition)` a list, `where(condition, input, other)` a Tensor):
 * the front end then has one call signature per overload.
 */
export function overloadedFront<const S extends readonly string[], const O extends FrontDeclOptions = {}>(schemas: S, options?: O): OverloadBuilder<S, O> {
  const opName = opNameOf(schemas[0]);
  const binder = makeOverloads(opName, schemas, options);
  const info = infoOf(opName, schemas, options);
  return {
    run: (body) => declare((...args: unknown[]) => body(binder.bind(args)), info),
    runEach: (body) => declare((...args: unknown[]) => body(binder.bind(args)), info),
  };
}

/** Overloaded signatures waiting for their body. */
/** The options object of overloads: any one overload's (`conv2d`'s padding a list or 'same'). */
type EachOptions<S extends readonly string[], O> = { [K in keyof S]: FrontOptions<S[K], O> }[number];

export interface OverloadBuilder<S extends readonly string[], O extends FrontDeclOptions> extends FrontBuilder<OverloadFrontArgs<S, O>, OverloadCall<S, O>, MethodFlag<O>, EachOptions<S, O>> {
  runEach<Rs extends { readonly [K in keyof S]: unknown }>(
    body: (call: OverloadCall<S, O>) => Rs[number],
  ): Front<EachOverload<S, Rs, O, false>, EachOverload<S, Rs, O, true>, MethodFlag<O>, EachOptions<S, O>>;
}
