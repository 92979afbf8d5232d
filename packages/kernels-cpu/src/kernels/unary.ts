import type { UnaryImpl } from '@torch-ts/core';
import { onScratchUnary, runFloatUnary, runInt64Unary, runScratchUnary, type FloatUnaryRow } from '../loops/pointwise';
import { unsupportedDtype } from './binary';
import { copy } from './copy';
import { UNARY, unaryWasm } from './pointwise-wasm';
import { roundModeOf } from './float-math';
import { absInt64Row, negInt64Row, reluInt64Row, signInt64Row, type Int64UnaryRow } from './int64-rows';
import {
  acosRow,
  asinRow,
  atanRow,
  coshRow,
  erfcRow,
  erfinvRow,
  erfRow,
  exp2Row,
  expm1Row,
  fracRow,
  log10Row,
  log1pRow,
  log2Row,
  reciprocalRow,
  rsqrtRow,
  signRow,
  sinhRow,
  tanRow,
  truncRow,
} from './math-rows';
import {
  absRow,
  ceilRow,
  cosRow,
  expRow,
  floorRow,
  logRow,
  negRow,
  reluRow,
  sigmoidRow,
  sinRow,
  sqrtRow,
  tanhRow,
} from './unary-rows';

/**
 * How a unary op treats integer dtypes: `compute` runs the float row on integer-valued
 * scratch (exact for neg/abs/relu), `identity` is a copy (floor and ceil of an integer, as
 * PyTorch's kernels do), `none` means core always hands this op a floating dtype (frac's
 * core check rejects integers as PyTorch does).
 */
type IntegerRule = { readonly kind: 'compute'; readonly int64: Int64UnaryRow } | { readonly kind: 'identity' } | { readonly kind: 'none' };

function unary(op: string, row: FloatUnaryRow, ints: IntegerRule, wasmOp?: number): UnaryImpl {
  const scratch = onScratchUnary(row);
  return (out, a) => {
    const d = out.dtype;
    if (wasmOp !== undefined && d === 'float32' && unaryWasm(wasmOp, out, a)) return;
    const mode = roundModeOf(d);
    if (d === 'float32' || d === 'float64') runFloatUnary(out, a, row, mode);
    else if (d === 'float16' || d === 'bfloat16') runScratchUnary(out, a, scratch, mode);
    else if (ints.kind === 'identity') copy(out, a);
    else if (ints.kind === 'none') throw unsupportedDtype(op, out);
    else if (d === 'int64') runInt64Unary(out, a, ints.int64);
    else runScratchUnary(out, a, scratch, mode);
  };
}

const NONE = { kind: 'none' } as const;
const IDENTITY = { kind: 'identity' } as const;

export const neg: UnaryImpl = unary('neg', negRow, { kind: 'compute', int64: negInt64Row }, UNARY.neg);
export const abs: UnaryImpl = unary('abs', absRow, { kind: 'compute', int64: absInt64Row }, UNARY.abs);
export const relu: UnaryImpl = unary('relu', reluRow, { kind: 'compute', int64: reluInt64Row }, UNARY.relu);
export const floor: UnaryImpl = unary('floor', floorRow, IDENTITY);
export const ceil: UnaryImpl = unary('ceil', ceilRow, IDENTITY);
export const exp: UnaryImpl = unary('exp', expRow, NONE, UNARY.exp);
export const log: UnaryImpl = unary('log', logRow, NONE, UNARY.log);
export const sqrt: UnaryImpl = unary('sqrt', sqrtRow, NONE, UNARY.sqrt);
export const sin: UnaryImpl = unary('sin', sinRow, NONE);
export const cos: UnaryImpl = unary('cos', cosRow, NONE);
export const tanh: UnaryImpl = unary('tanh', tanhRow, NONE, UNARY.tanh);
export const sigmoid: UnaryImpl = unary('sigmoid', sigmoidRow, NONE, UNARY.sigmoid);

export const rsqrt: UnaryImpl = unary('rsqrt', rsqrtRow, NONE);
export const reciprocal: UnaryImpl = unary('reciprocal', reciprocalRow, NONE);
export const sign: UnaryImpl = unary('sign', signRow, { kind: 'compute', int64: signInt64Row });
export const trunc: UnaryImpl = unary('trunc', truncRow, IDENTITY);
export const frac: UnaryImpl = unary('frac', fracRow, NONE);
export const exp2: UnaryImpl = unary('exp2', exp2Row, NONE);
export const expm1: UnaryImpl = unary('expm1', expm1Row, NONE);
export const log2: UnaryImpl = unary('log2', log2Row, NONE);
export const log10: UnaryImpl = unary('log10', log10Row, NONE);
export const log1p: UnaryImpl = unary('log1p', log1pRow, NONE);
export const tan: UnaryImpl = unary('tan', tanRow, NONE);
export const asin: UnaryImpl = unary('asin', asinRow, NONE);
export const acos: UnaryImpl = unary('acos', acosRow, NONE);
export const atan: UnaryImpl = unary('atan', atanRow, NONE);
export const sinh: UnaryImpl = unary('sinh', sinhRow, NONE);
export const cosh: UnaryImpl = unary('cosh', coshRow, NONE);
export const erf: UnaryImpl = unary('erf', erfRow, NONE, UNARY.erf);
export const erfc: UnaryImpl = unary('erfc', erfcRow, NONE);
export const erfinv: UnaryImpl = unary('erfinv', erfinvRow, NONE);
