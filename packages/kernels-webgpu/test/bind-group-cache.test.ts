/**
 * Note [Bind group cache] on a real device (Dawn): bind groups are reused across dispatches
 * that bind the same storage ranges, each dispatch still reads its own parameters (dynamic
 * uniform offsets), and the entries of buffers that emptyCache destroys are dropped.
 */
import { describe, expect, it } from 'vitest';
import { add, empty, mm, mul, mul_, tidy } from '@torch-ts/core';
import { emptyCache } from '../src';
import { commandQueue } from '../src/runtime/queue';
import { gpuTensor, readValues, webgpuReady, WEBGPU } from './helpers';

describe.skipIf(!webgpuReady)('WebGPU bind group cache', () => {
  it('reuses a bind group for the same tensors, with each dispatch reading its own parameters', async () => {
    const q = commandQueue('test');
    const t = gpuTensor([1, 2, 3, 4], 'float32');
    mul_(t, 2); // compiles, and caches the bind group of (t, params)
    await readValues(t);
    const created = q.counters.bindGroupsCreated;
    const hits = q.counters.bindGroupHits;
    const submits = q.counters.submits;
    // same binding, different scalars, in one batch: one cached bind group, two ring offsets
    mul_(t, 3);
    mul_(t, 5);
    mul_(t, 0.5);
    expect(q.counters.submits).toBe(submits);
    expect(q.counters.bindGroupsCreated).toBe(created);
    expect(q.counters.bindGroupHits).toBeGreaterThanOrEqual(hits + 3); // (an op may take more than one dispatch)
    expect(await readValues(t)).toEqual([15, 30, 45, 60]);
    t.dispose();
  });

  it('serves a repeated training-like step from the cache and gives the same values', async () => {
    const q = commandQueue('test');
    const a = gpuTensor(Array.from({ length: 32 * 8 }, (_, i) => ((i * 7) % 11) / 10 - 0.5), 'float32', [32, 8]);
    const w = gpuTensor(Array.from({ length: 8 * 16 }, (_, i) => ((i * 5) % 13) / 10 - 0.6), 'float32', [8, 16]);
    const step = () => tidy(() => add(mul(mm(a, w), 2), 1).sum());
    const first = step();
    const want = await readValues(first);
    first.dispose();
    const created = q.counters.bindGroupsCreated;
    for (let i = 0; i < 20; i++) {
      const s = step();
      expect(await readValues(s)).toEqual(want);
      s.dispose();
    }
    expect(q.counters.bindGroupsCreated).toBe(created);
    a.dispose();
    w.dispose();
  });

  it('stays within its bound, dropping the least recently used entries', async () => {
    const q = commandQueue('test');
    const bound = q.maxBindGroups;
    q.maxBindGroups = 8;
    try {
      const keep = gpuTensor([1, 2], 'float32');
      const ts = Array.from({ length: 20 }, (_, i) => gpuTensor([i, i + 1], 'float32'));
      for (const t of ts) {
        mul_(t, 2);
        mul_(keep, 1); // recently used all along: never dropped
        expect(q.bindGroupCacheSize).toBeLessThanOrEqual(8);
      }
      const created = q.counters.bindGroupsCreated;
      mul_(keep, 3);
      expect(q.counters.bindGroupsCreated).toBe(created);
      for (let i = 0; i < ts.length; i++) expect(await readValues(ts[i])).toEqual([2 * i, 2 * i + 2]);
      expect(await readValues(keep)).toEqual([3, 6]);
      for (const t of ts) t.dispose();
      keep.dispose();
    } finally {
      q.maxBindGroups = bound;
    }
  });

  it('drops the entries of buffers that emptyCache destroys', async () => {
    const q = commandQueue('test');
    const big = empty([4 << 20], { dtype: 'float32', device: WEBGPU }); // a 16 MiB segment of its own
    mul_(big, 2);
    await readValues(gpuTensor([0], 'float32'));
    const size = q.bindGroupCacheSize;
    big.dispose();
    emptyCache();
    expect(q.bindGroupCacheSize).toBeLessThan(size);
    const x = gpuTensor([1, 2, 3], 'float32');
    expect(await readValues(add(x, x))).toEqual([2, 4, 6]);
  });
});
