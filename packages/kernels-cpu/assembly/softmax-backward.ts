// Note [Softmax backward in SIMD]
// The input gradient of float32 softmax and log-softmax over the middle dim of contiguous
// [outer, size, inner] operands: softmax's gi = y * (g - sum(g * y)), log-softmax's
// gi = g - exp(y) * sum(g), the sums over the softmax dim. Each sum is float64 (two f64x2
// accumulators a vector, as the forward's; softmax's products g * y are float32) and is
// rounded once to float32 before the pointwise pass; exp is the general one (Note [float32
// exp in SIMD]), since a caller may pass any `output`. Tails load as partial vectors with
// zeros, which add nothing.
//  - inner = 1 (the last dim): each row is contiguous, two passes over it;
//  - inner > 1: the sums of up to COLS columns of a [size, inner] slab live in scratch and
//    vectors run along inner, so both passes read the slab row by row in memory order (as
//    the forward, Note [Softmax rows in SIMD]).
// Each column's sum is taken in the same order whatever the task split, so results do not
// depend on the thread count.
import { exp32With, expK } from './exp32';
import { COLS } from './softmax';
import { addWide, highHalf, storePart, zeroPart } from './simd';

// @ts-ignore: decorator
@inline function term(g: v128, y: v128, log: bool): v128 {
  return log ? g : f32x4.mul(g, y);
}

/** One vector of the gradient; k*: exp's constants, loaded before the loop (Note [float32 exp in SIMD]). */
// @ts-ignore: decorator
@inline function backwardStep(g: v128, y: v128, s: v128, log: bool, k10: v128, k11: v128, k0: v128, k1: v128, k2: v128, k3: v128, k4: v128, k5: v128, k6: v128, k7: v128, k8: v128, k9: v128, k13: v128): v128 {
  if (!log) return f32x4.mul(y, f32x4.sub(g, s));
  return f32x4.sub(g, f32x4.mul(exp32With(y, k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13), s));
}

/** The gradient of `rows` contiguous rows of n (the last dim). A pool task. */
export function softmaxBackwardLastF32(gi: usize, g: usize, y: usize, rows: i32, n: i32, log: bool, scratch: usize): void {
  const bytes = <usize>n << 2;
  const vbytes = <usize>(n & ~3) << 2;
  const tail = n & 3;
  const k10 = expK(10), k11 = expK(11), k0 = expK(0), k1 = expK(1), k2 = expK(2), k3 = expK(3), k4 = expK(4);
  const k5 = expK(5), k6 = expK(6), k7 = expK(7), k8 = expK(8), k9 = expK(9), k13 = expK(13);
  for (let r = 0; r < rows; r++) {
    let s0 = f64x2.splat(0), s1 = f64x2.splat(0);
    let c: usize = 0;
    for (; c < vbytes; c += 16) {
      const t = term(v128.load(g + c), v128.load(y + c), log);
      s0 = addWide(s0, t);
      s1 = addWide(s1, highHalf(t));
    }
    if (tail) {
      const t = term(zeroPart(g + c, tail), zeroPart(y + c, tail), log);
      s0 = addWide(s0, t);
      s1 = addWide(s1, highHalf(t));
    }
    s0 = f64x2.add(s0, s1);
    const sv = f32x4.splat(<f32>(f64x2.extract_lane(s0, 0) + f64x2.extract_lane(s0, 1)));
    for (c = 0; c < vbytes; c += 16) v128.store(gi + c, backwardStep(v128.load(g + c), v128.load(y + c), sv, log, k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13));
    if (tail) storePart(gi + c, backwardStep(zeroPart(g + c, tail), zeroPart(y + c, tail), sv, log, k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13), tail);
    gi += bytes;
    g += bytes;
    y += bytes;
  }
}

/**
 * Columns [0, w) (w <= COLS) of one [size, inner] slab, the operands pointing at the slab's
 * first column; sv: COLS float32 and sm: COLS float64 of scratch.
 */
function backwardColumns(gi: usize, g: usize, y: usize, size: i32, inner: i32, w: i32, log: bool, sv: usize, sm: usize): void {
  const row = <usize>inner << 2;
  const vw = <usize>(w & ~3) << 2;
  const tail = w & 3;
  const groups = vw + (tail ? 16 : 0);
  for (let c: usize = 0; c < groups; c += 16) {
    v128.store(sm + 2 * c, f64x2.splat(0));
    v128.store(sm + 2 * c, f64x2.splat(0), 16);
  }
  for (let j = 0; j < size; j++) {
    const at = <usize>j * row;
    let c: usize = 0;
    for (; c < vw; c += 16) {
      const t = term(v128.load(g + at + c), v128.load(y + at + c), log);
      const s = sm + 2 * c;
      v128.store(s, addWide(v128.load(s), t));
      v128.store(s, addWide(v128.load(s, 16), highHalf(t)), 16);
    }
    if (tail) {
      const t = term(zeroPart(g + at + c, tail), zeroPart(y + at + c, tail), log);
      const s = sm + 2 * c;
      v128.store(s, addWide(v128.load(s), t));
      v128.store(s, addWide(v128.load(s, 16), highHalf(t)), 16);
    }
  }
  for (let k = 0; k < w; k++) store<f32>(sv + (<usize>k << 2), <f32>load<f64>(sm + (<usize>k << 3)));
  const k10 = expK(10), k11 = expK(11), k0 = expK(0), k1 = expK(1), k2 = expK(2), k3 = expK(3), k4 = expK(4);
  const k5 = expK(5), k6 = expK(6), k7 = expK(7), k8 = expK(8), k9 = expK(9), k13 = expK(13);
  for (let j = 0; j < size; j++) {
    const at = <usize>j * row;
    let c: usize = 0;
    for (; c < vw; c += 16) v128.store(gi + at + c, backwardStep(v128.load(g + at + c), v128.load(y + at + c), v128.load(sv + c), log, k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13));
    if (tail) storePart(gi + at + c, backwardStep(zeroPart(g + at + c, tail), zeroPart(y + at + c, tail), v128.load(sv + c), log, k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13), tail);
  }
}

/**
 * The gradient along the middle dim of [outer, size, inner] operands, for slabs [b0, b1)
 * and columns [c0, c1) of each. A pool task; scratch: softmaxScratchBytes().
 */
export function softmaxBackwardInnerF32(gi: usize, g: usize, y: usize, b0: i32, b1: i32, size: i32, inner: i32, c0: i32, c1: i32, log: bool, scratch: usize): void {
  const sv = (scratch + 15) & ~15;
  const sm = sv + COLS * 4;
  const slab = <usize>size * inner << 2;
  for (let b = b0; b < b1; b++) {
    for (let c = c0; c < c1; c += COLS) {
      const at = <usize>b * slab + (<usize>c << 2);
      backwardColumns(gi + at, g + at, y + at, size, inner, min(COLS, c1 - c), log, sv, sm);
    }
  }
}
