/// <reference types="@webgpu/types" />
import { TensorIterator, TorchError, type TensorImpl } from '@torch-ts/core';
import type { WebGPUBlock } from '../memory/webgpu-allocator';
import { commandQueue } from '../runtime/queue';
import { deviceErrorBinding } from '../runtime/device-errors';
import { gpu } from '../runtime/device';
import type { Kind } from '../wgsl/kinds';
import { pointwiseLayout, pointwiseRankKey, pointwiseSource, PER_INVOCATION, WORKGROUP, type PointwiseExpr } from '../wgsl/pointwise';

/** The storage binding of a tensor: its whole block (views are addressed by offset in the kernel). */
export function bindingOf(t: TensorImpl): GPUBufferBinding {
  const block = t.storage.data as WebGPUBlock;
  if (!block) throw new TorchError('webgpu: internal error: binding a tensor without a buffer');
  return { buffer: block.segment.buffer, offset: block.offset, size: block.size };
}

/** Workgroup counts for `n` invocations of `WORKGROUP`, spread over y past the x limit. */
export function grid(op: string, n: number, perGroup = WORKGROUP): [number, number, number] {
  const groups = Math.ceil(n / perGroup);
  const maxDim = gpu(op).limits.maxComputeWorkgroupsPerDimension;
  if (groups <= maxDim) return [groups, 1, 1];
  const y = Math.ceil(groups / maxDim);
  if (y > maxDim) throw new TorchError(`${op}: ${n} elements exceed what one WebGPU dispatch can cover`);
  return [maxDim, y, 1];
}

const sourceCache = new Map<string, string>();

/**
 * Whether a pointwise call runs the vec4 variant, and which inputs are splat (stride 0 in
 * the fastest dim): Note [Pointwise vec4 layout]. `it` iterates out and the inputs, in order.
 */
export function pointwiseVec4Layout(
  e: PointwiseExpr,
  kinds: readonly Kind[],
  it: TensorIterator,
  offsets: readonly number[],
): { vec4: boolean; splat: boolean[] } {
  const splat = it.strides.map((s, i) => i > 0 && s[0] === 0);
  const vec4 =
    e.vec4 === true &&
    it.shape[0] % 4 === 0 &&
    kinds.every((x) => x === 'f32' || x === 'i32') &&
    kinds.every((x) => x === kinds[0]) &&
    it.strides.every((s, i) => splat[i] || (s[0] === 1 && offsets[i] % 4 === 0 && s.every((x, d) => d === 0 || x % 4 === 0)));
  return { vec4, splat };
}

/**
 * Runs a pointwise expression: `out` and `inputs` have out's shape (inputs broadcast by core
 * as stride-0 views), `kinds` their storage kinds (Note [WebGPU dtypes]), `scalars` extra u32
 * words (Note [Pointwise kernel layout]).
 */
export function runPointwise(
  op: string,
  key: string,
  e: PointwiseExpr,
  out: TensorImpl,
  inputs: readonly TensorImpl[],
  kinds: readonly Kind[],
  scalars: readonly number[] = [],
): void {
  if (out.numel === 0) return;
  const q = commandQueue(op);
  const operands = [out, ...inputs];
  const it = new TensorIterator(out.sizes, operands.map((t) => t.strides));
  const k = operands.length;
  const ndim = it.ndim;
  const offsets = operands.map((t) => t.storageOffset);
  const { vec4, splat } = pointwiseVec4Layout(e, kinds, it, offsets);
  const blocks = operands.map((t) => t.storage.data as WebGPUBlock);
  const alias = blocks.map((b, i) => {
    const j = blocks.indexOf(b);
    if (j !== i && kinds[j] !== kinds[i]) throw new TorchError(`${op}: operands share storage with different dtypes on webgpu`);
    return j;
  });
  const vsplat = vec4 ? splat : [];
  const cacheKey = `${key}|${kinds.join(',')}|${pointwiseRankKey(ndim, vec4, vsplat)}|${scalars.length}|${vec4}|${alias.join('')}|${vsplat.map(Number).join('')}`;
  let source = sourceCache.get(cacheKey);
  if (!source) {
    source = pointwiseSource(e, kinds, ndim, scalars.length, vec4, alias, vsplat);
    sourceCache.set(cacheKey, source);
  }
  const layout = pointwiseLayout(k, ndim, scalars.length);
  const params = new Uint32Array(layout.words);
  // vec4: geometry in vec4 units (the fastest dim's stride, 1 or 0, is that already),
  // except the numel word and the words of splat inputs.
  const unit = (i: number) => (vec4 && !splat[i] ? 4 : 1);
  params[0] = it.numel;
  for (let i = 0; i < k; i++) params[1 + i] = offsets[i] / unit(i);
  for (let d = 0; d < ndim; d++) params[1 + k + d] = d === 0 && vec4 ? it.shape[0] / 4 : it.shape[d];
  for (let i = 0; i < k; i++) {
    for (let d = 0; d < ndim; d++) params[layout.stridesAt + i * layout.slots + d] = d === 0 ? it.strides[i][0] : it.strides[i][d] / unit(i);
  }
  scalars.forEach((s, j) => (params[layout.scalarsAt + j] = s));
  params[layout.rankAt] = ndim;
  const bindings = operands.filter((_, i) => alias[i] === i).map(bindingOf);
  if (e.errorIf !== undefined && e.errorCode !== undefined && !vec4) bindings.push(deviceErrorBinding(q)); // (Note [Device-side errors])
  q.dispatch(source, bindings, params, grid(op, Math.ceil((vec4 ? it.numel / 4 : it.numel) / PER_INVOCATION)));
}

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/** The u32 word of a float32 scalar. */
export function f32Word(v: number): number {
  f32Scratch[0] = v;
  return u32Scratch[0];
}

/** The u32 word of an int32 scalar (two's complement, wrapped as PyTorch's int casts). */
export function i32Word(v: number | bigint | boolean): number {
  const n = typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : Number(v);
  return n >>> 0;
}

/**
 * An int64 scalar as a BigInt: a number truncates toward zero. Checked conversions (core
 * Note [Checked scalar arguments]) refuse NaN and infinities before a kernel sees them; one
 * that still arrives becomes INT64_MIN, as the CPU's cast gives, never a raw RangeError
 * from `BigInt(NaN)`.
 */
export function int64Value(v: number | bigint | boolean): bigint {
  if (typeof v === 'bigint') return v;
  const n = Number(v);
  return Number.isFinite(n) ? BigInt(Math.trunc(n)) : -(2n ** 63n);
}

/** The scalar word of a value for kind `k`. */
export function scalarWord(k: Kind, v: number | bigint | boolean): number {
  if (k === 'f32') return f32Word(Number(v));
  if (k === 'u8') return Number(typeof v === 'bigint' ? BigInt.asUintN(8, v) : Number(v) & 255);
  if (k === 'bool') return Number(v) !== 0 ? 1 : 0;
  // int8/int16: the scalar in the dtype (wrapped, as CPU's checked scalar is), as an i32 word
  if (k === 'i8') return ((i32Word(v) << 24) >> 24) >>> 0;
  if (k === 'i16') return ((i32Word(v) << 16) >> 16) >>> 0;
  return i32Word(v);
}
