import { describe, expect, it } from 'vitest';
import { Heap } from '../src/wasm/heap';

function heapOf(maxPages: number, initial = 1): Heap {
  return new Heap({ memory: new WebAssembly.Memory({ initial, maximum: maxPages, shared: true }), base: 0, maxPages });
}

/** A seeded generator, so that the random walks below are the same every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('Heap (Note [The CPU heap])', () => {
  it('reuses a freed small block of the same size first', () => {
    const h = heapOf(4);
    const a = h.alloc(100);
    const b = h.alloc(100);
    expect(b - a).toBe(128);
    h.release(a, 100);
    expect(h.freeBytes).toBe(128);
    expect(h.alloc(120)).toBe(a); // same 128-byte class
    expect(h.freeBytes).toBe(0);
  });

  it('merges freed neighbours and the top, in any order, and best-fits large requests', () => {
    const h = heapOf(64);
    const blocks = [10_000, 20_000, 30_000, 40_000].map((n) => ({ n, p: h.alloc(n) }));
    const top = h.reservedBytes;
    h.release(blocks[1].p, blocks[1].n);
    h.release(blocks[0].p, blocks[0].n); // merges with block 1's range
    expect(h.alloc(30_000)).toBe(blocks[0].p); // 10,048 + 20,032 bytes now form one range
    h.release(blocks[0].p, 30_000);
    h.release(blocks[3].p, blocks[3].n); // at the top: the top comes down
    expect(h.reservedBytes).toBe(top - Heap.blockSize(40_000));
    h.release(blocks[2].p, blocks[2].n); // merges with both sides, then with the top
    expect(h.reservedBytes).toBe(0);
    expect(h.freeBytes).toBe(0);
  });

  it('zero-fills reused bytes and leaves others alone, through growth', () => {
    const h = heapOf(256);
    const p = h.alloc(50_000);
    new Uint8Array(h.buffer(), p, 50_000).fill(0xab);
    const keep = h.alloc(5_000);
    new Uint8Array(h.buffer(), keep, 5_000).fill(0xcd);
    h.release(p, 50_000);
    const big = h.alloc(4 << 20); // grows
    const q = h.alloc(30_000); // from the freed range
    expect(q).toBe(p);
    expect(new Uint8Array(h.buffer(), q, 30_000).every((v) => v === 0)).toBe(true);
    expect(new Uint8Array(h.buffer(), keep, 5_000).every((v) => v === 0xcd)).toBe(true);
    expect(new Uint8Array(h.buffer(), big, 4 << 20).every((v) => v === 0)).toBe(true);
  });

  it('skips the zero-fill only when asked (Note [Uninitialized outputs])', () => {
    const h = heapOf(16);
    const p = h.alloc(10_000);
    new Uint8Array(h.buffer(), p, 10_000).fill(0xab);
    h.release(p, 10_000);
    expect(h.alloc(10_000, true)).toBe(p);
    expect(new Uint8Array(h.buffer(), p, 10_000).every((v) => v === 0xab)).toBe(true);
    h.release(p, 10_000);
    expect(h.alloc(10_000)).toBe(p);
    expect(new Uint8Array(h.buffer(), p, 10_000).every((v) => v === 0)).toBe(true);
  });

  it('returns -1 when the memory cannot grow, and keeps working after', () => {
    const h = heapOf(2); // 128 KiB
    const a = h.alloc(100_000);
    expect(a).toBeGreaterThanOrEqual(0);
    expect(h.alloc(100_000)).toBe(-1);
    h.release(a, 100_000);
    expect(h.alloc(100_000)).toBe(a);
  });

  it('never hands out overlapping blocks under a random walk of allocations and frees', () => {
    const h = heapOf(1024);
    const rand = lcg(7);
    const live: { p: number; n: number }[] = [];
    for (let step = 0; step < 4000; step++) {
      if (live.length > 0 && rand() < 0.45) {
        const [b] = live.splice(Math.floor(rand() * live.length), 1);
        h.release(b.p, b.n);
      } else {
        const n = rand() < 0.7 ? 1 + Math.floor(rand() * 4096) : 4097 + Math.floor(rand() * 200_000);
        const p = h.alloc(n);
        expect(p % 64).toBe(0);
        live.push({ p, n });
      }
    }
    const sorted = live.map((b) => [b.p, b.p + Heap.blockSize(b.n)]).sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i][0]).toBeGreaterThanOrEqual(sorted[i - 1][1]);
    const used = sorted.reduce((s, [a, b]) => s + b - a, 0);
    expect(used + h.freeBytes).toBe(h.reservedBytes);
    for (const b of live) h.release(b.p, b.n);
    // Large ranges all merged back into the top; only the small classes' blocks stay listed.
    expect(h.freeBytes).toBe(h.reservedBytes);
  });
});
