import type { BackendImpls, PadMode, Pads2d, TensorImpl } from '@torch-ts/core';
import { raw1, raw2, raw4, type FloatArray } from '../loops/arrays';
import { floatIn, floatOut } from './spatial-buffers';

/**
 * Interpolation and padding kernels on contiguous [P, H, W] planes. Source indices follow
 * PyTorch's CPU kernels exactly, in their float arithmetic: nearest uses a float32 scale
 * (1 / scale_factor, or in / out) and floorf(dst * scale); bilinear computes its scale,
 * source index and lambdas in the op's opmath type (float32 for every dtype but float64),
 * which `fr` mirrors. Padding moves raw element bits (any dtype, int64 exact); its
 * backward accumulates in the float buffers.
 */
const fr = Math.fround;
const id = (x: number) => x;

/** Source indices of nearest for each output index. */
export function nearestIndices(inSize: number, outSize: number, scale: number | null): Int32Array {
  const idx = new Int32Array(outSize);
  if (outSize === inSize) for (let i = 0; i < outSize; i++) idx[i] = i;
  else if (outSize === 2 * inSize) for (let i = 0; i < outSize; i++) idx[i] = i >> 1;
  else {
    const s = scale !== null && scale > 0 ? fr(1 / scale) : fr(inSize / outSize);
    for (let i = 0; i < outSize; i++) idx[i] = Math.min(Math.floor(fr(i * s)), inSize - 1);
  }
  return idx;
}

function nearestLoop(o: FloatArray, oo: number, x: FloatArray, xo: number, P: number, H: number, W: number, hi: Int32Array, wi: Int32Array, backward: boolean): void {
  const OH = hi.length;
  const OW = wi.length;
  // forward: o is the [P, OH, OW] output, x the [P, H, W] input; backward: o is the [P, H, W]
  // gradient (accumulated at each source pixel), x the [P, OH, OW] incoming gradient
  let q = backward ? xo : oo;
  for (let p = 0; p < P; p++) {
    const plane = (backward ? oo : xo) + p * H * W;
    for (let oh = 0; oh < OH; oh++) {
      const row = plane + hi[oh] * W;
      if (backward) for (let ow = 0; ow < OW; ow++, q++) o[row + wi[ow]] += x[q];
      else for (let ow = 0; ow < OW; ow++, q++) o[q] = x[row + wi[ow]];
    }
  }
}

export const upsampleNearest2d: BackendImpls['upsampleNearest2d'] = (out, self, scaleH, scaleW) => {
  const [P, H, W] = self.sizes;
  const o = floatOut(out);
  const x = floatIn(self);
  nearestLoop(o.a, o.off, x.a, x.off, P, H, W, nearestIndices(H, out.sizes[1], scaleH), nearestIndices(W, out.sizes[2], scaleW), false);
  o.commit();
};

export const upsampleNearest2dBackward: BackendImpls['upsampleNearest2dBackward'] = (gradInput, gradOutput, scaleH, scaleW) => {
  const [P, H, W] = gradInput.sizes;
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  gi.a.fill(0, gi.off, gi.off + gradInput.numel);
  nearestLoop(gi.a, gi.off, go.a, go.off, P, H, W, nearestIndices(H, gradOutput.sizes[1], scaleH), nearestIndices(W, gradOutput.sizes[2], scaleW), true);
  gi.commit();
};

export interface Linear {
  readonly i0: Int32Array;
  readonly i1: Int32Array;
  readonly l0: Float64Array;
  readonly l1: Float64Array;
}

/** PyTorch's area_pixel_compute_scale / _source_index and lambdas, in opmath (`r` rounds to it). */
export function linearIndices(inSize: number, outSize: number, alignCorners: boolean, scale: number | null, r: (x: number) => number): Linear {
  let s: number;
  if (alignCorners) s = outSize > 1 ? r((inSize - 1) / (outSize - 1)) : 0;
  else s = scale !== null && scale > 0 ? r(1 / scale) : r(inSize / outSize);
  const i0 = new Int32Array(outSize);
  const i1 = new Int32Array(outSize);
  const l0 = new Float64Array(outSize);
  const l1 = new Float64Array(outSize);
  for (let i = 0; i < outSize; i++) {
    const src = alignCorners ? r(s * i) : Math.max(r(r(s * r(i + 0.5)) - 0.5), 0);
    const a = Math.trunc(src);
    i0[i] = a;
    i1[i] = a + (a < inSize - 1 ? 1 : 0);
    l1[i] = r(src - a);
    l0[i] = r(1 - l1[i]);
  }
  return { i0, i1, l0, l1 };
}

function bilinearLoop(o: FloatArray, oo: number, x: FloatArray, xo: number, P: number, H: number, W: number, h: Linear, w: Linear, r: (x: number) => number): void {
  const OH = h.i0.length;
  const OW = w.i0.length;
  let q = oo;
  for (let p = 0; p < P; p++) {
    const plane = xo + p * H * W;
    for (let oh = 0; oh < OH; oh++) {
      const r0 = plane + h.i0[oh] * W;
      const r1 = plane + h.i1[oh] * W;
      const a0 = h.l0[oh];
      const a1 = h.l1[oh];
      for (let ow = 0; ow < OW; ow++, q++) {
        const c0 = w.i0[ow];
        const c1 = w.i1[ow];
        const b0 = w.l0[ow];
        const b1 = w.l1[ow];
        const t0 = r(r(x[r0 + c0] * b0) + r(x[r0 + c1] * b1));
        const t1 = r(r(x[r1 + c0] * b0) + r(x[r1 + c1] * b1));
        o[q] = r(r(t0 * a0) + r(t1 * a1));
      }
    }
  }
}

function bilinearBackLoop(gi: FloatArray, gio: number, go: FloatArray, goo: number, P: number, H: number, W: number, h: Linear, w: Linear): void {
  const OH = h.i0.length;
  const OW = w.i0.length;
  let q = goo;
  for (let p = 0; p < P; p++) {
    const plane = gio + p * H * W;
    for (let oh = 0; oh < OH; oh++) {
      const r0 = plane + h.i0[oh] * W;
      const r1 = plane + h.i1[oh] * W;
      const a0 = h.l0[oh];
      const a1 = h.l1[oh];
      for (let ow = 0; ow < OW; ow++, q++) {
        const g = go[q];
        const c0 = w.i0[ow];
        const c1 = w.i1[ow];
        const b0 = w.l0[ow];
        const b1 = w.l1[ow];
        gi[r0 + c0] += g * a0 * b0;
        gi[r0 + c1] += g * a0 * b1;
        gi[r1 + c0] += g * a1 * b0;
        gi[r1 + c1] += g * a1 * b1;
      }
    }
  }
}

export const opmath = (t: TensorImpl) => (t.dtype === 'float64' ? id : fr);

export const upsampleBilinear2d: BackendImpls['upsampleBilinear2d'] = (out, self, alignCorners, scaleH, scaleW) => {
  const [P, H, W] = self.sizes;
  const r = opmath(self);
  const o = floatOut(out);
  const x = floatIn(self);
  const h = linearIndices(H, out.sizes[1], alignCorners, scaleH, r);
  const w = linearIndices(W, out.sizes[2], alignCorners, scaleW, r);
  bilinearLoop(o.a, o.off, x.a, x.off, P, H, W, h, w, r);
  o.commit();
};

export const upsampleBilinear2dBackward: BackendImpls['upsampleBilinear2dBackward'] = (gradInput, gradOutput, alignCorners, scaleH, scaleW) => {
  const [P, H, W] = gradInput.sizes;
  const r = opmath(gradInput);
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  gi.a.fill(0, gi.off, gi.off + gradInput.numel);
  const h = linearIndices(H, gradOutput.sizes[1], alignCorners, scaleH, r);
  const w = linearIndices(W, gradOutput.sizes[2], alignCorners, scaleW, r);
  bilinearBackLoop(gi.a, gi.off, go.a, go.off, P, H, W, h, w);
  gi.commit();
};

// ---- padding ----
function sourceIndex(i: number, n: number, mode: PadMode): number {
  if (mode === 'replicate') return i < 0 ? 0 : i >= n ? n - 1 : i;
  if (mode === 'circular') return ((i % n) + n) % n;
  // reflect (core checks pad < n, so one reflection suffices)
  if (i < 0) return -i;
  if (i >= n) return 2 * (n - 1) - i;
  return i;
}

function padMap(n: number, before: number, outSize: number, mode: PadMode): Int32Array {
  const m = new Int32Array(outSize);
  for (let o = 0; o < outSize; o++) m[o] = sourceIndex(o - before, n, mode);
  return m;
}

type Raw = Uint8Array | Uint16Array | Int32Array;

/** Moves `unit` elements of `a` per element (2 Int32 words for 8-byte dtypes). */
function padMove(o: Raw, oo: number, x: Raw, xo: number, P: number, H: number, W: number, hm: Int32Array, wm: Int32Array, unit: number): void {
  const OH = hm.length;
  const OW = wm.length;
  let q = oo * unit;
  for (let p = 0; p < P; p++) {
    const plane = (xo + p * H * W) * unit;
    for (let oh = 0; oh < OH; oh++) {
      const row = plane + hm[oh] * W * unit;
      if (unit === 1) for (let ow = 0; ow < OW; ow++) o[q++] = x[row + wm[ow]];
      else {
        for (let ow = 0; ow < OW; ow++) {
          const s = row + wm[ow] * 2;
          o[q++] = x[s];
          o[q++] = x[s + 1];
        }
      }
    }
  }
}

function rawOf(t: TensorImpl): [Raw, number] {
  switch (t.itemSize) {
    case 1:
      return [raw1(t), 1];
    case 2:
      return [raw2(t), 1];
    case 4:
      return [raw4(t), 1];
    default:
      return [raw4(t), 2];
  }
}

export const padIndexed: BackendImpls['padIndexed'] = (out, self, pads, mode) => {
  const [P, H, W] = self.sizes;
  const hm = padMap(H, pads[2], out.sizes[1], mode);
  const wm = padMap(W, pads[0], out.sizes[2], mode);
  const [o, unit] = rawOf(out);
  const [x] = rawOf(self);
  padMove(o, out.storageOffset, x, self.storageOffset, P, H, W, hm, wm, unit);
};

export const padIndexedBackward: BackendImpls['padIndexedBackward'] = (gradInput, gradOutput, pads: Pads2d, mode) => {
  const [P, H, W] = gradInput.sizes;
  const hm = padMap(H, pads[2], gradOutput.sizes[1], mode);
  const wm = padMap(W, pads[0], gradOutput.sizes[2], mode);
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  gi.a.fill(0, gi.off, gi.off + gradInput.numel);
  nearestLoop(gi.a, gi.off, go.a, go.off, P, H, W, hm, wm, true);
  gi.commit();
};
