import type { Workload } from '../workloads';

/**
 * Note [A wrong result is not a fast one]
 * `run()` computes the workload once and forces it (reads the result back as numbers:
 * torch-ts and tfjs `dataSync`; js-pytorch computes eagerly into nested arrays), returning them; the harness times whole calls and
 * compares a probe of the first call's result across libraries (bench/probe.ts), so a
 * library that skips or botches work is reported, not celebrated.
 */
export interface Prepared {
  /** One forced computation; what it returns is what `values` reads (only for the probe). */
  run(): unknown;
  /** The result of `run()` as flat row-major numbers in PyTorch's layout (NCHW for conv2d). */
  values?(result: unknown): ArrayLike<number>;
  dispose(): void;
}

/** A prepared workload, or the reason this library cannot run it ("n/a"). */
export type Setup = Prepared | { readonly na: string };

export interface Library {
  readonly name: LibName;
  /** Library version or backend details, for the JSON report. */
  describe(): string;
  setup(w: Workload): Setup;
  /**
   * `run()` returns a promise (WebGPU: the work is enqueued, and a run is over only when its
   * result has been read back): the harness awaits it (measureAsync).
   */
  readonly async?: boolean;
}

export type LibName = 'torch-ts' | 'tfjs-cpu' | 'tfjs-wasm' | 'js-pytorch' | 'torch-ts-webgpu' | 'tfjs-webgpu';
/** The CPU libraries: what `pnpm bench` runs by default (`--device cpu`). */
export const LIB_NAMES: readonly LibName[] = ['torch-ts', 'tfjs-cpu', 'tfjs-wasm', 'js-pytorch'];
/** The WebGPU libraries (`--device webgpu`): Dawn in Node, on the same adapter. */
export const WEBGPU_LIB_NAMES: readonly LibName[] = ['torch-ts-webgpu', 'tfjs-webgpu'];
export const ALL_LIB_NAMES: readonly LibName[] = [...LIB_NAMES, ...WEBGPU_LIB_NAMES];

export type BenchDevice = 'cpu' | 'webgpu';

/** The torch-ts library of a device: the one whose speedup over each peer the table shows. */
export function oursOn(device: BenchDevice): LibName {
  return device === 'webgpu' ? 'torch-ts-webgpu' : 'torch-ts';
}

export function isNa(s: Setup): s is { readonly na: string } {
  return 'na' in s;
}
