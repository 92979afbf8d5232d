import type { Library } from './libs/types';
import { isNa } from './libs/types';
import { probeOf, type Probe } from './probe';
import type { Workload } from './workloads';

export interface MeasureOptions {
  /** Timed runs aim to take about this long in all (one round of one workload). */
  readonly targetMs: number;
  readonly maxReps: number;
  /** Warm-up runs: at least one, more until `warmupMs` is spent (at most `maxWarmups`). */
  readonly warmupMs: number;
  readonly maxWarmups: number;
  /** No timed repeats when the warm-up run took longer than this; its time is the sample. */
  readonly slowMs: number;
  /** Whether to compute the probe of the first result. */
  readonly probe: boolean;
}

export interface Measurement {
  readonly id: string;
  /** Wall-clock ms of each timed run. */
  readonly samples: number[];
  /** CPU ms (user + system, this process) of the same runs: what the run cost when the machine is shared. */
  readonly cpuSamples?: number[];
  readonly probe?: Probe;
  readonly na?: string;
}

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Times one workload on one library: setup (untimed), warm-up runs (the first one's result
 * is probed), then each timed run measured on its own with performance.now(); every run
 * forces its result (Note [A wrong result is not a fast one]).
 */
export function measure(lib: Library, w: Workload, o: MeasureOptions): Measurement {
  gc?.();
  const setup = lib.setup(w);
  if (isNa(setup)) return { id: w.id, samples: [], na: setup.na };
  try {
    let probe: Probe | undefined;
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    const first = setup.run();
    let last = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (o.probe) probe = probeOf(setup.values ? setup.values(first) : (first as ArrayLike<number>));
    if (last > o.slowMs) return { id: w.id, samples: [last], cpuSamples: [(c.user + c.system) / 1000], probe };
    let warm = last;
    for (let k = 1; k < o.maxWarmups && warm < o.warmupMs; k++) {
      t0 = performance.now();
      setup.run();
      last = performance.now() - t0;
      warm += last;
    }
    const reps = Math.max(1, Math.min(o.maxReps, Math.round(o.targetMs / Math.max(last, 1e-3))));
    const samples: number[] = [];
    const cpuSamples: number[] = [];
    for (let r = 0; r < reps; r++) {
      c0 = process.cpuUsage();
      t0 = performance.now();
      setup.run();
      samples.push(performance.now() - t0);
      const d = process.cpuUsage(c0);
      cpuSamples.push((d.user + d.system) / 1000);
    }
    return { id: w.id, samples, cpuSamples, probe };
  } finally {
    setup.dispose();
  }
}

/** "n/a (reason)" for a first run that threw: an op the backend has no kernel for yet, say. */
function naOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const missing = /no kernel for (aten::\S+) on (\w+)/.exec(msg);
  if (missing) return `no ${missing[2]} kernel for ${missing[1]} yet`;
  return `failed: ${msg.split('\n')[0].slice(0, 200)}`;
}

/**
 * `measure` for a library whose runs return promises (WebGPU: a run ends when its result
 * has been read back; Note [A wrong result is not a fast one]): the same warm-up, repeats and
 * probe, each run awaited inside its timing. The first run compiles the pipelines (seconds
 * each on a software adapter, once per process, as a GPU app pays once per page load): it is
 * never a sample, and the `slowMs` rule applies to the second run. A first run that throws
 * (an op not on this device yet) makes the workload n/a with the reason rather than ending
 * the process, so a workload starts to run by itself once the kernels it needs land.
 */
export async function measureAsync(lib: Library, w: Workload, o: MeasureOptions): Promise<Measurement> {
  gc?.();
  let setup;
  try {
    setup = lib.setup(w);
  } catch (e) {
    return { id: w.id, samples: [], na: naOf(e) };
  }
  if (isNa(setup)) return { id: w.id, samples: [], na: setup.na };
  try {
    let probe: Probe | undefined;
    let first: unknown;
    try {
      first = await setup.run();
    } catch (e) {
      return { id: w.id, samples: [], na: naOf(e) };
    }
    if (o.probe) probe = probeOf(setup.values ? setup.values(first) : (first as ArrayLike<number>));
    let c0 = process.cpuUsage();
    let t0 = performance.now();
    await setup.run();
    let last = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (last > o.slowMs) return { id: w.id, samples: [last], cpuSamples: [(c.user + c.system) / 1000], probe };
    let warm = last;
    for (let k = 1; k < o.maxWarmups && warm < o.warmupMs; k++) {
      t0 = performance.now();
      await setup.run();
      last = performance.now() - t0;
      warm += last;
    }
    const reps = Math.max(1, Math.min(o.maxReps, Math.round(o.targetMs / Math.max(last, 1e-3))));
    const samples: number[] = [];
    const cpuSamples: number[] = [];
    for (let r = 0; r < reps; r++) {
      c0 = process.cpuUsage();
      t0 = performance.now();
      await setup.run();
      samples.push(performance.now() - t0);
      const d = process.cpuUsage(c0);
      cpuSamples.push((d.user + d.system) / 1000);
    }
    return { id: w.id, samples, cpuSamples, probe };
  } finally {
    setup.dispose();
  }
}
