import { DTypeError, TorchError, bf16BitsToNumber, f16BitsToNumber, f64ToBf16Bits, f64ToF16Bits, typeMeta, type BackendImpls, type BinaryImpl, type DType, type TensorImpl, type UnaryImpl } from '@torch-ts/core';
import { convertExpr, convertExpr64, isFloatKind, isHalfKind, kindOf, type Kind } from '../wgsl/kinds';
import { INT64_CAST_HELPERS } from '../wgsl/int64';
import type { PointwiseExpr } from '../wgsl/pointwise';
import { commandQueue } from '../runtime/queue';
import { deviceErrorCode } from '../runtime/device-errors';
import { bindingOf, f32Word, int64Value, runPointwise, scalarWord } from './launch';
import { BINARY_OPS, LOGIT_HELPER, rowExpr, SCALAR_OPS, UNARY_OPS, type OpRow } from './pointwise-ops';

type Letter = 'f' | 'i' | 'u' | 'b' | 'l';
const LETTER: Record<Kind, Letter> = { f32: 'f', i32: 'i', u8: 'u', bool: 'b', i64: 'l', u16: 'u', f16: 'f', bf16: 'f', i8: 'i', i16: 'i' };

/** The row's expression for the compute dtype of `t`, or the DTypeError naming the op. */
function exprFor(op: string, row: OpRow, t: TensorImpl): { e: PointwiseExpr; kind: Kind } {
  // (int64 runs where the row has an int64 expression: Note [int64 on WebGPU]; float16 and
  // bfloat16 run the float32 expression (or the row's own `h`, `bh`), rounded on store:
  // Note [float16 on WebGPU])
  const kind = kindOf(op, t.dtype, row.l !== undefined, 'bf16');
  const own = kind === 'f16' ? row.h : kind === 'bf16' ? row.bh : undefined;
  const e = rowExpr(own !== undefined ? { ...row, f: own } : row, LETTER[kind], op);
  if (!e) throw new DTypeError(`${op}: "${op}" not implemented for '${t.dtype}' on webgpu`);
  return { e, kind };
}

/** The aten op an impl serves, for error messages (an impl name is not always the op's). */
const ATEN_NAME: Readonly<Record<string, string>> = { divTrunc: 'div', divFloor: 'div', clampMin: 'clamp', clampMax: 'clamp' };

function unary(op: string, row: OpRow): UnaryImpl {
  return (out, self) => {
    const { e, kind } = exprFor(op, row, self);
    runPointwise(op, `${op}:${kind}`, e, out, [self], [kindOf(op, out.dtype, kind === 'i64', 'bf16'), kind]);
  };
}

/** A zero integer divisor, as the WGSL bool over `$2` of each kind (floats divide by zero freely). */
const ZERO_DIVISOR: Partial<Record<Kind, string>> = { i32: '$2 == 0', i8: '$2 == 0', i16: '$2 == 0', u8: '$2 == 0u', bool: '$2 == 0u', i64: '!i64_nz($2)' };

/** The row's expression, reporting a zero integer divisor as CPU's ZeroDivisionError (Note [Device-side errors]). */
function withZeroDivision(e: PointwiseExpr, kind: Kind, row: OpRow): PointwiseExpr {
  const errorIf = ZERO_DIVISOR[kind];
  const op = row.zeroDiv;
  if (op === undefined || errorIf === undefined) return e;
  const errorCode = deviceErrorCode(`zerodiv:${op}`, () => new TorchError(`${op}: ZeroDivisionError (integer division by zero)`));
  return { ...e, errorIf, errorCode };
}

function binary(name: string, row: OpRow): BinaryImpl {
  const op = ATEN_NAME[name] ?? name;
  return (out, self, other) => {
    const { e: plain, kind } = exprFor(op, row, self);
    const e = withZeroDivision(plain, kind, row);
    const i64 = kind === 'i64';
    runPointwise(op, `${name}:${kind}`, e, out, [self, other], [kindOf(op, out.dtype, i64, 'bf16'), kind, kindOf(op, other.dtype, i64, 'bf16')]);
  };
}

type UnaryName = keyof typeof UNARY_OPS;
type BinaryName = keyof typeof BINARY_OPS;

export const unaryImpls = Object.fromEntries(
  Object.entries(UNARY_OPS).map(([name, row]) => [name, unary(name, row)]),
) as Record<UnaryName, UnaryImpl>;

export const binaryImpls = Object.fromEntries(
  Object.entries(BINARY_OPS).map(([name, row]) => [name, binary(name, row)]),
) as Record<BinaryName, BinaryImpl>;

/** Runs a SCALAR_OPS row with its scalar words. */
function withScalars(op: string, rowName: keyof typeof SCALAR_OPS, out: TensorImpl, inputs: TensorImpl[], computeIndex: number, words: number[], helpers?: string): void {
  const row = SCALAR_OPS[rowName];
  const { e, kind } = exprFor(op, row, inputs[computeIndex]);
  const i64 = kind === 'i64';
  const kinds = [kindOf(op, out.dtype, i64, 'bf16'), ...inputs.map((t) => kindOf(op, t.dtype, i64, 'bf16'))];
  runPointwise(op, `${rowName}:${kind}`, helpers ? { ...e, helpers } : e, out, inputs, kinds, words);
}

export const scalarImpls: Pick<
  BackendImpls,
  'add' | 'leakyRelu' | 'elu' | 'hardtanh' | 'gelu' | 'softplus' | 'logit' | 'polygamma' | 'mvlgamma' | 'nanToNum' | 'lerp' | 'addcmul' | 'addcdiv' | 'where' | 'round'
> = {
  add: (out, self, other, alpha) => {
    // alpha is converted to the dtype (kernels-cpu's checkedScalar): float16/bfloat16 round it
    const k = kindOf('add', self.dtype, true, 'bf16');
    const a = k === 'f16' ? f16BitsToNumber(f64ToF16Bits(Number(alpha))) : k === 'bf16' ? bf16BitsToNumber(f64ToBf16Bits(Number(alpha))) : alpha;
    withScalars('add', 'add', out, [self, other], 0, scalarWords(k, a));
  },
  leakyRelu: (out, self, slope) => withScalars('leakyRelu', 'leakyRelu', out, [self], 0, [f32Word(slope)]),
  elu: (out, self, alpha, scale, inputScale) => withScalars('elu', 'elu', out, [self], 0, [f32Word(alpha), f32Word(scale), f32Word(inputScale)]),
  hardtanh: (out, self, minVal, maxVal) => {
    const k = kindOf('hardtanh', self.dtype, true, 'bf16');
    withScalars('hardtanh', 'hardtanh', out, [self], 0, [...scalarWords(k, minVal), ...scalarWords(k, maxVal)]);
  },
  gelu: (out, self, approximate) => withScalars('gelu', approximate === 'tanh' ? 'geluTanh' : 'geluNone', out, [self], 0, []),
  softplus: (out, self, beta, threshold) => withScalars('softplus', 'softplus', out, [self], 0, [f32Word(beta), f32Word(threshold)]),
  logit: (out, self, eps) => withScalars('logit', 'logit', out, [self], 0, [f32Word(eps ?? 0), eps === null ? 0 : 1], LOGIT_HELPER),
  polygamma: (out, self, n) => withScalars('polygamma', 'polygamma', out, [self], 0, [n]),
  mvlgamma: (out, self, p) => withScalars('mvlgamma', 'mvlgamma', out, [self], 0, [p]),
  nanToNum: (out, self, nan, posinf, neginf) => withScalars('nanToNum', 'nanToNum', out, [self], 0, [f32Word(nan), f32Word(posinf), f32Word(neginf)]),
  lerp: (out, self, end, weight, weightScalar) =>
    weightScalar === null || !isHalfKind(kindOf('lerp', self.dtype, false, 'bf16'))
      ? withScalars('lerp', 'lerp', out, [self, end, weight], 0, [])
      : withScalars('lerp', 'lerpScalar', out, [self, end], 0, [f32Word(weightScalar)]),
  addcmul: (out, self, t1, t2, value) => withScalars('addcmul', 'addcmul', out, [self, t1, t2], 0, scalarWords(kindOf('addcmul', self.dtype, true, 'bf16'), value)),
  addcdiv: (out, self, t1, t2, value) => withScalars('addcdiv', 'addcdiv', out, [self, t1, t2], 0, [scalarWord(floatWord(kindOf('addcdiv', self.dtype, false, 'bf16')), value)]),
  where: (out, cond, self, other) => withScalars('where', 'where', out, [cond, self, other], 1, []),
  round: (out, self, decimals) => {
    const d = decimals ?? 0;
    const mode = d === 0 ? 0 : d > 0 ? 1 : 2;
    withScalars('round', 'round', out, [self], 0, [f32Word(10 ** Math.abs(d)), mode]);
  },
};

/** The kind whose scalar word a kernel of kind `k` takes: float16/bfloat16 kernels take float32 scalars (their compute type). */
function floatWord(k: Kind): Kind {
  return isHalfKind(k) ? 'f32' : k;
}

/** The scalar words of `v` for kind `k`: one word, or two (lo, hi) for int64, wrapped modulo 2^64. */
function scalarWords(k: Kind, v: number | bigint | boolean): number[] {
  if (k !== 'i64') return [scalarWord(floatWord(k), v)];
  const x = BigInt.asUintN(64, int64Value(v));
  return [Number(x & 0xffffffffn), Number(x >> 32n)];
}

/** `copy`: dst = src converted to dst's dtype (same shape; src may be a broadcast view). */
export function copy(dst: TensorImpl, src: TensorImpl): void {
  if (dst.dtype === src.dtype) {
    rawCopy(dst, src);
    return;
  }
  const to = kindOf('copy_', dst.dtype, true, 'bf16');
  const from = kindOf('copy_', src.dtype, true, 'bf16');
  // int64 on either side: vec2<u32> values and exact casts (Note [int64 on WebGPU]).
  const e: PointwiseExpr =
    from === 'i64' || to === 'i64'
      ? { expr: convertExpr64('$1', from, to), int64: true, helpers: [from, to].some(isFloatKind) ? INT64_CAST_HELPERS : undefined }
      : { expr: convertExpr('$1', from, to), vec4: from === to };
  runPointwise('copy_', `copy:${from}>${to}`, e, dst, [src], [to, from]);
}

/**
 * `fill`: every element of dst set to value (already range-checked by core). Any dtype: the
 * value's bit pattern in dst's dtype is made on the host (float64, float16 and bfloat16
 * rounded as core's casts round them) and stored raw, by element size.
 */
export function fill(dst: TensorImpl, value: number | bigint | boolean): void {
  const item = dst.itemSize;
  const k = RAW_KIND[item];
  const words = fillWords(dst.dtype, value);
  const e: PointwiseExpr =
    k === 'i64' ? { expr: 'bitcast<i32>($u0)', hi64: 'bitcast<i32>($u1)' } : { expr: k === 'i32' ? 'bitcast<i32>($u0)' : '$u0', vec4: false };
  runPointwise('fill_', `fill:${k}`, e, dst, [], [k], words);
}

function fillWords(dtype: DType, value: number | bigint | boolean): number[] {
  const n = typeof value === 'boolean' ? Number(value) : value;
  switch (dtype) {
    case 'bool':
      return [Number(n) !== 0 ? 1 : 0];
    case 'float16':
      return [f64ToF16Bits(Number(n))];
    case 'bfloat16':
      return [f64ToBf16Bits(Number(n))];
    case 'float32':
      return [f32Word(Number(n))];
    case 'float64': {
      const w = new Uint32Array(new Float64Array([Number(n)]).buffer);
      return [w[0], w[1]];
    }
    case 'int64': {
      const v = BigInt.asIntN(64, int64Value(n));
      return [Number(BigInt.asUintN(32, v)), Number(BigInt.asUintN(32, v >> 32n))];
    }
    default: {
      // int8 int16 int32 uint8: two's complement, truncated to the element size
      const bits = typeMeta(dtype).itemSize * 8;
      const v = typeof n === 'bigint' ? Number(BigInt.asIntN(32, n)) : Math.trunc(Number(n));
      return [bits === 32 ? v >>> 0 : (v >>> 0) & ((1 << bits) - 1)];
    }
  }
}

const RAW_KIND: Record<number, Kind> = { 1: 'u8', 2: 'u16', 4: 'i32', 8: 'i64' };

/**
 * A same-dtype copy moves raw bits, for every dtype (Note [WebGPU dtypes]): a contiguous
 * copy of whole words is one buffer copy; anything else one kernel over elements.
 */
function rawCopy(dst: TensorImpl, src: TensorImpl): void {
  if (dst.numel === 0) return;
  const item = dst.itemSize;
  const bytes = dst.numel * item;
  if (dst.isContiguous && src.isContiguous && src.sizes.length === dst.sizes.length && (dst.storageOffset * item) % 4 === 0 && (src.storageOffset * item) % 4 === 0 && bytes % 4 === 0 && dst.storage.data !== src.storage.data) {
    const d = bindingOf(dst);
    const s = bindingOf(src);
    // (WebGPU forbids a buffer copy within one GPUBuffer: blocks of one segment take the kernel.)
    if (d.buffer !== s.buffer) return void commandQueue('copy_').copyBufferToBuffer(s.buffer, s.offset! + src.storageOffset * item, d.buffer, d.offset! + dst.storageOffset * item, bytes);
  }
  const k = RAW_KIND[item];
  const e: PointwiseExpr = k === 'i64' ? { expr: '$1', hi64: 'bitcast<i32>(b1[2u * o1 + 1u])' } : { expr: '$1', vec4: k === 'i32' };
  runPointwise('copy_', `rawcopy:${k}`, e, dst, [src], [k, k]);
}
