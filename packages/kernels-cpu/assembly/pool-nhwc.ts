// Note [Channels-last pooling and batch norm in WebAssembly]
// max_pool2d, avg_pool2d / adaptive_avg_pool2d and batch norm, forward and backward, on dense channels-last
// [N, H, W, C] operands (Note [Channels-last pooling impls] in core), vectorised over C: the C
// values of one pixel are contiguous, so every window step is one run of vector loads, where
// the NCHW kernels walk a plane per channel. Pooling tasks take output rows [r0, r1) (a row:
// one (n, oh), all its ow and c); the pooling backwards take images [n0, n1) (windows of
// neighbouring rows overlap), with the NCHW kernels' order of additions, so their results
// are the NCHW path's; batch norm tasks take channels [c0, c1) over all rows. Each output element is computed by one task in one order whatever the split.
//  - max: PyTorch's CPU window rules as assembly/pool.ts (windows clipped to the image, NaN
//    wins, `v > best || v != v`, so the last NaN of a window gives the index), the index h W + w
//    stored as int64; geometry: the 12 i32 of pool.ts.
//  - avg: the window block of Note [Average pooling in WebAssembly]; the window is added into
//    float64 scratch per channel (C float64) and divided once, so a float32 result is its
//    float64 mean rounded once, as the NCHW kernel and the JS loops give.
//  - batch norm (float32): the parameter block of assembly/batch-norm.ts but for rows: x, o,
//    mean, invstd, weight, bias, running_mean, running_var, stats, rows (N H W), c, training,
//    eps; stats is float64 [2, c] here (the batch means, then the sums of squared deviations),
//    accumulated in float64 as the NCHW kernel does, and the output is ((x - hi) - lo) a + b
//    with mu = hi + lo, as there. Scratch: 4 float32 per channel of the task (hi, lo, a, b).
import { madd } from './simd';

// @ts-ignore: decorator
@inline function g32(geom: usize, i: i32): i32 {
  return load<i32>(geom + (<usize>i << 2));
}

function maxPoolNhwc<T>(r0: i32, r1: i32, x: usize, o: usize, ix: usize, geom: usize, C: i32): void {
  const H = g32(geom, 0), W = g32(geom, 1), kH = g32(geom, 2), kW = g32(geom, 3);
  const sH = g32(geom, 4), sW = g32(geom, 5), pH = g32(geom, 6), pW = g32(geom, 7);
  const dH = g32(geom, 8), dW = g32(geom, 9), outH = g32(geom, 10), outW = g32(geom, 11);
  const size = sizeof<T>();
  const pixel = <usize>C * size;
  for (let r = r0; r < r1; r++) {
    const n = r / outH, oh = r % outH;
    const image = x + <usize>n * H * W * pixel;
    let h0 = oh * sH - pH;
    const h1 = min(h0 + (kH - 1) * dH + 1, H);
    while (h0 < 0) h0 += dH;
    for (let ow = 0; ow < outW; ow++) {
      const q = <usize>(r * outW + ow) * C;
      let w0 = ow * sW - pW;
      const w1 = min(w0 + (kW - 1) * dW + 1, W);
      while (w0 < 0) w0 += dW;
      let c = 0;
      if (size == 4) {
        for (; c + 4 <= C; c += 4) {
          let best = f32x4.splat(-Infinity);
          let at = i32x4.splat(h0 * W + w0);
          for (let h = h0; h < h1; h += dH) {
            for (let w = w0; w < w1; w += dW) {
              const v = v128.load(image + <usize>(h * W + w) * pixel + (<usize>c << 2));
              const m = v128.or(f32x4.gt(v, best), f32x4.ne(v, v));
              best = v128.bitselect(v, best, m);
              at = v128.bitselect(i32x4.splat(h * W + w), at, m);
            }
          }
          v128.store(o + ((q + <usize>c) << 2), best);
          v128.store(ix + ((q + <usize>c) << 3), i64x2.extend_low_i32x4_s(at));
          v128.store(ix + ((q + <usize>c) << 3), i64x2.extend_high_i32x4_s(at), 16);
        }
      }
      for (; c < C; c++) {
        let best = <T>-Infinity;
        let at = h0 * W + w0;
        for (let h = h0; h < h1; h += dH) {
          for (let w = w0; w < w1; w += dW) {
            const v = load<T>(image + <usize>(h * W + w) * pixel + <usize>c * size);
            if (v > best || v != v) {
              best = v;
              at = h * W + w;
            }
          }
        }
        store<T>(o + (q + <usize>c) * size, best);
        store<i64>(ix + ((q + <usize>c) << 3), <i64>at);
      }
    }
  }
}

/** acc[0..C) += the pixel at `px` (C values of T), in float64. */
// @ts-ignore: decorator
@inline function addPixel<T>(acc: usize, px: usize, C: i32): void {
  let c = 0;
  if (sizeof<T>() == 4) {
    for (; c + 4 <= C; c += 4) {
      const v = v128.load(px + (<usize>c << 2));
      const a = acc + (<usize>c << 3);
      v128.store(a, f64x2.add(v128.load(a), f64x2.promote_low_f32x4(v)));
      v128.store(a, f64x2.add(v128.load(a, 16), f64x2.promote_low_f32x4(v128.shuffle<u32>(v, v, 2, 3, 0, 1))), 16);
    }
  } else {
    for (; c + 2 <= C; c += 2) {
      const a = acc + (<usize>c << 3);
      v128.store(a, f64x2.add(v128.load(a), v128.load(px + (<usize>c << 3))));
    }
  }
  for (; c < C; c++) {
    const a = acc + (<usize>c << 3);
    store<f64>(a, load<f64>(a) + <f64>load<T>(px + <usize>c * sizeof<T>()));
  }
}

function avgPoolNhwc<T>(r0: i32, r1: i32, x: usize, o: usize, geom: usize, C: i32, acc: usize): void {
  const H = g32(geom, 0), W = g32(geom, 1), OH = g32(geom, 2), OW = g32(geom, 3), divisor = g32(geom, 4);
  const H0 = geom + 20, H1 = H0 + (<usize>OH << 2), HD = H1 + (<usize>OH << 2);
  const W0 = HD + (<usize>OH << 2), W1 = W0 + (<usize>OW << 2), WD = W1 + (<usize>OW << 2);
  const size = sizeof<T>();
  const pixel = <usize>C * size;
  for (let r = r0; r < r1; r++) {
    const n = r / OH, oh = r % OH;
    const image = x + <usize>n * H * W * pixel;
    const h0 = load<i32>(H0 + (<usize>oh << 2)), h1 = load<i32>(H1 + (<usize>oh << 2));
    const hd = load<i32>(HD + (<usize>oh << 2));
    for (let ow = 0; ow < OW; ow++) {
      const q = o + <usize>(r * OW + ow) * pixel;
      const w0 = load<i32>(W0 + (<usize>ow << 2)), w1 = load<i32>(W1 + (<usize>ow << 2));
      if (h0 >= h1 || w0 >= w1) {
        memory.fill(q, 0, pixel);
        continue;
      }
      memory.fill(acc, 0, <usize>C << 3);
      for (let h = h0; h < h1; h++) {
        for (let w = w0; w < w1; w++) addPixel<T>(acc, image + <usize>(h * W + w) * pixel, C);
      }
      const div = <f64>(divisor != 0 ? divisor : hd * load<i32>(WD + (<usize>ow << 2)));
      let c = 0;
      if (size == 4) {
        const dv = f64x2.splat(div);
        for (; c + 4 <= C; c += 4) {
          const a = acc + (<usize>c << 3);
          const lo = f32x4.demote_f64x2_zero(f64x2.div(v128.load(a), dv));
          const hi = f32x4.demote_f64x2_zero(f64x2.div(v128.load(a, 16), dv));
          v128.store(q + (<usize>c << 2), v128.shuffle<u32>(lo, hi, 0, 1, 4, 5));
        }
      }
      for (; c < C; c++) store<T>(q + <usize>c * size, <T>(load<f64>(acc + (<usize>c << 3)) / div));
    }
  }
}

/** Images [n0, n1) of max_pool2d's backward: each output gradient added at its index, in output order (as pool.ts). */
function maxPoolBackwardNhwc<T>(n0: i32, n1: i32, gi: usize, go: usize, ix: usize, hw: i32, ohw: i32, C: i32): void {
  const size = sizeof<T>();
  const image = <usize>hw * C * size;
  memory.fill(gi + <usize>n0 * image, 0, <usize>(n1 - n0) * image);
  for (let n = n0; n < n1; n++) {
    const base = gi + <usize>n * image;
    for (let q = n * ohw, end = q + ohw; q < end; q++) {
      const row = <usize>q * C;
      for (let c = 0; c < C; c++) {
        const at = base + (<usize>load<i32>(ix + ((row + <usize>c) << 3)) * C + <usize>c) * size;
        store<T>(at, load<T>(at) + load<T>(go + (row + <usize>c) * size));
      }
    }
  }
}

/**
 * Images [n0, n1) of avg_pool2d's / adaptive_avg_pool2d's backward, with the NCHW kernel's
 * roundings: per output row, each output's share go / divisor is added into a float64 row of
 * scratch ([W, C]) over its columns, then that row into each of the window's input rows.
 */
function avgPoolBackwardNhwc<T>(n0: i32, n1: i32, gi: usize, go: usize, geom: usize, C: i32, acc: usize): void {
  const H = g32(geom, 0), W = g32(geom, 1), OH = g32(geom, 2), OW = g32(geom, 3), divisor = g32(geom, 4);
  const H0 = geom + 20, H1 = H0 + (<usize>OH << 2), HD = H1 + (<usize>OH << 2);
  const W0 = HD + (<usize>OH << 2), W1 = W0 + (<usize>OW << 2), WD = W1 + (<usize>OW << 2);
  const size = sizeof<T>();
  const pixel = <usize>C * size;
  const rowBytes = <usize>W * pixel;
  const image = <usize>H * rowBytes;
  const WC = W * C;
  memory.fill(gi + <usize>n0 * image, 0, <usize>(n1 - n0) * image);
  for (let n = n0; n < n1; n++) {
    const plane = gi + <usize>n * image;
    for (let oh = 0; oh < OH; oh++) {
      const h0 = load<i32>(H0 + (<usize>oh << 2)), h1 = load<i32>(H1 + (<usize>oh << 2));
      if (h0 >= h1) continue;
      const hd = load<i32>(HD + (<usize>oh << 2));
      memory.fill(acc, 0, <usize>WC << 3);
      for (let ow = 0; ow < OW; ow++) {
        const w0 = load<i32>(W0 + (<usize>ow << 2)), w1 = load<i32>(W1 + (<usize>ow << 2));
        const div = <f64>(divisor != 0 ? divisor : hd * load<i32>(WD + (<usize>ow << 2)));
        const q = go + <usize>((n * OH + oh) * OW + ow) * pixel;
        for (let w = w0; w < w1; w++) {
          const a = acc + (<usize>(w * C) << 3);
          for (let c = 0; c < C; c++) {
            const at = a + (<usize>c << 3);
            store<f64>(at, load<f64>(at) + <f64>load<T>(q + <usize>c * size) / div);
          }
        }
      }
      for (let h = h0; h < h1; h++) {
        const row = plane + <usize>h * rowBytes;
        let i = 0;
        if (size == 4) {
          for (; i + 4 <= WC; i += 4) {
            const r = row + (<usize>i << 2);
            const a = acc + (<usize>i << 3);
            const v = v128.load(r);
            const lo = f32x4.demote_f64x2_zero(f64x2.add(f64x2.promote_low_f32x4(v), v128.load(a)));
            const hi = f32x4.demote_f64x2_zero(f64x2.add(f64x2.promote_low_f32x4(v128.shuffle<u32>(v, v, 2, 3, 0, 1)), v128.load(a, 16)));
            v128.store(r, v128.shuffle<u32>(lo, hi, 0, 1, 4, 5));
          }
        } else {
          for (; i + 2 <= WC; i += 2) {
            const r = row + (<usize>i << 3);
            v128.store(r, f64x2.add(v128.load(r), v128.load(acc + (<usize>i << 3))));
          }
        }
        for (; i < WC; i++) {
          const r = row + <usize>i * size;
          store<T>(r, <T>(<f64>load<T>(r) + load<f64>(acc + (<usize>i << 3))));
        }
      }
    }
  }
}

export function maxPool2dBackwardNhwcF32(n0: i32, n1: i32, gi: usize, go: usize, ix: usize, hw: i32, ohw: i32, C: i32, scratch: usize): void {
  maxPoolBackwardNhwc<f32>(n0, n1, gi, go, ix, hw, ohw, C);
}

export function maxPool2dBackwardNhwcF64(n0: i32, n1: i32, gi: usize, go: usize, ix: usize, hw: i32, ohw: i32, C: i32, scratch: usize): void {
  maxPoolBackwardNhwc<f64>(n0, n1, gi, go, ix, hw, ohw, C);
}

export function avgPool2dBackwardNhwcF32(n0: i32, n1: i32, gi: usize, go: usize, geom: usize, C: i32, scratch: usize): void {
  avgPoolBackwardNhwc<f32>(n0, n1, gi, go, geom, C, (scratch + 15) & ~15);
}

export function avgPool2dBackwardNhwcF64(n0: i32, n1: i32, gi: usize, go: usize, geom: usize, C: i32, scratch: usize): void {
  avgPoolBackwardNhwc<f64>(n0, n1, gi, go, geom, C, (scratch + 15) & ~15);
}

export function maxPool2dNhwcF32(r0: i32, r1: i32, x: usize, o: usize, ix: usize, geom: usize, C: i32, scratch: usize): void {
  maxPoolNhwc<f32>(r0, r1, x, o, ix, geom, C);
}

export function maxPool2dNhwcF64(r0: i32, r1: i32, x: usize, o: usize, ix: usize, geom: usize, C: i32, scratch: usize): void {
  maxPoolNhwc<f64>(r0, r1, x, o, ix, geom, C);
}

export function avgPool2dNhwcF32(r0: i32, r1: i32, x: usize, o: usize, geom: usize, C: i32, scratch: usize): void {
  avgPoolNhwc<f32>(r0, r1, x, o, geom, C, (scratch + 15) & ~15);
}

export function avgPool2dNhwcF64(r0: i32, r1: i32, x: usize, o: usize, geom: usize, C: i32, scratch: usize): void {
  avgPoolNhwc<f64>(r0, r1, x, o, geom, C, (scratch + 15) & ~15);
}

// @ts-ignore: decorator
@inline function addr(params: usize, i: i32): usize {
  return <usize>load<f64>(params + (<usize>i << 3));
}

/** Channels [c0, c1) of channels-last batch norm over all rows. A pool task. */
export function batchNormNhwcF32(params: usize, c0: i32, c1: i32, scratch: usize): void {
  const x = addr(params, 0), o = addr(params, 1), mean = addr(params, 2), invstd = addr(params, 3);
  const w = addr(params, 4), b = addr(params, 5), rm = addr(params, 6), rv = addr(params, 7), stats = addr(params, 8);
  const rows = <i32>load<f64>(params, 9 * 8), C = <i32>load<f64>(params, 10 * 8);
  const training = load<f64>(params, 11 * 8) != 0;
  const eps = load<f64>(params, 12 * 8);
  const row = <usize>C << 2;
  const k = c1 - c0;
  const sums = stats + (<usize>c0 << 3), sq = stats + (<usize>(C + c0) << 3);
  const t = (scratch + 15) & ~15;
  const HI = t, LO = t + (<usize>k << 2), A = LO + (<usize>k << 2), B = A + (<usize>k << 2);
  if (training) {
    memory.fill(sums, 0, <usize>k << 3);
    memory.fill(sq, 0, <usize>k << 3);
    for (let r = 0; r < rows; r++) addPixel<f32>(sums, x + <usize>r * row + (<usize>c0 << 2), k);
    const count = <f64>rows;
    for (let c = 0; c < k; c++) store<f64>(sums + (<usize>c << 3), load<f64>(sums + (<usize>c << 3)) / count);
    for (let r = 0; r < rows; r++) {
      const px = x + <usize>r * row + (<usize>c0 << 2);
      let c = 0;
      for (; c + 2 <= k; c += 2) {
        const d = f64x2.sub(f64x2.promote_low_f32x4(v128.load64_zero(px + (<usize>c << 2))), v128.load(sums + (<usize>c << 3)));
        const a = sq + (<usize>c << 3);
        v128.store(a, f64x2.add(v128.load(a), f64x2.mul(d, d)));
      }
      for (; c < k; c++) {
        const d = <f64>load<f32>(px + (<usize>c << 2)) - load<f64>(sums + (<usize>c << 3));
        store<f64>(sq + (<usize>c << 3), load<f64>(sq + (<usize>c << 3)) + d * d);
      }
    }
  }
  for (let c = 0; c < k; c++) {
    const at = <usize>(c0 + c) << 2;
    let mu: f64, inv: f64;
    if (training) {
      mu = load<f64>(sums + (<usize>c << 3));
      inv = 1 / Math.sqrt(load<f64>(sq + (<usize>c << 3)) / <f64>rows + eps);
    } else {
      mu = <f64>load<f32>(rm + at);
      inv = 1 / Math.sqrt(<f64>load<f32>(rv + at) + eps);
    }
    const hi = <f32>mu;
    store<f32>(mean + at, hi);
    store<f32>(invstd + at, <f32>inv);
    store<f32>(HI + (<usize>c << 2), hi);
    store<f32>(LO + (<usize>c << 2), <f32>(mu - <f64>hi));
    store<f32>(A + (<usize>c << 2), <f32>(inv * (w != 0 ? <f64>load<f32>(w + at) : 1)));
    store<f32>(B + (<usize>c << 2), b != 0 ? load<f32>(b + at) : 0);
  }
  for (let r = 0; r < rows; r++) {
    const px = x + <usize>r * row + (<usize>c0 << 2);
    const po = o + <usize>r * row + (<usize>c0 << 2);
    let c = 0;
    for (; c + 4 <= k; c += 4) {
      const s = <usize>c << 2;
      const v = f32x4.sub(f32x4.sub(v128.load(px + s), v128.load(HI + s)), v128.load(LO + s));
      v128.store(po + s, madd(v, v128.load(A + s), v128.load(B + s)));
    }
    for (; c < k; c++) {
      const s = <usize>c << 2;
      const v = f32x4.splat(load<f32>(px + s) - load<f32>(HI + s) - load<f32>(LO + s));
      store<f32>(po + s, f32x4.extract_lane(madd(v, f32x4.splat(load<f32>(A + s)), f32x4.splat(load<f32>(B + s))), 0));
    }
  }
}

/**
 * Channels [c0, c1) of channels-last batch norm's gradients over all rows, as
 * batchNormBackwardF32 (assembly/batch-norm.ts) computes them: sg = sum(g), sd = sum(g (x - mu))
 * (float32 products added in float64), gw = sd invstd, gb = sg; training gi = g k1 - k2 -
 * (x - mu) k3, eval gi = g k1, with k1 = w invstd. Parameters (float64): gi, gw, gb, g, x,
 * weight, mean, invstd, rows, c, training. Scratch: 24 bytes per channel of the task.
 */
export function batchNormBackwardNhwcF32(params: usize, c0: i32, c1: i32, scratch: usize): void {
  const gi = addr(params, 0), gw = addr(params, 1), gb = addr(params, 2), g = addr(params, 3), x = addr(params, 4);
  const w = addr(params, 5), mean = addr(params, 6), invstd = addr(params, 7);
  const rows = <i32>load<f64>(params, 8 * 8), C = <i32>load<f64>(params, 9 * 8);
  const training = load<f64>(params, 10 * 8) != 0;
  const row = <usize>C << 2;
  const k = c1 - c0;
  const t = (scratch + 15) & ~15;
  const SG = t, SD = SG + (<usize>k << 3), MU = SD + (<usize>k << 3), K1 = MU + (<usize>k << 2), K2 = K1 + (<usize>k << 2), K3 = K2 + (<usize>k << 2);
  const first = <usize>c0 << 2;
  memory.copy(MU, mean + first, <usize>k << 2);
  memory.fill(SG, 0, <usize>k << 4);
  if (training || gw != 0 || gb != 0) {
    for (let r = 0; r < rows; r++) {
      const pg = g + <usize>r * row + first, px = x + <usize>r * row + first;
      let c = 0;
      for (; c + 4 <= k; c += 4) {
        const s = <usize>c << 2, d = <usize>c << 3;
        const gv = v128.load(pg + s);
        const gd = f32x4.mul(gv, f32x4.sub(v128.load(px + s), v128.load(MU + s)));
        v128.store(SG + d, f64x2.add(v128.load(SG + d), f64x2.promote_low_f32x4(gv)));
        v128.store(SG + d, f64x2.add(v128.load(SG + d, 16), f64x2.promote_low_f32x4(v128.shuffle<u32>(gv, gv, 2, 3, 0, 1))), 16);
        v128.store(SD + d, f64x2.add(v128.load(SD + d), f64x2.promote_low_f32x4(gd)));
        v128.store(SD + d, f64x2.add(v128.load(SD + d, 16), f64x2.promote_low_f32x4(v128.shuffle<u32>(gd, gd, 2, 3, 0, 1))), 16);
      }
      for (; c < k; c++) {
        const s = <usize>c << 2, d = <usize>c << 3;
        const gv = load<f32>(pg + s);
        store<f64>(SG + d, load<f64>(SG + d) + <f64>gv);
        store<f64>(SD + d, load<f64>(SD + d) + <f64>(gv * (load<f32>(px + s) - load<f32>(MU + s))));
      }
    }
  }
  const count = <f64>rows;
  for (let c = 0; c < k; c++) {
    const at = <usize>(c0 + c) << 2;
    const sg = load<f64>(SG + (<usize>c << 3)), sd = load<f64>(SD + (<usize>c << 3));
    const inv = <f64>load<f32>(invstd + at);
    if (gw != 0) store<f32>(gw + at, <f32>(sd * inv));
    if (gb != 0) store<f32>(gb + at, <f32>sg);
    const scale = inv * (w != 0 ? <f64>load<f32>(w + at) : 1);
    store<f32>(K1 + (<usize>c << 2), <f32>scale);
    store<f32>(K2 + (<usize>c << 2), <f32>((scale * sg) / count));
    store<f32>(K3 + (<usize>c << 2), <f32>((scale * sd * inv * inv) / count));
  }
  if (gi == 0) return;
  for (let r = 0; r < rows; r++) {
    const pg = g + <usize>r * row + first, px = x + <usize>r * row + first, po = gi + <usize>r * row + first;
    let c = 0;
    if (training) {
      for (; c + 4 <= k; c += 4) {
        const s = <usize>c << 2;
        const a = f32x4.sub(f32x4.mul(v128.load(pg + s), v128.load(K1 + s)), v128.load(K2 + s));
        v128.store(po + s, f32x4.sub(a, f32x4.mul(f32x4.sub(v128.load(px + s), v128.load(MU + s)), v128.load(K3 + s))));
      }
      for (; c < k; c++) {
        const s = <usize>c << 2;
        store<f32>(po + s, load<f32>(pg + s) * load<f32>(K1 + s) - load<f32>(K2 + s) - (load<f32>(px + s) - load<f32>(MU + s)) * load<f32>(K3 + s));
      }
    } else {
      for (; c + 4 <= k; c += 4) v128.store(po + (<usize>c << 2), f32x4.mul(v128.load(pg + (<usize>c << 2)), v128.load(K1 + (<usize>c << 2))));
      for (; c < k; c++) store<f32>(po + (<usize>c << 2), load<f32>(pg + (<usize>c << 2)) * load<f32>(K1 + (<usize>c << 2)));
    }
  }
}

// Note [Channels-last adaptive max pooling and group norm in WebAssembly]
// The optional hooks of core's Note [Channels-last pooling impls] on dense NHWC operands,
// vectorised over C as the kernels above:
//  - adaptive_max_pool2d: output rows [r0, r1) (one (n, oh), all its ow and c); window
//    [floor(o n / out), ceil((o + 1) n / out)) per dim, PyTorch's window rule (`v > best ||
//    v != v`: NaN wins, the last NaN of a window gives the index, else the first maximum), the
//    index h W + w as int64; geometry: 4 i32 (H, W, OH, OW). Its backward is max_pool2d's
//    (maxPoolBackwardNhwc: each output gradient added at its index, in output order).
//  - group norm: images [n0, n1) per task. Per image the channel sums (float64, C wide) give
//    each group's mean over its C / G channels and H W pixels, a second pass the sums of
//    squared deviations from it (two-pass variance, as the NCHW layer-norm path), then
//    y = ((x - hi) - lo) a + b with mu = hi + lo, a = rstd w (float32, as batch norm's NHWC
//    kernel; float64: (x - mu) a + b). Parameters (float64): x, o, mean, rstd, weight, bias,
//    HW, C, G, eps. Scratch: 56 bytes per channel.
//  - group norm's gradient: per image sg[c] = sum g, sd[c] = sum g (x - mu) (float64, kept in
//    `stats` [N, 2, C] for the weight and bias gradients, which the caller sums over images),
//    then grad_input = a g + b (x - mu) + k with a = rstd w, b = -rstd^3 sum(w sd) / K,
//    k = -rstd sum(w sg) / K per group (K = C / G H W), written *contiguous* NCHW (PyTorch's
//    layout for it) through 4 x 4 register transposes (float32; float64 by pixel blocks).
//    Parameters (float64): gi, stats, g, x, mean, rstd, weight, HW, C, G. Scratch: 48 bytes
//    per channel.

function adaptiveMaxPoolNhwc<T>(r0: i32, r1: i32, x: usize, o: usize, ix: usize, geom: usize, C: i32): void {
  const H = g32(geom, 0), W = g32(geom, 1), OH = g32(geom, 2), OW = g32(geom, 3);
  const size = sizeof<T>();
  const pixel = <usize>C * size;
  for (let r = r0; r < r1; r++) {
    const n = r / OH, oh = r % OH;
    const image = x + <usize>n * H * W * pixel;
    const h0 = (oh * H) / OH, h1 = ((oh + 1) * H + OH - 1) / OH;
    for (let ow = 0; ow < OW; ow++) {
      const q = <usize>(r * OW + ow) * C;
      const w0 = (ow * W) / OW, w1 = ((ow + 1) * W + OW - 1) / OW;
      let c = 0;
      if (size == 4) {
        for (; c + 4 <= C; c += 4) {
          let best = f32x4.splat(-Infinity);
          let at = i32x4.splat(h0 * W + w0);
          for (let h = h0; h < h1; h++) {
            for (let w = w0; w < w1; w++) {
              const v = v128.load(image + <usize>(h * W + w) * pixel + (<usize>c << 2));
              const m = v128.or(f32x4.gt(v, best), f32x4.ne(v, v));
              best = v128.bitselect(v, best, m);
              at = v128.bitselect(i32x4.splat(h * W + w), at, m);
            }
          }
          v128.store(o + ((q + <usize>c) << 2), best);
          v128.store(ix + ((q + <usize>c) << 3), i64x2.extend_low_i32x4_s(at));
          v128.store(ix + ((q + <usize>c) << 3), i64x2.extend_high_i32x4_s(at), 16);
        }
      }
      for (; c < C; c++) {
        let best = <T>-Infinity;
        let at = h0 * W + w0;
        for (let h = h0; h < h1; h++) {
          for (let w = w0; w < w1; w++) {
            const v = load<T>(image + <usize>(h * W + w) * pixel + <usize>c * size);
            if (v > best || v != v) {
              best = v;
              at = h * W + w;
            }
          }
        }
        store<T>(o + (q + <usize>c) * size, best);
        store<i64>(ix + ((q + <usize>c) << 3), <i64>at);
      }
    }
  }
}

export function adaptiveMaxPool2dNhwcF32(r0: i32, r1: i32, x: usize, o: usize, ix: usize, geom: usize, C: i32, scratch: usize): void {
  adaptiveMaxPoolNhwc<f32>(r0, r1, x, o, ix, geom, C);
}

export function adaptiveMaxPool2dNhwcF64(r0: i32, r1: i32, x: usize, o: usize, ix: usize, geom: usize, C: i32, scratch: usize): void {
  adaptiveMaxPoolNhwc<f64>(r0, r1, x, o, ix, geom, C);
}

/** acc[0..C) += (px[c] - mu[c])^2 (px: C values of T; acc, mu float64). */
// @ts-ignore: decorator
@inline function addSquaredDeviations<T>(acc: usize, px: usize, mu: usize, C: i32): void {
  let c = 0;
  if (sizeof<T>() == 4) {
    for (; c + 4 <= C; c += 4) {
      const v = v128.load(px + (<usize>c << 2));
      const a = acc + (<usize>c << 3), m = mu + (<usize>c << 3);
      const d0 = f64x2.sub(f64x2.promote_low_f32x4(v), v128.load(m));
      const d1 = f64x2.sub(f64x2.promote_low_f32x4(v128.shuffle<u32>(v, v, 2, 3, 0, 1)), v128.load(m, 16));
      v128.store(a, f64x2.add(v128.load(a), f64x2.mul(d0, d0)));
      v128.store(a, f64x2.add(v128.load(a, 16), f64x2.mul(d1, d1)), 16);
    }
  } else {
    for (; c + 2 <= C; c += 2) {
      const a = acc + (<usize>c << 3);
      const d = f64x2.sub(v128.load(px + (<usize>c << 3)), v128.load(mu + (<usize>c << 3)));
      v128.store(a, f64x2.add(v128.load(a), f64x2.mul(d, d)));
    }
  }
  for (; c < C; c++) {
    const a = acc + (<usize>c << 3);
    const d = <f64>load<T>(px + <usize>c * sizeof<T>()) - load<f64>(mu + (<usize>c << 3));
    store<f64>(a, load<f64>(a) + d * d);
  }
}

function groupNormNhwc<T>(params: usize, n0: i32, n1: i32, scratch: usize): void {
  const x = addr(params, 0), o = addr(params, 1), mean = addr(params, 2), rstd = addr(params, 3);
  const w = addr(params, 4), b = addr(params, 5);
  const HW = <i32>load<f64>(params, 6 * 8), C = <i32>load<f64>(params, 7 * 8), G = <i32>load<f64>(params, 8 * 8);
  const eps = load<f64>(params, 9 * 8);
  const size = sizeof<T>();
  const pixel = <usize>C * size;
  const cg = C / G;
  const count = <f64>cg * <f64>HW;
  const SUM = (scratch + 15) & ~15, SQ = SUM + (<usize>C << 3), MU = SQ + (<usize>C << 3);
  const HI = MU + (<usize>C << 3), LO = HI + <usize>C * size, A = LO + <usize>C * size, B = A + <usize>C * size;
  for (let n = n0; n < n1; n++) {
    const xn = x + <usize>n * HW * pixel, on = o + <usize>n * HW * pixel;
    memory.fill(SUM, 0, <usize>C << 4);
    for (let p = 0; p < HW; p++) addPixel<T>(SUM, xn + <usize>p * pixel, C);
    for (let g = 0; g < G; g++) {
      let s: f64 = 0;
      for (let c = g * cg; c < (g + 1) * cg; c++) s += load<f64>(SUM + (<usize>c << 3));
      const m = s / count;
      for (let c = g * cg; c < (g + 1) * cg; c++) store<f64>(MU + (<usize>c << 3), m);
      store<T>(mean + <usize>(n * G + g) * size, <T>m);
    }
    for (let p = 0; p < HW; p++) addSquaredDeviations<T>(SQ, xn + <usize>p * pixel, MU, C);
    for (let g = 0; g < G; g++) {
      let s: f64 = 0;
      for (let c = g * cg; c < (g + 1) * cg; c++) s += load<f64>(SQ + (<usize>c << 3));
      const rs = 1 / Math.sqrt(s / count + eps);
      store<T>(rstd + <usize>(n * G + g) * size, <T>rs);
      for (let c = g * cg; c < (g + 1) * cg; c++) {
        const at = <usize>c * size;
        const m = load<f64>(MU + (<usize>c << 3));
        store<T>(HI + at, <T>m);
        store<T>(LO + at, <T>(m - <f64>(<T>m)));
        store<T>(A + at, <T>(rs * (w != 0 ? <f64>load<T>(w + at) : 1)));
        store<T>(B + at, b != 0 ? load<T>(b + at) : <T>0);
      }
    }
    for (let p = 0; p < HW; p++) {
      const px = xn + <usize>p * pixel, po = on + <usize>p * pixel;
      let c = 0;
      if (size == 4) {
        for (; c + 4 <= C; c += 4) {
          const s = <usize>c << 2;
          const v = f32x4.sub(f32x4.sub(v128.load(px + s), v128.load(HI + s)), v128.load(LO + s));
          v128.store(po + s, madd(v, v128.load(A + s), v128.load(B + s)));
        }
        for (; c < C; c++) {
          const s = <usize>c << 2;
          const v = f32x4.splat(load<f32>(px + s) - load<f32>(HI + s) - load<f32>(LO + s));
          store<f32>(po + s, f32x4.extract_lane(madd(v, f32x4.splat(load<f32>(A + s)), f32x4.splat(load<f32>(B + s))), 0));
        }
      } else {
        for (; c < C; c++) {
          const s = <usize>c << 3;
          store<f64>(po + s, (load<f64>(px + s) - load<f64>(MU + s)) * load<f64>(A + s) + load<f64>(B + s));
        }
      }
    }
  }
}

export function groupNormNhwcF32(params: usize, n0: i32, n1: i32, scratch: usize): void {
  groupNormNhwc<f32>(params, n0, n1, scratch);
}

export function groupNormNhwcF64(params: usize, n0: i32, n1: i32, scratch: usize): void {
  groupNormNhwc<f64>(params, n0, n1, scratch);
}

function groupNormBackwardNhwc<T>(params: usize, n0: i32, n1: i32, scratch: usize): void {
  const gi = addr(params, 0), stats = addr(params, 1), g = addr(params, 2), x = addr(params, 3);
  const mean = addr(params, 4), rstd = addr(params, 5), w = addr(params, 6);
  const HW = <i32>load<f64>(params, 7 * 8), C = <i32>load<f64>(params, 8 * 8), G = <i32>load<f64>(params, 9 * 8);
  const size = sizeof<T>();
  const pixel = <usize>C * size;
  const cg = C / G;
  const count = <f64>cg * <f64>HW;
  const MU = (scratch + 15) & ~15, A = MU + (<usize>C << 3), B = A + (<usize>C << 3), K = B + (<usize>C << 3);
  const MUT = K + (<usize>C << 3);
  for (let n = n0; n < n1; n++) {
    const xn = x + <usize>n * HW * pixel, gn = g + <usize>n * HW * pixel;
    const SG = stats + <usize>n * (<usize>C << 4), SD = SG + (<usize>C << 3);
    for (let grp = 0; grp < G; grp++) {
      const m = <f64>load<T>(mean + <usize>(n * G + grp) * size);
      for (let c = grp * cg; c < (grp + 1) * cg; c++) store<f64>(MU + (<usize>c << 3), m);
    }
    memory.fill(SG, 0, <usize>C << 4);
    for (let p = 0; p < HW; p++) {
      const pg = gn + <usize>p * pixel, px = xn + <usize>p * pixel;
      let c = 0;
      if (size == 4) {
        for (; c + 4 <= C; c += 4) {
          const s = <usize>c << 2, d = <usize>c << 3;
          const gv = v128.load(pg + s), xv = v128.load(px + s);
          const g0 = f64x2.promote_low_f32x4(gv), g1 = f64x2.promote_low_f32x4(v128.shuffle<u32>(gv, gv, 2, 3, 0, 1));
          const x0 = f64x2.sub(f64x2.promote_low_f32x4(xv), v128.load(MU + d));
          const x1 = f64x2.sub(f64x2.promote_low_f32x4(v128.shuffle<u32>(xv, xv, 2, 3, 0, 1)), v128.load(MU + d, 16));
          v128.store(SG + d, f64x2.add(v128.load(SG + d), g0));
          v128.store(SG + d, f64x2.add(v128.load(SG + d, 16), g1), 16);
          v128.store(SD + d, f64x2.add(v128.load(SD + d), f64x2.mul(g0, x0)));
          v128.store(SD + d, f64x2.add(v128.load(SD + d, 16), f64x2.mul(g1, x1)), 16);
        }
      }
      for (; c < C; c++) {
        const d = <usize>c << 3;
        const gv = <f64>load<T>(pg + <usize>c * size);
        store<f64>(SG + d, load<f64>(SG + d) + gv);
        store<f64>(SD + d, load<f64>(SD + d) + gv * (<f64>load<T>(px + <usize>c * size) - load<f64>(MU + d)));
      }
    }
    if (gi == 0) continue;
    for (let grp = 0; grp < G; grp++) {
      const r = <f64>load<T>(rstd + <usize>(n * G + grp) * size);
      let sgw: f64 = 0, sdw: f64 = 0;
      for (let c = grp * cg; c < (grp + 1) * cg; c++) {
        const wc = w != 0 ? <f64>load<T>(w + <usize>c * size) : 1;
        sgw += wc * load<f64>(SG + (<usize>c << 3));
        sdw += wc * load<f64>(SD + (<usize>c << 3));
      }
      const bg = (-r * r * r * sdw) / count, kg = (-r * sgw) / count;
      for (let c = grp * cg; c < (grp + 1) * cg; c++) {
        const wc = w != 0 ? <f64>load<T>(w + <usize>c * size) : 1;
        store<f64>(A + (<usize>c << 3), r * wc);
        store<f64>(B + (<usize>c << 3), bg);
        store<f64>(K + (<usize>c << 3), kg);
      }
    }
    const out = gi + <usize>n * HW * pixel;
    if (size == 4) {
      // the coefficients as float32 vectors (A, B, K, MU in place, 4 bytes each)
      for (let c = 0; c < C; c++) {
        const d = <usize>c << 3, s = <usize>c << 2;
        store<f32>(MUT + s, <f32>load<f64>(MU + d));
        store<f32>(MUT + (<usize>C << 2) + s, <f32>load<f64>(A + d));
        store<f32>(MUT + (<usize>C << 3) + s, <f32>load<f64>(B + d));
        store<f32>(MUT + <usize>C * 12 + s, <f32>load<f64>(K + d));
      }
      const MU4 = MUT, A4 = MUT + (<usize>C << 2), B4 = MUT + (<usize>C << 3), K4 = MUT + <usize>C * 12;
      let p = 0;
      for (; p + 4 <= HW; p += 4) {
        let c = 0;
        for (; c + 4 <= C; c += 4) {
          const s = <usize>c << 2;
          const mu = v128.load(MU4 + s), a = v128.load(A4 + s), bb = v128.load(B4 + s), k = v128.load(K4 + s);
          const o0 = <usize>p * pixel + s;
          const r0 = f32x4.add(f32x4.add(f32x4.mul(a, v128.load(gn + o0)), f32x4.mul(bb, f32x4.sub(v128.load(xn + o0), mu))), k);
          const r1 = f32x4.add(f32x4.add(f32x4.mul(a, v128.load(gn + o0 + pixel)), f32x4.mul(bb, f32x4.sub(v128.load(xn + o0 + pixel), mu))), k);
          const r2 = f32x4.add(f32x4.add(f32x4.mul(a, v128.load(gn + o0 + 2 * pixel)), f32x4.mul(bb, f32x4.sub(v128.load(xn + o0 + 2 * pixel), mu))), k);
          const r3 = f32x4.add(f32x4.add(f32x4.mul(a, v128.load(gn + o0 + 3 * pixel)), f32x4.mul(bb, f32x4.sub(v128.load(xn + o0 + 3 * pixel), mu))), k);
          const t0 = v128.shuffle<u32>(r0, r1, 0, 4, 1, 5), t1 = v128.shuffle<u32>(r2, r3, 0, 4, 1, 5);
          const t2 = v128.shuffle<u32>(r0, r1, 2, 6, 3, 7), t3 = v128.shuffle<u32>(r2, r3, 2, 6, 3, 7);
          const q = out + ((<usize>c * HW + p) << 2), row = <usize>HW << 2;
          v128.store(q, v128.shuffle<u32>(t0, t1, 0, 1, 4, 5));
          v128.store(q + row, v128.shuffle<u32>(t0, t1, 2, 3, 6, 7));
          v128.store(q + 2 * row, v128.shuffle<u32>(t2, t3, 0, 1, 4, 5));
          v128.store(q + 3 * row, v128.shuffle<u32>(t2, t3, 2, 3, 6, 7));
        }
        for (; c < C; c++) {
          const s = <usize>c << 2;
          for (let i = p; i < p + 4; i++) {
            const e = <usize>i * pixel + s;
            store<f32>(out + ((<usize>c * HW + i) << 2), load<f32>(A4 + s) * load<f32>(gn + e) + load<f32>(B4 + s) * (load<f32>(xn + e) - load<f32>(MU4 + s)) + load<f32>(K4 + s));
          }
        }
      }
      for (; p < HW; p++) {
        for (let c = 0; c < C; c++) {
          const s = <usize>c << 2, e = <usize>p * pixel + s;
          store<f32>(out + ((<usize>c * HW + p) << 2), load<f32>(A4 + s) * load<f32>(gn + e) + load<f32>(B4 + s) * (load<f32>(xn + e) - load<f32>(MU4 + s)) + load<f32>(K4 + s));
        }
      }
    } else {
      for (let p0 = 0; p0 < HW; p0 += 16) {
        const p1 = min(p0 + 16, HW);
        for (let c = 0; c < C; c++) {
          const d = <usize>c << 3;
          const a = load<f64>(A + d), bb = load<f64>(B + d), k = load<f64>(K + d), mu = load<f64>(MU + d);
          for (let p = p0; p < p1; p++) {
            const e = <usize>p * pixel + d;
            store<f64>(out + ((<usize>c * HW + p) << 3), a * load<f64>(gn + e) + bb * (load<f64>(xn + e) - mu) + k);
          }
        }
      }
    }
  }
}

export function groupNormBackwardNhwcF32(params: usize, n0: i32, n1: i32, scratch: usize): void {
  groupNormBackwardNhwc<f32>(params, n0, n1, scratch);
}

export function groupNormBackwardNhwcF64(params: usize, n0: i32, n1: i32, scratch: usize): void {
  groupNormBackwardNhwc<f64>(params, n0, n1, scratch);
}
