/**
 * Issue 18: DataLoader workers (Note [DataLoader workers] in src/utils/data.ts). Worker threads
 * import an esbuild bundle of fixtures/data-workers.ts (with torch-ts inlined: a worker thread
 * cannot load TypeScript sources), built once; the batches equal PyTorch 1.13's for the same
 * seed (goldens/data.json, scripts/goldens/data.py) and numWorkers: 0's, in both backends
 * (worker threads and the in-process fallback).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/data.json';
import * as fx from './fixtures/data-workers';

const { DataLoader, TensorDataset, Subset, ConcatDataset, getWorkerInfo } = torch.utils.data;
const CWD = fileURLToPath(new URL('..', import.meta.url));
const gen = (seed: number): torch.Generator => new torch.Generator().manualSeed(seed);
const CONTEXTS = ['spawn', 'inprocess'] as const;

let dir = '';
let bundle = '';
/**
 * The fixtures and torch-ts in one ES module, built once: what worker threads import, and the
 * exit test's program (it runs `exitScenario` when started in a process's main thread).
 */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'torch-ts-data-workers-'));
  bundle = join(dir, 'data-workers.mjs');
  const fixture = fileURLToPath(new URL('./fixtures/data-workers.ts', import.meta.url));
  const main = `import { isMainThread } from 'node:worker_threads';\nimport { exitScenario } from ${JSON.stringify(fixture)};\nexport * from ${JSON.stringify(fixture)};\nif (isMainThread && process.argv[2] === 'exit-scenario') await exitScenario();\n`;
  await build({ stdin: { contents: main, resolveDir: CWD, loader: 'ts' }, outfile: bundle, bundle: true, platform: 'node', format: 'esm', target: 'node20', conditions: ['@torch-ts/source'], logLevel: 'error' });
  fx.setWorkerModule(pathToFileURL(bundle).href);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rowsOf = (loader: Iterable<unknown>): unknown[] => [...loader].map((b) => (b instanceof torch.Tensor ? b.tolist() : b));

type InfoBatch = { row: torch.Tensor; seed: string[] };
const infoRows = (b: InfoBatch): { rows: unknown; seeds: string[] } => ({ rows: b.row.tolist(), seeds: b.seed });

describe('DataLoader workers equal PyTorch', () => {
  it('per-worker seeds, worker info, round-robin order (goldens); persistent workers go on across epochs', async () => {
    for (const multiprocessingContext of CONTEXTS) {
      const want = golden['workers info g14 bs 3'];
      if (multiprocessingContext === 'inprocess') {
        expect([...new DataLoader(new fx.Info(), { batchSize: 3, numWorkers: 2, generator: gen(14), multiprocessingContext })].map(infoRows)).toEqual(want);
      }
      const g = gen(14);
      const p = new DataLoader(new fx.Info(), { batchSize: 3, numWorkers: 2, generator: g, persistentWorkers: true, multiprocessingContext });
      expect([...p].map(infoRows), multiprocessingContext).toEqual(want);
      const after = g.getState();
      // Epoch 2 draws no base seed (PyTorch's _reset), and its workers go on with their generators.
      const e2: { rows: number[][]; seeds: string[] }[] = [];
      for await (const b of p) e2.push(infoRows(b as InfoBatch) as { rows: number[][]; seeds: string[] });
      expect(g.getState()).toEqual(after);
      expect(e2.map((b) => b.seeds)).toEqual(want.map((b) => b.seeds));
      expect(e2.map((b) => b.rows.map((r) => r.slice(0, 3)))).toEqual(want.map((b) => b.rows.map((r) => r.slice(0, 3))));
      expect(e2.map((b) => b.rows.map((r) => r[3]))).not.toEqual(want.map((b) => b.rows.map((r) => r[3])));
      // Sharded streams (golden), restarted each epoch, also after an epoch broken off.
      const s = new DataLoader(new fx.Sharded(), { batchSize: 2, numWorkers: 2, persistentWorkers: true, multiprocessingContext });
      expect(rowsOf(s)).toEqual(golden['workers iterable sharded bs 2']);
      for (const _ of s) break;
      const asyncRows: unknown[] = [];
      for await (const b of s) asyncRows.push(b.tolist());
      expect(asyncRows).toEqual(golden['workers iterable sharded bs 2']);
    }
    expect(getWorkerInfo()).toBeNull();
  });

  it('IterableDataset (in-process): without workers the whole stream, duplicated when not sharded, dropLast per worker', async () => {
    const o = { numWorkers: 2, multiprocessingContext: 'inprocess' as const };
    expect(rowsOf(new DataLoader(new fx.Sharded(), { batchSize: 2 })).flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rowsOf(new DataLoader(new fx.Sharded(), { batchSize: 2, prefetchFactor: 1, ...o }))).toEqual(golden['workers iterable sharded bs 2']);
    expect(rowsOf(new DataLoader(new fx.Unsharded(), { batchSize: 2, ...o }))).toEqual([[0, 1], [0, 1], [2], [2]]);
    expect(rowsOf(new DataLoader(new fx.Unsharded(), { batchSize: 2, dropLast: true, ...o }))).toEqual([[0, 1], [0, 1]]);
    expect(rowsOf(new DataLoader(new fx.Sharded(7), { batchSize: null, numWorkers: 3, multiprocessingContext: 'inprocess' }))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const pairs = (b: unknown): unknown => (b as [number, torch.Tensor][]).map(([i, t]) => [i, t.tolist()]);
    expect(rowsOf(new DataLoader(new fx.Scaled(2.5, 5), { batchSize: 2, collateFn: (b: unknown[]) => b, ...o })).flatMap(pairs as never)).toEqual([0, 1, 2, 3, 4].map((i) => [i, [i * 2.5, -i]]));
  });

  it('shuffled batches of built-in datasets equal PyTorch and numWorkers 0; tensors of every kind cross', () => {
    const ds = (): InstanceType<typeof TensorDataset> => new TensorDataset(torch.arange(10), torch.arange(10, { dtype: 'float32' }).mul(0.5));
    const epochs = (loader: Iterable<torch.Tensor[]>, n: number): unknown[] => Array.from({ length: n }, () => [...loader].map((b) => [b[0].tolist(), b[1].tolist()]));
    for (const multiprocessingContext of CONTEXTS) {
      // (a workerInitFn from the bundle: a worker thread loads torch-ts from the module it names)
      const o = { numWorkers: 2, multiprocessingContext, workerInitFn: fx.initFn };
      // (thread starts are costly: one epoch in threads, both in-process; the epochs differ only in the main thread's draws)
      const nEpochs = multiprocessingContext === 'spawn' ? 1 : 2;
      expect(epochs(new DataLoader(ds(), { batchSize: 3, shuffle: true, generator: gen(42), ...o }), nEpochs)).toEqual(golden.shuffleGenerator42.slice(0, nEpochs));
      // Subset and ConcatDataset cross as specs of specs; complex, int64 beyond 2^53 and bool tensors as bytes.
      const big = torch.tensor([2n ** 60n + 1n, -3n, 7n, 9n], { dtype: 'int64' });
      const z = torch.complex(torch.arange(4, { dtype: 'float64' }), torch.ones([4], { dtype: 'float64' }));
      const nested = new ConcatDataset([new Subset(new TensorDataset(big, z, torch.tensor([true, false, true, true])), [3, 0]), new TensorDataset(big.flip(0), z, torch.zeros([4], { dtype: 'bool' }))]);
      const want = [...new DataLoader(nested, { batchSize: 4 })];
      const got = [...new DataLoader(nested, { batchSize: 4, ...o })];
      expect(got.length).toBe(2);
      for (const [i, b] of got.entries()) {
        for (const [k, t] of b.entries()) {
          expect(t.dtype).toBe(want[i][k].dtype);
          expect(t.tolist({ bigint: true })).toEqual(want[i][k].tolist({ bigint: true }));
        }
      }
      if (multiprocessingContext === 'spawn') continue;
      expect(epochs(new DataLoader(ds(), { batchSize: 4, dropLast: true, prefetchFactor: 1, ...o }), 1)).toEqual(golden.dropLast);
      const g = gen(10);
      const sl = new DataLoader(ds(), { batchSize: 5, shuffle: true, dropLast: true, generator: g, ...o });
      expect([epochs(sl, 2), torch.rand([2], { generator: g }).tolist()]).toEqual(golden['loader shuffle g10 bs 5 dropLast then']);
      torch.manualSeed(5);
      expect(epochs(new DataLoader(ds(), { batchSize: 3, shuffle: true, ...o }), 2)).toEqual(golden.shuffleDefaultSeed5);
      expect(torch.rand([2]).tolist()).toEqual(golden.afterShuffleDefault);
      const bs = new torch.utils.data.BatchSampler(new torch.utils.data.RandomSampler(ds(), { generator: gen(9) }), 3, true);
      expect(epochs(new DataLoader(ds(), { batchSampler: bs, ...o }), 2)).toEqual(golden['loader batchSampler']);
    }
  });

  it('collate in the worker or here; workerInitFn once per worker, in it; async samples in sampler order', async () => {
    for (const multiprocessingContext of CONTEXTS) {
      const o = { numWorkers: 2, multiprocessingContext };
      // A collateFn with a workerSpec runs in the worker; one without runs here, on the worker's samples.
      expect(rowsOf(new DataLoader(new fx.Failing(-1), { batchSize: 3, collateFn: fx.sumCollate, ...o }))).toEqual([[3, 0], [12, 1], [13, 0]]);
      // (in-process workers share one global scope: the last init's record is what all of them see)
      const calls = fx.initCalls.length;
      const [i0, i1] = multiprocessingContext === 'spawn' ? [100, 101] : [101, 101];
      expect(rowsOf(new DataLoader(new fx.InitRecorder(), { batchSize: 2, collateFn: (b: unknown[]) => b, workerInitFn: fx.initFn, ...o }))).toEqual([
        [[0, i0, 0], [1, i0, 0]],
        [[2, i1, 1], [3, i1, 1]],
        [[4, i0, 0], [5, i0, 0]],
      ]);
      expect(fx.initCalls.slice(calls)).toEqual(multiprocessingContext === 'spawn' ? [] : [0, 1]);
      const slow: unknown[] = [];
      for await (const b of new DataLoader(new fx.Slow(), { batchSize: 2, ...o })) slow.push(b.tolist());
      expect(slow).toEqual([[0, 1], [2, 3], [4, 5], [6, 7]]);
    }
  });
});

describe('DataLoader workers: lifecycle and errors', () => {
  it('worker errors re-raise here with the worker id; init errors; timeouts; unsendable datasets', () => {
    for (const multiprocessingContext of CONTEXTS) {
      const o = { batchSize: 2, numWorkers: 2, multiprocessingContext };
      const it = new DataLoader(new fx.Failing(5), o)[Symbol.iterator]();
      expect(it.next().value.tolist()).toEqual([0, 1]);
      expect(it.next().value.tolist()).toEqual([2, 3]);
      let err: unknown;
      try {
        it.next();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(torch.ValueError);
      expect((err as Error).message).toMatch(/^DataLoader: Caught ValueError in DataLoader worker process 0\.\nOriginal .*index 5 is bad/s);
      expect(it.next().done).toBe(true);
      expect(() => [...new DataLoader(new fx.Failing(-1), { ...o, numWorkers: 1, workerInitFn: fx.failingInit })]).toThrow(/^DataLoader: Caught IndexError in DataLoader worker process 0\.\nOriginal .*init of worker 0 failed/s);
    }
    expect(() => [...new DataLoader(new fx.Hangs(), { numWorkers: 1, timeout: 0.2, multiprocessingContext: 'spawn' })]).toThrow('DataLoader timed out after 0.2 seconds');
    class Local extends torch.utils.data.Dataset<number> {
      getItem(i: number): number {
        return i;
      }
      get length(): number {
        return 4;
      }
    }
    expect(() => [...new DataLoader(new Local(), { numWorkers: 2, multiprocessingContext: 'spawn' })]).toThrow(/^DataLoader: cannot send the dataset \(Local\) to worker threads: it has no workerSpec\(\)/);
    expect(() => [...new DataLoader(new fx.Info(), { numWorkers: 2, workerInitFn: () => undefined, multiprocessingContext: 'spawn' })]).toThrow(/^DataLoader: cannot send workerInitFn \(a function\) to a worker thread/);
    // In-process, any dataset and function work.
    expect(rowsOf(new DataLoader(new Local(), { batchSize: 3, numWorkers: 2, workerInitFn: () => undefined, multiprocessingContext: 'inprocess' }))).toEqual([[0, 1, 2], [3]]);
    // A worker whose module does not exist fails as it starts.
    const missing = Object.assign(new fx.Scaled(1, 2), { workerSpec: () => ({ module: pathToFileURL(join(dir, 'missing.mjs')).href, name: 'X' }) });
    expect(() => [...new DataLoader(missing, { numWorkers: 1 })]).toThrow(/^DataLoader: Caught Error while starting DataLoader worker process 0\.\nOriginal .*missing\.mjs/s);
  });

  it('argument errors are PyTorch 1.13 ValueErrors', () => {
    const ds = new fx.Scaled(1, 4);
    const msg = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(torch.ValueError);
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(msg(() => new DataLoader(ds, { numWorkers: -1 }))).toBe('num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.');
    expect(msg(() => new DataLoader(ds, { prefetchFactor: 2 }))).toBe('prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to enable multiprocessing.');
    expect(msg(() => new DataLoader(ds, { numWorkers: 2, prefetchFactor: 0 }))).toBe('prefetch_factor option should be positive, but got prefetch_factor=0');
    expect(msg(() => new DataLoader(ds, { persistentWorkers: true }))).toBe('persistent_workers option needs num_workers > 0');
    expect(msg(() => new DataLoader(ds, { multiprocessingContext: 'spawn' }))).toBe('multiprocessing_context can only be used with multi-process loading (num_workers > 0), but got num_workers=0');
    expect(msg(() => new DataLoader(ds, { numWorkers: 1, multiprocessingContext: 'fork' as never }))).toBe("multiprocessing_context option should specify a valid start method in ['spawn', 'inprocess'], but got multiprocessing_context='fork'");
    expect(new DataLoader(ds, { numWorkers: 2 }).prefetchFactor).toBeNull();
  });

  // Note [Timeouts only catch hangs]: the child starts worker threads that each load torch-ts, which
  // takes seconds alone and minutes on a loaded machine; only a child that never exits is killed.
  it('the process exits by itself: an exhausted, a dropped, a broken-off and a persistent loader', async () => {
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [bundle, 'exit-scenario'], { cwd: CWD, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), 200_000);
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout.trim().split('\n')).toEqual(['exhausted 4', 'broken 1', 'dropped 1', 'persistent 4 4', 'async 4']);
  });
});
