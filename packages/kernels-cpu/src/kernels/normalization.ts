import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { floatArray, type FloatArray } from '../loops/arrays';
import { kernelHeap } from '../wasm/kernel-heap';
import { wasm } from '../wasm/kernels';
import { Operands } from '../wasm/operands';
import { parallelFor, runTasks, taskRanges } from '../wasm/pool';

/**
 * Batch norm and layer norm on contiguous compute-dtype operands (Note [NN kernels take
 * contiguous float32/float64 operands]). Statistics are computed in doubles in two passes
 * (mean, then the sum of squared deviations), as PyTorch's CPU kernels compute them in
 * their opmath type; the biased variance normalises, the unbiased one goes into running_var.
 * float32 runs on the WebAssembly kernels where they load (Note [Normalization in SIMD]),
 * split over the thread pool by rows (layer norm), channels (batch norm) or columns (layer
 * norm's weight and bias gradients); these loops are the fallback, and float64's path.
 */

type Arr = [FloatArray, number];
const arr = (t: TensorImpl): Arr => [floatArray(t), t.storageOffset];
const opt = (t: TensorImpl | null): Arr | null => (t ? arr(t) : null);

export const batchNormLoops: BackendImpls['batchNorm'] = (out, mean, invstd, self, weight, bias, runningMean, runningVar, n, c, s, training, momentum, eps) => {
  const [o, oo] = arr(out);
  const [x, xo] = arr(self);
  const [m, mo] = arr(mean);
  const [iv, ivo] = arr(invstd);
  const w = opt(weight);
  const bi = opt(bias);
  const rm = opt(runningMean);
  const rv = opt(runningVar);
  const count = n * s;
  const cs = c * s;
  for (let ch = 0; ch < c; ch++) {
    let mu: number;
    let inv: number;
    if (training) {
      let sum = 0;
      for (let b = 0; b < n; b++) {
        const base = xo + b * cs + ch * s;
        for (let p = 0; p < s; p++) sum += x[base + p];
      }
      mu = sum / count;
      let sq = 0;
      for (let b = 0; b < n; b++) {
        const base = xo + b * cs + ch * s;
        for (let p = 0; p < s; p++) {
          const d = x[base + p] - mu;
          sq += d * d;
        }
      }
      const varBiased = sq / count;
      inv = 1 / Math.sqrt(varBiased + eps);
      if (rm) rm[0][rm[1] + ch] = momentum * mu + (1 - momentum) * rm[0][rm[1] + ch];
      if (rv) rv[0][rv[1] + ch] = momentum * (sq / (count - 1)) + (1 - momentum) * rv[0][rv[1] + ch];
    } else {
      mu = rm![0][rm![1] + ch];
      inv = 1 / Math.sqrt(rv![0][rv![1] + ch] + eps);
    }
    m[mo + ch] = mu;
    iv[ivo + ch] = inv;
    // y = (x - mu) * inv * w + b = x * alpha + beta
    const alpha = inv * (w ? w[0][w[1] + ch] : 1);
    const beta = (bi ? bi[0][bi[1] + ch] : 0) - mu * alpha;
    for (let b = 0; b < n; b++) {
      const base = b * cs + ch * s;
      for (let p = 0; p < s; p++) o[oo + base + p] = x[xo + base + p] * alpha + beta;
    }
  }
};

export const batchNormBackwardLoops: BackendImpls['batchNormBackward'] = (gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, n, c, s, training) => {
  const [g, go] = arr(grad);
  const [x, xo] = arr(self);
  const [m, mo] = arr(mean);
  const [iv, ivo] = arr(invstd);
  const w = opt(weight);
  const gi = opt(gradInput);
  const gw = opt(gradWeight);
  const gb = opt(gradBias);
  const count = n * s;
  const cs = c * s;
  for (let ch = 0; ch < c; ch++) {
    const mu = m[mo + ch];
    const inv = iv[ivo + ch];
    // sum(g) and sum(g * (x - mu))
    let sumG = 0;
    let dot = 0;
    for (let b = 0; b < n; b++) {
      const base = b * cs + ch * s;
      for (let p = 0; p < s; p++) {
        const gv = g[go + base + p];
        sumG += gv;
        dot += gv * (x[xo + base + p] - mu);
      }
    }
    if (gw) gw[0][gw[1] + ch] = dot * inv;
    if (gb) gb[0][gb[1] + ch] = sumG;
    if (!gi) continue;
    const wv = w ? w[0][w[1] + ch] : 1;
    const [o, oo] = gi;
    if (training) {
      // dx = w * inv * (g - mean(g) - xhat * mean(g * xhat))
      const meanG = sumG / count;
      const k = (dot * inv * inv) / count;
      const scale = wv * inv;
      for (let b = 0; b < n; b++) {
        const base = b * cs + ch * s;
        for (let p = 0; p < s; p++) o[oo + base + p] = (g[go + base + p] - meanG - (x[xo + base + p] - mu) * k) * scale;
      }
    } else {
      const scale = wv * inv;
      for (let b = 0; b < n; b++) {
        const base = b * cs + ch * s;
        for (let p = 0; p < s; p++) o[oo + base + p] = g[go + base + p] * scale;
      }
    }
  }
};

export const layerNormLoops: BackendImpls['layerNorm'] = (out, mean, rstd, self, weight, bias, rows, k, eps) => {
  const [o, oo] = arr(out);
  const [x, xo] = arr(self);
  const [m, mo] = arr(mean);
  const [r, ro] = arr(rstd);
  const w = opt(weight);
  const bi = opt(bias);
  for (let i = 0; i < rows; i++) {
    const base = i * k;
    let sum = 0;
    for (let j = 0; j < k; j++) sum += x[xo + base + j];
    const mu = sum / k;
    let sq = 0;
    for (let j = 0; j < k; j++) {
      const d = x[xo + base + j] - mu;
      sq += d * d;
    }
    const inv = 1 / Math.sqrt(sq / k + eps);
    m[mo + i] = mu;
    r[ro + i] = inv;
    if (w && bi) {
      const [wa, wo] = w;
      const [ba, bo] = bi;
      for (let j = 0; j < k; j++) o[oo + base + j] = (x[xo + base + j] - mu) * inv * wa[wo + j] + ba[bo + j];
    } else if (w) {
      const [wa, wo] = w;
      for (let j = 0; j < k; j++) o[oo + base + j] = (x[xo + base + j] - mu) * inv * wa[wo + j];
    } else if (bi) {
      const [ba, bo] = bi;
      for (let j = 0; j < k; j++) o[oo + base + j] = (x[xo + base + j] - mu) * inv + ba[bo + j];
    } else {
      for (let j = 0; j < k; j++) o[oo + base + j] = (x[xo + base + j] - mu) * inv;
    }
  }
};

export const layerNormBackwardLoops: BackendImpls['layerNormBackward'] = (gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight, rows, k) => {
  const [g, go] = arr(grad);
  const [x, xo] = arr(self);
  const [m, mo] = arr(mean);
  const [r, ro] = arr(rstd);
  const w = opt(weight);
  const gi = opt(gradInput);
  const gw = opt(gradWeight);
  const gb = opt(gradBias);
  const accW = gw ? new Float64Array(k) : null;
  const accB = gb ? new Float64Array(k) : null;
  for (let i = 0; i < rows; i++) {
    const base = i * k;
    const mu = m[mo + i];
    const inv = r[ro + i];
    if (accW || accB) {
      for (let j = 0; j < k; j++) {
        const gv = g[go + base + j];
        if (accW) accW[j] += gv * (x[xo + base + j] - mu) * inv;
        if (accB) accB[j] += gv;
      }
    }
    if (!gi) continue;
    // with gw = g * w: dx = inv * (gw - mean(gw) - xhat * mean(gw * xhat))
    let sumGw = 0;
    let sumGwX = 0;
    for (let j = 0; j < k; j++) {
      const gv = g[go + base + j] * (w ? w[0][w[1] + j] : 1);
      sumGw += gv;
      sumGwX += gv * (x[xo + base + j] - mu) * inv;
    }
    const meanGw = sumGw / k;
    const meanGwX = sumGwX / k;
    const [o, oo] = gi;
    for (let j = 0; j < k; j++) {
      const gv = g[go + base + j] * (w ? w[0][w[1] + j] : 1);
      const xhat = (x[xo + base + j] - mu) * inv;
      o[oo + base + j] = inv * (gv - meanGw - xhat * meanGwX);
    }
  }
  if (gw && accW) gw[0].set(accW, gw[1]);
  if (gb && accB) gb[0].set(accB, gb[1]);
};

const onWasm = (t: TensorImpl): boolean => wasm !== null && t.dtype === 'float32';
const addr = (ops: Operands, t: TensorImpl | null): number => (t ? ops.input(t) : 0);

/** The running statistics' update from the kernel's float64 [c, 2] (mean, sum of squared deviations), as the loops do it. */
function updateRunning(stats: Float64Array, rm: TensorImpl | null, rv: TensorImpl | null, count: number, momentum: number): void {
  const m = rm ? arr(rm) : null;
  const v = rv ? arr(rv) : null;
  for (let ch = 0; ch < stats.length / 2; ch++) {
    if (m) m[0][m[1] + ch] = momentum * stats[2 * ch] + (1 - momentum) * m[0][m[1] + ch];
    if (v) v[0][v[1] + ch] = momentum * (stats[2 * ch + 1] / (count - 1)) + (1 - momentum) * v[0][v[1] + ch];
  }
}

export const batchNorm: BackendImpls['batchNorm'] = (out, mean, invstd, self, weight, bias, runningMean, runningVar, n, c, s, training, momentum, eps) => {
  if (!onWasm(self)) return batchNormLoops(out, mean, invstd, self, weight, bias, runningMean, runningVar, n, c, s, training, momentum, eps);
  const ops = new Operands();
  try {
    const args = [ops.input(self), ops.output(out), ops.output(mean), ops.output(invstd), addr(ops, weight), addr(ops, bias)];
    args.push(training ? 0 : addr(ops, runningMean), training ? 0 : addr(ops, runningVar));
    const stats = training ? ops.temp(16 * c) : 0;
    const params = ops.temp(14 * 8);
    new Float64Array(kernelHeap.buffer(), params, 14).set([...args, stats, n, c, s, training ? 1 : 0, eps]);
    parallelFor('batchNormF32', c, n * c * s * (training ? 3 : 1), (c0, c1) => [params, c0, c1]);
    if (training) updateRunning(new Float64Array(kernelHeap.buffer(), stats, 2 * c), runningMean, runningVar, n * s, momentum);
  } finally {
    ops.finish();
  }
};

export const batchNormBackward: BackendImpls['batchNormBackward'] = (gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, n, c, s, training) => {
  if (!onWasm(self)) return batchNormBackwardLoops(gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, n, c, s, training);
  const ops = new Operands();
  try {
    const out = (t: TensorImpl | null): number => (t ? ops.output(t) : 0);
    const args = [out(gradInput), out(gradWeight), out(gradBias), ops.input(grad), ops.input(self), addr(ops, weight), ops.input(mean), ops.input(invstd)];
    const params = ops.temp(12 * 8);
    new Float64Array(kernelHeap.buffer(), params, 12).set([...args, n, c, s, training ? 1 : 0]);
    parallelFor('batchNormBackwardF32', c, n * c * s * 2, (c0, c1) => [params, c0, c1]);
  } finally {
    ops.finish();
  }
};

export const layerNorm: BackendImpls['layerNorm'] = (out, mean, rstd, self, weight, bias, rows, k, eps) => {
  if (!onWasm(self)) return layerNormLoops(out, mean, rstd, self, weight, bias, rows, k, eps);
  const ops = new Operands();
  try {
    const x = ops.input(self);
    const o = ops.output(out);
    const m = ops.output(mean);
    const r = ops.output(rstd);
    const w = addr(ops, weight);
    const b = addr(ops, bias);
    const tasks = taskRanges(rows, rows * k * 3).map(([lo, hi]) => [x + lo * k * 4, o + lo * k * 4, m + lo * 4, r + lo * 4, w, b, hi - lo, k, eps]);
    runTasks('layerNormF32', tasks, 0);
  } finally {
    ops.finish();
  }
};

export const layerNormBackward: BackendImpls['layerNormBackward'] = (gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight, rows, k) => {
  if (!onWasm(self)) return layerNormBackwardLoops(gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight, rows, k);
  const ops = new Operands();
  try {
    const g = ops.input(grad);
    const x = ops.input(self);
    const m = ops.input(mean);
    const r = ops.input(rstd);
    if (gradInput) {
      const gi = ops.output(gradInput);
      const w = addr(ops, weight);
      const tasks = taskRanges(rows, rows * k * 2).map(([lo, hi]) => [gi + lo * k * 4, g + lo * k * 4, x + lo * k * 4, m + lo * 4, r + lo * 4, w, hi - lo, k]);
      runTasks('layerNormInputGradF32', tasks, 0);
    }
    if (gradWeight || gradBias) {
      const gw = gradWeight ? ops.output(gradWeight) : 0;
      const gb = gradBias ? ops.output(gradBias) : 0;
      // Columns split at vector boundaries; each column is summed over every row, in order.
      const tasks = taskRanges(Math.ceil(k / 4), rows * k).map(([lo, hi]) => [gw, gb, g, x, m, r, rows, k, 4 * lo, Math.min(k, 4 * hi)]);
      runTasks('layerNormParamGradF32', tasks, wasm!.layerNormScratchBytes());
    }
  } finally {
    ops.finish();
  }
};
