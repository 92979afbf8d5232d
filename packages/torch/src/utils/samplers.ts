/**
 * `torch.utils.data` samplers: `Sampler`, `SequentialSampler`, `RandomSampler`,
 * `SubsetRandomSampler`, `WeightedRandomSampler`, `BatchSampler`.
 *
 * Note [Samplers draw as PyTorch's generators do]
 * Each sampler's `[Symbol.iterator]` is a generator function written line for line after
 * PyTorch 1.13's `__iter__` (itself a Python generator), so the draws happen at the same
 * moments: nothing is drawn until the first index is asked for, a RandomSampler without a
 * generator seeds a fresh Generator from one int64 draw of the default generator, and the
 * trailing `randperm(n)[:num_samples % n]` (or `randint(size=(num_samples % 32,))`) is drawn
 * when the last index has been taken and the next is asked for. The index orders are
 * therefore PyTorch's for the same seed or generator state, epoch after epoch.
 */
import { Generator, TorchTypeError, ValueError, defaultGenerator, multinomial, randint, randperm, tensor, typeName, Tensor } from '@torch-ts/core';

/** Something with a length, as PyTorch's samplers take `data_source` (a Dataset, an array). */
export interface Sized {
  readonly length: number;
}

/** Indices (or batches of indices) to draw from a dataset: `__iter__`, and `__len__` where known. */
export abstract class Sampler<T = number> implements Iterable<T> {
  abstract [Symbol.iterator](): Iterator<T>;
  abstract get length(): number;
}

const INT64_MASK = (1n << 63n) - 1n;

function drawList(t: Tensor): number[] {
  const out = Array.from(t.dataSync(), Number);
  t.dispose();
  return out;
}

function checkGenerator(cls: string, g: unknown): Generator | null {
  if (g === undefined || g === null) return null;
  if (!(g instanceof Generator)) throw new TorchTypeError(`${cls}: generator must be a torch.Generator, not ${typeName(g)}`);
  return g;
}

function checkCount(cls: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) {
    throw new ValueError(`${cls}: ${name} should be a positive integer value, but got ${name}=${String(v)}`);
  }
  return v;
}

/** `0, 1, ..., n-1`. */
export class SequentialSampler extends Sampler<number> {
  constructor(readonly dataSource: Sized) {
    super();
  }

  *[Symbol.iterator](): Iterator<number> {
    const n = this.dataSource.length;
    for (let i = 0; i < n; i++) yield i;
  }

  get length(): number {
    return this.dataSource.length;
  }
}

export interface RandomSamplerOptions {
  replacement?: boolean;
  numSamples?: number | null;
  generator?: Generator | null;
}

/**
 * A random permutation of `0..n-1` (or `numSamples` indices: whole permutations then a
 * prefix of one), or with `replacement`, `numSamples` uniform draws in chunks of 32
 * (Note [Samplers draw as PyTorch's generators do]).
 */
export class RandomSampler extends Sampler<number> {
  readonly replacement: boolean;
  readonly generator: Generator | null;
  private readonly numSamples_: number | null;

  constructor(
    readonly dataSource: Sized,
    options: RandomSamplerOptions = {},
  ) {
    super();
    const { replacement = false, numSamples = null, generator = null } = options;
    if (typeof replacement !== 'boolean') throw new TorchTypeError(`RandomSampler: replacement should be a boolean value, but got replacement=${String(replacement)}`);
    this.replacement = replacement;
    this.numSamples_ = numSamples;
    this.generator = checkGenerator('RandomSampler', generator);
    checkCount('RandomSampler', 'num_samples', this.numSamples);
  }

  /** `numSamples` if given, else the dataset's length (read at each epoch, as PyTorch does). */
  get numSamples(): number {
    return this.numSamples_ ?? this.dataSource.length;
  }

  *[Symbol.iterator](): Iterator<number> {
    const n = this.dataSource.length;
    const generator = this.generator ?? new Generator().manualSeed(defaultGenerator.random64() & INT64_MASK);
    const m = this.numSamples;
    if (this.replacement) {
      for (let c = 0; c < Math.floor(m / 32); c++) yield* drawList(randint(n, [32], { dtype: 'int64', generator }));
      yield* drawList(randint(n, [m % 32], { dtype: 'int64', generator }));
    } else {
      for (let c = 0; c < Math.floor(m / n); c++) yield* drawList(randperm(n, { generator }));
      yield* drawList(randperm(n, { generator })).slice(0, m % n);
    }
  }

  get length(): number {
    return this.numSamples;
  }
}

/** The given indices in a random order (`randperm(len(indices), generator)`). */
export class SubsetRandomSampler extends Sampler<number> {
  readonly generator: Generator | null;

  constructor(
    readonly indices: readonly number[],
    generator: Generator | null = null,
  ) {
    super();
    this.generator = checkGenerator('SubsetRandomSampler', generator);
  }

  *[Symbol.iterator](): Iterator<number> {
    // (PyTorch passes `generator=None` to randperm: the default generator, no fresh seed)
    for (const i of drawList(randperm(this.indices.length, { generator: this.generator ?? defaultGenerator }))) yield this.indices[i];
  }

  get length(): number {
    return this.indices.length;
  }
}

/** `numSamples` indices drawn with probabilities proportional to `weights` (`torch.multinomial`). */
export class WeightedRandomSampler extends Sampler<number> {
  readonly weights: Tensor;
  readonly numSamples: number;
  readonly replacement: boolean;
  readonly generator: Generator | null;

  constructor(weights: readonly number[] | Tensor, numSamples: number, replacement = true, generator: Generator | null = null) {
    super();
    this.numSamples = checkCount('WeightedRandomSampler', 'num_samples', numSamples);
    if (typeof replacement !== 'boolean') throw new TorchTypeError(`WeightedRandomSampler: replacement should be a boolean value, but got replacement=${String(replacement)}`);
    const w = weights instanceof Tensor ? weights.to('float64') : tensor([...weights], { dtype: 'float64' });
    if (w.dim() !== 1) throw new ValueError(`WeightedRandomSampler: weights should be a 1d sequence but given weights have shape [${w.shape.join(', ')}]`);
    this.weights = w;
    this.replacement = replacement;
    this.generator = checkGenerator('WeightedRandomSampler', generator);
  }

  *[Symbol.iterator](): Iterator<number> {
    yield* drawList(multinomial(this.weights, this.numSamples, this.replacement, { generator: this.generator ?? defaultGenerator }));
  }

  get length(): number {
    return this.numSamples;
  }
}

/** Batches of `batchSize` indices from `sampler`; the last short batch kept unless `dropLast`. */
export class BatchSampler extends Sampler<number[]> {
  readonly batchSize: number;

  constructor(
    readonly sampler: Iterable<number> & Partial<Sized>,
    batchSize: number,
    readonly dropLast: boolean,
  ) {
    super();
    this.batchSize = checkCount('BatchSampler', 'batch_size', batchSize);
    if (typeof dropLast !== 'boolean') throw new ValueError(`BatchSampler: drop_last should be a boolean value, but got drop_last=${String(dropLast)}`);
  }

  *[Symbol.iterator](): Iterator<number[]> {
    // (the two loops of PyTorch 1.13: with dropLast the sampler is asked past its end, which
    // is when a RandomSampler draws its trailing permutation)
    if (this.dropLast) {
      const it = this.sampler[Symbol.iterator]();
      for (;;) {
        const batch: number[] = [];
        for (let k = 0; k < this.batchSize; k++) {
          const r = it.next();
          if (r.done) return;
          batch.push(r.value);
        }
        yield batch;
      }
    }
    let batch: number[] = [];
    for (const idx of this.sampler) {
      batch.push(idx);
      if (batch.length === this.batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  get length(): number {
    const n = this.sampler.length;
    if (n === undefined) throw new TorchTypeError("BatchSampler: object of type 'sampler' has no len()");
    return this.dropLast ? Math.floor(n / this.batchSize) : Math.ceil(n / this.batchSize);
  }
}

/**
 * Throws unless `x` iterates (a sampler given to a DataLoader). What it yields (indices, or
 * batches of them) is the caller's word, as in PyTorch: nothing can check it before iterating.
 */
export function checkIterable<T>(what: string, x: unknown): x is Iterable<T> {
  if (x === null || typeof x !== 'object' || typeof Reflect.get(x, Symbol.iterator) !== 'function') {
    throw new TorchTypeError(`DataLoader.__init__(): argument '${what}' must be an iterable of indices, not ${typeName(x)}`);
  }
  return true;
}
