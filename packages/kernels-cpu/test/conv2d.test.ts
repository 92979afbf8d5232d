import { CPU, StorageImpl, Tensor, TensorImpl, VersionCounter, conv2d, convolutionBackward, type Conv2dGeometry, type DType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuAllocator, cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { empty, read, releaseCreated, tensor, view, write, rng } from './helpers';
import { geometry, type Case } from './conv-cases';

// Note [CPU direct convolution] against plain float64 loops: forward (bias fused), grad
// input and grad weight, over strides, padding, dilation, groups, odd sizes, windows that
// split output rows, operands outside the kernels' memory, and 1, 2, 4 threads.

afterEach(releaseCreated);



/**
 * Visits every term of the convolution: (output index, input index, weight index). The three
 * products are sums of these terms: forward into out, grad input into x, grad weight into w.
 */
function forEachTerm(c: Case, g: Conv2dGeometry, f: (o: number, xi: number, wi: number) => void): void {
  const G = c.groups ?? 1;
  const cig = c.C / G;
  const cog = c.Cout / G;
  for (let n = 0; n < c.N; n++)
    for (let o = 0; o < c.Cout; o++)
      for (let oh = 0; oh < g.outH; oh++)
        for (let ow = 0; ow < g.outW; ow++)
          for (let ci = 0; ci < cig; ci++)
            for (let i = 0; i < g.kernelH; i++)
              for (let j = 0; j < g.kernelW; j++) {
                const ih = oh * g.strideH - g.padH + i * g.dilationH;
                const iw = ow * g.strideW - g.padW + j * g.dilationW;
                if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
                const ch = Math.floor(o / cog) * cig + ci;
                f(((n * c.Cout + o) * g.outH + oh) * g.outW + ow, ((n * c.C + ch) * c.H + ih) * c.W + iw, ((o * cig + ci) * g.kernelH + i) * g.kernelW + j);
              }
}

interface Ref {
  value: number[];
  /** Sum of |term| per element, for the rounding bound. */
  abs: number[];
}

function reference(c: Case, g: Conv2dGeometry, which: 'out' | 'x' | 'w', x: number[], w: number[], y: number[], bias: number[] | null): Ref {
  const len = which === 'out' ? y.length : which === 'x' ? x.length : w.length;
  const value = new Array<number>(len).fill(0);
  const abs = new Array<number>(len).fill(0);
  forEachTerm(c, g, (o, xi, wi) => {
    const [at, t] = which === 'out' ? [o, x[xi] * w[wi]] : which === 'x' ? [xi, y[o] * w[wi]] : [wi, y[o] * x[xi]];
    value[at] += t;
    abs[at] += Math.abs(t);
  });
  if (bias) {
    const L = g.outH * g.outW;
    for (let i = 0; i < len; i++) {
      const b = bias[Math.floor(i / L) % c.Cout];
      value[i] += b;
      abs[i] += Math.abs(b);
    }
  }
  return { value, abs };
}

function expectClose(dtype: DType, got: readonly number[], ref: Ref, terms: number): void {
  const u = dtype === 'float32' ? 2 ** -24 : 2 ** -53;
  const bad = got.flatMap((v, i) => (Math.abs(v - ref.value[i]) <= 2 * (terms + 1) * u * ref.abs[i] + 1e-30 ? [] : [`[${i}] ${v} vs ${ref.value[i]}`]));
  expect(bad.slice(0, 5)).toEqual([]);
}

interface Operands {
  x: TensorImpl;
  w: TensorImpl;
  y: TensorImpl;
  b: TensorImpl | null;
}

function sizesOf(c: Case, g: Conv2dGeometry): { x: number[]; w: number[]; y: number[] } {
  return { x: [c.N, c.C, c.H, c.W], w: [c.Cout, c.C / (c.groups ?? 1), ...c.k], y: [c.N, c.Cout, g.outH, g.outW] };
}

function values(sizes: number[], r: () => number): number[] {
  return Array.from({ length: sizes.reduce((a, b) => a * b, 1) }, r);
}

/** Runs the three impls on `make`'s tensors and checks each against the reference. */
function check(dtype: DType, c: Case, make: (dtype: DType, sizes: number[], v: number[]) => TensorImpl = (d, s, v) => tensor(d, s, v)): void {
  const g = geometry(c);
  const s = sizesOf(c, g);
  const r = rng(c.N * 1000 + c.C * 100 + c.H);
  const ops: Operands = {
    x: make(dtype, s.x, values(s.x, r)),
    w: make(dtype, s.w, values(s.w, r)),
    y: make(dtype, s.y, values(s.y, r)),
    b: c.bias ? make(dtype, [c.Cout], values([c.Cout], r)) : null,
  };
  const x = read(ops.x) as number[];
  const w = read(ops.w) as number[];
  const y = read(ops.y) as number[];
  const bias = ops.b ? (read(ops.b) as number[]) : null;
  const G = c.groups ?? 1;
  const K = (c.C / G) * c.k[0] * c.k[1];
  const out = make(dtype, s.y, new Array<number>(y.length).fill(7));
  expect(cpuImpls.conv2d(out, ops.x, ops.w, g, G, ops.b)).toBe(true);
  expectClose(dtype, read(out) as number[], reference(c, g, 'out', x, w, y, bias), K + 1);
  const gx = make(dtype, s.x, new Array<number>(x.length).fill(7));
  expect(cpuImpls.conv2dInputGrad(gx, ops.y, ops.w, g, G)).toBe(true);
  expectClose(dtype, read(gx) as number[], reference(c, g, 'x', x, w, y, null), (c.Cout / G) * c.k[0] * c.k[1]);
  const gw = make(dtype, s.w, new Array<number>(w.length).fill(7));
  expect(cpuImpls.conv2dWeightGrad(gw, ops.y, ops.x, g, G)).toBe(true);
  expectClose(dtype, read(gw) as number[], reference(c, g, 'w', x, w, y, null), c.N * g.outH * g.outW);
}

const CASES: Case[] = [
  { N: 2, C: 3, H: 7, W: 9, Cout: 5, k: [3, 3], pad: [1, 1], bias: true },
  { N: 1, C: 4, H: 8, W: 8, Cout: 6, k: [3, 3], stride: [2, 2] },
  { N: 3, C: 2, H: 11, W: 6, Cout: 4, k: [2, 3], stride: [2, 1], pad: [1, 2], dil: [2, 1], bias: true },
  { N: 2, C: 6, H: 9, W: 10, Cout: 4, k: [3, 2], pad: [0, 1], dil: [2, 3], groups: 2, bias: true },
  { N: 2, C: 5, H: 6, W: 7, Cout: 5, k: [3, 3], pad: [1, 1], groups: 5, bias: true },
  // one input channel per group: the direct forward (a channel multiplier of 2, strides, dilation; SIMD body and tail)
  { N: 2, C: 4, H: 9, W: 11, Cout: 8, k: [3, 2], stride: [2, 3], pad: [1, 1], dil: [1, 2], groups: 4, bias: true },
  { N: 1, C: 3, H: 5, W: 23, Cout: 3, k: [3, 3], pad: [1, 2], groups: 3, bias: true },
  { N: 2, C: 7, H: 5, W: 6, Cout: 13, k: [1, 1], bias: true },
  { N: 2, C: 4, H: 6, W: 5, Cout: 3, k: [1, 1], stride: [2, 2], pad: [1, 0] },
  { N: 1, C: 1, H: 4, W: 3, Cout: 1, k: [4, 3] },
  // the grad input has pixels no window reaches (stride 2 over an even size)
  { N: 2, C: 3, H: 8, W: 10, Cout: 2, k: [3, 3], stride: [2, 3] },
  // several windows per image, splitting output rows (K = 576: 108 positions a window)
  { N: 2, C: 64, H: 15, W: 13, Cout: 7, k: [3, 3], pad: [1, 1], bias: true },
];

describe('CPU direct convolution', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    it(`${dtype}: forward, grad input and grad weight match plain loops`, () => {
      for (const c of CASES) check(dtype, c);
    });
  }

  it('stages operands that live outside the kernels\' memory', () => {
    const made: TensorImpl[] = [];
    const outside = (dtype: DType, sizes: number[], v: number[]): TensorImpl => {
      const alloc = new CpuAllocator(null);
      const bytes = v.length * (dtype === 'float64' ? 8 : 4);
      const storage = new StorageImpl(bytes, CPU, alloc.allocate(bytes, CPU), alloc);
      const strides = sizes.map((_, d) => sizes.slice(d + 1).reduce((a, b) => a * b, 1));
      const t = new TensorImpl(storage, sizes, strides, 0, dtype, CPU, new VersionCounter());
      storage.release();
      made.push(t);
      return write(t, v);
    };
    for (const dtype of ['float32', 'float64'] as const) check(dtype, CASES[3], outside);
    for (const t of made) t.release();
  });

  it('declines integer dtypes (core takes im2col + mm)', () => {
    const c: Case = { N: 1, C: 1, H: 3, W: 3, Cout: 1, k: [2, 2] };
    const g = geometry(c);
    const out = empty('int32', [1, 1, 2, 2]);
    expect(cpuImpls.conv2d(out, tensor('int32', [1, 1, 3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]), tensor('int32', [1, 1, 2, 2], [1, 0, 0, 1]), g, 1, null)).toBe(false);
  });

  for (const c of [
    { N: 3, C: 16, H: 23, W: 21, Cout: 24, k: [3, 3], pad: [1, 1], groups: 2, bias: true },
    { N: 4, C: 32, H: 48, W: 47, Cout: 32, k: [3, 3], pad: [1, 1], groups: 32, bias: true },
  ] as Case[]) it(`gives identical results on 1, 2 and 4 threads (groups ${c.groups})`, async () => {
    const g = geometry(c);
    const s = sizesOf(c, g);
    const r = rng(17);
    const x = tensor('float32', s.x, values(s.x, r));
    const w = tensor('float32', s.w, values(s.w, r));
    const y = tensor('float32', s.y, values(s.y, r));
    const b = tensor('float32', [c.Cout], values([c.Cout], r));
    const results: number[][][] = [];
    for (const threads of [1, 2, 4]) {
      setNumThreads(threads);
      await threadsReady();
      const out = empty('float32', s.y);
      const gx = empty('float32', s.x);
      const gw = empty('float32', s.w);
      cpuImpls.conv2d(out, x, w, g, c.groups!, b);
      cpuImpls.conv2dInputGrad(gx, y, w, g, c.groups!);
      cpuImpls.conv2dWeightGrad(gw, y, x, g, c.groups!);
      results.push([read(out) as number[], read(gx) as number[], read(gw) as number[]]);
    }
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    setNumThreads(2);
  });

  it('through core: channels-last and batch-sliced inputs, and the backward', () => {
    const c: Case = { N: 2, C: 3, H: 6, W: 5, Cout: 4, k: [3, 3], pad: [1, 1], bias: true };
    const g = geometry(c);
    const s = sizesOf(c, g);
    const r = rng(23);
    const xv = read(tensor('float32', s.x, values(s.x, r))) as number[];
    const w = tensor('float32', s.w, values(s.w, r));
    const b = tensor('float32', [c.Cout], values([c.Cout], r));
    const ref = reference(c, g, 'out', xv, read(w) as number[], new Array<number>(c.N * c.Cout * g.outH * g.outW).fill(0), read(b) as number[]);
    // channels-last: stored [N, H, W, C]
    const nhwc = tensor('float32', [c.N, c.H, c.W, c.C], []);
    const xl = view(nhwc, s.x, [c.H * c.W * c.C, 1, c.W * c.C, c.C], 0);
    write(xl, xv);
    // a batch slice: elements 1 and 2 of a batch of 3
    const big = tensor('float32', [3, c.C, c.H, c.W], []);
    const xs = view(big, s.x, [c.C * c.H * c.W, c.H * c.W, c.W, 1], c.C * c.H * c.W);
    write(xs, xv);
    for (const xi of [xl, xs]) {
      const y = conv2d(new Tensor(xi.retain()), new Tensor(w.retain()), new Tensor(b.retain()), { padding: 1 });
      expectClose('float32', read(y.impl) as number[], ref, 28);
      const gy = new Tensor(tensor('float32', s.y, new Array<number>(ref.value.length).fill(1)).retain());
      const [gx, gw] = convolutionBackward(gy, new Tensor(xi.retain()), new Tensor(w.retain()), [c.Cout], [1, 1], [1, 1], [1, 1], false, [0, 0], 1, [true, true, false]);
      const ones = new Array<number>(ref.value.length).fill(1);
      expectClose('float32', read(gx!.impl) as number[], reference(c, g, 'x', xv, read(w) as number[], ones, null), 36);
      expectClose('float32', read(gw!.impl) as number[], reference(c, g, 'w', xv, read(w) as number[], ones, null), 60);
      for (const t of [y, gy, gx, gw]) t?.dispose();
    }
  });
});
