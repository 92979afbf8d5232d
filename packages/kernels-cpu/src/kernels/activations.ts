import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import type { FloatArray } from '../loops/arrays';
import { onScratchUnary, runFloatUnary, runInt64Unary, runScratchUnary, type FloatUnaryRow } from '../loops/pointwise';
import { unsupportedDtype } from './binary';
import { erf } from './erf-math';
import { ROUND_BF16, roundModeOf, roundTo } from './float-math';
import { UNARY, unaryWasm } from './pointwise-wasm';

/**
 * Note [Activation kernels round as PyTorch's float kernels]
 * Each activation is one element function per rounding: float64 computes in doubles;
 * float32, float16 and bfloat16 follow PyTorch's float32 formula step by step, rounding
 * every intermediate to float32 (`fr`), so that overflow and cancellation happen where
 * PyTorch's happen (silu(-100) is -0 in float32: exp(100) overflows, it is not a
 * subnormal). The 16-bit dtypes then round that float32 result once more, as PyTorch 2.x
 * does when it computes them in float32.
 */
const fr = Math.fround;
type Elem = (x: number) => number;

function rowOf(f: Elem): FloatUnaryRow {
  return (n: number, o: FloatArray, oo: number, os: number, a: FloatArray, ao: number, as: number) => {
    for (let i = 0; i < n; i++, oo += os, ao += as) o[oo] = f(a[ao]);
  };
}

/** Runs `f64` on float64 and `f32` (the float32 formula) on the other floating dtypes. */
function runFloat(op: string, out: TensorImpl, a: TensorImpl, f64: Elem, f32: Elem): void {
  const d = out.dtype;
  const mode = roundModeOf(d);
  if (d === 'float64') runFloatUnary(out, a, rowOf(f64), mode);
  else if (d === 'float32') runFloatUnary(out, a, rowOf(f32), mode);
  else if (d === 'float16' || d === 'bfloat16') runScratchUnary(out, a, onScratchUnary(rowOf(f32)), mode);
  else throw unsupportedDtype(op, out);
}

export const leakyRelu: BackendImpls['leakyRelu'] = (out, a, slope) => {
  const s32 = fr(slope);
  runFloat('leaky_relu', out, a, (x) => (x > 0 ? x : x * slope), (x) => (x > 0 ? x : fr(x * s32)));
};

// PyTorch's elu: a <= 0 ? (exp(a * input_scale) - 1) * alpha * scale : a * scale
export const elu: BackendImpls['elu'] = (out, a, alpha, scale, inputScale) => {
  const neg = alpha * scale;
  const neg32 = fr(fr(alpha) * fr(scale));
  const pos32 = fr(scale);
  const in32 = fr(inputScale);
  runFloat(
    'elu',
    out,
    a,
    (x) => (x <= 0 ? (Math.exp(x * inputScale) - 1) * neg : x * scale),
    (x) => (x <= 0 ? fr(fr(fr(Math.exp(fr(x * in32))) - 1) * neg32) : fr(x * pos32)),
  );
};

/** clamp(x, lo, hi) with NaN kept; integral dtypes clamp to the limits cast to the dtype (truncated). */
export const hardtanh: BackendImpls['hardtanh'] = (out, a, lo, hi) => {
  const d = out.dtype;
  if (d === 'int64') {
    const l = BigInt(Math.trunc(lo));
    const h = BigInt(Math.trunc(hi));
    runInt64Unary(out, a, (n, o, oo, os, x, xo, xs) => {
      for (let i = 0; i < n; i++, oo += os, xo += xs) {
        const v = x[xo];
        o[oo] = v < l ? l : v > h ? h : v;
      }
    });
    return;
  }
  const isFloat = d === 'float64' || d === 'float32' || d === 'float16' || d === 'bfloat16';
  const l = isFloat ? (d === 'float64' ? lo : fr(lo)) : Math.trunc(lo);
  const h = isFloat ? (d === 'float64' ? hi : fr(hi)) : Math.trunc(hi);
  const row = rowOf((x) => (x < l ? l : x > h ? h : x));
  if (d === 'float32' || d === 'float64') runFloatUnary(out, a, row, roundModeOf(d));
  else runScratchUnary(out, a, onScratchUnary(row), roundModeOf(d));
};

// sqrt(2) * (2 / sqrt(pi)) * 0.5 = sqrt(2 / pi), computed as PyTorch's kBeta
const GELU_BETA = Math.SQRT2 * (2 / Math.sqrt(Math.PI)) * 0.5;
const GELU_KAPPA = 0.044715;

/**
 * gelu in float32 steps (`r` = fround), or, for bfloat16, in bfloat16 steps (`r` rounds to
 * bfloat16): PyTorch 1.13's bfloat16 GeluKernelImpl runs the formula on Vectorized<BFloat16>,
 * which rounds after every operation (gelu(-2.5) is -0.01465 there, -0.01553 exactly).
 */
function geluElem(approximate: 'none' | 'tanh', r: (x: number) => number): Elem {
  const half = r(0.5);
  if (approximate === 'tanh') {
    const beta = r(GELU_BETA);
    const kappa = r(GELU_KAPPA);
    return (x) => {
      const cube = r(r(x * x) * x);
      const inner = r(beta * r(x + r(kappa * cube)));
      return r(r(half * x) * r(1 + r(Math.tanh(inner))));
    };
  }
  const alpha = r(Math.SQRT1_2);
  return (x) => r(r(x * half) * r(1 + r(erf(r(x * alpha)))));
}

const toBf16 = (x: number): number => roundTo(x, ROUND_BF16);

export const gelu: BackendImpls['gelu'] = (out, a, approximate) => {
  if (out.dtype === 'bfloat16') {
    runScratchUnary(out, a, onScratchUnary(rowOf(geluElem(approximate, toBf16))), ROUND_BF16);
    return;
  }
  if (out.dtype === 'float32' && unaryWasm(approximate === 'tanh' ? UNARY.geluTanh : UNARY.gelu, out, a)) return;
  const f64: Elem =
    approximate === 'tanh'
      ? (x) => 0.5 * x * (1 + Math.tanh(GELU_BETA * (x + GELU_KAPPA * (x * x * x))))
      : (x) => x * 0.5 * (1 + erf(x * Math.SQRT1_2));
  runFloat('gelu', out, a, f64, geluElem(approximate, fr));
};

export const silu: BackendImpls['silu'] = (out, a) => {
  if (out.dtype === 'float32' && unaryWasm(UNARY.silu, out, a)) return;
  runFloat('silu', out, a, (x) => x / (1 + Math.exp(-x)), (x) => fr(x / fr(1 + fr(Math.exp(-x)))));
};

export const mish: BackendImpls['mish'] = (out, a) =>
  runFloat(
    'mish',
    out,
    a,
    (x) => x * Math.tanh(Math.log1p(Math.exp(x))),
    (x) => fr(x * fr(Math.tanh(fr(Math.log1p(fr(Math.exp(x))))))),
  );

export const softplus: BackendImpls['softplus'] = (out, a, beta, threshold) => {
  const b32 = fr(beta);
  const t32 = fr(threshold);
  runFloat(
    'softplus',
    out,
    a,
    (x) => (x * beta > threshold ? x : Math.log1p(Math.exp(x * beta)) / beta),
    (x) => {
      const xb = fr(x * b32);
      return xb > t32 ? x : fr(fr(Math.log1p(fr(Math.exp(xb)))) / b32);
    },
  );
};

/** min(max(x + 3, 0), 6), NaN kept */
const relu6Of3 = (t: number): number => (t < 0 ? 0 : t > 6 ? 6 : t);

export const hardsigmoid: BackendImpls['hardsigmoid'] = (out, a) =>
  runFloat('hardsigmoid', out, a, (x) => relu6Of3(x + 3) / 6, (x) => fr(relu6Of3(fr(x + 3)) / 6));

export const hardswish: BackendImpls['hardswish'] = (out, a) =>
  runFloat('hardswish', out, a, (x) => (x * relu6Of3(x + 3)) / 6, (x) => fr(fr(x * relu6Of3(fr(x + 3))) / 6));

export const logit: BackendImpls['logit'] = (out, a, eps) => {
  if (eps === null) {
    runFloat('logit', out, a, (x) => Math.log(x / (1 - x)), (x) => fr(Math.log(fr(x / fr(1 - x)))));
    return;
  }
  const lo = eps;
  const hi = 1 - eps;
  const lo32 = fr(eps);
  const hi32 = fr(1 - lo32);
  runFloat(
    'logit',
    out,
    a,
    (x) => {
      const z = x < lo ? lo : x > hi ? hi : x;
      return Math.log(z / (1 - z));
    },
    (x) => {
      const z = x < lo32 ? lo32 : x > hi32 ? hi32 : x;
      return fr(Math.log(fr(z / fr(1 - z))));
    },
  );
};

