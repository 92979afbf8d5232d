import { REAL_DTYPES as DTYPES, type DType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { CAST_CASES } from './goldens/cast';
import { empty, laidOut, mismatches, read, releaseCreated, tensor, view, type Layout, type Value } from './helpers';

afterEach(releaseCreated);

describe('copy: the cast table of PyTorch 1.13 on x86-64', () => {
  const layouts: [Layout, Layout][] = [
    ['contiguous', 'contiguous'],
    ['strided', 'contiguous'],
    ['contiguous', 'strided'],
    ['strided', 'transposed'],
  ];
  for (const src of DTYPES) {
    for (const dst of DTYPES) {
      it(`${src} -> ${dst}`, () => {
        const c = CAST_CASES[src];
        const values = c.values as readonly Value[];
        const expected = c[dst] as readonly Value[];
        const n = values.length;
        // also as a 2-d tensor, so the transposed layout is a real transpose
        const shape = n % 2 === 0 ? [2, n / 2] : [n];
        for (const [ls, ld] of layouts) {
          const s = laidOut(src, shape, values, ls);
          const d = laidOut(dst, shape, new Array<Value>(n).fill(dst === 'int64' ? 0n : 0), ld);
          cpuImpls.copy(d, s);
          expect(mismatches(read(d), expected), `${ls} -> ${ld}`).toEqual([]);
        }
      });
    }
  }
});

describe('copy within one dtype', () => {
  it('moves raw bits: NaN payloads and int64 bit patterns survive', () => {
    const s = empty('float32', [4]);
    const bits = s.storage.typed(Int32Array);
    bits.set([0x7fc00001, 0xffc00000 | 0, 0x7f800001, 0x80000000 | 0]);
    const d = laidOut('float32', [4], [0, 0, 0, 0], 'strided');
    cpuImpls.copy(d, s);
    const out = d.storage.typed(Int32Array);
    expect([out[3], out[5], out[7], out[9]]).toEqual([0x7fc00001, 0xffc00000 | 0, 0x7f800001, 0x80000000 | 0]);

    const big = tensor('int64', [3], [-1n, -(2n ** 63n), 2n ** 63n - 1n]);
    const big2 = laidOut('int64', [3], [0n, 0n, 0n], 'strided');
    cpuImpls.copy(big2, big);
    expect(read(big2)).toEqual([-1n, -(2n ** 63n), 2n ** 63n - 1n]);
  });

  for (const dtype of DTYPES) {
    it(`makes a transposed ${dtype} tensor contiguous`, () => {
      const values: Value[] = Array.from({ length: 12 }, (_, i) => (dtype === 'int64' ? BigInt(i * 7 - 20) : dtype === 'bool' ? i % 3 === 0 ? 1 : 0 : dtype === 'uint8' ? i * 7 : i * 7 - 20));
      const base = tensor(dtype, [3, 4], values);
      const t = view(base, [4, 3], [1, 4], 0);
      const d = empty(dtype, [4, 3]);
      cpuImpls.copy(d, t);
      const expected: Value[] = [];
      for (let i = 0; i < 4; i++) for (let j = 0; j < 3; j++) expected.push(values[j * 4 + i]);
      expect(read(d)).toEqual(expected);
    });
  }

  it('broadcasts a stride-0 source (expand) and copies long rows with offsets', () => {
    const s = tensor('int16', [1], [-7]);
    const d = empty('int16', [3, 5]);
    cpuImpls.copy(d, view(s, [3, 5], [0, 0], 0));
    expect(read(d)).toEqual(new Array(15).fill(-7));

    const n = 3000;
    const big = tensor('float64', [n], Array.from({ length: n }, (_, i) => i / 3));
    const dst = laidOut('float64', [n - 10], new Array(n - 10).fill(0), 'contiguous');
    cpuImpls.copy(dst, view(big, [n - 10], [1], 7));
    expect(read(dst)).toEqual(Array.from({ length: n - 10 }, (_, i) => (i + 7) / 3));
  });

  it('copies nothing for empty tensors', () => {
    const s = empty('float32', [0, 3]);
    const d = empty('int8', [0, 3]);
    cpuImpls.copy(d, s);
    cpuImpls.copy(empty('float32', [0]), empty('float32', [0]));
    expect(d.numel).toBe(0);
  });

  it('casts long contiguous rows (the set() fast paths) like short ones', () => {
    const n = 2500;
    const vals = Array.from({ length: n }, (_, i) => (i % 7 === 0 ? NaN : (i - 1250) * 1.37e6));
    const f = tensor('float64', [n], vals);
    for (const dst of ['int8', 'uint8', 'int16', 'int32', 'int64', 'float32', 'float16'] as DType[]) {
      const d = empty(dst, [n]);
      cpuImpls.copy(d, f);
      const short = empty(dst, [1]);
      const expected: Value[] = [];
      for (let i = 0; i < n; i++) {
        cpuImpls.copy(short, view(f, [1], [1], i));
        expected.push(read(short)[0]);
      }
      expect(mismatches(read(d), expected), dst).toEqual([]);
    }
  });
});
