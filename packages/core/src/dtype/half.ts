/**
 * Exact conversions between JS numbers and the 16-bit words that store float16 and
 * bfloat16 elements (see Note [16-bit floats are stored as words]). Every function is
 * allocation-free: float32 bit patterns go through one shared scratch word.
 *
 * Note [Float64 to 16-bit floats rounds twice]
 * PyTorch has no direct double -> half or double -> bfloat16 conversion: c10::Half and
 * c10::BFloat16 are built from a float, so casting a float64 tensor (or writing a Python
 * float into a 16-bit tensor) first rounds to float32 and then to 16 bits, each step
 * round-to-nearest-even. That double rounding differs from a single rounding when the
 * float32 step lands exactly on a 16-bit tie: 1 + 2^-11 + 2^-40 becomes the tie
 * 1 + 2^-11 and then 1.0, not 1 + 2^-10. `f64ToF16Bits` and `f64ToBf16Bits` reproduce that
 * (the golden test checks it against torch), so they are the float32 paths applied to
 * `Math.fround(x)`; they exist under their own names so call sites say which cast they mean.
 *
 * Note [NaN bit patterns]
 * float32 -> float16 keeps a NaN's sign and makes it quiet (0x7e00 | sign), as c10 does;
 * that is only observable through the `*BitsTo*` entry points, since a JS NaN has no
 * reliable sign, so `f32ToF16Bits(NaN)` is always 0x7e00. float32 -> bfloat16 gives
 * c10's canonical 0x7fc0 for every NaN. (PyTorch 1.13's AVX2 cast kernel writes 0xffff
 * instead, while its scalar path writes 0x7fc0: both are NaN, we pick the scalar one.)
 */

const scratch = new ArrayBuffer(4);
const f32 = new Float32Array(scratch);
const u32 = new Uint32Array(scratch);

/** float32 bits of |x| below which float16 gives ±0: 2^-25, the tie with 2^-24 (even is 0). */
const F16_ZERO_TIE = 0x33000000;
/** float32 bits of 2^-14, the smallest normal float16. */
const F16_MIN_NORMAL = 0x38800000;
/** float32 bits of 65520, halfway between 65504 (odd mantissa) and 2^16: rounds to Inf. */
const F16_OVERFLOW = 0x477ff000;
const F32_INF = 0x7f800000;

/** Rounds the float32 with bit pattern `bits` (an unsigned 32-bit integer) to float16 bits. */
export function f32BitsToF16Bits(bits: number): number {
  const sign = (bits >>> 16) & 0x8000;
  const abs = bits & 0x7fffffff;
  if (abs >= F32_INF) return abs > F32_INF ? sign | 0x7e00 : sign | 0x7c00;
  if (abs >= F16_OVERFLOW) return sign | 0x7c00;
  if (abs >= F16_MIN_NORMAL) {
    // Rebias the exponent (127 -> 15) and drop 13 mantissa bits; a round-up carry out of
    // the mantissa correctly bumps the exponent (and cannot reach Inf, checked above).
    const h = (abs - 0x38000000) >>> 13;
    const rest = abs & 0x1fff;
    return sign | (rest > 0x1000 || (rest === 0x1000 && (h & 1) === 1) ? h + 1 : h);
  }
  if (abs <= F16_ZERO_TIE) return sign;
  // Subnormal result: the value in units of 2^-24 is mant * 2^(exp - 126).
  const exp = abs >>> 23;
  const mant = (abs & 0x7fffff) | 0x800000;
  const shift = 126 - exp; // 14..24 here
  const h = mant >>> shift;
  const rest = mant & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  return sign | (rest > half || (rest === half && (h & 1) === 1) ? h + 1 : h);
}

/** Rounds the float32 with bit pattern `bits` to bfloat16 bits (round to nearest even). */
export function f32BitsToBf16Bits(bits: number): number {
  if ((bits & 0x7fffffff) > F32_INF) return 0x7fc0;
  // Adding 0x7fff plus the lowest kept bit rounds to nearest, ties to even; the carry may
  // run into the exponent, which is the right answer (up to Inf for the largest floats).
  return ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) & 0xffff;
}

function f32Bits(x: number): number {
  f32[0] = x;
  return u32[0];
}

/** float16 bits of `x` after rounding it to float32, as PyTorch's float32 -> float16 cast. */
export function f32ToF16Bits(x: number): number {
  if (x !== x) return 0x7e00;
  return f32BitsToF16Bits(f32Bits(x));
}

/** float16 bits of a float64 value as PyTorch casts it; see Note [Float64 to 16-bit floats rounds twice]. */
export function f64ToF16Bits(x: number): number {
  return f32ToF16Bits(x);
}

/** bfloat16 bits of `x` after rounding it to float32, as PyTorch's float32 -> bfloat16 cast. */
export function f32ToBf16Bits(x: number): number {
  if (x !== x) return 0x7fc0;
  return f32BitsToBf16Bits(f32Bits(x));
}

/** bfloat16 bits of a float64 value as PyTorch casts it; see Note [Float64 to 16-bit floats rounds twice]. */
export function f64ToBf16Bits(x: number): number {
  return f32ToBf16Bits(x);
}

// 2^(e - 25) for each biased float16 exponent e: a normal float16 is (1024 + m) * 2^(e-25).
const F16_SCALE: readonly number[] = Array.from({ length: 32 }, (_, e) => 2 ** (e - 25));
const F16_SUBNORMAL_UNIT = 2 ** -24;

/** The exact value of the float16 with bit pattern `h` (low 16 bits used). */
export function f16BitsToNumber(h: number): number {
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  let v: number;
  if (exp === 0) v = mant * F16_SUBNORMAL_UNIT;
  else if (exp === 0x1f) v = mant === 0 ? Infinity : NaN;
  else v = (1024 + mant) * F16_SCALE[exp];
  return (h & 0x8000) === 0 ? v : -v;
}

/** The exact value of the bfloat16 with bit pattern `h`: the top half of a float32. */
export function bf16BitsToNumber(h: number): number {
  u32[0] = (h & 0xffff) << 16;
  return f32[0];
}
