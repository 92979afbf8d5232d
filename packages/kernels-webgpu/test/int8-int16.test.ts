/**
 * int8 and int16 on WebGPU (Note [int8 and int16 on WebGPU]): elements packed 4 or 2 per
 * word, sign-extended on load and narrowed on store. Checked against plain JS arithmetic
 * wrapped to the dtype, on the values where an emulation slip would show: every byte and
 * half position of a word (loads that forget the sign, stores that clobber a neighbour),
 * strided and offset views, wrap-around, casts to and from floats and int64, and the kernel
 * families that combine values (reductions, scans, sorts, atomic scatters, matmul). The
 * OpInfo suite (@torch-ts/testing) runs every op's PyTorch goldens in both dtypes too.
 */
import { describe, expect, it } from 'vitest';
import {
  abs,
  add,
  bitwiseXor,
  cumsum,
  div,
  floorDivide,
  index,
  maximum,
  mm,
  mul,
  neg,
  remainder,
  scatterAdd,
  sort,
  sub,
  sum,
  to,
  type DType,
} from '@torch-ts/core';
import { gpuTensor, readValues, webgpuReady } from './helpers';

type Narrow = 'int8' | 'int16';
const BITS: Record<Narrow, number> = { int8: 8, int16: 16 };
const wrap = (dtype: Narrow, v: number): number => {
  const s = 32 - BITS[dtype];
  return ((Math.trunc(v) << s) >> s);
};

const EDGES: Record<Narrow, number[]> = {
  // 7 elements: every byte position of two words, the extremes and their neighbours
  int8: [0, 1, -1, 127, -128, 126, -127],
  int16: [0, 1, -1, 32767, -32768, 255, -256],
};

describe.skipIf(!webgpuReady)('int8 and int16 on WebGPU', () => {
  for (const dtype of ['int8', 'int16'] as const) {
    const E = EDGES[dtype];
    const n = E.length;
    const pairs = E.flatMap((a) => E.map((b) => [a, b] as const));
    const cols = () => [gpuTensor(E, dtype, [n, 1]), gpuTensor(E, dtype, [1, n])] as const;

    it(`${dtype}: loads sign-extend and pointwise results wrap, at every position of a word`, async () => {
      const [a, b] = cols();
      expect(await readValues(add(a, b))).toEqual(pairs.map(([x, y]) => wrap(dtype, x + y)));
      expect(await readValues(sub(a, b))).toEqual(pairs.map(([x, y]) => wrap(dtype, x - y)));
      expect(await readValues(mul(a, b))).toEqual(pairs.map(([x, y]) => wrap(dtype, x * y)));
      expect(await readValues(bitwiseXor(a, b))).toEqual(pairs.map(([x, y]) => wrap(dtype, x ^ y)));
      expect(await readValues(maximum(a, b))).toEqual(pairs.map(([x, y]) => Math.max(x, y)));
      const t = gpuTensor(E, dtype);
      expect(await readValues(neg(t))).toEqual(E.map((x) => wrap(dtype, -x)));
      expect(await readValues(abs(t))).toEqual(E.map((x) => wrap(dtype, Math.abs(x))));
      // add with alpha: the scalar in the dtype, the sum wrapped
      expect(await readValues(add(t, t, { alpha: 3 }))).toEqual(E.map((x) => wrap(dtype, x + 3 * x)));
    });

    it(`${dtype}: integer division and remainder of negative values, as C's and Python's`, async () => {
      const x = gpuTensor([7, -7, 7, -7, E[4], E[4]], dtype);
      const y = gpuTensor([2, 2, -2, -2, -1, 3], dtype);
      // floor_divide rounds down; remainder takes the divisor's sign; MIN // -1 wraps to MIN
      expect(await readValues(floorDivide(x, y))).toEqual([3, -4, -4, 3, E[4], Math.floor(E[4] / 3)]);
      expect(await readValues(div(x, y, { roundingMode: 'trunc' }))).toEqual([3, -3, -3, 3, E[4], Math.trunc(E[4] / 3)]);
      expect(await readValues(remainder(x, y))).toEqual([1, 1, -1, -1, 0, ((E[4] % 3) + 3) % 3]);
    });

    it(`${dtype}: stores into strided and offset views leave the neighbours alone`, async () => {
      const base = gpuTensor(E, dtype);
      const odd = index(base, '1::2'); // elements 1, 3, 5: every other byte / half
      const r = add(odd, odd);
      expect(await readValues(r)).toEqual([1, 3, 5].map((i) => wrap(dtype, 2 * E[i])));
      odd.copy_(gpuTensor([5, 6, 7], dtype));
      expect(await readValues(base)).toEqual(E.map((v, i) => (i % 2 === 1 ? [5, 6, 7][(i - 1) / 2] : v)));
    });

    it(`${dtype}: casts from float truncate through int32 and wrap; to float and int64 exactly`, async () => {
      const f = gpuTensor([300.7, -300.7, 1e10, Number.NaN, 127.9, -129.5, Number.POSITIVE_INFINITY], 'float32');
      // PyTorch: tensor([300.7, -300.7, 1e10, nan, 127.9, -129.5, inf]).to(int8) = [44, -44, 0, 0, 127, 127, 0]
      const expected = dtype === 'int8' ? [44, -44, 0, 0, 127, 127, 0] : [300, -300, 0, 0, 127, -129, 0];
      expect(await readValues(to(f, dtype))).toEqual(expected);
      const t = gpuTensor(E, dtype);
      expect(await readValues(to(t, 'float32'))).toEqual(E);
      expect(await readValues(to(t, 'int64'))).toEqual(E);
      expect(await readValues(to(to(t, 'int64'), dtype))).toEqual(E);
      const other: DType = dtype === 'int8' ? 'int16' : 'int8';
      expect(await readValues(to(t, other))).toEqual(E.map((v) => wrap(other, v)));
      expect(await readValues(to(gpuTensor([1000, -1000, 70000], 'int32'), dtype))).toEqual([1000, -1000, 70000].map((v) => wrap(dtype, v)));
    });

    it(`${dtype}: reductions, scans, sorts, atomic scatter-adds and matmul combine sign-extended values`, async () => {
      const t = gpuTensor(E, dtype);
      const total = E.reduce((a, b) => a + b, 0);
      // sum promotes to int64 (exact); a dtype-preserving sum wraps
      expect(await readValues(sum(t))).toEqual([total]);
      expect(await readValues(sum(t, 0, { dtype }))).toEqual([wrap(dtype, total)]);
      const running: number[] = [];
      E.reduce((acc, v) => (running.push(acc + v), acc + v), 0);
      expect(await readValues(cumsum(t, 0))).toEqual(running);
      const { values, indices } = sort(t);
      const order = E.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      expect(await readValues(values)).toEqual(order.map(([v]) => v));
      expect(await readValues(indices)).toEqual(order.map(([, i]) => i));
      // every element added into position 0 or 1 of a zero tensor, atomically, duplicates included
      const target = gpuTensor([0, 0, 0, 0], dtype);
      const idx = gpuTensor(E.map((_, i) => i % 2), 'int64');
      const acc = [0, 0, 0, 0];
      E.forEach((v, i) => (acc[i % 2] += v));
      expect(await readValues(scatterAdd(target, 0, idx, t))).toEqual(acc.map((v) => wrap(dtype, v)));
      const m = gpuTensor([1, -2, 3, -4], dtype, [2, 2]);
      const k = gpuTensor([E[3], E[4], -1, 2], dtype, [2, 2]);
      const ref = [0, 1].flatMap((i) => [0, 1].map((j) => wrap(dtype, [1, -2, 3, -4][2 * i] * [E[3], E[4], -1, 2][j] + [1, -2, 3, -4][2 * i + 1] * [E[3], E[4], -1, 2][2 + j])));
      expect(await readValues(mm(m, k))).toEqual(ref);
    });
  }
});
