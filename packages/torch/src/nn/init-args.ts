import { isOptionsObject, makeBinder, type BinderOptions, type BoundValues, type FrontArgs, type TypedBinder } from '@torch-ts/core';

/**
 * Note [Module constructors bind their arguments]
 * A module's constructor takes PyTorch's `__init__` arguments as the functions take theirs
 * (Note [The argument binder]): positionally in `__init__`'s order, then one options object
 * with any of them by camelCase keyword, so `new nn.Linear(4, 2, false)` and
 * `new nn.Linear(4, 2, { bias: false })` are the same layer. An unknown keyword or one
 * argument too many raises TorchTypeError in Python's words for a method
 * (`Linear.__init__() got an unexpected keyword argument 'x'`; counts include `self`), and
 * an argument torch-ts does not support yet raises NotImplementedError naming it.
 */
export function initBinder<const C extends string, const P extends string>(cls: C, params: P, unsupported: readonly string[] = []): InitBinder<C, P> {
  return makeBinder(`${cls}.__init__`, `${cls}(${params}) -> ()`, { countSelf: true, unsupported });
}

/**
 * A module constructor's binder: `bind` returns `__init__`'s values typed by the parameter
 * text `P` (Note [Schema types] in core), where `P` is a literal.
 */
export type InitBinder<C extends string, P extends string> = TypedBinder<`${C}(${P}) -> ()`, { readonly countSelf: true }>;

/** The `device=None, dtype=None` that layers with parameters end with. */
export const FACTORY_PARAMS = 'Device? device=None, ScalarType? dtype=None';

/**
 * Whether an argument was given as `null` (positionally at `index`, or by `keyword`), where
 * None means something other than the default: BatchNorm's `momentum=None` is a cumulative
 * average, not the default 0.1 (the binder reads null as "the default").
 */
export function givenNull(args: readonly unknown[], index: number, keyword: string): boolean {
  if (args[index] === null) return true;
  let n = args.length;
  while (n > 0 && args[n - 1] === undefined) n--;
  const last = args[n - 1];
  return isOptionsObject(last) && last[keyword] === null;
}

/**
 * A function of `torch.nn` bound by its Python signature as a front end is (Note [The argument
 * binder]): `pyFunction('kaiming_uniform_(Tensor tensor, float a=0, ...) -> Tensor').run(body)`.
 * Its JS parameters come from the same text (Note [Front-end types come from the schema]);
 * `choices` narrows a `str` argument's type to its values. (Not core's `front`: that one also
 * declares a `torch.*` function, a Tensor method and a line of docs/ops.md.)
 */
export function pyFunction<const S extends string, const O extends BinderOptions & { readonly choices?: { readonly [arg: string]: readonly string[] } } = {}>(schema: S, options?: O) {
  const binder = makeBinder(/^\s*(\w+)/.exec(schema)?.[1] ?? schema, schema, options);
  return {
    run:
      <R>(body: (values: BoundValues<S, O>) => R) =>
      (...args: FrontArgs<S, O>): R =>
        body(binder.bind(args)),
  };
}
