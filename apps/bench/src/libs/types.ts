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
export interface Prepared {
  /** The timed call; its result is `read`'s input (or, with no `read`, the values). */
  run(): unknown;
  /** Reads `run()`'s output back (timed apart from the run). */
  read?(out: unknown): unknown;
  /** Releases `run()`'s output (untimed). */
  free?(out: unknown): void;
  /** What `read` (or `run`) returned as flat row-major numbers in PyTorch's layout (NCHW for conv2d). */
  values?(data: unknown): ArrayLike<number>;
  dispose(): void;
}

/** A prepared workload, or the reason this library cannot run it ("n/a"). */
export type Setup = Prepared | { readonly na: string };

export interface Library {
  readonly name: NodeLibName;
  /** Library version or backend details, for the JSON report. */
  describe(): string;
  /** Builds the inputs (untimed); onnxruntime builds its session, which is asynchronous. */
  setup(w: Workload): Setup | Promise<Setup>;
  /** `run()` returns a promise (WebGPU, onnxruntime): the harness awaits it inside the timing. */
  readonly async?: boolean;
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
