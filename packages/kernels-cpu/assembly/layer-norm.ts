// Layer norm of contiguous float32 [rows, k] (Note [Normalization in SIMD]); weight and
// bias [k] are optional (address 0).
import { gradSums, squaredDeviations, sumG, sumGD, sumWide } from './moments';
import { madd } from './simd';

/** y = ((x - hi) - lo) * r, then * w + b per element as the flags say, over n float32. */
// @ts-ignore: decorator
@inline function normalizeRow(x: usize, o: usize, w: usize, b: usize, n: i32, hi: f32, lo: f32, r: f32, hasW: bool, hasB: bool): void {
  const hv = f32x4.splat(hi), lv = f32x4.splat(lo), rv = f32x4.splat(r);
  const end = x + (<usize>(n & ~3) << 2);
  for (; x < end; x += 16, o += 16) {
    let y = f32x4.mul(f32x4.sub(f32x4.sub(v128.load(x), hv), lv), rv);
    if (hasW && hasB) y = madd(y, v128.load(w), v128.load(b));
    else if (hasW) y = f32x4.mul(y, v128.load(w));
    else if (hasB) y = f32x4.add(y, v128.load(b));
    v128.store(o, y);
    if (hasW) w += 16;
    if (hasB) b += 16;
  }
  for (let i = n & ~3; i < n; i++, x += 4, o += 4) {
    let y = (load<f32>(x) - hi - lo) * r;
    if (hasW && hasB) y = f32x4.extract_lane(madd(f32x4.splat(y), f32x4.splat(load<f32>(w)), f32x4.splat(load<f32>(b))), 0);
    else if (hasW) y *= load<f32>(w);
    else if (hasB) y += load<f32>(b);
    store<f32>(o, y);
    if (hasW) w += 4;
    if (hasB) b += 4;
  }
}

/**
 * Rows [0, rows) from x (and o, mean, rstd) on: mean and rstd (float32 [rows]) and the
 * normalised rows. A pool task; the caller offsets the addresses to its first row.
 */
export function layerNormF32(x: usize, o: usize, mean: usize, rstd: usize, w: usize, b: usize, rows: i32, k: i32, eps: f64, scratch: usize): void {
  const bytes = <usize>k << 2;
  for (let i = 0; i < rows; i++) {
    const mu = sumWide(x, k) / <f64>k;
    const r = 1 / Math.sqrt(squaredDeviations(x, k, mu) / <f64>k + eps);
    const hi = <f32>mu;
    const lo = <f32>(mu - <f64>hi);
    store<f32>(mean, hi);
    store<f32>(rstd, <f32>r);
    if (w != 0 && b != 0) normalizeRow(x, o, w, b, k, hi, lo, <f32>r, true, true);
    else if (w != 0) normalizeRow(x, o, w, b, k, hi, lo, <f32>r, true, false);
    else if (b != 0) normalizeRow(x, o, w, b, k, hi, lo, <f32>r, false, true);
    else normalizeRow(x, o, w, b, k, hi, lo, <f32>r, false, false);
    x += bytes;
    o += bytes;
    mean += 4;
    rstd += 4;
  }
}

/**
 * gi = r * (gw - mean(gw) - xhat * mean(gw * xhat)) with gw = g * w, xhat = (x - mu) * r:
 * written gw * r - c2 - (x - mu) * c3 with c2 = r mean(gw), c3 = r^2 mean(gw (x - mu)) r.
 */
// @ts-ignore: decorator
@inline function inputGradRow(gi: usize, g: usize, x: usize, w: usize, n: i32, mu: f32, r: f32, weighted: bool): void {
  gradSums(g, x, w, n, mu, weighted);
  const rd = <f64>r;
  const c2 = <f32>((rd * sumG) / <f64>n);
  const c3 = <f32>((rd * rd * rd * sumGD) / <f64>n);
  const mv = f32x4.splat(mu), rv = f32x4.splat(r), c2v = f32x4.splat(c2), c3v = f32x4.splat(c3);
  const end = g + (<usize>(n & ~3) << 2);
  for (; g < end; g += 16, x += 16, gi += 16) {
    let gv = v128.load(g);
    if (weighted) {
      gv = f32x4.mul(gv, v128.load(w));
      w += 16;
    }
    const d = f32x4.sub(v128.load(x), mv);
    v128.store(gi, f32x4.sub(f32x4.sub(f32x4.mul(gv, rv), c2v), f32x4.mul(d, c3v)));
  }
  for (let i = n & ~3; i < n; i++, g += 4, x += 4, gi += 4) {
    let gv = load<f32>(g);
    if (weighted) {
      gv *= load<f32>(w);
      w += 4;
    }
    store<f32>(gi, gv * r - c2 - (load<f32>(x) - mu) * c3);
  }
}

/** Layer norm's input gradient for rows [0, rows) from gi, g, x, mean, rstd on. A pool task. */
export function layerNormInputGradF32(gi: usize, g: usize, x: usize, mean: usize, rstd: usize, w: usize, rows: i32, k: i32, scratch: usize): void {
  const bytes = <usize>k << 2;
  for (let i = 0; i < rows; i++) {
    const mu = load<f32>(mean), r = load<f32>(rstd);
    if (w != 0) inputGradRow(gi, g, x, w, k, mu, r, true);
    else inputGradRow(gi, g, x, w, k, mu, r, false);
    gi += bytes;
    g += bytes;
    x += bytes;
    mean += 4;
    rstd += 4;
  }
}

/** Columns a weight-gradient task keeps in scratch at a time. */
const COLS = 1024;

/** Scratch bytes of layerNormParamGradF32: two float64 per column. */
export function layerNormScratchBytes(): i32 {
  return COLS * 16 + 64;
}

/**
 * Layer norm's weight and bias gradients (either address may be 0) for columns [c0, c1):
 * gw[j] = sum_i g[i, j] (x[i, j] - mean[i]) rstd[i], gb[j] = sum_i g[i, j], each column summed
 * over the rows in order, in float64. A pool task (tasks split the columns at multiples of 4).
 */
export function layerNormParamGradF32(gw: usize, gb: usize, g: usize, x: usize, mean: usize, rstd: usize, rows: i32, k: i32, c0: i32, c1: i32, scratch: usize): void {
  const aw = (scratch + 15) & ~15;
  const ab = aw + COLS * 8;
  const row = <usize>k << 2;
  for (let c = c0; c < c1; c += COLS) {
    const wdt = min(COLS, c1 - c);
    const vw = wdt & ~3;
    memory.fill(aw, 0, COLS * 16);
    for (let i = 0; i < rows; i++) {
      const at = <usize>i * row + (<usize>c << 2);
      const gr = g + at, xr = x + at;
      const mu = load<f32>(mean + (<usize>i << 2)), r = load<f32>(rstd + (<usize>i << 2));
      const mv = f32x4.splat(mu), rv = f32x4.splat(r);
      let j = 0;
      for (; j < vw; j += 4) {
        const o = <usize>j << 2;
        const gv = v128.load(gr + o);
        const t = f32x4.mul(gv, f32x4.mul(f32x4.sub(v128.load(xr + o), mv), rv));
        const s = aw + (o << 1), sb = ab + (o << 1);
        v128.store(s, f64x2.add(v128.load(s), f64x2.promote_low_f32x4(t)));
        v128.store(s, f64x2.add(v128.load(s, 16), f64x2.promote_low_f32x4(v128.shuffle<u32>(t, t, 2, 3, 0, 1))), 16);
        v128.store(sb, f64x2.add(v128.load(sb), f64x2.promote_low_f32x4(gv)));
        v128.store(sb, f64x2.add(v128.load(sb, 16), f64x2.promote_low_f32x4(v128.shuffle<u32>(gv, gv, 2, 3, 0, 1))), 16);
      }
      for (; j < wdt; j++) {
        const o = <usize>j << 2;
        const gv = load<f32>(gr + o);
        store<f64>(aw + (o << 1), load<f64>(aw + (o << 1)) + <f64>(gv * ((load<f32>(xr + o) - mu) * r)));
        store<f64>(ab + (o << 1), load<f64>(ab + (o << 1)) + <f64>gv);
      }
    }
    for (let j = 0; j < wdt; j++) {
      const o = <usize>(c + j) << 2;
      if (gw != 0) store<f32>(gw + o, <f32>load<f64>(aw + (<usize>j << 3)));
      if (gb != 0) store<f32>(gb + o, <f32>load<f64>(ab + (<usize>j << 3)));
    }
  }
}
