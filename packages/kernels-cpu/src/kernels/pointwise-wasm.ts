import { TensorIterator, forEachPlane, type TensorImpl } from '@torch-ts/core';
import { wasm, type WasmKernels } from '../wasm/kernels';
import { memoryIsShared } from '../wasm/memory';
import { Operands, addressOf } from '../wasm/operands';
import { GRAIN, getNumThreads, runTasks, type PoolExport } from '../wasm/pool';
import { CTL } from '../wasm/pool-layout';

/**
 * Note [Pointwise ops on the WebAssembly kernels]
 * float32 (and float64 where the op is plain IEEE arithmetic) pointwise ops run on the
 * module's SIMD kernels in place on the storages, one TensorIterator plane per call (Note
 * [Pointwise planes]): a contiguous op is one plane of numel elements, with no iterator
 * built; a broadcast or transposed one is the iterator's coalesced planes. Large planes are
 * split into tasks of at least GRAIN elements (at::parallel_for's grain is 32K) over
 * contiguous element ranges of dim 0 (a 1-d plane) or over rows, on the thread pool (Note
 * [CPU thread pool]); each element is computed by the same instructions whatever the split,
 * so results do not depend on the number of threads. Only where the kernels' memory is
 * shared (storages live in it): elsewhere every operand would be staged in and out, and the
 * JS loops are as fast as that; operands outside it (too large for the heap) are staged.
 */

/** Whether the WebAssembly pointwise kernels can run (else the JS loops do). */
export const pointwiseWasm: WasmKernels | null = memoryIsShared ? wasm : null;

/** Strides of a contiguous plane, for up to four operands (out, cond, a, b). */
const UNIT = [1, 1, 1, 1];
const ZERO = [0, 0, 0, 0];

/**
 * Runs `name` over the planes of [out, ...inputs] (all of out's shape), each task called
 * with (...head, n0, n1, then per operand: address, stride 0, stride 1 ..., ...tail);
 * strides are in elements, addresses in bytes, so operands may differ in element size.
 */
export function runPlanes(w: WasmKernels, name: PoolExport, tensors: readonly TensorImpl[], head: readonly number[], tail: readonly number[]): void {
  const out = tensors[0];
  const numel = out.numel;
  if (numel === 0) return;
  if (numel < 2 * GRAIN && runSmallContiguous(w, name, tensors, head, tail)) return;
  const sizes = tensors.map((t) => t.itemSize);
  const ops = new Operands();
  try {
    const addr = tensors.map((t, k) => (k === 0 ? ops.output(t, !t.isContiguous) : ops.input(t)) - t.storageOffset * sizes[k]);
    const threads = numel >= 2 * GRAIN ? getNumThreads() : 1;
    const tasks: number[][] = [];
    const scratch = w.tileScratchBytes();
    const flush = (): void => {
      if (tasks.length > 0) runTasks(name, tasks, scratch);
      tasks.length = 0;
    };
    const plane = (n0: number, n1: number, base: ArrayLike<number>, inner: readonly number[], outer: readonly number[]): void => {
      // A few tasks per thread, not one: a thread that a busy machine deschedules then holds
      // up only its last task, since the others take what is left (Note [CPU thread pool]).
      const parts = threads <= 1 ? 1 : Math.max(1, Math.min(4 * threads, Math.floor((n0 * n1) / GRAIN)));
      const along0 = n1 === 1;
      const len = along0 ? n0 : n1;
      // 1-d splits land on multiples of 16 elements (64-byte lines of float32).
      const unit = along0 ? 16 : 1;
      const units = Math.ceil(len / unit);
      for (let t = 0; t < parts; t++) {
        const lo = Math.floor((t * units) / parts) * unit;
        const hi = Math.min(len, Math.floor(((t + 1) * units) / parts) * unit);
        if (hi <= lo) continue;
        const task = [...head, along0 ? hi - lo : n0, along0 ? 1 : hi - lo];
        for (let k = 0; k < tensors.length; k++) {
          const s = along0 ? inner[k] : outer[k];
          task.push(addr[k] + (base[k] + lo * s) * sizes[k], inner[k], outer[k]);
        }
        for (const x of tail) task.push(x);
        tasks.push(task);
        if (tasks.length === CTL.maxTasks) flush();
      }
    };
    let contiguous = true;
    for (const t of tensors) if (!t.isContiguous) contiguous = false;
    if (contiguous) {
      if (tensors.length > UNIT.length) throw new Error(`runPlanes: at most ${UNIT.length} operands`);
      plane(numel, 1, tensors.map((t) => t.storageOffset), UNIT, ZERO);
    } else {
      const it = new TensorIterator(
        out.sizes,
        tensors.map((t) => t.strides),
      );
      forEachPlane(
        it,
        tensors.map((t) => t.storageOffset),
        plane,
      );
    }
    flush();
  } finally {
    ops.finish();
  }
}

/**
 * One plane on the calling thread, for a contiguous output whose inputs are each contiguous
 * or one element broadcast (all strides 0: a gradient expanded from a sum), all in the
 * kernels' memory: the common small op, which pays no iterator, staging or task split (their
 * fixed cost is most of a small op's time). False when the operands do not allow it.
 */
function runSmallContiguous(w: WasmKernels, name: PoolExport, tensors: readonly TensorImpl[], head: readonly number[], tail: readonly number[]): boolean {
  const task: number[] = [...head, tensors[0].numel, 1];
  for (let k = 0; k < tensors.length; k++) {
    const t = tensors[k];
    const step = t.isContiguous ? 1 : k > 0 && allZero(t.strides) ? 0 : -1;
    if (step < 0) return false;
    const a = addressOf(t);
    if (a < 0) return false;
    task.push(a, step, 0);
  }
  for (const x of tail) task.push(x);
  runTasks(name, [task], w.tileScratchBytes());
  return true;
}

function allZero(strides: readonly number[]): boolean {
  for (const s of strides) if (s !== 0) return false;
  return true;
}

/** Binary op codes of assembly/binary.ts. */
export const BINARY = { add: 0, sub: 1, mul: 2, div: 3, addScaled: 4 } as const;

/**
 * out = a op b on the WebAssembly kernels, for float32 (and float64 but ADD_SCALED); false
 * when they cannot run it (the caller runs its JS loop).
 */
export function binaryWasm(op: number, out: TensorImpl, a: TensorImpl, b: TensorImpl, alpha = 1): boolean {
  const w = pointwiseWasm;
  const d = out.dtype;
  if (w === null || a.dtype !== d || b.dtype !== d) return false;
  if (d === 'float32') runPlanes(w, 'binaryF32', [out, a, b], [op], [alpha]);
  else if (d === 'float64' && op !== BINARY.addScaled) runPlanes(w, 'binaryF64', [out, a, b], [op], [alpha]);
  else return false;
  return true;
}

/** Unary op codes of assembly/unary.ts. */
export const UNARY = { neg: 0, abs: 1, relu: 2, sqrt: 3, exp: 4, log: 5, sigmoid: 6, silu: 7, tanh: 8, geluTanh: 9, erf: 10, gelu: 11 } as const;

/** float32 out = f(a) on the WebAssembly kernels; false when they cannot run it. */
export function unaryWasm(op: number, out: TensorImpl, a: TensorImpl): boolean {
  const w = pointwiseWasm;
  if (w === null || out.dtype !== 'float32' || a.dtype !== 'float32') return false;
  runPlanes(w, 'unaryF32', [out, a], [op], []);
  return true;
}

/** Comparison op codes of assembly/select.ts. */
export const COMPARE = { eq: 0, ne: 1, lt: 2, le: 3, gt: 4, ge: 5 } as const;

/** bool out = a op b for float32 a and b on the WebAssembly kernels; false when they cannot run it. */
export function compareWasm(op: number, out: TensorImpl, a: TensorImpl, b: TensorImpl): boolean {
  const w = pointwiseWasm;
  if (w === null || out.dtype !== 'bool' || a.dtype !== 'float32' || b.dtype !== 'float32') return false;
  runPlanes(w, 'compareF32', [out, a, b], [op], []);
  return true;
}

/** out = cond ? a : b for 4-byte elements on the WebAssembly kernels; false when they cannot run it. */
export function whereWasm(out: TensorImpl, cond: TensorImpl, a: TensorImpl, b: TensorImpl): boolean {
  const w = pointwiseWasm;
  if (w === null || out.itemSize !== 4 || cond.dtype !== 'bool') return false;
  runPlanes(w, 'where32', [out, cond, a, b], [], []);
  return true;
}
