import type { DType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { MM_CASES } from './goldens/matmul';
import { empty, laidOut, mismatches, read, releaseCreated, tensor, view, type Layout, type Value, rng } from './helpers';

afterEach(releaseCreated);

describe('mm against PyTorch goldens', () => {
  for (const c of MM_CASES) {
    const dtype = c.dtype as DType;
    const [[n, m], [, p]] = 'shapes' in c ? c.shapes : [[3, 4], [4, 5]];
    it(`${dtype} [${n}, ${m}] @ [${m}, ${p}]${'shapes' in c ? ' (wraps)' : ''}: every layout`, () => {
      const layouts: Layout[] = ['contiguous', 'transposed', 'strided'];
      for (const la of layouts) {
        for (const lb of layouts) {
          const out = laidOut(dtype, [n, p], new Array<Value>(n * p).fill(dtype === 'int64' ? 1n : 1), la === 'strided' ? 'transposed' : 'strided');
          cpuImpls.mm(out, laidOut(dtype, [n, m], c.a as readonly Value[], la), laidOut(dtype, [m, p], c.b as readonly Value[], lb));
          expect(mismatches(read(out), c.out as readonly Value[]), `${la} @ ${lb}`).toEqual([]);
        }
      }
    });
  }
});


function reference(n: number, m: number, p: number, a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < p; j++) {
      let s = 0;
      for (let k = 0; k < m; k++) s += a[i * m + k] * b[k * p + j];
      out.push(s);
    }
  }
  return out;
}

describe('mm accuracy and shapes', () => {
  it('float32 and float64 are within rounding of a float64 reference loop (row blocks and remainders)', () => {
    const r = rng(7);
    for (const [n, m, p] of [[7, 9, 5], [13, 33, 17], [1, 1, 1], [4, 100, 3]]) {
      const a = Array.from({ length: n * m }, r);
      const b = Array.from({ length: m * p }, r);
      for (const dtype of ['float32', 'float64'] as DType[]) {
        const ta = tensor(dtype, [n, m], a);
        const tb = tensor(dtype, [m, p], b);
        const ref = reference(n, m, p, read(ta) as number[], read(tb) as number[]);
        const out = empty(dtype, [n, p]);
        cpuImpls.mm(out, ta, view(tb, [m, p], tb.strides, 0));
        // Within the GEMM's rounding bound k u sum|a||b| (every |a|, |b| < 1); float32
        // accumulates in float32, as PyTorch's sgemm (gemm.test.ts checks the exact order).
        const u = dtype === 'float32' ? 2 ** -24 : 2 ** -53;
        const close = (x: number, y: number): boolean => Math.abs(x - y) <= 2 * m * m * u;
        expect(mismatches(read(out), ref, close)).toEqual([]);
      }
    }
  });

  it('propagates NaN and Inf (no zero skipping for floats)', () => {
    const a = tensor('float32', [1, 2], [0, 1]);
    const b = tensor('float32', [2, 2], [Infinity, NaN, 1, 2]);
    const out = empty('float32', [1, 2]);
    cpuImpls.mm(out, a, b);
    expect(read(out)).toEqual([NaN, NaN]);
  });

  it('gives zeros for an empty inner dim and nothing for empty outputs', () => {
    for (const dtype of ['float32', 'int64', 'int8', 'bfloat16'] as DType[]) {
      const out = tensor(dtype, [2, 3], new Array<Value>(6).fill(dtype === 'int64' ? 5n : 5));
      cpuImpls.mm(out, empty(dtype, [2, 0]), empty(dtype, [0, 3]));
      expect(read(out).map(Number)).toEqual([0, 0, 0, 0, 0, 0]);
      cpuImpls.mm(empty(dtype, [0, 3]), empty(dtype, [0, 4]), empty(dtype, [4, 3]));
    }
  });

  it('bmm runs each batch with its own strides, a broadcast batch included', () => {
    const r = rng(11);
    const B = 3;
    const [n, m, p] = [5, 6, 7];
    const a = Array.from({ length: B * n * m }, () => Math.round(r() * 8));
    const b = Array.from({ length: m * p }, () => Math.round(r() * 8));
    for (const dtype of ['float32', 'int32', 'int64', 'float16'] as DType[]) {
      const enc = (v: number): Value => (dtype === 'int64' ? BigInt(v) : v);
      const ta = laidOut(dtype, [B, n, m], a.map(enc), 'transposed');
      const tb = tensor(dtype, [m, p], b.map(enc));
      const out = empty(dtype, [B, n, p]);
      cpuImpls.bmm(out, ta, view(tb, [B, m, p], [0, p, 1], 0));
      const expected: Value[] = [];
      for (let z = 0; z < B; z++) expected.push(...reference(n, m, p, a.slice(z * n * m, (z + 1) * n * m), b).map(enc));
      expect(mismatches(read(out), expected), dtype).toEqual([]);
    }
  });
});
