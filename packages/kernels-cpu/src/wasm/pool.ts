import { TorchError } from '@torch-ts/core';
import { CONTROL_ADDRESS, CONTROL_BYTES, CTL, MAX_ARGS, SLOTS, SPIN_MS } from './pool-layout';
import { workerSource } from './pool-worker';
import { kernelHeap } from './kernel-heap';
import { wasm, wasmModule, type WasmKernels } from './kernels';
import { HEAP_BASE, memory, memoryIsShared } from './memory';

/**
 * Note [CPU thread pool]
 * Large kernels split into tasks that the calling thread and a pool of workers (Node's
 * worker_threads, a browser's Web Workers) run on the one shared memory (Note [CPU storage
 * in WebAssembly memory]); each worker instantiates the kernels' module on it. The API stays
 * synchronous: the caller publishes a job (an export of the module and each task's
 * arguments) in a control block of the memory, wakes the workers (Atomics.notify), takes
 * tasks itself, and waits until all are done. Tasks are taken by compare-and-swap on one
 * ticket word holding the job's sequence number and the next task: the caller closes the
 * ticket before it rewrites the job and opens it under a new number after, so a worker
 * that wakes late, or reads a job that is being replaced, can never take a task of a job
 * whose arguments it did not read. A worker that is
 * still starting, or busy, simply takes no task: the caller runs whatever is left, so a job
 * never waits for a thread. Results never depend on which thread ran a task, and kernels
 * split their work so that they do not depend on the number of tasks either (each output
 * element is computed by one task, in the same order whatever the split).
 * `parallelFor`-style grain sizes live with the kernels: a job of one task runs on the
 * calling thread with no atomics at all, so small ops pay nothing.
 * Threads: `setNumThreads(n)` (default: TORCH_TS_NUM_THREADS, else OMP_NUM_THREADS, else the
 * machine's logical cores). Workers start in the background on first use and are unref'd,
 * so they never keep a process alive. Without a shared memory (a page that is not
 * cross-origin isolated) everything runs on the calling thread. On a browser's main thread
 * Atomics.wait is not allowed, so the caller spins on the counter while workers finish.
 */

/**
 * Note [Waking the pool]
 * A worker asleep in Atomics.wait takes 7 to 30 us to run after Atomics.notify (measured on a
 * 2-core KVM guest: longer the longer it slept), and so does a caller asleep on the done
 * counter after the last task: for a 128^3 GEMM (about 70 us on one core) that is the whole
 * gain of a second thread. So both spin for SPIN_MS before they sleep: a worker for the next
 * job (jobs of consecutive ops then start in under a microsecond), the caller for the
 * workers' last tasks. The spin is bounded, so an idle pool costs nothing, and short, so a
 * worker that the OS put on the caller's core (a busy machine) holds it up at most that long.
 * SPIN_MS is 1 ms, the order of OpenMP runtimes' spin before they block: a program does some
 * JS between its ops (the bench reads each result back), and with 0.1 ms the workers were
 * asleep at the next GEMM, so a 128^3 matmul on 2 threads took 0.09 ms, as on one; with 1 ms,
 * 0.06 ms. The price is at most 1 ms of a spinning core after the last parallel op.
 */

/** Exports of the kernels' module that run as pool tasks (the last argument is scratch). */
export const POOL_EXPORTS = [
  'sgemm',
  'dgemm',
  'sgemmPackedB',
  'dgemmPackedB',
  'binaryF32',
  'binaryF64',
  'unaryF32',
  'compareF32',
  'where32',
  'convertPlane',
  'maxPool2dF32',
  'maxPool2dF64',
  'maxPool2dBackwardF32',
  'maxPool2dBackwardF64',
  'sumF32Blocks',
  'sumF32Rows',
  'softmaxLastF32',
  'softmaxInnerF32',
  'softmaxBackwardLastF32',
  'softmaxBackwardInnerF32',
  'conv2dForward32',
  'conv2dForward64',
  'conv2dInputGrad32',
  'conv2dInputGrad64',
  'conv2dWeightGrad32',
  'conv2dWeightGrad64',
  'conv2dDirect32',
  'conv2dDirect64',
  'conv2dNhwcForward32',
  'conv2dNhwcForward64',
  'conv2dNhwcWeightGrad32',
  'conv2dNhwcWeightGrad64',
  'conv2dNhwcInputGrad32',
  'conv2dNhwcInputGrad64',
  'layerNormF32',
  'layerNormInputGradF32',
  'layerNormParamGradF32',
  'batchNormF32',
  'batchNormBackwardF32',
  'avgPool2dF32',
  'avgPool2dF64',
  'avgPool2dBackwardF32',
  'avgPool2dBackwardF64',
  'maxPool2dNhwcF32',
  'maxPool2dNhwcF64',
  'avgPool2dNhwcF32',
  'avgPool2dNhwcF64',
  'batchNormNhwcF32',
  'maxPool2dBackwardNhwcF32',
  'maxPool2dBackwardNhwcF64',
  'avgPool2dBackwardNhwcF32',
  'avgPool2dBackwardNhwcF64',
  'batchNormBackwardNhwcF32',
  'adaptiveMaxPool2dNhwcF32',
  'adaptiveMaxPool2dNhwcF64',
  'groupNormNhwcF32',
  'groupNormNhwcF64',
  'groupNormBackwardNhwcF32',
  'groupNormBackwardNhwcF64',
] as const satisfies readonly (keyof WasmKernels)[];
export type PoolExport = (typeof POOL_EXPORTS)[number];

if (CONTROL_ADDRESS + CONTROL_BYTES > HEAP_BASE) throw new Error('pool control block overlaps the heap');

const ctl = memoryIsShared ? new Int32Array(memory.buffer, CONTROL_ADDRESS, SLOTS) : null;
const argsAt = CONTROL_ADDRESS + SLOTS * 4;
const scratchAt = argsAt + MAX_ARGS * 8 * CTL.maxTasks;

interface NodeOs {
  availableParallelism?(): number;
  cpus(): unknown[];
}
interface Env {
  process?: { env?: Record<string, string | undefined>; versions?: { node?: string }; getBuiltinModule?(id: string): unknown };
  navigator?: { hardwareConcurrency?: number };
  Worker?: new (url: string) => { postMessage(m: unknown): void; onmessage: ((e: { data: unknown }) => void) | null };
  Blob?: new (parts: string[], options: { type: string }) => unknown;
  URL?: { createObjectURL(b: unknown): string };
}
const env = globalThis as Env;

function envThreads(): number | undefined {
  const e = env.process?.env;
  for (const v of [e?.TORCH_TS_NUM_THREADS, e?.OMP_NUM_THREADS]) {
    const n = v === undefined ? NaN : Number(v);
    if (Number.isInteger(n) && n >= 1) return Math.min(n, CTL.maxThreads);
  }
  return undefined;
}

/** Logical cores: Node's os module where it can be had synchronously (Node 20.16+), else the browser's count (or 1 until the pool has started). */
function machineCores(): number {
  const os = env.process?.getBuiltinModule?.('node:os') as NodeOs | undefined;
  const n = os ? (os.availableParallelism?.() ?? os.cpus().length) : env.navigator?.hardwareConcurrency;
  return Math.max(1, Math.min(n ?? 1, CTL.maxThreads));
}

let cores = machineCores();
let requested: number | undefined = envThreads();
/** Workers started (or starting); worker i has index i and takes part while i < threads - 1. */
let started = 0;
let ready = 0;
let readyWaiters: (() => void)[] = [];
let starting: Promise<void> | null = null;
const onCallerThread = !memoryIsShared || wasm === null;

/** Threads kernels split their work for, the caller included. */
export function getNumThreads(): number {
  return requested ?? cores;
}

/** Sets the threads kernels use (at least 1); workers start in the background as needed. */
export function setNumThreads(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new TorchError(`setNumThreads: expected a positive integer number of threads, got ${n}`);
  requested = Math.min(n, CTL.maxThreads);
  ensureWorkers();
}

/** Resolves when the workers for the current thread count are running. */
export function threadsReady(): Promise<void> {
  ensureWorkers();
  const want = onCallerThread ? 0 : getNumThreads() - 1;
  if (ready >= want) return Promise.resolve();
  return new Promise((resolve) => {
    readyWaiters.push(() => {
      if (ready >= getNumThreads() - 1) resolve();
      else void threadsReady().then(resolve);
    });
  });
}

function workerReady(): void {
  ready++;
  const w = readyWaiters;
  readyWaiters = [];
  for (const f of w) f();
}

function ensureWorkers(): void {
  if (onCallerThread || starting !== null) return;
  starting = startWorkers().finally(() => {
    starting = null;
    if (started < getNumThreads() - 1) ensureWorkers();
  });
}

async function startWorkers(): Promise<void> {
  const isNode = env.process?.versions?.node !== undefined;
  let spawn: (init: unknown) => void;
  if (isNode) {
    // Computed specifiers, so that a browser bundle of this package (esbuild, Vite) does not
    // try to resolve Node's built-ins: this branch only runs in Node.
    const osSpec = 'node:os';
    const workerThreadsSpec = 'node:worker_threads';
    if (env.process?.getBuiltinModule === undefined) {
      const os = (await import(/* @vite-ignore */ osSpec)) as typeof import('node:os');
      cores = Math.max(1, Math.min(os.availableParallelism?.() ?? os.cpus().length, CTL.maxThreads));
    }
    const { Worker } = (await import(/* @vite-ignore */ workerThreadsSpec)) as typeof import('node:worker_threads');
    spawn = (init) => {
      const w = new Worker(workerSource(), { eval: true });
      // Referenced until it is ready, so that a caller awaiting threadsReady() is not left
      // with an empty event loop; unref'd after, so that it never keeps a process alive.
      w.once('message', () => {
        w.unref();
        workerReady();
      });
      w.postMessage(init);
    };
  } else if (env.Worker && env.Blob && env.URL) {
    const url = env.URL.createObjectURL(new env.Blob([workerSource()], { type: 'text/javascript' }));
    const W = env.Worker;
    spawn = (init) => {
      const w = new W(url);
      w.onmessage = () => {
        w.onmessage = null;
        workerReady();
      };
      w.postMessage(init);
    };
  } else {
    return;
  }
  const want = getNumThreads() - 1;
  const scratch = new Float64Array(memory.buffer, scratchAt, CTL.maxThreads);
  for (; started < want; started++) {
    scratch[started + 1] = 0;
    spawn({ memory, module: wasmModule, names: POOL_EXPORTS, control: CONTROL_ADDRESS, index: started });
  }
}

/** Workers running, and the tasks they have run since start. */
export function poolStats(): { workers: number; workerTasks: number } {
  return { workers: ctl === null ? 0 : Atomics.load(ctl, CTL.ready), workerTasks: ctl === null ? 0 : Atomics.load(ctl, CTL.workerTasks) };
}

/** Per-thread scratch of at least `bytes`, kept and grown as kernels ask. */
const scratchBytes: number[] = [];
const scratchPtr: number[] = [];

function scratchFor(thread: number, bytes: number): number {
  if ((scratchBytes[thread] ?? 0) < bytes) {
    if (scratchPtr[thread] !== undefined) kernelHeap.release(scratchPtr[thread], scratchBytes[thread]);
    const p = kernelHeap.alloc(bytes);
    if (p < 0) throw new RangeError(`the kernels' memory cannot hold ${bytes} more bytes of scratch`);
    scratchPtr[thread] = p;
    scratchBytes[thread] = bytes;
  }
  return scratchPtr[thread];
}

/**
 * Runs `tasks` (each the arguments of one call of export `name`, which also gets the
 * running thread's scratch of `scratch` bytes as its last argument) on the pool, and
 * returns when all are done.
 */
export function runTasks(name: PoolExport, tasks: readonly (readonly number[])[], scratch: number): void {
  const w = wasm!;
  const fn = w[name] as (...a: number[]) => void;
  if (started < getNumThreads() - 1) ensureWorkers();
  const threads = Math.min(getNumThreads(), tasks.length, (ctl === null ? 0 : Atomics.load(ctl, CTL.ready)) + 1);
  if (ctl === null || threads <= 1) {
    const s = scratchFor(0, scratch);
    for (const t of tasks) fn(...t, s);
    return;
  }
  if (tasks.length > CTL.maxTasks) throw new RangeError(`runTasks: at most ${CTL.maxTasks} tasks, got ${tasks.length}`);
  // Publish (Note [CPU thread pool]): close the ticket, write the job, open the ticket under a
  // new sequence number, then wake the workers. The previous job is complete: runTasks
  // returns only when every task is done.
  Atomics.store(ctl, CTL.ticket, 0);
  const args = new Float64Array(memory.buffer, argsAt, MAX_ARGS * CTL.maxTasks);
  for (let t = 0; t < tasks.length; t++) args.set(tasks[t], t * MAX_ARGS);
  const scratchTable = new Float64Array(memory.buffer, scratchAt, CTL.maxThreads);
  for (let i = 0; i < threads; i++) scratchTable[i] = scratchFor(i, scratch);
  Atomics.store(ctl, CTL.fn, POOL_EXPORTS.indexOf(name));
  Atomics.store(ctl, CTL.nargs, tasks[0].length);
  Atomics.store(ctl, CTL.count, tasks.length);
  Atomics.store(ctl, CTL.threads, threads);
  Atomics.store(ctl, CTL.done, 0);
  seq = seq === 0x7fff ? 1 : seq + 1;
  Atomics.store(ctl, CTL.ticket, seq << 16);
  Atomics.add(ctl, CTL.job, 1);
  Atomics.notify(ctl, CTL.job);
  const s = scratchTable[0];
  for (;;) {
    const v = Atomics.load(ctl, CTL.ticket);
    const t = v & 0xffff;
    if (t >= tasks.length) break;
    if (Atomics.compareExchange(ctl, CTL.ticket, v, v + 1) !== v) continue;
    fn(...tasks[t], s);
    Atomics.add(ctl, CTL.done, 1);
  }
  // Note [Waking the pool]: spin a while for the workers' last tasks, then sleep.
  const until = performance.now() + SPIN_MS;
  for (let i = 1; ; i++) {
    const d = Atomics.load(ctl, CTL.done);
    if (d >= tasks.length) break;
    if ((i & 255) === 0 && canWait && performance.now() > until) Atomics.wait(ctl, CTL.done, d, 50);
  }
}

/** The sequence number of the last job published (1..0x7fff; 0 marks a job being written). */
let seq = 0;

/** Atomics.wait throws on a browser's main thread. */
const canWait = env.process?.versions?.node !== undefined || typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';

/**
 * Elements of work below which a kernel stays on the calling thread, and about the least
 * one pool task gets (about 10 us of a memory-bound pass), as at::parallel_for's grain.
 */
export const GRAIN = 1 << 15;

/**
 * [lo, hi) ranges of `units` (rows, planes, blocks) for pool tasks, about GRAIN of `work`
 * elements each, a few per thread so that a busy thread does not hold up the job. The split
 * depends on the thread count; kernels that use it compute each output the same way in any
 * range, so their results do not.
 */
export function taskRanges(units: number, work: number): [number, number][] {
  const threads = getNumThreads();
  const parts = threads <= 1 || work < 2 * GRAIN ? 1 : Math.max(1, Math.min(units, CTL.maxTasks, 4 * threads, Math.floor(work / GRAIN)));
  const ranges: [number, number][] = [];
  for (let t = 0; t < parts; t++) {
    const lo = Math.floor((t * units) / parts);
    const hi = Math.floor(((t + 1) * units) / parts);
    if (hi > lo) ranges.push([lo, hi]);
  }
  return ranges;
}

/** As at::parallel_for: `units` of `work` elements in all, one call of export `name` per range. */
export function parallelFor(name: PoolExport, units: number, work: number, args: (lo: number, hi: number) => number[], scratch = 0): void {
  if (units <= 0) return;
  runTasks(name, taskRanges(units, work).map(([lo, hi]) => args(lo, hi)), scratch);
}
