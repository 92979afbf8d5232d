/**
 * The caching allocator's policy (Note [WebGPU caching allocator]) without a GPU: a fake
 * buffer factory records what would be created and destroyed.
 */
import { describe, expect, it } from 'vitest';
import { TorchError } from '@torch-ts/core';
import { CachingAllocator, LARGE_SEGMENT, SMALL_SEGMENT } from '../src/memory/caching-allocator';

interface FakeBuffer {
  readonly id: number;
  readonly size: number;
  destroyed: boolean;
}

function setup(opts: { maxBinding?: number; maxBuffer?: number; align?: number; capacity?: number } = {}) {
  const created: FakeBuffer[] = [];
  let reserved = 0;
  const capacity = opts.capacity ?? Infinity;
  const alloc = new CachingAllocator<FakeBuffer>(
    {
      create: (size) => {
        if (reserved + size > capacity) throw new Error('device out of memory');
        reserved += size;
        const b = { id: created.length, size, destroyed: false };
        created.push(b);
        return b;
      },
      destroy: (b) => {
        reserved -= b.size;
        b.destroyed = true;
      },
    },
    { maxBindingSize: opts.maxBinding ?? 128 << 20, maxBufferSize: opts.maxBuffer ?? 256 << 20, offsetAlignment: opts.align ?? 256 },
  );
  return { alloc, created };
}

describe('CachingAllocator', () => {
  it('rounds sizes up to 512 bytes', () => {
    const { alloc } = setup();
    expect(alloc.roundSize(1)).toBe(512);
    expect(alloc.roundSize(512)).toBe(512);
    expect(alloc.roundSize(513)).toBe(1024);
    const b = alloc.allocate(100);
    expect(b.size).toBe(512);
    expect(alloc.stats().allocatedBytes).toBe(512);
    expect(alloc.stats().requestedBytes).toBe(100);
  });

  it('carves small requests out of 2 MiB segments and large ones out of 20 MiB or their own size', () => {
    const { alloc, created } = setup();
    alloc.allocate(1000);
    expect(created.map((b) => b.size)).toEqual([SMALL_SEGMENT]);
    alloc.allocate(1 << 20); // exactly 1 MiB: still small
    expect(created.length).toBe(1);
    alloc.allocate((1 << 20) + 1); // large pool
    expect(created[1].size).toBe(LARGE_SEGMENT);
    alloc.allocate(30 << 20); // >= 10 MiB: a segment of the rounded size
    expect(created[2].size).toBe(30 << 20);
    expect(alloc.stats().reservedBytes).toBe(SMALL_SEGMENT + LARGE_SEGMENT + (30 << 20));
  });

  it('hands out aligned offsets inside one buffer', () => {
    const { alloc } = setup();
    const blocks = [alloc.allocate(10), alloc.allocate(700), alloc.allocate(3)];
    expect(blocks.map((b) => b.offset)).toEqual([0, 512, 1536]);
    expect(new Set(blocks.map((b) => b.segment)).size).toBe(1);
    for (const b of blocks) expect(b.offset % 256).toBe(0);
  });

  it('uses a larger offset alignment as its rounding unit', () => {
    const { alloc } = setup({ align: 1024 });
    expect(alloc.roundSize(10)).toBe(1024);
    expect(alloc.allocate(10).size).toBe(1024);
    expect(alloc.allocate(10).offset).toBe(1024);
  });

  it('reuses freed blocks (a cache hit), best fit first', () => {
    const { alloc, created } = setup();
    const a = alloc.allocate(4096);
    const sep1 = alloc.allocate(512);
    const b = alloc.allocate(1024);
    const sep2 = alloc.allocate(512);
    alloc.free(a);
    alloc.free(b);
    const hits = alloc.stats().cacheHits;
    const c = alloc.allocate(1000); // best fit: b's 1024-byte block, not a's 4096
    expect(c.offset).toBe(b.offset);
    expect(alloc.stats().cacheHits).toBe(hits + 1);
    expect(created.length).toBe(1);
    void sep1;
    void sep2;
  });

  it('splits a block and coalesces free neighbours back into one', () => {
    const { alloc } = setup();
    const a = alloc.allocate(512);
    const b = alloc.allocate(512);
    const c = alloc.allocate(512);
    const seg = alloc.segmentsInfo()[0];
    expect(seg.blocks.map((x) => [x.offset, x.size, x.allocated])).toEqual([
      [0, 512, true],
      [512, 512, true],
      [1024, 512, true],
      [1536, SMALL_SEGMENT - 1536, false],
    ]);
    alloc.free(a);
    alloc.free(c); // merges with the free tail
    expect(alloc.segmentsInfo()[0].blocks.length).toBe(3);
    alloc.free(b); // merges with both neighbours: one free block again
    expect(alloc.segmentsInfo()[0].blocks).toEqual([{ offset: 0, size: SMALL_SEGMENT, allocated: false }]);
    expect(alloc.stats().cachedBytes).toBe(SMALL_SEGMENT);
  });

  it('does not split a large block for a remainder of 1 MiB or less', () => {
    const { alloc } = setup();
    alloc.allocate(5 << 20); // a 20 MiB segment split into 5 MiB + a free 15 MiB block
    const big = alloc.allocate(14.5 * (1 << 20)); // served by the 15 MiB block; 0.5 MiB left: not split
    expect(big.size).toBe(15 << 20);
    expect(alloc.segmentsInfo().length).toBe(1);
    const { alloc: alloc2 } = setup();
    const b2 = alloc2.allocate(2 << 20);
    expect(b2.size).toBe(2 << 20);
    expect(alloc2.segmentsInfo()[0].blocks.length).toBe(2);
  });

  it('keeps current and peak stats', () => {
    const { alloc } = setup();
    const a = alloc.allocate(1000);
    const b = alloc.allocate(3000);
    alloc.free(a);
    const s = alloc.stats();
    expect(s.allocatedBytes).toBe(3072);
    expect(s.peakAllocatedBytes).toBe(1024 + 3072);
    expect(s.activeBytes).toBe(3072);
    expect(s.peakActiveBytes).toBe(4096);
    expect(s.reservedBytes).toBe(SMALL_SEGMENT);
    expect(s.peakReservedBytes).toBe(SMALL_SEGMENT);
    expect(s.cachedBytes).toBe(SMALL_SEGMENT - 3072);
    expect(s.allocations).toBe(2);
    expect(s.frees).toBe(1);
    alloc.resetPeakStats();
    expect(alloc.stats().peakAllocatedBytes).toBe(3072);
    alloc.free(b);
    expect(alloc.stats().allocatedBytes).toBe(0);
    expect(alloc.stats().requestedBytes).toBe(0);
  });

  it('emptyCache destroys only segments with no allocated block', () => {
    const { alloc, created } = setup();
    const a = alloc.allocate(1000); // small segment 0
    const b = alloc.allocate(5 << 20); // large segment 1
    alloc.free(b);
    alloc.emptyCache();
    expect(created.map((x) => x.destroyed)).toEqual([false, true]);
    expect(alloc.stats().reservedBytes).toBe(SMALL_SEGMENT);
    expect(alloc.stats().segmentFrees).toBe(1);
    alloc.free(a);
    alloc.emptyCache();
    expect(created[0].destroyed).toBe(true);
    expect(alloc.stats().reservedBytes).toBe(0);
    expect(alloc.stats().cachedBytes).toBe(0);
  });

  it('refuses requests over maxStorageBufferBindingSize with a clear error', () => {
    const { alloc } = setup({ maxBinding: 64 << 20 });
    expect(() => alloc.allocate((64 << 20) + 1, 'zeros')).toThrow(TorchError);
    expect(() => alloc.allocate((64 << 20) + 1, 'zeros')).toThrow(/zeros: .*maxStorageBufferBindingSize is 67108864/);
    expect(alloc.stats().allocations).toBe(0);
  });

  it('gives a request that fits the binding limit but not a 20 MiB segment its own buffer', () => {
    const { alloc, created } = setup({ maxBuffer: 16 << 20, maxBinding: 16 << 20 });
    alloc.allocate(5 << 20);
    expect(created[0].size).toBe(5 << 20);
  });

  it('empties the cache and retries before reporting out of memory, with the stats', () => {
    const { alloc, created } = setup({ capacity: 2 * SMALL_SEGMENT + LARGE_SEGMENT });
    const keep = alloc.allocate(1000);
    const cached = alloc.allocate(2 << 20); // a 20 MiB segment, then freed: cached
    alloc.free(cached);
    alloc.allocate(15 << 20); // reuses the cached large segment
    const big = () => alloc.allocate(12 << 20, 'empty');
    expect(big).toThrow(TorchError);
    expect(big).toThrow(/empty: out of memory on webgpu: tried to allocate 12582912 bytes.*allocated .* bytes \(peak .*reserved/);
    expect(alloc.stats().numOoms).toBe(2);
    expect(alloc.stats().numAllocRetries).toBe(2);
    void keep;
    void created;
  });

  it('rejects a double free', () => {
    const { alloc } = setup();
    const a = alloc.allocate(10);
    alloc.free(a);
    expect(() => alloc.free(a)).toThrow(/double free/);
  });
});
