/**
 * Host-side samplers that reproduce PyTorch's CPU kernels value for value: the same draws
 * from the generator, in the same order, rounded in the same precision (see
 * aten/src/ATen/core/TransformationHelper.h and native/cpu/DistributionTemplates.h).
 */
import { bf16BitsToNumber, f16BitsToNumber, f64ToBf16Bits, f64ToF16Bits } from '../dtype/half';
import type { DType } from '../dtype';
import { fma32, fma64 } from '../numeric/fused';
import { TorchError } from '../errors';
import type { Generator } from './generator';
import { log256, sincos256 } from './avx-mathfun';
import { log, sincos } from './libm';

const f32 = Math.fround;
const toHalf = (x: number): number => f16BitsToNumber(f64ToF16Bits(x));
const toBf16 = (x: number): number => bf16BitsToNumber(f64ToBf16Bits(x));

/** Rounds a float32 value into the tensor's floating dtype (identity for float32). */
export function narrow(dtype: DType): (x: number) => number {
  return dtype === 'float16' ? toHalf : dtype === 'bfloat16' ? toBf16 : f32;
}

/**
 * Note [Uniform floats from random bits]
 * `uniform_real` keeps the low `digits` bits of a draw (the significand width of the
 * dtype: 53 for float64 from random64(), 24 / 11 / 8 for float32 / float16 / bfloat16 from
 * random()) and scales by 2^-digits, so values are multiples of 2^-digits in [0, 1), then
 * `x * (to - from) + from`, fused (Note [Fused multiply-add in PyTorch's CPU kernels]).
 * For float16 and bfloat16, `from`, `to` and `to - from` are rounded to the dtype and the
 * arithmetic is float32.
 */
export function sampleUniform(gen: Generator, n: number, dtype: DType, from: number, to: number): Float64Array {
  const out = samples(n);
  if (dtype === 'float64') {
    const range = to - from;
    for (let i = 0; i < n; i++) out[i] = fma64(gen.random53() * 2 ** -53, range, from);
    return out;
  }
  const digits = dtype === 'float16' ? 11 : dtype === 'bfloat16' ? 8 : 24;
  const mask = 2 ** digits - 1;
  const round = narrow(dtype);
  const lo = round(from);
  const range = round(round(to) - lo);
  for (let i = 0; i < n; i++) {
    const x = (gen.random() & mask) * 2 ** -digits;
    out[i] = round(fma32(x, range, lo));
  }
  return out;
}

/** float32 uniform [0, 1) with 24 bits, as the normal fills draw them. */
function uniform24(gen: Generator): number {
  return (gen.random() & 0xffffff) * 2 ** -24;
}

/**
 * One sample of `normal_distribution<double>` (the scalar path): Box-Muller in double,
 * whose second value is cached on the generator for the next call.
 */
function normalScalar(gen: Generator, mean: number, std: number): number {
  if (gen.nextDoubleNormal !== null) {
    const cached = gen.nextDoubleNormal;
    gen.nextDoubleNormal = null;
    return fma64(cached, std, mean);
  }
  const u1 = gen.random53() * 2 ** -53;
  const u2 = gen.random53() * 2 ** -53;
  const r = Math.sqrt(-2 * log(1 - u2));
  const [sin, cos] = sincos(2 * Math.PI * u1);
  gen.nextDoubleNormal = r * sin;
  return fma64(r * cos, std, mean);
}

/**
 * Note [Two normal paths]
 * `normal_kernel` fills a contiguous tensor of at least 16 elements with a vectorised
 * Box-Muller: first every element gets a uniform, then each block of 16 turns into normals
 * (elements j and j + 8 share a pair); when 16 does not divide the size, the last 16
 * elements are drawn again and transformed again. float32 on an AVX2 CPU uses the
 * avx_mathfun polynomials for log, sin and cos (./avx-mathfun.ts); float64 uses libm
 * (Note [Correctly rounded log, sin and cos]).
 * Anything else (fewer than 16 elements, or not contiguous) takes one scalar sample per
 * element, in double, with the generator's cached second sample.
 */
export function sampleNormal(gen: Generator, n: number, dtype: DType, mean: number, std: number, contiguous: boolean): Float64Array {
  const out = samples(n);
  if (n < 16 || !contiguous) {
    const round = dtype === 'float64' ? (x: number) => x : narrow(dtype);
    for (let i = 0; i < n; i++) out[i] = round(normalScalar(gen, mean, std));
    return out;
  }
  const draw =
    dtype === 'float64' ? () => gen.random53() * 2 ** -53
    : dtype === 'float32' ? () => uniform24(gen)
    : () => sampleUniform(gen, 1, dtype, 0, 1)[0]!;
  const fill16 =
    dtype === 'float64' ? fill16Double(mean, std)
    : dtype === 'float32' ? fill16Avx2(f32(mean), f32(std))
    : fill16Narrow(narrow(dtype), mean, std, dtype === 'bfloat16');
  for (let i = 0; i < n; i++) out[i] = draw();
  for (let i = 0; i + 16 <= n; i += 16) fill16(out, i);
  if (n % 16 !== 0) {
    for (let i = n - 16; i < n; i++) out[i] = draw();
    fill16(out, n - 16);
  }
  return out;
}

function fill16Double(mean: number, std: number) {
  return (d: Float64Array, at: number): void => {
    for (let j = at; j < at + 8; j++) {
      const radius = Math.sqrt(-2 * log(1 - d[j]!));
      const [sin, cos] = sincos(2 * Math.PI * d[j + 8]!);
      d[j] = fma64(radius * cos, std, mean);
      d[j + 8] = fma64(radius * sin, std, mean);
    }
  };
}

/**
 * `normal_fill_16` for float16 / bfloat16: named intermediates are stored in the dtype and
 * the arithmetic between them is float32 with libm's logf, sinf, cosf; the angle is
 * computed in double and narrowed through float32. bfloat16 goes further: c10 gives it
 * its own `log`, `sin`, `cos` and operators, each rounding its result to bfloat16.
 */
function fill16Narrow(round: (x: number) => number, meanIn: number, stdIn: number, everyStep: boolean) {
  const mean = round(meanIn);
  const std = round(stdIn);
  const step = everyStep ? round : (x: number) => x;
  return (d: Float64Array, at: number): void => {
    for (let j = at; j < at + 8; j++) {
      const u1 = round(1 - d[j]!);
      const radius = round(f32(Math.sqrt(step(f32(-2 * step(f32(Math.log(u1))))))));
      const theta = round(f32(2 * Math.PI * d[j + 8]!));
      const out = (trig: number): number => {
        if (!everyStep) return round(fma32(f32(radius * trig), std, mean));
        return round(f32(round(f32(round(f32(radius * round(trig))) * std)) + mean));
      };
      d[j] = out(f32(Math.cos(theta)));
      d[j + 8] = out(f32(Math.sin(theta)));
    }
  };
}

const TWO_PI_F32 = f32(2 * Math.PI);

function fill16Avx2(mean: number, std: number) {
  return (d: Float64Array, at: number): void => {
    for (let j = at; j < at + 8; j++) {
      const radius = f32(Math.sqrt(f32(-2 * log256(f32(1 - d[j]!)))));
      const [s, c] = sincos256(f32(TWO_PI_F32 * d[j + 8]!));
      d[j] = fma32(f32(radius * c), std, mean);
      d[j + 8] = fma32(f32(radius * s), std, mean);
    }
  };
}

/**
 * `uniform_int_from_to`: (draw mod range) + base. The draw is random64() when the dtype is
 * int64, float64, float32 or bfloat16 and range >= 2^32, else random().
 */
export function sampleIntFromTo(gen: Generator, n: number, dtype: DType, low: bigint, range: bigint): BigInt64Array {
  const out = new BigInt64Array(n);
  const wide = range >= 1n << 32n && (dtype === 'int64' || dtype === 'float64' || dtype === 'float32' || dtype === 'bfloat16');
  if (wide) {
    for (let i = 0; i < n; i++) out[i] = BigInt.asIntN(64, (gen.random64() % range) + low);
    return out;
  }
  if (range < 1n << 32n) {
    const r = Number(range);
    const base = Number(low);
    if (Number.isSafeInteger(base) && Number.isSafeInteger(base + r)) {
      for (let i = 0; i < n; i++) out[i] = BigInt((gen.random() % r) + base);
      return out;
    }
  }
  for (let i = 0; i < n; i++) out[i] = BigInt.asIntN(64, (BigInt(gen.random()) % range) + low);
  return out;
}

/** randperm_cpu: 0..n-1, then a forward Fisher-Yates with `random() % (n - i)`. */
export function samplePermutation(gen: Generator, n: number): BigInt64Array {
  const perm = new Float64Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = 0; i < n - 1; i++) {
    const z = gen.random() % (n - i);
    const sav = perm[i]!;
    perm[i] = perm[z + i]!;
    perm[z + i] = sav;
  }
  return BigInt64Array.from(perm, (v) => BigInt(v));
}

/** Host room for `n` draws; an engine's refusal (a RangeError) becomes the out-of-memory TorchError an allocation gives. */
function samples(n: number): Float64Array {
  try {
    return new Float64Array(n);
  } catch (e) {
    throw new TorchError(`out of memory: cannot hold ${n} random samples on the host (${e instanceof Error ? e.message : String(e)})`);
  }
}
