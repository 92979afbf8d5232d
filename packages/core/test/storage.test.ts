import { describe, it, expect, beforeAll } from 'vitest';
import {
  CPU,
  DeviceError,
  META,
  StorageImpl,
  TensorImpl,
  TorchError,
  VersionCounter,
  emptyStats,
  liveCounts,
  memoryStats,
  registerAllocator,
  type Allocator,
  type AllocatorStats,
  type DataPtr,
  type Device,
  type HostRegion,
} from '../src/index';

/**
 * A CPU allocator for tests: fresh ArrayBuffers, a deleter that records what it frees, and
 * the byte counters `memory.stats` reads.
 */
class TestAllocator implements Allocator {
  readonly deviceType = 'cpu' as const;
  readonly s: AllocatorStats = emptyStats();
  readonly freed: number[] = [];
  allocate(nbytes: number, device: Device): DataPtr {
    const region: HostRegion = { buffer: new ArrayBuffer(nbytes), byteOffset: 0, byteLength: nbytes };
    this.s.allocatedBytes += nbytes;
    this.s.reservedBytes += nbytes;
    this.s.peakAllocatedBytes = Math.max(this.s.peakAllocatedBytes, this.s.allocatedBytes);
    this.s.allocations++;
    return {
      data: region,
      context: nbytes,
      device,
      deleter: (ctx) => {
        const n = ctx as number;
        this.freed.push(n);
        this.s.allocatedBytes -= n;
        this.s.reservedBytes -= n;
        this.s.frees++;
      },
    };
  }
  stats(): AllocatorStats {
    return { ...this.s };
  }
  resetPeakStats(): void {
    this.s.peakAllocatedBytes = this.s.allocatedBytes;
  }
}

const alloc = new TestAllocator();
beforeAll(() => registerAllocator(alloc));

describe('StorageImpl', () => {
  it('allocates through the allocator registered for the device type and counts itself live', () => {
    const before = { ...liveCounts('cpu') };
    const bytes0 = alloc.s.allocatedBytes;
    const s = StorageImpl.allocate('test', 24, CPU);
    expect(s.nbytes).toBe(24);
    expect(s.device).toBe(CPU);
    expect(s.allocator).toBe(alloc);
    expect(s.useCount).toBe(1);
    expect(liveCounts('cpu').storages).toBe(before.storages + 1);
    expect(alloc.s.allocatedBytes).toBe(bytes0 + 24);
    expect(memoryStats('cpu').liveBytes).toBe(bytes0 + 24);
    expect(s.host.byteLength).toBe(24);
    s.release();
    expect(liveCounts('cpu').storages).toBe(before.storages);
    expect(memoryStats('cpu').liveBytes).toBe(bytes0);
  });

  it('typed() views the whole storage, cached per element type, all aliasing the same bytes', () => {
    const s = StorageImpl.allocate('test', 16, CPU);
    const f32 = s.typed(Float32Array);
    expect(f32.length).toBe(4);
    expect(s.typed(Float32Array)).toBe(f32);
    const u8 = s.typed(Uint8Array);
    expect(u8.length).toBe(16);
    const f64 = s.typed(Float64Array);
    expect(f64.length).toBe(2);
    f64[1] = 1.5; // bytes 8..15: 0x3FF8000000000000 little-endian
    expect(u8[15]).toBe(0x3f);
    expect(u8[14]).toBe(0xf8);
    expect(f32[3]).toBe(1.9375); // the high word 0x3FF80000 read as a float32
    s.release();
  });

  it('the release that takes the count to zero calls the deleter at once, exactly once', () => {
    const s = StorageImpl.allocate('test', 40, CPU);
    const frees = alloc.freed.length;
    s.retain();
    s.release();
    expect(alloc.freed.length).toBe(frees);
    s.release();
    expect(alloc.freed.length).toBe(frees + 1);
    expect(alloc.freed[alloc.freed.length - 1]).toBe(40);
    expect(s.isAlive).toBe(false);
    expect(() => s.release()).toThrow(TorchError);
    expect(alloc.freed.length).toBe(frees + 1);
  });

  it('a released storage has no data', () => {
    const s = StorageImpl.allocate('test', 8, CPU);
    s.release();
    expect(() => s.data).toThrow(TorchError);
    expect(() => s.host).toThrow(/is not host memory/);
    expect(() => s.typed(Float32Array)).toThrow(TorchError);
  });

  it('a storage built from a DataPtr without a deleter frees nothing but still stops counting', () => {
    const before = liveCounts('cpu').storages;
    const region: HostRegion = { buffer: new ArrayBuffer(8), byteOffset: 0, byteLength: 8 };
    const s = new StorageImpl(8, CPU, { data: region, context: null, deleter: null, device: CPU }, null);
    expect(liveCounts('cpu').storages).toBe(before + 1);
    expect(s.data).toBe(region);
    s.release();
    expect(liveCounts('cpu').storages).toBe(before);
  });

  it('meta storages have a size and no memory, and need no allocator', () => {
    const before = liveCounts('meta').storages;
    const s = StorageImpl.allocate('test', 1 << 30, META);
    expect(s.nbytes).toBe(1 << 30);
    expect(s.allocator).toBeNull();
    expect(liveCounts('meta').storages).toBe(before + 1);
    expect(() => s.data).toThrow("storage on meta has no data");
    expect(() => s.host).toThrow(TorchError);
    expect(memoryStats('meta').liveBytes).toBe(0);
    s.release();
    expect(liveCounts('meta').storages).toBe(before);
  });

  it('WebGPU without its backend loaded is a DeviceError naming the op and torch.webgpu.init()', () => {
    let err: unknown;
    try {
      StorageImpl.allocate('zeros', 8, { type: 'webgpu', index: 0 } as unknown as Device);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DeviceError);
    expect((err as Error).message).toBe('zeros: WebGPU is not initialised: call `await torch.webgpu.init()` first');
  });
});

describe('storage shared by tensors and views', () => {
  it('TensorImpl.empty holds the only reference on a live storage', () => {
    const frees = alloc.freed.length;
    const t = TensorImpl.empty('empty', [2, 3], 'float32', CPU);
    expect(t.storage.isAlive).toBe(true);
    expect(t.storage.useCount).toBe(1);
    expect(alloc.freed.length).toBe(frees);
    t.release();
    expect(t.storage.isAlive).toBe(false);
    expect(alloc.freed.length).toBe(frees + 1);
  });

  it('a view retains the storage: releasing the base keeps it, releasing the last view frees it at once', () => {
    const frees = alloc.freed.length;
    const live0 = memoryStats('cpu').liveBytes;
    const storages0 = liveCounts('cpu').storages;
    const base = TensorImpl.empty('empty', [4, 6], 'float64', CPU);
    expect(memoryStats('cpu').liveBytes).toBe(live0 + 192);
    const v = base.view([6, 4], [1, 6], 0);
    const w = base.view([6], [1], 6);
    expect(v.storage).toBe(base.storage);
    expect(w.storage).toBe(base.storage);
    expect(base.storage.useCount).toBe(3);
    base.release();
    v.release();
    expect(w.storage.isAlive).toBe(true);
    expect(alloc.freed.length).toBe(frees);
    expect(memoryStats('cpu').liveBytes).toBe(live0 + 192);
    expect(liveCounts('cpu').storages).toBe(storages0 + 1);
    w.release();
    expect(alloc.freed.length).toBe(frees + 1);
    expect(memoryStats('cpu').liveBytes).toBe(live0);
    expect(liveCounts('cpu').storages).toBe(storages0);
  });

  it('tensors constructed on one storage each hold a reference to it', () => {
    const s = StorageImpl.allocate('test', 32, CPU);
    const a = new TensorImpl(s, [8], [1], 0, 'float32', CPU, new VersionCounter());
    const b = new TensorImpl(s, [4], [2], 0, 'float32', CPU, new VersionCounter());
    expect(s.useCount).toBe(3);
    s.release();
    a.release();
    expect(s.isAlive).toBe(true);
    b.release();
    expect(s.isAlive).toBe(false);
  });

  it('a view is a new TensorImpl on the same storage, retaining its base TensorImpl and sharing its version counter', () => {
    const base = TensorImpl.empty('empty', [2, 3], 'float32', META);
    const v = base.view([3, 2], [1, 3], 0);
    expect(v).not.toBe(base);
    expect(v.storage).toBe(base.storage);
    expect(v.version).toBe(base.version);
    expect(v.base).toBe(base);
    expect(base.useCount).toBe(2);
    // a view of a view points at the root base
    const vv = v.view([6], [1], 0);
    expect(vv.base).toBe(base);
    expect(base.useCount).toBe(3);
  });

  it('live tensor counts follow TensorImpl construction', () => {
    const before = liveCounts('meta').tensors;
    const t = TensorImpl.empty('empty', [5], 'int64', META);
    expect(liveCounts('meta').tensors).toBe(before + 1);
    expect(t.numel).toBe(5);
    expect(t.itemSize).toBe(8);
    expect(t.storage.nbytes).toBe(40);
  });
});
