/**
 * Note [avx_mathfun in float32]
 * On an AVX2 CPU, PyTorch's float32 `normal_` takes log, sin and cos from avx_mathfun
 * (Julien Pommier's cephes-style polynomials), not libm, so its values depend on those
 * polynomials' exact float32 roundings. These are scalar re-implementations of the same
 * steps, one lane at a time: every product and sum is rounded to float32, and each
 * `a * b + c` that GCC contracts in the AVX2 build is one fused rounding (fma32).
 * Valid for the arguments the normal fill passes: log of (0, 1], sincos of [0, 2*pi).
 */
import { fma32 } from '../numeric/fused';

const f32 = Math.fround;

const SQRTHF = f32(0.707106781186547524);
const LOG_P = [
  7.0376836292e-2, -1.151461031e-1, 1.167699874e-1, -1.2420140846e-1, 1.4249322787e-1,
  -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1,
].map(f32);
const LOG_Q1 = f32(-2.1219444e-4);
const LOG_Q2 = f32(0.693359375);

const view = new DataView(new ArrayBuffer(4));

/** Natural log of a positive normal float32. */
export function log256(v: number): number {
  view.setFloat32(0, v);
  const bits = view.getUint32(0);
  let e = f32(((bits >>> 23) & 0xff) - 127) + 1;
  view.setUint32(0, (bits & ~0x7f800000) | 0x3f000000); // significand in [0.5, 1)
  let x = view.getFloat32(0);
  const below = x < SQRTHF;
  const tmp = below ? x : 0;
  x = f32(x - 1);
  if (below) e -= 1;
  x = f32(x + tmp);
  const z = f32(x * x);
  let y = LOG_P[0]!;
  for (let k = 1; k < LOG_P.length; k++) y = fma32(y, x, LOG_P[k]!);
  y = f32(y * x);
  y = fma32(y, z, f32(e * LOG_Q1));
  y = f32(y - f32(z * 0.5));
  x = f32(x + y);
  return f32(x + f32(e * LOG_Q2));
}

const FOPI = f32(1.27323954473516); // 4 / pi
const DP1 = f32(-0.78515625);
const DP2 = f32(-2.4187564849853515625e-4);
const DP3 = f32(-3.77489497744594108e-8);
const SIN_P = [-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1].map(f32);
const COS_P = [2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2].map(f32);

/** [sin, cos] of a non-negative float32 (the normal fill's angles are in [0, 2*pi)). */
export function sincos256(v: number): [number, number] {
  let x = Math.abs(v);
  let j = Math.trunc(f32(x * FOPI));
  j = (j + 1) & ~1;
  const y = j;
  const flipSin = (j & 4) !== 0;
  const firstPoly = (j & 2) === 0;
  x = fma32(y, DP1, x);
  x = fma32(y, DP2, x);
  x = fma32(y, DP3, x);
  const flipCos = (~(j - 2) & 4) !== 0;
  const z = f32(x * x);
  let c = fma32(COS_P[0]!, z, COS_P[1]!);
  c = fma32(c, z, COS_P[2]!);
  c = f32(c * z);
  c = fma32(c, z, -f32(z * 0.5));
  c = f32(c + 1);
  let s = fma32(SIN_P[0]!, z, SIN_P[1]!);
  s = fma32(s, z, SIN_P[2]!);
  s = f32(s * z);
  s = fma32(s, x, x);
  let sin = firstPoly ? s : c;
  let cos = firstPoly ? c : s;
  if (v < 0 !== flipSin) sin = -sin;
  if (flipCos) cos = -cos;
  return [sin, cos];
}
