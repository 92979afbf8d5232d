/**
 * Focused checks of the indexing kernels (Note [Indexed access kernels], Note [nonzero on
 * WebGPU]) that the OpInfo suite does not reach: many workgroups, heavy duplicate positions
 * (the atomic combine loops), int64 carries, byte elements next to each other, more index
 * tensors than storage bindings, nonzero's compaction across many blocks, and embedding's
 * backward with padding. Expected values are computed here in plain JS.
 */
import { describe, expect, it } from 'vitest';
import {
  Tensor,
  TensorImpl,
  _embedding,
  _embeddingDenseBackward,
  gather,
  index,
  indexAdd,
  indexPut_,
  indexSelect,
  nonzero,
  scatter,
  scatterAdd,
  scatterReduce,
  take,
} from '@torch-ts/core';
import { nonzeroCountAsync, nonzeroFill } from '../src/kernels/indexing';
import { deviceInfo } from '../src';
import { gpuTensor, readValues, webgpuReady, WEBGPU } from './helpers';

function seq<T = number>(n: number, f: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => f(i));
}

describe.skipIf(!webgpuReady)('WebGPU indexing kernels', () => {
  it('gather over many workgroups, along dim 1 of a transposed view', async () => {
    const rows = 600, cols = 500; // 300k positions: more than one grid row of workgroups
    const xv = seq(rows * cols, (i) => (i % 977) - 400);
    const x = gpuTensor(xv, 'float32', [cols, rows]).t(); // [rows, cols], strided
    const iv = seq(rows * 7, (i) => (i * 31) % cols);
    const idx = gpuTensor(iv, 'int64', [rows, 7]);
    const got = await readValues(gather(x, 1, idx));
    const want = iv.map((c, q) => xv[c * rows + Math.floor(q / 7)]);
    expect(got).toEqual(want);
  });

  it('scatterAdd with every position colliding: float32, int32, uint8 (wraps), bool (or)', async () => {
    const n = 20000;
    const bins = 3;
    const iv = seq(n, (i) => (i * 7) % bins);
    const idx = gpuTensor(iv, 'int64');
    const fv = seq(n, (i) => ((i % 13) - 6) * 0.25); // exact in float32 in any order
    const wantF = new Array<number>(bins).fill(0);
    iv.forEach((b, i) => (wantF[b] += fv[i]));
    expect(await readValues(scatterAdd(gpuTensor([0, 0, 0], 'float32'), 0, idx, gpuTensor(fv, 'float32')))).toEqual(wantF);
    const iv32 = seq(n, (i) => i * 100003 - 7);
    const wantI = new Array<number>(bins).fill(0);
    iv.forEach((b, i) => (wantI[b] = (wantI[b] + iv32[i]) | 0));
    expect(await readValues(scatterAdd(gpuTensor([0, 0, 0], 'int32'), 0, idx, gpuTensor(iv32, 'int32')))).toEqual(wantI);
    const u8 = seq(n, (i) => i % 251);
    const wantU = [1, 2, 3];
    iv.forEach((b, i) => (wantU[b] = (wantU[b] + u8[i]) & 255));
    expect(await readValues(scatterAdd(gpuTensor([1, 2, 3], 'uint8'), 0, idx, gpuTensor(u8, 'uint8')))).toEqual(wantU);
    const bv = seq(n, (i) => (i === 5 ? 1 : 0)); // only position 5 (bin 2) is true
    expect(await readValues(scatterAdd(gpuTensor([0, 0, 0], 'bool'), 0, idx, gpuTensor(bv, 'bool')))).toEqual([0, 0, 1]);
  });

  it('scatterReduce amax/amin/prod with duplicates and NaN', async () => {
    const idx = gpuTensor([0, 1, 0, 1, 2, 2], 'int64');
    const src = gpuTensor([3, -1, 7, NaN, 2, -5], 'float32');
    const self = () => gpuTensor([5, 0, 1], 'float32');
    expect(await readValues(scatterReduce(self(), 0, idx, src, 'amax'))).toEqual([7, NaN, 2]);
    expect(await readValues(scatterReduce(self(), 0, idx, src, 'amin'))).toEqual([3, NaN, -5]);
    expect(await readValues(scatterReduce(self(), 0, idx, src, 'amax', { includeSelf: false }))).toEqual([7, NaN, 2]);
    expect(await readValues(scatterReduce(self(), 0, idx, src, 'prod'))).toEqual([105, NaN, -10]);
    const isrc = gpuTensor([3, -1, 7, 4, 2, -5], 'int32');
    expect(await readValues(scatterReduce(gpuTensor([5, 0, 1], 'int32'), 0, idx, isrc, 'amin'))).toEqual([3, -1, -5]);
  });

  it('int64 scatterAdd and indexAdd carry into the high word', async () => {
    const big = 2 ** 32 - 3;
    const idx = gpuTensor([0, 0, 0, 1], 'int64');
    const src = gpuTensor([big, big, 5, -7], 'int64');
    const got = await readValues(scatterAdd(gpuTensor([1, 2], 'int64'), 0, idx, src));
    expect(got).toEqual([1 + 2 * big + 5, 2 - 7]);
    const got2 = await readValues(indexAdd(gpuTensor([0, 0], 'int64'), 0, gpuTensor([1, 1], 'int64'), gpuTensor([big, -1], 'int64'), { alpha: 3 }));
    expect(got2).toEqual([0, 3 * big - 3]);
  });

  it('byte elements: scatter into neighbours of one word and gather from them', async () => {
    const xv = seq(37, (i) => (i * 11) % 256);
    const x = gpuTensor(xv, 'uint8');
    const idx = gpuTensor(seq(37, (i) => 36 - i), 'int64');
    expect(await readValues(indexSelect(x, 0, idx))).toEqual([...xv].reverse());
    const y = scatter(gpuTensor(new Array<number>(37).fill(0), 'uint8'), 0, idx, x);
    expect(await readValues(y)).toEqual([...xv].reverse());
    const t = take(gpuTensor([1, 0, 1, 1, 0], 'bool', [5]), gpuTensor([4, -1, 0, 2], 'int64'));
    expect(await readValues(t)).toEqual([0, 0, 1, 1]);
  });

  it('more index tensors than storage bindings (the indices are stacked first)', async () => {
    const nd = Math.min(14, Math.max(3, deviceInfo().limits.maxStorageBuffersPerShaderStage - 1));
    const sizes = new Array<number>(nd).fill(2);
    const numel = 2 ** nd;
    const x = gpuTensor(seq(numel, (i) => i), 'int32', sizes);
    const picks = [seq(nd, (d) => d % 2), seq(nd, (d) => 1 - (d % 2)), seq(nd, () => 1)];
    const ixs = seq(nd, (d) => gpuTensor(picks.map((p) => p[d]), 'int64'));
    const want = picks.map((p) => p.reduce((a, b) => a * 2 + b, 0));
    expect(await readValues(index(x, ...ixs))).toEqual(want);
    indexPut_(x, ixs, gpuTensor([-1, -2, -3], 'int32'), { accumulate: true });
    const after = await readValues(x);
    expect(want.map((p) => after[p])).toEqual([want[0] - 1, want[1] - 2, want[2] - 3]);
  });

  it('index_put_ with negative indices and broadcast values', async () => {
    const x = gpuTensor(seq(12, () => 0), 'float32', [3, 4]);
    indexPut_(x, [gpuTensor([-1, 0], 'int64')], gpuTensor([1, 2, 3, 4], 'float32'));
    expect(await readValues(x)).toEqual([1, 2, 3, 4, 0, 0, 0, 0, 1, 2, 3, 4]);
  });

  it('nonzeroFill compacts across many blocks, strided, with NaN and -0', async () => {
    const rows = 300, cols = 257; // 77100 elements: 302 workgroups, more than one scan chunk
    const v = seq(rows * cols, (i) => (i % 7 === 0 ? 1 : i % 11 === 0 ? NaN : i % 5 === 0 ? -0 : 0));
    const base = gpuTensor(v, 'float32', [cols, rows]);
    const x = base.t(); // [rows, cols], column-major storage
    const want: number[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const e = v[c * rows + r];
        if (e !== 0 || Number.isNaN(e)) want.push(r, c);
      }
    }
    const count = want.length / 2;
    expect(await nonzeroCountAsync(x.impl)).toBe(count);
    const out = TensorImpl.empty('test', [count, 2], 'int64', WEBGPU);
    nonzeroFill(out, x.impl);
    expect(await readValues(new Tensor(out))).toEqual(want);
    // core asks for the count synchronously: on WebGPU that is a TorchError saying so
    expect(() => nonzero(x)).toThrow(/webgpu tensors cannot be read synchronously; use `await torch\.nonzeroAsync\(x\)`/);
  });

  it('embedding and its backward: duplicates, padding_idx, a bad index', async () => {
    const v = 5, d = 3;
    const wv = seq(v * d, (i) => i * 0.5);
    const w = gpuTensor(wv, 'float32', [v, d]);
    const iv = [4, 0, 4, 2, 4];
    const ids = gpuTensor(iv, 'int64');
    expect(await readValues(_embedding(w, ids, -1))).toEqual(iv.flatMap((k) => wv.slice(k * d, k * d + d)));
    const gv = seq(iv.length * d, (i) => (i % 4) - 1.5);
    const g = gpuTensor(gv, 'float32', [iv.length, d]);
    const want = new Array<number>(v * d).fill(0);
    iv.forEach((k, i) => {
      if (k === 2) return; // padding_idx
      for (let j = 0; j < d; j++) want[k * d + j] += gv[i * d + j];
    });
    expect(await readValues(_embeddingDenseBackward(g, ids, v, 2, false))).toEqual(want);
    const bad = _embedding(w, gpuTensor([1, 5], 'int64'), -1);
    await expect(readValues(bad)).rejects.toThrow('embedding: index out of range in self');
  });
});
