// Note [im2col over a window of positions]
// The convolutions (conv2d.ts) never build the whole column matrix of an image: they take it
// a window of output positions (columns) and a range of rows at a time, so the piece they
// hand to the GEMM stays in cache. Row r of the column matrix is the tap (c, i, j) with
// r = (c * kH + i) * kW + j; column p is the output position (oh, ow) with p = oh * outW + ow;
// the element is the image pixel (c, oh * sH - pH + i * dH, ow * sW - pW + j * dW), or 0 in
// the padding. The piece is row-major [r1 - r0, cols], positions p0 .. p0 + cols - 1.
// For each row and output row the positions whose pixel lies inside the image form one range,
// found by arithmetic: the loops copy that range (16 bytes at a time where sW is 1) and only
// zero-fill outside it. col2im is the adjoint (the grad input): the same ranges, added into
// the image; each pixel gets its terms in (row, position) order, whatever the caller's split.
import { Geometry } from './geometry';

/** First output column whose pixel column (ow * s + k) is >= 0. */
// @ts-ignore: decorator
@inline function firstInside(k: i32, s: i32, out: i32): i32 {
  return k >= 0 ? 0 : min(out, (s - 1 - k) / s);
}

/** One past the last output column whose pixel column (ow * s + k) is < size. */
// @ts-ignore: decorator
@inline function endInside(k: i32, s: i32, out: i32, size: i32, lo: i32): i32 {
  return size - 1 - k < 0 ? lo : max(lo, min(out, (size - 1 - k) / s + 1));
}

// @ts-ignore: decorator
@inline function zero(d: usize, bytes: usize): void {
  const end = d + bytes;
  for (; d + 16 <= end; d += 16) v128.store(d, i64x2.splat(0));
  for (; d < end; d += 4) store<i32>(d, 0);
}

// @ts-ignore: decorator
@inline function copy(d: usize, s: usize, bytes: usize): void {
  const end = d + bytes;
  for (; d + 16 <= end; d += 16, s += 16) v128.store(d, v128.load(s));
  for (; d < end; d += 4, s += 4) store<i32>(d, load<i32>(s));
}

/** d[0 .. n) += s[0 .. n), n elements of T. */
// @ts-ignore: decorator
@inline export function addInto<T>(d: usize, s: usize, n: i32): void {
  const size = sizeof<T>();
  const end = d + <usize>n * size;
  if (size == 4) {
    for (; d + 16 <= end; d += 16, s += 16) v128.store(d, f32x4.add(v128.load(d), v128.load(s)));
  } else {
    for (; d + 16 <= end; d += 16, s += 16) v128.store(d, f64x2.add(v128.load(d), v128.load(s)));
  }
  for (; d < end; d += size, s += size) store<T>(d, load<T>(d) + load<T>(s));
}

/**
 * Rows [r0, r1) and positions [p0, p0 + cols) of the column matrix of `image` (channel 0 of
 * the rows' first channel, contiguous [C, H, W]) into `dst`, row-major [r1 - r0, cols].
 */
export function im2colWindow<T>(g: Geometry, image: usize, r0: i32, r1: i32, p0: i32, cols: i32, dst: usize): void {
  const size = sizeof<T>();
  const H = g.H, W = g.W, kW = g.kW, outW = g.outW, sH = g.sH, sW = g.sW;
  const taps = g.kH * kW;
  const end = p0 + cols;
  for (let r = r0; r < r1; r++) {
    const c = r / taps, t = r % taps;
    const kh = (t / kW) * g.dH - g.pH, kw = (t % kW) * g.dW - g.pW;
    const lo = firstInside(kw, sW, outW), hi = endInside(kw, sW, outW, W, lo);
    const plane = image + <usize>c * H * W * size;
    let d = dst + <usize>(r - r0) * cols * size;
    let p = p0, oh = p0 / outW, ow = p0 % outW;
    while (p < end) {
      const stop = min(outW, ow + end - p);
      const span = stop - ow;
      const ih = oh * sH + kh;
      const a = max(ow, lo), b = min(stop, hi);
      if (ih < 0 || ih >= H || a >= b) {
        zero(d, <usize>span * size);
      } else {
        zero(d, <usize>(a - ow) * size);
        const dd = d + <usize>(a - ow) * size;
        let s = plane + <usize>(ih * W + a * sW + kw) * size;
        if (sW == 1) copy(dd, s, <usize>(b - a) * size);
        else {
          const step = <usize>sW * size;
          for (let q = 0; q < b - a; q++, s += step) store<T>(dd + <usize>q * size, load<T>(s));
        }
        zero(dd + <usize>(b - a) * size, <usize>(stop - b) * size);
      }
      d += <usize>span * size;
      p += span;
      oh++;
      ow = 0;
    }
  }
}

/**
 * The adjoint of `im2colWindow`: adds the piece `src` [r1 - r0, cols] (rows [r0, r1),
 * positions [p0, p0 + cols)) into `image` at the pixels the elements came from.
 */
export function col2imWindow<T>(g: Geometry, image: usize, r0: i32, r1: i32, p0: i32, cols: i32, src: usize): void {
  const size = sizeof<T>();
  const H = g.H, W = g.W, kW = g.kW, outW = g.outW, sH = g.sH, sW = g.sW;
  const taps = g.kH * kW;
  const end = p0 + cols;
  for (let r = r0; r < r1; r++) {
    const c = r / taps, t = r % taps;
    const kh = (t / kW) * g.dH - g.pH, kw = (t % kW) * g.dW - g.pW;
    const lo = firstInside(kw, sW, outW), hi = endInside(kw, sW, outW, W, lo);
    const plane = image + <usize>c * H * W * size;
    let s = src + <usize>(r - r0) * cols * size;
    let p = p0, oh = p0 / outW, ow = p0 % outW;
    while (p < end) {
      const stop = min(outW, ow + end - p);
      const span = stop - ow;
      const ih = oh * sH + kh;
      const a = max(ow, lo), b = min(stop, hi);
      if (ih >= 0 && ih < H && a < b) {
        const ss = s + <usize>(a - ow) * size;
        let d = plane + <usize>(ih * W + a * sW + kw) * size;
        if (sW == 1) addInto<T>(d, ss, b - a);
        else {
          const step = <usize>sW * size;
          for (let q = 0; q < b - a; q++, d += step) store<T>(d, load<T>(d) + load<T>(ss + <usize>q * size));
        }
      }
      s += <usize>span * size;
      p += span;
      oh++;
      ow = 0;
    }
  }
}
