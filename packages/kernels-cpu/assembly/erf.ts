// Note [erf and gelu in float64 lanes]
// float32 erf and gelu's erf form, computed in float64 lanes and rounded once to float32
// (as tanh and gelu's tanh form, Note [Unary pointwise kernels]); both stay within 1 ulp of
// the exact result, where PyTorch's vectorised float32 erf (Abramowitz-Stegun 7.1.26, about
// 1.5e-7 absolute) is off by many ulps for small |x|:
//  - |z| < 1: erf(z) = z E(z^2), E of degree 6 fitted (weighted least squares, iterated to
//    near-minimax) to erf(z) / z: 1.2e-9 relative, a hundredth of a float32 ulp;
//  - |z| >= 1: erfc(|z|) = exp(-z^2) Q(t), t = 1 / (1 + |z| / 2), Q of degree 9 fitted to
//    exp(z^2) erfc(z) on [1, 9.5]: 4.7e-10 relative; erf = sign(z) (1 - erfc(|z|)), which
//    rounds to +-1 from |z| = 3.9 on. exp is exp64 (Note [SIMD float32 math]), its argument
//    clamped at -700: beyond |z| = 9.5 the results are far below float32's range.
// gelu(x) = x/2 (1 + erf(x / sqrt 2)) takes 1 + erf(z) from the branch where it does not
// cancel: 1 + z E(z^2) for |z| < 1, erfc(|z|) itself for z <= -1 (so gelu's negative tail
// keeps its relative accuracy where PyTorch's float32 formula rounds to -0), 2 - erfc(z)
// above. gelu(-inf) is NaN, as PyTorch's -inf * 0.
import { exp64 } from './math';

const E = memory.data<f64>([
  1.1283791657266355, -0.37612625822780743, 0.11283585125755569, -0.026853810730617763,
  0.005188324928441286, -0.0008010165252547065, 7.853753792852826e-05,
], 16);
const Q = memory.data<f64>([
  3.1473659701557267e-06, 0.2819973663614938, 0.28341769346253576, 0.23647371268094594,
  0.22795881844798818, -0.08651914590538473, 0.3662468229526074, -0.5646727105503491,
  0.3210639079053812, -0.06592074434491377,
], 16);

// @ts-ignore: decorator
@inline function at(table: usize, i: i32): v128 {
  return v128.load64_splat(table + (<usize>i << 3));
}

/** erf(z) / z for |z| < 1. */
// @ts-ignore: decorator
@inline function erfOverZ(z: v128): v128 {
  const s = f64x2.mul(z, z);
  let p = f64x2.add(f64x2.mul(at(E, 6), s), at(E, 5));
  p = f64x2.add(f64x2.mul(p, s), at(E, 4));
  p = f64x2.add(f64x2.mul(p, s), at(E, 3));
  p = f64x2.add(f64x2.mul(p, s), at(E, 2));
  p = f64x2.add(f64x2.mul(p, s), at(E, 1));
  return f64x2.add(f64x2.mul(p, s), at(E, 0));
}

/** erfc(a) for a >= 1 (any a >= 0 gives a finite number). */
// @ts-ignore: decorator
@inline function erfcAbove1(a: v128): v128 {
  const t = f64x2.div(f64x2.splat(1), f64x2.add(f64x2.splat(1), f64x2.mul(a, f64x2.splat(0.5))));
  let p = f64x2.add(f64x2.mul(at(Q, 9), t), at(Q, 8));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 7));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 6));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 5));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 4));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 3));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 2));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 1));
  p = f64x2.add(f64x2.mul(p, t), at(Q, 0));
  const e = exp64(f64x2.neg(f64x2.pmin(f64x2.mul(a, a), f64x2.splat(700))));
  return f64x2.mul(e, p);
}

/** erf per float64 lane. */
// @ts-ignore: decorator
@inline export function erf64(z: v128): v128 {
  const a = f64x2.abs(z);
  const small = f64x2.mul(z, erfOverZ(z));
  const isSmall = f64x2.lt(a, f64x2.splat(1));
  // Both lanes below 1 (most inputs of gelu) need no erfc.
  if (v128.all_true<i64>(isSmall)) return small;
  const big = v128.or(f64x2.sub(f64x2.splat(1), erfcAbove1(a)), v128.and(z, i64x2.splat(0x8000000000000000)));
  return v128.bitselect(small, big, isSmall);
}

/** gelu (erf form) per float64 lane. */
// @ts-ignore: decorator
@inline export function gelu64(x: v128): v128 {
  const z = f64x2.mul(x, f64x2.splat(0.7071067811865476));
  const a = f64x2.abs(z);
  const mid = f64x2.add(f64x2.splat(1), f64x2.mul(z, erfOverZ(z)));
  const isSmall = f64x2.lt(a, f64x2.splat(1));
  let onePlusErf = mid;
  // Both lanes below 1 (most activations) need no erfc.
  if (!v128.all_true<i64>(isSmall)) {
    const c = erfcAbove1(a);
    const tail = v128.bitselect(f64x2.sub(f64x2.splat(2), c), c, f64x2.gt(z, f64x2.splat(0)));
    onePlusErf = v128.bitselect(mid, tail, isSmall);
  }
  const g = f64x2.mul(f64x2.mul(x, f64x2.splat(0.5)), onePlusErf);
  return v128.bitselect(f64x2.splat(NaN), g, f64x2.eq(x, f64x2.splat(-Infinity)));
}
