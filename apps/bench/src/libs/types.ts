import type { Workload } from '../workloads';

/**
 * Note [A wrong result is not a fast one]
 * Every result is read back as numbers once and a probe of it compared across libraries
 * (bench/probe.ts), so a library that skips or botches work is reported, not celebrated.
 * What is timed depends on the library (Note [What a run times]), never whether it is checked.
 *
 * Note [What a run times]
 * For a synchronous CPU library (torch-ts, tfjs-cpu, tfjs-wasm, js-pytorch) and for
 * onnxruntime, `run()` is the op call: it returns the computed output, nothing read back, as
 * the peers' own benchmarks time it (tfjs times the op and `dataSync` apart; onnxruntime
 * times `session.run`). `read(out)` then reads that output back, timed apart (the read-back
 * table), and `free(out)` releases it, untimed, for every library alike. On WebGPU a run is
 * over only when its result is on the host, so there `run()` includes the read and there is
 * no `read`.
 */
/**
 * A prepared workload (Note [What a run times]) whose run output `O` and read-back `D` keep
 * their types, in one of three modes:
 * - `sync`: `run()` is the op and returns its output; `read(out)` reads it back (timed apart).
 * - `async`: `run()` resolves to the op's output (onnxruntime's `session.run`); `read` as above.
 * - `read-in-run`: `run()` resolves once the result is on the host (WebGPU), and is the read.
 * `values(data)` is what was read as flat row-major numbers in PyTorch's layout (NCHW for conv2d).
 */
export type PreparedOf<O, D> = ReadApart<O, D> | ReadInRun<D>;

interface PreparedBase<D> {
  values(data: D): ArrayLike<number>;
  dispose(): void;
}

export type ReadApart<O, D> = PreparedBase<D> &
  ({ readonly mode: 'sync'; run(): O } | { readonly mode: 'async'; run(): Promise<O> }) & {
    /** Reads `run()`'s output back (timed apart from the run). */
    read(out: O): D;
    /** Releases `run()`'s output (untimed). */
    free?(out: O): void;
  };

export interface ReadInRun<D> extends PreparedBase<D> {
  readonly mode: 'read-in-run';
  run(): Promise<D>;
}

/**
 * A prepared workload as the harness holds it: each library's output type is its own, so the
 * harness opens it with a function generic in those types (an existential: `prepared(p)`).
 */
export interface Prepared {
  open<R>(use: <O, D>(p: PreparedOf<O, D>) => R): R;
}

export function prepared<O, D>(p: PreparedOf<O, D>): Prepared {
  return { open: (use) => use(p) };
}

/** `values` of a library whose read-back is already flat numbers in PyTorch's layout. */
export const asRead = (data: ArrayLike<number>): ArrayLike<number> => data;

/** A prepared workload, or the reason this library cannot run it ("n/a"). */
export type Setup = Prepared | { readonly na: string };

export interface Library {
  readonly name: NodeLibName;
  /** Library version or backend details, for the JSON report. */
  describe(): string;
  /** Builds the inputs (untimed); onnxruntime builds its session, which is asynchronous. */
  setup(w: Workload): Setup | Promise<Setup>;
  /** The first run compiles (WebGPU pipelines): it is never a sample (measure.ts). */
  readonly compilesOnFirstRun?: boolean;
}

export type LibName =
  | 'torch-ts'
  | 'torch-ts-threads'
  | 'tfjs-cpu'
  | 'tfjs-wasm'
  | 'js-pytorch'
  | 'onnxruntime'
  | 'pytorch'
  | 'pytorch-cuda'
  | 'torch-ts-webgpu'
  | 'tfjs-webgpu';
/** The libraries that run in a Node child process; `pytorch` and `pytorch-cuda` run in Python (pytorch.ts). */
export type NodeLibName = Exclude<LibName, 'pytorch' | 'pytorch-cuda'>;
export type PythonLibName = Extract<LibName, 'pytorch' | 'pytorch-cuda'>;
/**
 * The CPU libraries: what `pnpm bench` runs by default (`--device cpu`). `torch-ts` runs on one
 * thread, `torch-ts-threads` on torch-ts's default thread count (Note [torch-ts thread
 * columns]); every peer runs on one thread.
 */
export const LIB_NAMES: readonly LibName[] = ['torch-ts', 'torch-ts-threads', 'tfjs-cpu', 'tfjs-wasm', 'js-pytorch', 'onnxruntime', 'pytorch'];
/**
 * The GPU libraries (`--device webgpu`): torch-ts and tfjs on Dawn in Node, on the same
 * adapter; and PyTorch on CUDA where the machine has an NVIDIA GPU (a native reference, left
 * out with a notice elsewhere).
 */
export const WEBGPU_LIB_NAMES: readonly LibName[] = ['torch-ts-webgpu', 'tfjs-webgpu', 'pytorch-cuda'];
export const ALL_LIB_NAMES: readonly LibName[] = [...LIB_NAMES, ...WEBGPU_LIB_NAMES];

export type BenchDevice = 'cpu' | 'webgpu';

/** The torch-ts library of a device: the one whose speedup over each peer the table shows. */
export function oursOn(device: BenchDevice): LibName {
  return device === 'webgpu' ? 'torch-ts-webgpu' : 'torch-ts';
}

export function isNa(s: Setup): s is { readonly na: string } {
  return 'na' in s;
}
