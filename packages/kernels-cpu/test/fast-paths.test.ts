import { CPU } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuAllocator, cpuImpls } from '../src/index';
import { gemmKernel } from '../src/loops/gemm-wasm';
import { hasWasmSum, sumF32Wasm } from '../src/loops/sum-wasm';
import { empty, read, releaseCreated, tensor, view } from './helpers';

// The speed paths of issue 4 against plain references: the blocked WebAssembly matmul
// (Note [Blocked matmul on the WebAssembly kernel]), float32 exp by polynomial (Note [exp
// below float64]), float32 sums in four partial sums (Note [Four float64 partial sums of
// float32]), long rows in pieces (Note [Long rows in pieces]) and the allocator's cache.

afterEach(releaseCreated);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}

describe('blocked matmul', () => {
  it('the WebAssembly kernel is available in Node', () => {
    expect(gemmKernel()).not.toBeNull();
  });

  it('equals a sequential float64 reference across KC blocks, ragged edges and layouts', () => {
    const r = rng(3);
    for (const [n, m, p] of [[5, 300, 7], [9, 513, 6], [33, 260, 35]]) {
      const a = Array.from({ length: n * m }, r);
      const b = Array.from({ length: m * p }, r);
      for (const dtype of ['float32', 'float64'] as const) {
        const ta = tensor(dtype, [n, m], a);
        const tb = tensor(dtype, [m, p], b);
        const av = read(ta) as number[];
        const bv = read(tb) as number[];
        const expected: number[] = [];
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < p; j++) {
            let s = 0;
            for (let k = 0; k < m; k++) s += av[i * m + k] * bv[k * p + j];
            expected.push(dtype === 'float32' ? Math.fround(s) : s);
          }
        }
        const out = empty(dtype, [n, p]);
        cpuImpls.mm(out, ta, tb);
        expect(read(out)).toEqual(expected);
        // b transposed in storage: the same values through the strided packing.
        const bt = tensor(dtype, [p, m], Array.from({ length: m * p }, (_, q) => bv[(q % m) * p + Math.floor(q / m)]));
        const out2 = empty(dtype, [n, p]);
        cpuImpls.mm(out2, ta, view(bt, [m, p], [1, m], 0));
        expect(read(out2)).toEqual(expected);
      }
    }
  });

  it('float16 goes through the readers and rounds once', () => {
    const a = tensor('float16', [2, 3], [1, 2, 3, 4, 5, 6]);
    const b = tensor('float16', [3, 1], [0.5, 0.25, 2]);
    const out = empty('float16', [2, 1]);
    cpuImpls.mm(out, a, b);
    expect(read(out)).toEqual([7, 15.25]);
  });
});

describe('float32 exp', () => {
  it('matches Math.exp rounded to float32, edges included', () => {
    const r = rng(5);
    const xs = [NaN, Infinity, -Infinity, 0, -0, 88.72, 88.73, -87.3, -103.9, -100, 88.8, 1e-30, ...Array.from({ length: 20000 }, () => r() * 110)];
    const a = tensor('float32', [xs.length], xs);
    const out = empty('float32', [xs.length]);
    cpuImpls.exp(out, a);
    const expected = (read(a) as number[]).map((x) => Math.fround(Math.exp(x)));
    expect(read(out)).toEqual(expected);
  });
});

describe('WebAssembly float32 sum', () => {
  it('is available in Node', () => {
    expect(hasWasmSum()).toBe(true);
  });

  it('equals the float64 sum at every length and offset around its blocks and pieces', () => {
    const r = rng(21);
    const data = Float32Array.from({ length: 40_000 }, () => r() * 100);
    for (const n of [0, 1, 7, 8, 9, 15, 16, 17, 255, 256, 16_383, 16_384, 16_385, 16_391, 32_768, 39_990]) {
      for (const ao of [0, 1, 3, 8]) {
        let ref = 0;
        for (let i = 0; i < n; i++) ref += data[ao + i];
        const got = sumF32Wasm(n, data, ao)!;
        // different float64 orders: equal up to n * 2^-52 of the sum of magnitudes
        expect(Math.abs(got - ref)).toBeLessThanOrEqual(n * 100 * 2 ** -50);
        expect(Math.fround(got)).toBe(Math.fround(ref));
      }
    }
  });

  it('propagates NaN and infinities as IEEE sums do', () => {
    const a = new Float32Array(64).fill(1);
    a[13] = NaN;
    expect(sumF32Wasm(64, a, 0)).toBeNaN();
    a[13] = Infinity;
    expect(sumF32Wasm(64, a, 0)).toBe(Infinity);
    a[60] = -Infinity; // in another partial sum: inf + -inf
    expect(sumF32Wasm(64, a, 0)).toBeNaN();
    a.fill(3.4e38); // float32's range overflows, float64's does not
    expect(sumF32Wasm(64, a, 0)).toBe(64 * Math.fround(3.4e38));
  });

  it('serves sum through cpuImpls: a float32 row of 1e5 ones and a large-magnitude row', () => {
    const n = 100_000;
    const ones = tensor('float32', [n], new Array<number>(n).fill(1));
    const out = empty('float32', [1]);
    cpuImpls.sum(out, ones, [0]);
    expect(read(out)).toEqual([n]);
    const m = tensor('float32', [2, 4096], Array.from({ length: 8192 }, (_, i) => (i % 2 ? 1e7 : -1e7) + (i % 5)));
    const rows = empty('float32', [2, 1]);
    cpuImpls.sum(rows, m, [1]);
    const mv = read(m) as number[];
    const ref = [0, 1].map((row) => mv.slice(row * 4096, (row + 1) * 4096).reduce((x, y) => x + y, 0));
    expect(read(rows)).toEqual(ref.map(Math.fround));
  });
});

describe('float32 softmax on the exp polynomial', () => {
  // a float64 reference with Math.exp, rounded once to float32 at the end
  function reference(xs: number[], outer: number, size: number, inner: number, log: boolean): number[] {
    const out = new Array<number>(xs.length);
    for (let r = 0; r < outer; r++) {
      for (let i = 0; i < inner; i++) {
        const at = (j: number) => r * size * inner + j * inner + i;
        let max = -Infinity;
        for (let j = 0; j < size; j++) max = Math.max(max, xs[at(j)]);
        let sum = 0;
        for (let j = 0; j < size; j++) sum += Math.exp(xs[at(j)] - max);
        for (let j = 0; j < size; j++) out[at(j)] = log ? xs[at(j)] - max - Math.log(sum) : Math.exp(xs[at(j)] - max) / sum;
      }
    }
    return out;
  }

  it('is within 1 ulp of float32 of a Math.exp reference, last dim and inner dims, with -inf and far tails', () => {
    const r = rng(5);
    for (const [outer, size, inner] of [[3, 257, 1], [2, 64, 5]]) {
      const xs = Array.from({ length: outer * size * inner }, () => Math.fround(r() * 30));
      xs[7] = -Infinity;
      xs[11] = -200; // x - max below -100: Math.exp's range
      const x = tensor('float32', [outer, size, inner], xs);
      for (const log of [false, true]) {
        const out = empty('float32', [outer, size, inner]);
        cpuImpls.softmax(out, x, outer, size, inner, log);
        const got = read(out) as number[];
        const want = reference(read(x) as number[], outer, size, inner, log);
        got.forEach((g, i) => {
          const w = Math.fround(want[i]);
          if (!Number.isFinite(w)) expect(g).toBe(w);
          else expect(Math.abs(g - w)).toBeLessThanOrEqual(Math.abs(w) * 2 ** -23 + 1e-45);
        });
      }
    }
  });
});

describe('long rows', () => {
  it('float32 sums of long rows equal the float64 sum rounded once', () => {
    const r = rng(9);
    const n = 100_003;
    const xs = Array.from({ length: n }, () => r() * 1000);
    const a = tensor('float32', [n], xs);
    const vals = read(a) as number[];
    let s = 0;
    for (const v of vals) s += v;
    const out = empty('float32', [1]);
    cpuImpls.sum(out, a, [0]);
    expect(read(out)).toEqual([Math.fround(s)]);
    // strided: every other element of a [2, n/2] view, summed over its last dim
    const half = 50_001;
    const rows = empty('float32', [2, 1]);
    cpuImpls.sum(rows, view(a, [2, half], [1, 2], 0), [1]);
    const even = vals.filter((_, i) => i % 2 === 0 && i < 2 * half).reduce((x, y) => x + y, 0);
    expect((read(rows) as number[])[0]).toBe(Math.fround(even));
  });

  it('a contiguous op longer than one piece covers every element', () => {
    const n = 70_001;
    const a = tensor('float32', [n], Array.from({ length: n }, (_, i) => i));
    const out = empty('float32', [n]);
    cpuImpls.add(out, a, a, 1);
    expect(read(out)).toEqual(Array.from({ length: n }, (_, i) => 2 * i));
  });
});

describe('CpuAllocator cache', () => {
  it('reuses a freed large buffer zero-filled, and counts it as cached until then', () => {
    const alloc = new CpuAllocator();
    const big = 1 << 21;
    const p1 = alloc.allocate(big, CPU);
    new Float32Array(p1.data.buffer).fill(7);
    p1.deleter!(p1.context);
    expect(alloc.stats()).toMatchObject({ allocatedBytes: 0, cachedBytes: big, reservedBytes: big });
    const p2 = alloc.allocate(big, CPU);
    expect(p2.data.buffer).toBe(p1.data.buffer);
    expect(new Float32Array(p2.data.buffer).every((v) => v === 0)).toBe(true);
    expect(alloc.stats()).toMatchObject({ allocatedBytes: big, cachedBytes: 0 });
    p2.deleter!(p2.context);
    alloc.emptyCache();
    expect(alloc.stats()).toMatchObject({ allocatedBytes: 0, cachedBytes: 0, reservedBytes: 0 });
    // small buffers are never cached
    const s = alloc.allocate(64, CPU);
    s.deleter!(s.context);
    expect(alloc.stats().cachedBytes).toBe(0);
  });
});
