import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { empty, read, releaseCreated, tensor, view } from './helpers';

// Note [Comparison and where kernels] (and the JS loops where SIMD is off) against plain
// references: NaN, -0 and infinities, SIMD tails, broadcast and transposed operands.

afterEach(releaseCreated);

const SPECIAL = [NaN, -0, 0, Infinity, -Infinity, 1.5, -1.5, 3];
const OPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const;
const REF: Record<(typeof OPS)[number], (x: number, y: number) => boolean> = {
  eq: (x, y) => x === y,
  ne: (x, y) => x !== y,
  lt: (x, y) => x < y,
  le: (x, y) => x <= y,
  gt: (x, y) => x > y,
  ge: (x, y) => x >= y,
};

describe('float32 comparisons and where', () => {
  it('compare every pair of special values, over lengths that cross the 16-wide SIMD rows', () => {
    for (const n of [1, 15, 16, 17, 40]) {
      const av = Array.from({ length: n }, (_, i) => SPECIAL[i % SPECIAL.length]);
      const bv = Array.from({ length: n }, (_, i) => SPECIAL[(i * 3 + 1) % SPECIAL.length]);
      const a = tensor('float32', [n], av);
      const b = tensor('float32', [n], bv);
      const s = tensor('float32', [1], [1.5]);
      for (const op of OPS) {
        const out = empty('bool', [n]);
        cpuImpls[op](out, a, b);
        expect(read(out), `${op} n=${n}`).toEqual(av.map((x, i) => +REF[op](x, bv[i])));
        const outS = empty('bool', [n]);
        cpuImpls[op](outS, a, view(s, [n], [0], 0));
        expect(read(outS), `${op} scalar n=${n}`).toEqual(av.map((x) => +REF[op](x, 1.5)));
      }
    }
  });

  it('compares transposed operands and where selects raw words, NaN payloads and -0 intact', () => {
    const [r, c] = [5, 19];
    const av = Array.from({ length: r * c }, (_, i) => SPECIAL[i % 7]);
    const a = tensor('float32', [c, r], av); // read as [r, c] transposed
    const aT = view(a, [r, c], [1, r], 0);
    const b = tensor('float32', [r, c], Array.from({ length: r * c }, (_, i) => SPECIAL[(i + 2) % 8]));
    const mask = empty('bool', [r, c]);
    cpuImpls.gt(mask, aT, b);
    const at = read(aT) as number[];
    const bt = read(b) as number[];
    expect(read(mask)).toEqual(at.map((x, i) => +(x > bt[i])));
    const out = empty('float32', [r, c]);
    const zero = tensor('float32', [1], [-0]);
    cpuImpls.where(out, mask, b, view(zero, [r, c], [0, 0], 0));
    const want = at.map((x, i) => (x > bt[i] ? bt[i] : -0));
    const got = read(out) as number[];
    expect(got.map((v, i) => Object.is(v, want[i]))).toEqual(want.map(() => true));
    // int32 through the same 32-bit path; a transposed condition
    const ia = tensor('int32', [r, c], Array.from({ length: r * c }, (_, i) => i - 40));
    const ib = tensor('int32', [r, c], Array.from({ length: r * c }, (_, i) => -i));
    const condT = tensor('bool', [c, r], Array.from({ length: r * c }, (_, i) => i % 3 === 0));
    const cond = view(condT, [r, c], [1, r], 0);
    const iout = empty('int32', [r, c]);
    cpuImpls.where(iout, cond, ia, ib);
    const cv = read(cond) as number[];
    expect(read(iout)).toEqual(cv.map((k, i) => (k ? i - 40 : -i)));
    // all four operands contiguous: the one-plane path
    const cc = tensor('bool', [r, c], cv.map((k) => k === 1));
    const cout = empty('int32', [r, c]);
    cpuImpls.where(cout, cc, ia, ib);
    expect(read(cout)).toEqual(cv.map((k, i) => (k ? i - 40 : -i)));
  });
});
