import { parseSchema, type ArgSchema } from '../dispatch/schema';
import type { SplitArgs } from '../dispatch/schema-types';
import { isFloatingType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder, makeOverloads, parseDefault, type OptionalArgs } from './binder';
import { callFunctional, callMutating, unwrapTensor, unwrapTensorOrScalar } from './call';
import { torchTypeName } from './meta-utils';
import { binaryFront, definePointwise, unaryFront, type OutOptions, type PointwiseDef, type PointwiseOp } from './pointwise';
import { implOf } from './registry';
import type { TableBinaryImplName } from './backend-impls';
import {
  dispatcherName,
  type ActivationArg,
  type ActivationRow,
  type ArgNameOf,
  type ArgValueOf,
  type BinaryArg,
  type BinaryRow,
  type TernaryRow,
  type RowChoices,
  type UnaryRow,
} from './table/types';
import { ACTIVATION_TABLE, type ActivationTableName } from './table/activation';
import { BINARY_TABLE, type BinaryTableName } from './table/binary';
import { TERNARY_TABLE, type TernaryTableName } from './table/ternary';
import { UNARY_TABLE, type UnaryTableName } from './table/unary';
import { ACTIVATION_TABLE_NAMES, BINARY_TABLE_NAMES, TERNARY_TABLE_NAMES, UNARY_TABLE_NAMES } from './generated/table-names';

/**
 * The operators and front ends of the op table's rows (Note [The op table]): each row
 * becomes `name`, `name_` and `name.out` in the dispatcher (PyTorch's name: `logical_and`),
 * with the dtype checks its row declares, computed by the backend impl named as the row
 * (`logicalAnd`).
 */

/** PyTorch's errors for the compute dtypes a row rejects. */
function checkOf(row: Pick<UnaryRow, 'rejects' | 'kernel'>) {
  const { bool, integral, floating, reducedFloating } = row.rejects ?? {};
  if (!bool && !integral && !floating && !reducedFloating) return undefined;
  const kernel = row.kernel;
  return (op: string, compute: DType) => {
    if (bool && compute === 'bool') {
      throw new DTypeError(`${op}: ${typeof bool === 'string' ? bool : `"${kernel}" not implemented for 'Bool'`}`);
    }
    const reduced = compute === 'float16' || compute === 'bfloat16';
    if ((integral && !isFloatingType(compute)) || (floating && isFloatingType(compute)) || (reducedFloating && reduced)) {
      throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(compute)}'`);
    }
  };
}

type Unary = (input: Tensor, options?: OutOptions) => Tensor;
/** F.relu's spelling: `relu(x, true)` / `relu(x, { inplace: true })` is `relu_(x)`. */
type UnaryWithInplaceArg = (input: Tensor, ...rest: OptionalArgs<[inplace: boolean], OutOptions & InplaceOption>) => Tensor;

/** `inplace: true` is F.*'s spelling of the in-place form (F.relu, F.leaky_relu). */
export interface InplaceOption {
  inplace?: boolean;
}

export interface UnaryTableOp<F> {
  readonly op: PointwiseOp;
  readonly fn: F;
  readonly inplace: (self: Tensor) => Tensor;
}

type FrontOf<K extends UnaryTableName> = (typeof UNARY_TABLE)[K] extends { readonly inplaceArg: true } ? UnaryWithInplaceArg : Unary;

/** A row's operators: `compute` calls the backend impl of the row's name, after the dtype checks the row declares. */
function rowOperators(name: string, row: UnaryRow | BinaryRow, arity: 1 | 2, compute: PointwiseDef['compute']): PointwiseOp {
  return definePointwise({
    name: dispatcherName(name),
    arity,
    rule: row.rule,
    check: checkOf(row),
    inplace: !('inplace' in row) || row.inplace !== false,
    compute,
  });
}

function defineUnary(name: UnaryTableName, row: UnaryRow): UnaryTableOp<unknown> {
  const op = rowOperators(name, row, 1, (b, opName, out, [x]) => implOf(b, name, opName)(out, x));
  return { op, ...unaryFront(op, { inplaceArg: row.inplaceArg === true }) };
}

export const UNARY_OPS = Object.fromEntries(UNARY_TABLE_NAMES.map((name) => [name, defineUnary(name, UNARY_TABLE[name])])) as {
  readonly [K in UnaryTableName]: UnaryTableOp<FrontOf<K>>;
};

/** The Tensor methods of the unary rows: `x.exp()`, `x.exp_()`. */
export const UNARY_METHODS = Object.fromEntries(
  Object.entries(UNARY_OPS).flatMap(([name, o]) => [
    [name, o.fn],
    [`${name}_`, o.inplace],
  ]),
) as { readonly [K in UnaryTableName]: FrontOf<K> } & { readonly [K in UnaryTableName as `${K}_`]: (self: Tensor) => Tensor };

// ---- binary rows ----
type Scalar = number | bigint | boolean;
type BinaryRowOf<K extends BinaryTableName> = (typeof BINARY_TABLE)[K];
type OtherOf<K extends BinaryTableName> = BinaryRowOf<K> extends { readonly scalarOther: true } ? Tensor | Scalar : Tensor;
type SelfOf<K extends BinaryTableName> = BinaryRowOf<K> extends { readonly scalarSelf: true } | { readonly numberSelf: true } ? Tensor | Scalar : Tensor;
type HasInplace<K extends BinaryTableName> = BinaryRowOf<K> extends { readonly inplace: false } ? false : true;
type BinaryArgsText<R> = R extends { readonly args: infer A extends string } ? A : '';

/** The keyword options of a binary row's front ends (`{ alpha?: Scalar }`), without `out`. */
export type BinaryOptions<K extends BinaryTableName> = {
  [A in Exclude<SplitArgs<BinaryArgsText<BinaryRowOf<K>>>[number], '*'> as Camel<ArgNameOf<A>>]?: ArgValueOf<A, RowChoices<BinaryRowOf<K>>, Scalar>;
};
/** The function form of binary row `K`: `add(x, y, { alpha, out })`. */
export type BinaryFn<K extends BinaryTableName> = (input: SelfOf<K>, other: OtherOf<K>, options?: BinaryOptions<K> & OutOptions) => Tensor;
/** The in-place form of binary row `K`: `x.add_(y, { alpha })`, `x.mul_(y)`. */
export type BinaryInplace<K extends BinaryTableName> =
  BinaryArgsText<BinaryRowOf<K>> extends '' ? (self: Tensor, other: OtherOf<K>) => Tensor : (self: Tensor, other: OtherOf<K>, options?: BinaryOptions<K>) => Tensor;

export interface BinaryTableOp<K extends BinaryTableName> {
  readonly op: PointwiseOp;
  readonly fn: BinaryFn<K>;
  readonly inplace: BinaryInplace<K>;
  /** The row's arguments from its operators' boxed ones (`self`, `other` first), defaults filled in: what its check, compute and formula get. */
  readonly args: BinaryArgsReader;
}

/** Reads a binary row's arguments (BinaryTableOp's `args`). */
export type BinaryArgsReader = (boxed: readonly unknown[]) => readonly BinaryArg[];

/** One binary row argument from its boxed value, as BinaryArg says. */
function binaryArgReader(op: string, arg: ArgSchema): (v: unknown) => BinaryArg {
  const d = arg.defaultValue === undefined ? undefined : parseDefault(arg.defaultValue);
  if (arg.type === 'str?') return (v) => (v === undefined || v === null ? null : String(v));
  if (arg.type === 'Scalar' && typeof d === 'number') {
    return (v) => (v === undefined || v === null ? d : typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? v : Number(v));
  }
  throw new Error(`op table: ${op}'s argument '${arg.type} ${arg.name}' is not one a binary row takes (Scalar with a default, str?)`);
}

/** The reader of a binary (`arity` 2) or ternary (3) row's keyword-only arguments, after its operands in the boxed arguments. */
function binaryArgsReader(name: string, text: string, arity = 2): BinaryArgsReader {
  if (text === '') return () => [];
  if (!text.startsWith('*')) throw new Error(`op table: ${name}'s arguments must be keyword-only, as PyTorch's binary ops' are ('*, ${text}')`);
  const readers = parseSchema(`${name}(${['Tensor a', 'Tensor b', 'Tensor c'].slice(0, arity).join(', ')}, ${text}) -> Tensor`)
    .args.slice(arity)
    .map((a) => binaryArgReader(name, a));
  const n = readers.length;
  return (boxed) => {
    const args = new Array<BinaryArg>(n);
    for (let i = 0; i < n; i++) args[i] = readers[i](boxed[i + arity]);
    return args;
  };
}

/** The operands of a binary (ternary) operator's boxed arguments, as the user gave them. */
function operandsOf(boxed: readonly unknown[], arity = 2): (TensorImpl | Scalar)[] {
  const ops: (TensorImpl | Scalar)[] = [];
  for (let i = 0; i < arity; i++) {
    const o = boxed[i];
    if (o instanceof TensorImpl || typeof o === 'number' || typeof o === 'bigint' || typeof o === 'boolean') ops.push(o);
    else throw new Error(`op table: operand ${i} is ${typeof o}, not a tensor or a scalar`);
  }
  return ops;
}

/**
 * The function form of a row with a Scalar `self` overload (pow): bound as PyTorch's parser
 * binds it, against `name.Tensor_Tensor`, `name.Tensor_Scalar` (where the row has
 * `scalarOther`) and `name.Scalar` in turn, so a call that fits none gets PyTorch's "received
 * an invalid combination of arguments". A number `self` runs the same operators (pointwise
 * operators take a scalar in any operand slot, promoted as `result_type(2, x)`).
 */
function scalarSelfFront(name: string, op: PointwiseOp, otherName: string, scalarOther: boolean) {
  const overloads = makeOverloads(name, [
    `${name}.Tensor_Tensor(Tensor self, Tensor ${otherName}, *, Tensor? out=None) -> Tensor`,
    ...(scalarOther ? [`${name}.Tensor_Scalar(Tensor self, Scalar ${otherName}, *, Tensor? out=None) -> Tensor`] : []),
    `${name}.Scalar(Scalar self, Tensor ${otherName}, *, Tensor? out=None) -> Tensor`,
  ]);
  return (...args: unknown[]): Tensor => {
    const [self, other, out] = overloads.bind(args).values;
    const a: unknown[] = [unwrapTensorOrScalar(name, 'input', self), unwrapTensorOrScalar(name, otherName, other)];
    if (!(out instanceof Tensor)) return callFunctional(op.functional, a);
    a.push(unwrapTensor(name, 'out', out));
    return callMutating(op.out, a, out);
  };
}

/** A row computed by the impl of its name: every row without a `compute` of its own. */
function isPlain(name: BinaryTableName): name is TableBinaryImplName {
  const row: BinaryRow = BINARY_TABLE[name];
  return row.compute === undefined;
}

/**
 * The checks of a binary row: its `choices` (a `str?` argument is None or one of them, with
 * PyTorch's message for div's rounding_mode), the dtypes it rejects, then its own `check`.
 */
function binaryCheck(name: string, row: Pick<BinaryRow, 'args' | 'choices' | 'check' | 'rejects' | 'kernel'>, read: BinaryArgsReader): PointwiseDef['check'] {
  const dtypes = checkOf(row);
  const own = row.check;
  const schemaArgs = row.args ? parseSchema(`${name}(${row.args}) -> Tensor`).args : [];
  const choices = Object.entries(row.choices ?? {}).map(([arg, values]) => {
    const at = schemaArgs.findIndex((a) => a.name === arg);
    if (at < 0) throw new Error(`op table: ${name}'s choices name '${arg}', which is not one of its arguments`);
    const quoted = values.map((v) => `'${v}'`);
    const expected = `null, ${quoted.slice(0, -1).join(', ')}, or ${quoted[quoted.length - 1]}`;
    return { arg, values, at, expected };
  });
  if (choices.length === 0 && !own) return dtypes;
  return (op, compute, operands, boxed) => {
    const args = read(boxed);
    for (const c of choices) {
      const v = args[c.at];
      if (v !== null && !c.values.includes(String(v))) throw new TorchError(`${op}: expected ${c.arg} to be one of ${c.expected} but found '${String(v)}'`);
    }
    dtypes?.(op, compute);
    own?.(op, compute, args, operands);
  };
}

/** A row without a `compute`: the impl of its name. */
function plainCompute(key: BinaryTableName): PointwiseDef['compute'] {
  if (!isPlain(key)) throw new Error(`op table: ${key} has a compute of its own`);
  return (b, opName, out, [x, y]) => implOf(b, key, opName)(out, x, y);
}

function defineBinary(key: BinaryTableName, row: BinaryRow): BinaryTableOp<BinaryTableName> {
  const name = dispatcherName(key);
  const text = row.args ?? '';
  const read = binaryArgsReader(name, text);
  const ruleFor = row.ruleFor;
  const compute = row.compute;
  const op = definePointwise({
    name,
    arity: 2,
    extraArgs: text || undefined,
    rule: ruleFor ? (boxed) => ruleFor(read(boxed)) : row.rule,
    check: binaryCheck(name, row, read),
    inplace: row.inplace !== false,
    compute: compute
      ? (b, opName, out, [x, y], boxed) => compute((impl) => implOf(b, impl, opName), out, x, y, read(boxed), operandsOf(boxed))
      : plainCompute(key),
  });
  const otherName = row.otherName ?? 'other';
  const front = binaryFront(op, text.replace(/^\*,\s*/, ''), { numbers: row.scalarOther === true, otherName, numberSelf: row.numberSelf === true });
  if (row.scalarSelf) {
    if (text !== '') throw new Error(`op table: ${key} has a Scalar self overload and arguments, which the overload front does not bind`);
    return { op, fn: scalarSelfFront(name, op, otherName, row.scalarOther === true), inplace: front.inplace, args: read };
  }
  return { op, ...front, args: read };
}

export const BINARY_OPS = Object.fromEntries(BINARY_TABLE_NAMES.map((name) => [name, defineBinary(name, BINARY_TABLE[name])])) as {
  readonly [K in BinaryTableName]: BinaryTableOp<K>;
};

type BinaryMethodRow = { [K in BinaryTableName]: BinaryRowOf<K> extends { readonly method: false } ? never : K }[BinaryTableName];

/** The Tensor methods of the binary rows: `x.hypot(y)`, and `x.hypot_(y)` where the row has an in-place form (not torch.special's rows). */
export const BINARY_METHODS = Object.fromEntries(
  BINARY_TABLE_NAMES.flatMap((name) => {
    const o = BINARY_OPS[name];
    const row: BinaryRow = BINARY_TABLE[name];
    if (row.method === false) return [];
    return row.inplace === false ? [[name, o.fn]] : [[name, o.fn], [`${name}_`, o.inplace]];
  }),
) as { readonly [K in BinaryMethodRow]: BinaryFn<K> } & {
  readonly [K in BinaryMethodRow as HasInplace<K> extends true ? `${K}_` : never]: BinaryInplace<K>;
};

// ---- ternary rows ----
type TernaryRowOf<K extends TernaryTableName> = (typeof TERNARY_TABLE)[K];
type LastOf<K extends TernaryTableName> = TernaryRowOf<K> extends { readonly scalarLast: true } ? Tensor | Scalar : Tensor;
type TernaryArgsText<R> = R extends { readonly args: infer A extends string } ? A : '';

/** The keyword options of a ternary row's front ends (`{ value?: Scalar }`), without `out`. */
export type TernaryOptions<K extends TernaryTableName> = {
  [A in Exclude<SplitArgs<TernaryArgsText<TernaryRowOf<K>>>[number], '*'> as Camel<ArgNameOf<A>>]?: ArgValueOf<A, RowChoices<TernaryRowOf<K>>, Scalar>;
};
/** The function form of ternary row `K`: `addcmul(x, t1, t2, { value, out })`. */
export type TernaryFn<K extends TernaryTableName> = (input: Tensor, a: Tensor, b: LastOf<K>, options?: TernaryOptions<K> & OutOptions) => Tensor;
/** The in-place form of ternary row `K`: `x.addcmul_(t1, t2, { value })`, `x.lerp_(end, 0.5)`. */
export type TernaryInplace<K extends TernaryTableName> =
  TernaryArgsText<TernaryRowOf<K>> extends '' ? (self: Tensor, a: Tensor, b: LastOf<K>) => Tensor : (self: Tensor, a: Tensor, b: LastOf<K>, options?: TernaryOptions<K>) => Tensor;

export interface TernaryTableOp<K extends TernaryTableName> {
  readonly op: PointwiseOp;
  readonly fn: TernaryFn<K>;
  readonly inplace: TernaryInplace<K>;
  /** The row's arguments from its operators' boxed ones (the three operands first), defaults filled in. */
  readonly args: BinaryArgsReader;
}

/**
 * A ternary row's front ends, bound by Note [The argument binder]: the operands by their
 * schema names (a number for the last where the row has `scalarLast`), then the row's keyword
 * arguments and `out`.
 */
function ternaryFront(name: string, op: PointwiseOp, row: TernaryRow) {
  const [, a, b] = row.operands;
  const text = row.args ?? '';
  const extra = text.replace(/^\*,\s*/, '');
  const numbers = { numbersAsTensors: row.scalarLast === true };
  const inplaceName = `${name}_`;
  const fnArgs = makeBinder(name, `${name}(Tensor self, Tensor ${a}, Tensor ${b}, *, ${extra ? `${extra}, ` : ''}Tensor? out=None) -> Tensor`, numbers);
  const inplaceArgs = makeBinder(inplaceName, `${inplaceName}(Tensor self, Tensor ${a}, Tensor ${b}${extra ? `, *, ${extra}` : ''}) -> Tensor`, numbers);
  const nExtra = fnArgs.schema.args.length - 4;
  const last = (op: string, x: unknown) => (row.scalarLast ? unwrapTensorOrScalar(op, b, x) : unwrapTensor(op, b, x));
  const operands = (op: string, bound: readonly unknown[], self: string): unknown[] => {
    const args: unknown[] = [unwrapTensor(op, self, bound[0]), unwrapTensor(op, a, bound[1]), last(op, bound[2])];
    for (let i = 0; i < nExtra; i++) args.push(bound[3 + i] ?? null);
    return args;
  };
  return {
    fn: (...args: unknown[]): Tensor => {
      const bound = fnArgs.bind(args);
      const call = operands(name, bound, 'input');
      const out = bound[3 + nExtra];
      if (!(out instanceof Tensor)) return callFunctional(op.functional, call);
      call.push(unwrapTensor(name, 'out', out));
      return callMutating(op.out, call, out);
    },
    inplace: (...args: unknown[]): Tensor => {
      const bound = inplaceArgs.bind(args);
      const call = operands(inplaceName, bound, 'self'); // (refuses a `self` that is not a Tensor)
      const self = bound[0];
      if (!op.inplace || !(self instanceof Tensor)) throw new TorchError(`${inplaceName}: there is no in-place variant of ${name}`);
      return callMutating(op.inplace, call, self);
    },
  };
}

function defineTernary(key: TernaryTableName, row: TernaryRow): TernaryTableOp<TernaryTableName> {
  const name = dispatcherName(key);
  const read = binaryArgsReader(name, row.args ?? '', 3);
  const compute = row.compute;
  const op = definePointwise({
    name,
    arity: 3,
    operandNames: row.operands,
    extraArgs: row.args || undefined,
    rule: row.rule,
    check: binaryCheck(name, row, read),
    compute: (b, opName, out, inputs, boxed) => compute((impl) => implOf(b, impl, opName), out, inputs, read(boxed), operandsOf(boxed, 3)),
  });
  return { op, ...ternaryFront(name, op, row), args: read };
}

export const TERNARY_OPS = Object.fromEntries(TERNARY_TABLE_NAMES.map((name) => [name, defineTernary(name, TERNARY_TABLE[name])])) as {
  readonly [K in TernaryTableName]: TernaryTableOp<K>;
};

/** The Tensor methods of the ternary rows: `x.lerp(end, w)`, `x.addcmul_(t1, t2)`. */
export const TERNARY_METHODS = Object.fromEntries(
  TERNARY_TABLE_NAMES.flatMap((name) => [
    [name, TERNARY_OPS[name].fn],
    [`${name}_`, TERNARY_OPS[name].inplace],
  ]),
) as { readonly [K in TernaryTableName]: TernaryFn<K> } & { readonly [K in TernaryTableName as `${K}_`]: TernaryInplace<K> };

// ---- unary rows with arguments (the activations) ----
type ActivationRowOf<K extends ActivationTableName> = (typeof ACTIVATION_TABLE)[K];

/** The arguments of a row's front ends, in schema syntax: its `frontArgs`, or else its `args`. */
type FrontArgsText<R> = R extends { readonly frontArgs: infer F extends string } ? F : R extends { readonly args: infer A extends string } ? A : never;
type FrontArgList<R> = SplitArgs<FrontArgsText<R>>;
/** `negative_slope` -> `negativeSlope` (the binder's keyword, Note [The argument binder]). */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;
type Positional<L extends readonly string[], C> = L extends readonly [infer H extends string, ...infer T extends string[]]
  ? H extends '*'
    ? []
    : [ArgValueOf<H, C>, ...Positional<T, C>]
  : [];
type HasInplaceArg<R> = R extends { readonly inplaceArg: true } ? true : false;
/** F.*'s `inplace`: positional after the row's arguments, unless they end keyword-only. */
type InplacePositional<R> = HasInplaceArg<R> extends true ? ('*' extends FrontArgList<R>[number] ? [] : [inplace: boolean]) : [];

/** The keyword options of a row's front ends (`{ negativeSlope?: number }`), without `out` and `inplace`. */
export type ActivationOptions<K extends ActivationTableName> = {
  [A in Exclude<FrontArgList<ActivationRowOf<K>>[number], '*'> as Camel<ArgNameOf<A>>]?: ArgValueOf<A, RowChoices<ActivationRowOf<K>>>;
};
type FnPositional<R> = [...Positional<FrontArgList<R>, RowChoices<R>>, ...InplacePositional<R>];
type FnOptions<K extends ActivationTableName> = ActivationOptions<K> & OutOptions & (HasInplaceArg<ActivationRowOf<K>> extends true ? InplaceOption : {});
/**
 * The function form of row `K` (`leakyRelu`): its arguments positionally in schema order or by
 * keyword, F.*'s `inplace` where it has it, and `out`.
 */
export type ActivationFn<K extends ActivationTableName> = (input: Tensor, ...rest: OptionalArgs<FnPositional<ActivationRowOf<K>>, FnOptions<K>>) => Tensor;
/** The in-place form of row `K` (`leakyRelu_(x, 0.2)`). */
export type ActivationInplace<K extends ActivationTableName> = (
  self: Tensor,
  ...rest: OptionalArgs<Positional<FrontArgList<ActivationRowOf<K>>, RowChoices<ActivationRowOf<K>>>, ActivationOptions<K>>
) => Tensor;

export interface ActivationTableOp<K extends ActivationTableName> {
  readonly op: PointwiseOp;
  readonly fn: ActivationFn<K>;
  /** null where the row has no in-place form (gelu, softplus). */
  readonly inplace: ActivationRowOf<K> extends { readonly inplace: false } ? null : ActivationInplace<K>;
  /**
   * The row's arguments from its operators' boxed ones (`self` first, as a Node keeps them too):
   * defaults where none was given, numbers as numbers, then the row's `implArgs`. What its impl,
   * its check and its formula get (ActivationArgs).
   */
  readonly args: ActivationArgsReader;
}

/** Reads a row's arguments (ActivationTableOp's `args`). */
export type ActivationArgsReader = (boxed: readonly unknown[]) => readonly ActivationArg[];

/** One argument from its boxed value, as ActivationArg says. */
function argReader(op: string, arg: ArgSchema): (v: unknown) => ActivationArg {
  const d = arg.defaultValue === undefined ? undefined : parseDefault(arg.defaultValue);
  if (arg.type === 'float?') return (v) => (v === undefined || v === null ? null : Number(v));
  if ((arg.type === 'Scalar' || arg.type === 'int' || arg.type === 'float') && typeof d === 'number') {
    return (v) => (v === undefined || v === null ? d : Number(v));
  }
  if (arg.type === 'str' && typeof d === 'string') return (v) => (v === undefined || v === null ? d : String(v));
  // (a required int, as polygamma's n and mvlgamma's p: the binder has refused a call without it)
  if (arg.type === 'int' && d === undefined) return (v) => Number(v);
  throw new Error(`op table: ${op}'s argument '${arg.type} ${arg.name}' is not one an activation row takes (Scalar, int or float with a default, int, float?, str with a default)`);
}

/**
 * Reads a row's arguments from its operators' boxed ones (`self` first) and pushes them onto
 * `into`, as ActivationArgs says them (its `implArgs` applied). (Built without closures per
 * argument or intermediate arrays: it runs on every call.)
 */
function argsPusher(name: string, row: ActivationRow): (boxed: readonly unknown[], into: unknown[]) => void {
  const schema = parseSchema(`${name}(Tensor self${row.args ? `, ${row.args}` : ''}) -> Tensor`);
  const readers = schema.args.slice(1).map((a) => argReader(name, a));
  const n = readers.length;
  const implArgs = row.implArgs;
  if (implArgs) {
    return (boxed, into) => {
      const args = new Array<ActivationArg>(n);
      for (let i = 0; i < n; i++) args[i] = readers[i](boxed[i + 1]);
      const given = implArgs(args);
      for (let i = 0; i < given.length; i++) into.push(given[i]);
    };
  }
  return (boxed, into) => {
    for (let i = 0; i < n; i++) into.push(readers[i](boxed[i + 1]));
  };
}

function argsReader(push: (boxed: readonly unknown[], into: unknown[]) => void): ActivationArgsReader {
  return (boxed) => {
    const args: ActivationArg[] = [];
    push(boxed, args);
    return args;
  };
}

/** The checks of a row: its `choices` (PyTorch's message), the dtypes it rejects, then its own `check`. */
function activationCheck(name: string, row: ActivationRow, read: ActivationArgsReader): PointwiseDef['check'] {
  const dtypes = checkOf(row);
  const schemaArgs = parseSchema(`${name}(${row.args}) -> Tensor`).args;
  // (a choice reads its one argument: `self` is boxed first)
  const choices = Object.entries(row.choices ?? {}).map(([arg, values]) => {
    const at = schemaArgs.findIndex((a) => a.name === arg);
    if (at < 0) throw new Error(`op table: ${name}'s choices name '${arg}', which is not one of its arguments`);
    return { arg, values, at: at + 1, read: argReader(name, schemaArgs[at]) };
  });
  const own = row.check;
  if (choices.length === 0 && !own) return dtypes;
  return (op, compute, operands, boxed) => {
    for (const c of choices) {
      const v = c.read(boxed[c.at]);
      if (!c.values.includes(String(v))) throw new TorchError(`${op}: ${c.arg} argument must be either ${c.values.join(' or ')}.`);
    }
    dtypes?.(op, compute);
    const self = operands[0];
    if (own) own(op, compute, read(boxed), self instanceof TensorImpl ? self.dtype : compute);
  };
}

/**
 * The kernel's arguments from a front end's bound ones (`self` first): each named by the front
 * end's schema, or its default where the front end does not take it (F.elu's scale and
 * input_scale).
 */
function kernelArgsOf(name: string, kernel: readonly ArgSchema[], front: readonly ArgSchema[]): (self: TensorImpl, bound: readonly unknown[]) => unknown[] {
  const at = kernel.map((a) => front.findIndex((f) => f.name === a.name));
  const defaults = kernel.map((a, i) => {
    if (at[i] >= 0) return undefined;
    if (a.defaultValue === undefined) throw new Error(`op table: ${name}'s frontArgs omit '${a.name}', which has no default`);
    return parseDefault(a.defaultValue);
  });
  const n = kernel.length;
  return (self, bound) => {
    const a: unknown[] = [self];
    for (let i = 0; i < n; i++) a.push(at[i] < 0 ? defaults[i] : bound[at[i]]);
    return a;
  };
}

/**
 * An activation's front ends, bound by Note [The argument binder] against the row's front
 * arguments: the function form takes them positionally in schema order or by keyword, then F.*'s
 * `inplace` where the row has it, and `out`; the in-place form takes the same arguments.
 */
function activationFront(name: string, op: PointwiseOp, row: ActivationRow) {
  const text = row.frontArgs ?? row.args;
  const extra = text ? `, ${text}` : '';
  const inplaceArg = row.inplaceArg === true;
  const fnArgs = makeBinder(name, `${name}(Tensor self${extra}${inplaceArg ? ', bool inplace=False' : ''}${text.includes('*') ? '' : ', *'}, Tensor? out=None) -> Tensor`);
  const inplaceName = `${name}_`;
  const inplaceArgs = makeBinder(inplaceName, `${inplaceName}(Tensor self${extra}) -> Tensor`);
  const nFront = inplaceArgs.schema.args.length - 1;
  const kernelArgs = kernelArgsOf(name, op.functional.schema.args.slice(1), inplaceArgs.schema.args);
  const inplaceOp = op.inplace;
  const inplace =
    inplaceOp === null
      ? null
      : (...args: unknown[]): Tensor => {
          const bound = inplaceArgs.bind(args);
          const self = bound[0];
          return callMutating(inplaceOp, kernelArgs(unwrapTensor(inplaceName, 'self', self), bound), self);
        };
  const fn = (...args: unknown[]): Tensor => {
    const bound = fnArgs.bind(args);
    const self = bound[0];
    // (the binder checked it: `Tensor? out`)
    const last = bound[bound.length - 1];
    const out = last instanceof Tensor ? last : undefined;
    if (inplaceArg && inplaceOp !== null && bound[1 + nFront] === true) {
      if (out) throw new TorchError(`${name}: out= cannot be combined with inplace=True`);
      return callMutating(inplaceOp, kernelArgs(unwrapTensor(inplaceName, 'self', self), bound), self);
    }
    const a = kernelArgs(unwrapTensor(name, 'input', self), bound);
    if (!out) return callFunctional(op.functional, a);
    a.push(unwrapTensor(name, 'out', out));
    return callMutating(op.out, a, out);
  };
  return { fn, inplace };
}

/** A row's operators and front ends, before ACTIVATION_OPS types them by the row (any row's are one). */
interface UntypedActivationOp {
  readonly op: PointwiseOp;
  readonly fn: (...args: never) => Tensor;
  readonly inplace: ((...args: never) => Tensor) | null;
  readonly args: ActivationArgsReader;
}

function defineActivation(key: ActivationTableName, row: ActivationRow): UntypedActivationOp {
  const name = dispatcherName(key);
  const push = argsPusher(name, row);
  const args = argsReader(push);
  const op = definePointwise({
    name,
    arity: 1,
    extraArgs: row.args || undefined,
    rule: row.rule,
    check: activationCheck(name, row, args),
    inplace: row.inplace !== false,
    // (the impl's parameters after `self` are ActivationArgs of the row's `args` text, which is
    // what `push` reads from the same text: a call the compiler cannot pair across rows)
    compute: (b, opName, out, inputs, boxed) => {
      const call: unknown[] = [out, inputs[0]];
      push(boxed, call);
      Reflect.apply(implOf(b, key, opName), undefined, call);
    },
  });
  return { op, ...activationFront(name, op, row), args };
}

export const ACTIVATION_OPS = Object.fromEntries(ACTIVATION_TABLE_NAMES.map((name) => [name, defineActivation(name, ACTIVATION_TABLE[name])])) as {
  readonly [K in ActivationTableName]: ActivationTableOp<K>;
};

type MethodRow = { [K in ActivationTableName]: ActivationRowOf<K> extends { readonly method: true } ? K : never }[ActivationTableName];

/** The Tensor methods of the activation rows that PyTorch has as methods: `x.logit()`, `x.logit_()`. */
export const ACTIVATION_METHODS = Object.fromEntries(
  ACTIVATION_TABLE_NAMES.flatMap((name) => {
    const row: ActivationRow = ACTIVATION_TABLE[name];
    const o = ACTIVATION_OPS[name];
    return row.method ? [[name, o.fn], [`${name}_`, o.inplace]] : [];
  }),
) as { readonly [K in MethodRow]: ActivationFn<K> } & { readonly [K in MethodRow as `${K}_`]: ActivationInplace<K> };

// The generated name lists must be the tables' keys (test/op-table.test.ts regenerates them).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatchTable: [
  Same<(typeof UNARY_TABLE_NAMES)[number], UnaryTableName>,
  Same<(typeof BINARY_TABLE_NAMES)[number], BinaryTableName>,
  Same<(typeof ACTIVATION_TABLE_NAMES)[number], ActivationTableName>,
  Same<(typeof TERNARY_TABLE_NAMES)[number], TernaryTableName>,
] = [true, true, true, true];
void namesMatchTable;
