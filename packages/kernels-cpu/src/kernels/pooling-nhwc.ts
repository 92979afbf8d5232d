import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { floatArray } from '../loops/arrays';
import { kernelHeap } from '../wasm/kernel-heap';
import { wasm } from '../wasm/kernels';
import { Operands } from '../wasm/operands';
import { parallelFor } from '../wasm/pool';
import { poolGeometry, windowBlock } from './pooling';

/**
 * The channels-last hooks of core's Note [Channels-last pooling impls] on the CPU: dense NHWC
 * operands go straight to the WebAssembly kernels of Note [Channels-last pooling and batch
 * norm in WebAssembly] (vectorised over C), pooling split over the thread pool by output rows,
 * batch norm by channels, the pooling backwards by images. float32 and float64 pooling, float32
 * batch norm (forward and backward) on the SIMD kernels and float64 batch norm on the loops below
 * (as the NCHW batch norm's float64 path); anything else (16-bit floats, int64 avg pooling, no
 * WebAssembly) is declined, and core takes the NCHW path.
 */

const wasmFloat = (...ts: TensorImpl[]): boolean => wasm !== null && ts.every((t) => t.dtype === ts[0].dtype) && (ts[0].dtype === 'float32' || ts[0].dtype === 'float64');

export const maxPool2dChannelsLast: BackendImpls['maxPool2dChannelsLast'] = (out, indices, self, g) => {
  if (!wasmFloat(self, out) || indices.dtype !== 'int64') return false;
  const [N, C] = self.sizes;
  const ops = new Operands();
  try {
    const geom = poolGeometry(ops, g);
    const x = ops.input(self);
    const o = ops.output(out);
    const ix = ops.output(indices);
    const name = self.dtype === 'float32' ? 'maxPool2dNhwcF32' : 'maxPool2dNhwcF64';
    const work = N * g.outH * Math.max(1, g.outW * C * g.kernelH * g.kernelW);
    parallelFor(name, N * g.outH, work, (r0, r1) => [r0, r1, x, o, ix, geom, C]);
  } finally {
    ops.finish();
  }
};

function avgNhwc(out: TensorImpl, self: TensorImpl, block: Int32Array, windowArea: number): void {
  const [N, C] = self.sizes;
  const OH = out.sizes[2];
  const ops = new Operands();
  try {
    const geom = ops.ints(block);
    const x = ops.input(self);
    const o = ops.output(out);
    const name = self.dtype === 'float32' ? 'avgPool2dNhwcF32' : 'avgPool2dNhwcF64';
    const work = N * OH * out.sizes[3] * C * Math.max(1, windowArea);
    parallelFor(name, N * OH, work, (r0, r1) => [r0, r1, x, o, geom, C], 8 * C + 16);
  } finally {
    ops.finish();
  }
}

export const avgPool2dChannelsLast: BackendImpls['avgPool2dChannelsLast'] = (out, self, g, countIncludePad, divisorOverride) => {
  if (!wasmFloat(self, out)) return false;
  avgNhwc(out, self, windowBlock(g.height, g.width, g.outH, g.outW, g, countIncludePad, divisorOverride ?? 0), g.kernelH * g.kernelW);
};

export const adaptiveAvgPool2dChannelsLast: BackendImpls['adaptiveAvgPool2dChannelsLast'] = (out, self) => {
  if (!wasmFloat(self, out)) return false;
  const [H, W] = self.sizes.slice(2);
  const [OH, OW] = out.sizes.slice(2);
  avgNhwc(out, self, windowBlock(H, W, OH, OW, null, true, 0), Math.ceil(H / OH) * Math.ceil(W / OW));
};

export const maxPool2dBackwardChannelsLast: BackendImpls['maxPool2dBackwardChannelsLast'] = (gradInput, gradOutput, indices, g) => {
  if (!wasmFloat(gradInput, gradOutput) || indices.dtype !== 'int64') return false;
  const [N, C] = gradInput.sizes;
  const ops = new Operands();
  try {
    const gi = ops.output(gradInput);
    const go = ops.input(gradOutput);
    const ix = ops.input(indices);
    const hw = g.height * g.width;
    const ohw = g.outH * g.outW;
    const name = gradInput.dtype === 'float32' ? 'maxPool2dBackwardNhwcF32' : 'maxPool2dBackwardNhwcF64';
    parallelFor(name, N, N * C * (hw + ohw), (n0, n1) => [n0, n1, gi, go, ix, hw, ohw, C]);
  } finally {
    ops.finish();
  }
};

/** Images split over the pool (windows of neighbouring output rows overlap). */
function avgBackwardNhwc(gradInput: TensorImpl, gradOutput: TensorImpl, block: Int32Array, windowArea: number): void {
  const [N, C, H, W] = gradInput.sizes;
  const ops = new Operands();
  try {
    const geom = ops.ints(block);
    const gi = ops.output(gradInput);
    const go = ops.input(gradOutput);
    const name = gradInput.dtype === 'float32' ? 'avgPool2dBackwardNhwcF32' : 'avgPool2dBackwardNhwcF64';
    const work = N * C * (H * W + gradOutput.sizes[2] * gradOutput.sizes[3] * Math.max(1, windowArea));
    parallelFor(name, N, work, (n0, n1) => [n0, n1, gi, go, geom, C], 8 * W * C + 16);
  } finally {
    ops.finish();
  }
}

export const avgPool2dBackwardChannelsLast: BackendImpls['avgPool2dBackwardChannelsLast'] = (gradInput, gradOutput, g, countIncludePad, divisorOverride) => {
  if (!wasmFloat(gradInput, gradOutput)) return false;
  avgBackwardNhwc(gradInput, gradOutput, windowBlock(g.height, g.width, g.outH, g.outW, g, countIncludePad, divisorOverride ?? 0), g.kernelH * g.kernelW);
};

export const adaptiveAvgPool2dBackwardChannelsLast: BackendImpls['adaptiveAvgPool2dBackwardChannelsLast'] = (gradInput, gradOutput) => {
  if (!wasmFloat(gradInput, gradOutput)) return false;
  const [H, W] = gradInput.sizes.slice(2);
  const [OH, OW] = gradOutput.sizes.slice(2);
  avgBackwardNhwc(gradInput, gradOutput, windowBlock(H, W, OH, OW, null, true, 0), Math.ceil(H / OH) * Math.ceil(W / OW));
};

/** The running statistics' update from float64 [2, c] (batch means, sums of squared deviations), as the NCHW impl does it. */
function updateRunning(stats: Float64Array, c: number, rm: TensorImpl | null, rv: TensorImpl | null, count: number, momentum: number): void {
  const m = rm ? floatArray(rm) : null;
  const v = rv ? floatArray(rv) : null;
  for (let ch = 0; ch < c; ch++) {
    if (m) m[rm!.storageOffset + ch] = momentum * stats[ch] + (1 - momentum) * m[rm!.storageOffset + ch];
    if (v) v[rv!.storageOffset + ch] = momentum * (stats[c + ch] / (count - 1)) + (1 - momentum) * v[rv!.storageOffset + ch];
  }
}

/** float64 channels-last batch norm: the statistics per channel in float64, rows of C outermost. */
function batchNormNhwcLoops(
  out: TensorImpl,
  mean: TensorImpl,
  invstd: TensorImpl,
  self: TensorImpl,
  weight: TensorImpl | null,
  bias: TensorImpl | null,
  rm: TensorImpl | null,
  rv: TensorImpl | null,
  training: boolean,
  momentum: number,
  eps: number,
): void {
  const C = self.sizes[1];
  const rows = self.numel / C;
  const x = floatArray(self);
  const xo = self.storageOffset;
  const o = floatArray(out);
  const oo = out.storageOffset;
  const mu = new Float64Array(C);
  const inv = new Float64Array(C);
  if (training) {
    const stats = new Float64Array(2 * C);
    for (let r = 0; r < rows; r++) for (let c = 0, p = xo + r * C; c < C; c++) stats[c] += x[p + c];
    for (let c = 0; c < C; c++) stats[c] /= rows;
    for (let r = 0; r < rows; r++) {
      for (let c = 0, p = xo + r * C; c < C; c++) {
        const d = x[p + c] - stats[c];
        stats[C + c] += d * d;
      }
    }
    for (let c = 0; c < C; c++) {
      mu[c] = stats[c];
      inv[c] = 1 / Math.sqrt(stats[C + c] / rows + eps);
    }
    updateRunning(stats, C, rm, rv, rows, momentum);
  } else {
    const m = floatArray(rm!);
    const v = floatArray(rv!);
    for (let c = 0; c < C; c++) {
      mu[c] = m[rm!.storageOffset + c];
      inv[c] = 1 / Math.sqrt(v[rv!.storageOffset + c] + eps);
    }
  }
  const w = weight ? floatArray(weight) : null;
  const bi = bias ? floatArray(bias) : null;
  const alpha = new Float64Array(C);
  const beta = new Float64Array(C);
  const me = floatArray(mean);
  const iv = floatArray(invstd);
  for (let c = 0; c < C; c++) {
    me[mean.storageOffset + c] = mu[c];
    iv[invstd.storageOffset + c] = inv[c];
    // y = (x - mu) * inv * w + b = x * alpha + beta, as the NCHW loops
    alpha[c] = inv[c] * (w ? w[weight!.storageOffset + c] : 1);
    beta[c] = (bi ? bi[bias!.storageOffset + c] : 0) - mu[c] * alpha[c];
  }
  for (let r = 0; r < rows; r++) {
    const p = r * C;
    for (let c = 0; c < C; c++) o[oo + p + c] = x[xo + p + c] * alpha[c] + beta[c];
  }
}

export const batchNormChannelsLast: BackendImpls['batchNormChannelsLast'] = (out, mean, invstd, self, weight, bias, runningMean, runningVar, training, momentum, eps) => {
  const dt = self.dtype;
  if (out.dtype !== dt || [mean, invstd, weight, bias, runningMean, runningVar].some((t) => t !== null && (t.dtype !== dt || !t.isContiguous))) return false;
  if (dt === 'float64') return batchNormNhwcLoops(out, mean, invstd, self, weight, bias, runningMean, runningVar, training, momentum, eps);
  if (dt !== 'float32' || wasm === null) return false;
  const c = self.sizes[1];
  const rows = self.numel / c;
  const ops = new Operands();
  const addr = (t: TensorImpl | null): number => (t ? ops.input(t) : 0);
  try {
    const args = [ops.input(self), ops.output(out), ops.output(mean), ops.output(invstd), addr(weight), addr(bias)];
    args.push(training ? 0 : addr(runningMean), training ? 0 : addr(runningVar));
    const stats = training ? ops.temp(16 * c) : 0;
    const params = ops.temp(13 * 8);
    new Float64Array(kernelHeap.buffer(), params, 13).set([...args, stats, rows, c, training ? 1 : 0, eps]);
    parallelFor('batchNormNhwcF32', c, rows * c * (training ? 3 : 1), (c0, c1) => [params, c0, c1], 16 * c + 16);
    if (training) updateRunning(new Float64Array(kernelHeap.buffer(), stats, 2 * c), c, runningMean, runningVar, rows, momentum);
  } finally {
    ops.finish();
  }
};

/** float64 channels-last batch norm gradients: the NCHW loops' formulas, rows of C outermost. */
function batchNormBackwardNhwcLoops(
  gradInput: TensorImpl | null,
  gradWeight: TensorImpl | null,
  gradBias: TensorImpl | null,
  grad: TensorImpl,
  self: TensorImpl,
  weight: TensorImpl | null,
  mean: TensorImpl,
  invstd: TensorImpl,
  training: boolean,
): void {
  const C = self.sizes[1];
  const rows = self.numel / C;
  const [g, go] = [floatArray(grad), grad.storageOffset];
  const [x, xo] = [floatArray(self), self.storageOffset];
  const mu = floatArray(mean).subarray(mean.storageOffset, mean.storageOffset + C);
  const inv = floatArray(invstd).subarray(invstd.storageOffset, invstd.storageOffset + C);
  const sumG = new Float64Array(C);
  const dot = new Float64Array(C);
  for (let r = 0; r < rows; r++) {
    for (let c = 0, p = r * C; c < C; c++) {
      const gv = g[go + p + c];
      sumG[c] += gv;
      dot[c] += gv * (x[xo + p + c] - mu[c]);
    }
  }
  if (gradWeight) for (let c = 0, a = floatArray(gradWeight); c < C; c++) a[gradWeight.storageOffset + c] = dot[c] * inv[c];
  if (gradBias) for (let c = 0, a = floatArray(gradBias); c < C; c++) a[gradBias.storageOffset + c] = sumG[c];
  if (!gradInput) return;
  const w = weight ? floatArray(weight) : null;
  const scale = new Float64Array(C);
  const meanG = new Float64Array(C);
  const k = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    scale[c] = (w ? w[weight!.storageOffset + c] : 1) * inv[c];
    meanG[c] = sumG[c] / rows;
    k[c] = (dot[c] * inv[c] * inv[c]) / rows;
  }
  const o = floatArray(gradInput);
  const oo = gradInput.storageOffset;
  for (let r = 0; r < rows; r++) {
    const p = r * C;
    if (training) for (let c = 0; c < C; c++) o[oo + p + c] = (g[go + p + c] - meanG[c] - (x[xo + p + c] - mu[c]) * k[c]) * scale[c];
    else for (let c = 0; c < C; c++) o[oo + p + c] = g[go + p + c] * scale[c];
  }
}

export const batchNormBackwardChannelsLast: BackendImpls['batchNormBackwardChannelsLast'] = (gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, training) => {
  const dt = self.dtype;
  if ([gradInput, gradWeight, gradBias, grad, weight, mean, invstd].some((t) => t !== null && t.dtype !== dt)) return false;
  if ([gradWeight, gradBias, weight, mean, invstd].some((t) => t !== null && !t.isContiguous)) return false;
  if (dt === 'float64') return batchNormBackwardNhwcLoops(gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, training);
  if (dt !== 'float32' || wasm === null) return false;
  const c = self.sizes[1];
  const rows = self.numel / c;
  const ops = new Operands();
  try {
    const out = (t: TensorImpl | null): number => (t ? ops.output(t) : 0);
    const args = [out(gradInput), out(gradWeight), out(gradBias), ops.input(grad), ops.input(self), weight ? ops.input(weight) : 0, ops.input(mean), ops.input(invstd)];
    const params = ops.temp(11 * 8);
    new Float64Array(kernelHeap.buffer(), params, 11).set([...args, rows, c, training ? 1 : 0]);
    parallelFor('batchNormBackwardNhwcF32', c, rows * c * 2, (c0, c1) => [params, c0, c1], 24 * c + 16);
  } finally {
    ops.finish();
  }
};

/**
 * adaptive_max_pool2d and group norm on dense NHWC operands (core's optional hooks, Note
 * [Channels-last adaptive max pooling and group norm in WebAssembly]): float32 and float64 on
 * the SIMD kernels; anything else (16-bit floats, no WebAssembly) is declined, and core takes
 * its other path.
 */
export const adaptiveMaxPool2dChannelsLast: BackendImpls['adaptiveMaxPool2dChannelsLast'] = (out, indices, self) => {
  if (!wasmFloat(self, out) || indices.dtype !== 'int64') return false;
  const [N, C, H, W] = self.sizes;
  const [OH, OW] = out.sizes.slice(2);
  const ops = new Operands();
  try {
    const geom = ops.ints([H, W, OH, OW]);
    const x = ops.input(self);
    const o = ops.output(out);
    const ix = ops.output(indices);
    const name = self.dtype === 'float32' ? 'adaptiveMaxPool2dNhwcF32' : 'adaptiveMaxPool2dNhwcF64';
    const work = N * OH * OW * C * Math.ceil(H / OH) * Math.ceil(W / OW);
    parallelFor(name, N * OH, work, (r0, r1) => [r0, r1, x, o, ix, geom, C]);
  } finally {
    ops.finish();
  }
};

export const adaptiveMaxPool2dBackwardChannelsLast: BackendImpls['adaptiveMaxPool2dBackwardChannelsLast'] = (gradInput, gradOutput, indices) => {
  if (!wasmFloat(gradInput, gradOutput) || indices.dtype !== 'int64') return false;
  const [N, C, H, W] = gradInput.sizes;
  const ohw = gradOutput.sizes[2] * gradOutput.sizes[3];
  const ops = new Operands();
  try {
    const gi = ops.output(gradInput);
    const go = ops.input(gradOutput);
    const ix = ops.input(indices);
    const name = gradInput.dtype === 'float32' ? 'maxPool2dBackwardNhwcF32' : 'maxPool2dBackwardNhwcF64';
    parallelFor(name, N, N * C * (H * W + ohw), (n0, n1) => [n0, n1, gi, go, ix, H * W, ohw, C]);
  } finally {
    ops.finish();
  }
};

const sameFloat = (dt: string, ts: (TensorImpl | null)[]): boolean => ts.every((t) => t === null || (t.dtype === dt && t.isContiguous));

export const groupNormChannelsLast: BackendImpls['groupNormChannelsLast'] = (out, mean, rstd, self, weight, bias, groups, eps) => {
  const dt = self.dtype;
  if (!wasmFloat(self, out) || !sameFloat(dt, [mean, rstd, weight, bias])) return false;
  const [N, C, H, W] = self.sizes;
  const ops = new Operands();
  try {
    const args = [ops.input(self), ops.output(out), ops.output(mean), ops.output(rstd), weight ? ops.input(weight) : 0, bias ? ops.input(bias) : 0];
    const params = ops.temp(10 * 8);
    new Float64Array(kernelHeap.buffer(), params, 10).set([...args, H * W, C, groups, eps]);
    parallelFor(dt === 'float32' ? 'groupNormNhwcF32' : 'groupNormNhwcF64', N, 3 * self.numel, (n0, n1) => [params, n0, n1], 56 * C + 16);
  } finally {
    ops.finish();
  }
};

export const groupNormBackwardChannelsLast: BackendImpls['groupNormBackwardChannelsLast'] = (gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight, groups) => {
  const dt = self.dtype;
  if (!wasmFloat(self, grad) || !sameFloat(dt, [gradInput, gradWeight, gradBias, mean, rstd, weight])) return false;
  const [N, C, H, W] = self.sizes;
  const ops = new Operands();
  try {
    const stats = ops.temp(16 * N * C);
    const args = [gradInput ? ops.output(gradInput) : 0, stats, ops.input(grad), ops.input(self), ops.input(mean), ops.input(rstd), weight ? ops.input(weight) : 0];
    const params = ops.temp(10 * 8);
    new Float64Array(kernelHeap.buffer(), params, 10).set([...args, H * W, C, groups]);
    parallelFor(dt === 'float32' ? 'groupNormBackwardNhwcF32' : 'groupNormBackwardNhwcF64', N, 2 * self.numel, (n0, n1) => [params, n0, n1], 48 * C + 16);
    if (gradWeight || gradBias) {
      // sums over images of the per-image channel sums (float64, image order)
      const s = new Float64Array(kernelHeap.buffer(), stats, 2 * N * C);
      const r = floatArray(rstd);
      const gw = gradWeight ? floatArray(gradWeight) : null;
      const gb = gradBias ? floatArray(gradBias) : null;
      const cg = C / groups;
      for (let c = 0; c < C; c++) {
        let sw = 0;
        let sb = 0;
        for (let n = 0; n < N; n++) {
          sb += s[2 * n * C + c];
          sw += s[(2 * n + 1) * C + c] * r[rstd.storageOffset + n * groups + Math.floor(c / cg)];
        }
        if (gw) gw[gradWeight!.storageOffset + c] = sw;
        if (gb) gb[gradBias!.storageOffset + c] = sb;
      }
    }
  } finally {
    ops.finish();
  }
};
