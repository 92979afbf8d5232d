import { REAL_DTYPES as DTYPES, type DType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { CAST_CASES } from './goldens/cast';
import { empty, laidOut, mismatches, read, releaseCreated, tensor, view, type Value } from './helpers';

afterEach(releaseCreated);

const sample = (dtype: DType, i: number): Value => {
  if (dtype === 'int64') return BigInt(i * 1000003) * (i % 2 === 0 ? -1n : 1n) * 2n ** 30n;
  if (dtype === 'bool') return i % 3 === 0 ? 1 : 0;
  if (dtype === 'uint8') return (i * 37) % 256;
  if (dtype === 'float32' || dtype === 'float64') return i % 5 === 0 ? NaN : i % 7 === 0 ? -0 : (i - 6) * 1.25;
  return i - 6;
};

describe('where', () => {
  for (const dtype of DTYPES) {
    it(`selects raw ${dtype} elements, with broadcast condition and operands`, () => {
      const n = 12;
      const a = Array.from({ length: n }, (_, i) => sample(dtype, i));
      const b = Array.from({ length: n }, (_, i) => sample(dtype, i + 5));
      const c = Array.from({ length: n }, (_, i) => (i % 4 === 1 ? 0 : 1));
      const expected = c.map((ci, i) => (ci ? a[i] : b[i]));
      const out = laidOut(dtype, [3, 4], new Array<Value>(n).fill(dtype === 'int64' ? 0n : 0), 'transposed');
      cpuImpls.where(out, laidOut('bool', [3, 4], c, 'strided'), laidOut(dtype, [3, 4], a, 'transposed'), tensor(dtype, [3, 4], b));
      expect(mismatches(read(out), expected)).toEqual([]);

      // condition [1, 4] and `other` a 0-d scalar, both broadcast to [3, 4]
      const row = tensor('bool', [4], [1, 0, 0, 1]);
      const scalar = tensor(dtype, [], [b[0]]);
      const out2 = empty(dtype, [3, 4]);
      cpuImpls.where(out2, view(row, [3, 4], [0, 1], 0), tensor(dtype, [3, 4], a), view(scalar, [3, 4], [0, 0], 0));
      expect(mismatches(read(out2), a.map((x, i) => ([0, 3].includes(i % 4) ? x : b[0])))).toEqual([]);
    });
  }

  it('does nothing for empty outputs', () => {
    cpuImpls.where(empty('float32', [0]), empty('bool', [0]), empty('float32', [0]), empty('float32', [0]));
  });
});

describe('fill', () => {
  /** The value a PyTorch scalar gets in `dtype`: an int64 or float64 0-d tensor cast with copy's rules. */
  const cases: [DType, number | bigint | boolean, Value][] = [
    ['int8', 300, 44],
    ['int8', -129, 127],
    ['int8', 2.7, 2],
    ['int8', NaN, 0],
    ['int32', NaN, -2147483648],
    ['int32', 1e10, 1410065408], // an integer-valued number is an int64: it wraps
    ['int32', 1.5e10, 2115098112], // 15000000000 mod 2^32
    ['int32', -2.9, -2],
    ['uint8', -1, 255],
    ['uint8', -2.5, 254],
    ['uint8', Infinity, 0],
    ['int16', 40000, -25536],
    ['int64', 2n ** 63n - 1n, 2n ** 63n - 1n],
    ['int64', 2n ** 64n + 5n, 5n],
    ['int64', -2.5, -2n],
    ['int64', NaN, -(2n ** 63n)],
    ['int64', 2 ** 62, 2n ** 62n],
    ['bool', 0.5, 1],
    ['bool', NaN, 1],
    ['bool', -0, 0],
    ['bool', true, 1],
    ['float32', 1e300, Infinity],
    ['float32', 0.1, Math.fround(0.1)],
    ['float32', 2n ** 60n + 2n ** 36n + 1n, 2 ** 60 + 2 ** 37],
    ['float64', 2n ** 53n + 1n, 2 ** 53],
    ['float64', true, 1],
    ['float16', 1e6, Infinity],
    ['float16', 65519, 65504],
    ['float16', 1 / 3, 0.333251953125],
    ['bfloat16', 1 / 3, 0.333984375],
    ['bfloat16', -0, -0],
  ];
  for (const [dtype, value, expected] of cases) {
    it(`${dtype} <- ${String(value)}`, () => {
      const t = empty(dtype, [5]);
      cpuImpls.fill(t, value);
      expect(read(t)).toEqual(new Array(5).fill(expected));
    });
  }

  it('agrees with copy from float64 for every float edge value in every dtype', () => {
    const values = CAST_CASES.float64.values as readonly number[];
    for (const dtype of DTYPES) {
      const expected = CAST_CASES.float64[dtype] as readonly Value[];
      values.forEach((v, i) => {
        // integer-valued numbers are ints, which only matters for those outside int64 casts'
        // saturation; compare the non-integers and small integers, which both paths share
        if (Number.isInteger(v) && Math.abs(v) >= 2 ** 31) return;
        const t = empty(dtype, [1]);
        cpuImpls.fill(t, v);
        expect(mismatches(read(t), [expected[i]]), `${dtype} <- ${v}`).toEqual([]);
      });
    }
  });

  it('fills strided views without touching the gaps, 0-d and empty tensors', () => {
    for (const dtype of DTYPES) {
      const base = tensor(dtype, [12], new Array<Value>(12).fill(dtype === 'int64' ? 3n : 1));
      const v = view(base, [2, 3], [1, 4], 1);
      cpuImpls.fill(v, 0);
      const got = read(base);
      const zero = dtype === 'int64' ? 0n : 0;
      const one = dtype === 'int64' ? 3n : 1;
      const expected = got.map((_, i) => ([1, 2, 5, 6, 9, 10].includes(i) ? zero : one));
      expect(mismatches(got, expected), dtype).toEqual([]);
      const scalar = empty(dtype, []);
      cpuImpls.fill(scalar, 1);
      expect(read(scalar)).toEqual([dtype === 'int64' ? 1n : 1]);
      cpuImpls.fill(empty(dtype, [0, 3]), 7);
    }
  });
});
