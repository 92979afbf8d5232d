import { CPU, StorageImpl, TensorImpl, VersionCounter, type DType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuAllocator, cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { erf, erfc } from '../src/kernels/erf-math';
import { wasm } from '../src/wasm/kernels';
import { empty, read, releaseCreated, tensor, view, write, rng } from './helpers';

// The WebAssembly pointwise kernels (Note [Binary pointwise kernels], Note [Unary pointwise
// kernels]) against plain references: IEEE arithmetic exactly, transcendental functions
// within an ulp or two of the float64 reference rounded to float32.

afterEach(releaseCreated);


const fr = Math.fround;
const F = new Float32Array(1);
const I = new Int32Array(F.buffer);

/** Distance in float32 ulps (steps between representable values); NaN == NaN, 0 == -0 not. */
function ulps(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b) ? 0 : Infinity;
  const key = (x: number): number => {
    F[0] = x;
    const i = I[0];
    return i < 0 ? -(i & 0x7fffffff) : i;
  };
  return Math.abs(key(a) - key(b));
}

/** A float32/float64 tensor whose storage is an ArrayBuffer of its own, outside the kernels' memory. */
function outsideHeap(dtype: DType, values: readonly number[]): TensorImpl {
  const alloc = new CpuAllocator(null);
  const size = dtype === 'float64' ? 8 : 4;
  const storage = new StorageImpl(values.length * size, CPU, alloc.allocate(values.length * size, CPU), alloc);
  const t = new TensorImpl(storage, [values.length], [1], 0, dtype, CPU, new VersionCounter());
  storage.release();
  write(t, values);
  return t;
}

type BinOp = 'add' | 'sub' | 'addScaled' | 'mul' | 'div';
const ALPHA = 0.3;
function runBinary(op: BinOp, out: TensorImpl, a: TensorImpl, b: TensorImpl): void {
  if (op === 'add') cpuImpls.add(out, a, b, 1);
  else if (op === 'sub') cpuImpls.add(out, a, b, -1);
  else if (op === 'addScaled') cpuImpls.add(out, a, b, ALPHA);
  else cpuImpls[op](out, a, b);
}
function refBinary(op: BinOp, dtype: DType, x: number, y: number): number {
  const r = op === 'add' ? x + y : op === 'sub' ? x - y : op === 'addScaled' ? x + fr(ALPHA) * y : op === 'mul' ? x * y : x / y;
  return dtype === 'float32' ? fr(r) : r;
}

/** Logical elements of a (possibly strided) tensor `t` of `sizes` at multi-index order. */
function values(t: TensorImpl): number[] {
  return read(t) as number[];
}

const OPS: BinOp[] = ['add', 'sub', 'addScaled', 'mul', 'div'];

describe('WebAssembly binary kernels', () => {
  it('run in Node', () => expect(wasm).not.toBeNull());

  for (const dtype of ['float32', 'float64'] as const) {
    it(`${dtype}: contiguous rows of every length 0..40, at odd offsets, exactly`, () => {
      const r = rng(1);
      // float64's add with alpha is the JS loop's emulated fused multiply-add (Note [Fused
      // multiply-add of add's alpha]): not a WebAssembly kernel.
      for (const op of dtype === 'float64' ? OPS.filter((o) => o !== 'addScaled') : OPS) {
        for (let n = 0; n <= 40; n++) {
          for (const off of [0, 1, 3]) {
            const av = Array.from({ length: n + off }, () => fr(r() * 10));
            const bv = Array.from({ length: n + off }, () => fr(r() * 10) || 1);
            const a = view(tensor(dtype, [n + off], av), [n], [1], off);
            const b = view(tensor(dtype, [n + off], bv), [n], [1], off);
            const out = empty(dtype, [n]);
            runBinary(op, out, a, b);
            const want = av.slice(off).map((x, i) => refBinary(op, dtype, x, bv[off + i]));
            expect(values(out), `${op} n=${n} off=${off}`).toEqual(want);
          }
        }
      }
    });

    it(`${dtype}: broadcast rows, scalars, transposed operands and outputs, exactly`, () => {
      const r = rng(2);
      for (const op of dtype === 'float64' ? OPS.filter((o) => o !== 'addScaled') : OPS) {
        for (const [rows, cols] of [[37, 133], [5, 3], [130, 17], [64, 200]]) {
          const av = Array.from({ length: rows * cols }, () => fr(r() * 10));
          const bv = Array.from({ length: rows * cols }, () => fr(r() * 10) || 1);
          const a = tensor(dtype, [rows, cols], av);
          const aT = view(tensor(dtype, [cols, rows], av), [rows, cols], [1, rows], 0); // element (i, j) = av[j * rows + i]
          const row = tensor(dtype, [cols], bv.slice(0, cols));
          const rowB = view(row, [rows, cols], [0, 1], 0);
          const colB = view(tensor(dtype, [rows], bv.slice(0, rows)), [rows, cols], [1, 0], 0);
          const scalar = view(tensor(dtype, [1], [bv[0]]), [rows, cols], [0, 0], 0);
          const bT = view(tensor(dtype, [cols, rows], bv), [rows, cols], [1, rows], 0);
          const A = (i: number, j: number): number => av[i * cols + j];
          const AT = (i: number, j: number): number => av[j * rows + i];
          const cases: [string, TensorImpl, TensorImpl, (i: number, j: number) => number, (i: number, j: number) => number][] = [
            ['row', a, rowB, A, (_i, j) => bv[j]],
            ['column', a, colB, A, (i) => bv[i]],
            ['scalar', a, scalar, A, () => bv[0]],
            ['scalar first', scalar, a, () => bv[0], A],
            ['a.T + b', aT, a, AT, A],
            ['a + b.T', a, bT, A, (i, j) => bv[j * rows + i]],
            ['a.T + b.T', aT, bT, AT, (i, j) => bv[j * rows + i]],
          ];
          for (const [name, x, y, fx, fy] of cases) {
            const want: number[] = [];
            for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) want.push(refBinary(op, dtype, fx(i, j), fy(i, j)));
            const out = empty(dtype, [rows, cols]);
            runBinary(op, out, x, y);
            expect(values(out), `${op} ${name} ${rows}x${cols}`).toEqual(want);
            // A transposed output (the layout PyTorch gives a.T + b.T).
            const outT = view(empty(dtype, [cols, rows]), [rows, cols], [1, rows], 0);
            runBinary(op, outT, x, y);
            expect(values(outT), `${op} ${name} ${rows}x${cols} into a transposed output`).toEqual(want);
          }
        }
      }
    });

    it(`${dtype}: storages outside the kernels' memory are staged`, () => {
      const r = rng(3);
      const av = Array.from({ length: 1001 }, () => fr(r()));
      const bv = Array.from({ length: 1001 }, () => fr(r()));
      const out = outsideHeap(dtype, new Array(1001).fill(0));
      cpuImpls.mul(out, outsideHeap(dtype, av), tensor(dtype, [1001], bv));
      expect(values(out)).toEqual(av.map((x, i) => refBinary('mul', dtype, x, bv[i])));
    });
  }

  it('IEEE special values: infinities, NaN, signed zeros, subnormals', () => {
    const sp = [0, -0, 1, -1, Infinity, -Infinity, NaN, 1e-45, -1e-45, 1.1754942e-38, 3.4028235e38, -3.4028235e38].map(fr);
    const av: number[] = [];
    const bv: number[] = [];
    for (const x of sp) for (const y of sp) av.push(x), bv.push(y);
    for (const op of OPS) {
      const out = empty('float32', [av.length]);
      runBinary(op, out, tensor('float32', [av.length], av), tensor('float32', [av.length], bv));
      expect(values(out).map((v) => Object.is(v, -0) ? '-0' : v), op).toEqual(av.map((x, i) => refBinary(op, 'float32', x, bv[i])).map((v) => Object.is(v, -0) ? '-0' : v));
    }
  });

  it('gives identical results on 1, 2 and 4 threads', async () => {
    const r = rng(4);
    const n = 300_001;
    const av = Array.from({ length: n }, () => r());
    const bv = Array.from({ length: n }, () => r());
    const a = tensor('float32', [n], av);
    const b = tensor('float32', [n], bv);
    const m = tensor('float32', [600, 500], av.slice(0, 300_000));
    const mT = view(m, [500, 600], [1, 500], 0);
    const results: number[][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      const out = empty('float32', [n]);
      cpuImpls.add(out, a, b, 1);
      const out2 = empty('float32', [500, 600]);
      cpuImpls.mul(out2, mT, view(b, [500, 600], [600, 1], 0));
      const out3 = empty('float32', [n]);
      cpuImpls.exp(out3, a);
      results.push([...values(out), ...values(out2), ...values(out3)]);
    }
    // Counted by hand: a deep equality of 900K numbers is slow on a loaded machine.
    const differ = (x: number[], y: number[]) => x.reduce((c, v, i) => (Object.is(v, y[i]) ? c : c + 1), x.length === y.length ? 0 : 1);
    expect(differ(results[1], results[0])).toBe(0);
    expect(differ(results[2], results[0])).toBe(0);
    expect(differ(results[0].slice(0, n), av.map((x, i) => fr(fr(x) + fr(bv[i]))))).toBe(0);
    setNumThreads(2);
  });
});

type UnaryCase = {
  readonly name: string;
  readonly run: (out: TensorImpl, a: TensorImpl) => void;
  readonly ref: (x: number) => number;
  /** Largest error allowed, in float32 ulps. */
  readonly ulps: number;
  /** Where the inputs of the random sweep lie. */
  readonly range: [number, number];
};

const GELU_BETA = Math.sqrt(2 / Math.PI);
const UNARY: UnaryCase[] = [
  { name: 'neg', run: cpuImpls.neg, ref: (x) => -x, ulps: 0, range: [-100, 100] },
  { name: 'abs', run: cpuImpls.abs, ref: Math.abs, ulps: 0, range: [-100, 100] },
  { name: 'relu', run: cpuImpls.relu, ref: (x) => (x < 0 ? 0 : x), ulps: 0, range: [-100, 100] },
  { name: 'sqrt', run: cpuImpls.sqrt, ref: Math.sqrt, ulps: 0, range: [0, 1e6] },
  { name: 'exp', run: cpuImpls.exp, ref: Math.exp, ulps: 1, range: [-104, 89] },
  { name: 'log', run: cpuImpls.log, ref: Math.log, ulps: 1, range: [0, 1e4] },
  // PyTorch's float32 formula: e^-x overflows below -88.72, and the result is then 0 (-0 for silu).
  { name: 'sigmoid', run: cpuImpls.sigmoid, ref: (x) => (x < -88.72284 ? 0 : 1 / (1 + Math.exp(-x))), ulps: 2, range: [-90, 90] },
  // silu(-inf) is -inf / inf: NaN, in PyTorch's formula too.
  { name: 'silu', run: (o, a) => cpuImpls.silu(o, a), ref: (x) => (x === -Infinity ? NaN : x < -88.72284 ? -0 : x / (1 + Math.exp(-x))), ulps: 2, range: [-90, 90] },
  { name: 'tanh', run: cpuImpls.tanh, ref: Math.tanh, ulps: 1, range: [-12, 12] },
  {
    name: 'gelu tanh',
    run: (o, a) => cpuImpls.gelu(o, a, 'tanh'),
    // 0.5 x (1 + tanh(y)) written as x / (1 + e^-2y), which does not cancel for negative y
    // (in float32 PyTorch's formula gives 0 below about -5.5; this is the exact value).
    ref: (x) => (x === -Infinity ? NaN : x / (1 + Math.exp(-2 * GELU_BETA * (x + 0.044715 * x * x * x)))),
    ulps: 1,
    range: [-12, 12],
  },
  // fdlibm's erf and erfc (Note [erf, erfc and erfinv in doubles]) are within an ulp in double.
  { name: 'erf', run: cpuImpls.erf, ref: erf, ulps: 1, range: [-5, 5] },
  {
    name: 'gelu',
    run: (o, a) => cpuImpls.gelu(o, a, 'none'),
    // x/2 erfc(-x / sqrt 2): the exact value, also in the negative tail where 1 + erf cancels.
    ref: (x) => (x === -Infinity ? NaN : 0.5 * x * erfc(-x * Math.SQRT1_2)),
    ulps: 1,
    range: [-14, 12],
  },
];

const EDGES = [
  0, -0, 1e-45, -1e-45, 1e-40, -1e-40, 1.1754942e-38, 1.17549435e-38, 2 ** -12, -(2 ** -12), 2 ** -13, 1e-7, 0.5, 1, -1, 2, Math.SQRT2,
  fr(Math.SQRT2), 0.7071067, 0.7071068, 3, 9, 9.1, 10, 11, 20, 87, 88.5, 88.72, 88.7228, 88.72284, 88.73, 89, 100, -87.3, -88.7, -88.73,
  -100, -103, -103.97, -104, -150, 1e30, -1e30, 3.4028235e38, -3.4028235e38, Infinity, -Infinity, NaN,
];

describe('WebAssembly unary float32 kernels', () => {
  for (const c of UNARY) {
    it(`${c.name}: within ${c.ulps} ulp of the float64 reference on edge cases and a dense sweep`, () => {
      const r = rng(7);
      const xs = EDGES.map(fr);
      for (let i = 0; i < 200_000; i++) xs.push(fr(c.range[0] + ((r() + 1) / 2) * (c.range[1] - c.range[0])));
      // Small magnitudes, down to the subnormals, of both signs.
      for (let i = 0; i < 20_000; i++) xs.push(fr((r() < 0 ? -1 : 1) * 2 ** (-149 + 150 * ((r() + 1) / 2))));
      const a = tensor('float32', [xs.length], xs);
      const out = empty('float32', [xs.length]);
      c.run(out, a);
      const got = values(out);
      const bad: string[] = [];
      let worst = 0;
      for (let i = 0; i < xs.length; i++) {
        const want = fr(c.ref(xs[i]));
        const e = ulps(got[i], want);
        worst = Math.max(worst, e);
        if (e > c.ulps && bad.length < 10) bad.push(`${c.name}(${xs[i]}) = ${got[i]}, want ${want} (${e} ulp)`);
      }
      expect(bad).toEqual([]);
      expect(worst).toBeLessThanOrEqual(c.ulps);
    });

    it(`${c.name}: tails of 1..7, offsets and transposed layouts give the contiguous results`, () => {
      const r = rng(8);
      const xs = Array.from({ length: 64 * 37 }, () => fr(r() * 5));
      const whole = empty('float32', [xs.length]);
      c.run(whole, tensor('float32', [xs.length], xs));
      const ref = values(whole);
      for (let n = 1; n <= 15; n++) {
        const out = empty('float32', [n]);
        c.run(out, view(tensor('float32', [xs.length], xs), [n], [1], 5));
        expect(values(out)).toEqual(ref.slice(5, 5 + n));
      }
      const t = tensor('float32', [64, 37], xs);
      const out = empty('float32', [37, 64]);
      c.run(out, view(t, [37, 64], [1, 37], 0));
      const want: number[] = [];
      for (let i = 0; i < 37; i++) for (let j = 0; j < 64; j++) want.push(ref[j * 37 + i]);
      expect(values(out)).toEqual(want);
    });
  }
});
