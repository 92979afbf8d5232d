// Note [Softmax rows in SIMD]
// float32 softmax and log-softmax of contiguous [outer, size, inner] data, in place on the
// tensors (Note [CPU storage in WebAssembly memory]), three passes per row (a row of 4096
// float32 stays in L1 between them):
//  1. m = max(row), by f32x4.pmax (one maxps; V8's f32x4.max takes about seven
//     instructions to propagate NaN, which is not needed: a NaN reaches the sum in step 2)
//     in independent accumulators, so that the pass runs at the loads' rate (a task's first
//     row only: later rows' maxima are taken in step 2 of the row before); a row whose max
//     is -inf (every element -inf) is NaN, as PyTorch's (its exps and sum are 0);
//  2. e = exp(x - m) (Note [float32 exp in SIMD]) with x - m as a float32 and its rounding
//     error passed to exp: so exp sees the exact difference, and small probabilities keep
//     float32 accuracy instead of losing |x - m| ulps of it. The error is Dekker's Fast2Sum
//     of min(x, -m) and max(x, -m): since x <= m, the min is the operand of larger magnitude
//     (x <= -|m|, or -m when x is in (-m, m]), which Fast2Sum needs; five instructions where
//     Knuth's TwoSum takes six (rows that take the slow path below use TwoSum). exp is
//     expScaled, which returns e 2^64: never subnormal, and the scale cancels in e / sum and
//     comes out of log(sum) exactly. Softmax adds each pair of vectors in float32 (as
//     PyTorch's vectorised kernel accumulates in float32), then the pair into two f64x2
//     accumulators: one float32 rounding per term, at most half an ulp on every output,
//     where longer float32 runs (four terms a lane) broke the tests' bounds; it stores e on
//     the way. Log-softmax adds every exp into the float64 sum: its outputs near 0 are held
//     to ulps of themselves, so the shift log(sum) must carry only the exps' own errors. The next row's max (step 1) is taken in the same loop, so that its loads from
//     memory overlap this row's arithmetic;
//  3. softmax: out = e * (1 / sum) rounded to float32 (one rounding, also for subnormal
//     results); log-softmax: out = x - (m + log sum), the shift split into a float32 head and
//     tail, so that out is x - head (exact near the max, by Sterbenz's lemma) - tail.
// A NaN anywhere makes its exp, hence the sum and every output of its row, NaN; +inf makes
// m +inf and x - m NaN for it, so the row is NaN too (PyTorch gives the same).
// exp's input must stay in [-131, 0] (expScaled's range) and Fast2Sum's inputs finite: where
// |m| < 2^20 (any row that is not extreme; for an inner dim, every column of a block) x is
// clamped from below at m - 105, with one pmax, before the subtraction (the clamped exps,
// about 2^-151 sum, change no result); other rows clamp the difference at -104 and zero the
// exp at and below it, three instructions more.
// Tails (rows or column groups narrower than a vector) are loaded as partial vectors whose
// missing lanes hold -inf (max and sum ignore them), so every element takes the same steps.
// dim != -1 (inner > 1): the rows are the columns of each [size, inner] slab; vectors run
// along inner, `max` and `sum` of up to COLS columns live in scratch, and every pass reads
// the slab row by row in memory order.
import { expK, expScaled } from './exp32';
import { addWide, highHalf, storePart } from './simd';

const C = memory.data<f32>([-Infinity, -104, 0], 16);
/** 64 ln 2: log(sum) of the sums of expScaled. */
const LOG_2_64: f64 = 64 * Math.LN2;

// @ts-ignore: decorator
@inline function negInf(): v128 {
  return v128.load32_splat(C);
}

/** Columns an inner-dim task keeps in scratch at a time. */
export const COLS = 1024;

/** Scratch bytes an inner-dim softmax task (forward or backward) needs: a float32 and a float64 per column. */
export function softmaxScratchBytes(): i32 {
  return COLS * 12 + 64;
}

// @ts-ignore: decorator
@inline function loadPart(p: usize, t: i32): v128 {
  let v = f32x4.replace_lane(negInf(), 0, load<f32>(p));
  if (t > 1) v = f32x4.replace_lane(v, 1, load<f32>(p, 4));
  if (t > 2) v = f32x4.replace_lane(v, 2, load<f32>(p, 8));
  return v;
}

/**
 * exp(x + b) 2^64 for b = -max, the rounding error of x + b included (step 2 of the Note);
 * `lc` = max - 105 where `clampX` (rows with |max| < 2^20); k*: expScaled's constants.
 */
// @ts-ignore: decorator
@inline function expDiff(x0: v128, b: v128, lc: v128, clampX: bool, k0: v128, k12: v128, k2: v128, k3: v128, k4: v128, k5: v128, k6: v128, k7: v128, k8: v128, k9: v128): v128 {
  const x = clampX ? f32x4.pmax(x0, lc) : x0;
  if (clampX) {
    // Fast2Sum with the operands in order of magnitude: x <= max makes min(x, b) the larger.
    const a = f32x4.pmin(x, b), c = f32x4.pmax(x, b);
    const s = f32x4.add(a, c);
    return expScaled(s, f32x4.sub(c, f32x4.sub(s, a)), k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
  }
  const s = f32x4.add(x, b);
  const bb = f32x4.sub(s, x);
  const err = f32x4.add(f32x4.sub(x, f32x4.sub(s, bb)), f32x4.sub(b, bb));
  // Below exp's range the result is 0 (x = -inf also has a NaN error); a NaN s stays NaN.
  const below = f32x4.le(s, v128.load32_splat(C, 4));
  const e = expScaled(f32x4.pmax(s, v128.load32_splat(C, 4)), err, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
  return v128.andnot(e, below);
}

/** max(row) of n float32 (NaN ignored; -inf for a row of -inf). */
// @ts-ignore: decorator
@inline function rowMax(x: usize, n: i32): f32 {
  const vend = x + (<usize>(n & ~3) << 2);
  const tail = n & 3;
  let m0 = negInf(), m1 = negInf(), m2 = negInf(), m3 = negInf();
  let p = x;
  for (; p + 64 <= vend; p += 64) {
    m0 = f32x4.pmax(m0, v128.load(p));
    m1 = f32x4.pmax(m1, v128.load(p, 16));
    m2 = f32x4.pmax(m2, v128.load(p, 32));
    m3 = f32x4.pmax(m3, v128.load(p, 48));
  }
  for (; p < vend; p += 16) m0 = f32x4.pmax(m0, v128.load(p));
  if (tail) m1 = f32x4.pmax(m1, loadPart(vend, tail));
  m0 = f32x4.pmax(f32x4.pmax(m0, m1), f32x4.pmax(m2, m3));
  m0 = f32x4.pmax(m0, highHalf(m0));
  return max(f32x4.extract_lane(m0, 0), f32x4.extract_lane(m0, 1));
}

/** max of the row after the one expSum ran on (a global: each thread has its own instance). */
let nextMax: f32 = 0;

/**
 * 2^64 sum(exp(x - m)) over a row (step 2 of the Note); `keep`: store the scaled exps in o.
 * Sets nextMax to the max of the row at nx (step 1 of the next row).
 */
// @ts-ignore: decorator
@inline function expSum(x: usize, o: usize, n: i32, m: f32, keep: bool, clampX: bool, nx: usize): f64 {
  const vend = x + (<usize>(n & ~3) << 2);
  const bend = x + (<usize>(n & ~7) << 2);
  const tail = n & 3;
  const bv = f32x4.splat(-m);
  const lc = f32x4.splat(m - 105);
  const k0 = expK(0), k12 = expK(12), k2 = expK(2), k3 = expK(3), k4 = expK(4);
  const k5 = expK(5), k6 = expK(6), k7 = expK(7), k8 = expK(8), k9 = expK(9);
  let s0 = f64x2.splat(0), s1 = f64x2.splat(0);
  let n0 = negInf(), n1 = negInf();
  let p = x, q = o, r = nx;
  while (p < bend) {
    n0 = f32x4.pmax(n0, v128.load(r));
    n1 = f32x4.pmax(n1, v128.load(r, 16));
    const e0 = expDiff(v128.load(p), bv, lc, clampX, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
    const e1 = expDiff(v128.load(p, 16), bv, lc, clampX, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
    if (keep) {
      v128.store(q, e0);
      v128.store(q, e1, 16);
    }
    if (keep) {
      const a = f32x4.add(e0, e1);
      s0 = addWide(s0, a);
      s1 = addWide(s1, highHalf(a));
    } else {
      s0 = addWide(addWide(s0, e0), e1);
      s1 = addWide(addWide(s1, highHalf(e0)), highHalf(e1));
    }
    p += 32;
    q += 32;
    r += 32;
  }
  for (; p < vend; p += 16, q += 16) {
    const e = expDiff(v128.load(p), bv, lc, clampX, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
    if (keep) v128.store(q, e);
    s0 = addWide(s0, e);
    s1 = addWide(s1, highHalf(e));
  }
  if (tail) {
    const e = expDiff(loadPart(vend, tail), bv, lc, clampX, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
    if (keep) storePart(q, e, tail);
    s0 = addWide(s0, e);
    s1 = addWide(s1, highHalf(e));
  }
  n0 = f32x4.pmax(n0, n1);
  n0 = f32x4.pmax(n0, highHalf(n0));
  const done = <i32>((bend - x) >> 2);
  nextMax = max(max(f32x4.extract_lane(n0, 0), f32x4.extract_lane(n0, 1)), rowMax(nx + (bend - x), n - done));
  s0 = f64x2.add(s0, s1);
  return f64x2.extract_lane(s0, 0) + f64x2.extract_lane(s0, 1);
}

/** One row, whose max is m; sets nextMax to the max of the row at nx. */
function softmaxRow(x: usize, o: usize, n: i32, log: bool, m: f32, nx: usize): void {
  const end = x + (<usize>n << 2);
  let p = x, q = o;
  if (m == -Infinity) {
    for (; q < o + (<usize>n << 2); q += 4) store<f32>(q, NaN);
    nextMax = rowMax(nx, n);
    return;
  }
  const fast = abs(m) < 1048576;
  const sum = log
    ? (fast ? expSum(x, o, n, m, false, true, nx) : expSum(x, o, n, m, false, false, nx))
    : (fast ? expSum(x, o, n, m, true, true, nx) : expSum(x, o, n, m, true, false, nx));
  if (log) {
    const shift = <f64>m + (Math.log(sum) - LOG_2_64);
    const hi = <f32>shift;
    const lo = <f32>(shift - <f64>hi);
    const hv = f32x4.splat(hi), lv = f32x4.splat(lo);
    for (; p + 32 <= end; p += 32, q += 32) {
      v128.store(q, f32x4.sub(f32x4.sub(v128.load(p), hv), lv));
      v128.store(q, f32x4.sub(f32x4.sub(v128.load(p, 16), hv), lv), 16);
    }
    for (; p + 16 <= end; p += 16, q += 16) v128.store(q, f32x4.sub(f32x4.sub(v128.load(p), hv), lv));
    for (; p < end; p += 4, q += 4) store<f32>(q, load<f32>(p) - hi - lo);
  } else {
    const iv = f32x4.splat(<f32>(1 / sum));
    const oend = o + (<usize>n << 2);
    for (; q + 32 <= oend; q += 32) {
      v128.store(q, f32x4.mul(v128.load(q), iv));
      v128.store(q, f32x4.mul(v128.load(q, 16), iv), 16);
    }
    for (; q + 16 <= oend; q += 16) v128.store(q, f32x4.mul(v128.load(q), iv));
    for (; q < oend; q += 4) store<f32>(q, load<f32>(q) * f32x4.extract_lane(iv, 0));
  }
}

/** Softmax (log: log-softmax) of `rows` contiguous rows of n float32 from x into o. A pool task. */
export function softmaxLastF32(x: usize, o: usize, rows: i32, n: i32, log: bool, scratch: usize): void {
  const bytes = <usize>n << 2;
  let m = rowMax(x, n);
  for (let r = 0; r < rows; r++) {
    softmaxRow(x, o, n, log, m, r + 1 < rows ? x + bytes : x);
    m = nextMax;
    x += bytes;
    o += bytes;
  }
}

/** Step 2 over the columns of softmaxColumns (clampX: Note [Softmax rows in SIMD]'s fast path). */
// @ts-ignore: decorator
@inline function columnsExpSum(x: usize, o: usize, size: i32, row: usize, vw: usize, tail: i32, log: bool, mx: usize, sm: usize, clampX: bool): void {
  const k0 = expK(0), k12 = expK(12), k2 = expK(2), k3 = expK(3), k4 = expK(4);
  const k5 = expK(5), k6 = expK(6), k7 = expK(7), k8 = expK(8), k9 = expK(9);
  const groups = vw + (tail ? 16 : 0);
  const c105 = f32x4.splat(105);
  let j = 0;
  for (; j + 2 <= size; j += 2) {
    const xr = x + <usize>j * row, orow = o + <usize>j * row;
    for (let c: usize = 0; c < groups; c += 16) {
      const m = v128.load(mx + c);
      const b = f32x4.neg(m), lc = f32x4.sub(m, c105);
      const full = c < vw;
      const e0 = expDiff(full ? v128.load(xr + c) : loadPart(xr + c, tail), b, lc, clampX, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
      const e1 = expDiff(full ? v128.load(xr + row + c) : loadPart(xr + row + c, tail), b, lc, clampX, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
      if (!log) {
        if (full) {
          v128.store(orow + c, e0);
          v128.store(orow + row + c, e1);
        } else {
          storePart(orow + c, e0, tail);
          storePart(orow + row + c, e1, tail);
        }
      }
      const s = sm + 2 * c;
      if (log) {
        v128.store(s, addWide(addWide(v128.load(s), e0), e1));
        v128.store(s, addWide(addWide(v128.load(s, 16), highHalf(e0)), highHalf(e1)), 16);
      } else {
        const a = f32x4.add(e0, e1);
        v128.store(s, addWide(v128.load(s), a));
        v128.store(s, addWide(v128.load(s, 16), highHalf(a)), 16);
      }
    }
  }
  if (j < size) {
    const xr = x + <usize>j * row, orow = o + <usize>j * row;
    for (let c: usize = 0; c < groups; c += 16) {
      const m = v128.load(mx + c);
      const full = c < vw;
      const e = expDiff(full ? v128.load(xr + c) : loadPart(xr + c, tail), f32x4.neg(m), f32x4.sub(m, c105), clampX, k0, k12, k2, k3, k4, k5, k6, k7, k8, k9);
      if (!log) {
        if (full) v128.store(orow + c, e);
        else storePart(orow + c, e, tail);
      }
      const s = sm + 2 * c;
      v128.store(s, addWide(v128.load(s), e));
      v128.store(s, addWide(v128.load(s, 16), highHalf(e)), 16);
    }
  }
}

/** The max used for a column: 0 for -inf (every element -inf), so that its exps and sum are 0. */
// @ts-ignore: decorator
@inline function finiteMaxes(m: v128): v128 {
  return v128.bitselect(f32x4.splat(0), m, f32x4.eq(m, negInf()));
}

/**
 * Columns [c0, c1) (c1 - c0 <= COLS) of one [size, inner] slab: x and o point at the
 * slab's element (0, c0). mx: COLS float32, sm: COLS float64 of scratch. Step 2 takes two
 * rows a step, so the sums in scratch are read and written once per two rows (softmax adds
 * the two rows' exps in float32 first, as the rows' pairs of vectors).
 */
function softmaxColumns(x: usize, o: usize, size: i32, inner: i32, w: i32, log: bool, mx: usize, sm: usize): void {
  const row = <usize>inner << 2;
  const vw = <usize>(w & ~3) << 2;
  const tail = w & 3;
  const groups = vw + (tail ? 16 : 0);
  for (let c: usize = 0; c < groups; c += 16) v128.store(mx + c, negInf());
  for (let j = 0; j < size; j++) {
    const xr = x + <usize>j * row;
    let c: usize = 0;
    for (; c < vw; c += 16) v128.store(mx + c, f32x4.pmax(v128.load(mx + c), v128.load(xr + c)));
    if (tail) v128.store(mx + c, f32x4.pmax(v128.load(mx + c), loadPart(xr + c, tail)));
  }
  // The fast path of step 2 where every column's max is finite and below 2^20 in magnitude
  // (an all -inf column must take the slow path, whose exps are 0, so that it is NaN).
  let fast = true;
  for (let k = 0; k < w; k++) fast = fast && abs(load<f32>(mx + (<usize>k << 2))) < 1048576;
  for (let c: usize = 0; c < groups; c += 16) {
    v128.store(mx + c, finiteMaxes(v128.load(mx + c)));
    v128.store(sm + 2 * c, f64x2.splat(0));
    v128.store(sm + 2 * c, f64x2.splat(0), 16);
  }
  if (fast) columnsExpSum(x, o, size, row, vw, tail, log, mx, sm, true);
  else columnsExpSum(x, o, size, row, vw, tail, log, mx, sm, false);
  // Per column: softmax's 1 / sum into mx; log-softmax's shift head into mx, tail into sm.
  for (let k = 0; k < w; k++) {
    const at = <usize>k << 2;
    const sum = load<f64>(sm + (at << 1));
    if (log) {
      const shift = <f64>load<f32>(mx + at) + (Math.log(sum) - LOG_2_64);
      const hi = <f32>shift;
      store<f32>(mx + at, hi);
      store<f32>(sm + at, <f32>(shift - <f64>hi));
    } else {
      store<f32>(mx + at, <f32>(1 / sum));
    }
  }
  for (let j = 0; j < size; j++) {
    const xr = x + <usize>j * row, orow = o + <usize>j * row;
    let c: usize = 0;
    for (; c < vw; c += 16) {
      if (log) v128.store(orow + c, f32x4.sub(f32x4.sub(v128.load(xr + c), v128.load(mx + c)), v128.load(sm + c)));
      else v128.store(orow + c, f32x4.mul(v128.load(orow + c), v128.load(mx + c)));
    }
    for (let k = <i32>(c >> 2); k < w; k++) {
      const at = <usize>k << 2;
      if (log) store<f32>(orow + at, load<f32>(xr + at) - load<f32>(mx + at) - load<f32>(sm + at));
      else store<f32>(orow + at, load<f32>(orow + at) * load<f32>(mx + at));
    }
  }
}

/**
 * Softmax (log: log-softmax) along the middle dim of [outer, size, inner] float32 from x
 * into o, for slabs [b0, b1) and columns [c0, c1) of each. A pool task.
 */
export function softmaxInnerF32(x: usize, o: usize, b0: i32, b1: i32, size: i32, inner: i32, c0: i32, c1: i32, log: bool, scratch: usize): void {
  const mx = (scratch + 15) & ~15;
  const sm = mx + COLS * 4;
  const slab = <usize>size * inner << 2;
  for (let b = b0; b < b1; b++) {
    for (let c = c0; c < c1; c += COLS) {
      const at = <usize>b * slab + (<usize>c << 2);
      softmaxColumns(x + at, o + at, size, inner, min(COLS, c1 - c), log, mx, sm);
    }
  }
}
