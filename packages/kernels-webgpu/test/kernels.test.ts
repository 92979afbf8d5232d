/**
 * Focused checks of the generated kernels that the OpInfo suite (packages/testing,
 * ops-webgpu-suite.ts) does not reach: large sizes (many workgroups, tiles with edges,
 * the vec4 path), aliasing operands, and the pipeline cache. Expected values are computed
 * here in plain JS.
 */
import { describe, expect, it } from 'vitest';
import { add, add_, amax, argmax, bmm, mm, mul, permute, pow, sum, to, where, gt } from '@torch-ts/core';
import { queueCounters } from '../src';
import { gpuTensor, randoms, readValues, webgpuReady } from './helpers';
import { PW_NDIM_MAX } from '../src/wgsl/pointwise';

function seq(n: number, f: (i: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

// SwiftShader compiles shaders on the CPU: the first use of a kernel can take seconds.
describe.skipIf(!webgpuReady)('WebGPU kernels', () => {
  it('mm with edge tiles and a transposed operand matches a JS matmul', async () => {
    const n = 70, m = 33, p = 65;
    const av = seq(n * m, (i) => ((i * 7) % 13) - 6);
    const bv = seq(p * m, (i) => ((i * 5) % 11) - 5); // stored [p, m], used transposed
    const a = gpuTensor(av, 'float32', [n, m]);
    const bT = gpuTensor(bv, 'float32', [p, m]);
    const got = await readValues(mm(a, bT.t()));
    const want = seq(n * p, (q) => {
      const r = Math.floor(q / p), c = q % p;
      let s = 0;
      for (let k = 0; k < m; k++) s += av[r * m + k] * bv[c * m + k];
      return s;
    });
    expect(got).toEqual(want);
  });

  it('bmm and int32 mm', async () => {
    const a = gpuTensor(seq(2 * 2 * 3, (i) => i), 'float32', [2, 2, 3]);
    const b = gpuTensor(seq(2 * 3 * 2, (i) => i - 5), 'float32', [2, 3, 2]);
    const av = seq(12, (i) => i), bv = seq(12, (i) => i - 5);
    const want: number[] = [];
    for (let z = 0; z < 2; z++) for (let r = 0; r < 2; r++) for (let c = 0; c < 2; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += av[z * 6 + r * 3 + k] * bv[z * 6 + k * 2 + c];
      want.push(s);
    }
    expect(await readValues(bmm(a, b))).toEqual(want);
    const ai = gpuTensor([1, 2, 3, 4], 'int32', [2, 2]);
    expect(await readValues(mm(ai, ai))).toEqual([7, 10, 15, 22]);
  });

  it('sums 1e6 elements and reduces over several dims', async () => {
    const n = 1_000_000;
    const x = gpuTensor(seq(n, (i) => (i % 7) - 3), 'float32', [n]);
    const s = await readValues(sum(x));
    let want = 0;
    for (let i = 0; i < n; i++) want += (i % 7) - 3;
    expect(s[0]).toBe(want);
    const y = gpuTensor(seq(24, (i) => i), 'float32', [2, 3, 4]);
    expect(await readValues(sum(y, [0, 2]))).toEqual([0, 1, 2].map((j) => [0, 1].reduce((a, i) => a + [0, 1, 2, 3].reduce((b, k) => b + i * 12 + j * 4 + k, 0), 0)));
    expect(await readValues(amax(y, 1))).toEqual([8, 9, 10, 11, 20, 21, 22, 23]);
  });

  it('argmax takes the first of equal maxima and the first NaN', async () => {
    const x = gpuTensor([1, 5, 5, 2, NaN, 3, NaN, 0], 'float32', [2, 4]);
    expect(await readValues(argmax(x, 1))).toEqual([1, 0]);
  });

  it('runs the vec4 path on contiguous data and the strided path on views, with equal results', async () => {
    const n = 4096;
    const a = gpuTensor(seq(n, (i) => i * 0.5), 'float32', [64, 64]);
    const b = gpuTensor(seq(n, (i) => n - i), 'float32', [64, 64]);
    const contiguous = await readValues(add(a, b));
    const strided = await readValues(add(a.t(), b.t()).t());
    expect(contiguous).toEqual(seq(n, (i) => i * 0.5 + n - i));
    expect(strided).toEqual(contiguous);
  });

  it('in-place ops alias their output (one binding) and bool outputs pack bytes', async () => {
    const a = gpuTensor([1, 2, 3, 4, 5], 'float32');
    add_(a, a);
    expect(await readValues(a)).toEqual([2, 4, 6, 8, 10]);
    const m = gt(a, gpuTensor([3], 'float32'));
    expect(await readValues(m)).toEqual([0, 1, 1, 1, 1]);
    expect(await readValues(where(m, a, gpuTensor([-1], 'float32')))).toEqual([-1, 4, 6, 8, 10]);
    const u = gpuTensor(seq(9, (i) => i * 40), 'uint8');
    expect(await readValues(mul(u, u))).toEqual(seq(9, (i) => ((i * 40) % 256) ** 2 % 256));
  });

  it('pow of infinite bases is C pow: no NaN for non-integer exponents (-inf ^ 0.4138 = inf), -0 kept', async () => {
    // Found by the vmap sweep (the OpInfo same-shape case rolled by one puts -inf under
    // 0.41381117701530457). PyTorch 1.13's float32 tensor-tensor pow is C's powf here:
    // (-inf)^y is inf for y > 0 and 0 for y < 0, negative (-inf, -0) only for odd integers y;
    // JS's Math.pow follows the same IEEE rules for an infinite base, and for ±0.5 as C (the
    // tensor-scalar form's sqrt / rsqrt, (-inf) ** 0.5 = nan, is core's: checked below).
    const f32 = (x: number) => Math.fround(x);
    const exps = [0.41381117701530457, -0.41381117701530457, 2.5, -2.5, 3, -3, 2, 1, 1e10, -1e10, 1e-30, 0.5, -0.5].map(f32);
    const bases = [-Infinity, Infinity];
    const a = bases.flatMap((x) => exps.map(() => x));
    const b = bases.flatMap(() => exps);
    const got = await readValues(pow(gpuTensor(a, 'float32'), gpuTensor(b, 'float32')));
    expect(got).toEqual(a.map((x, i) => Math.pow(x, b[i])));
    expect(got.slice(0, 6)).toEqual([Infinity, 0, Infinity, 0, -Infinity, -0]); // torch 1.13 float32, printed
    // zero bases under ±0.5 (C's pow; torch 1.13 float32 and float16 tensor-tensor pow, printed:
    // [-inf, -0, 0, 4] ** 0.5 = [inf, 0, 0, 2], ** -0.5 = [0, inf, inf, 0.5])
    const z = [-Infinity, -0, 0, 4];
    for (const [y, want] of [[0.5, [Infinity, 0, 0, 2]], [-0.5, [0, Infinity, Infinity, 0.5]]] as const) {
      const r = await readValues(pow(gpuTensor(z, 'float32'), gpuTensor(z.map(() => y), 'float32')));
      expect(r.map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual(want);
    }
    // the tensor-scalar form takes sqrt: [nan, -0, 0, 2] (torch 1.13, printed)
    const s = await readValues(pow(gpuTensor(z, 'float32'), 0.5));
    expect(s.map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual([NaN, '-0', 0, 2]);
    // float16 and bfloat16 (computed in float32, as PyTorch's CPU half kernels; 1.13 gives -0
    // for (-inf)^-3 there too): the same values, exponents exact in both
    const he = [0.375, -0.375, 2.5, -2.5, 3, -3, 2, 1, 0.5, -0.5];
    const ha = bases.flatMap((x) => he.map(() => x));
    const hb = bases.flatMap(() => he);
    for (const dt of ['float16', 'bfloat16'] as const) {
      const r = pow(to(gpuTensor(ha, 'float32'), dt), to(gpuTensor(hb, 'float32'), dt));
      expect(await readValues(to(r, 'float32'))).toEqual(ha.map((x, i) => Math.pow(x, hb[i])));
    }
  });

  it('one pointwise source for ranks up to PW_NDIM_MAX; past it an unrolled one, with the same values', async () => {
    // a transposed view times a contiguous tensor of its shape: their strides disagree in
    // every dim, so TensorIterator keeps them all (rank n)
    const compiled: number[] = [];
    for (const n of [2, 3, 4, PW_NDIM_MAX, PW_NDIM_MAX + 1]) {
      const sizes = Array.from({ length: n }, (_, d) => 2 + (d % 2));
      const numel = sizes.reduce((a, b) => a * b, 1);
      const [x, y] = [randoms(numel, n), randoms(numel, n + 100)];
      const perm = sizes.map((_, d) => n - 1 - d);
      const shape = perm.map((d) => sizes[d]);
      const before = queueCounters().pipelinesCompiled;
      const got = await readValues(mul(permute(gpuTensor(x, 'float32', sizes), perm), gpuTensor(y, 'float32', shape)));
      compiled.push(queueCounters().pipelinesCompiled - before);
      // element e of the result (row-major over `shape`) reads x at the transposed index
      const xStrides = sizes.map((_, d) => sizes.slice(d + 1).reduce((a, b) => a * b, 1));
      const want = y.map((v, e) => {
        let rem = e;
        let at = 0;
        for (let j = n - 1; j >= 0; j--) {
          at += (rem % shape[j]) * xStrides[perm[j]];
          rem = Math.floor(rem / shape[j]);
        }
        return Math.fround(x[at] * v);
      });
      expect(got).toEqual(want);
    }
    // the first call may compile the shared source; ranks up to the bound reuse it, the next is its own
    expect(compiled.slice(1, 4)).toEqual([0, 0, 0]);
    expect(compiled[4]).toBe(1);
  });

  it('compiles one pipeline per kernel source and reuses it', async () => {
    const a = gpuTensor([1, 2, 3], 'float32');
    await readValues(mul(gpuTensor([0, 0, 0], 'float32'), a));
    const before = queueCounters().pipelinesCompiled;
    for (let i = 0; i < 5; i++) await readValues(mul(gpuTensor([i, i + 1, 2], 'float32'), a));
    expect(queueCounters().pipelinesCompiled).toBe(before);
  });
});
