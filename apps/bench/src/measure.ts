import type { Library, PreparedOf } from './libs/types';
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
  /** Wall-clock ms of each timed run (Note [What a run times]). */
  readonly samples: number[];
  /** CPU ms (user + system, this process) of the same runs: what the run cost when the machine is shared. */
  readonly cpuSamples?: number[];
  /** Wall-clock ms of reading each timed run's output back, where that is apart from the run. */
  readonly readSamples?: number[];
  readonly probe?: Probe;
  readonly na?: string;
}

/** `gc()` where node runs with --expose-gc (it then is a global function). */
const gc: unknown = Reflect.get(globalThis, 'gc');

interface Run<D> {
  readonly ms: number;
  readonly cpuMs: number;
  readonly readMs?: number;
  /** What `read` returned (or `run`, when it is the read). */
  readonly data: D;
}

/** One run: the timed call, then its read-back, timed apart, then its output released (Note [What a run times]). */
async function once<O, D>(s: PreparedOf<O, D>): Promise<Run<D>> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  if (s.mode === 'read-in-run') {
    const data = await s.run();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    return { ms, cpuMs: (c.user + c.system) / 1000, data };
  }
  const out = s.mode === 'sync' ? s.run() : await s.run();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpuMs = (c.user + c.system) / 1000;
  const r0 = performance.now();
  const data = s.read(out);
  const readMs = performance.now() - r0;
  s.free?.(out);
  return { ms, cpuMs, readMs, data };
}

/** "n/a (reason)" for a setup or first run that threw: an op the backend has no kernel for yet, say. */
function naOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const missing = /no kernel for (aten::\S+) on (\w+)/.exec(msg);
  if (missing) return `no ${missing[2]} kernel for ${missing[1]} yet`;
  return `failed: ${msg.split('\n')[0].slice(0, 200)}`;
}

/**
 * Times one workload on one library: setup (untimed), warm-up runs (the first one's result
 * is probed), then each timed run measured on its own with performance.now(). Every run's
 * output is read back (Note [A wrong result is not a fast one]). A library whose first run
 * compiles (WebGPU pipelines: seconds each on a software adapter, once per process, as a GPU
 * app pays once per page load) never has it as a sample, and the `slowMs` rule applies to its
 * second run. A setup or first run that throws (an op not on this device yet) makes the
 * workload n/a with the reason rather than ending the process, so a workload starts to run by
 * itself once the kernels it needs land.
 */
export async function measure(lib: Library, w: Workload, o: MeasureOptions): Promise<Measurement> {
  if (typeof gc === 'function') gc();
  let setup;
  try {
    setup = await lib.setup(w);
  } catch (e) {
    return { id: w.id, samples: [], na: naOf(e) };
  }
  if (isNa(setup)) return { id: w.id, samples: [], na: setup.na };
  return setup.open((s) => measurePrepared(lib, w, o, s));
}

async function measurePrepared<O, D>(lib: Library, w: Workload, o: MeasureOptions, s: PreparedOf<O, D>): Promise<Measurement> {
  try {
    let first: Run<D>;
    try {
      first = await once(s);
    } catch (e) {
      return { id: w.id, samples: [], na: naOf(e) };
    }
    const probe = o.probe ? probeOf(s.values(first.data)) : undefined;
    const slow = lib.compilesOnFirstRun ? await once(s) : first;
    const readOf = (r: Run<D>[]) => (s.mode === 'read-in-run' ? {} : { readSamples: r.flatMap((x) => (x.readMs === undefined ? [] : [x.readMs])) });
    if (slow.ms > o.slowMs) return { id: w.id, samples: [slow.ms], cpuSamples: [slow.cpuMs], ...readOf([slow]), probe };
    let last = slow.ms;
    let warm = last;
    for (let k = 1; k < o.maxWarmups && warm < o.warmupMs; k++) {
      last = (await once(s)).ms;
      warm += last;
    }
    const reps = Math.max(1, Math.min(o.maxReps, Math.round(o.targetMs / Math.max(last, 1e-3))));
    const runs: Run<D>[] = [];
    for (let r = 0; r < reps; r++) runs.push(await once(s));
    return { id: w.id, samples: runs.map((x) => x.ms), cpuSamples: runs.map((x) => x.cpuMs), ...readOf(runs), probe };
  } finally {
    s.dispose();
  }
}
