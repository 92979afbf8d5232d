/**
 * Focused checks of the softmax and loss kernels (Note [WebGPU softmax kernels], Note
 * [WebGPU loss kernels]) where the OpInfo suite does not reach: long rows (the 256-wide
 * workgroup, several sweeps per invocation, the vec4 form), a softmax over an inner dim,
 * many short rows (several per workgroup), a row at an offset that is not a multiple of 4,
 * the split (partial + final) reductions, operands that share a block, the backward
 * kernels, and data-dependent errors. Expected values are computed here in plain JS.
 */
import { describe, expect, it } from 'vitest';
import {
  _nllLossBackward,
  _nllLossForward,
  _softmaxBackwardData,
  binaryCrossEntropy,
  binaryCrossEntropyWithLogits,
  IndexError,
  logSoftmax,
  mseLoss,
  nllLoss,
  smoothL1Loss,
  softmax,
  TorchError,
} from '@torch-ts/core';
import { synchronize } from '../src';
import { gpuTensor, readValues, webgpuReady } from './helpers';

function seq(n: number, f: (i: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

/** Pseudo-random values in [lo, hi), the same on every run. */
function rand(n: number, lo = -4, hi = 4, seed = 1): number[] {
  let s = seed >>> 0;
  return seq(n, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return lo + ((s >>> 8) / 16777216) * (hi - lo);
  });
}

const f32 = (v: number) => Math.fround(v);

/** Reference softmax / log-softmax of `x` [outer, size, inner] along the middle dim, in float64. */
function refSoftmax(x: number[], outer: number, size: number, inner: number, log: boolean): number[] {
  const out = new Array<number>(x.length);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (j: number) => (o * size + j) * inner + i;
      let m = -Infinity;
      for (let j = 0; j < size; j++) m = Math.max(m, x[at(j)]);
      let s = 0;
      for (let j = 0; j < size; j++) s += Math.exp(x[at(j)] - m);
      for (let j = 0; j < size; j++) out[at(j)] = log ? x[at(j)] - m - Math.log(s) : Math.exp(x[at(j)] - m) / s;
    }
  }
  return out;
}

function expectClose(got: number[], want: number[], rtol = 2e-5, atol = 1e-6): void {
  expect(got.length).toBe(want.length);
  const bad: string[] = [];
  for (let i = 0; i < want.length; i++) {
    const a = got[i];
    const b = want[i];
    if (Number.isNaN(b) ? !Number.isNaN(a) : !(Math.abs(a - b) <= atol + rtol * Math.abs(b))) bad.push(`[${i}] got ${a}, want ${b}`);
  }
  expect(bad.slice(0, 5)).toEqual([]);
}

describe.skipIf(!webgpuReady)('WebGPU softmax and loss kernels', () => {
  it('softmax and log-softmax of long rows (several sweeps of a 256-wide workgroup)', async () => {
    const outer = 3;
    const size = 3000;
    const x = rand(outer * size, -30, 30).map(f32);
    const t = gpuTensor(x, 'float32', [outer, size]);
    expectClose(await readValues(softmax(t, 1)), refSoftmax(x, outer, size, 1, false), 2e-5, 1e-9);
    expectClose(await readValues(logSoftmax(t, 1)), refSoftmax(x, outer, size, 1, true), 1e-5, 2e-5);
    // every row sums to 1
    const rows = await readValues(softmax(t, 1).sum(1));
    expectClose(rows, [1, 1, 1], 1e-5);
  });

  it('softmax over an inner dim, and many short rows (several rows per workgroup)', async () => {
    const x = rand(2 * 5 * 7, -3, 3, 7).map(f32);
    const t = gpuTensor(x, 'float32', [2, 5, 7]);
    expectClose(await readValues(softmax(t, 1)), refSoftmax(x, 2, 5, 7, false));
    expectClose(await readValues(logSoftmax(t, 0)), refSoftmax(x, 1, 2, 35, true));
    const z = rand(67 * 10, -5, 5, 5).map(f32); // rows of 10: 4 invocations each, 64 rows per workgroup
    expectClose(await readValues(logSoftmax(gpuTensor(z, 'float32', [67, 10]), 1)), refSoftmax(z, 67, 10, 1, true), 1e-5, 2e-6);
    // a view at offset 1 (rows of 8 then take the scalar path, not the vec4 one)
    const v = rand(9, -3, 3, 13).map(f32);
    expectClose(await readValues(softmax(gpuTensor(v, 'float32', [9]).narrow(0, 1, 8), 0)), refSoftmax(v.slice(1), 1, 8, 1, false));
    const rows = 70_001; // 256 rows of 3 per workgroup, the last one partly filled
    const y = rand(rows * 3, -2, 2, 3).map(f32);
    const u = gpuTensor(y, 'float32', [rows, 3]);
    expectClose(await readValues(logSoftmax(u, 1)), refSoftmax(y, rows, 3, 1, true), 1e-5, 2e-6);
  });

  it('softmax edge rows: -inf entries, a row of -inf (NaN), a NaN, +inf', async () => {
    const inf = Infinity;
    const x = [0, -inf, 1, 2, -inf, -inf, -inf, -inf, 1, NaN, 2, 3, 1, inf, 2, 3];
    const t = gpuTensor(x, 'float32', [4, 4]);
    const e = Math.exp(1) + Math.exp(2) + 1;
    expectClose(await readValues(softmax(t, 1)), [1 / e, 0, Math.exp(1) / e, Math.exp(2) / e, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN]);
    const l = await readValues(logSoftmax(t, 1));
    expectClose([l[0], l[2], l[3]], [-Math.log(e), 1 - Math.log(e), 2 - Math.log(e)]);
    expect(l[1]).toBe(-Infinity);
    expect(l.slice(4).every(Number.isNaN)).toBe(true);
  });

  it('softmax backward kernels (also with grad and output in one tensor)', async () => {
    const size = 300;
    const y = refSoftmax(rand(2 * size, -3, 3, 11), 2, size, 1, false).map(f32);
    const g = rand(2 * size, -1, 1, 12).map(f32);
    const yt = gpuTensor(y, 'float32', [2, size]);
    const gt = gpuTensor(g, 'float32', [2, size]);
    const want = (log: boolean, gg: number[]) =>
      seq(2 * size, (k) => {
        const r = Math.floor(k / size);
        let a = 0;
        for (let j = 0; j < size; j++) a += log ? gg[r * size + j] : gg[r * size + j] * y[r * size + j];
        return log ? gg[k] - Math.exp(y[k]) * a : y[k] * (gg[k] - a);
      });
    expectClose(await readValues(_softmaxBackwardData(gt, yt, 1, 'float32', false)), want(false, g), 1e-4, 1e-6);
    expectClose(await readValues(_softmaxBackwardData(gt, yt, 1, 'float32', true)), want(true, g), 1e-4, 1e-5);
    expectClose(await readValues(_softmaxBackwardData(yt, yt, 1, 'float32', false)), want(false, y), 1e-4, 1e-6);
  });

  it('nll_loss over a large batch (split reduction), with weights and an ignored target', async () => {
    const n = 5000;
    const c = 7;
    const x = rand(n * c, -5, 0, 5).map(f32);
    const tgt = seq(n, (i) => (i % 97 === 0 ? -100 : (i * 3) % c));
    const w = [0.5, 1, 2, 1.5, 0.25, 1, 3];
    const xt = gpuTensor(x, 'float32', [n, c]);
    const tt = gpuTensor(tgt, 'int64', [n]);
    const wt = gpuTensor(w, 'float32', [c]);
    let sum = 0;
    let total = 0;
    const none = tgt.map((k, i) => {
      if (k === -100) return 0;
      sum += -w[k] * x[i * c + k];
      total += w[k];
      return -w[k] * x[i * c + k];
    });
    expectClose(await readValues(nllLoss(xt, tt, { weight: wt })), [sum / total], 1e-5);
    expectClose(await readValues(nllLoss(xt, tt, { weight: wt, reduction: 'sum' })), [sum], 1e-5);
    expectClose(await readValues(nllLoss(xt, tt, { weight: wt, reduction: 'none' })), none);
    const [out, tw] = _nllLossForward(xt, tt, wt, 1, -100);
    expectClose(await readValues(tw), [total], 1e-5);
    // backward: -w[t] * grad / total at the target, 0 elsewhere
    const g = gpuTensor([2], 'float32', []);
    const gi = await readValues(_nllLossBackward(g, xt, tt, wt, 1, -100, tw));
    const want = seq(n * c, (k) => {
      const i = Math.floor(k / c);
      return tgt[i] !== -100 && k % c === tgt[i] ? (-w[tgt[i]] * 2) / total : 0;
    });
    expectClose(gi, want);
    out.dispose();
  });

  it('nll_loss over spatial dims, reduction none, and its backward', async () => {
    const [n, c, s] = [2, 3, 4];
    const x = rand(n * c * s, -3, 0, 9).map(f32);
    const tgt = [0, 1, 2, 1, 2, 2, 0, 1];
    const xt = gpuTensor(x, 'float32', [n, c, 2, 2]);
    const tt = gpuTensor(tgt, 'int64', [n, 2, 2]);
    const want = tgt.map((k, i) => -x[(Math.floor(i / s) * c + k) * s + (i % s)]);
    expectClose(await readValues(nllLoss(xt, tt, { reduction: 'none' })), want);
    const gv = rand(n * s, -1, 1, 4).map(f32);
    const [, tw] = _nllLossForward(xt, tt, null, 0, -100);
    const gi = await readValues(_nllLossBackward(gpuTensor(gv, 'float32', [n, 2, 2]), xt, tt, null, 0, -100, tw));
    const wantG = seq(n * c * s, (k) => {
      const b = Math.floor(k / (c * s));
      const cls = Math.floor(k / s) % c;
      const i = b * s + (k % s);
      return tgt[i] === cls ? -gv[i] : 0;
    });
    expectClose(gi, wantG);
  });

  it('an nll target out of range raises the IndexError at the next read (forward and backward)', async () => {
    const xt = gpuTensor([-1, -2, -3, -4, -5, -6], 'float32', [2, 3]);
    await expect(readValues(nllLoss(xt, gpuTensor([0, 3], 'int64')))).rejects.toThrow(new IndexError('nll_loss: Target 3 is out of bounds.'));
    await expect(readValues(nllLoss(xt, gpuTensor([-2, 1], 'int64')))).rejects.toThrow('Target -2 is out of bounds.');
    // a high word that is not the sign extension is out of range too (2^32 + 1 is not 1)
    await expect(readValues(nllLoss(xt, gpuTensor([2 ** 32 + 1, 1], 'int64')))).rejects.toThrow('Target 4294967297 is out of bounds.');
    const [, tw] = _nllLossForward(xt, gpuTensor([0, 1], 'int64'), null, 1, -100);
    const gi = _nllLossBackward(gpuTensor([1], 'float32', []), xt, gpuTensor([5, 1], 'int64'), null, 1, -100, tw);
    await expect(readValues(gi)).rejects.toThrow('nll_loss_backward: Target 5 is out of bounds.');
    // cleared: the next read is clean; an ignore_index out of [0, c) is no error
    expectClose(await readValues(nllLoss(xt, gpuTensor([7, 1], 'int64'), { ignoreIndex: 7 })), [5]);
    await synchronize();
  });

  it('pointwise losses over many elements (split reduction) and with aliased operands', async () => {
    const n = 20_000;
    const a = rand(n, -2, 2, 21).map(f32);
    const b = rand(n, -2, 2, 22).map(f32);
    const at = gpuTensor(a, 'float32', [n]);
    const bt = gpuTensor(b, 'float32', [n]);
    let mse = 0;
    let sl1 = 0;
    for (let i = 0; i < n; i++) {
      const d = a[i] - b[i];
      mse += d * d;
      const ad = Math.abs(d);
      sl1 += ad < 0.5 ? (ad * ad) / 1 : ad - 0.25;
    }
    expectClose(await readValues(mseLoss(at, bt)), [mse / n], 1e-5);
    expectClose(await readValues(mseLoss(at, bt, { reduction: 'sum' })), [mse], 1e-5);
    expectClose(await readValues(smoothL1Loss(at, bt, { beta: 0.5 })), [sl1 / n], 1e-5);
    expectClose(await readValues(mseLoss(at, at)), [0]);
    const p = a.map((v) => f32(1 / (1 + Math.exp(-v))));
    const pt = gpuTensor(p, 'float32', [n]);
    let bce = 0;
    let bcel = 0;
    for (let i = 0; i < n; i++) {
      bce += -(p[i] * Math.log(p[i]) + (1 - p[i]) * Math.log(1 - p[i]));
      const z = a[i];
      bcel += (1 - p[i]) * z - (Math.min(z, 0) - Math.log1p(Math.exp(-Math.abs(z))));
    }
    expectClose(await readValues(binaryCrossEntropy(pt, pt)), [bce / n], 1e-5);
    expectClose(await readValues(binaryCrossEntropyWithLogits(at, pt)), [bcel / n], 1e-5);
  });

  it('binary_cross_entropy clamps its logs at -100 and raises for inputs outside [0, 1] at the next read', async () => {
    const x = gpuTensor([0, 1, 0, 1], 'float32');
    const y = gpuTensor([1, 0, 0, 1], 'float32');
    expectClose(await readValues(binaryCrossEntropy(x, y, { reduction: 'none' })), [100, 100, 0, 0]);
    const bad = binaryCrossEntropy(gpuTensor([0.5, 1.5], 'float32'), gpuTensor([0, 1], 'float32'));
    await expect(readValues(bad)).rejects.toThrow(new TorchError('binary_cross_entropy: all elements of input should be between 0 and 1'));
    await synchronize();
  });

  it('empty inputs: a mean is NaN, a sum 0', async () => {
    const e = gpuTensor([], 'float32', [0, 3]);
    expect(await readValues(mseLoss(e, e))).toEqual([NaN]);
    expect(await readValues(mseLoss(e, e, { reduction: 'sum' }))).toEqual([0]);
    const x = gpuTensor([], 'float32', [0, 3]);
    const t = gpuTensor([], 'int64', [0]);
    expect(await readValues(nllLoss(x, t))).toEqual([NaN]);
    expect(await readValues(nllLoss(x, t, { reduction: 'none' }))).toEqual([]);
  });
});
