import { CPU, StorageImpl, TensorImpl, VersionCounter } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuAllocator, cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { sumF32Row } from '../src/kernels/sum-f32';
import { kernelHeap } from '../src/wasm/kernel-heap';
import { wasm } from '../src/wasm/kernels';
import { empty, read, releaseCreated, view, rng } from './helpers';

// float32 sums on the WebAssembly kernels (Note [float32 sums on the WebAssembly kernels]):
// exactly the bits of the order Note [WebAssembly float32 sum] documents, in place or
// staged, on any number of threads.

afterEach(releaseCreated);


/** Note [WebAssembly float32 sum], step by step in float64. */
function documentedSum(v: Float32Array, p: number, n: number): number {
  const B = wasm!.sumBlockElements();
  let s = 0;
  for (let b = 0; b < n; b += B) {
    const m = Math.min(B, n - b);
    const acc = new Float64Array(8);
    let i = 0;
    for (; i + 8 <= m; i += 8) for (let k = 0; k < 8; k++) acc[k] += v[p + b + i + k];
    // f64x2 accumulators a0..a3 hold elements (0, 1), (2, 3), (4, 5), (6, 7)
    let bs = (acc[0] + acc[2] + (acc[4] + acc[6])) + (acc[1] + acc[3] + (acc[5] + acc[7]));
    for (; i < m; i++) bs += v[p + b + i];
    s += bs;
  }
  return s;
}

/** A contiguous float32 tensor in the kernels' memory, or in an ArrayBuffer of its own. */
function make(sizes: number[], values: Float32Array, outside: boolean): TensorImpl {
  let t: TensorImpl;
  if (outside) {
    const alloc = new CpuAllocator(null);
    const storage = new StorageImpl(values.length * 4, CPU, alloc.allocate(values.length * 4, CPU), alloc);
    const strides = sizes.map((_, d) => sizes.slice(d + 1).reduce((a, b) => a * b, 1));
    t = new TensorImpl(storage, sizes, strides, 0, 'float32', CPU, new VersionCounter());
    storage.release();
  } else {
    t = empty('float32', sizes);
  }
  t.storage.typed(Float32Array).set(values);
  return t;
}

describe('float32 sums on the WebAssembly kernels', () => {
  it('equal the documented order bit for bit, in the heap and staged, around block and vector edges', () => {
    const r = rng(31);
    const B = wasm!.sumBlockElements();
    const data = Float32Array.from({ length: 3 * B + 40 }, () => r() * 1e4);
    const p = kernelHeap.alloc(data.length * 4);
    const heap = new Float32Array(kernelHeap.buffer(), p, data.length);
    heap.set(data);
    for (const n of [1, 2, 7, 8, 9, 15, 16, 17, 255, 256, B - 1, B, B + 1, B + 9, 3 * B + 33]) {
      for (const ao of [0, 1, 5]) {
        const want = documentedSum(data, ao, n);
        expect(sumF32Row(n, heap, ao)).toBe(want);
        expect(sumF32Row(n, data, ao)).toBe(want);
      }
    }
    kernelHeap.release(p, data.length * 4);
  });

  it('full and last-dim sums of tensors equal the documented order, in the heap or not', () => {
    const r = rng(32);
    const B = wasm!.sumBlockElements();
    const n = 5 * B + 13;
    const data = Float32Array.from({ length: n }, () => r() * 100);
    for (const outside of [false, true]) {
      const all = make([n], data, outside);
      const out = empty('float32', [1]);
      cpuImpls.sum(out, all, [0]);
      expect(read(out)).toEqual([Math.fround(documentedSum(data, 0, n))]);
      const m = make([7, 3, 999], data.subarray(0, 7 * 3 * 999), outside);
      const rows = empty('float64', [7, 1, 1]);
      cpuImpls.sum(rows, m, [2, 1]);
      expect(read(rows)).toEqual(Array.from({ length: 7 }, (_, i) => documentedSum(data, i * 2997, 2997)));
      // NaN and infinities as IEEE sums give them
      const special = data.slice(0, 1000);
      special[3] = Infinity;
      special[900] = -Infinity;
      const sp = make([1000], special, outside);
      cpuImpls.sum(out, sp, [0]);
      expect(read(out)).toEqual([NaN]);
      if (outside) for (const t of [all, m, sp]) t.release();
    }
  });

  it('a strided row (not in place) still sums right', () => {
    const data = Float32Array.from({ length: 4000 }, (_, i) => (i % 7) - 3 + 0.25);
    const t = make([4000], data, false);
    const out = empty('float32', [1]);
    cpuImpls.sum(out, view(t, [2000], [2], 1), [0]);
    let s = 0;
    for (let i = 1; i < 4000; i += 2) s += data[i];
    expect(read(out)).toEqual([Math.fround(s)]);
  });

  it('gives identical results on 1, 2 and 4 threads', async () => {
    const r = rng(33);
    const data = Float32Array.from({ length: 1 << 21 }, () => r() * 1e3);
    const results: number[][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      const all = make([data.length], data, false);
      const out = empty('float64', [1]);
      cpuImpls.sum(out, all, [0]);
      const m = make([512, 4096], data, false);
      const rows = empty('float64', [512, 1]);
      cpuImpls.sum(rows, m, [1]);
      results.push([...(read(out) as number[]), ...(read(rows) as number[])]);
    }
    expect(results[0][0]).toBe(documentedSum(data, 0, data.length));
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });
});

describe('WebAssembly float32 sum', () => {
  it('is available in Node', () => {
    expect(wasm).not.toBeNull();
  });

  it('equals the float64 sum at every length and offset around its blocks and pieces', () => {
    const r = rng(21);
    const data = Float32Array.from({ length: 40_000 }, () => r() * 100);
    for (const n of [0, 1, 7, 8, 9, 15, 16, 17, 255, 256, 16_383, 16_384, 16_385, 16_391, 32_768, 39_990]) {
      for (const ao of [0, 1, 3, 8]) {
        let ref = 0;
        for (let i = 0; i < n; i++) ref += data[ao + i];
        const got = sumF32Row(n, data, ao)!;
        // different float64 orders: equal up to n * 2^-52 of the sum of magnitudes
        expect(Math.abs(got - ref)).toBeLessThanOrEqual(n * 100 * 2 ** -50);
        expect(Math.fround(got)).toBe(Math.fround(ref));
      }
    }
  });

  it('propagates NaN and infinities as IEEE sums do', () => {
    const a = new Float32Array(64).fill(1);
    a[13] = NaN;
    expect(sumF32Row(64, a, 0)).toBeNaN();
    a[13] = Infinity;
    expect(sumF32Row(64, a, 0)).toBe(Infinity);
    a[60] = -Infinity; // in another partial sum: inf + -inf
    expect(sumF32Row(64, a, 0)).toBeNaN();
    a.fill(3.4e38); // float32's range overflows, float64's does not
    expect(sumF32Row(64, a, 0)).toBe(64 * Math.fround(3.4e38));
  });
});

