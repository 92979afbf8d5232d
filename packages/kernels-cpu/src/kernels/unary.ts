import type { TableUnaryImpls, UnaryImpl } from '@torch-ts/core';
import { onScratchUnary, runFloatUnary, runInt64Unary, runScratchUnary, type FloatUnaryRow } from '../loops/pointwise';
import { unsupportedDtype } from './binary';
import { copy } from './copy';
import { bitwiseNot, logicalNot } from './logical';
import { digamma, i0, lgamma_, sinc } from './special';
import { UNARY, unaryWasm } from './pointwise-wasm';
import { roundModeOf } from './float-math';
import { absInt64Row, negInt64Row, reluInt64Row, signInt64Row, type Int64UnaryRow } from './int64-rows';
import {
  acoshRow,
  acosRow,
  asinhRow,
  asinRow,
  atanhRow,
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

/**
 * The CPU kernel of every unary row of core's op table (Note [The op table]): a row missing
 * here is a compile error.
 */
export const UNARY_IMPLS = {
  neg: unary('neg', negRow, { kind: 'compute', int64: negInt64Row }, UNARY.neg),
  abs: unary('abs', absRow, { kind: 'compute', int64: absInt64Row }, UNARY.abs),
  relu: unary('relu', reluRow, { kind: 'compute', int64: reluInt64Row }, UNARY.relu),
  floor: unary('floor', floorRow, IDENTITY),
  ceil: unary('ceil', ceilRow, IDENTITY),
  exp: unary('exp', expRow, NONE, UNARY.exp),
  log: unary('log', logRow, NONE, UNARY.log),
  sqrt: unary('sqrt', sqrtRow, NONE, UNARY.sqrt),
  sin: unary('sin', sinRow, NONE),
  cos: unary('cos', cosRow, NONE),
  tanh: unary('tanh', tanhRow, NONE, UNARY.tanh),
  sigmoid: unary('sigmoid', sigmoidRow, NONE, UNARY.sigmoid),
  rsqrt: unary('rsqrt', rsqrtRow, NONE),
  reciprocal: unary('reciprocal', reciprocalRow, NONE),
  sign: unary('sign', signRow, { kind: 'compute', int64: signInt64Row }),
  trunc: unary('trunc', truncRow, IDENTITY),
  frac: unary('frac', fracRow, NONE),
  exp2: unary('exp2', exp2Row, NONE),
  expm1: unary('expm1', expm1Row, NONE),
  log2: unary('log2', log2Row, NONE),
  log10: unary('log10', log10Row, NONE),
  log1p: unary('log1p', log1pRow, NONE),
  tan: unary('tan', tanRow, NONE),
  asin: unary('asin', asinRow, NONE),
  acos: unary('acos', acosRow, NONE),
  atan: unary('atan', atanRow, NONE),
  sinh: unary('sinh', sinhRow, NONE),
  cosh: unary('cosh', coshRow, NONE),
  asinh: unary('asinh', asinhRow, NONE),
  acosh: unary('acosh', acoshRow, NONE),
  atanh: unary('atanh', atanhRow, NONE),
  erf: unary('erf', erfRow, NONE, UNARY.erf),
  erfc: unary('erfc', erfcRow, NONE),
  erfinv: unary('erfinv', erfinvRow, NONE),
  // special.ts
  lgamma: lgamma_,
  digamma,
  i0,
  sinc,
  // logical.ts
  logicalNot,
  bitwiseNot,
} satisfies TableUnaryImpls;
