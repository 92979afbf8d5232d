/**
 * The worker side of a DataLoader with `numWorkers > 0` (Note [DataLoader workers] in
 * data.ts): the fetcher that turns an index batch into a batch (PyTorch's `_MapDatasetFetcher`
 * and `_IterableDatasetFetcher`), the worker info that `getWorkerInfo()` reads, and the loop a
 * worker thread runs (PyTorch's `_worker_loop`), which any copy of torch-ts loaded in a worker
 * registers on `globalThis` for the bootstrap to call.
 */
import { TorchError, manualSeed, typeName } from '@torch-ts/core';
import { modulesOf, pack, unpackSpecs, type SpecResolver } from './data-transfer';

/** What a worker knows about itself (`torch.utils.data.WorkerInfo`). */
export interface WorkerInfo {
  readonly id: number;
  readonly numWorkers: number;
  /** `base_seed + id`, the seed of the worker's default generator. */
  readonly seed: bigint;
  /** The worker's own copy of the loader's dataset. */
  readonly dataset: unknown;
}

// (on globalThis, not in this module: two copies of torch-ts in one worker, a bundled dataset
// module's and the package's, see one worker info)
const INFO = Symbol.for('torch-ts.utils.data.workerInfo');
const LOOP = Symbol.for('torch-ts.utils.data.workerLoop');

export function currentWorkerInfo(): WorkerInfo | null {
  const info: unknown = Reflect.get(globalThis, INFO);
  return (info as WorkerInfo | undefined) ?? null;
}

export function setWorkerInfo(info: WorkerInfo | null): void {
  Reflect.set(globalThis, INFO, info ?? undefined);
}

/** The fetcher's answer when an IterableDataset's stream has ended (`StopIteration`). */
export const END: unique symbol = Symbol('DataLoader stream end');

/**
 * PyTorch's fetchers. A map-style fetch gets every index's sample (all `getItem` calls are
 * made at once, so async datasets load concurrently) and collates them; an iterable one takes
 * the next `index.length` samples of its own iterator, made when the fetcher is, and answers
 * END when none are left (or fewer than a batch with `dropLast`). `collate` null returns the
 * samples uncollated (the main thread collates: Note [DataLoader workers]).
 */
export class Fetcher {
  private readonly iter: Iterator<unknown> | null;
  private ended = false;

  constructor(
    private readonly dataset: unknown,
    iterable: boolean,
    private readonly autoCollation: boolean,
    private readonly collate: ((batch: unknown[]) => unknown) | null,
    private readonly dropLast: boolean,
  ) {
    this.iter = iterable ? (dataset as Iterable<unknown>)[Symbol.iterator]() : null;
  }

  /** Synchronous where the dataset is: a Promise only when `getItem` returned one. */
  fetch(index: number[] | number | null): unknown {
    if (this.iter !== null) return this.fetchStream(this.iter, index);
    const ds = this.dataset as { getItem(i: number): unknown };
    if (!this.autoCollation) return ds.getItem(index as number);
    const items = (index as number[]).map((i) => ds.getItem(i));
    if (items.some((x) => x instanceof Promise)) return Promise.all(items).then((s) => this.finish(s));
    return this.finish(items);
  }

  private fetchStream(iter: Iterator<unknown>, index: number[] | number | null): unknown {
    if (this.ended) return END;
    if (!this.autoCollation) {
      const r = iter.next();
      if (r.done) return END;
      return r.value;
    }
    const want = (index as number[]).length;
    const data: unknown[] = [];
    while (data.length < want) {
      const r = iter.next();
      if (r.done) {
        this.ended = true;
        break;
      }
      data.push(r.value);
    }
    if (data.length === 0 || (this.dropLast && data.length < want)) return END;
    return this.finish(data);
  }

  private finish(samples: unknown[]): unknown {
    return this.collate === null ? samples : this.collate(samples);
  }
}

/** What the main thread gives a worker thread (`workerData`). */
export interface WorkerBoot {
  id: number;
  numWorkers: number;
  /** base_seed + id, as a decimal string (it exceeds 2^53). */
  seed: string;
  /** The packed dataset spec, and packed function specs (null: none / the default collate / main-thread collate). */
  dataset: unknown;
  initFn: unknown;
  collate: unknown;
  /** Whether the worker collates (false: it sends the samples, the main thread collates). */
  collateInWorker: boolean;
  iterable: boolean;
  autoCollation: boolean;
  dropLast: boolean;
  /** The modules the specs name, imported first. */
  modules: string[];
  /** The @torch-ts/torch the main program resolves, loaded where no spec names a module (null: none). */
  torchModule: string | null;
  port: MessagePortLike;
  signal: Int32Array;
}

export interface MessagePortLike {
  postMessage(message: unknown, transfer?: readonly Transferable[]): void;
  on(event: 'message', listener: (m: unknown) => void): void;
  close(): void;
}

/** A message from a worker; `epoch` echoes the fetch's, so that a new epoch drops stale ones. */
export type WorkerMessage =
  | { type: 'data'; worker: number; epoch: number; idx: number; value: unknown }
  | { type: 'end'; worker: number; epoch: number; idx: number }
  | { type: 'error'; worker: number; epoch: number; idx: number; name: string; message: string; stack: string }
  | { type: 'fatal'; worker: number; name: string; message: string; stack: string }
  | { type: 'exit'; worker: number; code: number };

/** A message to a worker. */
export type WorkerCommand = { type: 'fetch'; epoch: number; idx: number; index: number[] | number | null } | { type: 'resume' } | { type: 'stop' };

export function errorFields(e: unknown): { name: string; message: string; stack: string } {
  if (e instanceof Error) return { name: e.name === 'Error' ? e.constructor.name : e.name, message: e.message, stack: e.stack ?? `${e.name}: ${e.message}` };
  return { name: typeName(e), message: String(e), stack: String(e) };
}

/**
 * PyTorch's `_worker_loop`: seed the default generator with `base_seed + id`, rebuild the
 * dataset, set the worker info, run `workerInitFn(id)` (an error there is answered to the
 * first fetch, as PyTorch does), then answer fetches in the order they come. After its
 * stream ends a worker answers nothing more until it is resumed or stopped.
 */
async function workerLoop(boot: WorkerBoot, commands: MessagePortLike, resolve: SpecResolver): Promise<void> {
  const post = (m: WorkerMessage, transfer: Transferable[] = []): void => {
    boot.port.postMessage(m, transfer);
    Atomics.add(boot.signal, 0, 1);
    Atomics.notify(boot.signal, 0);
  };
  const seed = BigInt(boot.seed);
  manualSeed(seed);
  const dataset = await unpackSpecs(boot.dataset, resolve);
  setWorkerInfo(Object.freeze({ id: boot.id, numWorkers: boot.numWorkers, seed, dataset }));
  const collate = boot.collateInWorker ? ((await unpackSpecs(boot.collate, resolve, true)) as (b: unknown[]) => unknown) : null;
  let initError: unknown = null;
  let fetcher: Fetcher | null = null;
  const makeFetcher = (): Fetcher => new Fetcher(dataset, boot.iterable, boot.autoCollation, collate, boot.dropLast);
  try {
    if (boot.initFn !== null) ((await unpackSpecs(boot.initFn, resolve, true)) as (id: number) => void)(boot.id);
    fetcher = makeFetcher();
  } catch (e) {
    initError = e;
  }
  let iterationEnd = false;
  let queue: Promise<void> = Promise.resolve();
  const handle = async (c: WorkerCommand): Promise<void> => {
    if (c.type === 'stop') {
      commands.close();
      boot.port.close();
      return;
    }
    if (c.type === 'resume') {
      iterationEnd = false;
      initError = null;
      fetcher = makeFetcher();
      return;
    }
    if (iterationEnd) return;
    const { epoch, idx } = c;
    try {
      if (initError !== null) throw initError;
      if (fetcher === null) throw new TorchError('DataLoader worker: no fetcher');
      const value = await fetcher.fetch(c.index);
      if (value === END) {
        iterationEnd = true;
        post({ type: 'end', worker: boot.id, epoch, idx });
        return;
      }
      const transfer: Transferable[] = [];
      const packed = pack(value, transfer, 'a batch');
      post({ type: 'data', worker: boot.id, epoch, idx, value: packed }, transfer);
    } catch (e) {
      post({ type: 'error', worker: boot.id, epoch, idx, ...errorFields(e) });
    }
  };
  commands.on('message', (m) => {
    queue = queue.then(() => handle(m as WorkerCommand));
  });
}

/** The modules a worker imports before it runs (the bootstrap's first step). */
export function bootModules(boot: Pick<WorkerBoot, 'dataset' | 'initFn' | 'collate'>): string[] {
  return [...modulesOf([boot.dataset, boot.initFn, boot.collate])];
}

/** Registered by every copy of torch-ts that loads (the first wins), for the bootstrap. */
export function registerWorkerLoop(builtins: () => Record<string, unknown>): void {
  if (Reflect.get(globalThis, LOOP) !== undefined) return;
  const loop = (boot: WorkerBoot, commands: MessagePortLike): Promise<void> => {
    const resolve: SpecResolver = async ({ module, name }) => {
      if (module === null) {
        const b = builtins();
        if (!Object.hasOwn(b, name)) throw new TorchError(`DataLoader worker: '${name}' is not one of torch-ts's datasets (${Object.keys(b).join(', ')}); give its workerSpec a module`);
        return b[name];
      }
      const m = (await import(/* @vite-ignore */ module)) as Record<string, unknown>;
      if (!(name in m)) throw new TorchError(`DataLoader worker: module ${module} has no export '${name}'`);
      return m[name];
    };
    return workerLoop(boot, commands, resolve);
  };
  Reflect.set(globalThis, LOOP, loop);
}

/**
 * The worker thread's program (CommonJS, run with `eval: true`, so no worker file has to be
 * found or bundled): import the modules the specs name (a dataset module imports torch-ts,
 * which registers the loop), else torch-ts itself, then run the loop. Anything that fails
 * before the loop answers is a 'fatal' message; the thread's exit is an 'exit' one, so a
 * main thread blocked on the signal learns of a dead worker.
 */
export const WORKER_SOURCE = `
const { workerData: boot, parentPort } = require('node:worker_threads');
const post = (m) => { try { boot.port.postMessage(m); } catch {} Atomics.add(boot.signal, 0, 1); Atomics.notify(boot.signal, 0); };
let exiting = false;
process.on('exit', (code) => { if (!exiting) post({ type: 'exit', worker: boot.id, code }); });
const LOOP = Symbol.for('torch-ts.utils.data.workerLoop');
(async () => {
  for (const m of boot.modules) await import(m);
  if (globalThis[LOOP] === undefined && boot.torchModule !== null) await import(boot.torchModule);
  if (globalThis[LOOP] === undefined) throw new Error('no module to load torch-ts from: @torch-ts/torch does not resolve from the program, and no workerSpec names a module (give the dataset or workerInitFn a workerSpec with a module that imports @torch-ts/torch)');
  parentPort.on('message', (m) => { if (m && m.type === 'stop') exiting = true; });
  await globalThis[LOOP](boot, parentPort);
})().catch((e) => {
  const name = e && e.name ? e.name : 'Error';
  post({ type: 'fatal', worker: boot.id, name, message: String(e && e.message !== undefined ? e.message : e), stack: String(e && e.stack ? e.stack : e) });
});
`;
