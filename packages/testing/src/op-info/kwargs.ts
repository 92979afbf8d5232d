import * as torch from '@torch-ts/torch';
import type { DType, Tensor } from '@torch-ts/torch';
import type { Kwargs } from './types';

/**
 * Note [Checked kwargs]
 * A golden case's kwargs are JSON (the options object as torch-ts spells it), plus the
 * `out` the runner adds for the out= form: nothing the compiler can know. An OpInfo entry
 * reads them through a schema, `options({ dim: intOrInts, keepdim: bool })`, which checks
 * every value at run time and throws a plain Error naming the key when one does not fit, or
 * when the case sets a key the schema does not name (the entry would drop an option the
 * golden sets). What comes back is the very object the case holds, typed as the schema
 * says, so the facade call sees what it always saw and the compiler checks the call
 * against the facade's own options type instead of being told (`k as never`).
 */

/** A check of one option's value: a type guard, and what it expects, for the message. */
export interface Check<T> {
  readonly is: (v: unknown) => v is T;
  readonly what: string;
}

/** A check whose key the case must set. */
export interface RequiredCheck<T> extends Check<T> {
  readonly required: true;
}

export const check = <T>(what: string, is: (v: unknown) => v is T): Check<T> => ({ is, what });

export const num = check('a number', (v): v is number => typeof v === 'number');
export const bool = check('a boolean', (v): v is boolean => typeof v === 'boolean');
/** An int list (`dims`, `shifts`, `normalizedShape`). */
export const ints = check('a list of numbers', (v): v is number[] => Array.isArray(v) && v.every((x: unknown) => typeof x === 'number'));
export const intOrInts = either(num, ints);
export const numOrBool = either(num, bool);
export const dtype = check('a dtype', (v): v is DType => torch.DTYPES.some((d) => d === v));
export const tensor = check('a tensor', (v): v is Tensor => v instanceof torch.Tensor);
/** The out= of a (values, indices) result. */
export const tensorPair = check(
  'a pair of tensors',
  (v): v is readonly [Tensor, Tensor] => Array.isArray(v) && v.length === 2 && v.every((x: unknown) => x instanceof torch.Tensor),
);
/** `out`: one tensor, or the pair of a (values, indices) result. */
export const tensorOrPair = either(tensor, tensorPair);

export function oneOf<const L extends readonly string[]>(...values: L): Check<L[number]> {
  return check(
    values.map((v) => `'${v}'`).join(' or '),
    (v): v is L[number] => values.some((x) => x === v),
  );
}

export function either<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return check(`${a.what} or ${b.what}`, (v): v is A | B => a.is(v) || b.is(v));
}

export function required<T>(c: Check<T>): RequiredCheck<T> {
  return { ...c, required: true };
}

export type Schema = Readonly<Record<string, Check<unknown>>>;

type Checked<C> = C extends Check<infer T> ? T : never;
type RequiredKeys<S extends Schema> = { [K in keyof S]: S[K] extends RequiredCheck<unknown> ? K : never }[keyof S];

/** The options object a schema admits: its required keys, and the others optional. */
export type Options<S extends Schema> = {
  [K in keyof S as K extends RequiredKeys<S> ? K : never]: Checked<S[K]>;
} & {
  [K in keyof S as K extends RequiredKeys<S> ? never : K]?: Checked<S[K]>;
};

/** The reader of a case's kwargs by `schema` (Note [Checked kwargs]). */
export function options<const S extends Schema>(schema: S): (k: Kwargs) => Options<S> {
  return (k) => {
    const o: unknown = k;
    checkOptions(schema, o);
    return o;
  };
}

function checkOptions<S extends Schema>(schema: S, k: unknown): asserts k is Options<S> {
  if (typeof k !== 'object' || k === null) throw new Error(`OpInfo kwargs: ${String(k)} is not an options object`);
  const keys = Object.keys(schema);
  for (const [key, value] of Object.entries(k)) {
    const c = Object.hasOwn(schema, key) ? schema[key] : undefined;
    if (!c) throw new Error(`OpInfo kwargs: the case sets '${key}', which the entry does not read (it reads ${keys.join(', ') || 'none'})`);
    if (!c.is(value)) throw new Error(`OpInfo kwargs: '${key}' is ${JSON.stringify(value) ?? String(value)}, expected ${c.what}`);
  }
  for (const key of keys) {
    if ('required' in schema[key] && !Object.hasOwn(k, key)) throw new Error(`OpInfo kwargs: the case does not set '${key}', which the entry needs`);
  }
}

/**
 * `read(k)` then `fn(x, options)`, or `fn(x)` when the case has no options: `x.max()` and
 * `x.max({})` mean the same, and the bare form is what users write.
 */
export function withOptions<O extends object, R>(read: (k: Kwargs) => O, fn: (self: Tensor, options?: NoInfer<O>) => R) {
  return (x: Tensor, k: Kwargs): R => {
    const o = read(k);
    return Object.keys(o).length ? fn(x, o) : fn(x);
  };
}

/** No options but out= (the unary, logical and bitwise ops). */
export const outOnly = options({ out: tensor });
