import { isFloatingType, type DType } from '../dtype';
import { DTypeError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { OptionalArgs } from './binder';
import { torchTypeName } from './meta-utils';
import { binaryFront, definePointwise, unaryFront, type OutOptions, type PointwiseOp } from './pointwise';
import { implOf } from './registry';
import { dispatcherName, type BinaryRow, type UnaryRow } from './table/types';
import { BINARY_TABLE, type BinaryTableName } from './table/binary';
import { UNARY_TABLE, type UnaryTableName } from './table/unary';
import type { BINARY_TABLE_NAMES, UNARY_TABLE_NAMES } from './generated/table-names';

/**
 * The operators and front ends of the op table's rows (Note [The op table]): each row
 * becomes `name`, `name_` and `name.out` in the dispatcher (PyTorch's name: `logical_and`),
 * with the dtype checks its row declares, computed by the backend impl named as the row
 * (`logicalAnd`).
 */

/** PyTorch's errors for the compute dtypes a row rejects. */
function checkOf(row: Pick<UnaryRow, 'rejects' | 'kernel'>) {
  const { bool, integral, floating } = row.rejects ?? {};
  if (!bool && !integral && !floating) return undefined;
  const kernel = row.kernel;
  return (op: string, compute: DType) => {
    if (bool && compute === 'bool') {
      throw new DTypeError(`${op}: ${typeof bool === 'string' ? bool : `"${kernel}" not implemented for 'Bool'`}`);
    }
    if ((integral && !isFloatingType(compute)) || (floating && isFloatingType(compute))) {
      throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(compute)}'`);
    }
  };
}

type Unary = (input: Tensor, options?: OutOptions) => Tensor;
/** F.relu's spelling: `relu(x, true)` / `relu(x, { inplace: true })` is `relu_(x)`. */
type UnaryWithInplaceArg = (input: Tensor, ...rest: OptionalArgs<[inplace: boolean], OutOptions & { inplace?: boolean }>) => Tensor;

export interface UnaryTableOp<F> {
  readonly op: PointwiseOp;
  readonly fn: F;
  readonly inplace: (self: Tensor) => Tensor;
}

type FrontOf<K extends UnaryTableName> = (typeof UNARY_TABLE)[K] extends { readonly inplaceArg: true } ? UnaryWithInplaceArg : Unary;

/** A row's operators: the backend impl of the row's name computes, after the dtype checks the row declares. */
function rowOperators(name: UnaryTableName | BinaryTableName, row: UnaryRow | BinaryRow, arity: 1 | 2): PointwiseOp {
  return definePointwise({
    name: dispatcherName(name),
    arity,
    rule: row.rule,
    check: checkOf(row),
    inplace: !('inplace' in row) || row.inplace !== false,
    compute:
      arity === 1
        ? (b, opName, out, [x]) => implOf(b, name as UnaryTableName, opName)(out, x)
        : (b, opName, out, [x, y]) => implOf(b, name as BinaryTableName, opName)(out, x, y),
  });
}

function defineUnary(name: UnaryTableName, row: UnaryRow): UnaryTableOp<unknown> {
  const op = rowOperators(name, row, 1);
  return { op, ...unaryFront(op, { inplaceArg: row.inplaceArg === true }) };
}

export const UNARY_OPS = Object.fromEntries(
  Object.entries(UNARY_TABLE).map(([name, row]) => [name, defineUnary(name as UnaryTableName, row)]),
) as { readonly [K in UnaryTableName]: UnaryTableOp<FrontOf<K>> };

/** The Tensor methods of the unary rows: `x.exp()`, `x.exp_()`. */
export const UNARY_METHODS = Object.fromEntries(
  Object.entries(UNARY_OPS).flatMap(([name, o]) => [
    [name, o.fn],
    [`${name}_`, o.inplace],
  ]),
) as { readonly [K in UnaryTableName]: FrontOf<K> } & { readonly [K in UnaryTableName as `${K}_`]: (self: Tensor) => Tensor };

// ---- binary rows ----
type Scalar = number | bigint | boolean;
type OtherOf<K extends BinaryTableName> = (typeof BINARY_TABLE)[K] extends { readonly scalarOther: true } ? Tensor | Scalar : Tensor;
type HasInplace<K extends BinaryTableName> = (typeof BINARY_TABLE)[K] extends { readonly inplace: false } ? false : true;

export interface BinaryTableOp<O> {
  readonly op: PointwiseOp;
  readonly fn: (input: Tensor, other: O, options?: OutOptions) => Tensor;
  readonly inplace: (self: Tensor, other: O) => Tensor;
}

function defineBinary(name: BinaryTableName, row: BinaryRow): BinaryTableOp<never> {
  const op = rowOperators(name, row, 2);
  return { op, ...binaryFront(op, '', { numbers: row.scalarOther === true }) };
}

export const BINARY_OPS = Object.fromEntries(
  Object.entries(BINARY_TABLE).map(([name, row]) => [name, defineBinary(name as BinaryTableName, row)]),
) as { readonly [K in BinaryTableName]: BinaryTableOp<OtherOf<K>> };

/** The Tensor methods of the binary rows: `x.hypot(y)`, and `x.hypot_(y)` where the row has an in-place form. */
export const BINARY_METHODS = Object.fromEntries(
  Object.entries(BINARY_OPS).flatMap(([name, o]) => [
    [name, o.fn],
    ...((BINARY_TABLE[name as BinaryTableName] as BinaryRow).inplace === false ? [] : [[`${name}_`, o.inplace]]),
  ]),
) as { readonly [K in BinaryTableName]: BinaryTableOp<OtherOf<K>>['fn'] } & {
  readonly [K in BinaryTableName as HasInplace<K> extends true ? `${K}_` : never]: BinaryTableOp<OtherOf<K>>['inplace'];
};

// The generated name lists must be the tables' keys (test/op-table.test.ts regenerates them).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatchTable: [Same<(typeof UNARY_TABLE_NAMES)[number], UnaryTableName>, Same<(typeof BINARY_TABLE_NAMES)[number], BinaryTableName>] = [true, true];
void namesMatchTable;
