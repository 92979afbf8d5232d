import { isFloatingType, type DType } from '../dtype';
import { DTypeError } from '../errors';
import type { Tensor } from '../tensor/tensor';
import type { OptionalArgs } from './binder';
import { torchTypeName } from './meta-utils';
import { definePointwise, unaryFront, type OutOptions, type PointwiseOp } from './pointwise';
import { implOf } from './registry';
import type { UnaryRow } from './table/types';
import { UNARY_TABLE, type UnaryTableName } from './table/unary';
import type { UNARY_TABLE_NAMES } from './generated/table-names';

/**
 * The operators and front ends of the op table's unary rows (Note [The op table]): each row
 * becomes `name`, `name_` and `name.out` in the dispatcher, with the dtype checks its row
 * declares, computed by the backend impl of the same name.
 */

/** PyTorch's errors for the compute dtypes a row rejects. */
function checkOf(row: UnaryRow) {
  const { bool, integral } = row.rejects ?? {};
  if (!bool && !integral) return undefined;
  const kernel = row.kernel;
  return (op: string, compute: DType) => {
    if (bool && compute === 'bool') {
      throw new DTypeError(`${op}: ${typeof bool === 'string' ? bool : `"${kernel}" not implemented for 'Bool'`}`);
    }
    if (integral && !isFloatingType(compute)) throw new DTypeError(`${op}: "${kernel}" not implemented for '${torchTypeName(compute)}'`);
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

function defineUnary(name: UnaryTableName, row: UnaryRow): UnaryTableOp<unknown> {
  const op = definePointwise({
    name,
    arity: 1,
    rule: row.rule,
    check: checkOf(row),
    compute: (b, opName, out, [x]) => implOf(b, name, opName)(out, x),
  });
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

// The generated name list must be the table's keys (test/op-table.test.ts regenerates it).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatchTable: Same<(typeof UNARY_TABLE_NAMES)[number], UnaryTableName> = true;
void namesMatchTable;
