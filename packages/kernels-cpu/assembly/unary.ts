// Note [Unary pointwise kernels]
// float32 out = f(a) on one plane (Note [Pointwise planes]), four lanes a step; a row's last
// 1..3 elements go through a zero-padded vector in scratch, so every element is computed by
// the same lane arithmetic. neg, abs, relu and sqrt are exact (IEEE); exp is Note [float32
// exp in SIMD], log Note [SIMD float32 math]; sigmoid and silu are PyTorch's float32
// formulas on exp32 (1 / (1 + e^-x) and x / (1 + e^-x): e^-x overflows for x < -88.7, so
// they give 0 and -0 there, as PyTorch does); tanh and gelu's tanh form are computed in float64 lanes and
// rounded once, where the float32 formulas lose bits to cancellation (1 - 2/(e^2x + 1) for
// small x, 1 + tanh(y) for negative y): tanh(x) = x below 2^-12, and
// gelu_tanh(x) = 0.5 x (1 + tanh(y)) = x / (1 + e^(-2y)), y = sqrt(2/pi) (x + 0.044715 x^3);
// erf and gelu's erf form likewise (Note [erf and gelu in float64 lanes]).
import { exp32With, expK } from './exp32';
import { erf64, gelu64 } from './erf';
import { exp64, log32 } from './math';
import { packTile, TC, TILE_BYTES, TR, unpackTile } from './tile';

export const NEG = 0;
export const ABS = 1;
export const RELU = 2;
export const SQRT = 3;
export const EXP = 4;
export const LOG = 5;
export const SIGMOID = 6;
export const SILU = 7;
export const TANH = 8;
export const GELU_TANH = 9;
export const ERF = 10;
export const GELU_ERF = 11;

// @ts-ignore: decorator
@inline function tanh64(x: v128): v128 {
  const ax = f64x2.pmin(f64x2.abs(x), f64x2.splat(10));
  const t = exp64(f64x2.add(ax, ax));
  const y = f64x2.sub(f64x2.splat(1), f64x2.div(f64x2.splat(2), f64x2.add(t, f64x2.splat(1))));
  const signed = v128.or(y, v128.and(x, i64x2.splat(0x8000000000000000)));
  return v128.bitselect(x, signed, f64x2.lt(f64x2.abs(x), f64x2.splat(2.44140625e-4)));
}

// @ts-ignore: decorator
@inline function geluTanh64(x: v128): v128 {
  const y = f64x2.mul(f64x2.splat(0.7978845608028654), f64x2.add(x, f64x2.mul(f64x2.splat(0.044715), f64x2.mul(x, f64x2.mul(x, x)))));
  const e = exp64(f64x2.pmin(f64x2.pmax(f64x2.mul(y, f64x2.splat(-2)), f64x2.splat(-700)), f64x2.splat(700)));
  const g = f64x2.div(x, f64x2.add(f64x2.splat(1), e));
  // PyTorch's 0.5 x (1 + tanh(y)) is -inf * 0 = NaN at -inf.
  return v128.bitselect(f64x2.splat(NaN), g, f64x2.eq(x, f64x2.splat(-Infinity)));
}

/** f applied in float64 lanes, rounded once to float32. */
// @ts-ignore: decorator
@inline function via64(op: i32, x: v128): v128 {
  const lo = f64x2.promote_low_f32x4(x);
  const hi = f64x2.promote_low_f32x4(v128.shuffle<i32>(x, x, 2, 3, 0, 1));
  const rl = op == TANH ? tanh64(lo) : op == GELU_TANH ? geluTanh64(lo) : op == ERF ? erf64(lo) : gelu64(lo);
  const rh = op == TANH ? tanh64(hi) : op == GELU_TANH ? geluTanh64(hi) : op == ERF ? erf64(hi) : gelu64(hi);
  return v128.shuffle<i64>(f32x4.demote_f64x2_zero(rl), f32x4.demote_f64x2_zero(rh), 0, 2);
}

// The k* arguments are exp's constants, loaded by `row` before its loop (Note [float32 exp
// in SIMD]): expK(10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13); unused by ops without exp.
// @ts-ignore: decorator
@inline function f32op(op: i32, x: v128, k10: v128, k11: v128, k0: v128, k1: v128, k2: v128, k3: v128, k4: v128, k5: v128, k6: v128, k7: v128, k8: v128, k9: v128, k13: v128): v128 {
  if (op == NEG) return f32x4.neg(x);
  if (op == ABS) return f32x4.abs(x);
  if (op == RELU) return v128.bitselect(f32x4.splat(0), x, f32x4.lt(x, f32x4.splat(0)));
  if (op == SQRT) return f32x4.sqrt(x);
  if (op == LOG) return log32(x);
  if (op == TANH || op == GELU_TANH || op == ERF || op == GELU_ERF) return via64(op, x);
  const e = exp32With(op == EXP ? x : f32x4.neg(x), k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13);
  if (op == EXP) return e;
  if (op == SIGMOID) return f32x4.div(f32x4.splat(1), f32x4.add(f32x4.splat(1), e));
  return f32x4.div(x, f32x4.add(f32x4.splat(1), e));
}

/** One unit-stride row of n; `pad` is 16 bytes of scratch for the last 1..3 elements. */
// @ts-ignore: decorator
@inline function row(op: i32, n: i32, o: usize, a: usize, pad: usize): void {
  const k10 = expK(10), k11 = expK(11), k0 = expK(0), k1 = expK(1), k2 = expK(2), k3 = expK(3), k4 = expK(4);
  const k5 = expK(5), k6 = expK(6), k7 = expK(7), k8 = expK(8), k9 = expK(9), k13 = expK(13);
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const p = <usize>i << 2;
    v128.store(o + p, f32op(op, v128.load(a + p), k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13));
    v128.store(o + p, f32op(op, v128.load(a + p, 16), k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13), 16);
  }
  for (; i + 4 <= n; i += 4) {
    const p = <usize>i << 2;
    v128.store(o + p, f32op(op, v128.load(a + p), k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13));
  }
  if (i < n) {
    v128.store(pad, v128.splat<i32>(0));
    for (let j = i; j < n; j++) store<f32>(pad + (<usize>(j - i) << 2), load<f32>(a + (<usize>j << 2)));
    v128.store(pad, f32op(op, v128.load(pad), k10, k11, k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k13));
    for (let j = i; j < n; j++) store<f32>(o + (<usize>j << 2), load<f32>(pad + (<usize>(j - i) << 2)));
  }
}

function rowOf(op: i32, n: i32, o: usize, a: usize, pad: usize): void {
  switch (op) {
    case NEG: row(NEG, n, o, a, pad); break;
    case ABS: row(ABS, n, o, a, pad); break;
    case RELU: row(RELU, n, o, a, pad); break;
    case SQRT: row(SQRT, n, o, a, pad); break;
    case EXP: row(EXP, n, o, a, pad); break;
    case LOG: row(LOG, n, o, a, pad); break;
    case SIGMOID: row(SIGMOID, n, o, a, pad); break;
    case SILU: row(SILU, n, o, a, pad); break;
    case TANH: row(TANH, n, o, a, pad); break;
    case GELU_TANH: row(GELU_TANH, n, o, a, pad); break;
    case ERF: row(ERF, n, o, a, pad); break;
    default: row(GELU_ERF, n, o, a, pad);
  }
}

/** float32 out = f(a) on one plane (Note [Unary pointwise kernels]). */
export function unaryF32(op: i32, n0: i32, n1: i32, o: usize, os0: i32, os1: i32, a: usize, as0: i32, as1: i32, scratch: usize): void {
  const ta = (scratch + 15) & ~15;
  const tout = ta + TILE_BYTES;
  const pad = tout + TILE_BYTES;
  if (os0 == 1 && as0 == 1) {
    for (let r = 0; r < n1; r++) rowOf(op, n0, o + (<usize>(r * os1) << 2), a + (<usize>(r * as1) << 2), pad);
    return;
  }
  for (let r0 = 0; r0 < n1; r0 += TR) {
    const rows = min(TR, n1 - r0);
    for (let c0 = 0; c0 < n0; c0 += TC) {
      const cols = min(TC, n0 - c0);
      let pa = a + (<usize>(r0 * as1 + c0 * as0) << 2);
      let ars = as1;
      if (as0 != 1) {
        packTile<f32>(pa, as0, as1, rows, cols, ta);
        pa = ta;
        ars = TC;
      }
      const po = o + (<usize>(r0 * os1 + c0 * os0) << 2);
      const direct = os0 == 1;
      const dst = direct ? po : tout;
      const ors = direct ? os1 : TC;
      for (let r = 0; r < rows; r++) rowOf(op, cols, dst + (<usize>(r * ors) << 2), pa + (<usize>(r * ars) << 2), pad);
      if (!direct) unpackTile<f32>(tout, po, os0, os1, rows, cols);
    }
  }
}
