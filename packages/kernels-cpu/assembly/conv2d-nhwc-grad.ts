// Note [Channels-last convolution weight gradient]
// With NHWC operands the weight gradient of group g is one GEMM over the positions
// p = (n * outH + oh) * outW + ow:
//   gw_g[o, k] = sum over p of grad_out[p, g * cog + o] * A[p, k]
// with A the implicit-GEMM rows of the forward (Note [Channels-last convolution as an
// implicit GEMM]: k = tap * cig + c, a row kH * kW runs of cig contiguous input channels,
// 0 in the padding). A is gathered PB positions by KB columns at a time into scratch
// (memory.copy of channel runs); gemm.ts's GEMM then accumulates gw's block transposed,
// [KB, cog] = A_block^T @ grad_out rows [PB, cog] (grad_out read in place, its rows
// contiguous: the packing of both operands reads runs, where grad_out^T would be a strided
// gather), over the position blocks in order. Work unit: (group, block of KB columns); a unit owns its block of gw and sums all
// positions itself in a fixed order, so the bits do not depend on the thread count. The
// block is finally scattered into gw's [Cout, cig, kH, kW] layout (k = c * taps + tap).
// The input gradient of a stride-1 convolution needs no kernel of its own: it is the
// forward of grad_out by the flipped, transposed weight (src/kernels/conv2d.ts, Note [CPU
// channels-last convolution gradients]).
import { gemm, gemmScratchBytes } from './gemm';
import { Geometry } from './geometry';

/** Positions per gathered block of A (gemm.ts's KC: one packed k-block per GEMM call). */
const PB = 256;
/** Columns of gw per work unit. */
export const KB = 96;

// @ts-ignore: decorator
@inline function roundUp(v: usize): usize {
  return (v + 15) & ~15;
}

/** Bytes of scratch a task of `params`' channels-last weight gradient needs. */
export function conv2dNhwcWeightGradScratchBytes(params: usize, size: i32): i32 {
  const g = changetype<Geometry>(params);
  const cog = g.Cout / g.G;
  return PB * KB * size + cog * KB * size + gemmScratchBytes() + 3 * 16;
}

function weightGrad<T>(g: Geometry, u0: i32, u1: i32, scratch: usize): void {
  const size = sizeof<T>();
  const G = g.G, cig = g.C / G, cog = g.Cout / G, Cout = g.Cout, C = g.C, H = g.H, W = g.W;
  const taps = g.kH * g.kW, K = cig * taps, L = g.outH * g.outW, P = g.N * L;
  const blocks = (K + KB - 1) / KB;
  const b = roundUp(scratch);
  const acc = roundUp(b + <usize>PB * KB * size);
  const gs = roundUp(acc + <usize>cog * KB * size);
  for (let u = u0; u < u1; u++) {
    const gi = u / blocks, k0 = (u % blocks) * KB, kw = min(KB, K - k0);
    const chan = g.image + <usize>gi * cig * size;
    for (let p0 = 0; p0 < P; p0 += PB) {
      const pb = min(PB, P - p0);
      for (let r = 0; r < pb; r++) {
        const p = p0 + r, n = p / L, l = p % L;
        const ih0 = (l / g.outW) * g.sH - g.pH, iw0 = (l % g.outW) * g.sW - g.pW;
        const img = chan + <usize>n * H * W * C * size;
        let d = b + <usize>r * kw * size;
        let k = k0;
        const end = k0 + kw;
        while (k < end) {
          const t = k / cig, c = k % cig;
          const len = min(cig - c, end - k);
          const ih = ih0 + (t / g.kW) * g.dH, iw = iw0 + (t % g.kW) * g.dW;
          if (ih >= 0 && ih < H && iw >= 0 && iw < W) memory.copy(d, img + (<usize>(ih * W + iw) * C + c) * size, <usize>len * size);
          else memory.fill(d, 0, <usize>len * size);
          d += <usize>len * size;
          k += len;
        }
      }
      // gw^T block [kw, cog] (+)= gathered^T [kw, pb] @ grad_out rows [pb, cog]
      const gy = g.cols + (<usize>p0 * Cout + gi * cog) * size;
      gemm<T>(kw, cog, pb, b, 1, kw, gy, Cout, 1, acc, cog, p0 > 0, gs);
    }
    // scatter into gw [Cout, cig, kH, kW]
    for (let o = 0; o < cog; o++) {
      const dst = g.weight + <usize>(gi * cog + o) * K * size;
      for (let q = 0; q < kw; q++) {
        const k = k0 + q, t = k / cig, c = k % cig;
        store<T>(dst + <usize>(c * taps + t) * size, load<T>(acc + <usize>(q * cog + o) * size));
      }
    }
  }
}

/** float32 channels-last weight gradient, units [u0, u1) (Note [Channels-last convolution weight gradient]). */
export function conv2dNhwcWeightGrad32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  weightGrad<f32>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dNhwcWeightGrad64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  weightGrad<f64>(changetype<Geometry>(params), u0, u1, scratch);
}
