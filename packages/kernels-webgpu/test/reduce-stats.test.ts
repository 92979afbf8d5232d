/**
 * Focused checks of the reduction, statistics and normalization kernels that the OpInfo
 * suite (small goldens) does not reach: the two-pass path of few long reductions, the tie
 * rules of argmax/argmin across pieces, exact int64 arithmetic (carries, wrap-around), and
 * long rows of the statistics kernels. Expected values are computed here in plain JS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Tensor,
  _nativeBatchNormBackward,
  _nativeLayerNormBackward,
  all,
  amax,
  amin,
  any,
  argmax,
  argmin,
  batchNorm,
  layerNorm,
  logsumexp,
  max,
  min,
  norm,
  prod,
  std,
  stdMean,
  sum,
  var as variance,
} from '@torch-ts/core';
import { readToHost } from '../src/runtime/transfer';
import { chunksFor } from '../src/kernels/reduce';
import { setKernelTuning } from '../src/runtime/tuning';
import { gpuTensor, readValues, webgpuReady } from './helpers';

function seq<T = number>(n: number, f: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

/** The int64 elements of a contiguous WebGPU tensor, exactly. */
async function readBig(t: Tensor): Promise<bigint[]> {
  const host = await readToHost(t.impl);
  try {
    const a = host.storage.typed(BigInt64Array as never) as unknown as BigInt64Array;
    return Array.from(a.subarray(host.storageOffset, host.storageOffset + host.numel));
  } finally {
    host.release();
  }
}


/**
 * Every kernel here runs in both shapes of Note [Kernel tuning per adapter]: the workgroup
 * trees a GPU gets and the barrier-free pieces a software adapter gets.
 */
describe.each([{ barrierFree: false }, { barrierFree: true }])('kernel tuning %o', (tuning) => {
  beforeAll(() => setKernelTuning(tuning));
  afterAll(() => setKernelTuning({}));

  describe.skipIf(!webgpuReady)('WebGPU reductions', () => {
    it('picks two passes only for few long reductions', () => {
      expect(chunksFor(1, 400)).toBe(1);
      expect(chunksFor(1, 1000)).toBe(tuning.barrierFree ? 3 : 1);
      expect(chunksFor(1, 1 << 24)).toBeGreaterThan(100);
      // (a software adapter deals rows into a few interleaved pieces: Note [Kernel tuning per adapter])
      expect(chunksFor(4096, 1 << 20)).toBe(tuning.barrierFree ? 4 : 1);
      expect(chunksFor(1 << 16, 1 << 12)).toBe(1);
    });

    it('sums 4M elements to a scalar in two passes, exactly for integers', async () => {
      const n = 1 << 22;
      const x = gpuTensor(seq(n, (i) => (i % 7) - 3), 'float32', [n]);
      let want = 0;
      for (let i = 0; i < n; i++) want += (i % 7) - 3;
      expect((await readValues(sum(x)))[0]).toBe(want);
      const xi = gpuTensor(seq(n, (i) => i % 1000), 'int32', [n]);
      // int32 sums to int64: 4M * ~500 overflows 32 bits
      let wantI = 0n;
      for (let i = 0; i < n; i++) wantI += BigInt(i % 1000);
      expect(await readBig(sum(xi))).toEqual([wantI]);
    });

    it('reduces few long rows along a strided dim in two passes', async () => {
      const rows = 3, len = 50_000;
      const v = seq(rows * len, (i) => ((i * 13) % 17) - 8);
      const x = gpuTensor(v, 'float32', [len, rows]); // reduce dim 0: stride 3
      const want = [0, 1, 2].map((r) => {
        let s = 0;
        for (let i = 0; i < len; i++) s += v[i * rows + r];
        return s;
      });
      expect(await readValues(sum(x, 0))).toEqual(want);
      const wmax = [0, 1, 2].map((r) => Math.max(...seq(len, (i) => v[i * rows + r])));
      expect(await readValues(amax(x, 0))).toEqual(wmax);
      const wmin = [0, 1, 2].map((r) => Math.min(...seq(len, (i) => v[i * rows + r])));
      expect(await readValues(amin(x, 0))).toEqual(wmin);
    });

    it('argmax/argmin over a long dim: the first extreme wins, a NaN wins over numbers', async () => {
      const n = 300_000;
      const v = seq(n, (i) => (i * 7919) % 1000);
      // the max 999 appears many times; the first occurrence is the answer
      const x = gpuTensor(v, 'float32', [n]);
      expect(await readValues(argmax(x))).toEqual([v.indexOf(999)]);
      expect(await readValues(argmin(x))).toEqual([v.indexOf(0)]);
      const w = v.slice();
      w[200_001] = NaN;
      w[250_000] = NaN;
      const y = gpuTensor(w, 'float32', [n]);
      expect(await readValues(argmax(y))).toEqual([200_001]);
      expect(await readValues(argmin(y))).toEqual([200_001]);
      const [mv, mi] = max(gpuTensor(v, 'int32', [1, n]), 1);
      expect(await readValues(mv)).toEqual([999]);
      expect(await readValues(mi)).toEqual([v.indexOf(999)]);
      const [nv, ni] = min(gpuTensor(v.map((e) => e % 256), 'uint8', [1, n]), 1);
      expect(await readValues(nv)).toEqual([0]);
      expect(await readValues(ni)).toEqual([0]);
    });

    it('argmax on short and medium dims, with ties', async () => {
      const x = gpuTensor([1, 3, 3, 2, 5, 5, 5, 0, NaN, 1, NaN, 2], 'float32', [4, 3]);
      expect(await readValues(argmax(x, 1))).toEqual([1, 1, 2, 1]);
      expect(await readValues(argmin(x, 1))).toEqual([0, 0, 2, 1]);
      const m = 1000;
      const y = gpuTensor(seq(2 * m, (i) => i % 10), 'float32', [2, m]);
      expect(await readValues(argmax(y, 1))).toEqual([9, 9]);
      expect(await readValues(argmin(y, 1))).toEqual([0, 0]);
    });

    it('sums over [0, 2, 3] (merged dims) and over a permuted view', async () => {
      const v = seq(2 * 3 * 4 * 5, (i) => (i * 7) % 11);
      const x = gpuTensor(v, 'float32', [2, 3, 4, 5]);
      const want = [0, 1, 2].map((c) => v.filter((_, i) => Math.floor(i / 20) % 3 === c).reduce((a, b) => a + b, 0));
      expect(await readValues(sum(x, [0, 2, 3]))).toEqual(want);
      const p = x.permute([3, 1, 0, 2]); // [5, 3, 2, 4]
      expect(await readValues(sum(p, [0, 2, 3]))).toEqual(want);
      const w5 = [0, 1, 2, 3, 4].map((q) => v.filter((_, i) => i % 5 === q).reduce((a, b) => a + b, 0));
      expect(await readValues(sum(p, [1, 2, 3]))).toEqual(w5);
    });

    it('int64: sums with carries, products that wrap, signed extremes, argmax', async () => {
      const v = [2 ** 32 - 1, 1, 2 ** 40, -5, -(2 ** 33), 7];
      const x = gpuTensor(v, 'int64', [6]);
      const big = v.map((e) => BigInt(e));
      expect(await readBig(sum(x))).toEqual([big.reduce((a, b) => a + b, 0n)]);
      expect(await readBig(amax(x))).toEqual([2n ** 40n]);
      expect(await readBig(amin(x))).toEqual([-(2n ** 33n)]);
      expect(await readValues(argmax(x))).toEqual([2]);
      expect(await readValues(argmin(x))).toEqual([4]);
      const p = [3 ** 20, -(7 ** 15), 11 ** 9, 5];
      const want = BigInt.asIntN(64, p.map((e) => BigInt(e)).reduce((a, b) => a * b, 1n));
      expect(await readBig(prod(gpuTensor(p, 'int64', [4])))).toEqual([want]);
      // a long int64 row (two passes) with a carry in every partial
      const n = 100_000;
      const y = gpuTensor(seq(n, (i) => 2 ** 31 + i), 'int64', [n]);
      let s = 0n;
      for (let i = 0; i < n; i++) s += 2n ** 31n + BigInt(i);
      expect(await readBig(sum(y))).toEqual([s]);
      const yi = gpuTensor(seq(2 * n, (i) => (i * 7919) % 100_003), 'int64', [2, n]);
      const [mv, mi] = max(yi, 1);
      const rows = [0, 1].map((r) => seq(n, (i) => ((r * n + i) * 7919) % 100_003));
      expect(await readBig(mv)).toEqual(rows.map((r) => BigInt(Math.max(...r))));
      expect(await readValues(mi)).toEqual(rows.map((r) => r.indexOf(Math.max(...r))));
      // sums of bool and uint8 to int64 (as core casts them) and along dims
      const b = gpuTensor(seq(70_000, (i) => (i % 3 === 0 ? 1 : 0)), 'bool', [70_000]);
      expect(await readBig(sum(b))).toEqual([BigInt(Math.ceil(70_000 / 3))]);
    });
  });

  /** Close within float32 accumulation error: |a - b| <= rtol |b| + atol. */
  function expectClose(got: readonly number[], want: readonly number[], rtol = 1e-5, atol = 1e-5): void {
    expect(got.length).toBe(want.length);
    got.forEach((g, i) => {
      const w = want[i];
      if (Number.isNaN(w)) expect(g, `element ${i}`).toBeNaN();
      else if (!Number.isFinite(w)) expect(g, `element ${i}`).toBe(w);
      else expect(Math.abs(g - w), `element ${i}: ${g} vs ${w}`).toBeLessThanOrEqual(rtol * Math.abs(w) + atol);
    });
  }

  function rowsOf(v: readonly number[], len: number): number[][] {
    return seq(v.length / len, (r) => v.slice(r * len, (r + 1) * len));
  }

  function meanVar(r: readonly number[], correction = 1): [number, number] {
    const m = r.reduce((a, b) => a + b, 0) / r.length;
    const m2 = r.reduce((a, b) => a + (b - m) * (b - m), 0);
    return [m2 / Math.max(r.length - correction, 0), m];
  }

  describe.skipIf(!webgpuReady)('WebGPU row statistics', () => {
    it('var/std/std_mean over short, medium and long rows (two passes), offset data, vec4 or not', async () => {
      // (lengths 700 and 60000 take the vec4 loads, 701 and 60001 the scalar ones)
      for (const [rows, len] of [[50, 5], [4, 700], [3, 701], [2, 60_000], [2, 60_001]] as const) {
        const v = seq(rows * len, (i) => Math.fround(1000 + Math.sin(i) * 3));
        const x = gpuTensor(v, 'float32', [rows, len]);
        const want = rowsOf(v, len).map((r) => meanVar(r));
        expectClose(await readValues(variance(x, 1)), want.map((w) => w[0]), 1e-5);
        expectClose(await readValues(std(x, 1, { correction: 0 })), rowsOf(v, len).map((r) => Math.sqrt(meanVar(r, 0)[0])), 1e-5);
        const [s, m] = stdMean(x, 1);
        expectClose(await readValues(s), want.map((w) => Math.sqrt(w[0])), 1e-5);
        expectClose(await readValues(m), want.map((w) => w[1]), 1e-6);
      }
      // correction past the count: inf (or NaN for a zero sum of squares), as the CPU kernel
      expectClose(await readValues(variance(gpuTensor([1, 2], 'float32', [1, 2]), 1, { correction: 2 })), [Infinity]);
      expectClose(await readValues(variance(gpuTensor([3], 'float32', [1, 1]), 1)), [NaN]);
      expectClose(await readValues(variance(gpuTensor([1, NaN, 2], 'float32', [3]))), [NaN]);
    });

    it('var and logsumexp of one row of 200k elements (more pieces than a short final pass)', async () => {
      const n = 200_000;
      const v = seq(n, (i) => Math.fround(Math.sin(i * 0.001) * 4 + 10));
      const x = gpuTensor(v, 'float32', [n]);
      const [vr] = meanVar(v);
      expectClose(await readValues(variance(x)), [vr], 1e-5);
      const m = v.reduce((a, b) => Math.max(a, b), -Infinity);
      expectClose(await readValues(logsumexp(x, 0)), [m + Math.log(v.reduce((a, b) => a + Math.exp(b - m), 0))], 1e-6);
    });

    it('logsumexp is stable, with infinities and NaN, over long rows', async () => {
      const v = seq(3 * 50_000, (i) => 80 + (i % 11));
      const x = gpuTensor(v, 'float32', [3, 50_000]);
      const want = rowsOf(v, 50_000).map((r) => {
        const m = Math.max(...r);
        return m + Math.log(r.reduce((a, b) => a + Math.exp(b - m), 0));
      });
      expectClose(await readValues(logsumexp(x, 1)), want, 1e-6);
      const y = gpuTensor([Infinity, 1, -Infinity, -Infinity, NaN, 1, 1000, 1000], 'float32', [4, 2]);
      expectClose(await readValues(logsumexp(y, 1)), [Infinity, -Infinity, NaN, 1000 + Math.log(2)], 1e-6);
      // a long row whose first pieces are all -inf
      const z = seq(60_000, (i) => (i < 30_000 ? -Infinity : (i % 7) - 3));
      const zm = 3;
      expectClose(await readValues(logsumexp(gpuTensor(z, 'float32', [60_000]), 0)), [zm + Math.log(z.reduce((a, b) => a + Math.exp(b - zm), 0))], 1e-6);
    });

    it('vector norms: 0, 1, 2, 3, -1, inf, -inf, over long rows', async () => {
      const v = seq(2 * 40_000, (i) => ((i % 13) - 6) / 4);
      const x = gpuTensor(v, 'float32', [2, 40_000]);
      const rs = rowsOf(v, 40_000);
      const pn = (r: number[], p: number): number => r.reduce((a, b) => a + Math.abs(b) ** p, 0) ** (1 / p);
      expectClose(await readValues(norm(x, 0, 1)), rs.map((r) => r.filter((e) => e !== 0).length));
      expectClose(await readValues(norm(x, 1, 1)), rs.map((r) => pn(r, 1)), 1e-5);
      expectClose(await readValues(norm(x, 2, 1)), rs.map((r) => pn(r, 2)), 1e-5);
      expectClose(await readValues(norm(x, 3, 1)), rs.map((r) => pn(r, 3)), 1e-4);
      expectClose(await readValues(norm(x, Infinity, 1)), rs.map((r) => Math.max(...r.map(Math.abs))));
      expectClose(await readValues(norm(x, -Infinity, 1)), [0, 0]);
      expectClose(await readValues(norm(x, -1, 1)), [0, 0]);
      const y = gpuTensor([3, NaN, 4, 2], 'float32', [2, 2]);
      expectClose(await readValues(norm(y, Infinity, 1)), [NaN, 4]);
    });

    it('all/any over long rows and uint8 results', async () => {
      const n = 80_000;
      const ones = seq(2 * n, (i) => (i === n + 12345 ? 0 : 1));
      const x = gpuTensor(ones, 'bool', [2, n]);
      expect(await readValues(all(x, 1))).toEqual([1, 0]);
      expect(await readValues(any(x.logicalNot(), 1))).toEqual([0, 1]);
      expect(await readValues(all(gpuTensor([1, 2, 0, 3], 'uint8', [2, 2]), 1))).toEqual([1, 0]);
      expect((await readValues(all(gpuTensor(seq(70_000, () => 1), 'float32'))))[0]).toBe(1);
    });
  });

  describe.skipIf(!webgpuReady)('WebGPU normalization', () => {
    const n = 3, c = 4, s = 50;
    const v = seq(n * c * s, (i) => Math.fround(Math.cos(i * 0.37) * 2 + (i % 5)));
    const idx = (b: number, ch: number, p: number): number => b * c * s + ch * s + p;
    const chanVals = (ch: number): number[] => seq(n * s, (e) => v[idx(Math.floor(e / s), ch, e % s)]);
    const wv = [0.5, -1, 2, 1.5], bv = [0.1, 0.2, -0.3, 0];

    it('batch norm forward: training updates running stats (unbiased var), eval uses them', async () => {
      const x = gpuTensor(v, 'float32', [n, c, s]);
      const rm = gpuTensor([0, 1, 2, 3], 'float32');
      const rv = gpuTensor([1, 2, 3, 4], 'float32');
      const w = gpuTensor(wv, 'float32'), b = gpuTensor(bv, 'float32');
      const out = batchNorm(x, rm, rv, { weight: w, bias: b, training: true, momentum: 0.2, eps: 1e-5 });
      const stats = seq(c, (ch) => meanVar(chanVals(ch), 0));
      const want = v.map((e, i) => {
        const ch = Math.floor(i / s) % c;
        return ((e - stats[ch][1]) / Math.sqrt(stats[ch][0] + 1e-5)) * wv[ch] + bv[ch];
      });
      expectClose(await readValues(out), want, 1e-4, 1e-4);
      expectClose(await readValues(rm), seq(c, (ch) => 0.8 * ch + 0.2 * stats[ch][1]), 1e-5);
      expectClose(await readValues(rv), seq(c, (ch) => 0.8 * (ch + 1) + 0.2 * meanVar(chanVals(ch), 1)[0]), 1e-5);
      const ev = batchNorm(x, gpuTensor([0, 1, 2, 3], 'float32'), gpuTensor([1, 2, 3, 4], 'float32'), { training: false });
      expectClose(await readValues(ev), v.map((e, i) => {
        const ch = Math.floor(i / s) % c;
        return (e - ch) / Math.sqrt(ch + 1 + 1e-5);
      }), 1e-5);
    });

    it('batch norm over few channels of many elements (statistics in pieces), forward and backward', async () => {
      const N = 4, C = 2, S = 10_000;
      const xv = seq(N * C * S, (i) => Math.fround(Math.sin(i * 0.013) * 2 + 5 + (i % 3)));
      const gv = seq(N * C * S, (i) => Math.fround(Math.cos(i * 0.007)));
      const at = (b: number, ch: number, p: number): number => b * C * S + ch * S + p;
      const chan = (a: number[], ch: number): number[] => seq(N * S, (e) => a[at(Math.floor(e / S), ch, e % S)]);
      const rv = gpuTensor([1, 1], 'float32');
      const out = batchNorm(gpuTensor(xv, 'float32', [N, C, S]), null, rv, { training: true, momentum: 0.5 });
      const st = seq(C, (ch) => meanVar(chan(xv, ch), 0));
      expectClose(await readValues(rv), seq(C, (ch) => 0.5 + 0.5 * meanVar(chan(xv, ch), 1)[0]), 1e-5);
      expectClose(await readValues(out), xv.map((e, i) => { const ch = Math.floor(i / S) % C; return (e - st[ch][1]) / Math.sqrt(st[ch][0] + 1e-5); }), 1e-4, 1e-4);
      const inv = st.map((q) => 1 / Math.sqrt(q[0] + 1e-5));
      const [gi, gw, gb] = _nativeBatchNormBackward(gpuTensor(gv, 'float32', [N, C, S]), gpuTensor(xv, 'float32', [N, C, S]), null, gpuTensor(st.map((q) => q[1]), 'float32'), gpuTensor(inv, 'float32'), true);
      const sumG = seq(C, (ch) => chan(gv, ch).reduce((a, b) => a + b, 0));
      const dot = seq(C, (ch) => { const g = chan(gv, ch), x = chan(xv, ch); return g.reduce((a, b, e) => a + b * (x[e] - st[ch][1]), 0); });
      expectClose(await readValues(gb), sumG, 1e-4, 1e-3);
      expectClose(await readValues(gw), dot.map((d, ch) => d * inv[ch]), 1e-4, 1e-3);
      const cnt = N * S;
      expectClose(await readValues(gi), xv.map((e, i) => {
        const ch = Math.floor(i / S) % C;
        return (gv[i] - sumG[ch] / cnt - (e - st[ch][1]) * (dot[ch] * inv[ch] * inv[ch]) / cnt) * inv[ch];
      }), 1e-4, 1e-4);
    });

    it('batch norm backward (training and eval) matches the formulas', async () => {
      const g = seq(n * c * s, (i) => Math.sin(i * 0.11));
      const stats = seq(c, (ch) => meanVar(chanVals(ch), 0));
      const mean = stats.map((st) => st[1]);
      const inv = stats.map((st) => 1 / Math.sqrt(st[0] + 1e-5));
      for (const training of [true, false]) {
        const [gi, gw, gb] = _nativeBatchNormBackward(gpuTensor(g, 'float32', [n, c, s]), gpuTensor(v, 'float32', [n, c, s]), gpuTensor(wv, 'float32'), gpuTensor(mean, 'float32'), gpuTensor(inv, 'float32'), training);
        const count = n * s;
        const sumG = seq(c, (ch) => seq(count, (e) => g[idx(Math.floor(e / s), ch, e % s)]).reduce((a, b2) => a + b2, 0));
        const dot = seq(c, (ch) => seq(count, (e) => { const i = idx(Math.floor(e / s), ch, e % s); return g[i] * (v[i] - mean[ch]); }).reduce((a, b2) => a + b2, 0));
        expectClose(await readValues(gb), sumG, 1e-4, 1e-4);
        expectClose(await readValues(gw), dot.map((d, ch) => d * inv[ch]), 1e-4, 1e-4);
        const wantGi = v.map((e, i) => {
          const ch = Math.floor(i / s) % c;
          if (!training) return g[i] * wv[ch] * inv[ch];
          return (g[i] - sumG[ch] / count - (e - mean[ch]) * (dot[ch] * inv[ch] * inv[ch]) / count) * wv[ch] * inv[ch];
        });
        expectClose(await readValues(gi), wantGi, 1e-4, 1e-4);
      }
    });

    it('layer norm over two long rows (statistics in pieces), forward and backward', async () => {
      const m = 2, k = 60_000;
      const xv = seq(m * k, (i) => Math.fround(Math.sin(i * 0.01) * 3 + 2 + (i % 5)));
      const gv = seq(m * k, (i) => Math.fround(Math.cos(i * 0.003)));
      const w = seq(k, (j) => Math.fround(1 + (j % 7) / 7)), b = seq(k, (j) => Math.fround((j % 3) / 10));
      const out = layerNorm(gpuTensor(xv, 'float32', [m, k]), [k], { weight: gpuTensor(w, 'float32'), bias: gpuTensor(b, 'float32') });
      const st = rowsOf(xv, k).map((r) => meanVar(r, 0));
      const rstd = st.map((q) => 1 / Math.sqrt(q[0] + 1e-5));
      expectClose(await readValues(out), xv.map((e, i) => { const r = Math.floor(i / k), j = i % k; return (e - st[r][1]) * rstd[r] * w[j] + b[j]; }), 1e-4, 1e-4);
      const [gi] = _nativeLayerNormBackward(gpuTensor(gv, 'float32', [m, k]), gpuTensor(xv, 'float32', [m, k]), [k], gpuTensor(st.map((q) => q[1]), 'float32', [m, 1]), gpuTensor(rstd, 'float32', [m, 1]), gpuTensor(w, 'float32'));
      const sums = [0, 1].map((r) => {
        let s1 = 0, s2 = 0;
        for (let j = 0; j < k; j++) { const q = gv[r * k + j] * w[j]; s1 += q; s2 += q * (xv[r * k + j] - st[r][1]) * rstd[r]; }
        return [s1 / k, s2 / k];
      });
      expectClose(await readValues(gi), xv.map((e, i) => {
        const r = Math.floor(i / k);
        const xhat = (e - st[r][1]) * rstd[r];
        return rstd[r] * (gv[i] * w[i % k] - sums[r][0] - xhat * sums[r][1]);
      }), 1e-4, 1e-4);
    });

    it('layer norm forward and backward over many rows (column sums by workgroups)', async () => {
      const m = 70, k = 40;
      const xv = seq(m * k, (i) => Math.sin(i * 0.7) * 3 + 1);
      const gv = seq(m * k, (i) => Math.cos(i * 0.3));
      const w = seq(k, (j) => 1 + j / k), b = seq(k, (j) => j / 10);
      const out = layerNorm(gpuTensor(xv, 'float32', [m, k]), [k], { weight: gpuTensor(w, 'float32'), bias: gpuTensor(b, 'float32') });
      const st = rowsOf(xv, k).map((r) => meanVar(r, 0));
      const rstd = st.map((q) => 1 / Math.sqrt(q[0] + 1e-5));
      expectClose(await readValues(out), xv.map((e, i) => { const r = Math.floor(i / k), j = i % k; return (e - st[r][1]) * rstd[r] * w[j] + b[j]; }), 1e-4, 1e-4);
      const [gi, gw, gb] = _nativeLayerNormBackward(gpuTensor(gv, 'float32', [m, k]), gpuTensor(xv, 'float32', [m, k]), [k], gpuTensor(st.map((q) => q[1]), 'float32', [m, 1]), gpuTensor(rstd, 'float32', [m, 1]), gpuTensor(w, 'float32'));
      const xhat = xv.map((e, i) => (e - st[Math.floor(i / k)][1]) * rstd[Math.floor(i / k)]);
      expectClose(await readValues(gw), seq(k, (j) => seq(m, (r) => gv[r * k + j] * xhat[r * k + j]).reduce((a, c2) => a + c2, 0)), 1e-4, 1e-4);
      expectClose(await readValues(gb), seq(k, (j) => seq(m, (r) => gv[r * k + j]).reduce((a, c2) => a + c2, 0)), 1e-4, 1e-4);
      const wantGi = seq(m * k, (i) => {
        const r = Math.floor(i / k);
        let s1 = 0, s2 = 0;
        for (let j = 0; j < k; j++) { const q = gv[r * k + j] * w[j]; s1 += q; s2 += q * xhat[r * k + j]; }
        return rstd[r] * (gv[i] * w[i % k] - s1 / k - xhat[i] * s2 / k);
      });
      expectClose(await readValues(gi), wantGi, 1e-4, 1e-4);
    });
  });
});
