import { TorchError, f16BitsToNumber, f32ToF16Bits, type BinaryImpl, type TensorImpl } from '@torch-ts/core';
import { words } from '../loops/arrays';
import {
  onScratch,
  runF32Binary,
  runFloatBinary,
  runInt64Binary,
  runInt64Words,
  runScratchBinary,
  type FloatBinaryRow,
  type ScratchBinaryRow,
} from '../loops/pointwise';
import {
  addF32Row,
  addFmaRow,
  addRow,
  divFloorRow,
  divRow,
  divTruncRow,
  maximumRow,
  minimumRow,
  mulRow,
  powRow,
  remainderRow,
  subF32Row,
} from './binary-float-rows';
import { addIntRow, divFloorIntRow, divTruncIntRow, mulIntRow, powIntRow, remainderIntRow } from './binary-int-rows';
import { roundModeOf } from './float-math';
import {
  addInt64Row,
  addSubInt64WordsRow,
  divFloorInt64Row,
  divTruncInt64Row,
  maximumInt64Row,
  minimumInt64Row,
  mulInt64Row,
  powInt64Row,
  remainderInt64Row,
  type Int64BinaryRow,
} from './int64-rows';
import { BINARY, binaryWasm } from './pointwise-wasm';
import { checkedScalar } from './scalar';

/** The kernels of one binary op, one per family of dtypes (Note [Monomorphic loops]). */
export interface BinaryFamily {
  /** float32/float64 storage directly; float16/bfloat16 through scratch. */
  readonly float: FloatBinaryRow;
  /** int8, uint8, int16, int32, bool through scratch; absent where PyTorch has no int kernel. */
  readonly int: ScratchBinaryRow | null;
  readonly int64: Int64BinaryRow | null;
  /** Whether `p` is the rounding mode of the dtype (the division kernels). */
  readonly rounds?: boolean;
  /** The op code of the WebAssembly kernel for float32/float64 (Note [Pointwise ops on the WebAssembly kernels]). */
  readonly wasmOp?: number;
}

export function unsupportedDtype(op: string, t: TensorImpl): TorchError {
  return new TorchError(`${op}: the CPU kernel does not support dtype ${t.dtype}`);
}

export function binary(op: string, f: BinaryFamily): BinaryImpl {
  const floatScratch = onScratch(f.float);
  return (out, a, b) => {
    const d = out.dtype;
    const p = f.rounds ? roundModeOf(d) : 0;
    if (f.wasmOp !== undefined && binaryWasm(f.wasmOp, out, a, b)) return;
    if (d === 'float32' || d === 'float64') runFloatBinary(out, a, b, f.float, p);
    else if (d === 'float16' || d === 'bfloat16') runScratchBinary(out, a, b, floatScratch, p);
    else if (d === 'int64') {
      if (f.int64 === null) throw unsupportedDtype(op, out);
      runInt64Binary(out, a, b, f.int64, 0n);
    } else {
      if (f.int === null) throw unsupportedDtype(op, out);
      runScratchBinary(out, a, b, f.int, 0);
    }
  };
}

const addScratch = onScratch(addRow);

/** float16's add with an alpha: c10::Half arithmetic rounds `alpha * b` to half before the sum. */
function addHalfScaledRow(n: number, o: Float64Array, a: Float64Array, b: Float64Array, alpha: number): void {
  for (let i = 0; i < n; i++) o[i] = a[i] + f16BitsToNumber(f32ToF16Bits(alpha * b[i]));
}

/**
 * out = self + alpha * other (and sub, with alpha negated by core). Alpha is converted to
 * the dtype by `checkedScalar`, which raises PyTorch's overflow error. bool is logical or
 * (the bool writer normalises `a + b` to 0/1); integers wrap; see Note [Fused multiply-add of
 * add's alpha] for floats. bfloat16 follows PyTorch's vectorised path (one rounding of the
 * float32 fmadd), float16 its scalar c10::Half arithmetic (addHalfScaledRow).
 */
export function add(out: TensorImpl, a: TensorImpl, b: TensorImpl, alpha: number | bigint): void {
  const d = out.dtype;
  const al = checkedScalar('add', alpha, d);
  if (typeof al === 'bigint') {
    if (al === 1n || al === -1n) runInt64Words(out, words(out), a, b, addSubInt64WordsRow, Number(al));
    else runInt64Binary(out, a, b, addInt64Row, al);
    return;
  }
  if ((d === 'float32' || d === 'float64') && (al === 1 || al === -1) && binaryWasm(al === 1 ? BINARY.add : BINARY.sub, out, a, b)) return;
  if (d === 'float32' && binaryWasm(BINARY.addScaled, out, a, b, al)) return;
  if (d === 'float64') runFloatBinary(out, a, b, al === 1 || al === -1 ? addRow : addFmaRow, al);
  else if (d === 'float32') {
    // Note [Float32 add is monomorphic]
    if (al === 1) runF32Binary(out, a, b, addF32Row);
    else if (al === -1) runF32Binary(out, a, b, subF32Row);
    else runFloatBinary(out, a, b, addRow, al);
  }
  else if (d === 'float16') runScratchBinary(out, a, b, al === 1 ? addScratch : addHalfScaledRow, al);
  else if (d === 'bfloat16') runScratchBinary(out, a, b, addScratch, al);
  else runScratchBinary(out, a, b, addIntRow, al);
}

export const mul: BinaryImpl = binary('mul', { float: mulRow, int: mulIntRow, int64: mulInt64Row, wasmOp: BINARY.mul });

/** True division: core computes it in a floating dtype, so only float kernels exist. */
export const div: BinaryImpl = binary('div', { float: divRow, int: null, int64: null, wasmOp: BINARY.div });

/** Division rounded toward zero; integers raise ZeroDivisionError on a zero divisor. */
export const divTrunc: BinaryImpl = binary('div', {
  float: divTruncRow,
  int: divTruncIntRow,
  int64: divTruncInt64Row,
  rounds: true,
});

/** Floor division (Note [Float floor division]); integers raise ZeroDivisionError. */
export const divFloor: BinaryImpl = binary('div', {
  float: divFloorRow,
  int: divFloorIntRow,
  int64: divFloorInt64Row,
  rounds: true,
});

export const pow: BinaryImpl = binary('pow', { float: powRow, int: powIntRow, int64: powInt64Row });

export const remainder: BinaryImpl = binary('remainder', {
  float: remainderRow,
  int: remainderIntRow,
  int64: remainderInt64Row,
});

const maximumScratch = onScratch(maximumRow);
const minimumScratch = onScratch(minimumRow);

export const maximum: BinaryImpl = binary('maximum', { float: maximumRow, int: maximumScratch, int64: maximumInt64Row });
export const minimum: BinaryImpl = binary('minimum', { float: minimumRow, int: minimumScratch, int64: minimumInt64Row });
