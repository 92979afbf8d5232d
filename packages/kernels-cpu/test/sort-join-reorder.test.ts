import type { DType, TensorImpl } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { empty, laidOut, mismatches, read, releaseCreated, view, type Layout } from './helpers';

// The fast paths of the sorting, joining and reordering kernels (Note [Stable index sort],
// Note [topk by selection], cat's and flip's block moves, triZero's row fills) against plain
// references computed here from logical values, on every layout and on 1-, 2-, 4- and
// 8-byte dtypes.

afterEach(releaseCreated);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Value = number | bigint;
const LAYOUTS: readonly Layout[] = ['contiguous', 'strided', 'transposed'];
const DTYPES: readonly DType[] = ['float32', 'float64', 'int64', 'uint8', 'int16'];

function values(dtype: DType, n: number, r: () => number, ties = false): Value[] {
  return Array.from({ length: n }, (_, i) => {
    const u = ties ? Math.floor(r() * 5) : Math.floor(r() * 200) - (dtype === 'uint8' ? 0 : 100);
    if (dtype === 'int64') return BigInt(u) * 2n ** 40n + BigInt(i % 3); // beyond 2^53 only in the low bits
    if (dtype.startsWith('float') && i % 11 === 5) return NaN;
    return u;
  });
}

const numel = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** Row-major index of `idx` in `sizes`. */
function linear(sizes: readonly number[], idx: readonly number[]): number {
  return idx.reduce((p, i, d) => p * sizes[d] + i, 0);
}

function indicesOf(sizes: readonly number[]): number[][] {
  const out: number[][] = [];
  const idx = sizes.map(() => 0);
  if (sizes.some((s) => s === 0)) return out;
  for (;;) {
    out.push([...idx]);
    let d = sizes.length - 1;
    for (; d >= 0; d--) {
      if (++idx[d] < sizes[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return out;
  }
}

const key = (v: Value) => (typeof v === 'bigint' ? v : Number.isNaN(v) ? Infinity : v);

/** Reference stable sort of one slice: positions ordered by value (NaN largest), ties by position. */
function referenceOrder(slice: readonly Value[], descending: boolean): number[] {
  const order = slice.map((_, i) => i);
  const cmp = (a: Value, b: Value): number => {
    const na = typeof a === 'number' && Number.isNaN(a);
    const nb = typeof b === 'number' && Number.isNaN(b);
    if (na || nb) return Number(na) - Number(nb);
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return order.sort((a, b) => (descending ? -cmp(slice[a], slice[b]) : cmp(slice[a], slice[b])) || a - b);
}

function sortReference(sizes: readonly number[], vals: readonly Value[], dim: number, descending: boolean, keep: number) {
  const outSizes = sizes.map((s, d) => (d === dim ? keep : s));
  const outV: Value[] = new Array<Value>(numel(outSizes));
  const outI: Value[] = new Array<Value>(numel(outSizes));
  for (const idx of indicesOf(sizes.map((s, d) => (d === dim ? 1 : s)))) {
    const at = (i: number) => linear(sizes, idx.map((x, d) => (d === dim ? i : x)));
    const slice = Array.from({ length: sizes[dim] }, (_, i) => vals[at(i)]);
    const order = referenceOrder(slice, descending);
    for (let j = 0; j < keep; j++) {
      const o = linear(outSizes, idx.map((x, d) => (d === dim ? j : x)));
      outV[o] = slice[order[j]];
      outI[o] = BigInt(order[j]);
    }
  }
  return { outSizes, outV, outI };
}

describe('sort and topk', () => {
  it('equal a stable reference through the merge passes, both ways, on every layout and width', () => {
    const r = rng(7);
    for (const dtype of DTYPES) {
      for (const layout of LAYOUTS) {
        for (const [sizes, dim] of [[[3, 150], 1], [[70, 2], 0], [[2, 33, 3], 1]] as const) {
          const vals = values(dtype, numel(sizes), r, layout === 'strided');
          const self = laidOut(dtype, sizes, vals, layout);
          for (const descending of [false, true]) {
            const ref = sortReference(sizes, read(self), dim, descending, sizes[dim]);
            const v = empty(dtype, sizes);
            const i = empty('int64', sizes);
            cpuImpls.sort(v, i, self, dim, descending);
            expect(mismatches(read(v), ref.outV), `${dtype} ${layout} ${sizes} ${descending}`).toEqual([]);
            expect(mismatches(read(i), ref.outI), `${dtype} ${layout} ${sizes} ${descending}`).toEqual([]);
          }
        }
      }
    }
  });

  it('topk by selection equals the first k of the stable sort (ties to the earlier element)', () => {
    const r = rng(11);
    for (const dtype of ['float32', 'float64', 'int16', 'uint8'] as const) {
      for (const layout of LAYOUTS) {
        const sizes = [4, 90];
        const vals = values(dtype, numel(sizes), r, true);
        const self = laidOut(dtype, sizes, vals, layout);
        for (const largest of [true, false]) {
          const k = 5;
          const ref = sortReference(sizes, read(self), 1, largest, k);
          const v = empty(dtype, ref.outSizes);
          const i = empty('int64', ref.outSizes);
          cpuImpls.topk(v, i, self, k, 1, largest);
          expect(mismatches(read(v), ref.outV), `${dtype} ${layout} ${largest}`).toEqual([]);
          expect(mismatches(read(i), ref.outI), `${dtype} ${layout} ${largest}`).toEqual([]);
        }
      }
    }
  });
});

describe('cat, flip and triZero', () => {
  it('cat: block moves and copies into contiguous and strided outputs', () => {
    const r = rng(5);
    for (const dtype of DTYPES) {
      for (const dim of [0, 1, 2]) {
        const a = [2, 3, 4];
        const b = a.map((s, d) => (d === dim ? 2 : s));
        const outSizes = a.map((s, d) => (d === dim ? s + b[d] : s));
        const va = values(dtype, numel(a), r);
        const vb = values(dtype, numel(b), r);
        for (const [la, lb, lo] of [['contiguous', 'contiguous', 'contiguous'], ['transposed', 'contiguous', 'contiguous'], ['contiguous', 'strided', 'transposed']] as const) {
          const out = laidOut(dtype, outSizes, new Array<Value>(numel(outSizes)).fill(dtype === 'int64' ? 0n : 0), lo);
          cpuImpls.cat(out, [laidOut(dtype, a, va, la), laidOut(dtype, b, vb, lb)], dim);
          const expected = indicesOf(outSizes).map((idx) =>
            idx[dim] < a[dim] ? va[linear(a, idx)] : vb[linear(b, idx.map((x, d) => (d === dim ? x - a[dim] : x)))],
          );
          expect(mismatches(read(out), expected), `${dtype} dim ${dim} ${la}/${lb}/${lo}`).toEqual([]);
        }
      }
    }
  });

  it('flip: blocks, reversed rows and the negative-stride copy agree with a reference', () => {
    const r = rng(9);
    for (const dtype of DTYPES) {
      for (const layout of LAYOUTS) {
        const sizes = [3, 4, 5];
        const vals = values(dtype, numel(sizes), r);
        const self = laidOut(dtype, sizes, vals, layout);
        for (const dims of [[0], [1], [2], [0, 2], [0, 1, 2]]) {
          const out = empty(dtype, sizes);
          const strides = [...self.strides];
          let offset = self.storageOffset;
          for (const d of dims) {
            offset += (sizes[d] - 1) * strides[d];
            strides[d] = -strides[d];
          }
          cpuImpls.flip(out, self, dims, view(self, sizes, strides, offset));
          const expected = indicesOf(sizes).map((idx) => vals[linear(sizes, idx.map((x, d) => (dims.includes(d) ? sizes[d] - 1 - x : x)))]);
          expect(mismatches(read(out), expected), `${dtype} ${layout} [${dims}]`).toEqual([]);
        }
      }
    }
  });

  it('triZero: the dropped triangle of every matrix, any layout', () => {
    const r = rng(13);
    for (const dtype of DTYPES) {
      for (const layout of LAYOUTS) {
        for (const k of [-2, 0, 1, 6]) {
          for (const upper of [true, false]) {
            const sizes = [2, 4, 5];
            const vals = values(dtype, numel(sizes), r);
            const t: TensorImpl = laidOut(dtype, sizes, vals, layout);
            cpuImpls.triZero(t, upper, k);
            const zero: Value = dtype === 'int64' ? 0n : 0;
            const expected = indicesOf(sizes).map((idx) => {
              const off = idx[2] - idx[1];
              return (upper ? off < k : off > k) ? zero : vals[linear(sizes, idx)];
            });
            expect(mismatches(read(t), expected), `${dtype} ${layout} k=${k} ${upper}`).toEqual([]);
          }
        }
      }
    }
  });
});
