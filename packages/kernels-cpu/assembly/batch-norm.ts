// Batch norm of contiguous float32 [n, c, s] per channel (Note [Normalization in SIMD]), a
// pool task per range of channels, as batch_norm_kernel.cpp splits channels-first input.
// Arguments come in a parameter block of float64 (addresses are 0 for an absent tensor):
//  forward:  x, o, mean, invstd, weight, bias, running_mean, running_var, stats, n, c, s,
//            training, eps (stats: float64 [c, 2], the batch mean and sum of squared
//            deviations, from which the caller updates the running statistics);
//  backward: gi, gw, gb, g, x, weight, mean, invstd, n, c, s, training.
import { gradSums, squaredDeviations, sumG, sumGD, sumWide } from './moments';
import { madd } from './simd';

// @ts-ignore: decorator
@inline function addr(params: usize, i: i32): usize {
  return <usize>load<f64>(params + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline function int(params: usize, i: i32): i32 {
  return <i32>load<f64>(params + (<usize>i << 3));
}

/** o = ((x - hi) - lo) * a + b over n float32. */
function scaleShift(x: usize, o: usize, n: i32, hi: f32, lo: f32, a: f32, b: f32): void {
  const hv = f32x4.splat(hi), lv = f32x4.splat(lo), av = f32x4.splat(a), bv = f32x4.splat(b);
  const end = x + (<usize>(n & ~3) << 2);
  for (; x < end; x += 16, o += 16) v128.store(o, madd(f32x4.sub(f32x4.sub(v128.load(x), hv), lv), av, bv));
  for (let i = n & ~3; i < n; i++, x += 4, o += 4) {
    store<f32>(o, f32x4.extract_lane(madd(f32x4.splat(load<f32>(x) - hi - lo), av, bv), 0));
  }
}

/** Channels [c0, c1) of batch norm. A pool task. */
export function batchNormF32(params: usize, c0: i32, c1: i32, scratch: usize): void {
  const x = addr(params, 0), o = addr(params, 1), mean = addr(params, 2), invstd = addr(params, 3);
  const w = addr(params, 4), b = addr(params, 5), rm = addr(params, 6), rv = addr(params, 7), stats = addr(params, 8);
  const n = int(params, 9), c = int(params, 10), s = int(params, 11);
  const training = int(params, 12) != 0;
  const eps = load<f64>(params, 13 * 8);
  const plane = <usize>s << 2, step = <usize>c * plane;
  for (let ch = c0; ch < c1; ch++) {
    const at = <usize>ch << 2;
    const base = <usize>ch * plane;
    let mu: f64, inv: f64;
    if (training) {
      let sum: f64 = 0;
      for (let i = 0; i < n; i++) sum += sumWide(x + base + <usize>i * step, s);
      mu = sum / <f64>(n * s);
      let sq: f64 = 0;
      for (let i = 0; i < n; i++) sq += squaredDeviations(x + base + <usize>i * step, s, mu);
      inv = 1 / Math.sqrt(sq / <f64>(n * s) + eps);
      store<f64>(stats + (<usize>ch << 4), mu);
      store<f64>(stats + (<usize>ch << 4), sq, 8);
    } else {
      mu = <f64>load<f32>(rm + at);
      inv = 1 / Math.sqrt(<f64>load<f32>(rv + at) + eps);
    }
    const hi = <f32>mu;
    const lo = <f32>(mu - <f64>hi);
    store<f32>(mean + at, hi);
    store<f32>(invstd + at, <f32>inv);
    const a = <f32>(inv * (w != 0 ? <f64>load<f32>(w + at) : 1));
    const sh = b != 0 ? load<f32>(b + at) : 0;
    for (let i = 0; i < n; i++) scaleShift(x + base + <usize>i * step, o + base + <usize>i * step, s, hi, lo, a, sh);
  }
}

/** gi = g * k1 - k2 - (x - mu) * k3 over n float32. */
function inputGrad(gi: usize, g: usize, x: usize, n: i32, mu: f32, k1: f32, k2: f32, k3: f32): void {
  const mv = f32x4.splat(mu), v1 = f32x4.splat(k1), v2 = f32x4.splat(k2), v3 = f32x4.splat(k3);
  const end = g + (<usize>(n & ~3) << 2);
  for (; g < end; g += 16, x += 16, gi += 16) {
    v128.store(gi, f32x4.sub(f32x4.sub(f32x4.mul(v128.load(g), v1), v2), f32x4.mul(f32x4.sub(v128.load(x), mv), v3)));
  }
  for (let i = n & ~3; i < n; i++, g += 4, x += 4, gi += 4) store<f32>(gi, load<f32>(g) * k1 - k2 - (load<f32>(x) - mu) * k3);
}

/** gi = g * k over n float32 (eval: x plays no part, so an infinite x gives no NaN). */
function scale32(gi: usize, g: usize, n: i32, k: f32): void {
  const kv = f32x4.splat(k);
  const end = g + (<usize>(n & ~3) << 2);
  for (; g < end; g += 16, gi += 16) v128.store(gi, f32x4.mul(v128.load(g), kv));
  for (let i = n & ~3; i < n; i++, g += 4, gi += 4) store<f32>(gi, load<f32>(g) * k);
}

/**
 * Channels [c0, c1) of batch norm's gradients. With sg = sum(g), sd = sum(g (x - mu)) and
 * scale = w invstd: gw = sd invstd, gb = sg; training gi = scale (g - sg / N - (x - mu) sd
 * invstd^2 / N), eval gi = scale g. A pool task.
 */
export function batchNormBackwardF32(params: usize, c0: i32, c1: i32, scratch: usize): void {
  const gi = addr(params, 0), gw = addr(params, 1), gb = addr(params, 2), g = addr(params, 3), x = addr(params, 4);
  const w = addr(params, 5), mean = addr(params, 6), invstd = addr(params, 7);
  const n = int(params, 8), c = int(params, 9), s = int(params, 10);
  const training = int(params, 11) != 0;
  const plane = <usize>s << 2, step = <usize>c * plane;
  const count = <f64>(n * s);
  for (let ch = c0; ch < c1; ch++) {
    const at = <usize>ch << 2;
    const base = <usize>ch * plane;
    const mu = load<f32>(mean + at);
    const inv = <f64>load<f32>(invstd + at);
    let sg: f64 = 0, sd: f64 = 0;
    if (training || gw != 0 || gb != 0) {
      for (let i = 0; i < n; i++) {
        gradSums(g + base + <usize>i * step, x + base + <usize>i * step, 0, s, mu, false);
        sg += sumG;
        sd += sumGD;
      }
    }
    if (gw != 0) store<f32>(gw + at, <f32>(sd * inv));
    if (gb != 0) store<f32>(gb + at, <f32>sg);
    if (gi == 0) continue;
    const scale = inv * (w != 0 ? <f64>load<f32>(w + at) : 1);
    const k2 = <f32>((scale * sg) / count);
    const k3 = <f32>((scale * sd * inv * inv) / count);
    for (let i = 0; i < n; i++) {
      const off = base + <usize>i * step;
      if (training) inputGrad(gi + off, g + off, x + off, s, mu, <f32>scale, k2, k3);
      else scale32(gi + off, g + off, s, <f32>scale);
    }
  }
}
