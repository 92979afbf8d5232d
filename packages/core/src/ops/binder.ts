import { Device } from '../device';
import { isDType, parseDType, type DType } from '../dtype';
import { parseSchema, type ArgSchema, type OpSchema } from '../dispatch/schema';
import type { SchemaValues, ValueRepr } from '../dispatch/schema-types';
import { NotImplementedError, TorchTypeError } from '../errors';
import { Generator } from '../random/generator';
import { Tensor } from '../tensor/tensor';

/**
 * Note [The argument binder]
 * PyTorch's Python entry points bind their arguments with one parser (python_arg_parser.cpp)
 * against the op's schema; torch-ts's JS entry points do the same here. A call is the
 * schema's positional arguments in order, then optionally one trailing options object (a
 * plain object) holding any argument by keyword, camelCased (`negative_slope` ->
 * `negativeSlope`; `self` is `input`, as PyTorch's Python names it). Positional arguments
 * after `*` in the schema are keyword-only. `undefined` and `null` both mean None: the
 * default where there is one, None where the type is optional. Every value is checked
 * against its type, so nothing a caller writes is ignored: an unknown keyword, one argument
 * too many, a wrong type, or a keyword PyTorch has but torch-ts does not support yet (the
 * `unsupported` list) raises, with PyTorch's wording.
 *
 * A binder is made once per entry point (schemas are parsed at module load); binding a call
 * is a loop over the schema's arguments, cheap enough for every op call.
 *
 * Note [Variadic int lists]
 * PyTorch's parser lets a signature whose one positional argument is an int list take that
 * list as variadic ints (`allow_varargs_intlist`): `x.view(2, 3)`, `x.permute(1, 0)`,
 * `x.repeat(2, 2)`, `torch.zeros(2, 3)`. Tensor methods here are their functions with `self`
 * first, so the binder option `varargs` says it of the last positional argument (the one
 * after `self`, or a factory's `size`): when more positionals than the schema has are given
 * from there on and the first is not an array, they are that list. (The
 * function forms accept it too, which PyTorch's `torch.reshape(x, 2, 3)` does not: a
 * superset, and one function per method keeps the two from drifting.)
 * A Tensor list may be variadic the same way, as Python's `*tensors` gathers it
 * (`block_diag(a, b)`, `cartesian_prod(a, b)`): there one Tensor is a list of one, and no
 * Tensor at all the empty list.
 *
 * Note [Overloads bind without throwing]
 * An overload set (`fill_(Tensor value)` / `fill_(Scalar value)`, `add.Tensor` / `add.Scalar`)
 * tries its signatures in order, and most calls bind to a later one. A TypeError made for
 * each signature that does not fit would capture a stack trace each time: about 5 µs, more
 * than the whole of a small op (it was a fifth of `mul -> sum -> backward` on 4 elements,
 * through `zeros`' `fill_`). So binding says why a call does not fit as a `BindFailure` (a
 * message, no stack), and only the call that fits no signature becomes a thrown error.
 */
/**
 * What a binder hands its front end (Note [Schema types]): Tensor handles (or numbers too, for
 * the Tensors other than `self`, under `numbersAsTensors`), None as undefined, a `ScalarType`
 * resolved to its DType (aliases such as 'float' included).
 */
export interface BinderRepr<O extends BinderOptions> extends ValueRepr {
  readonly tensor: O extends { readonly numbersAsTensors: true } ? Tensor | number | boolean | bigint : Tensor;
  readonly self: O extends { readonly numbersAsTensors: true; readonly numberSelf: true } ? Tensor | number | boolean | bigint : Tensor;
  readonly none: undefined;
  readonly dtype: DType;
}

/** The values a binder of schema `S` returns, in schema order. */
export type BoundValues<S extends string, O extends BinderOptions = BinderOptions> = SchemaValues<S, BinderRepr<O>>;

export interface Binder {
  /** The JS name the caller used, for messages: `leakyRelu`. */
  readonly name: string;
  readonly schema: OpSchema;
  /** The keyword (camelCase) of each schema argument. */
  readonly keywords: readonly string[];
  /**
   * The call's values in schema order: defaults filled in, None as `undefined`, `int[N]`
   * given as one int expanded to N, everything type-checked.
   */
  bind(args: readonly unknown[]): unknown[];
  /**
   * As `bind`, but a call that does not fit the schema gives a `BindFailure` instead of
   * throwing: an overload set tries its signatures in turn, and a thrown error (its stack
   * captured) costs more than a whole small op (Note [Overloads bind without throwing]).
   */
  tryBind(args: readonly unknown[]): unknown[] | BindFailure;
  /** The other signatures of the same entry point, where it has several (makeOverloads). */
  readonly overloads?: readonly Binder[];
}

/** A binder whose `bind` returns the values typed by its schema `S` (Note [Schema types]). */
export interface TypedBinder<S extends string, O extends BinderOptions = BinderOptions> extends Binder {
  bind(args: readonly unknown[]): BoundValues<S, O>;
}

export interface BinderOptions {
  /**
   * `Tensor` arguments other than `self` also take a Number, as PyTorch's parser allows for
   * binary ops and a few others (`clamp(x, 0, t)`: `should_allow_numbers_as_tensors`).
   */
  readonly numbersAsTensors?: boolean;
  /**
   * With `numbersAsTensors`, `self` takes a Number too: PyTorch's parser allows it for add,
   * sub, mul, div, true_divide and floor_divide (`should_allow_numbers_as_tensors`), so
   * `torch.sub(1, p)` is `1 - p`.
   */
  readonly numberSelf?: boolean;
  /** Keywords PyTorch accepts that torch-ts does not support yet: given a value other than None or the default, NotImplementedError. */
  readonly unsupported?: readonly string[];
  /**
   * The last positional, an int list, may also be given as variadic ints: `x.view(2, 3)` as
   * well as `x.view([2, 3])`, `zeros(2, 3)` as well as `zeros([2, 3])` (Note [Variadic int lists]).
   */
  readonly varargs?: boolean;
  /**
   * A Python method's binding (a module's `__init__`): the counts in "takes N positional
   * arguments but M were given" include Python's `self`, as Python's own message does.
   */
  readonly countSelf?: boolean;
}

/** The JS spelling of an aten or argument name: `leaky_relu` -> `leakyRelu`. */
export function camelName(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** An argument's keyword: its camelCased name; `self` is `input`, as PyTorch's Python names it. */
export function keywordOf(schemaName: string): string {
  return schemaName === 'self' ? 'input' : camelName(schemaName);
}

/** A plain object: the trailing options object of a call (never a Tensor, array or class instance). */
export function isOptionsObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
  const proto: unknown = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

type Check = (v: unknown) => unknown | typeof INVALID;
const INVALID: unique symbol = Symbol('invalid');

interface Param {
  readonly arg: ArgSchema;
  readonly keyword: string;
  readonly optional: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  /** The type as PyTorch's messages name it: `Tensor`, `Number`, `int`, `tuple of ints`... */
  readonly expected: string;
  readonly check: Check;
}

/** A call a binder bound: the JS arguments as the caller wrote them. */
export interface BoundCall {
  readonly binder: Binder;
  readonly args: readonly unknown[];
}

let traced: BoundCall[] | null = null;

/**
 * Runs `f` and lists the calls bound during it, in order: the first is the entry point's
 * (the test package's generated argument test finds each op's schema and arguments so).
 */
export function traceBinds<T>(f: () => T): { readonly value: T; readonly calls: readonly BoundCall[] } {
  const outer = traced;
  const calls: BoundCall[] = [];
  traced = calls;
  try {
    return { value: f(), calls };
  } finally {
    traced = outer;
  }
}

/** A binder for one schema; its `bind` returns the values typed by the schema (Note [Schema types]). */
export function makeBinder<const S extends string, const O extends BinderOptions = {}>(name: string, schemaText: S, options?: O): TypedBinder<S, O> {
  // (the one place where the checked values become the schema's tuple: `bind` builds them
  // argument by argument from the same schema text)
  return binderOf(name, schemaText, options ?? {}, undefined) as TypedBinder<S, O>;
}

function binderOf(name: string, schemaText: string, options: BinderOptions, overloads: readonly Binder[] | undefined): Binder {
  const schema = parseSchema(schemaText);
  // (`self` only under `numberSelf`; a list never: `add([1, 2], x)` is refused as PyTorch refuses it)
  const params = schema.args.map((a) => paramOf(name, a, options.numbersAsTensors === true && (a.name !== 'self' || options.numberSelf === true)));
  const positional = params.filter((p) => !p.arg.kwargOnly).length;
  const required = params.filter((p) => !p.arg.kwargOnly && !p.hasDefault && !p.optional).length;
  const byKeyword = new Map(params.map((p, i) => [p.keyword, i]));
  const unsupported = new Set(options.unsupported ?? []);
  // (overloads: in one of them at least, which makeOverloads checks)
  if (!overloads) for (const k of unsupported) if (!byKeyword.has(k)) throw new Error(`makeBinder(${name}): unsupported keyword '${k}' is not in ${schemaText}`);

  // (the last positional, an int list: `size` of view(self, size) and of zeros(size, *, ...))
  const varargs = options.varargs === true ? positional - 1 : -1;
  const varType = varargs >= 0 ? schema.args[varargs].type : '';
  if (varargs >= 0 && !/^((Sym)?[Ii]nt|Tensor)\[\]\??$/.test(varType)) throw new Error(`makeBinder(${name}): varargs needs an int or Tensor list as the last positional in ${schemaText}`);
  const tensorVarargs = varType.startsWith('Tensor');

  const tryBind = (args: readonly unknown[]): unknown[] | BindFailure => {
    let n = args.length;
    // Trailing `undefined`s are "not given" (`f(x, undefined)`), as JS's own optional parameters are.
    while (n > 0 && args[n - 1] === undefined) n--;
    let kwargs: Record<string, unknown> | undefined;
    const last = n > 0 ? args[n - 1] : undefined;
    if (isOptionsObject(last)) {
      kwargs = last;
      n--;
    }
    let varList: unknown[] | undefined;
    // (a Tensor list also gathers one Tensor, or none where its keyword is not given either)
    const gather =
      varargs >= 0 &&
      (tensorVarargs
        ? n > varargs ? !Array.isArray(args[varargs]) : n === varargs && !(kwargs && Object.prototype.hasOwnProperty.call(kwargs, params[varargs].keyword))
        : n > varargs + 1 && !Array.isArray(args[varargs]));
    if (gather) {
      // (a plain loop: `x.view(2, 3)` is a hot call)
      varList = new Array<unknown>(n - varargs);
      for (let i = varargs; i < n; i++) varList[i - varargs] = args[i];
      n = varargs + 1;
    }
    if (n > positional) {
      const c = options.countSelf === true ? 1 : 0;
      const takes = required === positional ? `${positional + c}` : `from ${required + c} to ${positional + c}`;
      return new BindFailure(`${name}() takes ${takes} positional argument${positional + c === 1 ? '' : 's'} but ${n + c} ${n + c === 1 ? 'was' : 'were'} given`);
    }
    // (`out[i] !== undefined` is "given": positionally, or by keyword below)
    const out = new Array<unknown>(params.length);
    for (let i = 0; i < n; i++) out[i] = args[i];
    if (varList) out[varargs] = varList;
    if (kwargs) {
      for (const key in kwargs) {
        if (!Object.prototype.hasOwnProperty.call(kwargs, key)) continue;
        const i = byKeyword.get(key);
        if (i === undefined) return new BindFailure(`${name}() got an unexpected keyword argument '${key}'`);
        const v = kwargs[key];
        if (v === undefined) continue;
        if (out[i] !== undefined) return new BindFailure(`${name}(): argument '${key}' given by name ('${key}') and position (${i + 1})`);
        out[i] = v;
      }
    }
    let missing: string[] | undefined;
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      const v = out[i];
      if (v === undefined || v === null) {
        if (p.hasDefault) out[i] = p.defaultValue;
        else if (p.optional) out[i] = undefined;
        else if (v === null) return new BindFailure(mustBe(name, p, i, v, kwargs));
        else (missing ??= []).push(p.keyword);
        continue;
      }
      if (unsupported.has(p.keyword) && !(p.hasDefault && v === p.defaultValue)) throw new NotImplementedError(`${name}(): argument '${p.keyword}' is not supported by torch-ts yet`);
      const checked = p.check(v);
      if (checked === INVALID) return new BindFailure(mustBe(name, p, i, v, kwargs));
      out[i] = checked;
    }
    if (missing) {
      return new BindFailure(`${name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${missing.map((m) => `"${m}"`).join(', ')}`);
    }
    if (traced !== null) traced.push({ binder, args: args.slice() });
    return out;
  };
  const bind = (args: readonly unknown[]): unknown[] => {
    const r = tryBind(args);
    if (r instanceof BindFailure) throw new TorchTypeError(r.message);
    return r;
  };
  const binder: Binder = { name, schema, keywords: params.map((p) => p.keyword), bind, tryBind, overloads };
  return binder;
}

/**
 * Why a call did not bind: the TypeError's message, made into an error only where the call
 * fails for good (Note [Overloads bind without throwing]).
 */
export class BindFailure {
  constructor(readonly message: string) {}
}

function mustBe(name: string, p: Param, i: number, v: unknown, kwargs: Record<string, unknown> | undefined): string {
  if (p.expected === 'tuple of Tensors' && Array.isArray(v)) {
    // (which element is wrong, as PyTorch's parser says it for a Tensor list)
    const j = v.findIndex((x) => !(x instanceof Tensor));
    if (j >= 0) return `${name}(): expected Tensor as element ${j} in argument ${i}, but got ${typeName(v[j])}`;
  }
  if (p.expected.startsWith('tuple of ') && Array.isArray(v)) {
    // (PyTorch names the first element that is wrong, counting from 1)
    const item = p.arg.type.replace(/\[\d*\]\??$/, '');
    const j = v.findIndex((x) => checkOf(item, name).check(x) === INVALID);
    if (j >= 0) return `${name}(): argument '${p.keyword}' must be ${p.expected}, but found element of type ${typeName(v[j])} at pos ${j + 1}`;
  }
  const where = kwargs && p.keyword in kwargs ? '' : ` (position ${i + 1})`;
  return `${name}(): argument '${p.keyword}'${where} must be ${p.expected}, not ${typeName(v)}`;
}

/** A JS value's type, as the messages name it. */
export function typeName(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'Array';
  if (typeof x === 'object') return x.constructor?.name ?? 'object';
  return typeof x;
}

function paramOf(name: string, arg: ArgSchema, numbersAsTensors: boolean): Param {
  const optional = arg.type.endsWith('?');
  const base = optional ? arg.type.slice(0, -1) : arg.type;
  const { expected, check } = numbersAsTensors && base === 'Tensor' ? TENSOR_OR_NUMBER : checkOf(base, name);
  const hasDefault = arg.defaultValue !== undefined;
  let defaultValue: unknown = undefined;
  if (hasDefault) {
    const parsed = parseDefault(arg.defaultValue!);
    defaultValue = parsed === null ? undefined : check(parsed) === INVALID ? parsed : check(parsed);
  }
  return { arg, keyword: keywordOf(arg.name), optional, hasDefault, defaultValue, expected, check };
}

/** A schema default: `None`, `True`, `0.01`, `-1`, `[]`, `[0, 1]`, `'none'`, `"mean"`, `contiguous_format`. */
export function parseDefault(text: string): unknown {
  const t = text.trim();
  if (t === 'None') return null;
  if (t === 'True') return true;
  if (t === 'False') return false;
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  if (t === 'inf') return Infinity;
  if (t === '-inf') return -Infinity;
  if (t.startsWith('[') && t.endsWith(']')) {
    const inner = t.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map((s) => parseDefault(s));
  }
  if ((t.startsWith("'") && t.endsWith("'")) || (t.startsWith('"') && t.endsWith('"'))) return t.slice(1, -1);
  return t; // an enum word: contiguous_format, long, Mean...
}

const isNumber = (v: unknown): boolean => typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean';
const TENSOR_OR_NUMBER = { expected: 'Tensor or Number', check: (v: unknown) => (v instanceof Tensor || isNumber(v) ? v : INVALID) };
const isInt = (v: unknown): boolean => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';

function checkOf(base: string, name: string): { expected: string; check: Check } {
  if (base.endsWith('?')) {
    // (an optional element of a list: `int?[2] output_size`, where None keeps a size)
    const inner = checkOf(base.slice(0, -1), name);
    return { expected: inner.expected, check: (v) => (v === null || v === undefined ? null : inner.check(v)) };
  }
  const list = /^(\w+\??)\[(\d*)\]$/.exec(base);
  if (list) {
    const [, elem, nText] = list;
    const n = nText === '' ? undefined : Number(nText);
    const item = checkOf(elem, name);
    const expected = elem === 'Tensor' ? 'tuple of Tensors' : `tuple of ${item.expected === 'int' ? 'ints' : item.expected === 'float' ? 'floats' : item.expected === 'bool' ? 'bools' : `${item.expected}s`}`;
    return {
      expected,
      check: (v) => {
        // PyTorch expands one int given for `int[N]` to N copies (`kernel_size=3` -> (3, 3)),
        // and takes one int for `int[]` as a list of one (`x.permute(0)`, `sum(dim=1)`).
        if (!Array.isArray(v)) {
          if (elem === 'Tensor' || elem === 'bool' || v === null) return INVALID;
          const c = item.check(v);
          return c === INVALID ? INVALID : new Array(n ?? 1).fill(c);
        }
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const c = item.check(v[i]);
          if (c === INVALID) return INVALID;
          out[i] = c;
        }
        return out;
      },
    };
  }
  switch (base) {
    case 'Tensor':
      return { expected: 'Tensor', check: (v) => (v instanceof Tensor ? v : INVALID) };
    case 'Scalar':
      return { expected: 'Number', check: (v) => (isNumber(v) ? v : INVALID) };
    case 'int':
    case 'SymInt':
      return { expected: 'int', check: (v) => (isInt(v) ? (typeof v === 'bigint' ? Number(v) : v) : INVALID) };
    case 'float':
      return { expected: 'float', check: (v) => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : INVALID) };
    case 'bool':
      return { expected: 'bool', check: (v) => (typeof v === 'boolean' ? v : INVALID) };
    case 'str':
      return { expected: 'str', check: (v) => (typeof v === 'string' ? v : INVALID) };
    case 'ScalarType':
      // (names and aliases, resolved: `parseDType` says which strings are dtypes, in its own words)
      return { expected: 'dtype', check: (v) => (isDType(v) ? v : typeof v === 'string' ? parseDType(name, v) : INVALID) };
    case 'Device':
      return { expected: 'Device', check: (v) => (typeof v === 'string' || v instanceof Device || (typeof v === 'object' && v !== null && 'type' in v) ? v : INVALID) };
    case 'MemoryFormat':
      return { expected: 'memory_format', check: (v) => (typeof v === 'string' ? v : INVALID) };
    case 'Layout':
      return { expected: 'layout', check: (v) => (typeof v === 'string' ? v : INVALID) };
    case 'Generator':
      return { expected: 'Generator', check: (v) => (v instanceof Generator ? v : INVALID) };
    case 'Dimname':
      return { expected: 'name', check: (v) => (typeof v === 'string' ? v : INVALID) };
    case 'Any':
      // (a union the schema language cannot spell, checked by the front end itself: a conv
      // layer's `padding`, an int, a tuple or 'same')
      return { expected: 'object', check: (v) => v };
    default:
      throw new Error(`makeBinder: no binding for schema type '${base}'`);
  }
}

/** The overload a call bound to (its index in the list given) and its values, as a union over the overloads. */
export type OverloadCall<S extends readonly string[], O extends BinderOptions> = number extends S['length']
  ? { readonly index: number; readonly values: unknown[] }
  : { [K in keyof S]: K extends `${infer I extends number}` ? { readonly index: I; readonly values: BoundValues<S[K], O> } : never }[number];

/** A binder over several schemas (PyTorch's overloads: `pow(Tensor, Tensor)`, `pow(Scalar, Tensor)`...). */
export interface OverloadBinder {
  readonly name: string;
  /** The first overload the call binds to (in the order given), and its values. */
  bind(args: readonly unknown[]): { readonly index: number; readonly values: unknown[] };
}

/** An overload binder whose `bind` says which overload bound, with its values typed by that schema. */
export interface TypedOverloadBinder<S extends readonly string[], O extends BinderOptions = BinderOptions> extends OverloadBinder {
  bind(args: readonly unknown[]): OverloadCall<S, O>;
}

/**
 * Tries each schema in order, as PyTorch's parser tries a function's signatures; a call that
 * binds to none raises PyTorch's "received an invalid combination of arguments" with the
 * signatures it could have matched.
 */
export function makeOverloads<const S extends readonly string[], const O extends BinderOptions = {}>(name: string, schemaTexts: S, options?: O): TypedOverloadBinder<S, O> {
  const binders: Binder[] = [];
  for (const t of schemaTexts) binders.push(binderOf(name, t, options ?? {}, binders));
  for (const k of options?.unsupported ?? []) {
    if (!binders.some((b) => b.keywords.includes(k))) throw new Error(`makeOverloads(${name}): unsupported keyword '${k}' is in none of ${schemaTexts.join(' | ')}`);
  }
  // (as in makeBinder: each overload's values are built from its own schema text)
  const untyped: OverloadBinder = {
    name,
    bind(args) {
      for (let i = 0; i < binders.length; i++) {
        const values = binders[i].tryBind(args);
        if (!(values instanceof BindFailure)) return { index: i, values };
      }
      const got = args.filter((a) => a !== undefined).map((a) => (isOptionsObject(a) ? `{${Object.keys(a).join(', ')}}` : typeName(a)));
      const sigs = binders.map((b) => ` * (${b.schema.args.map((a, j) => `${a.kwargOnly && !b.schema.args[j - 1]?.kwargOnly ? '*, ' : ''}${a.type} ${keywordOf(a.name)}`).join(', ')})`);
      return fail(`${name}() received an invalid combination of arguments - got (${got.join(', ')}), but expected one of:\n${sigs.join('\n')}`);
    },
  };
  return untyped as TypedOverloadBinder<S, O>;
}

function fail(message: string): never {
  throw new TorchTypeError(message);
}

/**
 * The JS parameters after an op's required ones: any prefix of its optional positionals `P`
 * (each may be null or undefined, meaning None), then optionally the options object `O`.
 * `OptionalArgs<[number, boolean], O>` admits `()`, `(o)`, `(n)`, `(n, o)`, `(n, b)`, `(n, b, o)`.
 */
export type OptionalArgs<P extends unknown[], O> = P extends [infer H, ...infer R] ? [options?: O] | [arg?: H | null, ...OptionalArgs<R, O>] : [options?: O];

/**
 * The JS parameters after `input` of an op with required positionals `P` and optional ones
 * `Q`: any prefix of `P` then the options object `O` holding the rest by keyword, or all of
 * `P` then `OptionalArgs<Q, O>`. `BoundArgs<[number, number], [], O>` admits `(d, i)`,
 * `(d, i, o)`, `(d, o)`, `(o)`. (One signature, not overloads: Tensor methods take their
 * types from it, and a method type inferred from overloads keeps only the last.)
 */
export type BoundArgs<P extends unknown[], Q extends unknown[], O> = P extends [infer H, ...infer R] ? [options: O] | [arg: H, ...BoundArgs<R, Q, O>] : OptionalArgs<Q, O>;
