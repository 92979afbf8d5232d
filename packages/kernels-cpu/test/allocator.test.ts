import { CPU, META, StorageImpl, TensorImpl, TorchError, getAllocator, liveCounts } from '@torch-ts/core';
import { describe, expect, it } from 'vitest';
import { CpuAllocator, cpuAllocator, cpuImpls } from '../src/index';
import { Heap } from '../src/wasm/heap';

/** An allocator on a heap of its own, so that its counters see only this test's blocks. */
function privateAllocator(maxPages = 64): CpuAllocator {
  return new CpuAllocator(new Heap({ memory: new WebAssembly.Memory({ initial: 1, maximum: maxPages, shared: true }), base: 0, maxPages }));
}

describe('CpuAllocator', () => {
  it('is registered for cpu on import', () => {
    expect(getAllocator('test', 'cpu')).toBe(cpuAllocator);
  });

  it('counts live, peak, allocations and frees, and returns to zero after release', () => {
    const a = privateAllocator();
    const p1 = a.allocate(12, CPU);
    const p2 = a.allocate(100, CPU);
    expect(a.stats()).toEqual({
      allocatedBytes: 112,
      peakAllocatedBytes: 112,
      reservedBytes: 64 + 128, // 64-byte blocks
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
    expect(a.stats()).toMatchObject({ allocatedBytes: 0, reservedBytes: 192, cachedBytes: 192, allocations: 2, frees: 2 });
  });

  it('refuses a double free', () => {
    const a = privateAllocator();
    const p = a.allocate(8, CPU);
    p.deleter!(p.context);
    expect(() => p.deleter!(p.context)).toThrow(TorchError);
  });

  it('hands out 64-byte aligned host regions that take every typed-array view, zero-size included', () => {
    for (const nbytes of [0, 1, 8, 24, 4096]) {
      const p = cpuAllocator.allocate(nbytes, CPU);
      const h = p.data;
      expect(h.byteOffset % 64).toBe(0);
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
    const liveBefore = liveCounts('cpu').storages;
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
    expect(liveCounts('cpu').storages).toBe(liveBefore);
  });

  it('puts storages in the shared WebAssembly memory, zero-filled, where kernels address them', () => {
    const p = cpuAllocator.allocate(256, CPU);
    expect(p.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(cpuAllocator.heap!.owns(p.data.buffer)).toBe(true);
    new Uint8Array(p.data.buffer, p.data.byteOffset, 256).fill(9);
    p.deleter!(p.context);
    const q = cpuAllocator.allocate(256, CPU);
    expect(q.data.byteOffset).toBe(p.data.byteOffset); // the freed block, reused...
    expect(new Uint8Array(q.data.buffer, q.data.byteOffset, 256).every((v) => v === 0)).toBe(true); // ...zeroed
    q.deleter!(q.context);
  });

  it('keeps earlier views valid when the memory grows', () => {
    const a = privateAllocator(1024);
    const first = a.allocate(1000, CPU);
    const view = new Float32Array(first.data.buffer, first.data.byteOffset, 250);
    view.fill(3);
    const big = a.allocate(8 << 20, CPU); // grows the memory
    expect(big.data.buffer).not.toBe(first.data.buffer);
    expect(big.data.buffer.byteLength).toBeGreaterThan(first.data.buffer.byteLength);
    new Float32Array(big.data.buffer, big.data.byteOffset, 2 << 20).fill(-1);
    expect(view.every((v) => v === 3)).toBe(true);
    expect(new Float32Array(big.data.buffer, first.data.byteOffset, 250).every((v) => v === 3)).toBe(true); // the same bytes
    big.deleter!(big.context);
    first.deleter!(first.context);
  });

  it('gives what the heap cannot hold an ArrayBuffer of its own, counted and freed like a block', () => {
    const a = privateAllocator(4); // 256 KiB of memory
    const inHeap = a.allocate(100_000, CPU);
    const own = a.allocate(300_000, CPU);
    expect(a.heap!.owns(inHeap.data.buffer)).toBe(true);
    expect(a.heap!.owns(own.data.buffer)).toBe(false);
    expect(own.data.buffer).toBeInstanceOf(ArrayBuffer);
    expect(a.stats()).toMatchObject({ allocatedBytes: 400_000, reservedBytes: 100_032 + 300_000 });
    own.deleter!(own.context);
    inHeap.deleter!(inHeap.context);
    expect(a.stats()).toMatchObject({ allocatedBytes: 0, reservedBytes: 0, cachedBytes: 0 });
  });
});
