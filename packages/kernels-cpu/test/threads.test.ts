import { CPU, TensorImpl, TorchError } from '@torch-ts/core';
import { describe, expect, it } from 'vitest';
import { cpuImpls, getNumThreads, setNumThreads, threadsReady } from '../src/index';
import { poolStats } from '../src/wasm/pool';
import { empty, read, releaseCreated, tensor, rng, view } from './helpers';

// Note [CPU thread pool]: the same results for any number of threads, and the workers do
// take part.


describe('CPU thread pool', () => {
  it('defaults to the machine\'s cores and refuses a bad count', async () => {
    await threadsReady();
    expect(getNumThreads()).toBeGreaterThanOrEqual(1);
    expect(() => setNumThreads(0)).toThrow(TorchError);
    expect(() => setNumThreads(1.5)).toThrow(TorchError);
  });

  it('matmul gives identical results on 1, 2 and 4 threads, and workers run tasks', async () => {
    const r = rng(9);
    const cases: [number, number, number][] = [[200, 150, 130], [37, 300, 401], [129, 64, 7]];
    const results: number[][][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      results.push(
        cases.map(([n, m, p]) => {
          const rr = rng(n * 1000 + p);
          const a = tensor('float32', [n, m], Array.from({ length: n * m }, rr));
          const b = tensor('float32', [m, p], Array.from({ length: m * p }, rr));
          const out = empty('float32', [n, p]);
          cpuImpls.mm(out, a, b);
          return read(out) as number[];
        }),
      );
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    expect(poolStats().workers).toBeGreaterThanOrEqual(3);
    // Workers take tasks whenever they are awake: over many jobs some must land on them.
    const before = poolStats().workerTasks;
    const a = tensor('float32', [256, 256], Array.from({ length: 256 * 256 }, r));
    const out = empty('float32', [256, 256]);
    for (let i = 0; i < 200 && poolStats().workerTasks === before; i++) cpuImpls.mm(out, a, a);
    expect(poolStats().workerTasks).toBeGreaterThan(before);
    releaseCreated();
    setNumThreads(2);
  });

  it('small GEMMs split over rows with B packed once give the one-thread bits (Note [Small GEMMs on the pool])', async () => {
    // Sizes between SMALL_GEMM_GRAIN and GEMM_GRAIN whose B is one packed block: 128^3, ragged
    // rows and columns, float64, transposed operands and an out with a row stride, addmm's
    // accumulation onto the bias.
    const cases: [number, number, number][] = [[128, 128, 128], [131, 97, 101], [50, 256, 90], [200, 40, 150]];
    const run = (): number[][] =>
      cases.flatMap(([n, m, p], ci) =>
        (['float32', 'float64'] as const).flatMap((dtype) => {
          const rr = rng(ci * 7 + (dtype === 'float64' ? 3 : 0));
          const a = tensor(dtype, [n, m], Array.from({ length: n * m }, rr));
          const b = tensor(dtype, [m, p], Array.from({ length: m * p }, rr));
          const out = empty(dtype, [n, p]);
          cpuImpls.mm(out, a, b);
          const at = tensor(dtype, [m, n], Array.from({ length: n * m }, rr));
          const bt = tensor(dtype, [p, m], Array.from({ length: m * p }, rr));
          const wide = empty(dtype, [n, p + 5]);
          cpuImpls.mm(view(wide, [n, p], [p + 5, 1], 0), view(at, [n, m], [1, n], 0), view(bt, [m, p], [1, m], 0));
          const bias = tensor(dtype, [p], Array.from({ length: p }, rr));
          const acc = empty(dtype, [n, p]);
          cpuImpls.addmm(acc, view(bias, [n, p], [0, 1], 0), a, b);
          return [read(out) as number[], read(view(wide, [n, p], [p + 5, 1], 0)) as number[], read(acc) as number[]];
        }),
      );
    // A process runs its first SMALL_GEMM_WARM small products on one thread: past them here.
    setNumThreads(2);
    const w = tensor('float32', [128, 128], Array.from({ length: 128 * 128 }, rng(2)));
    for (let i = 0; i < 40; i++) cpuImpls.mm(empty('float32', [128, 128]), w, w);
    const results: number[][][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      results.push(run());
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    // The one-thread result is the GEMM's (gemm.test.ts checks it against plain loops): here
    // a spot check that a split product is a product, not a copy of one task's rows.
    const [n, m, p] = cases[1];
    const rr = rng(7);
    const av = read(tensor('float32', [n, m], Array.from({ length: n * m }, rr))) as number[];
    const bv = read(tensor('float32', [m, p], Array.from({ length: m * p }, rr))) as number[];
    const got = results[1][6]; // case 1, float32, plain mm
    for (const [i, j] of [[0, 0], [n - 1, p - 1], [64, 50], [130, 3]]) {
      let s = 0;
      for (let k = 0; k < m; k++) s += av[i * m + k] * bv[k * p + j];
      expect(Math.abs(got[i * p + j] - s)).toBeLessThan(1e-4 * m);
    }
    // The workers take part in such products (whenever they are awake).
    setNumThreads(2);
    await threadsReady();
    const before = poolStats().workerTasks;
    const a = tensor('float32', [128, 128], Array.from({ length: 128 * 128 }, rng(4)));
    const out = empty('float32', [128, 128]);
    for (let i = 0; i < 2000 && poolStats().workerTasks === before; i++) cpuImpls.mm(out, a, a);
    expect(poolStats().workerTasks).toBeGreaterThan(before);
    releaseCreated();
  });

  it('runs every task of every job exactly once over many back-to-back jobs', async () => {
    setNumThreads(4);
    await threadsReady();
    const n = 140_000; // four pointwise tasks
    const r = rng(17);
    const a = tensor('float32', [n], Array.from({ length: n }, r));
    const want = (read(a) as number[]).map((v) => Math.fround(v + v));
    let bad = 0;
    for (let job = 0; job < 300; job++) {
      const out = TensorImpl.empty('test', [n], 'float32', CPU); // released below, untracked
      cpuImpls.add(out, a, a, 1);
      const got = out.storage.typed(Float32Array).subarray(out.storageOffset, out.storageOffset + n);
      for (let i = 0; i < n; i += 997) if (!Object.is(got[i], want[i])) bad++;
      if (!Object.is(got[n - 1], want[n - 1])) bad++;
      out.release();
    }
    expect(bad).toBe(0);
    releaseCreated();
    setNumThreads(2);
  });
});
