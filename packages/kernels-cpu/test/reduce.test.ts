import type { DType, TensorImpl } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { ARG_CASES, REDUCE_CASES } from './goldens/reduce';
import { empty, laidOut, mismatches, read, releaseCreated, tensor, view, write, type Value } from './helpers';

afterEach(releaseCreated);

const SHAPE = [3, 4, 5];

/** `values` (row-major over `sizes`) stored with its dims in the order `perm`: a non-contiguous view. */
function permuted(dtype: DType, sizes: readonly number[], values: readonly Value[], perm: readonly number[]): TensorImpl {
  const stored = rowMajor(perm.map((d) => sizes[d]));
  const strides = new Array<number>(sizes.length);
  perm.forEach((d, k) => (strides[d] = stored[k]));
  return write(view(empty(dtype, [values.length + 2]), sizes, strides, 2), values);
}

function rowMajor(sizes: readonly number[]): number[] {
  const s = new Array<number>(sizes.length);
  let step = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    s[d] = step;
    step *= Math.max(sizes[d], 1);
  }
  return s;
}

describe('reductions against PyTorch goldens (input [3, 4, 5], keepdim)', () => {
  for (const c of REDUCE_CASES) {
    const dtype = c.dtype as DType;
    const dims = c.dims as readonly number[];
    const outSizes = SHAPE.map((s, d) => (dims.includes(d) ? 1 : s));
    it(`${c.op} ${dtype} over [${dims.join(', ')}]: contiguous, permuted input, strided out`, () => {
      const input = c.input as readonly Value[];
      const expected = c.out as readonly Value[];
      for (const perm of [[0, 1, 2], [2, 0, 1], [1, 2, 0]]) {
        const x = perm[0] === 0 ? tensor(dtype, SHAPE, input) : permuted(dtype, SHAPE, input, perm);
        const out = laidOut(dtype, outSizes, new Array<Value>(expected.length).fill(dtype === 'int64' ? 5n : 5), 'strided');
        cpuImpls[c.op](out, x, dims);
        expect(mismatches(read(out), expected), `perm ${perm}`).toEqual([]);
      }
    });
  }
});

describe('reduction accumulators', () => {
  it('float32 sum accumulates in float64 and rounds once', () => {
    const x = tensor('float32', [3], [1, 2 ** -24, 2 ** -24]);
    const out = empty('float32', [1]);
    cpuImpls.sum(out, x, [0]);
    expect(read(out)).toEqual([1 + 2 ** -23]); // float32 accumulation would give 1
    const n = 1 << 16;
    const ones = tensor('float16', [n], new Array(n).fill(1));
    const o16 = empty('float16', [1]);
    cpuImpls.sum(o16, ones, [0]);
    expect(read(o16)).toEqual([Infinity]); // 65536 rounds past float16's 65504
    const tenth = tensor('bfloat16', [1000], new Array(1000).fill(0.1));
    const obf = empty('bfloat16', [1]);
    cpuImpls.sum(obf, tenth, [0]);
    expect(read(obf)).toEqual([100]); // 1000 * bf16(0.1) = 100.0976..., rounded once to bfloat16
  });

  it('integer sums and products wrap; int64 exactly modulo 2^64', () => {
    const i8 = tensor('int8', [2], [100, 100]);
    const o8 = empty('int8', [1]);
    cpuImpls.sum(o8, i8, [0]);
    expect(read(o8)).toEqual([-56]);
    cpuImpls.prod(o8, i8, [0]);
    expect(read(o8)).toEqual([16]); // 10000 mod 256
    const i32 = tensor('int32', [3000], new Array(3000).fill(2 ** 30 + 1));
    const o32 = empty('int32', [1]);
    cpuImpls.sum(o32, i32, [0]);
    expect(read(o32)).toEqual([Number(BigInt.asIntN(32, 3000n * (2n ** 30n + 1n)))]);
    const i64 = tensor('int64', [3], [2n ** 63n - 1n, 1n, 2n ** 62n]);
    const o64 = empty('int64', [1]);
    cpuImpls.sum(o64, i64, [0]);
    expect(read(o64)).toEqual([BigInt.asIntN(64, 2n ** 63n + 2n ** 62n)]);
    cpuImpls.prod(o64, i64, [0]);
    expect(read(o64)).toEqual([BigInt.asIntN(64, (2n ** 63n - 1n) * 2n ** 62n)]);
    // a long int64 row: the word sums carry correctly
    const n = 5000;
    const vals = Array.from({ length: n }, (_, i) => BigInt(i) * 3000000000000n - 7n * 2n ** 40n);
    const long = tensor('int64', [n], vals);
    cpuImpls.sum(o64, long, [0]);
    expect(read(o64)).toEqual([BigInt.asIntN(64, vals.reduce((a, b) => a + b, 0n))]);
  });

  it('amax/amin propagate NaN; prod/sum of an empty dim give the identity', () => {
    const x = tensor('float64', [2, 3], [1, NaN, 3, -1, -5, 2]);
    const o = empty('float64', [2, 1]);
    cpuImpls.amax(o, x, [1]);
    expect(read(o)).toEqual([NaN, 2]);
    cpuImpls.amin(o, x, [1]);
    expect(read(o)).toEqual([NaN, -5]);
    for (const dtype of ['float32', 'int64', 'int16', 'float16'] as DType[]) {
      const e = empty(dtype, [2, 0]);
      const s = empty(dtype, [2, 1]);
      cpuImpls.sum(s, e, [1]);
      expect(read(s).map(Number)).toEqual([0, 0]);
      cpuImpls.prod(s, e, [1]);
      expect(read(s).map(Number)).toEqual([1, 1]);
    }
    cpuImpls.sum(empty('float32', [0, 1]), empty('float32', [0, 3]), [1]);
  });

  it('reduces a broadcast (stride-0) input and a 0-d input', () => {
    const one = tensor('float32', [], [2.5]);
    const o = empty('float32', [1, 1]);
    cpuImpls.sum(o, view(one, [4, 6], [0, 0], 0), [0, 1]);
    expect(read(o)).toEqual([60]);
    const o0 = empty('int32', []);
    cpuImpls.sum(o0, tensor('int32', [], [7]), [0]);
    expect(read(o0)).toEqual([7]);
  });
});

describe('max/min(dim), argmax, argmin against PyTorch goldens', () => {
  for (const c of ARG_CASES) {
    const dtype = c.dtype as DType;
    it(`${c.op} ${dtype} dim ${c.dim}`, () => {
      const input = c.input as readonly Value[];
      const outSizes = c.dim === 0 ? [1, 5] : [4, 1];
      for (const layout of ['contiguous', 'transposed', 'strided'] as const) {
        const x = laidOut(dtype, [4, 5], input, layout);
        const values = laidOut(dtype, outSizes, new Array<Value>(outSizes[0] * outSizes[1]).fill(dtype === 'int64' ? 9n : 1), 'strided');
        const indices = empty('int64', outSizes);
        cpuImpls[c.op === 'max' ? 'maxDim' : 'minDim'](values, indices, x, c.dim);
        expect(mismatches(read(values), c.values as readonly Value[]), layout).toEqual([]);
        expect(read(indices), layout).toEqual(c.indices);
        const indices2 = laidOut('int64', outSizes, new Array<Value>(outSizes[0] * outSizes[1]).fill(-1n), 'strided');
        cpuImpls[c.op === 'max' ? 'argmax' : 'argmin'](null, indices2, x, c.dim);
        expect(read(indices2), layout).toEqual(c.indices);
      }
    });
  }

  it('takes the first NaN and the first of equal values', () => {
    const x = tensor('float32', [6], [1, 7, 7, NaN, 2, NaN]);
    const idx = empty('int64', [1]);
    cpuImpls.argmax(null, idx, x, 0);
    expect(read(idx)).toEqual([3n]);
    cpuImpls.argmin(null, idx, x, 0);
    expect(read(idx)).toEqual([3n]);
    const y = tensor('int64', [5], [-(2n ** 63n), 2n ** 63n - 1n, 5n, 2n ** 63n - 1n, -(2n ** 63n)]);
    cpuImpls.argmax(null, idx, y, 0);
    expect(read(idx)).toEqual([1n]);
    cpuImpls.argmin(null, idx, y, 0);
    expect(read(idx)).toEqual([0n]);
  });

  it('handles a 0-d input and long scanned dims through scratch', () => {
    const v = empty('float16', []);
    const idx = empty('int64', []);
    cpuImpls.maxDim(v, idx, tensor('float16', [], [3.5]), 0);
    expect(read(v)).toEqual([3.5]);
    expect(read(idx)).toEqual([0n]);
    const n = 3000;
    const x = tensor('int16', [n], Array.from({ length: n }, (_, i) => (i * 7919) % 30011 - 15000));
    const vals = read(x) as number[];
    const best = vals.indexOf(Math.max(...vals));
    const o = empty('int16', [1]);
    const i1 = empty('int64', [1]);
    cpuImpls.maxDim(o, i1, x, 0);
    expect(read(i1)).toEqual([BigInt(best)]);
    expect(read(o)).toEqual([vals[best]]);
  });

  it('refuses an empty scanned dim', () => {
    expect(() => cpuImpls.argmax(null, empty('int64', [1]), empty('float32', [0]), 0)).toThrow(/non-zero size/);
  });
});
