import { CPU, StorageImpl, TensorImpl, VersionCounter, type DType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuAllocator, cpuImpls } from '../src/index';
import { wasm, wasmLevel } from '../src/wasm/kernels';
import { empty, read, releaseCreated, tensor, view, write, rng } from './helpers';

// The WebAssembly GEMM (Note [GEMM as the BLAS libraries build it]) against plain loops. On
// the build without relaxed SIMD every C element is the sequential sum of its products in
// its own type (mul then add, k in order), so the check is exact; with fused multiply-adds
// (Note [Two builds of the kernels]) it is the classic bound |C - AB| <= k u sum|a||b|.

afterEach(releaseCreated);


/** Sequential sums in `dtype` (float32: rounded after each product and each add). */
function sequential(dtype: DType, n: number, m: number, p: number, a: readonly number[], b: readonly number[], start?: (i: number, j: number) => number): { seq: number[]; abs: number[] } {
  const f = dtype === 'float32' ? Math.fround : (x: number) => x;
  const seq: number[] = [];
  const abs: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < p; j++) {
      let s = start ? start(i, j) : 0;
      let t = Math.abs(s);
      for (let k = 0; k < m; k++) {
        s = f(s + f(a[i * m + k] * b[k * p + j]));
        t += Math.abs(a[i * m + k] * b[k * p + j]);
      }
      seq.push(s);
      abs.push(t);
    }
  }
  return { seq, abs };
}

function expectGemm(dtype: DType, got: readonly number[], ref: { seq: number[]; abs: number[] }, m: number): void {
  if (wasmLevel === 'simd') {
    expect(got).toEqual(ref.seq);
    return;
  }
  const u = dtype === 'float32' ? 2 ** -24 : 2 ** -53;
  const bad = got.flatMap((v, i) => (Math.abs(v - ref.seq[i]) <= 2 * m * u * ref.abs[i] ? [] : [`[${i}] ${v} vs ${ref.seq[i]}`]));
  expect(bad).toEqual([]);
}

/** A tensor whose storage is an ArrayBuffer of its own, outside the kernels' memory. */
function outsideHeap(dtype: DType, sizes: number[], values: readonly number[]): TensorImpl {
  const alloc = new CpuAllocator(null);
  const itemSize = dtype === 'float64' ? 8 : 4;
  const storage = new StorageImpl(values.length * itemSize, CPU, alloc.allocate(values.length * itemSize, CPU), alloc);
  const strides = sizes.length === 2 ? [sizes[1], 1] : [1];
  const t = new TensorImpl(storage, sizes, strides, 0, dtype, CPU, new VersionCounter());
  storage.release();
  write(t, values);
  return t;
}

describe('WebAssembly GEMM', () => {
  it('runs the build each vitest project asks for (vitest.config.ts)', () => {
    expect(wasmLevel).toBe(process.env.TORCH_TS_WASM);
    expect(wasm === null).toBe(wasmLevel === 'off');
  });

  it('float32 accumulates in float32, as PyTorch\'s sgemm', () => {
    const a = tensor('float32', [1, 3], [1e8, 1, -1e8]);
    const b = tensor('float32', [3, 1], [1, 1, 1]);
    const out = empty('float32', [1, 1]);
    cpuImpls.mm(out, a, b);
    // The JS loops (no WebAssembly SIMD) accumulate in float64 (Note [CPU matmul]).
    expect(read(out)).toEqual([wasmLevel === 'off' ? 1 : 0]);
  });

  it('matches the sequential sum across KC and MC blocks, ragged edges and layouts', () => {
    const r = rng(3);
    for (const [n, m, p] of [[1, 1, 1], [5, 300, 7], [9, 513, 6], [33, 260, 35], [100, 17, 25], [4, 1, 13]]) {
      const a = Array.from({ length: n * m }, r);
      const b = Array.from({ length: m * p }, r);
      for (const dtype of ['float32', 'float64'] as const) {
        const ta = tensor(dtype, [n, m], a);
        const tb = tensor(dtype, [m, p], b);
        const av = read(ta) as number[];
        const bv = read(tb) as number[];
        const ref = sequential(dtype, n, m, p, av, bv);
        const out = empty(dtype, [n, p]);
        cpuImpls.mm(out, ta, tb);
        expectGemm(dtype, read(out) as number[], ref, m);
        // both operands transposed in storage, and a transposed output
        const at = tensor(dtype, [m, n], Array.from({ length: n * m }, (_, q) => av[(q % n) * m + Math.floor(q / n)]));
        const bt = tensor(dtype, [p, m], Array.from({ length: m * p }, (_, q) => bv[(q % m) * p + Math.floor(q / m)]));
        const outT = empty(dtype, [p, n]);
        cpuImpls.mm(view(outT, [n, p], [1, n], 0), view(at, [n, m], [1, n], 0), view(bt, [m, p], [1, m], 0));
        const got = read(view(outT, [n, p], [1, n], 0)) as number[];
        expectGemm(dtype, got, ref, m);
      }
    }
  });

  it('bmm reads batch slices in place, whatever the batch stride', () => {
    const r = rng(11);
    const [B, n, m, p] = [3, 7, 20, 14];
    const a = Array.from({ length: B * n * m }, r);
    const b = Array.from({ length: B * m * p }, r);
    const ta = tensor('float32', [B, n, m], a);
    const tb = tensor('float32', [B, m, p], b);
    const out = empty('float32', [B, n, p]);
    cpuImpls.bmm(out, ta, tb);
    const got = read(out) as number[];
    const av = read(ta) as number[];
    const bv = read(tb) as number[];
    for (let z = 0; z < B; z++) {
      const ref = sequential('float32', n, m, p, av.slice(z * n * m, (z + 1) * n * m), bv.slice(z * m * p, (z + 1) * m * p));
      expectGemm('float32', got.slice(z * n * p, (z + 1) * n * p), ref, m);
    }
  });

  it('an empty inner dimension gives zeros, also into a dirty out', () => {
    const out = tensor('float32', [2, 3], [1, 2, 3, 4, 5, 6]);
    cpuImpls.mm(out, empty('float32', [2, 0]), empty('float32', [0, 3]));
    expect(read(out)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('stages operands that live outside the kernels\' memory, and writes the result back', () => {
    const r = rng(5);
    const [n, m, p] = [6, 40, 9];
    const a = Array.from({ length: n * m }, r);
    const b = Array.from({ length: m * p }, r);
    for (const dtype of ['float32', 'float64'] as const) {
      const ta = outsideHeap(dtype, [n, m], a);
      const tb = outsideHeap(dtype, [m, p], b);
      const out = outsideHeap(dtype, [n, p], new Array<number>(n * p).fill(7));
      cpuImpls.mm(out, ta, tb);
      expectGemm(dtype, read(out) as number[], sequential(dtype, n, m, p, read(ta) as number[], read(tb) as number[]), m);
      for (const t of [ta, tb, out]) t.release();
    }
  });

  it('float16 and bfloat16 are computed in float32 and rounded once', () => {
    for (const dtype of ['float16', 'bfloat16'] as const) {
      const a = tensor(dtype, [2, 3], [1, 2, 3, 4, 5, 6]);
      const b = tensor(dtype, [3, 1], [0.5, 0.25, 2]);
      const out = empty(dtype, [2, 1]);
      cpuImpls.mm(out, a, b);
      expect(read(out)).toEqual([7, 15.25]);
    }
  });

  it('addmm starts C from the bias and accumulates onto it (core Note [Fused addmm])', () => {
    const r = rng(21);
    const [n, m, p] = [10, 270, 29];
    for (const dtype of ['float32', 'float64'] as const) {
      const a = tensor(dtype, [n, m], Array.from({ length: n * m }, r));
      const b = tensor(dtype, [m, p], Array.from({ length: m * p }, r));
      const bias = tensor(dtype, [p], Array.from({ length: p }, r));
      const biasv = read(bias) as number[];
      const out = empty(dtype, [n, p]);
      cpuImpls.addmm(out, view(bias, [n, p], [0, 1], 0), a, b);
      const ref = sequential(dtype, n, m, p, read(a) as number[], read(b) as number[], (_, j) => biasv[j]);
      expectGemm(dtype, read(out) as number[], ref, m);
    }
  });
});
