/**
 * The main-thread side of a DataLoader with `numWorkers > 0` (Note [DataLoader workers] in
 * data.ts): PyTorch's `_MultiProcessingDataLoaderIter` — index batches handed round-robin to
 * the workers, `prefetchFactor * numWorkers` outstanding, batches returned in sampler order —
 * over one of two backends: worker threads (Node's worker_threads, each rebuilding the dataset
 * from its `workerSpec`) or the in-process fallback (the same workers simulated in this thread,
 * where there are no worker threads to start, e.g. a browser).
 */
import { Generator, TorchError, TorchTypeError, ValueError, IndexError, NotImplementedError, DTypeError, ShapeError, defaultGenerator, typeName } from '@torch-ts/core';
import { pack, specOf, unpack } from './data-transfer';
import { END, Fetcher, WORKER_SOURCE, bootModules, errorFields, setWorkerInfo, type WorkerBoot, type WorkerCommand, type WorkerInfo, type WorkerMessage } from './data-worker';

/** What the iterator needs of its loader. */
export interface WorkerLoaderParams {
  readonly dataset: object;
  readonly iterable: boolean;
  readonly numWorkers: number;
  readonly prefetchFactor: number;
  /** Seconds; 0 waits for ever. */
  readonly timeout: number;
  readonly workerInitFn: ((workerId: number) => void) | null;
  readonly collateFn: (batch: unknown[]) => unknown;
  readonly isDefaultCollate: boolean;
  readonly autoCollation: boolean;
  readonly dropLast: boolean;
  readonly persistentWorkers: boolean;
  readonly context: 'spawn' | 'inprocess';
}

/** The loader's base seed: `torch.empty((), dtype=torch.int64).random_(generator)`, a random64() mod 2^63. */
export function drawBaseSeed(generator: Generator | null): bigint {
  return (generator ?? defaultGenerator).random64() % (1n << 63n);
}

interface Backend {
  send(worker: number, c: WorkerCommand): void;
  /** The next message, null when `timeoutMs` (> 0) passed first. */
  receive(timeoutMs: number): WorkerMessage | null;
  receiveAsync(timeoutMs: number): Promise<WorkerMessage | null>;
  shutdown(): void;
}

// ---- worker threads ----

interface NodeWorkerThreads {
  Worker: new (src: string, o: { eval: true; workerData: unknown; transferList: unknown[]; env: Record<string, string | undefined> }) => { postMessage(m: unknown): void; unref(): void; terminate(): Promise<number> };
  MessageChannel: new () => { port1: NodePort; port2: NodePort };
  receiveMessageOnPort(port: NodePort): { message: unknown } | undefined;
}
interface NodePort {
  unref(): void;
  close(): void;
}

/** Node's worker_threads, where this runs in Node (sync: a `for...of` over the loader must start workers). */
export function nodeWorkerThreads(): NodeWorkerThreads | null {
  const proc: unknown = Reflect.get(globalThis, 'process');
  if (typeof proc !== 'object' || proc === null) return null;
  const get: unknown = Reflect.get(proc, 'getBuiltinModule');
  if (typeof get !== 'function') return null;
  return Reflect.apply(get, proc, ['node:worker_threads']) as NodeWorkerThreads;
}

/**
 * Note [Waiting for a worker without an event loop]
 * A `for...of` over the loader must wait for worker threads synchronously. Every worker
 * answers on one MessagePort and then bumps a shared counter with `Atomics.notify`; the main
 * thread drains the port with `receiveMessageOnPort` and, when it is empty, blocks in
 * `Atomics.wait` on the counter (`Atomics.waitAsync` under `for await`, which lets other
 * work run). The threads and the port are unref'd: a loader never keeps a process alive.
 */
class ThreadBackend implements Backend {
  private readonly workers: { postMessage(m: unknown): void; unref(): void; terminate(): Promise<number> }[] = [];
  /** Each worker's answer port (a port moves to one thread only, so one channel per worker). */
  private readonly ports: NodePort[] = [];
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private closed = false;
  private rr = 0;

  constructor(
    private readonly wt: NodeWorkerThreads,
    boots: Omit<WorkerBoot, 'port' | 'signal'>[],
  ) {
    for (const b of boots) {
      const ch = new wt.MessageChannel();
      ch.port1.unref();
      this.ports.push(ch.port1);
      // (one kernel thread per worker, as PyTorch's workers call set_num_threads(1): the
      // workers are the parallelism)
      const env = { ...(Reflect.get(globalThis, 'process') as { env: Record<string, string | undefined> }).env, TORCH_TS_NUM_THREADS: '1' };
      const w = new wt.Worker(WORKER_SOURCE, { eval: true, workerData: { ...b, port: ch.port2, signal: this.signal }, transferList: [ch.port2], env });
      w.unref();
      this.workers.push(w);
    }
  }

  send(worker: number, c: WorkerCommand): void {
    this.workers[worker].postMessage(c);
  }

  /** A message from any worker's port, round-robin so that no worker starves. */
  private poll(): WorkerMessage | null {
    const n = this.ports.length;
    for (let k = 0; k < n; k++) {
      const i = (this.rr + k) % n;
      const r = this.wt.receiveMessageOnPort(this.ports[i]);
      if (r !== undefined) {
        this.rr = (i + 1) % n;
        return r.message as WorkerMessage;
      }
    }
    return null;
  }

  receive(timeoutMs: number): WorkerMessage | null {
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      const m = this.poll();
      if (m !== null) return m;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      Atomics.wait(this.signal, 0, seen, left);
    }
  }

  async receiveAsync(timeoutMs: number): Promise<WorkerMessage | null> {
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      const m = this.poll();
      if (m !== null) return m;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      const w = waitAsync(this.signal, 0, seen, left === Infinity ? undefined : left);
      if (!w.async) continue;
      // (a pending waitAsync does not keep Node's event loop alive: a timer does, meanwhile)
      const keep = setInterval(() => undefined, 1 << 30);
      try {
        await w.value;
      } finally {
        clearInterval(keep);
      }
    }
  }

  shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.workers) {
      w.postMessage({ type: 'stop' } satisfies WorkerCommand);
      void w.terminate();
    }
    for (const p of this.ports) p.close();
  }
}

/** `Atomics.waitAsync` (ES2024; in Node since 16), typed here as the lib this package targets lacks it. */
const waitAsync = (a: Int32Array, i: number, v: number, t?: number): { async: false; value: string } | { async: true; value: Promise<string> } =>
  (Atomics as unknown as { waitAsync: typeof waitAsync }).waitAsync(a, i, v, t);

// ---- the in-process fallback ----

interface VirtualWorker {
  info: WorkerInfo;
  state: ReturnType<Generator['getState']>;
  fetcher: Fetcher | null;
  initError: unknown;
  iterationEnd: boolean;
}

/**
 * Note [In-process DataLoader workers]
 * Without worker threads the workers are simulated here, with their semantics kept: each has
 * its own default-generator state (seeded `base_seed + id`, swapped in while it runs, so
 * `torch.rand` in a dataset draws what it would in that worker), `getWorkerInfo()` answers
 * its info while it runs, `workerInitFn` runs once per worker, and an IterableDataset gets one
 * iterator per worker. The dataset is the loader's own object (nothing is copied), and a task
 * runs when it is handed out, so under `for await` the `getItem` promises of the prefetched
 * batches load concurrently; nothing runs in parallel.
 */
class InProcessBackend implements Backend {
  private readonly workers: VirtualWorker[] = [];
  private readonly results: (WorkerMessage | Promise<WorkerMessage>)[] = [];

  constructor(private readonly p: WorkerLoaderParams, baseSeed: bigint) {
    for (let id = 0; id < p.numWorkers; id++) {
      const seed = baseSeed + BigInt(id);
      const w: VirtualWorker = { info: Object.freeze({ id, numWorkers: p.numWorkers, seed, dataset: p.dataset }), state: defaultGenerator.getState(), fetcher: null, initError: null, iterationEnd: false };
      this.workers.push(w);
      this.inWorker(w, () => {
        defaultGenerator.manualSeed(seed);
        try {
          p.workerInitFn?.(id);
          w.fetcher = this.makeFetcher();
        } catch (e) {
          w.initError = e;
        }
      });
    }
  }

  private makeFetcher(): Fetcher {
    return new Fetcher(this.p.dataset, this.p.iterable, this.p.autoCollation, this.p.autoCollation ? this.p.collateFn : null, this.p.dropLast);
  }

  /** Runs `f` as worker `w`: its generator state and worker info in place, the main thread's after. */
  private inWorker<R>(w: VirtualWorker, f: () => R): R {
    const main = defaultGenerator.getState();
    defaultGenerator.setState(w.state);
    setWorkerInfo(w.info);
    try {
      return f();
    } finally {
      setWorkerInfo(null);
      w.state = defaultGenerator.getState();
      defaultGenerator.setState(main);
    }
  }

  send(worker: number, c: WorkerCommand): void {
    const w = this.workers[worker];
    if (c.type === 'resume') {
      w.iterationEnd = false;
      w.initError = null;
      w.fetcher = this.inWorker(w, () => this.makeFetcher());
      return;
    }
    if (c.type !== 'fetch' || w.iterationEnd) return;
    const { epoch, idx } = c;
    const err = (e: unknown): WorkerMessage => ({ type: 'error', worker: worker, epoch, idx, ...errorFields(e) });
    const answer = (value: unknown): WorkerMessage => {
      if (value !== END) return { type: 'data', worker, epoch, idx, value };
      w.iterationEnd = true;
      return { type: 'end', worker, epoch, idx };
    };
    try {
      if (w.initError !== null) throw w.initError;
      const fetcher = w.fetcher;
      if (fetcher === null) throw new TorchError('DataLoader worker: no fetcher');
      const value = this.inWorker(w, () => fetcher.fetch(c.index));
      this.results.push(value instanceof Promise ? value.then(answer, err) : answer(value));
    } catch (e) {
      this.results.push(err(e));
    }
  }

  receive(): WorkerMessage | null {
    const r = this.results.shift();
    if (r === undefined) throw new TorchError('DataLoader: waiting for a batch no in-process worker will send');
    if (r instanceof Promise) throw new TorchError('DataLoader: the dataset returns promises; iterate with `for await`');
    return r;
  }

  async receiveAsync(): Promise<WorkerMessage | null> {
    const r = this.results.shift();
    if (r === undefined) throw new TorchError('DataLoader: waiting for a batch no in-process worker will send');
    return r;
  }

  shutdown(): void {
    this.results.length = 0;
  }
}

// ---- the iterator ----

/** The workers of a loader: one epoch's, or kept across epochs with `persistentWorkers`. */
export class WorkerPool {
  epoch = 0;
  /** A worker that failed to start or exited: every later epoch of a persistent pool raises it. */
  failure: Error | null = null;
  private constructor(
    readonly backend: Backend,
    readonly threads: boolean,
  ) {}

  static start(p: WorkerLoaderParams, baseSeed: bigint): WorkerPool {
    if (p.context === 'inprocess') return new WorkerPool(new InProcessBackend(p, baseSeed), false);
    const wt = nodeWorkerThreads();
    if (wt === null) return new WorkerPool(new InProcessBackend(p, baseSeed), false);
    if (specOf(p.dataset) === null) {
      throw new TorchTypeError(`DataLoader: cannot send the dataset (${typeName(p.dataset)}) to worker threads: it has no workerSpec() saying how a worker rebuilds it; give it one, or use multiprocessingContext: 'inprocess' (Note [DataLoader workers])`);
    }
    // (each worker gets a structured clone of the packed specs: nothing is transferred, the
    // packed tensors' buffers are fresh copies)
    const transfer: Transferable[] = [];
    const dataset = pack(p.dataset, transfer, `the dataset (${typeName(p.dataset)})`);
    const initFn = p.workerInitFn === null ? null : pack(p.workerInitFn, transfer, 'workerInitFn');
    // (the default collate runs in the worker as PyTorch's does; a function with a workerSpec
    // too; any other collateFn runs here on the samples the worker sends)
    const collateSpec = !p.autoCollation ? null : p.isDefaultCollate ? pack(DEFAULT_COLLATE_REF, transfer) : hasSpec(p.collateFn) ? pack(p.collateFn, transfer, 'collateFn') : null;
    const collateInWorker = !p.autoCollation || p.isDefaultCollate || collateSpec !== null;
    const common = { dataset, initFn, collate: collateSpec };
    const boots = Array.from({ length: p.numWorkers }, (_, id) => ({
      ...common,
      id,
      numWorkers: p.numWorkers,
      seed: String(baseSeed + BigInt(id)),
      collateInWorker,
      iterable: p.iterable,
      autoCollation: p.autoCollation,
      dropLast: p.dropLast,
      modules: bootModules(common),
      torchModule: torchEntry(),
    }));
    return new WorkerPool(new ThreadBackend(wt, boots), true);
  }
}

/**
 * The module a worker thread imports for torch-ts when no spec names a module of the user's
 * (a TensorDataset's loader): the installed @torch-ts/torch as the program (its main script,
 * else the working directory) resolves it; null where it cannot, and the worker then says so.
 * (Not `import.meta`: the CommonJS build cannot hold that syntax.)
 */
function torchEntry(): string | null {
  const proc = Reflect.get(globalThis, 'process') as { argv: string[]; cwd(): string; getBuiltinModule(id: string): unknown };
  const { createRequire } = proc.getBuiltinModule('node:module') as { createRequire(from: string): { resolve(id: string): string } };
  const { pathToFileURL } = proc.getBuiltinModule('node:url') as { pathToFileURL(p: string): URL };
  for (const from of [proc.argv[1], `${proc.cwd()}/`]) {
    try {
      if (from !== undefined) return pathToFileURL(createRequire(from).resolve('@torch-ts/torch')).href;
    } catch {
      // (not resolvable from there)
    }
  }
  return null;
}

const hasSpec = (f: unknown): boolean => typeof f === 'function' && typeof Reflect.get(f, 'workerSpec') === 'object';
const DEFAULT_COLLATE_REF = Object.assign(() => undefined, { workerSpec: { name: 'defaultCollate' } });

const ERRORS: Record<string, new (m: string) => Error> = { ValueError, IndexError, TorchTypeError, NotImplementedError, DTypeError, ShapeError, TypeError, RangeError };

/**
 * PyTorch's `ExceptionWrapper.reraise`: the worker's error, of its class where torch-ts has
 * it, saying which worker caught it and its original stack.
 */
function reraise(m: { worker: number; name: string; message: string; stack: string }, where = `in DataLoader worker process ${m.worker}`): never {
  const Cls = ERRORS[m.name] ?? TorchError;
  throw new Cls(`DataLoader: Caught ${m.name} ${where}.\nOriginal ${m.stack}`);
}

interface Task {
  worker: number;
  msg?: WorkerMessage;
}

/**
 * One epoch over the workers, PyTorch's `_next_data`: task `send` goes to the next active
 * worker in a cycle; results are returned in task order (later ones wait in `tasks`); a
 * worker whose stream ended is skipped from then on, and its unanswered tasks with it.
 */
export class WorkerEpoch {
  private send = 0;
  private rcvd = 0;
  private outstanding = 0;
  private readonly tasks = new Map<number, Task>();
  private readonly active: boolean[];
  private cycle = 0;
  private readonly epoch: number;
  private done = false;

  constructor(
    private readonly p: WorkerLoaderParams,
    private readonly pool: WorkerPool,
    private readonly indices: Iterator<number[] | number | null>,
    resume: boolean,
  ) {
    this.active = new Array<boolean>(p.numWorkers).fill(true);
    this.epoch = ++pool.epoch;
    if (pool.failure !== null) throw pool.failure;
    if (resume) for (let w = 0; w < p.numWorkers; w++) pool.backend.send(w, { type: 'resume' });
    for (let k = 0; k < p.prefetchFactor * p.numWorkers; k++) this.tryPut();
  }

  private tryPut(): void {
    if (this.outstanding >= this.p.prefetchFactor * this.p.numWorkers) return;
    const r = this.indices.next();
    if (r.done === true) return;
    let worker = -1;
    for (let k = 0; k < this.p.numWorkers; k++) {
      const w = this.cycle;
      this.cycle = (this.cycle + 1) % this.p.numWorkers;
      if (this.active[w]) {
        worker = w;
        break;
      }
    }
    if (worker < 0) return;
    this.pool.backend.send(worker, { type: 'fetch', epoch: this.epoch, idx: this.send, index: r.value });
    this.tasks.set(this.send, { worker });
    this.outstanding++;
    this.send++;
  }

  /** The next batch if it has come, `END` after the last, undefined to wait for a message. */
  private tryNext(): unknown {
    if (this.done || this.pool.epoch !== this.epoch) return END;
    while (this.rcvd < this.send) {
      const t = this.tasks.get(this.rcvd) as Task;
      if (t.msg !== undefined || this.active[t.worker]) break;
      this.tasks.delete(this.rcvd);
      this.rcvd++;
    }
    if (this.rcvd >= this.send) {
      this.done = true;
      return END;
    }
    const t = this.tasks.get(this.rcvd) as Task;
    if (t.msg === undefined) return undefined;
    this.tasks.delete(this.rcvd);
    this.rcvd++;
    this.tryPut();
    const m = t.msg;
    if (m.type === 'error') reraise(m);
    if (m.type !== 'data') throw new TorchError(`DataLoader: unexpected ${m.type} message`);
    if (!this.pool.threads) return m.value;
    const value = unpack(m.value);
    return this.p.autoCollation && !this.collateInWorker() ? this.p.collateFn(value as unknown[]) : value;
  }

  private collateInWorker(): boolean {
    return this.p.isDefaultCollate || hasSpec(this.p.collateFn);
  }

  private handle(m: WorkerMessage | null): void {
    if (m === null) throw new TorchError(`DataLoader timed out after ${this.p.timeout} seconds`);
    if (m.type === 'fatal' || m.type === 'exit') {
      try {
        if (m.type === 'fatal') reraise(m, `while starting DataLoader worker process ${m.worker}`);
        throw new TorchError(`DataLoader worker (thread ${m.worker}) exited unexpectedly with exit code ${m.code}`);
      } catch (e) {
        this.pool.failure = e as Error;
        throw e;
      }
    }
    if (m.epoch !== this.epoch) return; // a previous epoch's answer (persistent workers)
    this.outstanding--;
    if (m.type === 'end') {
      this.active[m.worker] = false;
      this.tryPut();
      return;
    }
    const t = this.tasks.get(m.idx);
    if (t !== undefined) t.msg = m;
  }

  next(): unknown {
    for (;;) {
      const v = this.tryNext();
      if (v !== undefined) return v;
      this.handle(this.pool.backend.receive(this.p.timeout * 1000));
    }
  }

  async nextAsync(): Promise<unknown> {
    for (;;) {
      const v = this.tryNext();
      if (v !== undefined) return v;
      this.handle(await this.pool.backend.receiveAsync(this.p.timeout * 1000));
    }
  }
}

/** Shuts a dropped iterator's workers down (its generator's `finally` does on exhaustion, break and throw). */
export const dropped = new FinalizationRegistry<WorkerPool>((pool) => pool.backend.shutdown());
