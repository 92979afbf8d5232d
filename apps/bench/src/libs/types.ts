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
}

export type LibName = 'torch-ts' | 'tfjs-cpu' | 'tfjs-wasm' | 'js-pytorch';
export const LIB_NAMES: readonly LibName[] = ['torch-ts', 'tfjs-cpu', 'tfjs-wasm', 'js-pytorch'];

export function isNa(s: Setup): s is { readonly na: string } {
  return 'na' in s;
}
