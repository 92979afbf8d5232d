/**
 * Tensor's in-place samplers beyond `uniform_` / `normal_` / `bernoulli_`: `exponential_`,
 * `cauchy_`, `logNormal_`, `geometric_` and `random_`. On the CPU, values are PyTorch 1.13
 * CPU's for a seed (Note [Transformed uniform draws], `uniform_int_from_to`); on a backend
 * that draws on the device (Note [Counter-based random streams]) the same transformations
 * apply to its uniform (normal, integer) draws: PyTorch's distributions, not its values.
 */
import { isFloatingType, type DType } from '../dtype';
import { DTypeError, TorchError } from '../errors';
import { defaultGenerator, type Generator } from '../random/generator';
import { sampleIntFromTo, sampleRandomFull, sampleTransformed } from '../random/distributions';
import type { Tensor } from '../tensor/tensor';
import { copy_ } from './copy';
import { front, overloadedFront } from './front';
import { torchTypeName } from './meta-utils';
import { drawnOnDevice } from './random-impls';
import { writeDrawn } from './random-extra';

const METHOD = { namespaces: [] } as const;

/** PyTorch's dispatch error for a sampler its kernel does not take `dtype` for. */
function checkFloating(op: string, self: Tensor): void {
  if (!isFloatingType(self.dtype)) throw new DTypeError(`${op}: "${op}cpu" not implemented for '${torchTypeName(self.dtype)}'`);
}

/**
 * A device draw of `fill` transformed by `f` and written into `self`; false where the
 * backend draws on the host (the CPU), so the caller samples PyTorch's values there.
 */
function onDevice(op: string, self: Tensor, fill: Parameters<typeof drawnOnDevice>[4], gen: Generator, f: (u: Tensor) => Tensor): boolean {
  const dtype: DType = fill.kind === 'randint' ? self.dtype : isFloatingType(self.dtype) ? self.dtype : 'float32';
  const u = drawnOnDevice(op, self.shape, dtype, self.device, fill, gen);
  if (!u) return false;
  try {
    const v = f(u);
    try {
      copy_(self, v);
    } finally {
      if (v !== u) v.dispose();
    }
  } finally {
    u.dispose();
  }
  return true;
}

const UNIT = { kind: 'uniform', from: 0, to: 1 } as const;

/** `x.exponential_(lambd=1)`: Exp(lambd) samples, `-log(1 - u) / lambd`. */
export const exponential_ = front('exponential_(Tensor self, float lambd=1, *, Generator? generator=None) -> Tensor', METHOD).run(([self, lambd, generator]): Tensor => {
  const op = 'exponential_';
  if (!(lambd >= 0)) throw new TorchError(`${op} expects lambda >= 0.0, but found lambda=${lambd}`);
  checkFloating(op, self);
  if (self.device.type === 'meta') return self;
  const gen = generator ?? defaultGenerator;
  if (onDevice(op, self, UNIT, gen, (u) => u.neg().log1p_().mul_(-1 / lambd))) return self;
  return writeDrawn(op, self, sampleTransformed(gen, self.numel(), 'exponential', lambd, 0));
});

/** `x.cauchy_(median=0, sigma=1)`: Cauchy samples, `median + sigma * tan(pi * (u - 0.5))`. */
export const cauchy_ = front('cauchy_(Tensor self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor', METHOD).run(
  ([self, median, sigma, generator]): Tensor => {
    const op = 'cauchy_';
    checkFloating(op, self);
    if (self.device.type === 'meta') return self;
    const gen = generator ?? defaultGenerator;
    if (onDevice(op, self, UNIT, gen, (u) => u.sub(0.5).mul_(Math.PI).tan_().mul_(sigma).add_(median))) return self;
    return writeDrawn(op, self, sampleTransformed(gen, self.numel(), 'cauchy', median, sigma));
  },
);

/** `x.logNormal_(mean=1, std=2)`: `exp` of normal(mean, std) samples. */
export const logNormal_ = front('log_normal_(Tensor self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor', METHOD).run(
  ([self, mean, std, generator]): Tensor => {
    const op = 'log_normal_';
    if (!(std > 0)) throw new TorchError(`${op} expects std > 0.0, but found std=${std}`);
    checkFloating(op, self);
    if (self.device.type === 'meta') return self;
    const gen = generator ?? defaultGenerator;
    if (onDevice(op, self, { kind: 'normal', mean, std }, gen, (z) => z.exp())) return self;
    return writeDrawn(op, self, sampleTransformed(gen, self.numel(), 'logNormal', mean, std));
  },
);

/** `x.geometric_(p)`: the number of Bernoulli(p) trials to the first success, `ceil(log(u) / log1p(-p))`; any dtype. */
export const geometric_ = front('geometric_(Tensor self, float p, *, Generator? generator=None) -> Tensor', METHOD).run(([self, p, generator]): Tensor => {
  const op = 'geometric_';
  if (!(p > 0 && p < 1)) throw new TorchError(`${op} expects p to be in (0, 1), but got p=${p}`);
  if (self.dtype === 'bool') throw new DTypeError(`${op}: "geometric_cpu" not implemented for 'Bool'`);
  if (self.device.type === 'meta') return self;
  const gen = generator ?? defaultGenerator;
  if (onDevice(op, self, UNIT, gen, (u) => u.log().div_(Math.log1p(-p)).ceil_())) return self;
  return writeDrawn(op, self, sampleTransformed(gen, self.numel(), 'geometric', p, 0));
});

/** The integers a dtype holds exactly (PyTorch's bounds for random_'s from and to). */
function intRange(dtype: DType): [bigint, bigint] {
  switch (dtype) {
    case 'bool':
      return [0n, 1n];
    case 'uint8':
      return [0n, 255n];
    case 'int8':
      return [-128n, 127n];
    case 'int16':
      return [-(1n << 15n), (1n << 15n) - 1n];
    case 'int32':
      return [-(1n << 31n), (1n << 31n) - 1n];
    case 'int64':
      return [-(1n << 63n), (1n << 63n) - 1n];
    case 'float16':
      return [-(1n << 11n), 1n << 11n];
    case 'bfloat16':
      return [-(1n << 8n), 1n << 8n];
    case 'float32':
      return [-(1n << 24n), 1n << 24n];
    default:
      return [-(1n << 53n), 1n << 53n];
  }
}

const TYPE_WORDS: Partial<Record<DType, string>> = { uint8: 'unsigned char', int8: 'signed char', int16: 'short', int32: 'int', int64: 'long', float32: 'float', float64: 'double', float16: 'c10::Half', bfloat16: 'c10::BFloat16', bool: 'bool' };

/**
 * `x.random_()`, `x.random_(to)`, `x.random_(from, to)`: integers uniform on [from, to)
 * (PyTorch's `uniform_int_from_to`: a 64-bit draw for a range of 2^32 or more in int64 and
 * the wide floating dtypes), or without bounds on [0, the dtype's largest whole number].
 */
export const random_ = overloadedFront(
  [
    'random_(Tensor self, *, Generator? generator=None) -> Tensor',
    'random_(Tensor self, int to, *, Generator? generator=None) -> Tensor',
    'random_(Tensor self, int from, int? to, *, Generator? generator=None) -> Tensor',
  ],
  METHOD,
).run((call): Tensor => {
  const op = 'random_';
  const self = call.values[0] as Tensor;
  if (!TYPE_WORDS[self.dtype]) throw new DTypeError(`${op}: "random_from_to" not implemented for '${torchTypeName(self.dtype)}'`);
  const gen = ((call.index === 0 ? call.values[1] : call.index === 1 ? call.values[2] : call.values[3]) as Generator | null) ?? defaultGenerator;
  if (call.index === 0) {
    if (self.device.type === 'meta') return self;
    const [, hi] = intRange(self.dtype);
    const full = self.dtype === 'int64' ? hi : self.dtype === 'bool' ? 1n : hi;
    if (onDevice(op, self, { kind: 'randint', from: 0n, range: full + 1n }, gen, (r) => r)) return self;
    return writeDrawn(op, self, sampleRandomFull(gen, self.numel(), self.dtype));
  }
  const from = BigInt(call.index === 1 ? 0 : (call.values[1] as number));
  const toArg = call.index === 1 ? (call.values[1] as number) : (call.values[2] as number | null);
  const [lo, hi] = intRange(self.dtype);
  const to = toArg === null ? hi + 1n : BigInt(toArg);
  const words = TYPE_WORDS[self.dtype]!;
  if (from < lo || from > hi) throw new TorchError(`${op}: from is out of bounds for ${words}`);
  if (to - 1n < lo || to - 1n > hi) throw new TorchError(`${op}: to - 1 is out of bounds for ${words}`);
  if (!(from < to)) throw new TorchError(`${op} expects 'from' to be less than 'to', but got from=${from} >= to=${to}`);
  if (self.device.type === 'meta') return self;
  const range = to - from;
  if (onDevice(op, self, { kind: 'randint', from, range }, gen, (r) => r)) return self;
  return writeDrawn(op, self, sampleIntFromTo(gen, self.numel(), self.dtype, from, range));
});
