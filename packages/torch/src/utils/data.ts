/**
 * `torch.utils.data`: `Dataset`, `IterableDataset`, `TensorDataset`, `ConcatDataset`,
 * `ChainDataset`, `Subset`, `randomSplit`, the samplers (samplers.ts), `DataLoader` (batching,
 * shuffling with a generator, samplers and batch samplers, `dropLast`, sync and async
 * iteration, workers: Note [DataLoader workers]), `getWorkerInfo` and `defaultCollate`.
 *
 * Note [DataLoader shuffle order]
 * With `shuffle`, the order equals PyTorch's for the same generator state: starting an
 * epoch first draws the loader's base seed (one int64 `random_()`, i.e. one `random64()`
 * of the generator, as `_BaseDataLoaderIter` does), then `RandomSampler` draws
 * `randperm(n, generator)`; without a generator both come from the default generator,
 * the sampler first seeding a fresh Generator from another int64 draw.
 */
import { Generator, IndexError, TorchTypeError, ValueError, defaultGenerator, makeBinder, randperm, stack, tensor, typeName, Tensor, TorchError } from '@torch-ts/core';
import { givenNull, initBinder } from '../nn/init-args';
import { BatchSampler, RandomSampler, SequentialSampler, checkIterable } from './samplers';
import type { WorkerSpec } from './data-transfer';
import { END as END_OF_EPOCH, currentWorkerInfo, registerWorkerLoop } from './data-worker';
import { WorkerEpoch, WorkerPool, drawBaseSeed, dropped, nodeWorkerThreads, type WorkerLoaderParams } from './data-workers';

export type { WorkerSpec } from './data-transfer';

export { Sampler, SequentialSampler, RandomSampler, SubsetRandomSampler, WeightedRandomSampler, BatchSampler, type RandomSamplerOptions, type Sized } from './samplers';

/**
 * A map-style dataset: `getItem(i)` for `0 <= i < length` (`__getitem__`, `__len__`). A
 * dataset that DataLoader worker threads load defines `workerSpec(): WorkerSpec`, how a
 * worker rebuilds it (Note [DataLoader workers]); so does an IterableDataset.
 */
export abstract class Dataset<T = unknown> {
  abstract getItem(index: number): T | Promise<T>;
  abstract get length(): number;
}

/**
 * An iterable-style dataset (`IterableDataset`): a stream of samples, `[Symbol.iterator]`.
 * A DataLoader batches it as it comes (no sampler, no shuffle). A subclass may define
 * `length` for `len(loader)`.
 */
export abstract class IterableDataset<T = unknown> implements Iterable<T> {
  abstract [Symbol.iterator](): Iterator<T>;
}

/**
 * The concatenation of map-style datasets (`ConcatDataset`): index `i` is found by
 * bisecting `cumulativeSizes`, negative indices count from the end, as in PyTorch.
 */
export class ConcatDataset<T = unknown> extends Dataset<T> {
  readonly datasets: readonly Dataset<T>[];
  readonly cumulativeSizes: readonly number[];

  constructor(datasets: Iterable<Dataset<T>>) {
    super();
    this.datasets = [...datasets];
    if (this.datasets.length === 0) throw new TorchError('ConcatDataset: datasets should not be an empty iterable');
    const sizes: number[] = [];
    let total = 0;
    for (const d of this.datasets) {
      if (d instanceof IterableDataset || !(d instanceof Dataset)) throw new TorchError(`ConcatDataset: does not support IterableDataset, got ${typeName(d)}`);
      total += d.length;
      sizes.push(total);
    }
    this.cumulativeSizes = sizes;
  }

  /** How a DataLoader worker rebuilds it (Note [DataLoader workers]): each dataset by its own spec. */
  workerSpec(): WorkerSpec {
    return { name: 'ConcatDataset', args: [this.datasets] };
  }

  get length(): number {
    return this.cumulativeSizes[this.cumulativeSizes.length - 1];
  }

  getItem(index: number): T | Promise<T> {
    let i = index;
    if (i < 0) {
      if (-i > this.length) throw new ValueError(`ConcatDataset: absolute value of index ${index} should not exceed dataset length ${this.length}`);
      i += this.length;
    }
    if (!Number.isInteger(i) || i >= this.length) throw new IndexError(`ConcatDataset: index ${index} is out of range for a dataset of ${this.length} samples`);
    // (bisect_right: the first dataset whose cumulative size exceeds i, skipping empty ones)
    let lo = 0;
    let hi = this.cumulativeSizes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (i < this.cumulativeSizes[mid]) hi = mid;
      else lo = mid + 1;
    }
    const sample = lo === 0 ? i : i - this.cumulativeSizes[lo - 1];
    return this.datasets[lo].getItem(sample);
  }
}

/** The streams of several IterableDatasets one after another (`ChainDataset`). */
export class ChainDataset<T = unknown> extends IterableDataset<T> {
  readonly datasets: readonly Iterable<T>[];

  constructor(datasets: Iterable<IterableDataset<T>>) {
    super();
    this.datasets = [...datasets];
  }

  workerSpec(): WorkerSpec {
    return { name: 'ChainDataset', args: [this.datasets] };
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const d of this.datasets) {
      if (!(d instanceof IterableDataset)) throw new TorchError(`ChainDataset only supports IterableDataset, got ${typeName(d)}`);
      yield* d;
    }
  }

  /** The sum of the datasets' lengths; a TypeError if one has none. */
  get length(): number {
    let total = 0;
    for (const d of this.datasets) {
      const n: unknown = Reflect.get(d, 'length');
      if (typeof n !== 'number') throw new TorchTypeError(`ChainDataset: object of type '${typeName(d)}' has no len()`);
      total += n;
    }
    return total;
  }
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

  /** A worker gets copies of the tensors (their bytes: Note [Tensors cross to the main thread as bytes]). */
  workerSpec(): WorkerSpec {
    return { name: 'TensorDataset', args: this.tensors };
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
  sampler?: Iterable<number> | null;
  batchSampler?: Iterable<number[]> | null;
  /** Worker threads that load batches ahead (Note [DataLoader workers]); 0 loads in the caller. */
  numWorkers?: number;
  collateFn?: ((batch: T[]) => B) | null;
  /** Accepted and a no-op: CPU tensors live in WebAssembly or JS memory, nothing to pin. */
  pinMemory?: boolean;
  dropLast?: boolean;
  /** Seconds to wait for a worker's batch (0: no limit); a longer wait raises. */
  timeout?: number;
  /**
   * Called in each worker with its id before it loads; never called with `numWorkers: 0`, as in
   * PyTorch. A worker thread finds it by its `workerSpec` ({ module, name }).
   */
  workerInitFn?: ((workerId: number) => void) | null;
  /**
   * How workers run: 'spawn' (worker threads, each rebuilding the dataset from its
   * `workerSpec()`, as PyTorch's spawned workers unpickle theirs; the default in Node) or
   * 'inprocess' (simulated in this thread: Note [In-process DataLoader workers]; the default
   * where there are no worker threads).
   */
  multiprocessingContext?: 'spawn' | 'inprocess' | null;
  generator?: Generator | null;
  /** Batches loaded ahead per worker (default 2); only with workers. */
  prefetchFactor?: number;
  /** Keep the workers (and their datasets) from one epoch to the next. */
  persistentWorkers?: boolean;
}

/**
 * Note [DataLoader binds its arguments]
 * `new DataLoader(dataset, 4, true)` and `new DataLoader(dataset, { batchSize: 4, shuffle: true })`
 * are one loader: the constructor binds PyTorch's `__init__` (Note [Module constructors bind
 * their arguments]), so a misspelled keyword (`batchSze`) raises instead of leaving batches
 * of one, and the option checks are PyTorch 1.13's (ValueError for a sampler with shuffle, a
 * batch sampler with batch options, an IterableDataset with any sampling option, ...). What
 * torch-ts has not built (a pin-memory device) raises NotImplementedError unless it is given
 * its default. Its TypeScript signature is
 * written (the dataset and `collate_fn` are generic), the arguments PyTorch passes
 * positionally first.
 *
 * Note [DataLoader workers]
 * `numWorkers: n > 0` loads batches in n workers, as PyTorch's multi-process loader does
 * (data-workers.ts, the main-thread side; data-worker.ts, the worker's): the iterator draws
 * the base seed (one int64 of the loader's generator, after making the sampler's iterator),
 * worker k seeds its default generator with `base_seed + k`, rebuilds the dataset, sets the
 * info `getWorkerInfo()` answers (id, numWorkers, seed, its dataset) and runs
 * `workerInitFn(k)`. Index batches go round-robin to the workers that still have data,
 * `prefetchFactor * numWorkers` (default 2 * n) outstanding, and batches come back in sampler
 * order whichever worker finishes first; so the batches, and the generators' draws inside the
 * workers, are PyTorch 1.13's for the same seed. An IterableDataset is iterated by every
 * worker, each over its own copy: a dataset that does not shard by `getWorkerInfo()` yields
 * its samples n times, as in PyTorch; a worker whose stream ended gets no more tasks.
 * `persistentWorkers` keeps the workers (and their datasets and generators) for the next
 * epoch, which draws no new base seed (PyTorch's `_reset`) and restarts their streams. A
 * worker's error is raised in the main thread when its batch is due, as the same class where
 * torch-ts has it (else TorchError), "Caught X in DataLoader worker process k" and the
 * original stack; `timeout` seconds without a batch raise. The workers stop when the epoch
 * ends, is broken off or throws, or when a dropped iterator is collected; they never keep
 * the process alive (Note [Waiting for a worker without an event loop]).
 *
 * Where the workers run is `multiprocessingContext`:
 * - 'spawn' (Node's default): worker threads. As a spawned PyTorch worker unpickles the
 *   dataset, a thread rebuilds it from the dataset's `workerSpec()` — `{ module, name, args }`:
 *   import `module`, construct (or call, for a factory) its export `name` with `args` —
 *   since JS closures and class instances cannot be cloned into another thread. torch-ts's
 *   own datasets have specs (TensorDataset's tensors cross as bytes, Subset, ConcatDataset
 *   and ChainDataset as specs of their datasets); a dataset of one's own names the module
 *   that exports it (`import.meta.url`), which the worker imports and which imports
 *   @torch-ts/torch there. Where no spec names a module, the worker loads the
 *   @torch-ts/torch that the program resolves (ESM or CommonJS build alike). `workerInitFn`
 *   and a `collateFn` cross as functions with a `workerSpec` property ({ module, name }).
 *   The default collate runs in the worker, as
 *   PyTorch's does, and so does a collateFn with a spec; any other collateFn runs in the main
 *   thread on the samples the worker sends. Batches cross as structured clones, tensors as
 *   their bytes (Note [Tensors cross to the main thread as bytes]). A dataset without a
 *   workerSpec (or a workerInitFn without one) raises a TorchTypeError that says so, as
 *   PyTorch's spawn raises a pickling error.
 * - 'inprocess' (the default without worker threads: a browser, or a Node before 20.16, which
 *   lacks the `process.getBuiltinModule` that lets a `for...of` start threads synchronously;
 *   usable anywhere for a dataset that cannot be sent): the workers are simulated in the calling thread with the
 *   same seeds, worker info, order and errors (Note [In-process DataLoader workers]), so a
 *   program gives the same batches in both; async `getItem`s of prefetched batches overlap.
 * `pinMemory` is accepted and does nothing: there is no pinned host memory to copy through.
 */
const dataLoaderArgs = initBinder(
  'DataLoader',
  "Any dataset, int? batch_size=1, bool? shuffle=None, Any sampler=None, Any batch_sampler=None, int num_workers=0, Any collate_fn=None, bool pin_memory=False, bool drop_last=False, float timeout=0, Any worker_init_fn=None, Any multiprocessing_context=None, Generator? generator=None, *, int? prefetch_factor=None, bool persistent_workers=False, str pin_memory_device=''",
  ['pinMemoryDevice'],
);

/** Batches of a dataset, in order or shuffled; `for (const b of loader)` or `for await (...)`. */
export class DataLoader<T = unknown, B = any> {
  readonly dataset: Dataset<T> | IterableDataset<T>;
  readonly batchSize: number | null;
  readonly shuffle: boolean;
  readonly generator: Generator | null;
  readonly dropLast: boolean;
  readonly collateFn: (batch: T[]) => B;
  /** The index sampler (null for an IterableDataset). */
  readonly sampler: Iterable<number> | null;
  /** The batch sampler: the given one, or a BatchSampler over `sampler` when batching. */
  readonly batchSampler: Iterable<number[]> | null;
  readonly numWorkers: number;
  readonly pinMemory: boolean;
  readonly timeout: number;
  readonly workerInitFn: ((workerId: number) => void) | null;
  readonly prefetchFactor: number | null;
  readonly persistentWorkers: boolean;
  readonly multiprocessingContext: 'spawn' | 'inprocess' | null;
  /** The workers kept across epochs (`persistentWorkers`). */
  private pool: WorkerPool | null = null;

  constructor(dataset: Dataset<T> | IterableDataset<T>, options?: DataLoaderOptions<T, B>);
  constructor(dataset: Dataset<T> | IterableDataset<T>, batchSize: number | null, options?: Omit<DataLoaderOptions<T, B>, 'batchSize'>);
  constructor(dataset: Dataset<T> | IterableDataset<T>, batchSize: number | null, shuffle: boolean | null, options?: Omit<DataLoaderOptions<T, B>, 'batchSize' | 'shuffle'>);
  constructor(dataset: Dataset<T> | IterableDataset<T>, ...args: unknown[]) {
    if (!(dataset instanceof Dataset) && !(dataset instanceof IterableDataset)) throw new TorchTypeError(`DataLoader.__init__(): argument 'dataset' must be a Dataset, not ${typeName(dataset)}`);
    const [, batchSize, shuffle, sampler, batchSampler, numWorkers, collateFn, pinMemory, dropLast, timeout, workerInitFn, context, generator, prefetchArg, persistentWorkers] = dataLoaderArgs.bind([dataset, ...args]);
    this.dataset = dataset;
    // (None is "no batching" here, not the default 1: Note [Module constructors bind their arguments])
    const prefetchFactor = prefetchArg ?? null;
    let bs = givenNull([dataset, ...args], 1, 'batchSize') ? null : (batchSize ?? 1);
    if (bs !== null && bs <= 0) throw new ValueError(`batch_size should be a positive integer value, but got batch_size=${bs}`);
    if (numWorkers < 0) throw new ValueError('num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.');
    if (timeout < 0) throw new ValueError('timeout option should be non-negative');
    if (numWorkers === 0 && prefetchFactor !== null) throw new ValueError('prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable multiprocessing.');
    if (prefetchFactor !== null && prefetchFactor <= 0) throw new ValueError(`prefetch_factor option should be positive, but got prefetch_factor=${prefetchFactor}`);
    if (persistentWorkers && numWorkers === 0) throw new ValueError('persistent_workers option needs num_workers > 0');
    if (workerInitFn !== null && workerInitFn !== undefined && typeof workerInitFn !== 'function') throw new TorchTypeError(`DataLoader.__init__(): argument 'workerInitFn' must be a function, not ${typeName(workerInitFn)}`);
    if (context !== null && context !== undefined) {
      if (numWorkers === 0) throw new ValueError(`multiprocessing_context can only be used with multi-process loading (num_workers > 0), but got num_workers=${numWorkers}`);
      if (context !== 'spawn' && context !== 'inprocess') throw new ValueError(`multiprocessing_context option should specify a valid start method in ['spawn', 'inprocess'], but got multiprocessing_context=${typeof context === 'string' ? `'${context}'` : typeName(context)}`);
    }
    if (dataset instanceof IterableDataset) {
      if (shuffle != null && shuffle !== false) throw new ValueError(`DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=${shuffle}`);
      if (sampler !== null && sampler !== undefined) throw new ValueError(`DataLoader with IterableDataset: expected unspecified sampler option, but got sampler=${typeName(sampler)}`);
      if (batchSampler !== null && batchSampler !== undefined) throw new ValueError(`DataLoader with IterableDataset: expected unspecified batch_sampler option, but got batch_sampler=${typeName(batchSampler)}`);
    }
    const givenSampler = sampler !== null && sampler !== undefined && checkIterable<number>('sampler', sampler) ? sampler : null;
    if (givenSampler !== null && shuffle) throw new ValueError('sampler option is mutually exclusive with shuffle');
    let batches: Iterable<number[]> | null = null;
    let drop = dropLast;
    if (batchSampler !== null && batchSampler !== undefined) {
      if (bs !== 1 || shuffle || givenSampler !== null || dropLast) throw new ValueError('batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last');
      if (checkIterable<number[]>('batchSampler', batchSampler)) batches = batchSampler;
      bs = null;
      drop = false;
    } else if (bs === null && dropLast) {
      throw new ValueError('batch_size=None option disables auto-batching and is mutually exclusive with drop_last');
    }
    this.batchSize = bs;
    this.shuffle = shuffle ?? false;
    this.generator = generator ?? null;
    this.dropLast = drop;
    if (dataset instanceof IterableDataset) this.sampler = null;
    else this.sampler = givenSampler ?? (this.shuffle ? new RandomSampler(dataset, { generator: this.generator }) : new SequentialSampler(dataset));
    if (batches === null && bs !== null && this.sampler !== null) batches = new BatchSampler(this.sampler, bs, drop);
    this.batchSampler = batches;
    this.numWorkers = numWorkers;
    this.pinMemory = pinMemory;
    this.timeout = timeout;
    this.workerInitFn = isWorkerInit(workerInitFn) ? workerInitFn : null;
    this.prefetchFactor = prefetchFactor;
    this.persistentWorkers = persistentWorkers;
    this.multiprocessingContext = context === 'spawn' || context === 'inprocess' ? context : null;
    if (collateFn !== undefined && collateFn !== null && typeof collateFn !== 'function') throw new TorchTypeError(`DataLoader.__init__(): argument 'collateFn' must be a function, not ${typeName(collateFn)}`);
    // (without a collateFn the batch type `B` is what the caller names it, `any` by default:
    // defaultCollate's result depends on the samples' run-time shape)
    this.collateFn = isCollate<T, B>(collateFn) ? collateFn : (defaultCollate as (b: T[]) => B);
  }

  /** Batches per epoch (`len(loader)`); for an IterableDataset, from the dataset's length if it has one. */
  get length(): number {
    const lengthOf = (x: unknown, what: string): number => {
      const n: unknown = x === null || typeof x !== 'object' ? undefined : Reflect.get(x, 'length');
      if (typeof n !== 'number') throw new TorchTypeError(`DataLoader: object of type '${what}' has no len()`);
      return n;
    };
    if (this.dataset instanceof IterableDataset) {
      const n = lengthOf(this.dataset, this.dataset.constructor.name);
      if (this.batchSize === null) return n;
      return this.dropLast ? Math.floor(n / this.batchSize) : Math.ceil(n / this.batchSize);
    }
    if (this.batchSampler !== null) return lengthOf(this.batchSampler, this.batchSampler.constructor.name);
    return lengthOf(this.sampler, typeName(this.sampler));
  }

  /**
   * One epoch's index batches, drawn lazily (Note [Samplers draw as PyTorch's generators do])
   * after the iterator's base seed (Note [DataLoader shuffle order]); for an IterableDataset,
   * `null`s to say "take the next batch from the stream".
   */
  private *batchesOfIndices(): Generator_<number[] | number> {
    const indices = this.batchSampler ?? this.sampler;
    const it = indices?.[Symbol.iterator]();
    (this.generator ?? defaultGenerator).random64(); // the iterator's base seed
    if (it === undefined) return;
    for (let r = it.next(); !r.done; r = it.next()) yield r.value;
  }

  private make(samples: T[]): B {
    if (this.batchSize !== null || this.batchSampler !== null) return this.collateFn(samples);
    // (without batching a sample is its own batch: `B` is the sample type, which the types
    // cannot say, as PyTorch's `batch_size=None` yields samples)
    const sample: unknown = samples[0];
    return sample as B;
  }

  /** An IterableDataset's batches: `batchSize` items at a time from its stream. */
  private *streamBatches(iter: Iterator<T>): Generator_<T[]> {
    for (;;) {
      const batch: T[] = [];
      const want = this.batchSize ?? 1;
      while (batch.length < want) {
        const r = iter.next();
        if (r.done) break;
        batch.push(r.value);
      }
      if (batch.length === 0) return;
      if (batch.length < want && this.dropLast) return;
      yield batch;
      if (batch.length < want) return;
    }
  }

  /**
   * One epoch over the workers (PyTorch's `_MultiProcessingDataLoaderIter`): the sampler's
   * iterator, then the base seed (one int64 draw of the loader's generator) and fresh workers
   * seeded from it; with `persistentWorkers`, the first epoch's workers again, resumed, and no
   * new base seed (PyTorch's `_reset` draws none).
   */
  private workerEpoch(): { epoch: WorkerEpoch; pool: WorkerPool } {
    const iterable = this.dataset instanceof IterableDataset;
    const autoCollation = this.batchSize !== null || this.batchSampler !== null;
    const params: WorkerLoaderParams = {
      dataset: this.dataset,
      iterable,
      numWorkers: this.numWorkers,
      prefetchFactor: this.prefetchFactor ?? 2,
      timeout: this.timeout,
      workerInitFn: this.workerInitFn,
      collateFn: this.collateFn as (b: unknown[]) => unknown,
      isDefaultCollate: this.collateFn === (defaultCollate as unknown),
      autoCollation,
      dropLast: this.dropLast,
      persistentWorkers: this.persistentWorkers,
      context: this.multiprocessingContext ?? (nodeWorkerThreads() !== null ? 'spawn' : 'inprocess'),
    };
    // (an IterableDataset's "sampler" is PyTorch's _InfiniteConstantSampler: each worker takes
    // the next batch of its own stream until it says it has ended)
    const bs = this.batchSize ?? 1;
    const indices: Iterator<number[] | number | null> = iterable ? { next: () => ({ done: false, value: autoCollation ? new Array<number>(bs).fill(0) : null }) } : ((this.batchSampler ?? this.sampler) as Iterable<number[] | number>)[Symbol.iterator]();
    if (this.pool !== null) return { epoch: new WorkerEpoch(params, this.pool, indices, true), pool: this.pool };
    const pool = WorkerPool.start(params, drawBaseSeed(this.generator));
    if (this.persistentWorkers) {
      this.pool = pool;
      // (a dropped loader's persistent workers stop when it is collected)
      dropped.register(this, pool);
    }
    try {
      return { epoch: new WorkerEpoch(params, pool, indices, false), pool };
    } catch (e) {
      if (!this.persistentWorkers) pool.backend.shutdown();
      throw e;
    }
  }

  /** The workers' batches; their threads end with the epoch, unless persistent, or when the iterator is dropped. */
  private workerIterator<I extends object>(make: (epoch: WorkerEpoch, finish: () => void) => I): I {
    const { epoch, pool } = this.workerEpoch();
    const token = {};
    const persistent = this.persistentWorkers;
    const finish = (): void => {
      dropped.unregister(token);
      if (!persistent) pool.backend.shutdown();
    };
    const it = make(epoch, finish);
    if (!persistent) dropped.register(it, pool, token);
    return it;
  }

  private static *syncWorkerBatches<B>(epoch: WorkerEpoch, finish: () => void): Generator_<B> {
    try {
      for (;;) {
        const v = epoch.next();
        if (v === END_OF_EPOCH) return;
        yield v as B;
      }
    } finally {
      finish();
    }
  }

  private static async *asyncWorkerBatches<B>(epoch: WorkerEpoch, finish: () => void): AsyncGenerator<B, void, unknown> {
    try {
      for (;;) {
        const v = await epoch.nextAsync();
        if (v === END_OF_EPOCH) return;
        yield v as B;
      }
    } finally {
      finish();
    }
  }

  [Symbol.iterator](): Iterator<B> {
    if (this.numWorkers > 0) return this.workerIterator((e, f) => DataLoader.syncWorkerBatches<B>(e, f));
    return this.inCallerBatches();
  }

  private *inCallerBatches(): Iterator<B> {
    if (this.dataset instanceof IterableDataset) {
      const stream = this.dataset;
      for (const _ of this.batchesOfIndices()) void _;
      for (const b of this.streamBatches(stream[Symbol.iterator]())) yield this.make(b);
      return;
    }
    const dataset = this.dataset;
    for (const idx of this.batchesOfIndices()) {
      const items = (Array.isArray(idx) ? idx : [idx]).map((i) => dataset.getItem(i));
      const samples: T[] = [];
      for (const s of items) {
        if (s instanceof Promise) throw new TorchError('DataLoader: the dataset returns promises; iterate with `for await`');
        samples.push(s);
      }
      yield this.make(samples);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<B> {
    if (this.numWorkers > 0) return this.workerIterator((e, f) => DataLoader.asyncWorkerBatches<B>(e, f));
    return this.inCallerBatchesAsync();
  }

  private async *inCallerBatchesAsync(): AsyncIterator<B> {
    if (this.dataset instanceof IterableDataset) {
      const it = this.inCallerBatches();
      for (let r = it.next(); !r.done; r = it.next()) yield r.value;
      return;
    }
    const dataset = this.dataset;
    for (const idx of this.batchesOfIndices()) {
      const samples = await Promise.all((Array.isArray(idx) ? idx : [idx]).map((i) => dataset.getItem(i)));
      yield this.make(samples);
      // Let other work (timers, I/O, a progress bar) run between batches.
      await new Promise<void>((r) => setTimeout(r, 0));
    }
  }
}

/** What a worker knows about itself (`torch.utils.data.WorkerInfo`). */
export interface WorkerInfo {
  readonly id: number;
  readonly numWorkers: number;
  /** `base_seed + id`, the seed of the worker's default generator. */
  readonly seed: bigint;
  /** The worker's own copy of the dataset (the loader's own object in-process). */
  readonly dataset: Dataset | IterableDataset;
}

/**
 * `get_worker_info()`: in a DataLoader worker (a worker thread, or an in-process worker
 * while it loads), its id, the number of workers, its seed and its dataset; `null` in the
 * main thread, so a dataset that shards its stream by `info.id` streams all of it there.
 */
export function getWorkerInfo(): WorkerInfo | null {
  return currentWorkerInfo() as WorkerInfo | null;
}

registerWorkerLoop(() => ({ TensorDataset, Subset, ConcatDataset, ChainDataset, defaultCollate }));

const isWorkerInit = (f: unknown): f is (workerId: number) => void => typeof f === 'function';

/** The samples of `dataset` at `indices`, in that order. */
export class Subset<T = unknown> extends Dataset<T> {
  constructor(
    readonly dataset: Dataset<T>,
    readonly indices: readonly number[],
  ) {
    super();
  }

  workerSpec(): WorkerSpec {
    return { name: 'Subset', args: [this.dataset, this.indices] };
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
