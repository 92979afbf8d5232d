/**
 * The caching allocator on a real device (Dawn): Note [Block reuse in submission order] and
 * the stats, emptyCache and error paths through core's memory API.
 */
import { describe, expect, it } from 'vitest';
import { empty, exp, memoryStats, mul, add, tidy, TorchError } from '@torch-ts/core';
import { emptyCache, memoryStats as webgpuStats, queueCounters } from '../src';
import type { WebGPUBlock } from '../src';
import { gpuTensor, readValues, webgpuReady, WEBGPU } from './helpers';

const blockOf = (t: { impl: { storage: { data: unknown } } }) => t.impl.storage.data as WebGPUBlock;

describe.skipIf(!webgpuReady)('WebGPU caching allocator on Dawn', () => {
  it('reuses a freed block at once, before the ops that read it have run', async () => {
    const n = 1000;
    const a = gpuTensor(Array.from({ length: n }, (_, i) => i), 'float32');
    const where = blockOf(a)!;
    const submits = queueCounters().submits;
    const b = mul(a, a); // recorded, not submitted
    expect(queueCounters().submits).toBe(submits);
    a.dispose(); // a's block goes back to the pool while b's dispatch still reads it
    const hits = webgpuStats().cacheHits;
    const c = exp(b); // c's output may take a's block: its dispatch is recorded after b's
    const d = gpuTensor(Array.from({ length: n }, () => 7), 'float32'); // an upload into a reused block
    const reused = [c, d].some((t) => blockOf(t)!.segment === where.segment && blockOf(t)!.offset === where.offset);
    expect(reused).toBe(true);
    expect(webgpuStats().cacheHits).toBeGreaterThan(hits);
    const bv = await readValues(b);
    expect(bv).toEqual(Array.from({ length: n }, (_, i) => i * i));
    expect(await readValues(d)).toEqual(Array.from({ length: n }, () => 7));
    const cv = await readValues(c);
    expect(cv[1]).toBeCloseTo(Math.E, 5);
  });

  it('reports allocated, reserved, active, peaks and cache hits through memory.stats', () => {
    const before = memoryStats('webgpu');
    const t = empty([1000], { dtype: 'float32', device: WEBGPU });
    const s = memoryStats('webgpu');
    expect(s.liveBytes).toBe(before.liveBytes + 4096);
    const a = s.allocator as ReturnType<typeof webgpuStats>;
    expect(a.activeBytes).toBe(s.liveBytes);
    expect(a.peakAllocatedBytes).toBeGreaterThanOrEqual(s.liveBytes);
    expect(a.requestedBytes).toBeGreaterThanOrEqual(4000);
    expect(s.reservedBytes).toBeGreaterThanOrEqual(s.liveBytes);
    t.dispose();
    expect(memoryStats('webgpu').liveBytes).toBe(before.liveBytes);
  });

  it('emptyCache gives back the buffers that hold no tensor', async () => {
    const big = empty([4 << 20], { dtype: "float32", device: WEBGPU }); // 16 MiB (>= 10 MiB): a segment of its own
    const reserved = webgpuStats().reservedBytes;
    big.dispose();
    expect(webgpuStats().reservedBytes).toBe(reserved); // cached, not released
    emptyCache();
    expect(webgpuStats().reservedBytes).toBeLessThanOrEqual(reserved - (16 << 20));
    // the device still works after buffers were destroyed
    const x = gpuTensor([1, 2, 3], 'float32');
    expect(await readValues(add(x, x))).toEqual([2, 4, 6]);
  });

  it('keeps allocated bytes flat over many steps, reserving no new buffers once warm', async () => {
    const a = gpuTensor(Array.from({ length: 4096 }, (_, i) => i / 4096), 'float32', [64, 64]);
    const step = () => tidy(() => exp(add(mul(a, a), a)).sum());
    const warm = step();
    await readValues(warm);
    warm.dispose();
    const s0 = webgpuStats();
    for (let i = 0; i < 300; i++) {
      const loss = step();
      if (i % 50 === 0) await readValues(loss);
      loss.dispose();
    }
    await readValues(a);
    const s1 = webgpuStats();
    // (earlier tests' handles may be collected meanwhile by the FinalizationRegistry: never more)
    expect(s1.allocatedBytes).toBeLessThanOrEqual(s0.allocatedBytes);
    expect(s1.reservedBytes).toBe(s0.reservedBytes);
    expect(s1.segmentAllocations).toBe(s0.segmentAllocations);
    expect(s1.cacheHits - s0.cacheHits).toBeGreaterThanOrEqual(300 * 3);
  });

  it('refuses a tensor larger than maxStorageBufferBindingSize with a TorchError naming the limit', () => {
    const live = memoryStats('webgpu').liveBytes;
    expect(() => empty([1 << 30], { dtype: 'float32', device: WEBGPU })).toThrow(TorchError);
    expect(() => empty([1 << 30], { dtype: 'float32', device: WEBGPU })).toThrow(/maxStorageBufferBindingSize/);
    expect(memoryStats('webgpu').liveBytes).toBe(live);
  });
});
