import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { floatArray, type FloatArray } from '../loops/arrays';
import { wasm, type WasmKernels } from '../wasm/kernels';
import { Operands } from '../wasm/operands';
import { runTasks, taskRanges } from '../wasm/pool';

import { expBelow64 } from './unary-rows';

/**
 * Note [Softmax kernels]
 * Operands are contiguous float32/float64 [outer, size, inner] (Note [NN kernels take
 * contiguous float32/float64 operands]). Along a row the max is subtracted before exp, so
 * nothing overflows; sums accumulate in doubles. For inner = 1 (the last dim, the common
 * case) each row is contiguous; otherwise `inner` rows are walked side by side with their
 * running max and sum in scratch arrays, so memory is read in order. float32 rows are
 * written once, rounded on store by the Float32Array. float32 takes exp from the polynomial
 * of Note [exp below float64] (about 2x faster than Math.exp here; its float32 rounding is
 * Math.exp's), float64 keeps Math.exp. Where the WebAssembly kernels load, float32 runs
 * on them instead (Note [Softmax rows in SIMD]), split into pool tasks by rows (the last
 * dim), by slabs, or by columns of a slab (an inner dim); each output element is computed
 * the same way in any task, so results do not depend on the thread count. float32 backward
 * runs on them too (Note [Softmax backward in SIMD]).
 */

function softmaxLastDim(o: FloatArray, oo: number, x: FloatArray, xo: number, outer: number, size: number, log: boolean): void {
  const f32 = x instanceof Float32Array;
  for (let r = 0; r < outer; r++) {
    const base = r * size;
    let max = -Infinity;
    for (let j = 0; j < size; j++) {
      const v = x[xo + base + j];
      if (v > max || v !== v) max = v;
    }
    if (max !== max) {
      for (let j = 0; j < size; j++) o[oo + base + j] = NaN;
      continue;
    }
    if (max === -Infinity) max = 0; // every element -inf: exp(x - 0) = 0, sum 0 -> nan as PyTorch
    let sum = 0;
    if (log) {
      for (let j = 0; j < size; j++) {
        const d = x[xo + base + j] - max;
        sum += f32 ? expBelow64(d) : Math.exp(d);
      }
      const shift = max + Math.log(sum);
      for (let j = 0; j < size; j++) o[oo + base + j] = x[xo + base + j] - shift;
    } else {
      for (let j = 0; j < size; j++) {
        const d = x[xo + base + j] - max;
        const e = f32 ? expBelow64(d) : Math.exp(d);
        o[oo + base + j] = e;
        sum += e;
      }
      const inv = 1 / sum;
      for (let j = 0; j < size; j++) o[oo + base + j] *= inv;
    }
  }
}

function softmaxInner(o: FloatArray, oo: number, x: FloatArray, xo: number, outer: number, size: number, inner: number, log: boolean): void {
  const f32 = x instanceof Float32Array;
  const max = new Float64Array(inner);
  const sum = new Float64Array(inner);
  for (let r = 0; r < outer; r++) {
    const base = r * size * inner;
    max.fill(-Infinity);
    sum.fill(0);
    for (let j = 0; j < size; j++) {
      const row = base + j * inner;
      for (let i = 0; i < inner; i++) {
        const v = x[xo + row + i];
        if (v > max[i] || v !== v) max[i] = v;
      }
    }
    for (let i = 0; i < inner; i++) if (max[i] === -Infinity) max[i] = 0;
    for (let j = 0; j < size; j++) {
      const row = base + j * inner;
      for (let i = 0; i < inner; i++) {
        const d = x[xo + row + i] - max[i];
        sum[i] += f32 ? expBelow64(d) : Math.exp(d);
      }
    }
    if (log) {
      for (let i = 0; i < inner; i++) sum[i] = max[i] + Math.log(sum[i]);
      for (let j = 0; j < size; j++) {
        const row = base + j * inner;
        for (let i = 0; i < inner; i++) o[oo + row + i] = x[xo + row + i] - sum[i];
      }
    } else {
      for (let i = 0; i < inner; i++) sum[i] = 1 / sum[i];
      for (let j = 0; j < size; j++) {
        const row = base + j * inner;
        for (let i = 0; i < inner; i++) {
          const d = x[xo + row + i] - max[i];
          o[oo + row + i] = (f32 ? expBelow64(d) : Math.exp(d)) * sum[i];
        }
      }
    }
  }
}

/**
 * Tasks over [outer, size, inner] with inner > 1: by slabs, or by columns (at vector
 * boundaries) when there are too few slabs to share; each gets (b0, b1, size, inner, c0, c1).
 */
function innerTasks(outer: number, size: number, inner: number): number[][] {
  const work = outer * size * inner;
  const slabs = taskRanges(outer, work);
  const cols = taskRanges(Math.ceil(inner / 4), work);
  return slabs.length >= cols.length
    ? slabs.map(([b0, b1]) => [b0, b1, size, inner, 0, inner])
    : cols.map(([g0, g1]) => [0, outer, size, inner, 4 * g0, Math.min(inner, 4 * g1)]);
}

function softmaxWasm(w: WasmKernels, out: TensorImpl, self: TensorImpl, outer: number, size: number, inner: number, log: boolean): void {
  const ops = new Operands();
  try {
    const x = ops.input(self);
    const o = ops.output(out);
    const flag = log ? 1 : 0;
    if (inner === 1) {
      const tasks = taskRanges(outer, outer * size).map(([lo, hi]) => [x + lo * size * 4, o + lo * size * 4, hi - lo, size, flag]);
      runTasks('softmaxLastF32', tasks, 0);
    } else {
      runTasks('softmaxInnerF32', innerTasks(outer, size, inner).map((t) => [x, o, ...t, flag]), w.softmaxScratchBytes());
    }
  } finally {
    ops.finish();
  }
}

export const softmax: BackendImpls['softmax'] = (out, self, outer, size, inner, log) => {
  if (out.numel === 0) return;
  if (wasm !== null && self.dtype === 'float32') {
    softmaxWasm(wasm, out, self, outer, size, inner, log);
    return;
  }
  const o = floatArray(out);
  const x = floatArray(self);
  if (inner === 1) softmaxLastDim(o, out.storageOffset, x, self.storageOffset, outer, size, log);
  else softmaxInner(o, out.storageOffset, x, self.storageOffset, outer, size, inner, log);
};

function at(t: TensorImpl): [FloatArray, number] {
  return [floatArray(t), t.storageOffset];
}

/** float32 softmax backward on the kernels (Note [Softmax backward in SIMD]). */
function softmaxBackwardWasm(w: WasmKernels, gradInput: TensorImpl, grad: TensorImpl, output: TensorImpl, outer: number, size: number, inner: number, log: boolean): void {
  const ops = new Operands();
  try {
    const gi = ops.output(gradInput);
    const g = ops.input(grad);
    const y = ops.input(output);
    const flag = log ? 1 : 0;
    if (inner === 1) {
      const tasks = taskRanges(outer, outer * size).map(([lo, hi]) => [gi + lo * size * 4, g + lo * size * 4, y + lo * size * 4, hi - lo, size, flag]);
      runTasks('softmaxBackwardLastF32', tasks, 0);
    } else {
      runTasks('softmaxBackwardInnerF32', innerTasks(outer, size, inner).map((t) => [gi, g, y, ...t, flag]), w.softmaxScratchBytes());
    }
  } finally {
    ops.finish();
  }
}

export const softmaxBackward: BackendImpls['softmaxBackward'] = (gradInput, grad, output, outer, size, inner, log) => {
  if (gradInput.numel === 0) return;
  if (wasm !== null && gradInput.dtype === 'float32') {
    softmaxBackwardWasm(wasm, gradInput, grad, output, outer, size, inner, log);
    return;
  }
  const [gi, gio] = at(gradInput);
  const [g, go] = at(grad);
  const [y, yo] = at(output);
  const acc = new Float64Array(inner);
  for (let r = 0; r < outer; r++) {
    const base = r * size * inner;
    acc.fill(0);
    // softmax: sum(g * y); log-softmax: sum(g)
    for (let j = 0; j < size; j++) {
      const row = base + j * inner;
      if (log) for (let i = 0; i < inner; i++) acc[i] += g[go + row + i];
      else for (let i = 0; i < inner; i++) acc[i] += g[go + row + i] * y[yo + row + i];
    }
    for (let j = 0; j < size; j++) {
      const row = base + j * inner;
      if (log) for (let i = 0; i < inner; i++) gi[gio + row + i] = g[go + row + i] - Math.exp(y[yo + row + i]) * acc[i];
      else for (let i = 0; i < inner; i++) gi[gio + row + i] = y[yo + row + i] * (g[go + row + i] - acc[i]);
    }
  }
};
