import { DTypeError, f64ToBf16Bits, f64ToF16Bits, typeMeta, type BackendImpls, type BinaryImpl, type DType, type TensorImpl, type UnaryImpl } from '@torch-ts/core';
import { convertExpr, kindOf, type Kind } from '../wgsl/kinds';
import type { PointwiseExpr } from '../wgsl/pointwise';
import { commandQueue } from '../runtime/queue';
import { bindingOf, f32Word, runPointwise, scalarWord } from './launch';
import { BINARY_OPS, LOGIT_HELPER, rowExpr, SCALAR_OPS, UNARY_OPS, type OpRow } from './pointwise-ops';

type Letter = 'f' | 'i' | 'u' | 'b';
const LETTER: Record<Kind, Letter> = { f32: 'f', i32: 'i', u8: 'u', bool: 'b', i64: 'i', u16: 'u' };

/** The row's expression for the compute dtype of `t`, or the DTypeError naming the op. */
function exprFor(op: string, row: OpRow, t: TensorImpl): { e: PointwiseExpr; kind: Kind } {
  const kind = kindOf(op, t.dtype);
  const e = rowExpr(row, LETTER[kind], op);
  if (!e) throw new DTypeError(`${op}: "${op}" not implemented for '${t.dtype}' on webgpu`);
  return { e, kind };
}

/** The aten op an impl serves, for error messages (an impl name is not always the op's). */
const ATEN_NAME: Readonly<Record<string, string>> = { divTrunc: 'div', divFloor: 'div', clampMin: 'clamp', clampMax: 'clamp' };

function unary(op: string, row: OpRow): UnaryImpl {
  return (out, self) => {
    const { e, kind } = exprFor(op, row, self);
    runPointwise(op, `${op}:${kind}`, e, out, [self], [kindOf(op, out.dtype), kind]);
  };
}

function binary(name: string, row: OpRow): BinaryImpl {
  const op = ATEN_NAME[name] ?? name;
  return (out, self, other) => {
    const { e, kind } = exprFor(op, row, self);
    runPointwise(op, `${name}:${kind}`, e, out, [self, other], [kindOf(op, out.dtype), kind, kindOf(op, other.dtype)]);
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
  const kinds = [kindOf(op, out.dtype), ...inputs.map((t) => kindOf(op, t.dtype))];
  runPointwise(op, `${rowName}:${kind}`, helpers ? { ...e, helpers } : e, out, inputs, kinds, words);
}

export const scalarImpls: Pick<
  BackendImpls,
  'add' | 'leakyRelu' | 'elu' | 'hardtanh' | 'gelu' | 'softplus' | 'logit' | 'nanToNum' | 'lerp' | 'addcmul' | 'addcdiv' | 'where' | 'round'
> = {
  add: (out, self, other, alpha) => withScalars('add', 'add', out, [self, other], 0, [scalarWord(kindOf('add', self.dtype), alpha)]),
  leakyRelu: (out, self, slope) => withScalars('leakyRelu', 'leakyRelu', out, [self], 0, [f32Word(slope)]),
  elu: (out, self, alpha, scale, inputScale) => withScalars('elu', 'elu', out, [self], 0, [f32Word(alpha), f32Word(scale), f32Word(inputScale)]),
  hardtanh: (out, self, minVal, maxVal) => {
    const k = kindOf('hardtanh', self.dtype);
    withScalars('hardtanh', 'hardtanh', out, [self], 0, [scalarWord(k, minVal), scalarWord(k, maxVal)]);
  },
  gelu: (out, self, approximate) => withScalars('gelu', approximate === 'tanh' ? 'geluTanh' : 'geluNone', out, [self], 0, []),
  softplus: (out, self, beta, threshold) => withScalars('softplus', 'softplus', out, [self], 0, [f32Word(beta), f32Word(threshold)]),
  logit: (out, self, eps) => withScalars('logit', 'logit', out, [self], 0, [f32Word(eps ?? 0), eps === null ? 0 : 1], LOGIT_HELPER),
  nanToNum: (out, self, nan, posinf, neginf) => withScalars('nanToNum', 'nanToNum', out, [self], 0, [f32Word(nan), f32Word(posinf), f32Word(neginf)]),
  lerp: (out, self, end, weight) => withScalars('lerp', 'lerp', out, [self, end, weight], 0, []),
  addcmul: (out, self, t1, t2, value) => withScalars('addcmul', 'addcmul', out, [self, t1, t2], 0, [scalarWord(kindOf('addcmul', self.dtype), value)]),
  addcdiv: (out, self, t1, t2, value) => withScalars('addcdiv', 'addcdiv', out, [self, t1, t2], 0, [scalarWord(kindOf('addcdiv', self.dtype), value)]),
  where: (out, cond, self, other) => withScalars('where', 'where', out, [cond, self, other], 1, []),
  round: (out, self, decimals) => {
    const d = decimals ?? 0;
    const mode = d === 0 ? 0 : d > 0 ? 1 : 2;
    withScalars('round', 'round', out, [self], 0, [f32Word(10 ** Math.abs(d)), mode]);
  },
};

/** `copy`: dst = src converted to dst's dtype (same shape; src may be a broadcast view). */
export function copy(dst: TensorImpl, src: TensorImpl): void {
  if (dst.dtype === src.dtype) {
    rawCopy(dst, src);
    return;
  }
  const to = kindOf('copy_', dst.dtype, true);
  const from = kindOf('copy_', src.dtype, true);
  let e: PointwiseExpr;
  if (from === 'i64' && to === 'i64') e = { expr: '$1', hi64: 'bitcast<i32>(b1[2u * o1 + 1u])' };
  else if (from === 'i64' && to === 'f32') e = { expr: '$1', int64AsFloat: true };
  else if (from === 'i64') e = { expr: convertExpr('$1', 'i32', to) };
  else if (to === 'i64' && from === 'f32') {
    e = {
      expr: 'bitcast<i32>(u32(trunc($1) - floor(trunc($1) / 4294967296.0) * 4294967296.0))',
      hi64: 'i32(floor(trunc($1) / 4294967296.0))',
    };
  } else e = { expr: convertExpr('$1', from, to), vec4: from === to };
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
      const v = BigInt.asIntN(64, typeof n === 'bigint' ? n : BigInt(Math.trunc(Number(n))));
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
