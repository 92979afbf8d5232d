/// <reference types="@webgpu/types" />
import { DTypeError, TorchError, type BackendImpls, type TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { kindOf } from '../wgsl/kinds';
import { SOFTMAX_WG, softmaxSource } from '../wgsl/softmax';
import { bindingOf, grid } from './launch';

/** Softmax and its backward (Note [WebGPU softmax kernels]). */

const sources = new Map<string, string>();

function source(log: boolean, backward: boolean, alias: readonly number[], vec4: boolean): string {
  const key = `${log}|${backward}|${alias.join('')}|${vec4}`;
  let src = sources.get(key);
  if (!src) sources.set(key, (src = softmaxSource(log, backward, alias, vec4)));
  return src;
}

/** Invocations per row: a power of two, about a quarter of the row, at most a workgroup. */
function threadsPerRow(size: number): number {
  let t = 1;
  while (t < SOFTMAX_WG && t * 4 < size) t *= 2;
  return t;
}

/**
 * For each input, the first input with the same block (inputs that share one are bound
 * once: Note [WebGPU softmax kernels]'s storageDecls); the output must have its own block.
 */
export function inputAliases(op: string, out: TensorImpl | null, inputs: readonly TensorImpl[]): number[] {
  const blocks = inputs.map((t) => t.storage.data);
  if (out && blocks.includes(out.storage.data)) throw new TorchError(`${op}: an output that shares storage with an input is not supported on webgpu`);
  return blocks.map((b) => blocks.indexOf(b));
}

/** The bindings of the distinct inputs, in order. */
export function inputBindings(inputs: readonly TensorImpl[], alias: readonly number[]): GPUBufferBinding[] {
  return inputs.filter((_, i) => alias[i] === i).map(bindingOf);
}

/** Core hands NN kernels float32 (16-bit inputs widened) or float64, which WebGPU lacks. */
export function requireF32(op: string, t: TensorImpl): void {
  if (kindOf(op, t.dtype) !== 'f32') throw new DTypeError(`${op}: "${op}" not implemented for '${t.dtype}' on webgpu`);
}

function run(op: string, out: TensorImpl, inputs: readonly TensorImpl[], outer: number, size: number, inner: number, log: boolean, backward: boolean): void {
  for (const t of [out, ...inputs]) requireF32(op, t);
  const rows = outer * inner;
  if (rows === 0 || size === 0) return;
  const offsets = [out.storageOffset, ...inputs.map((t) => t.storageOffset)];
  const vec4 = inner === 1 && size % 4 === 0 && offsets.every((o) => o % 4 === 0);
  const w = vec4 ? 4 : 1;
  const perRow = threadsPerRow(size / w);
  const params = new Uint32Array([rows, size / w, inner, perRow, ...offsets.map((o) => o / w)]);
  const alias = inputAliases(op, out, inputs);
  commandQueue(op).dispatch(source(log, backward, alias, vec4), [bindingOf(out), ...inputBindings(inputs, alias)], params, grid(op, rows, SOFTMAX_WG / perRow));
}

export const softmaxImpls: Pick<BackendImpls, 'softmax' | 'softmaxBackward'> = {
  softmax: (out, self, outer, size, inner, log) => run(log ? '_log_softmax' : '_softmax', out, [self], outer, size, inner, log, false),
  softmaxBackward: (gradInput, grad, output, outer, size, inner, log) =>
    run(log ? '_log_softmax_backward_data' : '_softmax_backward_data', gradInput, [grad, output], outer, size, inner, log, true),
};
