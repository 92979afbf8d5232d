/**
 * Host-side samplers that reproduce PyTorch's CPU kernels value for value: the same draws
 * from the generator, in the same order, rounded in the same precision (see
 * aten/src/ATen/core/TransformationHelper.h and native/cpu/DistributionTemplates.h).
 */
import { bf16BitsToNumber, f16BitsToNumber, f64ToBf16Bits, f64ToF16Bits } from '../dtype/half';
import { finfo, type DType } from '../dtype';
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
export function normalScalar(gen: Generator, mean: number, std: number): number {
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

/**
 * Note [Gamma and Poisson draws]
 * PyTorch's CPU `_standard_gamma` draws each element with Marsaglia and Tsang's method (2000):
 * for alpha < 1, alpha + 1 is drawn and scaled by U^(1/alpha); then d = alpha - 1/3,
 * c = 1/sqrt(9d), and normals x are drawn until y = 1 + cx > 0, v = y³ accepted with one
 * more uniform u by the squeeze u < 1 - 0.0331 x⁴ or by log u < x²/2 + d(1 - v + log v); the
 * sample is d·v (times the boost). Its uniforms are `uniform_real_distribution<double>` (53
 * bits), its normals `normal_distribution<double>` (Box-Muller, the second value cached on
 * the generator), the arithmetic in double except where the kernel spells float constants
 * and a float32 alpha (`1/3`, `0.0331`, `alpha - 1/3` and `1/alpha` are float32 there); the
 * result is rounded to the dtype and kept at least its smallest normal. `poisson` draws with
 * multiplied uniforms below rate 10 and Hörmann's transformed rejection (PTRS, 1993) from
 * 10 on. The same draws in the same order give PyTorch's values; Math.pow and Math.exp may
 * differ from glibc's in the last bit, which moves a sample by an ulp at most (and an
 * acceptance test only when it is that close).
 */
export function sampleGamma(gen: Generator, alphas: Float64Array, dtype: 'float32' | 'float64'): Float64Array {
  const single = dtype === 'float32';
  const f = single ? f32 : (x: number) => x;
  const third = f32(1 / 3);
  const squeeze = f32(0.0331);
  const smallest = finfo(dtype).tiny;
  const out = samples(alphas.length);
  const uniform = () => gen.random53() * 2 ** -53;
  for (let i = 0; i < alphas.length; i++) {
    let alpha = alphas[i]!;
    let scale = 1;
    if (alpha < 1) {
      if (alpha === 0) {
        out[i] = 0;
        continue;
      }
      scale *= Math.pow(1 - uniform(), f(1 / alpha));
      alpha = f(alpha + 1);
    }
    const d = f(alpha - third);
    const c = 1 / Math.sqrt(9 * d);
    let sample: number;
    for (;;) {
      let x: number;
      let y: number;
      do {
        x = normalScalar(gen, 0, 1);
        y = 1 + c * x;
      } while (y <= 0);
      const v = y * y * y;
      const u = 1 - uniform();
      const xx = x * x;
      if (u < 1 - squeeze * xx * xx || log(u) < 0.5 * xx + d * (1 - v + log(v))) {
        sample = scale * d * v;
        break;
      }
    }
    out[i] = Math.max(smallest, f(sample));
  }
  return out;
}

/** log(k!) for an integer k >= 0 (std::lgamma(k + 1)). */
function logFactorial(k: number): number {
  if (k < 2) return 0;
  if (k <= 170) {
    let p = 1;
    for (let j = 2; j <= k; j++) p *= j;
    return log(p);
  }
  // Stirling's series, accurate to double precision from 171 on
  const n = k + 1;
  return (n - 0.5) * log(n) - n + 0.5 * log(2 * Math.PI) + 1 / (12 * n) - 1 / (360 * n ** 3) + 1 / (1260 * n ** 5);
}

/** Poisson draws of the given rates (Note [Gamma and Poisson draws]). */
export function samplePoisson(gen: Generator, rates: Float64Array): Float64Array {
  const out = samples(rates.length);
  const uniform = () => gen.random53() * 2 ** -53;
  for (let i = 0; i < rates.length; i++) {
    const lambda = rates[i]!;
    if (!(lambda >= 0)) throw new TorchError('poisson: invalid Poisson rate, expected rate to be non-negative');
    if (lambda === 0) {
      out[i] = 0;
    } else if (lambda < 10) {
      const enlam = Math.exp(-lambda);
      let x = 0;
      let prod = 1;
      for (;;) {
        prod *= uniform();
        if (!(prod > enlam)) break;
        x += 1;
      }
      out[i] = x;
    } else {
      const slam = Math.sqrt(lambda);
      const loglam = log(lambda);
      const b = 0.931 + 2.53 * slam;
      const a = -0.059 + 0.02483 * b;
      const invalpha = 1.1239 + 1.1328 / (b - 3.4);
      const vr = 0.9277 - 3.6224 / (b - 2);
      for (;;) {
        const u = uniform() - 0.5;
        const v = uniform();
        const us = 0.5 - Math.abs(u);
        const k = Math.floor(((2 * a) / us + b) * u + lambda + 0.43);
        if (us >= 0.07 && v <= vr) {
          out[i] = k;
          break;
        }
        if (k < 0 || (us < 0.013 && v > us)) continue;
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lambda + k * loglam - logFactorial(k)) {
          out[i] = k;
          break;
        }
      }
    }
  }
  return out;
}

/** log(k!) - Stirling's approximation of it, (k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2: exact values below 10, the series above. */
const STIRLING_TAIL = [
  0.08106146679532726, 0.0413406959554093, 0.02767792568499834, 0.020790672103765093, 0.016644691189821193, 0.013876128823070748, 0.01189670994589177,
  0.010411265261972096, 0.009255462182712733, 0.00833056343336287,
];

function stirlingTail(k: number): number {
  if (k <= 9) return STIRLING_TAIL[k]!;
  const kp1 = k + 1;
  const kp1sq = kp1 * kp1;
  return (1 / 12 - (1 / 360 - 1 / 1260 / kp1sq) / kp1sq) / kp1;
}

/**
 * Binomial draws (`torch.binomial`), as PyTorch's CPU kernel: 0 for a count or probability
 * of 0 or less, the count for a probability of 1 or more; otherwise the draw for min(p, 1 - p)
 * (mirrored when p > 1/2), by inversion of geometric waiting times while count * p < 10 and
 * by Hörmann's transformed rejection with squeeze (BTRS, 1993) from 10 on, its bound made of
 * Stirling tails. Uniforms are 53-bit doubles; the arithmetic is double.
 */
export function sampleBinomial(gen: Generator, counts: Float64Array, probs: Float64Array): Float64Array {
  const out = samples(counts.length);
  const uniform = () => gen.random53() * 2 ** -53;
  const inversion = (count: number, prob: number): number => {
    let geomSum = 0;
    let num = 0;
    const logprob = Math.log1p(-prob);
    for (;;) {
      geomSum += Math.ceil(log(uniform()) / logprob);
      if (geomSum > count) return num;
      num += 1;
    }
  };
  const btrs = (n: number, p: number): number => {
    const q = 1 - p;
    const spq = Math.sqrt(n * p * q);
    const b = 1.15 + 2.53 * spq;
    const a = -0.0873 + 0.0248 * b + 0.01 * p;
    const c = n * p + 0.5;
    const alpha = (2.83 + 5.1 / b) * spq;
    const vr = 0.92 - 4.2 / b;
    const r = p / q;
    const m = Math.floor((n + 1) * p);
    for (;;) {
      const u = uniform() - 0.5;
      let v = uniform();
      const us = 0.5 - Math.abs(u);
      const k = Math.floor(((2 * a) / us + b) * u + c);
      if (k < 0 || k > n) continue;
      if (us >= 0.07 && v <= vr) return k;
      v = log((v * alpha) / (a / (us * us) + b));
      const bound =
        (m + 0.5) * log((m + 1) / (r * (n - m + 1))) +
        (n + 1) * log((n - m + 1) / (n - k + 1)) +
        (k + 0.5) * log((r * (n - k + 1)) / (k + 1)) +
        stirlingTail(m) +
        stirlingTail(n - m) -
        stirlingTail(k) -
        stirlingTail(n - k);
      if (v <= bound) return k;
    }
  };
  for (let i = 0; i < counts.length; i++) {
    const count = counts[i]!;
    const prob = probs[i]!;
    if (count <= 0 || prob <= 0) out[i] = 0;
    else if (prob >= 1) out[i] = count;
    else if (prob <= 0.5) out[i] = count * prob >= 10 ? btrs(count, prob) : inversion(count, prob);
    else {
      const q = 1 - prob;
      out[i] = count - (count * q >= 10 ? btrs(count, q) : inversion(count, q));
    }
  }
  return out;
}

/** Host room for `n` draws; an engine's refusal (a RangeError) becomes the out-of-memory TorchError an allocation gives. */
function samples(n: number): Float64Array {
  try {
    return new Float64Array(n);
  } catch (e) {
    throw new TorchError(`out of memory: cannot hold ${n} random samples on the host (${e instanceof Error ? e.message : String(e)})`);
  }
}

/**
 * Note [Transformed uniform draws]
 * PyTorch 1.13's CPU `exponential_`, `cauchy_`, `geometric_` and `log_normal_` (the
 * serial kernels: builds without MKL, and MKL's exponential is taken on Intel CPUs only)
 * draw one `uniform_real_distribution<double>` per element (53 bits of `random64()`), or
 * for log_normal_ one scalar `normal_distribution<double>` sample (with the generator's
 * cached second Box-Muller value), transform it in double with TransformationHelper's
 * formulas, and cast to the tensor's dtype:
 *   exponential(lambda)    -1 / lambda * log(1 - u)
 *   cauchy(median, sigma)  median + sigma * tan(pi * (u - 0.5))
 *   geometric(p)           ceil(log(u) / log1p(-p))
 *   log_normal(mean, std)  exp(normal(mean, std))
 */
export function sampleTransformed(gen: Generator, n: number, kind: 'exponential' | 'cauchy' | 'geometric' | 'logNormal', a: number, b: number): Float64Array {
  const out = samples(n);
  const u = () => gen.random53() * 2 ** -53;
  if (kind === 'exponential') for (let i = 0; i < n; i++) out[i] = (-1 / a) * log(1 - u());
  else if (kind === 'cauchy') for (let i = 0; i < n; i++) out[i] = a + b * Math.tan(Math.PI * (u() - 0.5));
  else if (kind === 'geometric') for (let i = 0; i < n; i++) out[i] = Math.ceil(log(u()) / Math.log1p(-a));
  else for (let i = 0; i < n; i++) out[i] = Math.exp(normalScalar(gen, a, b));
  return out;
}

/**
 * `random_()` without bounds (`uniform_int_distribution`): random64() for float64 and
 * int64, else random(), reduced to the dtype's whole-number range: mod 2^digits + 1 for the
 * floating dtypes (53, 24, 11, 8), mod max + 1 for the integer ones, the low bit for bool.
 */
export function sampleRandomFull(gen: Generator, n: number, dtype: DType): BigInt64Array {
  const out = new BigInt64Array(n);
  const wide = dtype === 'float64' || dtype === 'int64';
  const mod: Record<string, bigint> = {
    float64: (1n << 53n) + 1n, int64: 1n << 63n, float32: (1n << 24n) + 1n, float16: (1n << 11n) + 1n, bfloat16: (1n << 8n) + 1n,
    int32: 1n << 31n, int16: 1n << 15n, int8: 1n << 7n, uint8: 1n << 8n, bool: 2n,
  };
  const m = mod[dtype];
  if (m === undefined) throw new TorchError(`random_: "random_kernel_cpu" not implemented for '${dtype}'`);
  for (let i = 0; i < n; i++) out[i] = (wide ? gen.random64() : BigInt(gen.random())) % m;
  return out;
}
