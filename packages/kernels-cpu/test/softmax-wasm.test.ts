import { CPU, StorageImpl, TensorImpl, VersionCounter } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuAllocator, cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { kernelHeap } from '../src/wasm/kernel-heap';
import { wasm } from '../src/wasm/kernels';
import { empty, read, releaseCreated, tensor, view, rng } from './helpers';

// The float32 exp and softmax kernels of the WebAssembly module (Note [float32 exp in
// SIMD], Note [Softmax rows in SIMD]) against float64 references.

afterEach(releaseCreated);


/** float32's ulp at |v| (subnormals: 2^-149). */
function ulp(v: number): number {
  const a = Math.abs(Math.fround(v));
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/** |got - want| in float32 ulps of want (want a float64 reference). */
function ulps(got: number, want: number): number {
  if (Number.isNaN(want)) return Number.isNaN(got) ? 0 : Infinity;
  if (!Number.isFinite(want) || !Number.isFinite(got)) return got === Math.fround(want) ? 0 : Infinity;
  return Math.abs(got - want) / ulp(want);
}

function expWasm(xs: Float32Array): Float32Array {
  const p = kernelHeap.alloc(xs.length * 4);
  new Float32Array(kernelHeap.buffer(), p, xs.length).set(xs);
  wasm!.expF32(p, p, xs.length);
  const out = new Float32Array(kernelHeap.buffer(), p, xs.length).slice();
  kernelHeap.release(p, xs.length * 4);
  return out;
}

describe('float32 SIMD exp', () => {
  it('is within 1 ulp of Math.exp over its whole range, subnormal results included', () => {
    const r = rng(3);
    const xs = Float32Array.from({ length: 200_000 }, (_, i) => (i % 2 ? r() * 97 - 7 : r() * 2));
    const got = expWasm(xs);
    let worst = 0;
    for (let i = 0; i < xs.length; i++) worst = Math.max(worst, ulps(got[i], Math.exp(xs[i])));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('rounds to 0, subnormals and infinity at the ends, and keeps NaN (tails of 1..3 lanes too)', () => {
    const xs = Float32Array.from([NaN, Infinity, -Infinity, 0, -0, 88.72, 88.73, -87.3, -100, -103.9, -104, -200, 1e-30, -1e-30, 3e38, -3e38]);
    for (let n = 1; n <= xs.length; n++) {
      const got = expWasm(xs.subarray(0, n));
      for (let i = 0; i < n; i++) {
        const want = Math.exp(xs[i]);
        expect(ulps(got[i], want), `exp(${xs[i]}) = ${got[i]}`).toBeLessThanOrEqual(1);
      }
    }
  });
});

/** float64 softmax of [outer, size, inner] float32 values. */
function reference(xs: readonly number[], outer: number, size: number, inner: number, log: boolean): number[] {
  const out = new Array<number>(xs.length);
  for (let b = 0; b < outer; b++) {
    for (let i = 0; i < inner; i++) {
      const at = (j: number): number => (b * size + j) * inner + i;
      let max = -Infinity;
      let nan = false;
      for (let j = 0; j < size; j++) {
        max = Math.max(max, xs[at(j)]);
        if (Number.isNaN(xs[at(j)])) nan = true;
      }
      if (max === -Infinity) max = 0;
      let sum = 0;
      for (let j = 0; j < size; j++) sum += Math.exp(xs[at(j)] - max);
      if (nan) sum = NaN;
      for (let j = 0; j < size; j++) out[at(j)] = log ? xs[at(j)] - max - Math.log(sum) : Math.exp(xs[at(j)] - max) / sum;
    }
  }
  return out;
}

/**
 * Bounds: softmax's exp (1 ulp), 1 / sum and the product (half an ulp each) make 2 ulps
 * (2.5 measured against a result low in its binade);
 * log-softmax's x - m - log(sum) is exact to half an ulp but for the sum's own float32 exps,
 * an absolute error of about size * 2^-24 / sum at most, so small results are bounded absolutely.
 */
function expectClose(got: readonly number[], want: readonly number[], log: boolean, what: string): void {
  // Mismatches are collected and asserted once: an expect per element is slow.
  const bad: string[] = [];
  for (let i = 0; i < got.length; i++) {
    const w = want[i];
    const ok = !Number.isFinite(w)
      ? Object.is(got[i], Math.fround(w)) || (Number.isNaN(w) && Number.isNaN(got[i]))
      : log
        ? Math.abs(got[i] - w) <= 2 * ulp(w) + 2 ** -24
        : ulps(got[i], w) <= 2.5;
    if (!ok) bad.push(`${what} [${i}]: ${got[i]} vs ${w}`);
  }
  expect(bad.slice(0, 10)).toEqual([]);
}

function softmaxOf(x: TensorImpl, outer: number, size: number, inner: number, log: boolean): number[] {
  const out = empty('float32', [outer, size, inner]);
  cpuImpls.softmax(out, x, outer, size, inner, log);
  return read(out) as number[];
}

describe('float32 softmax in SIMD', () => {
  it('matches a float64 reference on rows of 1..9 and longer, last dim and inner dims, with -inf', () => {
    const r = rng(11);
    for (const [outer, size, inner] of [
      ...Array.from({ length: 9 }, (_, k) => [3, k + 1, 1]),
      [2, 4096, 1], [5, 33, 1], [2, 7, 3], [3, 5, 9], [2, 64, 5], [1, 3, 1030], [2, 100, 4],
    ]) {
      const xs = Array.from({ length: outer * size * inner }, () => Math.fround(r() * 40));
      if (xs.length > 7) xs[7] = -Infinity;
      if (xs.length > 11) xs[11] = Math.fround(xs[11] - 200); // x - max below exp's range
      const x = tensor('float32', [outer, size, inner], xs);
      for (const log of [false, true]) {
        expectClose(softmaxOf(x, outer, size, inner, log), reference(xs, outer, size, inner, log), log, `[${outer}, ${size}, ${inner}] log ${log}`);
      }
    }
  });

  it('gives NaN rows for NaN, +inf and all -inf, and leaves other rows alone', () => {
    for (const inner of [1, 3]) {
      const size = 6;
      const rows = [
        [1, 2, NaN, 4, 5, 6],
        [1, Infinity, 3, 4, 5, 6],
        [-Infinity, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity],
        [0, -Infinity, 1, -Infinity, 2, 3],
      ];
      // [outer = rows, size, inner]: column i of a row is the row's values shifted by i
      const xs: number[] = [];
      for (const row of rows) for (let j = 0; j < size; j++) for (let i = 0; i < inner; i++) xs.push(row[j] + i);
      const x = tensor('float32', [rows.length, size, inner], xs);
      for (const log of [false, true]) {
        const got = softmaxOf(x, rows.length, size, inner, log);
        expectClose(got, reference(xs, rows.length, size, inner, log), log, `inner ${inner} log ${log}`);
        expect(got.slice(0, 3 * size * inner).every(Number.isNaN)).toBe(true);
      }
    }
  });

  it('reads and writes at storage offsets, and storages outside the kernels\' memory', () => {
    const r = rng(12);
    const [outer, size, inner] = [3, 13, 2];
    const n = outer * size * inner;
    const xs = Array.from({ length: n + 5 }, () => Math.fround(r() * 10));
    const base = tensor('float32', [n + 5], xs);
    const x = view(base, [outer, size, inner], [size * inner, inner, 1], 5);
    const outBase = empty('float32', [n + 3]);
    const out = view(outBase, [outer, size, inner], [size * inner, inner, 1], 3);
    cpuImpls.softmax(out, x, outer, size, inner, false);
    const want = reference(xs.slice(5), outer, size, inner, false);
    expectClose(read(out) as number[], want, false, 'offset');
    // a storage of its own (a non-shared memory, or a heap that is full)
    const alloc = new CpuAllocator(null);
    const own = (values: readonly number[]): TensorImpl => {
      const storage = new StorageImpl(values.length * 4, CPU, alloc.allocate(values.length * 4, CPU), alloc);
      const t = new TensorImpl(storage, [outer, size, inner], [size * inner, inner, 1], 0, 'float32', CPU, new VersionCounter());
      storage.release();
      t.storage.typed(Float32Array).set(values);
      return t;
    };
    const ox = own(xs.slice(5));
    const oo = own(new Array<number>(n).fill(7));
    for (const log of [false, true]) {
      cpuImpls.softmax(oo, ox, outer, size, inner, log);
      expectClose(Array.from(oo.storage.typed(Float32Array)), reference(xs.slice(5), outer, size, inner, log), log, `outside log ${log}`);
    }
    ox.release();
    oo.release();
  });

  it('gives identical results on 1, 2 and 4 threads', async () => {
    // each above 2 * ROW_GRAIN elements, so split into tasks: by rows, by columns, by slabs
    const cases: [number, number, number][] = [[200, 400, 1], [2, 200, 201], [40, 50, 40]];
    const results: number[][][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      results.push(
        cases.flatMap(([outer, size, inner]) => {
          const rr = rng(outer * 7 + inner);
          const x = tensor('float32', [outer, size, inner], Array.from({ length: outer * size * inner }, () => rr() * 20));
          return [softmaxOf(x, outer, size, inner, false), softmaxOf(x, outer, size, inner, true)];
        }),
      );
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});

describe('float32 softmax backward in SIMD', () => {
  /** float64 references over [outer, size, inner], and a bound from the float32 roundings of each step. */
  function check(outer: number, size: number, inner: number, log: boolean, g: number[], y: number[], got: number[], bad: string[]): void {
    for (let b = 0; b < outer; b++) {
      for (let k = 0; k < inner; k++) {
        const at = (j: number): number => (b * size + j) * inner + k;
        let s = 0;
        let magnitude = 0; // the float32 products g * y each round before the float64 sum
        for (let j = 0; j < size; j++) {
          s += log ? g[at(j)] : g[at(j)] * y[at(j)];
          magnitude += Math.abs(g[at(j)] * y[at(j)]);
        }
        for (let j = 0; j < size; j++) {
          const i = at(j);
          const want = log ? g[i] - Math.exp(y[i]) * s : y[i] * (g[i] - s);
          const scale = log ? Math.abs(g[i]) + 2 * Math.abs(Math.exp(y[i]) * s) : Math.abs(y[i]) * (Math.abs(g[i]) + Math.abs(s) + magnitude);
          if (!(Math.abs(got[i] - want) <= scale * 2 ** -22 + 2 ** -149)) bad.push(`[${outer}, ${size}, ${inner}] (${b}, ${j}, ${k}) log ${log}: ${got[i]} vs ${want}`);
        }
      }
    }
  }

  it('matches a float64 reference over the last dim and inner dims, on 1, 2 and 4 threads alike', async () => {
    // rows of 1..9 and 4096; inner dims with column tails, more than COLS (1024) columns, and
    // enough work to split by slabs ([40, 50, 40]) and by columns ([2, 200, 201]).
    const shapes: [number, number, number][] = [
      ...Array.from({ length: 9 }, (_, k): [number, number, number] => [2, k + 1, 1]),
      [40, 4096, 1], [2, 7, 3], [3, 5, 9], [2, 3, 1030], [40, 50, 40], [2, 200, 201],
    ];
    const runs: number[][] = [];
    // Mismatches are collected and asserted once: an expect per element is slow.
    const bad: string[] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      const all: number[] = [];
      for (const [outer, size, inner] of shapes) {
        const rr = rng(outer * 100 + size + inner);
        const n = outer * size * inner;
        for (const log of [false, true]) {
          const xs = Array.from({ length: n }, () => Math.fround(rr() * 8));
          const x = tensor('float32', [outer, size, inner], xs);
          const y = empty('float32', [outer, size, inner]);
          cpuImpls.softmax(y, x, outer, size, inner, log);
          const g = tensor('float32', [outer, size, inner], Array.from({ length: n }, () => Math.fround(rr() * 3)));
          const gi = empty('float32', [outer, size, inner]);
          cpuImpls.softmaxBackward(gi, g, y, outer, size, inner, log);
          const got = read(gi) as number[];
          if (threads === 1) check(outer, size, inner, log, read(g) as number[], read(y) as number[], got, bad);
          for (const v of got) all.push(v);
        }
      }
      runs.push(all);
    }
    expect(bad.slice(0, 10)).toEqual([]);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });
});

describe('float32 softmax subnormal results', () => {
  it('keeps probabilities below 2^-126 (x - max in [-104, -87]) to their ulp', () => {
    const xs = [0, -87.5, -90, -95, -100, -103, -103.9, -110].map(Math.fround);
    const x = tensor('float32', [1, xs.length, 1], xs);
    const got = softmaxOf(x, 1, xs.length, 1, false);
    const want = reference(xs, 1, xs.length, 1, false);
    for (let i = 0; i < xs.length; i++) expect(ulps(got[i], want[i]), `${xs[i]}: ${got[i]} vs ${want[i]}`).toBeLessThanOrEqual(1);
    expect(got[2]).toBeGreaterThan(0);
  });
});
