/**
 * `torch.utils.data`: `Dataset`, `TensorDataset`, `DataLoader` (batching, shuffling with a
 * generator, `dropLast`, sync and async iteration) and `defaultCollate`.
 *
 * Note [DataLoader shuffle order]
 * With `shuffle`, the order equals PyTorch's for the same generator state: starting an
 * epoch first draws the loader's base seed (one int64 `random_()`, i.e. one `random64()`
 * of the generator, as `_BaseDataLoaderIter` does), then `RandomSampler` draws
 * `randperm(n, generator)`; without a generator both come from the default generator,
 * the sampler first seeding a fresh Generator from another int64 draw.
 */
import { Generator, TorchTypeError, defaultGenerator, makeBinder, randperm, stack, tensor, typeName, Tensor, TorchError } from '@torch-ts/core';
import { givenNull, initBinder } from '../nn/init-args';

/** A map-style dataset: `getItem(i)` for `0 <= i < length` (`__getitem__`, `__len__`). */
export abstract class Dataset<T = unknown> {
  abstract getItem(index: number): T | Promise<T>;
  abstract get length(): number;
}

/** Samples are the `index`-th slices (views) of each tensor. */
export class TensorDataset extends Dataset<Tensor[]> {
  readonly tensors: Tensor[];

  constructor(...tensors: Tensor[]) {
    super();
    if (tensors.length === 0) throw new TorchError('TensorDataset: expected at least one tensor');
    const n = tensors[0].dim() === 0 ? -1 : tensors[0].size(0);
    for (const t of tensors) {
      if (!(t instanceof Tensor)) throw new TorchError('TensorDataset: every argument must be a Tensor');
      if (t.dim() === 0 || t.size(0) !== n) throw new TorchError('Size mismatch between tensors');
    }
    this.tensors = tensors;
  }

  getItem(index: number): Tensor[] {
    if (!Number.isInteger(index) || index < -this.length || index >= this.length) {
      throw new TorchError(`TensorDataset: index ${index} is out of range for a dataset of ${this.length} samples`);
    }
    return this.tensors.map((t) => t.select(0, index));
  }

  get length(): number {
    return this.tensors[0].size(0);
  }
}

/**
 * PyTorch's `default_collate`: tensors are stacked on a new first dim; numbers become a
 * tensor (int64 for integers, float64 otherwise, as Python ints/floats do); arrays (tuples)
 * and plain objects are collated field by field; strings are kept as a list.
 */
export function defaultCollate(batch: unknown[]): unknown {
  if (batch.length === 0) throw new TorchError('defaultCollate: empty batch');
  const elem = batch[0];
  if (elem instanceof Tensor) {
    if (!batch.every(isTensor)) throw new TorchTypeError(`defaultCollate: the batch starts with a Tensor, but element ${batch.findIndex((b) => !isTensor(b))} is ${typeName(batch.find((b) => !isTensor(b)))}`);
    return stack(batch, 0);
  }
  if (typeof elem === 'number' || typeof elem === 'bigint' || typeof elem === 'boolean') {
    // (a mix of numbers, bigints and bools is one tensor, as `tensor()` makes it)
    if (!batch.every(isScalar)) throw new TorchError(`defaultCollate: the batch starts with a ${typeof elem}, but element ${batch.findIndex((b) => !isScalar(b))} is ${typeName(batch.find((b) => !isScalar(b)))}`);
    if (typeof elem === 'bigint') return tensor(batch, { dtype: 'int64' });
    if (typeof elem === 'boolean') return tensor(batch);
    const allInt = batch.every((v) => typeof v === 'number' && Number.isInteger(v));
    return tensor(batch, { dtype: allInt ? 'int64' : 'float64' });
  }
  if (typeof elem === 'string') return batch;
  if (Array.isArray(elem)) {
    const n = elem.length;
    const rows: unknown[][] = [];
    for (const b of batch) {
      if (!Array.isArray(b) || b.length !== n) throw new TorchError('defaultCollate: each element in list of batch should be of equal size');
      rows.push(b);
    }
    return elem.map((_, i) => defaultCollate(rows.map((b) => b[i])));
  }
  if (elem instanceof Map) {
    const maps: Map<unknown, unknown>[] = [];
    for (const b of batch) {
      if (!(b instanceof Map)) throw new TorchError(`defaultCollate: the batch starts with a Map, but holds ${typeName(b)}`);
      maps.push(b);
    }
    return new Map([...elem.keys()].map((k) => [k, defaultCollate(maps.map((b) => b.get(k)))]));
  }
  if (elem !== null && typeof elem === 'object') {
    const objects: Readonly<Record<string, unknown>>[] = [];
    for (const b of batch) {
      if (!isObject(b)) throw new TorchError(`defaultCollate: the batch starts with an object, but holds ${typeName(b)}`);
      objects.push(b);
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(elem)) out[k] = defaultCollate(objects.map((b) => b[k]));
    return out;
  }
  throw new TorchError(`defaultCollate: batch must contain tensors, numbers, strings, arrays or objects; found ${elem === null ? 'null' : typeof elem}`);
}

const isTensor = (x: unknown): x is Tensor => x instanceof Tensor;
const isScalar = (x: unknown): x is number | bigint | boolean => typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean';
const isObject = (x: unknown): x is Readonly<Record<string, unknown>> => typeof x === 'object' && x !== null;
// (a collate function's batch type is the caller's word: nothing at run time can check it)
const isCollate = <T, B>(f: unknown): f is (batch: T[]) => B => typeof f === 'function';

export interface DataLoaderOptions<T, B> {
  batchSize?: number | null;
  shuffle?: boolean | null;
  collateFn?: ((batch: T[]) => B) | null;
  dropLast?: boolean;
  generator?: Generator | null;
}

/**
 * Note [DataLoader binds its arguments]
 * `new DataLoader(dataset, 4, true)` and `new DataLoader(dataset, { batchSize: 4, shuffle: true })`
 * are one loader: the constructor binds PyTorch's `__init__` (Note [Module constructors bind
 * their arguments]), so a misspelled keyword (`batchSze`) raises instead of leaving batches
 * of one, and what torch-ts has not built (samplers, worker processes, pinned memory) raises
 * NotImplementedError unless it is given its default. Its TypeScript signature is written (the
 * dataset and `collate_fn` are generic), the arguments PyTorch passes positionally first.
 */
const dataLoaderArgs = initBinder(
  'DataLoader',
  "Any dataset, int? batch_size=1, bool? shuffle=None, Any sampler=None, Any batch_sampler=None, int num_workers=0, Any collate_fn=None, bool pin_memory=False, bool drop_last=False, float timeout=0, Any worker_init_fn=None, Any multiprocessing_context=None, Generator? generator=None, *, int prefetch_factor=2, bool persistent_workers=False, str pin_memory_device=''",
  ['sampler', 'batchSampler', 'numWorkers', 'pinMemory', 'timeout', 'workerInitFn', 'multiprocessingContext', 'prefetchFactor', 'persistentWorkers', 'pinMemoryDevice'],
);

const INT64_MASK = (1n << 63n) - 1n;

/** Batches of a dataset, in order or shuffled; `for (const b of loader)` or `for await (...)`. */
export class DataLoader<T = unknown, B = any> {
  readonly dataset: Dataset<T>;
  readonly batchSize: number | null;
  readonly shuffle: boolean;
  readonly generator: Generator | null;
  readonly dropLast: boolean;
  readonly collateFn: (batch: T[]) => B;

  constructor(dataset: Dataset<T>, options?: DataLoaderOptions<T, B>);
  constructor(dataset: Dataset<T>, batchSize: number | null, options?: Omit<DataLoaderOptions<T, B>, 'batchSize'>);
  constructor(dataset: Dataset<T>, batchSize: number | null, shuffle: boolean | null, options?: Omit<DataLoaderOptions<T, B>, 'batchSize' | 'shuffle'>);
  constructor(dataset: Dataset<T>, ...args: unknown[]) {
    if (!(dataset instanceof Dataset)) throw new TorchTypeError(`DataLoader.__init__(): argument 'dataset' must be a Dataset, not ${typeName(dataset)}`);
    const [, batchSize, shuffle, , , , collateFn, , dropLast, , , , generator] = dataLoaderArgs.bind([dataset, ...args]);
    this.dataset = dataset;
    // (None is "no batching" here, not the default 1: Note [Module constructors bind their arguments])
    this.batchSize = givenNull([dataset, ...args], 1, 'batchSize') ? null : (batchSize ?? 1);
    if (this.batchSize !== null && this.batchSize <= 0) {
      throw new TorchError(`batch_size should be a positive integer value, but got batch_size=${this.batchSize}`);
    }
    this.shuffle = shuffle ?? false;
    this.generator = generator ?? null;
    this.dropLast = dropLast;
    if (this.batchSize === null && this.dropLast) throw new TorchError('batch_size=None option disables auto-batching and is mutually exclusive with drop_last');
    if (collateFn !== undefined && typeof collateFn !== 'function') throw new TorchTypeError(`DataLoader.__init__(): argument 'collateFn' must be a function, not ${typeName(collateFn)}`);
    // (without a collateFn the batch type `B` is what the caller names it, `any` by default:
    // defaultCollate's result depends on the samples' run-time shape)
    this.collateFn = isCollate<T, B>(collateFn) ? collateFn : (defaultCollate as (b: T[]) => B);
  }

  /** Batches per epoch (`len(loader)`). */
  get length(): number {
    const n = this.dataset.length;
    if (this.batchSize === null) return n;
    return this.dropLast ? Math.floor(n / this.batchSize) : Math.ceil(n / this.batchSize);
  }

  /**
   * The sample order of one epoch (Note [DataLoader shuffle order]), and what runs when
   * the epoch is exhausted: PyTorch's RandomSampler then draws one more (empty-sliced)
   * `randperm(n)` from its generator, which moves a user's generator on.
   */
  private epochOrder(): [number[], () => void] {
    const n = this.dataset.length;
    const gen = this.generator ?? defaultGenerator;
    gen.random64(); // the iterator's base seed
    if (!this.shuffle) return [Array.from({ length: n }, (_, i) => i), () => {}];
    let g = this.generator;
    if (g === null) g = new Generator().manualSeed(defaultGenerator.random64() & INT64_MASK);
    const draw = () => {
      const perm = randperm(n, { generator: g });
      const order = Array.from(perm.dataSync(), Number);
      perm.dispose();
      return order;
    };
    return [draw(), () => void draw()];
  }

  private *batchesOfIndices(): Generator_<number[]> {
    const [order, exhausted] = this.epochOrder();
    if (this.batchSize === null) {
      for (const i of order) yield [i];
      exhausted();
      return;
    }
    for (let s = 0; s < order.length; s += this.batchSize) {
      const idx = order.slice(s, s + this.batchSize);
      if (idx.length < this.batchSize) {
        exhausted();
        if (this.dropLast) return;
        yield idx;
        return;
      }
      yield idx;
    }
    exhausted();
  }

  private make(samples: T[]): B {
    if (this.batchSize !== null) return this.collateFn(samples);
    // (without batching a sample is its own batch: `B` is the sample type, which the types
    // cannot say, as PyTorch's `batch_size=None` yields samples)
    const sample: unknown = samples[0];
    return sample as B;
  }

  *[Symbol.iterator](): Iterator<B> {
    for (const idx of this.batchesOfIndices()) {
      const items = idx.map((i) => this.dataset.getItem(i));
      const samples: T[] = [];
      for (const s of items) {
        if (s instanceof Promise) throw new TorchError('DataLoader: the dataset returns promises; iterate with `for await`');
        samples.push(s);
      }
      yield this.make(samples);
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<B> {
    for (const idx of this.batchesOfIndices()) {
      const samples = await Promise.all(idx.map((i) => this.dataset.getItem(i)));
      yield this.make(samples);
      // Let other work (timers, I/O, a progress bar) run between batches.
      await new Promise<void>((r) => setTimeout(r, 0));
    }
  }
}

/** The samples of `dataset` at `indices`, in that order. */
export class Subset<T = unknown> extends Dataset<T> {
  constructor(
    readonly dataset: Dataset<T>,
    readonly indices: readonly number[],
  ) {
    super();
  }

  getItem(index: number): T | Promise<T> {
    const i = index < 0 ? index + this.indices.length : index;
    if (!Number.isInteger(i) || i < 0 || i >= this.indices.length) {
      throw new TorchError(`Subset: index ${index} is out of range for a subset of ${this.indices.length} samples`);
    }
    return this.dataset.getItem(this.indices[i]);
  }

  get length(): number {
    return this.indices.length;
  }
}

const randomSplitArgs = makeBinder('random_split', 'random_split(Any dataset, float[] lengths, Generator? generator=None) -> ()');

/**
 * `random_split`: non-overlapping random subsets of the given lengths, or of fractions
 * summing to 1 (the remainder spread round-robin), drawn with `randperm(n, generator)`
 * exactly as PyTorch does, so the split is PyTorch's for the same generator state.
 */
export function randomSplit<T>(dataset: Dataset<T>, lengths: readonly number[], generator?: Generator | null): Subset<T>[];
export function randomSplit<T>(dataset: Dataset<T>, lengths: readonly number[], options?: { generator?: Generator | null }): Subset<T>[];
export function randomSplit<T>(dataset: Dataset<T>, ...args: unknown[]): Subset<T>[] {
  const [, lengths, generator] = randomSplitArgs.bind([dataset, ...args]);
  const options = { generator };
  const n = dataset.length;
  let lens = [...lengths];
  const total = lens.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) <= 1e-9 && total <= 1 && lens.some((l) => !Number.isInteger(l))) {
    for (const f of lens) if (f < 0 || f > 1) throw new TorchError(`randomSplit: Fraction at index ${lens.indexOf(f)} is not between 0 and 1`);
    lens = lens.map((f) => Math.floor(n * f));
    const remainder = n - lens.reduce((a, b) => a + b, 0);
    for (let i = 0; i < remainder; i++) lens[i % lens.length] += 1;
  }
  if (lens.reduce((a, b) => a + b, 0) !== n) throw new TorchError('randomSplit: Sum of input lengths does not equal the length of the input dataset!');
  const perm = randperm(n, { generator: options.generator ?? defaultGenerator });
  const idx = Array.from(perm.dataSync(), Number);
  perm.dispose();
  let off = 0;
  return lens.map((l) => {
    const s = new Subset(dataset, idx.slice(off, off + l));
    off += l;
    return s;
  });
}

type Generator_<T> = globalThis.Generator<T, void, unknown>;
