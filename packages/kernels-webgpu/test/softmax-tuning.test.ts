/**
 * Both shapes of the softmax kernels (Note [Kernel tuning per adapter]): the workgroup tree
 * (`barrierFree: false`, real GPUs) and the barrier-free row kernels (`barrierFree: true`,
 * software adapters; Note [WebGPU barrier-free softmax]), forced in turn on this adapter and
 * compared with a float64 reference of the CPU kernel's formulas (computed here in plain JS:
 * this package's tests have no CPU backend). Covers long rows (vec4), rows whose length is
 * not a multiple of 4, short rows, an inner dim (the 'vec4cols' and scalar layouts), dim 0,
 * non-contiguous inputs, views at offsets, a few very long rows (the tree even when
 * barrier-free), -inf / NaN / +inf rows, and the backward kernels.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { _softmaxBackwardData, logSoftmax, softmax, to, type Tensor } from '@torch-ts/core';
import { setKernelTuning } from '../src';
import { gpuTensor, readValues, webgpuReady } from './helpers';

function rand(n: number, lo: number, hi: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return Math.fround(lo + ((s >>> 8) / 16777216) * (hi - lo));
  });
}

/** `sizes` viewed as [outer, size, inner] around `dim`. */
function split(sizes: readonly number[], dim: number): [number, number, number] {
  const outer = sizes.slice(0, dim).reduce((a, b) => a * b, 1);
  const inner = sizes.slice(dim + 1).reduce((a, b) => a * b, 1);
  return [outer, sizes[dim], inner];
}

/** Softmax / log-softmax along `dim` of a contiguous `x` of shape `sizes`, in float64 (the CPU kernel's formulas). */
function ref(x: readonly number[], sizes: readonly number[], dim: number, log: boolean): number[] {
  const [outer, size, inner] = split(sizes, dim);
  const out = new Array<number>(x.length);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (j: number) => (o * size + j) * inner + i;
      let m = -Infinity;
      for (let j = 0; j < size; j++) m = Number.isNaN(x[at(j)]) || Number.isNaN(m) ? NaN : Math.max(m, x[at(j)]);
      if (m === -Infinity) m = 0;
      let s = 0;
      for (let j = 0; j < size; j++) s += Math.exp(x[at(j)] - m);
      for (let j = 0; j < size; j++) out[at(j)] = log ? x[at(j)] - m - Math.log(s) : Math.exp(x[at(j)] - m) / s;
    }
  }
  return out;
}

/** `_softmax_backward_data` in float64: y * (g - sum(g * y)), or g - exp(y) * sum(g) for log. */
function refBackward(g: readonly number[], y: readonly number[], sizes: readonly number[], dim: number, log: boolean): number[] {
  const [outer, size, inner] = split(sizes, dim);
  const out = new Array<number>(g.length);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (j: number) => (o * size + j) * inner + i;
      let a = 0;
      for (let j = 0; j < size; j++) a += log ? g[at(j)] : g[at(j)] * y[at(j)];
      for (let j = 0; j < size; j++) out[at(j)] = log ? g[at(j)] - Math.exp(y[at(j)]) * a : y[at(j)] * (g[at(j)] - a);
    }
  }
  return out;
}

function expectClose(got: readonly number[], want: readonly number[], rtol: number, atol: number): void {
  expect(got.length).toBe(want.length);
  const bad: string[] = [];
  for (let i = 0; i < want.length && bad.length < 5; i++) {
    const a = got[i];
    const b = want[i];
    const ok = Number.isNaN(b) ? Number.isNaN(a) : !Number.isFinite(b) ? a === b : Math.abs(a - b) <= atol + rtol * Math.abs(b);
    if (!ok) bad.push(`[${i}] got ${a}, want ${b}`);
  }
  expect(bad).toEqual([]);
}

interface Case {
  name: string;
  sizes: number[];
  dim: number;
  lo?: number;
  hi?: number;
  /** Edit the values (edge rows). */
  edit?: (x: number[]) => void;
  /** The tensor the op sees, from the uploaded contiguous one (a view); `values` its logical values. */
  view?: { make: (t: Tensor) => Tensor; values: (x: number[]) => number[]; sizes: number[] };
}

const CASES: Case[] = [
  { name: 'long rows [192, 4096] (vec4)', sizes: [192, 4096], dim: 1, lo: -20, hi: 20 },
  { name: 'long rows of odd length [40, 3001] (scalar)', sizes: [40, 3001], dim: 1, lo: -20, hi: 20 },
  { name: 'short rows [1000, 10]', sizes: [1000, 10], dim: 1 },
  { name: 'rows of 3 [333, 3]', sizes: [333, 3], dim: 1 },
  { name: 'dim 0 of [64, 96] (inner dim, vec4cols)', sizes: [64, 96], dim: 0 },
  { name: 'inner dim of [3, 50, 6] (scalar)', sizes: [3, 50, 6], dim: 1 },
  { name: 'dim 0 of a vector [777]', sizes: [777], dim: 0 },
  { name: 'a few very long rows [2, 40000] (tree even when barrier-free)', sizes: [2, 40000], dim: 1, lo: -10, hi: 10 },
  { name: 'long rows [5, 40000]', sizes: [5, 40000], dim: 1, lo: -10, hi: 10 },
  {
    name: '-inf, NaN and +inf rows [6, 8]',
    sizes: [6, 8],
    dim: 1,
    edit: (x) => {
      x[1] = -Infinity; // row 0: one -inf entry
      for (let j = 8; j < 16; j++) x[j] = -Infinity; // row 1: all -inf (NaN)
      x[19] = NaN; // row 2: NaN
      x[26] = Infinity; // row 3: +inf (NaN)
      x[33] = -Infinity; // row 4: -inf entries
      x[38] = -Infinity;
    },
  },
  {
    name: '-inf and NaN along dim 0 of [8, 12] (vec4cols)',
    sizes: [8, 12],
    dim: 0,
    edit: (x) => {
      for (let o = 0; o < 8; o++) x[o * 12 + 1] = -Infinity; // column 1: all -inf
      x[5 * 12 + 2] = NaN; // column 2: NaN
      x[3 * 12 + 3] = -Infinity; // column 3: one -inf
      x[6 * 12 + 4] = Infinity; // column 4: +inf
    },
  },
  {
    name: 'non-contiguous: a transposed [64, 40] along dim 1',
    sizes: [40, 64],
    dim: 1,
    view: {
      make: (t) => t.t(),
      values: (x) => Array.from({ length: 64 * 40 }, (_, k) => x[(k % 40) * 64 + Math.floor(k / 40)]),
      sizes: [64, 40],
    },
  },
  {
    name: 'a view at offset 1: rows of 8 (scalar)',
    sizes: [9 * 16 + 1],
    dim: 1,
    view: { make: (t) => t.narrow(0, 1, 9 * 16).view(9, 16), values: (x) => x.slice(1), sizes: [9, 16] },
  },
];

describe.skipIf(!webgpuReady)('WebGPU softmax: tree and barrier-free shapes', () => {
  afterAll(() => setKernelTuning({}));

  for (const barrierFree of [false, true]) {
    describe(`barrierFree ${barrierFree}`, () => {
      for (const c of CASES) {
        it(c.name, async () => {
          setKernelTuning({ barrierFree });
          const n = c.sizes.reduce((a, b) => a * b, 1);
          const x = rand(n, c.lo ?? -4, c.hi ?? 4, n);
          c.edit?.(x);
          const base = gpuTensor(x, 'float32', c.sizes);
          const t = c.view ? c.view.make(base) : base;
          const xs = c.view ? c.view.values(x) : x;
          const sizes = c.view ? c.view.sizes : c.sizes;
          const dim = c.dim;
          const want = ref(xs, sizes, dim, false);
          const wantLog = ref(xs, sizes, dim, true);
          const y = softmax(t, dim);
          const ly = logSoftmax(t, dim);
          expectClose(await readValues(y), want, 2e-5, 1e-7);
          expectClose(await readValues(ly), wantLog, 1e-5, 2e-5);
          // backward, from the kernels' own outputs (float32) and a random grad
          const ys = await readValues(y);
          const lys = await readValues(ly);
          const g = rand(xs.length, -1, 1, 99);
          const gt = gpuTensor(g, 'float32', sizes);
          expectClose(await readValues(_softmaxBackwardData(gt, y, dim, 'float32', false)), refBackward(g, ys, sizes, dim, false), 1e-4, 1e-6);
          expectClose(await readValues(_softmaxBackwardData(gt, ly, dim, 'float32', true)), refBackward(g, lys, sizes, dim, true), 1e-4, 2e-5);
        });
      }

      for (const dtype of ['float16', 'bfloat16'] as const) {
        it(`${dtype} input (widened by core, rounded on store)`, async () => {
          setKernelTuning({ barrierFree });
          const t = to(gpuTensor(rand(48 * 20, -4, 4, 5), 'float32', [48, 20]), dtype);
          const xh = await readValues(to(t, 'float32')); // the 16-bit values
          const f32 = async (r: Tensor) => readValues(to(r, 'float32'));
          // results are rounded to 16 bits: half an ulp is 2^-11 (float16), 2^-8 (bfloat16) relative
          const rtol = dtype === 'float16' ? 1e-3 : 8e-3;
          expectClose(await f32(softmax(t, 1)), ref(xh, [48, 20], 1, false), rtol, 1e-6);
          expectClose(await f32(logSoftmax(t, 0)), ref(xh, [48, 20], 0, true), rtol, 1e-3);
        });
      }
    });
  }
});
