// Note [Normalization in SIMD]
// Layer norm, batch norm (and group norm, which core runs as a layer norm of its groups) on
// contiguous float32, in place on the tensors (Note [CPU storage in WebAssembly memory]).
// Statistics take two passes, as batch_norm_kernel.cpp's: the mean, then the sum of squared
// deviations from it, both in float64 (PyTorch accumulates float32 in float32 with Welford's
// or a cascade sum; float64 holds the statistics to float32 rounding for any row length, so
// the kernels agree with PyTorch's goldens and with the float64 reference of the tests).
// Elementwise passes run in float32 lanes, with the mean split into a float32 head and tail
// (x - head is exact near the mean, by Sterbenz's lemma, and the tail is a rounding below
// it): a normalised output is then a few roundings of its own size even where the mean is
// far larger than the spread, where PyTorch's x * rstd - mean * rstd cancels. Backward sums
// (sum(g), sum(g * (x - mean))) add float32 products into float64.
// Every row (layer norm) or channel (batch norm) is one task's work, summed in an order
// fixed by its length alone, so results do not depend on the thread count; the column sums
// of layer norm's weight and bias gradients are split by columns, each summed over all rows
// in order.
import { highHalf, madd64 } from './simd';

/** Sum(x) over n float32 at p, in float64 (four f64x2 partial sums, then the tail in order). */
export function sumWide(p: usize, n: i32): f64 {
  let a0 = f64x2.splat(0), a1 = f64x2.splat(0), a2 = f64x2.splat(0), a3 = f64x2.splat(0);
  const end = p + (<usize>(n & ~7) << 2);
  for (; p < end; p += 32) {
    const v0 = v128.load(p), v1 = v128.load(p, 16);
    a0 = f64x2.add(a0, f64x2.promote_low_f32x4(v0));
    a1 = f64x2.add(a1, f64x2.promote_low_f32x4(highHalf(v0)));
    a2 = f64x2.add(a2, f64x2.promote_low_f32x4(v1));
    a3 = f64x2.add(a3, f64x2.promote_low_f32x4(highHalf(v1)));
  }
  const t = f64x2.add(f64x2.add(a0, a1), f64x2.add(a2, a3));
  let s = f64x2.extract_lane(t, 0) + f64x2.extract_lane(t, 1);
  for (let i = n & ~7; i < n; i++, p += 4) s += <f64>load<f32>(p);
  return s;
}

/** Sum((x - mu)^2) over n float32 at p, in float64. */
export function squaredDeviations(p: usize, n: i32, mu: f64): f64 {
  const m = f64x2.splat(mu);
  let a0 = f64x2.splat(0), a1 = f64x2.splat(0), a2 = f64x2.splat(0), a3 = f64x2.splat(0);
  const end = p + (<usize>(n & ~7) << 2);
  for (; p < end; p += 32) {
    const v0 = v128.load(p), v1 = v128.load(p, 16);
    const d0 = f64x2.sub(f64x2.promote_low_f32x4(v0), m);
    const d1 = f64x2.sub(f64x2.promote_low_f32x4(highHalf(v0)), m);
    const d2 = f64x2.sub(f64x2.promote_low_f32x4(v1), m);
    const d3 = f64x2.sub(f64x2.promote_low_f32x4(highHalf(v1)), m);
    a0 = madd64(d0, d0, a0);
    a1 = madd64(d1, d1, a1);
    a2 = madd64(d2, d2, a2);
    a3 = madd64(d3, d3, a3);
  }
  const t = f64x2.add(f64x2.add(a0, a1), f64x2.add(a2, a3));
  let s = f64x2.extract_lane(t, 0) + f64x2.extract_lane(t, 1);
  for (let i = n & ~7; i < n; i++, p += 4) {
    const d = <f64>load<f32>(p) - mu;
    s += d * d;
  }
  return s;
}

/** Results of `gradSums` (globals: each thread has its own instance). */
export let sumG: f64 = 0;
export let sumGD: f64 = 0;

/**
 * sumG = sum(g * w), sumGD = sum(g * w * (x - mu)) over n float32 (w per element when
 * `weighted`, else 1): the float32 products added in float64.
 */
// @ts-ignore: decorator
@inline export function gradSums(g: usize, x: usize, w: usize, n: i32, mu: f32, weighted: bool): void {
  const m = f32x4.splat(mu);
  let a0 = f64x2.splat(0), a1 = f64x2.splat(0), b0 = f64x2.splat(0), b1 = f64x2.splat(0);
  const end = g + (<usize>(n & ~3) << 2);
  for (; g < end; g += 16, x += 16) {
    let gv = v128.load(g);
    if (weighted) {
      gv = f32x4.mul(gv, v128.load(w));
      w += 16;
    }
    const gd = f32x4.mul(gv, f32x4.sub(v128.load(x), m));
    a0 = f64x2.add(a0, f64x2.promote_low_f32x4(gv));
    a1 = f64x2.add(a1, f64x2.promote_low_f32x4(highHalf(gv)));
    b0 = f64x2.add(b0, f64x2.promote_low_f32x4(gd));
    b1 = f64x2.add(b1, f64x2.promote_low_f32x4(highHalf(gd)));
  }
  const a = f64x2.add(a0, a1), b = f64x2.add(b0, b1);
  let sa = f64x2.extract_lane(a, 0) + f64x2.extract_lane(a, 1);
  let sb = f64x2.extract_lane(b, 0) + f64x2.extract_lane(b, 1);
  for (let i = n & ~3; i < n; i++, g += 4, x += 4) {
    let gv = load<f32>(g);
    if (weighted) {
      gv *= load<f32>(w);
      w += 4;
    }
    sa += <f64>gv;
    sb += <f64>(gv * (load<f32>(x) - mu));
  }
  sumG = sa;
  sumGD = sb;
}
