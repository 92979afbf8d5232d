import { CPU, TensorImpl, TorchError } from '@torch-ts/core';
import { describe, expect, it } from 'vitest';
import { cpuImpls, getNumThreads, setNumThreads, threadsReady } from '../src/index';
import { poolStats } from '../src/wasm/pool';
import { empty, read, releaseCreated, tensor, rng } from './helpers';

// Note [CPU thread pool]: the same results for any number of threads, and the workers do
// take part.


describe('CPU thread pool', () => {
  it('defaults to the machine\'s cores and refuses a bad count', async () => {
    await threadsReady();
    expect(getNumThreads()).toBeGreaterThanOrEqual(1);
    expect(() => setNumThreads(0)).toThrow(TorchError);
    expect(() => setNumThreads(1.5)).toThrow(TorchError);
  }, 60_000);

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
  }, 60_000); // starting workers can take seconds on a loaded 2-core machine

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
  }, 60_000);
});
