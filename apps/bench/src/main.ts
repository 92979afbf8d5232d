/**
 * `pnpm bench` (repository root): torch-ts CPU (on one thread, and on its default thread
 * count where it has `torch.setNumThreads`) side by side with TensorFlow.js (cpu and wasm
 * backends), js-pytorch, onnxruntime-node and, where `/usr/bin/python3` imports it, PyTorch,
 * every peer on one thread; with `--device webgpu`, torch-ts on WebGPU side by side with
 * tfjs-backend-webgpu (both on Dawn in Node, on the same adapter). Each library runs in a
 * child process of its own, and the libraries take turns, round robin, for several rounds
 * (so machine noise spreads over all of them). The tables show the median of every timed run
 * (the op call on the CPU, Note [What a run times]), in ms (µs per call on the overhead
 * rows), with torch-ts's speedup (peer time / torch-ts time); then GFLOP/s or GB/s, the
 * read-back ms and the CPU ms; a JSON copy goes to results/.
 *
 *   --quick        one round, fewer repeats: a smoke run
 *   --rounds N     rounds (default 3)
 *   --device D     cpu (default) or webgpu: the default libraries, the torch-ts library the
 *                  speedups are of, and the output file
 *   --libs a,b     libraries (default: torch-ts,torch-ts-threads,tfjs-cpu,tfjs-wasm,js-pytorch,
 *                  onnxruntime,pytorch; with --device webgpu: torch-ts-webgpu,tfjs-webgpu,
 *                  pytorch-cuda); libraries that are all GPU ones imply --device webgpu
 *
 * TORCH_TS_BENCH_PYTHON names the Python of the PyTorch columns (default /usr/bin/python3).
 * Run from a bundle (scripts/device-bundle.mjs), the children are the bundle's child.mjs.
 *
 * Note [torch-ts as published]
 * The peers run as their packages ship (their built JavaScript), and so does torch-ts:
 * `pnpm bench` builds the workspace packages first (turbo, cached) and imports their `dist`,
 * the tsup output a user's `import` gets. Running torch-ts from source through tsx would
 * time tsx's development transform too: it keeps function names (`keepNames`), which wraps
 * every closure made in an op call in a `__name()` call, about 0.6 µs of a 2 µs small op.
 * The device bundle (scripts/device-bundle.mjs) compiles the sources with esbuild as tsup
 * does, so it times the same code.
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
import { pytorchMissing, runPytorch } from './pytorch';
import { cellOf, checkCells, checkSameAs, formatTable, speedup, type Cell, type TableOptions } from './report';
import { WORKLOADS, workOf } from './workloads';

const here = dirname(fileURLToPath(import.meta.url));

interface Args {
  quick: boolean;
  rounds: number;
  device: BenchDevice;
  /** What was asked for; `available` then leaves out what this machine cannot run. */
  libs: LibName[];
  only: string[] | null;
  out: string;
}

function fail(message: string): never {
  throw new Error(message);
}

function parseArgs(argv: string[]): Args {
  const get = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const quick = argv.includes('--quick');
  const deviceArg = get('--device');
  if (deviceArg !== undefined && deviceArg !== 'cpu' && deviceArg !== 'webgpu') throw new Error(`bench: unknown device ${deviceArg} (know cpu, webgpu)`);
  const libsArg = get('--libs')
    ?.split(',')
    .map((l) => ALL_LIB_NAMES.find((n) => n === l) ?? fail(`bench: unknown library ${l} (know ${ALL_LIB_NAMES.join(', ')})`));
  const device: BenchDevice = deviceArg ?? (libsArg?.every((l) => WEBGPU_LIB_NAMES.includes(l)) ? 'webgpu' : 'cpu');
  const libs = libsArg ?? [...(device === 'webgpu' ? WEBGPU_LIB_NAMES : LIB_NAMES)];
  const only = get('--only')?.split(',') ?? null;
  for (const id of only ?? []) if (!WORKLOADS.some((w) => w.id === id)) throw new Error(`bench: unknown workload ${id}`);
  const out = get('--out') ?? join(here, '..', 'results', `${device}${quick ? '-quick' : ''}.json`);
  return { quick, rounds: Number(get('--rounds') ?? (quick ? 1 : 3)), device, libs, only, out: resolve(out) };
}

/**
 * Warm-up: runs until 300 ms are spent, up to 200 of them. Each round is a fresh process, and
 * a sub-millisecond op needs many calls before V8 has optimized the JS around it (tfjs's glue
 * as much as torch-ts's dispatch): with 3 warm-ups, matmul 128 timed 0.15 ms on torch-ts and
 * 0.20 on tfjs-wasm, with 200 0.09 and 0.10, what either library gives a program that calls
 * it in a loop. A slow run still ends the warm-up after the first one.
 */
const FULL: MeasureOptions = { targetMs: 1500, maxReps: 15, warmupMs: 300, maxWarmups: 200, slowMs: 5000, probe: false };
/** A workload whose run takes longer than this (tfjs-cpu and js-pytorch matmul 2048) runs in the first round only. */
const ONCE_MS = 20_000;
const QUICK: MeasureOptions = { targetMs: 150, maxReps: 3, warmupMs: 0, maxWarmups: 1, slowMs: 1000, probe: false };

/** A Node library's round in a child process (child.ts); resolves with how it ended. */
function forkChild(config: ChildConfig, onMessage: (msg: ChildMessage) => void): Promise<string> {
  return new Promise((done) => {
    const child = fork(join(here, fileURLToPath(import.meta.url).endsWith('.ts') ? 'child.ts' : 'child.mjs'), [], {
      execArgv: [...process.execArgv, '--expose-gc', '--max-old-space-size=12288'],
      env: { ...process.env, TORCH_TS_BENCH_CHILD: JSON.stringify(config) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', onMessage);
    child.on('exit', (code, signal) => done(signal ?? `exit ${code}`));
  });
}

/** Runs one library's round (a Node child, or Python for PyTorch); resolves with its measurements (n/a for any it never reached). */
async function runChild(config: ChildConfig, onMeasurement: (m: Measurement) => void): Promise<{ describe: string; got: Measurement[] }> {
  const got: Measurement[] = [];
  let describe = '';
  const onMessage = (msg: ChildMessage) => {
    if (msg.kind === 'describe') describe = msg.text;
    else {
      got.push(msg.m);
      onMeasurement(msg.m);
    }
  };
  const python = config.lib === 'pytorch' || config.lib === 'pytorch-cuda';
  const ended = await (python ? runPytorch(config, onMessage) : forkChild(config, onMessage));
  for (const id of config.ids) {
    if (!got.some((m) => m.id === id)) got.push({ id, samples: [], na: `child process failed (${ended})` });
  }
  return { describe, got };
}

/**
 * The libraries this machine can run of those asked for: `torch-ts-threads` only where torch-ts
 * runs on several threads (Note [torch-ts thread columns]), `pytorch` only where Python imports
 * it; one line on stderr for each left out. Returns them with their column headings.
 */
async function available(libs: readonly LibName[]): Promise<{ libs: LibName[]; names: Map<LibName, string> }> {
  const names = new Map<LibName, string>();
  const out: LibName[] = [];
  for (const lib of libs) {
    if (lib === 'torch-ts' || lib === 'torch-ts-threads') {
      const threads = (await import('./libs/torch-ts')).defaultThreads();
      if (lib === 'torch-ts-threads' && threads === null) {
        process.stderr.write('bench: torch-ts runs on one thread here (no torch.setNumThreads, or one core): one torch-ts column\n');
        continue;
      }
      names.set(lib, lib === 'torch-ts' ? 'torch-ts (1 thread)' : `torch-ts (${threads} threads)`);
    }
    if (lib === 'pytorch' || lib === 'pytorch-cuda') {
      const missing = pytorchMissing(lib);
      if (missing !== null) {
        process.stderr.write(`bench: no ${lib} column (${missing})\n`);
        continue;
      }
    }
    out.push(lib);
  }
  return { libs: out, names };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { libs, names } = await available(args.libs);
  args.libs = libs;
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
  checkSameAs(workloads, rows);
  const table: TableOptions = { ours, names, noRatio: ['torch-ts-threads'] };
  const wall = formatTable(workloads, args.libs, rows, { ...table, notes: true });
  const rate = formatTable(workloads, args.libs, rows, { ...table, metric: 'rate' });
  const read = formatTable(workloads, args.libs, rows, { ...table, metric: 'read' });
  const cpuTable = formatTable(workloads, args.libs, rows, { ...table, metric: 'cpu' });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const header =
    `torch-ts ${args.device === 'webgpu' ? 'WebGPU' : 'CPU'} benchmark: ${args.rounds} round(s)${args.quick ? ' (quick)' : ''}, median of all timed runs; ` +
    `speedup = peer time / ${names.get(ours) ?? ours} time (> 1: torch-ts faster)\n` +
    `${cpu}, ${cpus().length} cores, node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s`;
  console.log(
    `\n${header}\n\nWall-clock ms of the op call (median; µs per call on the overhead rows):\n\n${wall}` +
      `\n\nThroughput from the median wall-clock ms (GFLOP/s: 2 per multiply-add; GB/s: float32 bytes read and written at least once):\n\n${rate}` +
      `\n\nRead-back ms of the same runs (median; timed apart from the op, Note [What a run times]; n/a where the run includes it):\n\n${read}` +
      `\n\nCPU ms of the same runs (median; µs per call on the overhead rows; user + system of the library's process, GC threads included):\n\n${cpuTable}`,
  );
  const json = {
    date: new Date().toISOString(),
    quick: args.quick,
    rounds: args.rounds,
    device: args.device,
    machine: { cpu, cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
    libraries: Object.fromEntries(args.libs.map((l) => [l, described.get(l) ?? null])),
    columns: Object.fromEntries(args.libs.map((l) => [l, names.get(l) ?? l])),
    workloads: workloads.map((w) => {
      const cells = rows.get(w.id)!;
      const work = workOf(w);
      return {
        id: w.id,
        label: w.label,
        calls: w.calls ?? null,
        results: Object.fromEntries(
          args.libs.map((l) => {
            const c = cells.get(l)!;
            return [
              l,
              {
                medianMs: c.medianMs,
                minMs: c.minMs,
                cpuMedianMs: c.cpuMedianMs,
                readMedianMs: c.readMedianMs,
                usPerCall: w.calls && c.medianMs !== null ? (c.medianMs * 1000) / w.calls : null,
                throughput: work && c.medianMs !== null ? { unit: work.unit, value: work.amount / (c.medianMs * 1e6) } : null,
                runs: c.runs,
                na: c.na ?? null,
                mismatch: c.mismatch ?? null,
              },
            ];
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

// Exits when done: torch-ts, imported here to count its threads, may hold worker threads.
main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
