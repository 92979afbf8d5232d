import type { BackendImpls, Pool2dGeometry, TensorImpl } from '@torch-ts/core';
import { words, type FloatArray } from '../loops/arrays';
import { floatIn, floatOut } from './spatial-buffers';
import { wasm } from '../wasm/kernels';
import { Operands } from '../wasm/operands';
import { parallelFor } from '../wasm/pool';

/**
 * Pooling kernels on contiguous [P, H, W] planes (core makes inputs contiguous and
 * allocates contiguous outputs), with PyTorch's CPU window rules: windows clipped to the
 * image, max pooling's NaN wins (`val > max || isnan(val)`, the last NaN of a window gives
 * the index), avg pooling's divisor counts the padded window unless count_include_pad is
 * false, or is divisor_override. Sums accumulate in float64 and round once on store (PyTorch
 * accumulates float32 in float32: results agree within float32 rounding). float32 and float64
 * average pooling run on the WebAssembly kernels where they load (Note [Average pooling in
 * WebAssembly]); the loops are the fallback, and the path of other dtypes.
 */

function maxPoolLoop(o: FloatArray, oo: number, ix: Int32Array, x: FloatArray, xo: number, P: number, g: Pool2dGeometry): void {
  const { height: H, width: W, kernelH, kernelW, strideH, strideW, padH, padW, dilationH, dilationW, outH, outW } = g;
  let q = 0;
  for (let p = 0; p < P; p++) {
    const plane = xo + p * H * W;
    for (let oh = 0; oh < outH; oh++) {
      let h0 = oh * strideH - padH;
      const h1 = Math.min(h0 + (kernelH - 1) * dilationH + 1, H);
      while (h0 < 0) h0 += dilationH;
      for (let ow = 0; ow < outW; ow++, q++) {
        let w0 = ow * strideW - padW;
        const w1 = Math.min(w0 + (kernelW - 1) * dilationW + 1, W);
        while (w0 < 0) w0 += dilationW;
        let best = -Infinity;
        let at = h0 * W + w0;
        for (let h = h0; h < h1; h += dilationH) {
          for (let w = w0; w < w1; w += dilationW) {
            const v = x[plane + h * W + w];
            if (v > best || v !== v) {
              best = v;
              at = h * W + w;
            }
          }
        }
        o[oo + q] = best;
        ix[2 * q] = at;
        ix[2 * q + 1] = 0;
      }
    }
  }
}

function isWasmFloat(t: TensorImpl): boolean {
  return wasm !== null && (t.dtype === 'float32' || t.dtype === 'float64');
}

/** The 12 geometry words the WebAssembly max-pool kernels read, in a scratch of `ops`; returns its address. */
export function poolGeometry(ops: Operands, g: Pool2dGeometry): number {
  return ops.ints([g.height, g.width, g.kernelH, g.kernelW, g.strideH, g.strideW, g.padH, g.padW, g.dilationH, g.dilationW, g.outH, g.outW]);
}

/** Note [Max pooling in WebAssembly]: planes split over the thread pool. */
function maxPool2dWasm(out: TensorImpl, indices: TensorImpl, self: TensorImpl, g: Pool2dGeometry): void {
  const ops = new Operands();
  try {
    const geom = poolGeometry(ops, g);
    const x = ops.input(self);
    const o = ops.output(out);
    const ix = ops.output(indices);
    const perPlane = Math.max(1, g.outH * g.outW * g.kernelH * g.kernelW);
    const name = self.dtype === 'float32' ? 'maxPool2dF32' : 'maxPool2dF64';
    parallelFor(name, self.sizes[0], self.sizes[0] * perPlane, (p0, p1) => [p0, p1, x, o, ix, geom]);
  } finally {
    ops.finish();
  }
}

export const maxPool2d: BackendImpls['maxPool2d'] = (out, indices, self, g) => {
  if (isWasmFloat(self)) return maxPool2dWasm(out, indices, self, g);
  const o = floatOut(out);
  const x = floatIn(self);
  const P = self.sizes[0];
  const w = words(indices).subarray(2 * indices.storageOffset);
  maxPoolLoop(o.a, o.off, w, x.a, x.off, P, g);
  o.commit();
};

export const maxPool2dBackward: BackendImpls['maxPool2dBackward'] = (gradInput, gradOutput, indices) => {
  if (isWasmFloat(gradInput)) {
    const ops = new Operands();
    try {
      const [P, H, W] = gradInput.sizes;
      const n = gradOutput.sizes[1] * gradOutput.sizes[2];
      const gi = ops.output(gradInput);
      const go = ops.input(gradOutput);
      const ix = ops.input(indices);
      const name = gradInput.dtype === 'float32' ? 'maxPool2dBackwardF32' : 'maxPool2dBackwardF64';
      parallelFor(name, P, P * (H * W + n), (p0, p1) => [p0, p1, gi, go, ix, H * W, n]);
    } finally {
      ops.finish();
    }
    return;
  }
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  const [P, H, W] = gradInput.sizes;
  const n = gradOutput.sizes[1] * gradOutput.sizes[2];
  const ix = words(indices).subarray(2 * indices.storageOffset);
  scatterPlanes(gi.a, gi.off, go.a, go.off, ix, P, H * W, n);
  gi.commit();
};

function scatterPlanes(gi: FloatArray, gio: number, go: FloatArray, goo: number, ix: Int32Array, P: number, hw: number, n: number): void {
  gi.fill(0, gio, gio + P * hw);
  for (let p = 0; p < P; p++) {
    const base = gio + p * hw;
    const src = goo + p * n;
    for (let q = 0; q < n; q++) gi[base + ix[2 * (p * n + q)]] += go[src + q];
  }
}

/** The window of output (oh, ow) and its divisor, as PyTorch's avg_pool2d computes them. */
function avgPoolLoop(
  o: FloatArray,
  oo: number,
  x: FloatArray,
  xo: number,
  P: number,
  g: Pool2dGeometry,
  countIncludePad: boolean,
  divisorOverride: number,
  backward: boolean,
  truncate: boolean,
): void {
  const { height: H, width: W, kernelH, kernelW, strideH, strideW, padH, padW, outH, outW } = g;
  let q = 0;
  for (let p = 0; p < P; p++) {
    const plane = p * H * W;
    for (let oh = 0; oh < outH; oh++) {
      let h0 = oh * strideH - padH;
      let h1 = Math.min(h0 + kernelH, H + padH);
      const ph = h1 - h0;
      h0 = Math.max(h0, 0);
      h1 = Math.min(h1, H);
      for (let ow = 0; ow < outW; ow++, q++) {
        let w0 = ow * strideW - padW;
        let w1 = Math.min(w0 + kernelW, W + padW);
        const poolSize = ph * (w1 - w0);
        w0 = Math.max(w0, 0);
        w1 = Math.min(w1, W);
        const div = divisorOverride > 0 ? divisorOverride : countIncludePad ? poolSize : (h1 - h0) * (w1 - w0);
        if (backward) {
          if (h0 >= h1 || w0 >= w1) continue;
          const gv = x[xo + q] / div;
          for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) o[oo + plane + h * W + w] += gv;
          continue;
        }
        if (h0 >= h1 || w0 >= w1) {
          o[oo + q] = 0;
          continue;
        }
        let s = 0;
        for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) s += x[xo + plane + h * W + w];
        o[oo + q] = truncate ? Math.trunc(s / div) : s / div;
      }
    }
  }
}

/**
 * The window block of Note [Average pooling in WebAssembly]: rows [h0, h1), columns [w0, w1)
 * and divisor factors per output row and column, for avg_pool2d (`g`) or adaptive pooling.
 */
export function windowBlock(H: number, W: number, OH: number, OW: number, g: Pool2dGeometry | null, countIncludePad: boolean, divisorOverride: number): Int32Array {
  const block = new Int32Array(5 + 3 * (OH + OW));
  block.set([H, W, OH, OW, divisorOverride > 0 ? divisorOverride : 0]);
  const axis = (at: number, n: number, size: number, k: number, stride: number, pad: number): void => {
    for (let i = 0; i < n; i++) {
      let lo: number, hi: number, div: number;
      if (g === null) {
        lo = start(i, size, n);
        hi = end(i, size, n);
        div = hi - lo;
      } else {
        lo = i * stride - pad;
        hi = Math.min(lo + k, size + pad);
        const padded = hi - lo;
        lo = Math.max(lo, 0);
        hi = Math.min(hi, size);
        div = countIncludePad ? padded : hi - lo;
      }
      block[at + i] = lo;
      block[at + n + i] = hi;
      block[at + 2 * n + i] = div;
    }
  };
  axis(5, OH, H, g?.kernelH ?? 0, g?.strideH ?? 0, g?.padH ?? 0);
  axis(5 + 3 * OH, OW, W, g?.kernelW ?? 0, g?.strideW ?? 0, g?.padW ?? 0);
  return block;
}

/** Note [Average pooling in WebAssembly]: planes split over the thread pool. */
function avgPoolWasm(out: TensorImpl, self: TensorImpl, block: Int32Array, backward: boolean): void {
  const ops = new Operands();
  try {
    const [P, H, W] = backward ? out.sizes : self.sizes;
    const [OH, OW] = backward ? self.sizes.slice(1) : out.sizes.slice(1);
    const geom = ops.ints(block);
    const x = ops.input(self);
    const o = ops.output(out);
    const f32 = self.dtype === 'float32';
    const name = backward ? (f32 ? 'avgPool2dBackwardF32' : 'avgPool2dBackwardF64') : f32 ? 'avgPool2dF32' : 'avgPool2dF64';
    // Each plane reads its input rows about once per output row that covers them.
    const work = P * (H * W + OH * (W + OW) * Math.max(1, Math.ceil(H / Math.max(OH, 1))));
    // Forward tasks take (x, o), backward ones (gi, go): the output first.
    parallelFor(name, P, work, (p0, p1) => (backward ? [p0, p1, o, x, geom] : [p0, p1, x, o, geom]), 8 * W + 16);
  } finally {
    ops.finish();
  }
}

const avgWasm = (a: TensorImpl, b: TensorImpl): boolean => isWasmFloat(a) && a.dtype === b.dtype;

export const avgPool2dLoops: BackendImpls['avgPool2d'] = (out, self, g, countIncludePad, divisorOverride) => {
  const o = floatOut(out);
  const x = floatIn(self);
  avgPoolLoop(o.a, o.off, x.a, x.off, self.sizes[0], g, countIncludePad, divisorOverride ?? 0, false, out.dtype === 'int64');
  o.commit();
};

export const avgPool2d: BackendImpls['avgPool2d'] = (out, self, g, countIncludePad, divisorOverride) => {
  if (avgWasm(self, out)) avgPoolWasm(out, self, windowBlock(g.height, g.width, g.outH, g.outW, g, countIncludePad, divisorOverride ?? 0), false);
  else avgPool2dLoops(out, self, g, countIncludePad, divisorOverride);
};

export const avgPool2dBackwardLoops: BackendImpls['avgPool2dBackward'] = (gradInput, gradOutput, g, countIncludePad, divisorOverride) => {
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  gi.a.fill(0, gi.off, gi.off + gradInput.numel);
  avgPoolLoop(gi.a, gi.off, go.a, go.off, gradInput.sizes[0], g, countIncludePad, divisorOverride ?? 0, true, false);
  gi.commit();
};

export const avgPool2dBackward: BackendImpls['avgPool2dBackward'] = (gradInput, gradOutput, g, countIncludePad, divisorOverride) => {
  if (avgWasm(gradOutput, gradInput)) avgPoolWasm(gradInput, gradOutput, windowBlock(g.height, g.width, g.outH, g.outW, g, countIncludePad, divisorOverride ?? 0), true);
  else avgPool2dBackwardLoops(gradInput, gradOutput, g, countIncludePad, divisorOverride);
};

const start = (o: number, inSize: number, outSize: number) => Math.floor((o * inSize) / outSize);
const end = (o: number, inSize: number, outSize: number) => Math.ceil(((o + 1) * inSize) / outSize);

function adaptiveLoop(o: FloatArray, oo: number, x: FloatArray, xo: number, P: number, H: number, W: number, OH: number, OW: number, backward: boolean): void {
  let q = 0;
  for (let p = 0; p < P; p++) {
    const plane = p * H * W;
    for (let oh = 0; oh < OH; oh++) {
      const h0 = start(oh, H, OH);
      const h1 = end(oh, H, OH);
      for (let ow = 0; ow < OW; ow++, q++) {
        const w0 = start(ow, W, OW);
        const w1 = end(ow, W, OW);
        const n = (h1 - h0) * (w1 - w0);
        if (backward) {
          const gv = x[xo + q] / n;
          for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) o[oo + plane + h * W + w] += gv;
        } else {
          let s = 0;
          for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) s += x[xo + plane + h * W + w];
          o[oo + q] = s / n;
        }
      }
    }
  }
}

export const adaptiveAvgPool2dLoops: BackendImpls['adaptiveAvgPool2d'] = (out, self) => {
  const o = floatOut(out);
  const x = floatIn(self);
  const [P, H, W] = self.sizes;
  adaptiveLoop(o.a, o.off, x.a, x.off, P, H, W, out.sizes[1], out.sizes[2], false);
  o.commit();
};

export const adaptiveAvgPool2d: BackendImpls['adaptiveAvgPool2d'] = (out, self) => {
  if (avgWasm(self, out)) avgPoolWasm(out, self, windowBlock(self.sizes[1], self.sizes[2], out.sizes[1], out.sizes[2], null, true, 0), false);
  else adaptiveAvgPool2dLoops(out, self);
};

export const adaptiveAvgPool2dBackwardLoops: BackendImpls['adaptiveAvgPool2dBackward'] = (gradInput, gradOutput) => {
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  const [P, H, W] = gradInput.sizes;
  gi.a.fill(0, gi.off, gi.off + gradInput.numel);
  adaptiveLoop(gi.a, gi.off, go.a, go.off, P, H, W, gradOutput.sizes[1], gradOutput.sizes[2], true);
  gi.commit();
};

export const adaptiveAvgPool2dBackward: BackendImpls['adaptiveAvgPool2dBackward'] = (gradInput, gradOutput) => {
  if (avgWasm(gradOutput, gradInput)) avgPoolWasm(gradInput, gradOutput, windowBlock(gradInput.sizes[1], gradInput.sizes[2], gradOutput.sizes[1], gradOutput.sizes[2], null, true, 0), true);
  else adaptiveAvgPool2dBackwardLoops(gradInput, gradOutput);
};
