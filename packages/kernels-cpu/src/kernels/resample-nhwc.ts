import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import type { FloatArray } from '../loops/arrays';
import { linearIndices, nearestIndices, opmath, type Linear } from './resample';
import { floatIn, floatOut } from './spatial-buffers';

/**
 * Note [CPU channels-last upsampling]
 * The hooks of Note [Channels-last upsampling] (core) on dense channels-last float32 /
 * float64 operands: the NCHW kernels' source indices and lambdas (resample.ts), with the
 * channel as the innermost loop, so a pixel's C values are one contiguous run (nearest
 * copies it whole). Every element is computed by the NCHW kernel's expression, and the
 * backwards add each gradient element's terms in output-row-major order as the NCHW loops
 * do, so the values are bit for bit the NCHW path's. Other dtypes decline (16-bit floats are
 * decoded into NCHW-ordered scratch by the plane kernels).
 */
const wide = (...ts: TensorImpl[]) => ts.every((t) => t.dtype === ts[0].dtype && (t.dtype === 'float32' || t.dtype === 'float64'));

/** Nearest, forward (copy a pixel's run of C) or backward (add it at its source pixel). */
function nearestNhwc(big: FloatArray, bo: number, small: FloatArray, so: number, sizes: readonly number[], hi: Int32Array, wi: Int32Array, backward: boolean): void {
  const [N, C, H, W] = sizes;
  const OH = hi.length;
  const OW = wi.length;
  for (let n = 0; n < N; n++) {
    for (let oh = 0; oh < OH; oh++) {
      const row = so + ((n * H + hi[oh]) * W) * C;
      let q = bo + ((n * OH + oh) * OW) * C;
      for (let ow = 0; ow < OW; ow++, q += C) {
        const src = row + wi[ow] * C;
        if (backward) for (let c = 0; c < C; c++) small[src + c] += big[q + c];
        else big.set(small.subarray(src, src + C), q);
      }
    }
  }
}

export const upsampleNearest2dChannelsLast: BackendImpls['upsampleNearest2dChannelsLast'] = (out, self, scaleH, scaleW) => {
  if (!wide(out, self)) return false;
  const [, , H, W] = self.sizes;
  const o = floatOut(out);
  const x = floatIn(self);
  nearestNhwc(o.a, o.off, x.a, x.off, self.sizes, nearestIndices(H, out.sizes[2], scaleH), nearestIndices(W, out.sizes[3], scaleW), false);
  o.commit();
};

export const upsampleNearest2dBackwardChannelsLast: BackendImpls['upsampleNearest2dBackwardChannelsLast'] = (gradInput, gradOutput, scaleH, scaleW) => {
  if (!wide(gradInput, gradOutput)) return false;
  const [, , H, W] = gradInput.sizes;
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  gi.a.fill(0, gi.off, gi.off + gradInput.numel);
  nearestNhwc(go.a, go.off, gi.a, gi.off, gradInput.sizes, nearestIndices(H, gradOutput.sizes[2], scaleH), nearestIndices(W, gradOutput.sizes[3], scaleW), true);
  gi.commit();
};

function bilinearNhwc(o: FloatArray, oo: number, x: FloatArray, xo: number, sizes: readonly number[], h: Linear, w: Linear, r: (v: number) => number): void {
  const [N, C, H, W] = sizes;
  const OH = h.i0.length;
  const OW = w.i0.length;
  let q = oo;
  for (let n = 0; n < N; n++) {
    const plane = xo + n * H * W * C;
    for (let oh = 0; oh < OH; oh++) {
      const r0 = plane + h.i0[oh] * W * C;
      const r1 = plane + h.i1[oh] * W * C;
      const a0 = h.l0[oh];
      const a1 = h.l1[oh];
      for (let ow = 0; ow < OW; ow++) {
        const c0 = w.i0[ow] * C;
        const c1 = w.i1[ow] * C;
        const b0 = w.l0[ow];
        const b1 = w.l1[ow];
        for (let c = 0; c < C; c++, q++) {
          const t0 = r(r(x[r0 + c0 + c] * b0) + r(x[r0 + c1 + c] * b1));
          const t1 = r(r(x[r1 + c0 + c] * b0) + r(x[r1 + c1 + c] * b1));
          o[q] = r(r(t0 * a0) + r(t1 * a1));
        }
      }
    }
  }
}

function bilinearBackNhwc(gi: FloatArray, gio: number, go: FloatArray, goo: number, sizes: readonly number[], h: Linear, w: Linear): void {
  const [N, C, H, W] = sizes;
  const OH = h.i0.length;
  const OW = w.i0.length;
  let q = goo;
  for (let n = 0; n < N; n++) {
    const plane = gio + n * H * W * C;
    for (let oh = 0; oh < OH; oh++) {
      const r0 = plane + h.i0[oh] * W * C;
      const r1 = plane + h.i1[oh] * W * C;
      const a0 = h.l0[oh];
      const a1 = h.l1[oh];
      for (let ow = 0; ow < OW; ow++) {
        const c0 = w.i0[ow] * C;
        const c1 = w.i1[ow] * C;
        const b0 = w.l0[ow];
        const b1 = w.l1[ow];
        for (let c = 0; c < C; c++, q++) {
          const g = go[q];
          gi[r0 + c0 + c] += g * a0 * b0;
          gi[r0 + c1 + c] += g * a0 * b1;
          gi[r1 + c0 + c] += g * a1 * b0;
          gi[r1 + c1 + c] += g * a1 * b1;
        }
      }
    }
  }
}

export const upsampleBilinear2dChannelsLast: BackendImpls['upsampleBilinear2dChannelsLast'] = (out, self, alignCorners, scaleH, scaleW) => {
  if (!wide(out, self)) return false;
  const [, , H, W] = self.sizes;
  const r = opmath(self);
  const o = floatOut(out);
  const x = floatIn(self);
  bilinearNhwc(o.a, o.off, x.a, x.off, self.sizes, linearIndices(H, out.sizes[2], alignCorners, scaleH, r), linearIndices(W, out.sizes[3], alignCorners, scaleW, r), r);
  o.commit();
};

export const upsampleBilinear2dBackwardChannelsLast: BackendImpls['upsampleBilinear2dBackwardChannelsLast'] = (gradInput, gradOutput, alignCorners, scaleH, scaleW) => {
  if (!wide(gradInput, gradOutput)) return false;
  const [, , H, W] = gradInput.sizes;
  const r = opmath(gradInput);
  const gi = floatOut(gradInput);
  const go = floatIn(gradOutput);
  gi.a.fill(0, gi.off, gi.off + gradInput.numel);
  const h = linearIndices(H, gradOutput.sizes[2], alignCorners, scaleH, r);
  const w = linearIndices(W, gradOutput.sizes[3], alignCorners, scaleW, r);
  bilinearBackNhwc(gi.a, gi.off, go.a, go.off, gradInput.sizes, h, w);
  gi.commit();
};
