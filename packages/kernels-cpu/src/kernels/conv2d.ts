import type { BackendImpls, Conv2dGeometry, TensorImpl } from '@torch-ts/core';
import { wasm, type WasmKernels } from '../wasm/kernels';
import { kernelHeap } from '../wasm/kernel-heap';
import { Operands } from '../wasm/operands';
import { getNumThreads, runTasks, type PoolExport } from '../wasm/pool';

/**
 * Note [CPU direct convolution]
 * float32 and float64 convolutions run whole batches on the kernels' module (Note
 * [Convolution on the GEMM] in assembly/conv2d.ts): im2col a window of positions at a time
 * into the task's scratch, then the GEMM, with no column matrix as large as an image and
 * no per-(batch element, group) trip through core. Other dtypes (integers; core has already
 * widened 16-bit floats to float32: Note [16-bit convolutions compute in float32]), and
 * engines without WebAssembly SIMD, decline (return false) and core takes its im2col + mm
 * path (Note [Direct convolution impls]).
 * Windows are sized so that one window of columns (about WINDOW_BYTES) stays in the L2
 * cache between im2col writing it and the GEMM packing it (on a 2-core EPYC, float32 3x3
 * 64 -> 64 channels: 256 KiB 48.0, 512 KiB 48.8, 1 MiB 48.8 GFLOP/s); the size depends only
 * on the shapes, never on the thread count, so the sums come out the same on any number of
 * threads.
 */
const WINDOW_BYTES = 512 * 1024;
/** Positions per window are a multiple of the GEMM's float32 micro-panel width. */
const PANEL = 12;
/** Multiply-adds below which a convolution stays on the calling thread. */
const GRAIN = 1 << 21;

type Direction = 'Forward' | 'InputGrad' | 'WeightGrad' | 'Direct';

interface Call {
  readonly image: TensorImpl;
  readonly cols: TensorImpl;
  readonly weight: TensorImpl;
  readonly bias: TensorImpl | null;
  /** Which of the three is written. */
  readonly output: 'image' | 'cols' | 'weight';
}

function windowPositions(rows: number, positions: number, size: number): number {
  const fit = Math.floor(WINDOW_BYTES / (rows * size) / PANEL) * PANEL;
  return Math.min(positions, Math.max(PANEL, fit));
}

/** Writes Note [Convolution parameter block] (assembly/geometry.ts) into `ops`' scratch; returns its address. */
function paramBlock(ops: Operands, addr: { image: number; cols: number; weight: number; bias: number }, c: Call, g: Conv2dGeometry, groups: number, chunk: number): number {
  const words = [
    addr.image, addr.cols, addr.weight, addr.bias,
    c.image.sizes[0], c.image.sizes[1], g.height, g.width, c.cols.sizes[1], groups,
    g.kernelH, g.kernelW, g.strideH, g.strideW, g.padH, g.padW, g.dilationH, g.dilationW, g.outH, g.outW, chunk,
  ];
  const p = ops.temp(words.length * 4);
  new Uint32Array(kernelHeap.buffer(), p, words.length).set(words);
  return p;
}

/** Splits units [0, units) into contiguous ranges, one per thread (the split never changes a result). */
function ranges(units: number, madds: number): number[][] {
  const parts = Math.min(units, madds < GRAIN ? 1 : getNumThreads());
  const out: number[][] = [];
  for (let t = 0; t < parts; t++) out.push([Math.floor((t * units) / parts), Math.floor(((t + 1) * units) / parts)]);
  return out;
}

function run(w: WasmKernels, dir: Direction, c: Call, g: Conv2dGeometry, groups: number): void {
  const size = c.image.itemSize;
  const [N, C] = c.image.sizes;
  const Cout = c.cols.sizes[1];
  const K = g.channels * g.kernelH * g.kernelW;
  const L = g.outH * g.outW;
  const chunk = windowPositions(K, L, size);
  const units =
    dir === 'Direct' ? N * Cout
    : dir === 'Forward' ? N * Math.ceil(L / chunk)
    : dir === 'InputGrad' ? N * C
    : groups * Math.ceil(K / PANEL);
  const ops = new Operands();
  try {
    // (the output is fully overwritten: a staged one is not copied in)
    const at = (name: Call['output']) => (name === c.output ? ops.output(c[name]) : ops.input(c[name]));
    const addr = { image: at('image'), cols: at('cols'), weight: at('weight'), bias: c.bias ? ops.input(c.bias) : 0 };
    const params = paramBlock(ops, addr, c, g, groups, chunk);
    const name = `conv2d${dir}${size === 8 ? '64' : '32'}` as PoolExport;
    const tasks = ranges(units, N * Cout * L * K).map(([u0, u1]) => [params, u0, u1]);
    runTasks(name, tasks, w.conv2dScratchBytes(params, size));
  } finally {
    ops.finish();
  }
}

function runs(...ts: (TensorImpl | null)[]): WasmKernels | null {
  if (wasm === null) return null;
  for (const t of ts) if (t !== null && ((t.dtype !== 'float32' && t.dtype !== 'float64') || !t.isContiguous)) return null;
  return wasm;
}

export const conv2d: BackendImpls['conv2d'] = (out, x, w, g, groups, bias) => {
  const k = runs(out, x, w, bias);
  if (k === null) return false;
  // depthwise: Note [Direct convolution of one input channel per group]
  const direct = g.channels === 1 && out.sizes[1] / groups <= 2;
  run(k, direct ? 'Direct' : 'Forward', { image: x, cols: out, weight: w, bias, output: 'cols' }, g, groups);
  return true;
};

export const conv2dInputGrad: BackendImpls['conv2dInputGrad'] = (image, cols, w, g, groups) => {
  const k = runs(image, cols, w);
  if (k === null) return false;
  run(k, 'InputGrad', { image, cols, weight: w, bias: null, output: 'image' }, g, groups);
  return true;
};

export const conv2dWeightGrad: BackendImpls['conv2dWeightGrad'] = (gw, cols, x, g, groups) => {
  const k = runs(gw, cols, x);
  if (k === null) return false;
  run(k, 'WeightGrad', { image: x, cols, weight: gw, bias: null, output: 'weight' }, g, groups);
  return true;
};

/** Positions per work unit of the channels-last forward (gemm.ts's MC: one packed block of A). */
const NHWC_BLOCK = 96;

/**
 * Note [CPU channels-last convolution]
 * The channels-last forward (Note [Channels-last convolution as an implicit GEMM] in
 * assembly/conv2d-nhwc.ts) runs float32 and float64 where it beats the contiguous kernel plus
 * core's two layout copies. It declines (core converts) where a group's GEMM is small: at
 * least 8 output channels and 4 input channels per group, and (input channels x taps) x
 * output channels per group of at least 2048. Measured on one thread (CPU time, the
 * convert path / this one; [N, C, H, W] x [O, C / G, k, k]): [8,64,56,56] x [64,64,3,3] p1
 * 1.2x, [8,256,14,14] x [256,256,3,3] 1.2x, [8,64,56,56] x [64,64,1,1] 1.4-1.6x,
 * x [256,64,1,1] 1.3x, [8,8,56,56] x [64,8,3,3] 1.14x, [8,64,56,56] x [8,64,3,3] 1.06x,
 * [8,16,56,56] x [16,16,3,3] 1.02x, but [8,8,32,32] x [8,8,3,3] 0.7x; depthwise (one input
 * channel per group) has the contiguous path's direct kernel.
 */
function nhwcWins(g: Conv2dGeometry, cog: number): boolean {
  return cog >= 8 && g.channels >= 4 && g.channels * g.kernelH * g.kernelW * cog >= 2048;
}

/** The channels-last forward whatever the shape (the impl below adds the heuristic); false where it cannot run. */
export function conv2dNhwc(out: TensorImpl, x: TensorImpl, w: TensorImpl, g: Conv2dGeometry, groups: number, bias: TensorImpl | null): boolean {
  if (wasm === null) return false;
  for (const t of [out, x, w, bias]) if (t !== null && t.dtype !== 'float32' && t.dtype !== 'float64') return false;
  if (!w.isContiguous || (bias !== null && !bias.isContiguous)) return false;
  const size = x.itemSize;
  const [N, Cout] = [x.sizes[0], out.sizes[1]];
  const P = N * g.outH * g.outW;
  const units = Math.ceil(P / NHWC_BLOCK);
  const ops = new Operands();
  try {
    const addr = { image: ops.input(x), cols: ops.output(out), weight: ops.input(w), bias: bias ? ops.input(bias) : 0 };
    const params = paramBlock(ops, addr, { image: x, cols: out, weight: w, bias, output: 'cols' }, g, groups, NHWC_BLOCK);
    const name = `conv2dNhwcForward${size === 8 ? '64' : '32'}` as PoolExport;
    const madds = P * Cout * g.channels * g.kernelH * g.kernelW;
    const tasks = ranges(units, madds).map(([u0, u1]) => [params, u0, u1]);
    runTasks(name, tasks, wasm.conv2dNhwcScratchBytes(params, size));
  } finally {
    ops.finish();
  }
  return true;
}

export const conv2dChannelsLast: BackendImpls['conv2dChannelsLast'] = (out, x, w, g, groups, bias) =>
  nhwcWins(g, out.sizes[1] / groups) && conv2dNhwc(out, x, w, g, groups, bias);

/**
 * Note [CPU channels-last convolution gradients]
 * The weight gradient runs Note [Channels-last convolution weight gradient] (assembly/
 * conv2d-nhwc-grad.ts): per (group, block of KB columns of gw) a GEMM of grad_out^T, read in
 * place, by the forward's implicit-GEMM rows gathered from the NHWC input. The input gradient
 * of a stride-1 convolution is a stride-1 convolution itself: grad_in = the channels-last
 * forward of grad_out [N, Cout, outH, outW] by w' [C, Cout / G, kH, kW], w'[g cig + c, o,
 * kH-1-i, kW-1-j] = w[g cog + o, c, i, j], padding d (k - 1) - p, which gives H x W back
 * exactly; the flipped weight is built here (it is small). Strided input gradients (and a
 * padding over d (k - 1)) run col2im-style instead (Note [Channels-last strided convolution
 * input gradient]), so no shape converts. Both decline where the forward's heuristic
 * says the GEMM is too small (nhwcWins on the problem the kernel runs), and neither depends on
 * the thread count (fixed work units, each summing in a fixed order).
 */
export function conv2dNhwcInputGrad(image: TensorImpl, cols: TensorImpl, w: TensorImpl, g: Conv2dGeometry, groups: number): boolean {
  if (wasm === null) return false;
  for (const t of [image, cols, w]) if (t.dtype !== 'float32' && t.dtype !== 'float64') return false;
  if (!w.isContiguous) return false;
  const pH = g.dilationH * (g.kernelH - 1) - g.padH, pW = g.dilationW * (g.kernelW - 1) - g.padW;
  if (g.strideH !== 1 || g.strideW !== 1 || pH < 0 || pW < 0) return stridedInputGrad(wasm, image, cols, w, g, groups);
  const size = image.itemSize;
  const [N, C, H, W] = image.sizes;
  const Cout = cols.sizes[1];
  const cig = C / groups, cog = Cout / groups, kH = g.kernelH, kW = g.kernelW, taps = kH * kW;
  const P = N * H * W;
  const ops = new Operands();
  try {
    const addr = { image: ops.input(cols), cols: ops.output(image), weight: ops.input(w) };
    const flipped = ops.temp(w.numel * size);
    const words = [
      addr.image, addr.cols, flipped, 0,
      N, Cout, g.outH, g.outW, C, groups,
      kH, kW, 1, 1, pH, pW, g.dilationH, g.dilationW, H, W, NHWC_BLOCK,
    ];
    const params = ops.temp(words.length * 4);
    const buf = kernelHeap.buffer();
    new Uint32Array(buf, params, words.length).set(words);
    const src = size === 8 ? new Float64Array(buf, addr.weight, w.numel) : new Float32Array(buf, addr.weight, w.numel);
    const dst = size === 8 ? new Float64Array(buf, flipped, w.numel) : new Float32Array(buf, flipped, w.numel);
    for (let gi = 0; gi < groups; gi++)
      for (let o = 0; o < cog; o++)
        for (let c = 0; c < cig; c++)
          for (let t = 0; t < taps; t++)
            dst[((gi * cig + c) * cog + o) * taps + taps - 1 - t] = src[((gi * cog + o) * cig + c) * taps + t];
    const name = `conv2dNhwcForward${size === 8 ? '64' : '32'}` as PoolExport;
    const tasks = ranges(Math.ceil(P / NHWC_BLOCK), P * C * cog * taps).map(([u0, u1]) => [params, u0, u1]);
    runTasks(name, tasks, wasm.conv2dNhwcScratchBytes(params, size));
  } finally {
    ops.finish();
  }
  return true;
}

/**
 * Note [Channels-last strided convolution input gradient] (assembly/conv2d-nhwc-grad.ts): the
 * weight is laid out here tap-major, wT[g][o][t * cig + c] = w[g cog + o, c, t] (it is small);
 * one work unit per image.
 */
function stridedInputGrad(k: WasmKernels, image: TensorImpl, cols: TensorImpl, w: TensorImpl, g: Conv2dGeometry, groups: number): boolean {
  const size = image.itemSize;
  const [N, C] = image.sizes;
  const Cout = cols.sizes[1];
  const cig = C / groups, taps = g.kernelH * g.kernelW;
  const ops = new Operands();
  try {
    const addr = { image: ops.output(image), cols: ops.input(cols), weight: ops.temp(w.numel * size), bias: 0 };
    const wAt = ops.input(w);
    const buf = kernelHeap.buffer();
    const src = size === 8 ? new Float64Array(buf, wAt, w.numel) : new Float32Array(buf, wAt, w.numel);
    const dst = size === 8 ? new Float64Array(buf, addr.weight, w.numel) : new Float32Array(buf, addr.weight, w.numel);
    for (let o = 0; o < Cout; o++)
      for (let c = 0; c < cig; c++)
        for (let t = 0; t < taps; t++) dst[(o * taps + t) * cig + c] = src[(o * cig + c) * taps + t];
    const params = paramBlock(ops, addr, { image, cols, weight: w, bias: null, output: 'image' }, g, groups, 0);
    const name = `conv2dNhwcInputGrad${size === 8 ? '64' : '32'}` as PoolExport;
    const tasks = ranges(N, N * g.outH * g.outW * Cout * cig * taps).map(([u0, u1]) => [params, u0, u1]);
    runTasks(name, tasks, k.conv2dNhwcInputGradScratchBytes(params, size));
  } finally {
    ops.finish();
  }
  return true;
}

/** Columns of gw per work unit of the weight gradient (assembly/conv2d-nhwc-grad.ts's KB). */
const NHWC_WGRAD_COLUMNS = 96;

/** The channels-last weight gradient whatever the shape; false where it cannot run. */
export function conv2dNhwcWeightGrad(gw: TensorImpl, cols: TensorImpl, x: TensorImpl, g: Conv2dGeometry, groups: number): boolean {
  if (wasm === null) return false;
  for (const t of [gw, cols, x]) if (t.dtype !== 'float32' && t.dtype !== 'float64') return false;
  if (!gw.isContiguous) return false;
  const size = x.itemSize;
  const Cout = cols.sizes[1];
  const K = g.channels * g.kernelH * g.kernelW;
  const P = x.sizes[0] * g.outH * g.outW;
  const ops = new Operands();
  try {
    const addr = { image: ops.input(x), cols: ops.input(cols), weight: ops.output(gw), bias: 0 };
    const params = paramBlock(ops, addr, { image: x, cols, weight: gw, bias: null, output: 'weight' }, g, groups, 0);
    const name = `conv2dNhwcWeightGrad${size === 8 ? '64' : '32'}` as PoolExport;
    const units = groups * Math.ceil(K / NHWC_WGRAD_COLUMNS);
    const tasks = ranges(units, P * Cout * K).map(([u0, u1]) => [params, u0, u1]);
    runTasks(name, tasks, wasm.conv2dNhwcWeightGradScratchBytes(params, size));
  } finally {
    ops.finish();
  }
  return true;
}

export const conv2dChannelsLastInputGrad: BackendImpls['conv2dChannelsLastInputGrad'] = (image, cols, w, g, groups) =>
  nhwcWins({ ...g, channels: cols.sizes[1] / groups }, image.sizes[1] / groups) && conv2dNhwcInputGrad(image, cols, w, g, groups);

/**
 * The weight gradient runs for every kernel size (Note [Channels-last convolution weight
 * gradient]); with the input gradient also channels-last core copies nothing. One thread,
 * [8, 64, 56, 56] x [64, 64, 3, 3] p1, the kernel alone: 39.7 ms (46.6 GFLOP/s) against the
 * NCHW kernel's 46.5 ms, before core's two layout copies.
 */
export const conv2dChannelsLastWeightGrad: BackendImpls['conv2dChannelsLastWeightGrad'] = (gw, cols, x, g, groups) =>
  nhwcWins(g, cols.sizes[1] / groups) && conv2dNhwcWeightGrad(gw, cols, x, g, groups);
