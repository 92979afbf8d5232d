import type { LibName } from './libs/types';
import type { Measurement } from './measure';
import { compareProbes, type Probe } from './probe';
import { workOf, type Workload } from './workloads';

export interface Cell {
  /** Median of every timed run over all rounds, ms; null when n/a. */
  readonly medianMs: number | null;
  readonly minMs: number | null;
  readonly runs: number;
  /** Median CPU ms (user + system) of the same runs. */
  readonly cpuMedianMs: number | null;
  /** Median ms of reading the output back, where that is timed apart (Note [What a run times]). */
  readonly readMedianMs: number | null;
  readonly na?: string;
  /** Set when this library's result disagrees with the reference library's. */
  readonly mismatch?: string;
  readonly probe?: Probe;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Merges the rounds of one library and workload into a cell. */
export function cellOf(ms: readonly Measurement[]): Cell {
  const samples = ms.flatMap((m) => m.samples);
  const probe = ms.find((m) => m.probe)?.probe;
  const na = ms.find((m) => m.na)?.na;
  if (na !== undefined || samples.length === 0) return { medianMs: null, minMs: null, cpuMedianMs: null, readMedianMs: null, runs: 0, na: na ?? 'no result', probe };
  const cpu = ms.flatMap((m) => m.cpuSamples ?? []);
  const read = ms.flatMap((m) => m.readSamples ?? []);
  return {
    medianMs: median(samples),
    minMs: Math.min(...samples),
    cpuMedianMs: cpu.length ? median(cpu) : null,
    readMedianMs: read.length ? median(read) : null,
    runs: samples.length,
    probe,
  };
}

/** Where torch-ts has no result, the library whose probe is the reference. */
const FALLBACK_REFERENCES: readonly LibName[] = ['torch-ts', 'torch-ts-threads', 'pytorch', 'tfjs-cpu', 'torch-ts-webgpu', 'tfjs-webgpu'];

/**
 * Checks every library's probe against the reference: `ours` (torch-ts, or torch-ts-webgpu
 * in the WebGPU table), else the first of FALLBACK_REFERENCES with a result. A mismatching
 * cell keeps its time but is flagged (and never counted fast).
 */
export function checkCells(cells: Map<LibName, Cell>, ours: LibName = 'torch-ts'): void {
  let ref = cells.get(ours)?.probe;
  for (const l of FALLBACK_REFERENCES) ref ??= cells.get(l)?.probe;
  if (!ref) return;
  for (const [lib, cell] of cells) {
    if (!cell.probe || cell.probe === ref) continue;
    const d = compareProbes(cell.probe, ref);
    if (d !== null) cells.set(lib, { ...cell, mismatch: d });
  }
}

/**
 * Checks each library's result of a row that computes another row's numbers in another
 * memory layout (`sameAs`: a channels-last conv row and its contiguous row, Note [Conv
 * backward rows]) against its own result of that row, where both ran: checkCells compares
 * libraries on one row, this compares a library's two paths (torch-ts's channels-last
 * kernels against its contiguous ones). A disagreement flags the row's cell.
 */
export function checkSameAs(workloads: readonly Workload[], rows: Map<string, Map<LibName, Cell>>): void {
  for (const w of workloads) {
    const cells = rows.get(w.id);
    const base = w.sameAs === undefined ? undefined : rows.get(w.sameAs);
    if (!cells || !base) continue;
    for (const [lib, cell] of cells) {
      const ref = base.get(lib)?.probe;
      if (!cell.probe || !ref) continue;
      const d = compareProbes(cell.probe, ref);
      if (d !== null) cells.set(lib, { ...cell, mismatch: `differs from its ${w.sameAs} result: ${d}` });
    }
  }
}

/**
 * What a table shows: `wall` the median wall-clock ms of the runs, `cpu` the CPU ms of the
 * same runs (both in µs per call on the overhead rows, Note [Overhead rows]), `read` the read-back ms (no
 * overhead rows), `rate` GFLOP/s or GB/s from the median wall-clock ms (the rows `workOf` knows).
 */
export type Metric = 'wall' | 'cpu' | 'read' | 'rate';

function hasRow(w: Workload, metric: Metric): boolean {
  if (metric === 'rate') return workOf(w) !== null;
  return metric !== 'read' || !w.calls;
}

function valueOf(c: Cell | undefined, metric: Metric, w: Workload): number | null {
  if (!c) return null;
  if (metric === 'read') return c.readMedianMs;
  const ms = metric === 'cpu' ? c.cpuMedianMs : c.medianMs;
  if (ms === null) return null;
  if (metric === 'rate') return workOf(w)!.amount / (ms * 1e6);
  return w.calls ? (ms * 1000) / w.calls : ms;
}

function fmtValue(c: Cell | undefined, metric: Metric, w: Workload): string {
  const v = valueOf(c, metric, w);
  if (!c || v === null) return 'n/a';
  const s = v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 0.01 ? v.toFixed(2) : v.toFixed(4);
  return c.mismatch ? `${s} WRONG` : s;
}

/** Speedup of torch-ts over a peer: peer time / torch-ts time (wall or CPU). */
export function speedup(ours: Cell | undefined, peer: Cell | undefined, metric: 'wall' | 'cpu' = 'wall'): number | null {
  const a = metric === 'wall' ? ours?.medianMs : ours?.cpuMedianMs;
  const b = metric === 'wall' ? peer?.medianMs : peer?.cpuMedianMs;
  if (a == null || b == null || ours!.mismatch || peer!.mismatch) return null;
  return b / a;
}

function fmtRatio(r: number | null): string {
  return r === null ? '-' : `${r.toFixed(2)}x`;
}

export interface TableOptions {
  readonly metric?: Metric;
  /** The reasons of every n/a and mismatch, under the table. */
  readonly notes?: boolean;
  /** The torch-ts library whose speedup over each peer is shown (wall and cpu tables). */
  readonly ours?: LibName;
  /** Libraries with no speedup column: torch-ts's own other columns. */
  readonly noRatio?: readonly LibName[];
  /** Column headings; a library's name by default. */
  readonly names?: ReadonlyMap<LibName, string>;
}

/** A results table (markdown), then (`notes`) the reasons of every n/a and mismatch. */
export function formatTable(workloads: readonly Workload[], libs: readonly LibName[], rows: Map<string, Map<LibName, Cell>>, o: TableOptions = {}): string {
  const metric = o.metric ?? 'wall';
  const ours = o.ours ?? 'torch-ts';
  const ratioMetric = metric === 'wall' || metric === 'cpu' ? metric : null;
  const peers = ratioMetric ? libs.filter((l) => l !== ours && !o.noRatio?.includes(l)) : [];
  const name = (l: LibName) => o.names?.get(l) ?? l;
  const head = ['workload', ...libs.map(name), ...peers.map((p) => `vs ${name(p)}`)];
  const body: string[][] = [];
  const notes: string[] = [];
  for (const w of workloads) {
    const cells = rows.get(w.id);
    if (!cells || !hasRow(w, metric)) continue;
    const mine = cells.get(ours);
    const label = metric === 'rate' ? `${w.label} (${workOf(w)!.unit})` : w.label;
    body.push([label, ...libs.map((l) => fmtValue(cells.get(l), metric, w)), ...(ratioMetric ? peers.map((p) => fmtRatio(speedup(mine, cells.get(p), ratioMetric))) : [])]);
    for (const l of libs) {
      const c = cells.get(l);
      if (c?.na) notes.push(`${w.id} on ${name(l)}: n/a (${c.na})`);
      if (c?.mismatch) notes.push(`${w.id} on ${name(l)}: WRONG result (${c.mismatch})`);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  const sep = '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [line(head), sep, ...body.map(line), ...(o.notes && notes.length ? ['', ...notes] : [])].join('\n');
}
