/**
 * The CPU FFT plans (Note [CPU FFT plans]) against a plain O(n^2) DFT in doubles, the
 * oracle for the fast path: every n from 1 to 80 (mixed radix with radices 4, 2 and the
 * generic odd butterfly; Bluestein for primes above 23), larger smooth and prime lengths,
 * strided input lines, and the exactly reduced roots of unity.
 */
import { describe, expect, it } from 'vitest';
import { planFor, rootOfUnity } from '../src/kernels/fft-plan';

/** A seeded line of n complex values in [-1, 1). */
function line(n: number, seed: number): Float64Array {
  let s = seed >>> 0;
  const x = new Float64Array(2 * n);
  for (let i = 0; i < x.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = s / 2 ** 31 - 1;
  }
  return x;
}

/** The forward DFT by its definition, each twiddle exp(-2 pi i (jk mod n) / n) from Math.cos / Math.sin. */
function naiveDft(x: Float64Array, n: number): Float64Array {
  const out = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    let re = 0;
    let im = 0;
    for (let j = 0; j < n; j++) {
      const a = (-2 * Math.PI * ((j * k) % n)) / n;
      const c = Math.cos(a);
      const s = Math.sin(a);
      re += x[2 * j] * c - x[2 * j + 1] * s;
      im += x[2 * j] * s + x[2 * j + 1] * c;
    }
    out[2 * k] = re;
    out[2 * k + 1] = im;
  }
  return out;
}

/** max |got - want| / max |want|, in units of double epsilon. */
function relError(got: Float64Array, want: Float64Array): number {
  let err = 0;
  let scale = 0;
  for (let k = 0; k < want.length / 2; k++) {
    err = Math.max(err, Math.hypot(got[2 * k] - want[2 * k], got[2 * k + 1] - want[2 * k + 1]));
    scale = Math.max(scale, Math.hypot(want[2 * k], want[2 * k + 1]));
  }
  return err / scale / 2 ** -52;
}

describe('CPU FFT plans against the DFT by definition', () => {
  const lengths = [...Array.from({ length: 80 }, (_, i) => i + 1), 97, 100, 127, 128, 210, 243, 256, 257, 500, 509];
  for (const n of lengths) {
    it(`n = ${n}`, () => {
      const x = line(n, n);
      const got = new Float64Array(2 * n);
      planFor(n).forward(x, 0, 1, got);
      // (the reference's own error grows like n eps: the bound is the sum of both)
      expect(relError(got, naiveDft(x, n))).toBeLessThan(4 * Math.log2(n + 1) + 0.5 * n);
    });
  }

  it('reads a strided line from an offset (the stride in complex elements)', () => {
    const n = 30;
    const x = line(n, 3);
    const spread = new Float64Array(2 * (3 * n + 2));
    for (let j = 0; j < n; j++) [spread[4 + 6 * j], spread[5 + 6 * j]] = [x[2 * j], x[2 * j + 1]];
    const a = new Float64Array(2 * n);
    const b = new Float64Array(2 * n);
    planFor(n).forward(x, 0, 1, a);
    planFor(n).forward(spread, 4, 3, b);
    expect(Array.from(b)).toEqual(Array.from(a));
  });

  it('a transform and its conjugate transform return the input times n (Bluestein and mixed radix)', () => {
    for (const n of [1009, 4096, 1000]) {
      const x = line(n, 11);
      const X = new Float64Array(2 * n);
      planFor(n).forward(x, 0, 1, X);
      for (let k = 0; k < n; k++) X[2 * k + 1] = -X[2 * k + 1];
      const y = new Float64Array(2 * n);
      planFor(n).forward(X, 0, 1, y);
      let err = 0;
      for (let j = 0; j < n; j++) err = Math.max(err, Math.abs(y[2 * j] / n - x[2 * j]), Math.abs(-y[2 * j + 1] / n - x[2 * j + 1]));
      expect(err).toBeLessThan(16 * Math.log2(n) * 2 ** -52);
    }
  });

  it('roots of unity: exact at the octant points, symmetric, and within an ulp of cos / sin', () => {
    expect(rootOfUnity(0, 7)).toEqual([1, 0]);
    expect(rootOfUnity(2, 8)).toEqual([0, 1]);
    expect(rootOfUnity(4, 8)).toEqual([-1, 0]);
    expect(rootOfUnity(6, 8)).toEqual([0, -1]);
    for (const n of [5, 12, 97, 1000]) {
      for (let t = 0; t < n; t++) {
        const [c, s] = rootOfUnity(t, n);
        const [c2, s2] = rootOfUnity(n - t, n);
        // (=== : a zero sine may come back as -0)
        expect(c2 === c && s2 === -s).toBe(true);
        expect(Math.abs(c - Math.cos((2 * Math.PI * t) / n))).toBeLessThan(4e-16 * Math.max(1, t));
        expect(Math.abs(s - Math.sin((2 * Math.PI * t) / n))).toBeLessThan(4e-16 * Math.max(1, t));
      }
    }
  });
});
