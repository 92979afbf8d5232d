import { describe, expect, it } from 'vitest';
import { addF32Row, addRow, subF32Row } from '../src/kernels/binary-float-rows';

// Note [Float32 add is monomorphic]: the float32 add/sub row kernels against addRow (the
// general kernel, alpha 1 and -1) on every stride pattern they specialise, every length
// around the four-wide unroll, and values where rounding, signed zeros and NaN matter.

const SPECIAL = [0, -0, NaN, Infinity, -Infinity, 1e-45, -1e-45, 3.4e38, -3.4e38, 1, -1, 0.1, 1.5, 16777217, 2 ** -24];

function values(n: number, seed: number): Float32Array {
  const v = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = s % 5 === 0 ? SPECIAL[s % SPECIAL.length] : (s / 2 ** 31 - 1) * 2 ** ((s % 61) - 30);
  }
  return v;
}

describe('float32 add and sub rows', () => {
  for (const [os, as, bs] of [[1, 1, 1], [1, 1, 0], [1, 0, 1], [2, 1, 3], [1, 0, 0], [3, 2, 1]]) {
    it(`equal addRow with alpha 1 and -1 (strides out ${os}, a ${as}, b ${bs})`, () => {
      for (let n = 0; n <= 13; n++) {
        const a = values(3 * n + 5, 7 * n + 1);
        const b = values(3 * n + 5, 11 * n + 2);
        for (const [alpha, row] of [[1, addF32Row], [-1, subF32Row]] as const) {
          const expected = new Float32Array(3 * n + 5).fill(7);
          const got = new Float32Array(3 * n + 5).fill(7);
          addRow(n, expected, 2, os, a, 1, as, b, 3, bs, alpha);
          row(n, got, 2, os, a, 1, as, b, 3, bs);
          expect(Array.from(got)).toEqual(Array.from(expected));
        }
      }
    });
  }
});
