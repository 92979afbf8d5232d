import type { DType, TensorImpl } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { UNARY_CASES } from './goldens/pointwise';
import { empty, laidOut, mismatches, read, releaseCreated, tensor, view, type Value } from './helpers';

afterEach(releaseCreated);

type Case = (typeof UNARY_CASES)[number];

const EXACT = new Set(['neg', 'abs', 'relu', 'floor', 'ceil', 'sqrt']);

/**
 * neg, abs, relu, floor, ceil and sqrt are exact. The transcendental functions compute in
 * double with V8's Math and round to the dtype, while PyTorch uses SLEEF (float32, 1 ulp)
 * or glibc (float64): allow one ulp of the dtype (relative 2^-23 for float32; for the 16-bit
 * types an ulp of float32 before their own rounding, which makes them exact but for ties).
 */
function tolerance(c: Case): ((a: number, b: number) => boolean) | undefined {
  if (EXACT.has(c.op)) return undefined;
  const rel = c.dtype === 'float64' ? 2 ** -52 : c.dtype === 'float32' ? 2 ** -23 : c.dtype === 'float16' ? 2 ** -10 : 2 ** -7;
  return (x, y) => Math.abs(x - y) <= Math.abs(y) * rel || Math.abs(x - y) < 1e-300;
}

function run(c: Case, out: TensorImpl, a: TensorImpl): void {
  cpuImpls[c.op](out, a);
}

describe('unary ops against PyTorch goldens', () => {
  for (const c of UNARY_CASES) {
    const dtype = c.dtype as DType;
    const a = c.a as readonly Value[];
    const expected = c.out as readonly Value[];
    const n = a.length;
    const zero: Value = dtype === 'int64' ? 0n : 0;

    it(`${c.op} ${dtype}: contiguous, strided, in place`, () => {
      const out = empty(dtype, [n]);
      run(c, out, tensor(dtype, [n], a));
      expect(mismatches(read(out), expected, tolerance(c))).toEqual([]);
      const so = laidOut(dtype, [n], new Array<Value>(n).fill(zero), 'strided');
      run(c, so, laidOut(dtype, [n], a, 'strided'));
      expect(mismatches(read(so), expected, tolerance(c))).toEqual([]);
      const inPlace = tensor(dtype, [n], a);
      run(c, inPlace, inPlace);
      expect(mismatches(read(inPlace), expected, tolerance(c))).toEqual([]);
    });

    it(`${c.op} ${dtype}: transposed 2-d and broadcast input`, () => {
      if (n % 2 === 0) {
        const out = laidOut(dtype, [2, n / 2], new Array<Value>(n).fill(zero), 'transposed');
        run(c, out, laidOut(dtype, [2, n / 2], a, 'transposed'));
        expect(mismatches(read(out), expected, tolerance(c))).toEqual([]);
      }
      const one = tensor(dtype, [], [a[2]]);
      const out = empty(dtype, [3, 4]);
      run(c, out, view(one, [3, 4], [0, 0], 0));
      expect(mismatches(read(out), new Array<Value>(12).fill(expected[2]), tolerance(c))).toEqual([]);
    });
  }
});

describe('unary edge semantics', () => {
  it('abs and neg wrap at the integer minimum', () => {
    const i8 = tensor('int8', [3], [-128, 127, -1]);
    const o8 = empty('int8', [3]);
    cpuImpls.abs(o8, i8);
    expect(read(o8)).toEqual([-128, 127, 1]);
    cpuImpls.neg(o8, i8);
    expect(read(o8)).toEqual([-128, -127, 1]);
    const i32 = tensor('int32', [1], [-(2 ** 31)]);
    const o32 = empty('int32', [1]);
    cpuImpls.abs(o32, i32);
    expect(read(o32)).toEqual([-(2 ** 31)]);
    const i64 = tensor('int64', [2], [-(2n ** 63n), -5n]);
    const o64 = empty('int64', [2]);
    cpuImpls.abs(o64, i64);
    expect(read(o64)).toEqual([-(2n ** 63n), 5n]);
    cpuImpls.neg(o64, i64);
    expect(read(o64)).toEqual([-(2n ** 63n), 5n]);
    const u8 = tensor('uint8', [2], [1, 0]);
    const ou = empty('uint8', [2]);
    cpuImpls.neg(ou, u8);
    expect(read(ou)).toEqual([255, 0]);
  });

  it('relu keeps NaN and -0; floor and ceil of integers are copies', () => {
    const f = tensor('float32', [4], [NaN, -0, -3, 2]);
    const o = empty('float32', [4]);
    cpuImpls.relu(o, f);
    expect(read(o)).toEqual([NaN, -0, 0, 2]);
    const big = tensor('int64', [2], [2n ** 62n + 1n, -7n]);
    const ob = empty('int64', [2]);
    cpuImpls.floor(ob, big);
    expect(read(ob)).toEqual([2n ** 62n + 1n, -7n]);
    cpuImpls.ceil(ob, big);
    expect(read(ob)).toEqual([2n ** 62n + 1n, -7n]);
  });

  it('sigmoid saturates without NaN', () => {
    const f = tensor('float64', [5], [-1000, 1000, -Infinity, Infinity, 0]);
    const o = empty('float64', [5]);
    cpuImpls.sigmoid(o, f);
    expect(read(o)).toEqual([0, 1, 0, 1, 0.5]);
  });

  it('does nothing for empty tensors', () => {
    for (const dtype of ['float32', 'int64', 'float16', 'int8'] as DType[]) {
      cpuImpls.neg(empty(dtype, [0]), empty(dtype, [0]));
      cpuImpls.abs(empty(dtype, [2, 0]), empty(dtype, [2, 0]));
    }
    cpuImpls.exp(empty('float32', [0]), empty('float32', [0]));
  });
});
