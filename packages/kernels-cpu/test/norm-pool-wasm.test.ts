import type { Pool2dGeometry, TensorImpl } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { wasm } from '../src/wasm/kernels';
import { empty, read, releaseCreated, rng, tensor } from './helpers';

// The normalization and average pooling kernels (Note [Normalization in SIMD], Note [Average
// pooling in WebAssembly]; the JS loops where SIMD is off) against plain float64 references,
// and bit-identical on 1, 2 and 4 threads. Mismatches are collected and asserted once.

afterEach(releaseCreated);

const nums = (t: TensorImpl): number[] => read(t) as number[];
const f32 = (xs: number[]): number[] => xs.map(Math.fround);

/** Records `what[i]` where |got - want| > atol + rtol |want| (NaN only matches NaN). */
function check(bad: string[], what: string, got: readonly number[], want: readonly number[], atol: number, rtol: number): void {
  if (got.length !== want.length) bad.push(`${what}: ${got.length} values, expected ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    const ok = Number.isNaN(want[i]) ? Number.isNaN(got[i]) : Math.abs(got[i] - want[i]) <= atol + rtol * Math.abs(want[i]);
    if (!ok && bad.length < 20) bad.push(`${what}[${i}] = ${got[i]}, expected ${want[i]}`);
  }
}

const maxAbs = (xs: readonly number[]): number => xs.reduce((m, v) => (Number.isNaN(v) ? m : Math.max(m, Math.abs(v))), 0);
/** float32 tolerance: a few ulps of the values' scale (the kernels round a few times per element). */
const tol32 = (want: readonly number[]): [number, number] => [4 * 2 ** -24 * Math.max(1, maxAbs(want)), 4 * 2 ** -24];

/** float64 sums in another order: a few ulps. */
const tolFor = (dtype: 'float32' | 'float64', want: readonly number[]): [number, number] => (dtype === 'float32' ? tol32(want) : [1e-13, 1e-13]);

// ---- references (float64) ----

function layerNormRef(x: number[], w: number[] | null, b: number[] | null, rows: number, k: number, eps: number) {
  const y: number[] = [];
  const mean: number[] = [];
  const rstd: number[] = [];
  for (let i = 0; i < rows; i++) {
    const row = x.slice(i * k, (i + 1) * k);
    const mu = row.reduce((a, v) => a + v, 0) / k;
    const r = 1 / Math.sqrt(row.reduce((a, v) => a + (v - mu) ** 2, 0) / k + eps);
    mean.push(mu);
    rstd.push(r);
    row.forEach((v, j) => y.push((v - mu) * r * (w ? w[j] : 1) + (b ? b[j] : 0)));
  }
  return { y, mean, rstd };
}

function layerNormBackwardRef(g: number[], x: number[], mean: number[], rstd: number[], w: number[] | null, rows: number, k: number) {
  const gi: number[] = [];
  const gw = new Array<number>(k).fill(0);
  const gb = new Array<number>(k).fill(0);
  for (let i = 0; i < rows; i++) {
    const xh = (j: number): number => (x[i * k + j] - mean[i]) * rstd[i];
    const gwv = (j: number): number => g[i * k + j] * (w ? w[j] : 1);
    let s1 = 0;
    let s2 = 0;
    for (let j = 0; j < k; j++) {
      s1 += gwv(j);
      s2 += gwv(j) * xh(j);
      gw[j] += g[i * k + j] * xh(j);
      gb[j] += g[i * k + j];
    }
    for (let j = 0; j < k; j++) gi.push(rstd[i] * (gwv(j) - s1 / k - (xh(j) * s2) / k));
  }
  return { gi, gw, gb };
}

function batchNormRef(x: number[], n: number, c: number, s: number, eps: number, stats: { mean: number[]; varB: number[] } | null) {
  const at = (b: number, ch: number, p: number): number => (b * c + ch) * s + p;
  const mean: number[] = [];
  const varB: number[] = [];
  const varU: number[] = [];
  for (let ch = 0; ch < c; ch++) {
    let sum = 0;
    for (let b = 0; b < n; b++) for (let p = 0; p < s; p++) sum += x[at(b, ch, p)];
    const mu = sum / (n * s);
    let sq = 0;
    for (let b = 0; b < n; b++) for (let p = 0; p < s; p++) sq += (x[at(b, ch, p)] - mu) ** 2;
    mean.push(stats ? stats.mean[ch] : mu);
    varB.push(stats ? stats.varB[ch] : sq / (n * s));
    varU.push(sq / (n * s - 1));
  }
  const invstd = varB.map((v) => 1 / Math.sqrt(v + eps));
  return { mean, invstd, varU, batchMean: stats ? null : mean };
}

// ---- layer norm ----

describe('layer norm kernels', () => {
  it('forward and backward match float64 references (weight/bias present or not, tails, a large mean)', () => {
    const bad: string[] = [];
    const r = rng(11);
    for (const [rows, k, offset] of [[5, 7, 0], [3, 1027, 0], [17, 64, 0], [4, 300, 1000], [2, 1, 0], [3, 2053, -3]]) {
      const x = f32(Array.from({ length: rows * k }, () => offset + (r() - 0.5) * 4));
      const w = f32(Array.from({ length: k }, () => r() * 2 - 0.5));
      const b = f32(Array.from({ length: k }, () => r() - 0.5));
      const g = f32(Array.from({ length: rows * k }, () => r() * 2 - 1));
      for (const [hasW, hasB] of [[true, true], [true, false], [false, true], [false, false]]) {
        const name = `[${rows},${k}]+${offset} w=${hasW} b=${hasB}`;
        const xt = tensor('float32', [rows, k], x);
        const wt = hasW ? tensor('float32', [k], w) : null;
        const bt = hasB ? tensor('float32', [k], b) : null;
        const out = empty('float32', [rows, k]);
        const mean = empty('float32', [rows]);
        const rstd = empty('float32', [rows]);
        cpuImpls.layerNorm(out, mean, rstd, xt, wt, bt, rows, k, 1e-5);
        const ref = layerNormRef(x, hasW ? w : null, hasB ? b : null, rows, k, 1e-5);
        check(bad, `${name} y`, nums(out), ref.y, ...tol32(ref.y));
        check(bad, `${name} mean`, nums(mean), ref.mean, 0, 2 ** -24);
        check(bad, `${name} rstd`, nums(rstd), ref.rstd, 0, 2 ** -23);
        const gt = tensor('float32', [rows, k], g);
        const gi = empty('float32', [rows, k]);
        const gw = empty('float32', [k]);
        const gb = empty('float32', [k]);
        cpuImpls.layerNormBackward(gi, hasW ? gw : null, hasB ? gb : null, gt, xt, mean, rstd, wt, rows, k);
        const bref = layerNormBackwardRef(g, x, nums(mean), nums(rstd), hasW ? w : null, rows, k);
        check(bad, `${name} gi`, nums(gi), bref.gi, ...tol32(bref.gi));
        if (hasW) check(bad, `${name} gw`, nums(gw), bref.gw, ...tol32(bref.gw));
        if (hasB) check(bad, `${name} gb`, nums(gb), bref.gb, ...tol32(bref.gb));
      }
    }
    expect(bad).toEqual([]);
  });
});

// ---- batch norm ----

describe('batch norm kernels', () => {
  it('training and eval, forward and backward, match float64 references', () => {
    const bad: string[] = [];
    const r = rng(12);
    for (const [n, c, s] of [[2, 3, 5], [4, 2, 37], [1, 5, 1], [3, 4, 64]]) {
      const x = f32(Array.from({ length: n * c * s }, () => 3 + (r() - 0.5) * 4));
      const w = f32(Array.from({ length: c }, () => r() * 2 - 0.5));
      const b = f32(Array.from({ length: c }, () => r() - 0.5));
      const g = f32(Array.from({ length: n * c * s }, () => r() * 2 - 1));
      const rm0 = f32(Array.from({ length: c }, () => r()));
      const rv0 = f32(Array.from({ length: c }, () => 0.5 + Math.abs(r())));
      for (const training of [true, false]) {
        const name = `[${n},${c},${s}] ${training ? 'train' : 'eval'}`;
        const xt = tensor('float32', [n, c, s], x);
        const wt = tensor('float32', [c], w);
        const bt = tensor('float32', [c], b);
        const rm = tensor('float32', [c], rm0);
        const rv = tensor('float32', [c], rv0);
        const out = empty('float32', [n, c, s]);
        const mean = empty('float32', [c]);
        const invstd = empty('float32', [c]);
        cpuImpls.batchNorm(out, mean, invstd, xt, wt, bt, rm, rv, n, c, s, training, 0.1, 1e-5);
        const ref = batchNormRef(x, n, c, s, 1e-5, training ? null : { mean: rm0, varB: rv0 });
        const y = x.map((v, i) => {
          const ch = Math.floor(i / s) % c;
          return (v - ref.mean[ch]) * ref.invstd[ch] * w[ch] + b[ch];
        });
        check(bad, `${name} y`, nums(out), y, ...tol32(y));
        check(bad, `${name} mean`, nums(mean), ref.mean, 0, 2 ** -24);
        check(bad, `${name} invstd`, nums(invstd), ref.invstd, 0, 2 ** -23);
        if (training) {
          check(bad, `${name} running_mean`, nums(rm), ref.mean.map((m, ch) => 0.1 * m + 0.9 * rm0[ch]), 0, 2 ** -23);
          const wantVar = ref.varU.map((v, ch) => 0.1 * v + 0.9 * rv0[ch]);
          check(bad, `${name} running_var`, nums(rv), n * s > 1 ? wantVar : wantVar.map(() => NaN), 0, 2 ** -23);
        }
        const gt = tensor('float32', [n, c, s], g);
        const gi = empty('float32', [n, c, s]);
        const gw = empty('float32', [c]);
        const gb = empty('float32', [c]);
        cpuImpls.batchNormBackward(gi, gw, gb, gt, xt, wt, mean, invstd, n, c, s, training);
        const mu = nums(mean);
        const iv = nums(invstd);
        const at = (bb: number, ch: number, p: number): number => (bb * c + ch) * s + p;
        const wantGi = new Array<number>(x.length);
        const wantGw: number[] = [];
        const wantGb: number[] = [];
        for (let ch = 0; ch < c; ch++) {
          let sg = 0;
          let sd = 0;
          for (let bb = 0; bb < n; bb++) for (let p = 0; p < s; p++) {
            sg += g[at(bb, ch, p)];
            sd += g[at(bb, ch, p)] * (x[at(bb, ch, p)] - mu[ch]);
          }
          wantGw.push(sd * iv[ch]);
          wantGb.push(sg);
          const N = n * s;
          for (let bb = 0; bb < n; bb++) for (let p = 0; p < s; p++) {
            const i = at(bb, ch, p);
            wantGi[i] = training ? w[ch] * iv[ch] * (g[i] - sg / N - ((x[i] - mu[ch]) * sd * iv[ch] * iv[ch]) / N) : g[i] * w[ch] * iv[ch];
          }
        }
        check(bad, `${name} gi`, nums(gi), wantGi, ...tol32(wantGi));
        check(bad, `${name} gw`, nums(gw), wantGw, ...tol32(wantGw));
        check(bad, `${name} gb`, nums(gb), wantGb, ...tol32(wantGb));
      }
    }
    expect(bad).toEqual([]);
  });
});

// ---- average pooling ----

interface Windows {
  rows: [number, number, number][];
  cols: [number, number, number][];
  divisor: number;
}

function avgWindows(g: Pool2dGeometry, includePad: boolean, divisor: number): Windows {
  const axis = (n: number, size: number, k: number, st: number, pad: number): [number, number, number][] =>
    Array.from({ length: n }, (_, i) => {
      const lo = i * st - pad;
      const hi = Math.min(lo + k, size + pad);
      const [a, b] = [Math.max(lo, 0), Math.min(hi, size)];
      return [a, b, includePad ? hi - lo : b - a];
    });
  return { rows: axis(g.outH, g.height, g.kernelH, g.strideH, g.padH), cols: axis(g.outW, g.width, g.kernelW, g.strideW, g.padW), divisor };
}

function adaptiveWindows(H: number, W: number, OH: number, OW: number): Windows {
  const axis = (n: number, size: number): [number, number, number][] =>
    Array.from({ length: n }, (_, i) => {
      const a = Math.floor((i * size) / n);
      const b = Math.ceil(((i + 1) * size) / n);
      return [a, b, b - a];
    });
  return { rows: axis(OH, H), cols: axis(OW, W), divisor: 0 };
}

function poolRef(x: number[], P: number, H: number, W: number, win: Windows): { y: number[]; gi: (g: number[]) => number[] } {
  const div = (oh: number, ow: number): number => (win.divisor > 0 ? win.divisor : win.rows[oh][2] * win.cols[ow][2]);
  const y: number[] = [];
  for (let p = 0; p < P; p++) {
    win.rows.forEach(([h0, h1], oh) =>
      win.cols.forEach(([w0, w1], ow) => {
        let s = 0;
        for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) s += x[(p * H + h) * W + w];
        y.push(h0 < h1 && w0 < w1 ? s / div(oh, ow) : 0);
      }),
    );
  }
  const gi = (g: number[]): number[] => {
    const out = new Array<number>(P * H * W).fill(0);
    let q = 0;
    for (let p = 0; p < P; p++) {
      win.rows.forEach(([h0, h1], oh) =>
        win.cols.forEach(([w0, w1], ow) => {
          const share = g[q++] / div(oh, ow);
          for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) out[(p * H + h) * W + w] += share;
        }),
      );
    }
    return out;
  };
  return { y, gi };
}

function geometry(H: number, W: number, k: number, s: number, p: number, ceil: boolean): Pool2dGeometry {
  const out = (n: number): number => {
    let o = Math.floor((n + 2 * p - k + (ceil ? s - 1 : 0)) / s) + 1;
    if (ceil && (o - 1) * s >= n + p) o--;
    return o;
  };
  return { height: H, width: W, kernelH: k, kernelW: k, strideH: s, strideW: s, padH: p, padW: p, dilationH: 1, dilationW: 1, outH: out(H), outW: out(W) };
}

describe('average pooling kernels', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    it(`${dtype}: avg_pool2d (padding, ceil mode, count_include_pad, divisor_override) and adaptive, forward and backward`, () => {
      const bad: string[] = [];
      const r = rng(13);
      const cases: [string, number, number, number, Windows, number, number][] = [];
      for (const [P, H, W, k, s, p, ceil] of [[3, 8, 8, 2, 2, 0, false], [2, 7, 9, 3, 2, 1, true], [2, 11, 13, 3, 1, 1, false], [1, 5, 6, 5, 3, 2, true], [2, 6, 7, 2, 3, 0, true]] as const) {
        const g = geometry(H, W, k, s, p, ceil);
        for (const [includePad, divisor] of [[true, 0], [false, 0], [true, 3]] as const) {
          cases.push([`avg P${P} ${H}x${W} k${k} s${s} p${p} ceil=${ceil} pad=${includePad} div=${divisor}`, P, H, W, avgWindows(g, includePad, divisor), g.outH, g.outW]);
          const x = Array.from({ length: P * H * W }, () => r() * 4 - 2);
          const xt = tensor(dtype, [P, H, W], x);
          const xv = nums(xt);
          const out = empty(dtype, [P, g.outH, g.outW]);
          cpuImpls.avgPool2d(out, xt, g, includePad, divisor === 0 ? null : divisor);
          const ref = poolRef(xv, P, H, W, avgWindows(g, includePad, divisor));
          const name = cases[cases.length - 1][0];
          check(bad, `${name} y`, nums(out), ref.y, ...tolFor(dtype, ref.y));
          const gt = tensor(dtype, [P, g.outH, g.outW], Array.from({ length: P * g.outH * g.outW }, () => r() * 2 - 1));
          const gv = nums(gt);
          const want = ref.gi(gv);
          const gi = empty(dtype, [P, H, W]);
          cpuImpls.avgPool2dBackward(gi, gt, g, includePad, divisor === 0 ? null : divisor);
          check(bad, `${name} grad_output unchanged`, nums(gt), gv, 0, 0);
          check(bad, `${name} gi`, nums(gi), want, ...tolFor(dtype, want));
        }
      }
      for (const [P, H, W, OH, OW] of [[2, 7, 9, 3, 4], [1, 10, 10, 10, 10], [3, 5, 8, 1, 1], [2, 6, 5, 4, 7]]) {
        const name = `adaptive P${P} ${H}x${W} -> ${OH}x${OW}`;
        const x = Array.from({ length: P * H * W }, () => r() * 4 - 2);
        const xt = tensor(dtype, [P, H, W], x);
        const out = empty(dtype, [P, OH, OW]);
        cpuImpls.adaptiveAvgPool2d(out, xt);
        const ref = poolRef(nums(xt), P, H, W, adaptiveWindows(H, W, OH, OW));
        check(bad, `${name} y`, nums(out), ref.y, ...tolFor(dtype, ref.y));
        const gt = tensor(dtype, [P, OH, OW], Array.from({ length: P * OH * OW }, () => r() * 2 - 1));
        const gv = nums(gt);
        const want = ref.gi(gv);
        const gi = empty(dtype, [P, H, W]);
        cpuImpls.adaptiveAvgPool2dBackward(gi, gt);
        check(bad, `${name} grad_output unchanged`, nums(gt), gv, 0, 0);
        check(bad, `${name} gi`, nums(gi), want, ...tolFor(dtype, want));
      }
      expect(bad).toEqual([]);
    });
  }
});

// ---- thread counts ----

describe('normalization and average pooling on 1, 2 and 4 threads', () => {
  it('give bit-identical results', async () => {
    const r = rng(14);
    const [rows, k] = [300, 520];
    const x = Array.from({ length: rows * k }, () => r() * 4 - 1);
    const g = Array.from({ length: rows * k }, () => r() * 2 - 1);
    const w = Array.from({ length: k }, () => r());
    const [n, c, s] = [4, 6, 2000];
    const pg = geometry(57, 61, 3, 2, 1, false);
    const runs: number[][][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      const res: number[][] = [];
      const xt = tensor('float32', [rows, k], x);
      const gt = tensor('float32', [rows, k], g);
      const wt = tensor('float32', [k], w);
      const [out, mean, rstd] = [empty('float32', [rows, k]), empty('float32', [rows]), empty('float32', [rows])];
      cpuImpls.layerNorm(out, mean, rstd, xt, wt, wt, rows, k, 1e-5);
      const [gi, gw, gb] = [empty('float32', [rows, k]), empty('float32', [k]), empty('float32', [k])];
      cpuImpls.layerNormBackward(gi, gw, gb, gt, xt, mean, rstd, wt, rows, k);
      res.push(...[out, mean, rstd, gi, gw, gb].map(nums));
      const bx = tensor('float32', [n, c, s], x.slice(0, n * c * s));
      const bg = tensor('float32', [n, c, s], g.slice(0, n * c * s));
      const bw = tensor('float32', [c], w.slice(0, c));
      const [rm, rv] = [tensor('float32', [c], w.slice(0, c)), tensor('float32', [c], w.slice(c, 2 * c))];
      const [bo, bm, bi] = [empty('float32', [n, c, s]), empty('float32', [c]), empty('float32', [c])];
      cpuImpls.batchNorm(bo, bm, bi, bx, bw, bw, rm, rv, n, c, s, true, 0.1, 1e-5);
      const [bgi, bgw, bgb] = [empty('float32', [n, c, s]), empty('float32', [c]), empty('float32', [c])];
      cpuImpls.batchNormBackward(bgi, bgw, bgb, bg, bx, bw, bm, bi, n, c, s, true);
      res.push(...[bo, bm, bi, rm, rv, bgi, bgw, bgb].map(nums));
      for (const dtype of ['float32', 'float64'] as const) {
        const P = 40;
        const px = tensor(dtype, [P, 57, 61], x.slice(0, P * 57 * 61));
        const po = empty(dtype, [P, pg.outH, pg.outW]);
        cpuImpls.avgPool2d(po, px, pg, false, null);
        const pgi = empty(dtype, [P, 57, 61]);
        cpuImpls.avgPool2dBackward(pgi, po, pg, false, null);
        const ao = empty(dtype, [P, 9, 11]);
        cpuImpls.adaptiveAvgPool2d(ao, px);
        const agi = empty(dtype, [P, 57, 61]);
        cpuImpls.adaptiveAvgPool2dBackward(agi, ao);
        res.push(...[po, pgi, ao, agi].map(nums));
      }
      runs.push(res);
      releaseCreated();
    }
    setNumThreads(2);
    const differ = runs.slice(1).flatMap((run, t) => run.flatMap((v, i) => (v.every((e, j) => Object.is(e, runs[0][i][j])) ? [] : [`threads ${[2, 4][t]}: output ${i}`])));
    expect(differ).toEqual([]);
    expect(wasm === null || runs.length === 3).toBe(true);
  });
});
