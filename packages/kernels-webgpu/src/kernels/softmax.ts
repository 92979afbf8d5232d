/// <reference types="@webgpu/types" />
import { DTypeError, TorchError, type BackendImpls, type TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { kindOf } from '../wgsl/kinds';
import { kernelTuning } from '../runtime/tuning';
import { SOFTMAX_WG, softmaxRowSource, softmaxSource, type RowLayout } from '../wgsl/softmax';
import { bindingOf, grid } from './launch';

/** Softmax and its backward (Note [WebGPU softmax kernels]). */

const sources = new Map<string, string>();

/** The kernel's source: the workgroup tree, or with `rowWg` the barrier-free row kernel of that workgroup size. */
function source(log: boolean, backward: boolean, alias: readonly number[], layout: RowLayout, rowWg = 0): string {
  const key = `${log}|${backward}|${alias.join('')}|${layout}|${rowWg}`;
  let src = sources.get(key);
  if (!src) sources.set(key, (src = rowWg ? softmaxRowSource(log, backward, alias, layout, rowWg) : softmaxSource(log, backward, alias, layout === 'vec4')));
  return src;
}

/**
 * The workgroup size of the barrier-free row kernel (Note [WebGPU barrier-free softmax]), or
 * 0 where the tree kernel is the faster shape even on a software adapter: one to three very
 * long rows, where one invocation per row would leave SIMD lanes and CPU threads idle and the
 * tree's barriers are a small cost next to the row's arithmetic.
 */
function rowWorkgroup(rows: number, size: number): number {
  if (!kernelTuning().barrierFree) return 0;
  if (rows < ROW_KERNEL_MIN_ROWS && size >= TREE_MIN_SIZE) return 0;
  let wg = 64;
  while (wg > 4 && Math.ceil(rows / wg) < 16) wg /= 2;
  return wg;
}
// Measured on SwiftShader (2 cores): [1, 65536] and [2, 262144] run faster as trees
// (14 vs 24 ms, 66 vs 139 ms), [4, 65536], [2, 8192] and [16, 8192] as rows (30 vs 49 ms,
// 2 vs 12 ms, 14 vs 97 ms). Rows count invocations here (groups of 4 rows for 'vec4cols').
const ROW_KERNEL_MIN_ROWS = 4;
const TREE_MIN_SIZE = 32768;

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
  const aligned = offsets.every((o) => o % 4 === 0);
  const vec4 = inner === 1 && size % 4 === 0 && aligned;
  const w = vec4 ? 4 : 1;
  const alias = inputAliases(op, out, inputs);
  // Note [WebGPU barrier-free softmax]: 4 adjacent rows of an inner dim per invocation when aligned
  const cols = !vec4 && inner % 4 === 0 && aligned;
  const c = cols ? 4 : 1;
  const rowWg = rowWorkgroup(rows / c, size);
  if (rowWg) {
    const layout: RowLayout = vec4 ? 'vec4' : cols ? 'vec4cols' : 'scalar';
    const params = new Uint32Array([rows / c, size / w, inner / c, 0, ...offsets.map((o) => o / (w * c))]);
    commandQueue(op).dispatch(source(log, backward, alias, layout, rowWg), [bindingOf(out), ...inputBindings(inputs, alias)], params, grid(op, rows / c, rowWg));
    return;
  }
  const perRow = threadsPerRow(size / w);
  const params = new Uint32Array([rows, size / w, inner, perRow, ...offsets.map((o) => o / w)]);
  commandQueue(op).dispatch(source(log, backward, alias, vec4 ? 'vec4' : 'scalar'), [bindingOf(out), ...inputBindings(inputs, alias)], params, grid(op, rows, SOFTMAX_WG / perRow));
}

export const softmaxImpls: Pick<BackendImpls, 'softmax' | 'softmaxBackward'> = {
  softmax: (out, self, outer, size, inner, log) => run(log ? '_log_softmax' : '_softmax', out, [self], outer, size, inner, log, false),
  softmaxBackward: (gradInput, grad, output, outer, size, inner, log) =>
    run(log ? '_log_softmax_backward_data' : '_softmax_backward_data', gradInput, [grad, output], outer, size, inner, log, true),
};
