/**
 * `pnpm bench` (repository root): torch-ts CPU side by side with TensorFlow.js (cpu and
 * wasm backends) and js-pytorch; with `--device webgpu`, torch-ts on WebGPU side by side
 * with tfjs-backend-webgpu (both on Dawn in Node, on the same adapter). Each library runs in
 * a child process of its own, and the libraries take turns, round robin, for several rounds
 * (so machine noise spreads over all of them); the table shows the median of every timed
 * run, in ms, and torch-ts's speedup (peer time / torch-ts time), and a JSON copy goes to
 * results/.
 *
 *   --quick        one round, fewer repeats: a smoke run
 *   --rounds N     rounds (default 3)
 *   --device D     cpu (default) or webgpu: the default libraries, the torch-ts library the
 *                  speedups are of, and the output file
 *   --libs a,b     libraries (default: torch-ts,tfjs-cpu,tfjs-wasm,js-pytorch; with
 *                  --device webgpu: torch-ts-webgpu,tfjs-webgpu); libraries that are all
 *                  WebGPU ones imply --device webgpu
 *   --only x,y     workload ids (default: all)
 *   --out FILE     JSON output (default results/<device>.json, results/<device>-quick.json
 *                  with --quick)
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildConfig, ChildMessage } from './child';
import { ALL_LIB_NAMES, LIB_NAMES, WEBGPU_LIB_NAMES, oursOn, type BenchDevice, type LibName } from './libs/types';
import type { MeasureOptions, Measurement } from './measure';
import { cellOf, checkCells, formatTable, speedup, type Cell } from './report';
import { WORKLOADS } from './workloads';

const here = dirname(fileURLToPath(import.meta.url));

interface Args {
  quick: boolean;
  rounds: number;
  device: BenchDevice;
  libs: LibName[];
  only: string[] | null;
  out: string;
}

function parseArgs(argv: string[]): Args {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const deviceArg = get('--device');
  if (deviceArg !== undefined && deviceArg !== 'cpu' && deviceArg !== 'webgpu') throw new Error(`bench: unknown device ${deviceArg} (know cpu, webgpu)`);
  const libsArg = get('--libs')?.split(',') as LibName[] | undefined;
  for (const l of libsArg ?? []) if (!ALL_LIB_NAMES.includes(l)) throw new Error(`bench: unknown library ${l} (know ${ALL_LIB_NAMES.join(', ')})`);
  const device: BenchDevice = deviceArg ?? (libsArg?.every((l) => WEBGPU_LIB_NAMES.includes(l)) ? 'webgpu' : 'cpu');
  const libs = libsArg ?? [...(device === 'webgpu' ? WEBGPU_LIB_NAMES : LIB_NAMES)];
  const only = get('--only')?.split(',') ?? null;
  for (const id of only ?? []) if (!WORKLOADS.some((w) => w.id === id)) throw new Error(`bench: unknown workload ${id}`);
  const out = get('--out') ?? join(here, '..', 'results', `${device}${quick ? '-quick' : ''}.json`);
  return { quick, rounds: Number(get('--rounds') ?? (quick ? 1 : 3)), device, libs, only, out: resolve(out) };
}

const FULL: MeasureOptions = { targetMs: 1500, maxReps: 15, warmupMs: 300, maxWarmups: 3, slowMs: 5000, probe: false };
/** A workload whose run takes longer than this (tfjs-cpu and js-pytorch matmul 2048) runs in the first round only. */
const ONCE_MS = 20_000;
const QUICK: MeasureOptions = { targetMs: 150, maxReps: 3, warmupMs: 0, maxWarmups: 1, slowMs: 1000, probe: false };

/** Runs one library's round in a child process; resolves with its measurements (n/a for any it never reached). */
function runChild(config: ChildConfig, onMeasurement: (m: Measurement) => void): Promise<{ describe: string; got: Measurement[] }> {
  return new Promise((done) => {
    const got: Measurement[] = [];
    let describe = '';
    const child = fork(join(here, 'child.ts'), [], {
      execArgv: [...process.execArgv, '--expose-gc', '--max-old-space-size=12288'],
      env: { ...process.env, TORCH_TS_BENCH_CHILD: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (msg: ChildMessage) => {
      if (msg.kind === 'describe') describe = msg.text;
      else {
        got.push(msg.m);
        onMeasurement(msg.m);
      }
    });
    child.on('exit', (code, signal) => {
      for (const id of config.ids) {
        if (!got.some((m) => m.id === id)) got.push({ id, samples: [], na: `child process failed (${signal ?? `exit ${code}`})` });
      }
      done({ describe, got });
    });
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const workloads = WORKLOADS.filter((w) => !args.only || args.only.includes(w.id));
  const base = args.quick ? QUICK : FULL;
  const measurements = new Map<LibName, Measurement[]>(args.libs.map((l) => [l, []]));
  const described = new Map<LibName, string>();
  const started = Date.now();
  for (let round = 0; round < args.rounds; round++) {
    const order = args.libs.map((_, i) => args.libs[(i + round) % args.libs.length]);
    for (const lib of order) {
      // A workload that was n/a in an earlier round stays n/a, and one whose run took longer
      // than ONCE_MS is not run again: its one run is its measurement.
      const earlier = measurements.get(lib)!;
      const ids = workloads
        .map((w) => w.id)
        .filter((id) => !earlier.some((m) => m.id === id && (m.na || m.samples.some((t) => t > ONCE_MS))));
      if (ids.length === 0) continue;
      const config: ChildConfig = { lib, ids, options: { ...base, probe: round === 0 }, predictLimitMs: args.quick ? 10_000 : 200_000 };
      const { describe, got } = await runChild(config, (m) => {
        const t = m.na ? `n/a (${m.na})` : `median ${cellOf([m]).medianMs!.toFixed(2)} ms over ${m.samples.length}`;
        process.stderr.write(`[round ${round + 1}/${args.rounds}] ${lib.padEnd(15)} ${m.id.padEnd(14)} ${t}\n`);
      });
      if (describe) described.set(lib, describe);
      earlier.push(...got);
    }
  }
  const ours = oursOn(args.device);
  const rows = new Map<string, Map<LibName, Cell>>();
  for (const w of workloads) {
    const cells = new Map<LibName, Cell>();
    for (const lib of args.libs) cells.set(lib, cellOf(measurements.get(lib)!.filter((m) => m.id === w.id)));
    checkCells(cells, ours);
    rows.set(w.id, cells);
  }
  const table = formatTable(workloads, args.libs, rows, 'wall', true, ours);
  const cpuTable = formatTable(workloads, args.libs, rows, 'cpu', false, ours);
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const header =
    `torch-ts ${args.device === 'webgpu' ? 'WebGPU' : 'CPU'} benchmark: ${args.rounds} round(s)${args.quick ? ' (quick)' : ''}, median ms of all timed runs; ` +
    `speedup = peer ms / ${ours} ms (> 1: torch-ts faster)\n` +
    `${cpu}, ${cpus().length} cores, node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s`;
  console.log(`\n${header}\n\nWall-clock ms (median):\n\n${table}\n\nCPU ms of the same runs (median; user + system of the library's process, GC threads included):\n\n${cpuTable}`);
  const json = {
    date: new Date().toISOString(),
    quick: args.quick,
    rounds: args.rounds,
    device: args.device,
    machine: { cpu, cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    libraries: Object.fromEntries(args.libs.map((l) => [l, described.get(l) ?? null])),
    workloads: workloads.map((w) => {
      const cells = rows.get(w.id)!;
      return {
        id: w.id,
        label: w.label,
        results: Object.fromEntries(
          args.libs.map((l) => {
            const c = cells.get(l)!;
            return [l, { medianMs: c.medianMs, minMs: c.minMs, cpuMedianMs: c.cpuMedianMs, runs: c.runs, na: c.na ?? null, mismatch: c.mismatch ?? null }];
          }),
        ),
        speedup: Object.fromEntries(args.libs.filter((l) => l !== ours).map((l) => [l, speedup(cells.get(ours), cells.get(l))])),
        cpuSpeedup: Object.fromEntries(args.libs.filter((l) => l !== ours).map((l) => [l, speedup(cells.get(ours), cells.get(l), 'cpu')])),
      };
    }),
  };
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, JSON.stringify(json, null, 2) + '\n');
  console.log(`\nwrote ${args.out}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
