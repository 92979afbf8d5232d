import { CPU, META, StorageImpl, TensorImpl, TorchError, getAllocator, liveCounts } from '@torch-ts/core';
import { describe, expect, it } from 'vitest';
import { CpuAllocator, cpuAllocator, cpuImpls } from '../src/index';

describe('CpuAllocator', () => {
  it('is registered for cpu on import', () => {
    expect(getAllocator('test', 'cpu')).toBe(cpuAllocator);
  });

  it('counts live, peak, allocations and frees, and returns to zero after release', () => {
    const a = new CpuAllocator();
    const p1 = a.allocate(12, CPU);
    const p2 = a.allocate(100, CPU);
    expect(a.stats()).toEqual({
      allocatedBytes: 112,
      peakAllocatedBytes: 112,
      reservedBytes: 112,
      cachedBytes: 0,
      allocations: 2,
      frees: 0,
    });
    p2.deleter!(p2.context);
    expect(a.stats().allocatedBytes).toBe(12);
    expect(a.stats().peakAllocatedBytes).toBe(112);
    a.resetPeakStats();
    expect(a.stats().peakAllocatedBytes).toBe(12);
    p1.deleter!(p1.context);
    expect(a.stats()).toMatchObject({ allocatedBytes: 0, reservedBytes: 0, allocations: 2, frees: 2 });
  });

  it('refuses a double free', () => {
    const a = new CpuAllocator();
    const p = a.allocate(8, CPU);
    p.deleter!(p.context);
    expect(() => p.deleter!(p.context)).toThrow(TorchError);
  });

  it('hands out 8-byte aligned host regions that take every typed-array view, zero-size included', () => {
    for (const nbytes of [0, 1, 8, 24, 4096]) {
      const p = cpuAllocator.allocate(nbytes, CPU);
      const h = p.data;
      expect(h.byteOffset % 8).toBe(0);
      expect(h.byteLength).toBe(nbytes);
      expect(new Float64Array(h.buffer, h.byteOffset, Math.floor(nbytes / 8)).length).toBe(Math.floor(nbytes / 8));
      expect(new BigInt64Array(h.buffer, h.byteOffset, Math.floor(nbytes / 8)).length).toBe(Math.floor(nbytes / 8));
      p.deleter!(p.context);
    }
  });

  it('rejects invalid sizes and other devices', () => {
    expect(() => cpuAllocator.allocate(-1, CPU)).toThrow(TorchError);
    expect(() => cpuAllocator.allocate(1.5, CPU)).toThrow(TorchError);
    expect(() => cpuAllocator.allocate(8, META)).toThrow(TorchError);
  });

  it('gets every StorageImpl byte back when storages and tensors are released', () => {
    const before = cpuAllocator.stats();
    const storages = [0, 3, 16, 1000].map((n) => StorageImpl.allocate('test', n, CPU));
    expect(cpuAllocator.stats().allocatedBytes - before.allocatedBytes).toBe(1019);
    const t = TensorImpl.empty('test', [4, 5], 'float64', CPU);
    const v = t.view([5, 4], [1, 5], 0);
    const o = TensorImpl.empty('test', [5, 4], 'float32', CPU);
    cpuImpls.copy(o, v);
    expect(cpuAllocator.stats().allocatedBytes - before.allocatedBytes).toBe(1019 + 160 + 80);
    for (const s of storages) s.release();
    t.release();
    expect(cpuAllocator.stats().allocatedBytes - before.allocatedBytes).toBe(240); // the view keeps t's storage
    v.release();
    o.release();
    const after = cpuAllocator.stats();
    expect(after.allocatedBytes).toBe(before.allocatedBytes);
    expect(after.frees - before.frees).toBe(6);
    expect(after.allocations - before.allocations).toBe(6);
    expect(liveCounts('cpu').storages).toBe(0);
  });
});
