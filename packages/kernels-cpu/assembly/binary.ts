// Note [Binary pointwise kernels]
// out = a op b for float32 and float64 on one plane (Note [Pointwise planes]). The ops are
// IEEE's, lane by lane, so every result is the one the JS loops give (the double sum or
// product of two floats rounded once to float32 is the float32 sum or product): add, sub,
// mul, div, and float32's `a + alpha * b` (ADD_SCALED), which PyTorch computes as one fused
// multiply-add: the product of two float32 values is exact in float64, so it is computed in
// float64 lanes and rounded once, as binary-float-rows.ts's addRow does (Note [Fused
// multiply-add of add's alpha]). Operands with stride 0 along the row (`x + 2`, a bias
// broadcast over rows) are splatted once per row. The op is a constant after inlining, so
// each op and layout is its own loop.
import { packTile, TC, TILE_BYTES, TR, unpackTile } from './tile';

export const ADD = 0;
export const SUB = 1;
export const MUL = 2;
export const DIV = 3;
export const ADD_SCALED = 4;

// @ts-ignore: decorator
@inline function op32(op: i32, x: v128, y: v128, alpha: f64): v128 {
  if (op == ADD) return f32x4.add(x, y);
  if (op == SUB) return f32x4.sub(x, y);
  if (op == MUL) return f32x4.mul(x, y);
  if (op == DIV) return f32x4.div(x, y);
  const al = f64x2.splat(alpha);
  const lo = f64x2.add(f64x2.promote_low_f32x4(x), f64x2.mul(al, f64x2.promote_low_f32x4(y)));
  const xh = v128.shuffle<i32>(x, x, 2, 3, 0, 1);
  const yh = v128.shuffle<i32>(y, y, 2, 3, 0, 1);
  const hi = f64x2.add(f64x2.promote_low_f32x4(xh), f64x2.mul(al, f64x2.promote_low_f32x4(yh)));
  return v128.shuffle<i64>(f32x4.demote_f64x2_zero(lo), f32x4.demote_f64x2_zero(hi), 0, 2);
}

// @ts-ignore: decorator
@inline function op64(op: i32, x: v128, y: v128): v128 {
  if (op == ADD) return f64x2.add(x, y);
  if (op == SUB) return f64x2.sub(x, y);
  if (op == MUL) return f64x2.mul(x, y);
  return f64x2.div(x, y);
}

// @ts-ignore: decorator
@inline function scalar32(op: i32, x: f32, y: f32, alpha: f64): f32 {
  if (op == ADD) return x + y;
  if (op == SUB) return x - y;
  if (op == MUL) return x * y;
  if (op == DIV) return x / y;
  return <f32>(<f64>x + alpha * <f64>y);
}

// @ts-ignore: decorator
@inline function scalar64(op: i32, x: f64, y: f64): f64 {
  if (op == ADD) return x + y;
  if (op == SUB) return x - y;
  if (op == MUL) return x * y;
  return x / y;
}

/** One float32 row of n: o unit stride; a and b step by `as`, `bs` (0 or 1). */
// @ts-ignore: decorator
@inline function row32(op: i32, n: i32, o: usize, a: usize, as: i32, b: usize, bs: i32, alpha: f64): void {
  let i = 0;
  if (as == 1 && bs == 1) {
    // A cache line (16 floats) per step, on moving pointers: the loop is then no longer
    // than the bare one it was measured against.
    const end = o + (<usize>(n & ~15) << 2);
    let po = o, pa = a, pb = b;
    for (; po < end; po += 64, pa += 64, pb += 64) {
      const x0 = v128.load(pa), x1 = v128.load(pa, 16), x2 = v128.load(pa, 32), x3 = v128.load(pa, 48);
      const y0 = v128.load(pb), y1 = v128.load(pb, 16), y2 = v128.load(pb, 32), y3 = v128.load(pb, 48);
      v128.store(po, op32(op, x0, y0, alpha));
      v128.store(po, op32(op, x1, y1, alpha), 16);
      v128.store(po, op32(op, x2, y2, alpha), 32);
      v128.store(po, op32(op, x3, y3, alpha), 48);
    }
    i = n & ~15;
    for (; i + 4 <= n; i += 4) {
      const p = <usize>i << 2;
      v128.store(o + p, op32(op, v128.load(a + p), v128.load(b + p), alpha));
    }
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), scalar32(op, load<f32>(a + (<usize>i << 2)), load<f32>(b + (<usize>i << 2)), alpha));
  } else if (as == 1) {
    const y = v128.load32_splat(b);
    const ys = load<f32>(b);
    for (; i + 8 <= n; i += 8) {
      const p = <usize>i << 2;
      v128.store(o + p, op32(op, v128.load(a + p), y, alpha));
      v128.store(o + p, op32(op, v128.load(a + p, 16), y, alpha), 16);
    }
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), scalar32(op, load<f32>(a + (<usize>i << 2)), ys, alpha));
  } else if (bs == 1) {
    const x = v128.load32_splat(a);
    const xs = load<f32>(a);
    for (; i + 8 <= n; i += 8) {
      const p = <usize>i << 2;
      v128.store(o + p, op32(op, x, v128.load(b + p), alpha));
      v128.store(o + p, op32(op, x, v128.load(b + p, 16), alpha), 16);
    }
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), scalar32(op, xs, load<f32>(b + (<usize>i << 2)), alpha));
  } else {
    const v = op32(op, v128.load32_splat(a), v128.load32_splat(b), alpha);
    for (; i + 4 <= n; i += 4) v128.store(o + (<usize>i << 2), v);
    const s = scalar32(op, load<f32>(a), load<f32>(b), alpha);
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), s);
  }
}

/** One float64 row, as row32. */
// @ts-ignore: decorator
@inline function row64(op: i32, n: i32, o: usize, a: usize, as: i32, b: usize, bs: i32): void {
  let i = 0;
  if (as == 1 && bs == 1) {
    for (; i + 4 <= n; i += 4) {
      const p = <usize>i << 3;
      v128.store(o + p, op64(op, v128.load(a + p), v128.load(b + p)));
      v128.store(o + p, op64(op, v128.load(a + p, 16), v128.load(b + p, 16)), 16);
    }
    for (; i < n; i++) store<f64>(o + (<usize>i << 3), scalar64(op, load<f64>(a + (<usize>i << 3)), load<f64>(b + (<usize>i << 3))));
  } else if (as == 1) {
    const y = v128.load64_splat(b);
    for (; i + 4 <= n; i += 4) {
      const p = <usize>i << 3;
      v128.store(o + p, op64(op, v128.load(a + p), y));
      v128.store(o + p, op64(op, v128.load(a + p, 16), y), 16);
    }
    for (; i < n; i++) store<f64>(o + (<usize>i << 3), scalar64(op, load<f64>(a + (<usize>i << 3)), load<f64>(b)));
  } else if (bs == 1) {
    const x = v128.load64_splat(a);
    for (; i + 4 <= n; i += 4) {
      const p = <usize>i << 3;
      v128.store(o + p, op64(op, x, v128.load(b + p)));
      v128.store(o + p, op64(op, x, v128.load(b + p, 16)), 16);
    }
    for (; i < n; i++) store<f64>(o + (<usize>i << 3), scalar64(op, load<f64>(a), load<f64>(b + (<usize>i << 3))));
  } else {
    const s = scalar64(op, load<f64>(a), load<f64>(b));
    for (; i < n; i++) store<f64>(o + (<usize>i << 3), s);
  }
}

function rowOf<T>(op: i32, n: i32, o: usize, a: usize, as: i32, b: usize, bs: i32, alpha: f64): void {
  if (sizeof<T>() == 4) {
    if (op == ADD) row32(ADD, n, o, a, as, b, bs, alpha);
    else if (op == SUB) row32(SUB, n, o, a, as, b, bs, alpha);
    else if (op == MUL) row32(MUL, n, o, a, as, b, bs, alpha);
    else if (op == DIV) row32(DIV, n, o, a, as, b, bs, alpha);
    else row32(ADD_SCALED, n, o, a, as, b, bs, alpha);
  } else {
    if (op == ADD) row64(ADD, n, o, a, as, b, bs);
    else if (op == SUB) row64(SUB, n, o, a, as, b, bs);
    else if (op == MUL) row64(MUL, n, o, a, as, b, bs);
    else row64(DIV, n, o, a, as, b, bs);
  }
}

function rowStep(s: i32): bool {
  return s == 0 || s == 1;
}

function plane<T>(
  op: i32, n0: i32, n1: i32,
  o: usize, os0: i32, os1: i32,
  a: usize, as0: i32, as1: i32,
  b: usize, bs0: i32, bs1: i32,
  alpha: f64, scratch: usize,
): void {
  const size = sizeof<T>();
  if (os0 == 1 && rowStep(as0) && rowStep(bs0)) {
    for (let r = 0; r < n1; r++) {
      rowOf<T>(op, n0, o + <usize>(r * os1) * size, a + <usize>(r * as1) * size, as0, b + <usize>(r * bs1) * size, bs0, alpha);
    }
    return;
  }
  // Note [Pointwise planes]: tile by tile through scratch.
  const ta = (scratch + 15) & ~15;
  const tb = ta + TILE_BYTES;
  const tout = tb + TILE_BYTES;
  const direct = os0 == 1;
  for (let r0 = 0; r0 < n1; r0 += TR) {
    const rows = min(TR, n1 - r0);
    for (let c0 = 0; c0 < n0; c0 += TC) {
      const cols = min(TC, n0 - c0);
      let pa = a + <usize>(r0 * as1 + c0 * as0) * size;
      let pb = b + <usize>(r0 * bs1 + c0 * bs0) * size;
      let ars = as1, acs = as0, brs = bs1, bcs = bs0;
      if (!rowStep(as0)) {
        packTile<T>(pa, as0, as1, rows, cols, ta);
        pa = ta; ars = TC; acs = 1;
      }
      if (!rowStep(bs0)) {
        packTile<T>(pb, bs0, bs1, rows, cols, tb);
        pb = tb; brs = TC; bcs = 1;
      }
      const po = o + <usize>(r0 * os1 + c0 * os0) * size;
      const ors = direct ? os1 : TC;
      const dst = direct ? po : tout;
      for (let r = 0; r < rows; r++) {
        rowOf<T>(op, cols, dst + <usize>(r * ors) * size, pa + <usize>(r * ars) * size, acs, pb + <usize>(r * brs) * size, bcs, alpha);
      }
      if (!direct) unpackTile<T>(tout, po, os0, os1, rows, cols);
    }
  }
}

/** float32 out = a op b on one plane (Note [Binary pointwise kernels]); `alpha` for ADD_SCALED. */
export function binaryF32(
  op: i32, n0: i32, n1: i32,
  o: usize, os0: i32, os1: i32,
  a: usize, as0: i32, as1: i32,
  b: usize, bs0: i32, bs1: i32,
  alpha: f64, scratch: usize,
): void {
  plane<f32>(op, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1, alpha, scratch);
}

/** float64 out = a op b on one plane; ADD, SUB, MUL, DIV only. */
export function binaryF64(
  op: i32, n0: i32, n1: i32,
  o: usize, os0: i32, os1: i32,
  a: usize, as0: i32, as1: i32,
  b: usize, bs0: i32, bs1: i32,
  alpha: f64, scratch: usize,
): void {
  plane<f64>(op, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1, alpha, scratch);
}
