import type { LibName } from './libs/types';
import type { Measurement } from './measure';
import { compareProbes, type Probe } from './probe';
import type { Workload } from './workloads';

export interface Cell {
  /** Median of every timed run over all rounds, ms; null when n/a. */
  readonly medianMs: number | null;
  readonly minMs: number | null;
  readonly runs: number;
  /** Median CPU ms (user + system) of the same runs. */
  readonly cpuMedianMs: number | null;
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
  if (na !== undefined || samples.length === 0) return { medianMs: null, minMs: null, cpuMedianMs: null, runs: 0, na: na ?? 'no result', probe };
  const cpu = ms.flatMap((m) => m.cpuSamples ?? []);
  return { medianMs: median(samples), minMs: Math.min(...samples), cpuMedianMs: cpu.length ? median(cpu) : null, runs: samples.length, probe };
}

/** Where torch-ts has no result, the library whose probe is the reference. */
const FALLBACK_REFERENCES: readonly LibName[] = ['torch-ts', 'tfjs-cpu', 'torch-ts-webgpu', 'tfjs-webgpu'];

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

export type Metric = 'wall' | 'cpu';

function valueOf(c: Cell | undefined, metric: Metric): number | null {
  if (!c) return null;
  return metric === 'wall' ? c.medianMs : c.cpuMedianMs;
}

function fmtMs(c: Cell | undefined, metric: Metric): string {
  const v = valueOf(c, metric);
  if (!c || v === null) return 'n/a';
  const s = v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return c.mismatch ? `${s} WRONG` : s;
}

/** Speedup of torch-ts over a peer: peer time / torch-ts time. */
export function speedup(ours: Cell | undefined, peer: Cell | undefined, metric: Metric = 'wall'): number | null {
  const a = valueOf(ours, metric);
  const b = valueOf(peer, metric);
  if (a === null || b === null || ours!.mismatch || peer!.mismatch) return null;
  return b / a;
}

function fmtRatio(r: number | null): string {
  return r === null ? '-' : `${r.toFixed(2)}x`;
}

/** The results table (markdown), then the reasons of every n/a and mismatch. */
export function formatTable(
  workloads: readonly Workload[],
  libs: readonly LibName[],
  rows: Map<string, Map<LibName, Cell>>,
  metric: Metric = 'wall',
  withNotes = true,
  ours: LibName = 'torch-ts',
): string {
  const peers = libs.filter((l) => l !== ours);
  const head = ['workload', ...libs.map((l) => `${l} ms`), ...peers.map((p) => `vs ${p}`)];
  const body: string[][] = [];
  const notes: string[] = [];
  for (const w of workloads) {
    const cells = rows.get(w.id);
    if (!cells) continue;
    const mine = cells.get(ours);
    body.push([w.label, ...libs.map((l) => fmtMs(cells.get(l), metric)), ...peers.map((p) => fmtRatio(speedup(mine, cells.get(p), metric)))]);
    for (const l of libs) {
      const c = cells.get(l);
      if (c?.na) notes.push(`${w.id} on ${l}: n/a (${c.na})`);
      if (c?.mismatch) notes.push(`${w.id} on ${l}: WRONG result (${c.mismatch})`);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
  const sep = '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [line(head), sep, ...body.map(line), ...(withNotes && notes.length ? ['', ...notes] : [])].join('\n');
}
