import type { TableBinaryImplName, UnaryTableName } from '@torch-ts/core';
import type { PointwiseExpr } from '../wgsl/pointwise';
import { INT64_DIV_HELPERS, INT64_POW_HELPER } from '../wgsl/int64';
import { SPECIAL_POLY_WGSL } from './special-poly-wgsl';
import { SPECIAL_WGSL } from './special-wgsl';

/**
 * Note [The WebGPU pointwise op table]
 * Every pointwise impl of core's BackendImpls that WebGPU runs is ONE row here: a WGSL
 * expression per compute kind (`f` float32, `i` int32, `u` uint8, `b` bool; see Note
 * [WebGPU dtypes]), from which pointwise.ts generates the kernels per kind, rank and layout
 * (Note [Pointwise kernel layout]). A kind an op lacks raises the DTypeError naming the op
 * (core's meta already rejects what PyTorch rejects, so a missing kind here means "not on
 * WebGPU yet"). `pred` rows produce a WGSL bool, stored into a bool output. `l` is int64,
 * whose values are vec2<u32> (Note [int64 on WebGPU]): an op without an `l` row raises
 * kindOf's int64 DTypeError.
 * Conventions: `$1..$3` inputs, `$p0..` scalars in the compute type, `T(...)` a constant of
 * the compute type (so that `vec: true` rows also compile as vec4 kernels;
 * there `exp_f(`, `exp2_f(`, `sigmoid_f(`, `tanh_f(`, `isnan_f(`, `div_f(` call their vec4 twins, Note
 * [Pointwise vec4 layout]).
 */
export interface OpRow {
  readonly f?: string;
  readonly i?: string;
  readonly u?: string;
  readonly b?: string;
  /** int64: operands are vec2<u32> (lo, hi); prelude's i64_* helpers, plus `lHelpers`. */
  readonly l?: string;
  /** WGSL helpers the `l` row calls (wgsl/int64.ts). */
  readonly lHelpers?: string;
  /** WGSL functions the float rows call, beyond the prelude's (kept next to the row). */
  readonly helpers?: string;
  /**
   * Integer rows divide by `$2`: a zero divisor is PyTorch's ZeroDivisionError, raised at the
   * next read (Note [Device-side errors]); the value is the op name the message gives.
   */
  readonly zeroDiv?: string;
  /**
   * float16 (Note [float16 on WebGPU]), where PyTorch's CPU kernel for half differs from the
   * float32 expression rounded on store; default: the `f` row.
   */
  readonly h?: string;
  /** bfloat16, where PyTorch's CPU kernel for it differs from the float32 expression rounded on store; default: `f`. */
  readonly bh?: string;
  /** The f row is valid for vec4 operands too. */
  readonly vec?: boolean;
  /** Output is bool (comparisons, logical ops): the expression is a WGSL bool. */
  readonly pred?: boolean;
}

const same = (x: string): Pick<OpRow, 'i' | 'u' | 'b'> => ({ i: x, u: x, b: x });
const MAX64 = 'select($1, $2, i64_lt($1, $2))';
const MIN64 = 'select($1, $2, i64_lt($2, $1))';

export const UNARY_OPS = {
  neg: { f: '-$1', i: '-$1', u: '(0u - $1) & 255u', l: 'i64_neg($1)', vec: true },
  abs: { f: 'abs($1)', i: 'abs($1)', u: '$1', b: '$1', l: 'select($1, i64_neg($1), i64_isneg($1))', vec: true },
  exp: { f: 'exp_f($1)', vec: true },
  log: { f: 'log_f($1)' },
  sqrt: { f: 'sqrt_f($1)' },
  sin: { f: 'sin_f($1)' },
  cos: { f: 'cos_f($1)' },
  tanh: { f: 'tanh_f($1)', vec: true },
  sigmoid: { f: 'sigmoid_f($1)', vec: true },
  relu: { f: 'select($1, T(0.0), ($1 <= T(0.0)) & !isnan_f($1))', i: 'max($1, 0)', u: '$1', b: '$1', l: 'select($1, vec2<u32>(0u, 0u), i64_isneg($1))', vec: true },
  floor: { f: 'floor($1)', ...same('$1'), l: '$1', vec: true },
  ceil: { f: 'ceil($1)', ...same('$1'), l: '$1', vec: true },
  trunc: { f: 'trunc($1)', ...same('$1'), l: '$1', vec: true },
  rsqrt: { f: '1.0 / sqrt_f($1)' },
  reciprocal: { f: 'div_f(T(1.0), $1)', vec: true },
  sign: { f: 'sign_f($1)', i: 'sign($1)', u: 'min($1, 1u)', b: '$1', l: 'select(vec2<u32>(select(0u, 1u, i64_nz($1)), 0u), vec2<u32>(0xffffffffu, 0xffffffffu), i64_isneg($1))' },
  frac: { f: '$1 - trunc($1)', vec: true },
  exp2: { f: 'exp2_f($1)', vec: true },
  expm1: { f: 'expm1_f($1)' },
  log2: { f: 'log2_f($1)' },
  log10: { f: 'log2_f($1) * 0.30102999566398120' },
  log1p: { f: 'log1p_f($1)' },
  tan: { f: 'tan_f($1)' },
  asin: { f: 'asin_f($1)' },
  acos: { f: 'acos_f($1)' },
  atan: { f: 'atan($1)', vec: true },
  sinh: { f: 'sinh_f($1)' },
  cosh: { f: 'cosh_f($1)' },
  // (above 2^28, x^2 would overflow: asinh(x) = log(2x) there to float32 precision)
  asinh: { f: 'asinh_f($1)', helpers: /* wgsl */ `
fn asinh_f(x: f32) -> f32 {
  let a = abs(x);
  var r = log1p_f(a + a * a / (1.0 + sqrt(1.0 + a * a)));
  if (a > 268435456.0) { r = log_f(a) + 0.6931471805599453; }
  return select(r, -r, x < 0.0);
}` },
  acosh: { f: 'acosh_f($1)', helpers: /* wgsl */ `
fn acosh_f(x: f32) -> f32 {
  if (isnan_f(x) || x < 1.0) { return nan_f(); }
  if (x > 268435456.0) { return log_f(x) + 0.6931471805599453; }
  let t = x - 1.0;
  return log1p_f(t + sqrt(2.0 * t + t * t));
}` },
  atanh: { f: 'atanh_f($1)', helpers: /* wgsl */ `
fn atanh_f(x: f32) -> f32 {
  if (isnan_f(x) || abs(x) > 1.0) { return nan_f(); }
  let a = abs(x);
  let r = 0.5 * log1p_f(2.0 * a / (1.0 - a));
  return select(r, -r, x < 0.0);
}` },
  erf: { f: 'erf_f($1)' },
  erfc: { f: 'erfc_f($1)' },
  erfinv: { f: 'erfinv_f($1)' },
  // the special functions (Note [The special functions in WGSL])
  lgamma: { f: 'lgamma_f($1)', helpers: SPECIAL_WGSL },
  digamma: { f: 'digamma_f($1)', helpers: SPECIAL_WGSL },
  i0: { f: 'i0_f($1)', helpers: SPECIAL_WGSL },
  sinc: { f: 'sinc_f($1)', bh: 'sinc_bh($1)', helpers: SPECIAL_WGSL },
  specialEntr: { f: 'entr_f($1)', helpers: SPECIAL_WGSL },
  specialNdtri: { f: 'ndtri_f($1)', helpers: SPECIAL_WGSL },
  specialLogNdtr: { f: 'log_ndtr_f($1)', helpers: SPECIAL_WGSL },
  specialErfcx: { f: 'erfcx_f($1)', helpers: SPECIAL_WGSL },
  specialI0e: { f: 'i0e_f($1)', helpers: SPECIAL_WGSL },
  specialI1: { f: 'i1_f($1)', helpers: SPECIAL_WGSL },
  specialI1e: { f: 'i1e_f($1)', helpers: SPECIAL_WGSL },
  specialBesselJ0: { f: 'bessel_j0_f($1)', helpers: SPECIAL_WGSL },
  specialBesselJ1: { f: 'bessel_j1_f($1)', helpers: SPECIAL_WGSL },
  specialBesselY0: { f: 'bessel_y0_f($1)', helpers: SPECIAL_WGSL },
  specialBesselY1: { f: 'bessel_y1_f($1)', helpers: SPECIAL_WGSL },
  specialModifiedBesselI0: { f: 'modified_bessel_i0_f($1)', helpers: SPECIAL_WGSL },
  specialModifiedBesselI1: { f: 'modified_bessel_i1_f($1)', helpers: SPECIAL_WGSL },
  specialModifiedBesselK0: { f: 'bessel_k_f(0.0, $1, false)', helpers: SPECIAL_WGSL },
  specialModifiedBesselK1: { f: 'bessel_k_f(1.0, $1, false)', helpers: SPECIAL_WGSL },
  specialScaledModifiedBesselK0: { f: 'bessel_k_f(0.0, $1, true)', helpers: SPECIAL_WGSL },
  specialScaledModifiedBesselK1: { f: 'bessel_k_f(1.0, $1, true)', helpers: SPECIAL_WGSL },
  specialSphericalBesselJ0: { f: 'spherical_bessel_j0_f($1)', helpers: SPECIAL_WGSL },
  specialAiryAi: { f: 'airy_ai_f($1)', helpers: SPECIAL_POLY_WGSL },
  bitwiseNot: { i: '~$1', u: '(~$1) & 255u', b: '1u - $1', l: '~$1' },
  logicalNot: { f: '!nz_f($1)', i: '$1 == 0', u: '$1 == 0u', b: '$1 == 0u', l: '!i64_nz($1)', pred: true },
  // activations
  silu: { f: '$1 * sigmoid_f($1)', vec: true },
  mish: { f: '$1 * tanh_f(select(log1p_f(exp_f($1)), $1, $1 > 20.0))' },
  hardsigmoid: { f: 'min(max($1 + T(3.0), T(0.0)), T(6.0)) / T(6.0)', vec: true },
  hardswish: { f: '$1 * min(max($1 + T(3.0), T(0.0)), T(6.0)) / T(6.0)', vec: true },
} satisfies Record<string, OpRow>;

// Every unary row of core's op table (Note [The op table]) has its WGSL here: a missing one does not compile.
const tableRowsHaveWgsl: Readonly<Record<UnaryTableName, OpRow>> = UNARY_OPS;
void tableRowsHaveWgsl;

export const BINARY_OPS = {
  mul: { f: '$1 * $2', i: '$1 * $2', u: '($1 * $2) & 255u', b: '$1 & $2', l: 'i64_mul($1, $2)', vec: true },
  div: { f: 'div_f($1, $2)', vec: true },
  divTrunc: { f: 'trunc(div_f($1, $2))', i: 'select($1 / $2, 0, $2 == 0)', u: 'select($1 / $2, 0u, $2 == 0u)', l: 'i64_div_trunc($1, $2)', lHelpers: INT64_DIV_HELPERS, zeroDiv: 'div', vec: false },
  divFloor: { f: 'div_floor_f($1, $2)', i: 'div_floor_i($1, $2)', u: 'select($1 / $2, 0u, $2 == 0u)', l: 'i64_div_floor($1, $2)', lHelpers: INT64_DIV_HELPERS, zeroDiv: 'div' },
  pow: { f: 'pow_f($1, $2)', h: 'pow_h($1, $2)', bh: 'pow_b($1, $2)', i: 'pow_i($1, $2)', u: 'pow_u($1, $2)', l: 'i64_pow($1, $2)', lHelpers: INT64_POW_HELPER },
  remainder: { f: 'remainder_f($1, $2)', i: 'remainder_i($1, $2)', u: 'select($1 % $2, 0u, $2 == 0u)', l: 'i64_remainder($1, $2)', lHelpers: INT64_DIV_HELPERS, zeroDiv: 'remainder' },
  maximum: { f: 'max_nan($1, $2)', i: 'max($1, $2)', u: 'max($1, $2)', b: 'max($1, $2)', l: MAX64 },
  minimum: { f: 'min_nan($1, $2)', i: 'min($1, $2)', u: 'min($1, $2)', b: 'min($1, $2)', l: MIN64 },
  fmod: { f: 'fmod_f($1, $2)', i: 'select($1 % $2, 0, $2 == 0)', u: 'select($1 % $2, 0u, $2 == 0u)', l: 'i64_fmod($1, $2)', lHelpers: INT64_DIV_HELPERS, zeroDiv: 'fmod' },
  atan2: { f: 'atan2_f($1, $2)' },
  hypot: { f: 'hypot_f($1, $2)' },
  xlogy: { f: 'xlogy_f($1, $2)', helpers: SPECIAL_WGSL },
  specialXlog1py: { f: 'xlog1py_f($1, $2)', helpers: SPECIAL_WGSL },
  specialZeta: { f: 'zeta_f($1, $2)', helpers: SPECIAL_WGSL },
  igamma: { f: 'igamma_f($1, $2, false)', helpers: SPECIAL_WGSL },
  igammac: { f: 'igamma_f($1, $2, true)', helpers: SPECIAL_WGSL },
  // torch.special's orthogonal polynomials (Note [Orthogonal polynomials in WGSL])
  specialChebyshevPolynomialT: { f: 'cheb_t_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialChebyshevPolynomialU: { f: 'cheb_u_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialChebyshevPolynomialV: { f: 'cheb_v_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialChebyshevPolynomialW: { f: 'cheb_w_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialShiftedChebyshevPolynomialT: { f: 'scheb_t_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialShiftedChebyshevPolynomialU: { f: 'scheb_u_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialShiftedChebyshevPolynomialV: { f: 'scheb_v_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialShiftedChebyshevPolynomialW: { f: 'scheb_w_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialHermitePolynomialH: { f: 'hermite_h_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialHermitePolynomialHe: { f: 'hermite_he_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialLaguerrePolynomialL: { f: 'laguerre_l_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  specialLegendrePolynomialP: { f: 'legendre_p_f($1, $2)', helpers: SPECIAL_POLY_WGSL },
  fmax: { f: 'select(select(max($1, $2), $1, isnan_f($2)), $2, isnan_f($1))', i: 'max($1, $2)', u: 'max($1, $2)', b: 'max($1, $2)', l: MAX64 },
  fmin: { f: 'select(select(min($1, $2), $1, isnan_f($2)), $2, isnan_f($1))', i: 'min($1, $2)', u: 'min($1, $2)', b: 'min($1, $2)', l: MIN64 },
  clampMin: { f: 'select(select(max($1, $2), $1, isnan_f($2)), $1, isnan_f($1))', i: 'max($1, $2)', u: 'max($1, $2)', b: 'max($1, $2)', l: MAX64 },
  clampMax: { f: 'select(select(min($1, $2), $1, isnan_f($2)), $1, isnan_f($1))', i: 'min($1, $2)', u: 'min($1, $2)', b: 'min($1, $2)', l: MIN64 },
  bitwiseAnd: { i: '$1 & $2', u: '$1 & $2', b: '$1 & $2', l: '$1 & $2' },
  bitwiseOr: { i: '$1 | $2', u: '$1 | $2', b: '$1 | $2', l: '$1 | $2' },
  bitwiseXor: { i: '$1 ^ $2', u: '$1 ^ $2', b: '$1 ^ $2', l: '$1 ^ $2' },
  // predicates: bool out
  eq: { f: '$1 == $2', ...same('$1 == $2'), l: 'all($1 == $2)', pred: true },
  // SwiftShader's != is ordered (false with a NaN): spelled out so NaN != x is true.
  ne: { f: '$1 != $2 || isnan_f($1) || isnan_f($2)', ...same('$1 != $2'), l: 'any($1 != $2)', pred: true },
  lt: { f: '$1 < $2', ...same('$1 < $2'), l: 'i64_lt($1, $2)', pred: true },
  le: { f: '$1 <= $2', ...same('$1 <= $2'), l: '!i64_lt($2, $1)', pred: true },
  gt: { f: '$1 > $2', ...same('$1 > $2'), l: 'i64_lt($2, $1)', pred: true },
  ge: { f: '$1 >= $2', ...same('$1 >= $2'), l: '!i64_lt($1, $2)', pred: true },
  logicalAnd: { f: 'nz_f($1) && nz_f($2)', i: '($1 != 0) && ($2 != 0)', u: '($1 != 0u) && ($2 != 0u)', b: '($1 != 0u) && ($2 != 0u)', l: 'i64_nz($1) && i64_nz($2)', pred: true },
  logicalOr: { f: 'nz_f($1) || nz_f($2)', i: '($1 != 0) || ($2 != 0)', u: '($1 != 0u) || ($2 != 0u)', b: '($1 != 0u) || ($2 != 0u)', l: 'i64_nz($1) || i64_nz($2)', pred: true },
  logicalXor: { f: 'nz_f($1) != nz_f($2)', i: '($1 != 0) != ($2 != 0)', u: '($1 != 0u) != ($2 != 0u)', b: '($1 != 0u) != ($2 != 0u)', l: 'i64_nz($1) != i64_nz($2)', pred: true },
} satisfies Record<string, OpRow>;

// ... and every binary row computed by the impl of its name (sub and div pick other impls).
const binaryRowsHaveWgsl: Readonly<Record<TableBinaryImplName, OpRow>> = BINARY_OPS;
void binaryRowsHaveWgsl;

/** Rows with scalar arguments (`$p0..`), filled in by their impls in impls.ts. */
export const SCALAR_OPS = {
  // (int64 rows take an int64 scalar as two words: `vec2<u32>($u0, $u1)`)
  // (float16: c10::Half arithmetic rounds alpha * other to half before the sum, as kernels-cpu's add)
  add: { f: '$1 + $p0 * $2', h: '$1 + f16_to_f32(f32_to_f16($p0 * $2))', i: '$1 + $p0 * $2', u: '($1 + $p0 * $2) & 255u', b: 'min($1 + $p0 * $2, 1u)', l: 'i64_add($1, i64_mul(vec2<u32>($u0, $u1), $2))', vec: true },
  leakyRelu: { f: 'select($1 * $p0, $1, $1 > T(0.0))', vec: true },
  elu: { f: 'select(expm1_f($1 * $p2) * $p0 * $p1, $1 * $p1, $1 > 0.0)' },
  hardtanh: {
    f: 'select(min(max($1, $p0), $p1), $1, isnan_f($1))',
    i: 'min(max($1, $p0), $p1)',
    u: 'min(max($1, $p0), $p1)',
    l: 'select(select($1, vec2<u32>($u0, $u1), i64_lt($1, vec2<u32>($u0, $u1))), vec2<u32>($u2, $u3), i64_lt(vec2<u32>($u2, $u3), select($1, vec2<u32>($u0, $u1), i64_lt($1, vec2<u32>($u0, $u1)))))',
  },
  // (bfloat16: PyTorch 1.13's kernel rounds to bfloat16 after every step, as kernels-cpu's gelu)
  geluNone: { f: '0.5 * $1 * (1.0 + erf_f($1 * 0.70710678118654752))', bh: 'bfr(bfr($1 * 0.5) * bfr(1.0 + bfr(erf_f(bfr($1 * bfr(0.70710678118654752))))))' },
  geluTanh: {
    f: '0.5 * $1 * (1.0 + tanh_f(0.79788456080286536 * ($1 + 0.044715 * $1 * $1 * $1)))',
    vec: true,
    bh: 'bfr(bfr(0.5 * $1) * bfr(1.0 + bfr(tanh_f(bfr(bfr(0.79788456080286536) * bfr($1 + bfr(bfr(0.044715) * bfr(bfr($1 * $1) * $1))))))))',
  },
  softplus: { f: 'select(log1p_f(exp_f($1 * $p0)) / $p0, $1, $1 * $p0 > $p1)' },
  logit: { f: 'logit_f($1, $p0, $u1)' },
  polygamma: { f: 'polygamma_f($1, $u0)', helpers: SPECIAL_WGSL },
  mvlgamma: { f: 'mvlgamma_f($1, $u0)', helpers: SPECIAL_WGSL },
  nanToNum: { f: 'select(select(select($1, $p0, isnan_f($1)), $p1, isinf_f($1) && $1 > 0.0), $p2, isinf_f($1) && $1 < 0.0)' },
  lerp: { f: 'select($2 - ($2 - $1) * (1.0 - $3), $1 + $3 * ($2 - $1), abs($3) < 0.5)' },
  // a Scalar weight is converted to the opmath type (f32), not to the dtype (float16 and bfloat16 matter)
  lerpScalar: { f: 'select($2 - ($2 - $1) * (1.0 - $p0), $1 + $p0 * ($2 - $1), abs($p0) < 0.5)' },
  addcmul: { f: '$1 + $p0 * $2 * $3', i: '$1 + $p0 * $2 * $3', u: '($1 + $p0 * $2 * $3) & 255u', l: 'i64_add($1, i64_mul(i64_mul(vec2<u32>($u0, $u1), $2), $3))' },
  addcdiv: { f: '$1 + $p0 * div_f($2, $3)' },
  round: { f: 'round_dec($1, $p0, $u1)', i: '$1', u: '$1', b: '$1', l: '$1' },
  where: { f: 'select($3, $2, $1 != 0u)', i: 'select($3, $2, $1 != 0u)', u: 'select($3, $2, $1 != 0u)', b: 'select($3, $2, $1 != 0u)', l: 'select($3, $2, $1 != 0u)' },
} satisfies Record<string, OpRow>;

/** Helpers only some rows need. */
export const LOGIT_HELPER = /* wgsl */ `
fn logit_f(x: f32, eps: f32, hasEps: u32) -> f32 {
  var z = x;
  if (hasEps != 0u) { z = select(min(max(x, eps), 1.0 - eps), x, isnan_f(x)); }
  return log_f(div_f(z, 1.0 - z));
}`;

/**
 * WGSL leaves the result of a builtin on NaN indeterminate (SwiftShader's exp(NaN) is inf):
 * float rows whose expression calls a builtin directly are wrapped so NaN comes back as NaN.
 */
const NAN_SAFE = /^(neg|abs|floor|ceil|trunc|relu|frac|reciprocal|exp)$/; // (exp_f returns a NaN input itself)

export function rowExpr(row: OpRow, kind: 'f' | 'i' | 'u' | 'b' | 'l', name = ''): PointwiseExpr | null {
  let x = row[kind];
  if (x === undefined) return null;
  if (kind === 'f' && !row.pred && !NAN_SAFE.test(name) && x.includes('$1') && !x.includes('$2') && /\b(exp|log|sqrt|sin|cos|tan|asin|acos|atan|exp2|log2|inverseSqrt|cosh|sinh|min|max)/.test(x)) {
    x = `select(${x}, $1, isnan_f($1))`;
  }
  const expr = row.pred ? `select(0u, 1u, ${x})` : x;
  if (kind === 'l') return { expr, int64: true, ...(row.lHelpers ? { helpers: row.lHelpers } : {}) };
  return { expr, vec4: kind === 'f' && !row.pred && row.vec === true, ...(row.helpers ? { helpers: row.helpers } : {}) };
}
