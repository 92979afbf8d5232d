import type { TensorImpl } from '@torch-ts/core';
import { kernelHeap } from '../wasm/kernel-heap';
import { wasm, type WasmKernels } from '../wasm/kernels';
import { Operands, addressOf } from '../wasm/operands';
import { runTasks, taskRanges } from '../wasm/pool';


/**
 * Note [float32 sums on the WebAssembly kernels]
 * float32 sums run on the module's `sumF32` kernels, in place, in the order of Note
 * [WebAssembly float32 sum] (blocks of SUM_BLOCK elements from a row's start, each in eight
 * float64 partial sums, block sums added in order), so a sum is the same bits:
 *  - for any thread count: a long single row is cut into block ranges, one per task, whose
 *    block sums land in an array that is added here, in order; many rows are split by rows;
 *  - wherever the row lives: a row outside the kernels' memory is copied in one block at a
 *    time, and each block summed alone, which is the same arithmetic.
 * A contiguous tensor in the kernels' memory reduced over its trailing dims (a full sum, a
 * sum over dim -1) takes `sumF32Trailing`; every other float32 sum folds rows through `sumF32Row` (reduce-folds.ts).
 */

/** Shortest reduced rows that take `sumF32Trailing` (below, the fold's per-row JS is as cheap). */
const TRAILING_MIN = 16;

let staging = -1;

/** The float64 sum of a[ao .. ao + n) (unit stride), or null without the kernels. */
export function sumF32Row(n: number, a: Float32Array, ao: number): number | null {
  const w = wasm;
  if (w === null) return null;
  if (kernelHeap.owns(a.buffer)) return w.sumF32(a.byteOffset + ao * 4, n);
  const block = w.sumBlockElements();
  if (staging < 0) staging = kernelHeap.alloc(block * 4);
  if (staging < 0) return null;
  let s = 0;
  for (let i = 0; i < n; i += block) {
    const m = Math.min(block, n - i);
    new Float32Array(kernelHeap.buffer(), staging, m).set(a.subarray(ao + i, ao + i + m));
    s += w.sumF32(staging, m);
  }
  return s;
}

/** Whether `dims` are exactly the last dims.length dims of a rank-`rank` tensor. */
function trailing(dims: readonly number[], rank: number): boolean {
  const seen = new Set(dims);
  if (seen.size !== dims.length) return false;
  for (let d = rank - dims.length; d < rank; d++) if (!seen.has(d)) return false;
  return true;
}

/**
 * The float64 sums of a contiguous float32 tensor over its trailing `dims`, one per row of
 * the kept dims (row-major: the reduction's accumulator), or null when this path does not
 * apply (Note [float32 sums on the WebAssembly kernels]).
 */
export function sumF32Trailing(self: TensorImpl, dims: readonly number[]): Float64Array | null {
  const w = wasm;
  if (w === null || self.dtype !== 'float32' || !self.isContiguous || !trailing(dims, self.sizes.length)) return null;
  // A storage outside the kernels' memory folds row by row instead, staged a block at a
  // time by `sumF32Row`: the same bits, without a copy of the whole tensor.
  if (addressOf(self) < 0) return null;
  let rows = 1;
  for (let d = 0; d < self.sizes.length - dims.length; d++) rows *= self.sizes[d];
  const n = rows === 0 ? 0 : self.numel / rows;
  if (n < TRAILING_MIN) return null;
  const ops = new Operands();
  try {
    const p = addressOf(self);
    return rows === 1 ? blockSums(w, ops, p, n) : rowSums(ops, p, rows, n);
  } finally {
    ops.finish();
  }
}

function blockSums(w: WasmKernels, ops: Operands, p: number, n: number): Float64Array {
  const block = w.sumBlockElements();
  const blocks = Math.ceil(n / block);
  const sums = ops.temp(blocks * 8);
  const tasks = taskRanges(blocks, n).map(([lo, hi]) => [p + lo * block * 4, Math.min(n, hi * block) - lo * block, sums + lo * 8]);
  runTasks('sumF32Blocks', tasks, 0);
  const b = new Float64Array(kernelHeap.buffer(), sums, blocks);
  let s = 0;
  for (let i = 0; i < blocks; i++) s += b[i];
  return Float64Array.of(s);
}

function rowSums(ops: Operands, p: number, rows: number, n: number): Float64Array {
  const sums = ops.temp(rows * 8);
  const tasks = taskRanges(rows, rows * n).map(([lo, hi]) => [p + lo * n * 4, hi - lo, n, n, sums + lo * 8]);
  runTasks('sumF32Rows', tasks, 0);
  return new Float64Array(kernelHeap.buffer(), sums, rows).slice();
}
