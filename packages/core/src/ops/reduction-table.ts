import type { OperatorHandle } from '../dispatch/dispatcher';
import { parseSchema, type ArgSchema } from '../dispatch/schema';
import { getDefaultDtype, isFloatingType, isIntegralType, parseDType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { TensorImpl } from '../tensor/tensor-impl';
import { makeBinder } from './binder';
import { unwrapTensor } from './call';
import { broadcastTo, releaseAll, scalarTensor, torchTypeName } from './meta-utils';
import { callWithOut, defineOutVariant } from './out-variant';
import { argIndex, opmath, reduce, requireNonEmpty, rowReduce } from './reduction-kernels';
import { defineStructured, implOf, type Backend } from './registry';
import { REDUCTION_TABLE, type ReductionTableName } from './table/reduction';
import type { ReductionDtypeRule, ReductionRest, ReductionRow } from './table/reduction-types';
import { dispatcherName, type DispatcherName } from './table/types';
import { REDUCTION_TABLE_NAMES } from './generated/table-names';

/**
 * The operators and front ends of the op table's reduction rows (Note [The op table]): each
 * row becomes `name.overload` (PyTorch's: `sum.dim_IntList`) and its out= variant, with the
 * meta its row declares (the result dtype, the empty-input rules, the dtypes its kernel
 * rejects), computed by the backend impl the row names, called as its `reduces` says; and
 * the front end `torch.name` / `x.name`, bound by the row's arguments.
 */

type RowOf<K extends ReductionTableName> = (typeof REDUCTION_TABLE)[K];

/** The front end of row `K` (`torch.sum`): its arguments positionally in schema order or by keyword, and `out`. */
export type ReductionFn<K extends ReductionTableName> = (input: Tensor, ...rest: ReductionRest<RowOf<K>['args']>) => Tensor;

/** The dispatcher's name of row `K`'s functional operator (`sum.dim_IntList`, `amax`). */
export type ReductionOperatorName<K extends ReductionTableName> = RowOf<K> extends { readonly overload: infer O extends string } ? `${DispatcherName<K>}.${O}` : DispatcherName<K>;

/** A row's operators, its front end, and the readers of its boxed arguments (`self` first, as a Node keeps them). */
export interface ReductionOperators {
  readonly op: OperatorHandle;
  readonly out: OperatorHandle;
  /** The front end, untyped: `torch.name` is it typed by the row (ReductionFn, generated/table-ops.ts). */
  readonly fn: (...args: unknown[]) => Tensor;
  /** The dims a call named (an `int? dim` as a list of one), or null where it named none (every dim). */
  readonly dims: (boxed: readonly unknown[]) => number[] | null;
  readonly keepdim: (boxed: readonly unknown[]) => boolean;
}

/** The result dtype a row's `rule` gives (ReductionDtypeRule), `dtype` being the call's `dtype=`. */
function resultDtype(op: string, rule: ReductionDtypeRule, self: DType, dtype: DType | null): DType {
  switch (rule) {
    case 'sum':
      return dtype ?? (isIntegralType(self, true) ? 'int64' : self);
    case 'floating': {
      const d = dtype ?? self;
      if (!isFloatingType(d)) {
        throw new DTypeError(`${op}(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: ${torchTypeName(d)}`);
      }
      return d;
    }
    case 'self':
      return self;
    case 'index':
      return 'int64';
    // (a legacy of masks: uint8 stays uint8)
    case 'bool':
      return self === 'uint8' ? 'uint8' : 'bool';
    case 'float':
      return isFloatingType(self) ? self : getDefaultDtype();
  }
}

/** Where a row's `dim`, `keepdim` and `dtype` are among its operators' boxed arguments (`self` first). */
interface ArgReaders {
  readonly dims: (boxed: readonly unknown[]) => number[] | null;
  readonly keepdim: (boxed: readonly unknown[]) => boolean;
  readonly dtype: (boxed: readonly unknown[]) => DType | null;
}

function argReaders(name: string, args: readonly ArgSchema[]): ArgReaders {
  const at = (arg: string) => args.findIndex((a) => a.name === arg);
  const d = at('dim');
  const k = at('keepdim');
  const t = at('dtype');
  if (d < 0 || k < 0) throw new Error(`op table: the reduction ${name} has no 'dim' or no 'keepdim' argument`);
  const list = args[d].type.startsWith('int[');
  if (!list && !args[d].type.startsWith('int')) throw new Error(`op table: ${name}'s dim is '${args[d].type}', not an int or an int list`);
  return {
    dims: list
      ? (boxed) => {
          const v = boxed[d];
          return Array.isArray(v) && v.every((x): x is number => typeof x === 'number') ? v : null;
        }
      : (boxed) => {
          const v = boxed[d];
          return typeof v === 'number' ? [v] : null;
        },
    keepdim: (boxed) => boxed[k] === true,
    dtype: t < 0 ? () => null : (boxed) => (boxed[t] == null ? null : parseDType(name, boxed[t])),
  };
}

function selfOf(name: string, boxed: readonly unknown[]): TensorImpl {
  const s = boxed[0];
  if (s instanceof TensorImpl) return s;
  throw new TorchError(`${name}: internal error: self is not a tensor`);
}

/** mean: `out` (the sum in the result dtype) divided in place by the count, as PyTorch's CPU mean computes it. */
function average(b: Backend, op: string, self: TensorImpl, out: TensorImpl): TensorImpl {
  if (out.numel === 0) return out;
  const count = self.numel === 0 ? 0 : self.numel / out.numel; // 0 / 0 gives PyTorch's nan for an empty input
  const n = scalarTensor(b, op, count, out.dtype, out.device);
  const nb = broadcastTo(n, out.sizes);
  try {
    implOf(b, 'div', op)(out, out, nb);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    releaseAll([nb, n]);
  }
  return out;
}

/** The kernel of a row's functional operator: its meta, then its impl as `reduces` says. */
function kernelOf(key: ReductionTableName, name: string, read: ArgReaders): (boxed: readonly unknown[], b: Backend) => TensorImpl {
  const row = REDUCTION_TABLE[key];
  const erased: ReductionRow = row;
  const bool = erased.rejects?.bool;
  const rejectBool = (s: TensorImpl) => {
    if (bool && s.dtype === 'bool') throw new DTypeError(`${name}: ${typeof bool === 'string' ? bool : `"${erased.kernel}" not implemented for 'Bool'`}`);
  };
  if (row.reduces === 'index') {
    const impl = row.impl;
    return (boxed, b) => {
      const s = selfOf(name, boxed);
      rejectBool(s);
      const dims = read.dims(boxed);
      return argIndex(b, name, impl, s, dims === null ? null : dims[0], read.keepdim(boxed));
    };
  }
  if (row.reduces === 'rows') {
    const impl = row.impl;
    return (boxed, b) => {
      const s = selfOf(name, boxed);
      rejectBool(s);
      const out = resultDtype(name, row.rule, s.dtype, read.dtype(boxed));
      const compute = row.rule === 'bool' ? 'bool' : opmath(out);
      return rowReduce(b, name, s, read.dims(boxed), read.keepdim(boxed), compute, [out], (o, r) => implOf(b, impl, name)(o[0], r.work, r.rowLength))[0];
    };
  }
  const impl = row.impl;
  const noIdentity = erased.identity === false;
  const averaged = erased.average === true;
  return (boxed, b) => {
    const s = selfOf(name, boxed);
    rejectBool(s);
    const dims = read.dims(boxed);
    const out = resultDtype(name, row.rule, s.dtype, read.dtype(boxed));
    if (noIdentity) requireNonEmpty(name, s, dims);
    const r = reduce(b, name, impl, s, dims, read.keepdim(boxed), out);
    return averaged ? average(b, name, s, r) : r;
  };
}

/**
 * A row's front end, bound by Note [The argument binder] against the row's arguments: positionally
 * in schema order or by keyword, then `out` by keyword.
 */
function frontOf(name: string, row: ReductionRow, op: OperatorHandle, out: OperatorHandle): (...args: unknown[]) => Tensor {
  const binder = makeBinder(name, `${name}(Tensor self, ${row.args}${row.args.includes('*') ? '' : ', *'}, Tensor? out=None) -> Tensor`);
  return (...args) => {
    const bound = binder.bind(args);
    const n = bound.length - 1;
    // (the binder checked it: `Tensor? out`)
    const last = bound[n];
    const a: unknown[] = [unwrapTensor(name, 'input', bound[0])];
    for (let i = 1; i < n; i++) a.push(bound[i] ?? null);
    return callWithOut(op, out, a, last instanceof Tensor ? last : undefined);
  };
}

function defineReduction(key: ReductionTableName): ReductionOperators {
  const row: ReductionRow = REDUCTION_TABLE[key];
  const name = dispatcherName(key);
  const schema = `${name}${row.overload ? `.${row.overload}` : ''}(Tensor self, ${row.args}) -> Tensor`;
  const read = argReaders(name, parseSchema(schema).args);
  const op = defineStructured(schema, kernelOf(key, name, read), ['reduction']);
  const out = defineOutVariant(op);
  return { op, out, fn: frontOf(name, row, op, out), dims: read.dims, keepdim: read.keepdim };
}

const OPERATORS = new Map(REDUCTION_TABLE_NAMES.map((key) => [key, defineReduction(key)]));

/** The operators, front end and argument readers of reduction row `key`. */
export function reductionOperators(key: ReductionTableName): ReductionOperators {
  const o = OPERATORS.get(key);
  if (!o) throw new Error(`op table: no reduction row '${key}'`);
  return o;
}

/** `torch.name` of row `key`, typed by generated/table-ops.ts (ReductionFn). */
export function reductionFn(key: ReductionTableName): (...args: unknown[]) => Tensor {
  return reductionOperators(key).fn;
}

// The generated name list must be the table's keys (test/op-table.test.ts regenerates it).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatchTable: Same<(typeof REDUCTION_TABLE_NAMES)[number], ReductionTableName> = true;
void namesMatchTable;
