import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls } from '../src/index';
import { ROUND_F32 } from '../src/kernels/float-math';
import { expRow } from '../src/kernels/unary-rows';
import { empty, read, releaseCreated, tensor, view, rng } from './helpers';

// The speed paths of issue 4 against plain references: float32 exp by polynomial (Note [exp
// below float64]), float32 sums in four partial sums (Note [Four float64 partial sums of
// float32]) and long rows in pieces (Note [Long rows in pieces]). The GEMM has gemm.test.ts.

afterEach(releaseCreated);



describe('float32 exp', () => {
  const r = rng(5);
  const xs = Float32Array.from([NaN, Infinity, -Infinity, 0, -0, 88.72, 88.73, -87.3, -103.9, -100, 88.8, 1e-30, ...Array.from({ length: 20000 }, () => r() * 110)]);
  const expected = Array.from(xs, (x) => Math.fround(Math.exp(x)));

  it('the JS loop (the fallback without WebAssembly SIMD) matches Math.exp rounded to float32, edges included', () => {
    const out = new Float32Array(xs.length);
    expRow(xs.length, out, 0, 1, xs, 0, 1, ROUND_F32);
    expect(Array.from(out)).toEqual(expected);
  });

  it('the kernel is within an ulp of it (Note [SIMD float32 math]), edges exact', () => {
    const a = tensor('float32', [xs.length], Array.from(xs));
    const out = empty('float32', [xs.length]);
    cpuImpls.exp(out, a);
    const got = read(out) as number[];
    const bad = got.flatMap((v, i) => {
      const w = expected[i];
      const ok = Object.is(v, w) || (Number.isFinite(w) && w !== 0 && Math.abs(v - w) <= Math.max(Math.abs(w) * 2 ** -23, 2 ** -149));
      return ok ? [] : [`exp(${xs[i]}) = ${v}, want ${w}`];
    });
    expect(bad).toEqual([]);
    expect(got.slice(0, 12)).toEqual(expected.slice(0, 12));
  });
});

describe('float32 sum', () => {
  it('serves sum through cpuImpls: a float32 row of 1e5 ones and a large-magnitude row', () => {
    const n = 100_000;
    const ones = tensor('float32', [n], new Array<number>(n).fill(1));
    const out = empty('float32', [1]);
    cpuImpls.sum(out, ones, [0]);
    expect(read(out)).toEqual([n]);
    const m = tensor('float32', [2, 4096], Array.from({ length: 8192 }, (_, i) => (i % 2 ? 1e7 : -1e7) + (i % 5)));
    const rows = empty('float32', [2, 1]);
    cpuImpls.sum(rows, m, [1]);
    const mv = read(m) as number[];
    const ref = [0, 1].map((row) => mv.slice(row * 4096, (row + 1) * 4096).reduce((x, y) => x + y, 0));
    expect(read(rows)).toEqual(ref.map(Math.fround));
  });
});

describe('float32 softmax on the exp polynomial', () => {
  // a float64 reference with Math.exp, rounded once to float32 at the end
  function reference(xs: number[], outer: number, size: number, inner: number, log: boolean): number[] {
    const out = new Array<number>(xs.length);
    for (let r = 0; r < outer; r++) {
      for (let i = 0; i < inner; i++) {
        const at = (j: number) => r * size * inner + j * inner + i;
        let max = -Infinity;
        for (let j = 0; j < size; j++) max = Math.max(max, xs[at(j)]);
        let sum = 0;
        for (let j = 0; j < size; j++) sum += Math.exp(xs[at(j)] - max);
        for (let j = 0; j < size; j++) out[at(j)] = log ? xs[at(j)] - max - Math.log(sum) : Math.exp(xs[at(j)] - max) / sum;
      }
    }
    return out;
  }

  it('is within 3 ulp of float32 of a Math.exp reference (float32 exp and 1 / sum: Note [Softmax rows in SIMD]), last dim and inner dims, with -inf and far tails', () => {
    const r = rng(5);
    for (const [outer, size, inner] of [[3, 257, 1], [2, 64, 5]]) {
      const xs = Array.from({ length: outer * size * inner }, () => Math.fround(r() * 30));
      xs[7] = -Infinity;
      xs[11] = -200; // x - max below -100: Math.exp's range
      const x = tensor('float32', [outer, size, inner], xs);
      for (const log of [false, true]) {
        const out = empty('float32', [outer, size, inner]);
        cpuImpls.softmax(out, x, outer, size, inner, log);
        const got = read(out) as number[];
        const want = reference(read(x) as number[], outer, size, inner, log);
        got.forEach((g, i) => {
          const w = Math.fround(want[i]);
          if (!Number.isFinite(w)) expect(g).toBe(w);
          else expect(Math.abs(g - w)).toBeLessThanOrEqual(Math.abs(w) * 3 * 2 ** -23 + 1e-45);
        });
      }
    }
  });
});

describe('long rows', () => {
  it('float32 sums of long rows equal the float64 sum rounded once', () => {
    const r = rng(9);
    const n = 100_003;
    const xs = Array.from({ length: n }, () => r() * 1000);
    const a = tensor('float32', [n], xs);
    const vals = read(a) as number[];
    let s = 0;
    for (const v of vals) s += v;
    const out = empty('float32', [1]);
    cpuImpls.sum(out, a, [0]);
    expect(read(out)).toEqual([Math.fround(s)]);
    // strided: every other element of a [2, n/2] view, summed over its last dim
    const half = 50_001;
    const rows = empty('float32', [2, 1]);
    cpuImpls.sum(rows, view(a, [2, half], [1, 2], 0), [1]);
    const even = vals.filter((_, i) => i % 2 === 0 && i < 2 * half).reduce((x, y) => x + y, 0);
    expect((read(rows) as number[])[0]).toBe(Math.fround(even));
  });

  it('a contiguous op longer than one piece covers every element', () => {
    const n = 70_001;
    const a = tensor('float32', [n], Array.from({ length: n }, (_, i) => i));
    const out = empty('float32', [n]);
    cpuImpls.add(out, a, a, 1);
    expect(read(out)).toEqual(Array.from({ length: n }, (_, i) => 2 * i));
  });
});
