// Note [Direct convolution of one input channel per group]
// A depthwise convolution (one input channel and one or two output channels per group)
// gives the GEMM of Note [Convolution on the GEMM] a K of kH * kW, too short to pay for
// packing, and leaves its 3-row micro-kernel at most two thirds busy. Its forward therefore
// convolves directly: each output plane starts from the bias and, tap by tap, adds weight *
// the input rows the tap reads (a SIMD axpy over the positions inside the image, the ranges
// of Note [im2col over a window of positions]), tap-major over the plane, which stays in L1.
// With more output channels per group the GEMM wins, as it reads each column once for all of
// them (apps/mnist's 1 -> 16 first layer: 0.37 ms on the GEMM, 0.87 ms direct; 64-channel
// 3x3 depthwise on 8 x 56 x 56: 11.5 ms on the GEMM, 2.5 ms direct). Unit = (n, output
// channel): a plane is written by its unit only, and its sums run bias first, then taps in
// (i, j) order, whatever the split.
import { Geometry } from './geometry';
import { madd, madd64 } from './simd';

function forward<T>(g: Geometry, u0: i32, u1: i32): void {
  const size = sizeof<T>();
  const H = g.H, W = g.W, kH = g.kH, kW = g.kW, outH = g.outH, outW = g.outW, sW = g.sW;
  const cog = g.Cout / g.G, L = outH * outW;
  const step = <usize>sW * size;
  for (let u = u0; u < u1; u++) {
    const n = u / g.Cout, o = u % g.Cout;
    const plane = g.image + <usize>(n * g.C + o / cog) * H * W * size;
    const taps = g.weight + <usize>o * kH * kW * size;
    const out = g.cols + <usize>u * L * size;
    const b: T = g.bias != 0 ? load<T>(g.bias + <usize>o * size) : <T>0;
    for (let q = 0; q < L; q++) store<T>(out + <usize>q * size, b);
    // tap by tap over the whole plane (it stays in L1): the ranges are computed once per tap
    for (let i = 0; i < kH; i++) {
      const kh = i * g.dH - g.pH;
      for (let j = 0; j < kW; j++) {
        const kw = j * g.dW - g.pW;
        const lo = kw >= 0 ? 0 : min(outW, (sW - 1 - kw) / sW);
        const hi = W - 1 - kw < 0 ? lo : max(lo, min(outW, (W - 1 - kw) / sW + 1));
        if (lo >= hi) continue;
        const wv = load<T>(taps + <usize>(i * kW + j) * size);
        const wx = size == 4 ? f32x4.splat(<f32>wv) : f64x2.splat(<f64>wv);
        for (let oh = 0; oh < outH; oh++) {
          const ih = oh * g.sH + kh;
          if (ih < 0 || ih >= H) continue;
          let d = out + (<usize>oh * outW + lo) * size;
          let s = plane + <usize>(ih * W + lo * sW + kw) * size;
          let q = lo;
          if (sW == 1) {
            if (size == 4) for (; q + 4 <= hi; q += 4, d += 16, s += 16) v128.store(d, madd(wx, v128.load(s), v128.load(d)));
            else for (; q + 2 <= hi; q += 2, d += 16, s += 16) v128.store(d, madd64(wx, v128.load(s), v128.load(d)));
          }
          for (; q < hi; q++, d += size, s += step) store<T>(d, load<T>(d) + wv * load<T>(s));
        }
      }
    }
  }
}

/** float32 forward of a convolution with one input channel per group, units [u0, u1) = (n, output channel). */
export function conv2dDirect32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  forward<f32>(changetype<Geometry>(params), u0, u1);
}
export function conv2dDirect64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  forward<f64>(changetype<Geometry>(params), u0, u1);
}
