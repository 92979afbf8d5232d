import { CPU, StorageImpl, Tensor, TensorImpl, VersionCounter, conv2d, type Conv2dGeometry, type DType } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CpuAllocator, cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { conv2dNhwc } from '../src/kernels/conv2d';
import { empty, read, releaseCreated, rng, tensor, view, write } from './helpers';
import { geometry, type Case } from './conv-cases';

// Note [Channels-last convolution as an implicit GEMM] against a plain float64 loop: strides,
// padding, dilation, groups, odd sizes and channel counts that are not multiples of 4, batch
// 1, a K over one KC block, bias; the same bits on 1, 2 and 3 threads; the declined shapes;
// and through core, a channels-last conv2d equal to the contiguous one with the same strides.

afterEach(releaseCreated);


/** Storage outside the kernels' memory (the kernel then runs on staged copies). */
let outside = false;

/** A contiguous tensor of `sizes` in the kernels' memory, or outside it while `outside` is set. */
function base(dtype: DType, sizes: number[]): TensorImpl {
  if (!outside) return empty(dtype, sizes);
  const alloc = new CpuAllocator(null);
  const bytes = sizes.reduce((a, b) => a * b, 1) * (dtype === 'float64' ? 8 : 4);
  const storage = new StorageImpl(bytes, CPU, alloc.allocate(bytes, CPU), alloc);
  const strides = sizes.map((_, d) => sizes.slice(d + 1).reduce((a, b) => a * b, 1));
  const t = new TensorImpl(storage, sizes, strides, 0, dtype, CPU, new VersionCounter());
  storage.release();
  const v = view(t, sizes, strides, 0);
  t.release();
  return v;
}

/** An [N, C, H, W] tensor stored channels-last ([N, H, W, C] in memory) holding `v` (NCHW order). */
function nhwc(dtype: DType, [N, C, H, W]: number[], v: number[] | null): TensorImpl {
  const t = view(base(dtype, [N, H, W, C]), [N, C, H, W], [H * W * C, 1, W * C, C], 0);
  if (v !== null) write(t, v);
  return t;
}

/** out (NCHW order) in float64, and the sum of |terms| per element for the rounding bound. */
function reference(c: Case, g: Conv2dGeometry, x: number[], w: number[], bias: number[] | null): { value: number[]; abs: number[] } {
  const G = c.groups ?? 1, cig = c.C / G, cog = c.Cout / G;
  const len = c.N * c.Cout * g.outH * g.outW;
  const value = new Array<number>(len).fill(0), abs = new Array<number>(len).fill(0);
  for (let n = 0, at = 0; n < c.N; n++)
    for (let o = 0; o < c.Cout; o++)
      for (let oh = 0; oh < g.outH; oh++)
        for (let ow = 0; ow < g.outW; ow++, at++) {
          let s = bias ? bias[o] : 0, a = Math.abs(s);
          for (let ci = 0; ci < cig; ci++)
            for (let i = 0; i < g.kernelH; i++)
              for (let j = 0; j < g.kernelW; j++) {
                const ih = oh * g.strideH - g.padH + i * g.dilationH, iw = ow * g.strideW - g.padW + j * g.dilationW;
                if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
                const t = x[((n * c.C + Math.floor(o / cog) * cig + ci) * c.H + ih) * c.W + iw] * w[((o * cig + ci) * g.kernelH + i) * g.kernelW + j];
                s += t;
                a += Math.abs(t);
              }
          value[at] = s;
          abs[at] = a;
        }
  return { value, abs };
}

function values(n: number, r: () => number): number[] {
  return Array.from({ length: n }, r);
}

const numel = (s: number[]) => s.reduce((a, b) => a * b, 1);

/** Runs the channels-last kernel (or, `impl`, the impl with its shape heuristic) on `c`; its output (NCHW order), or null where it declined. */
function runNhwc(dtype: DType, c: Case, seed: number, impl = false): { got: number[]; ref: { value: number[]; abs: number[] }; K: number } | null {
  const g = geometry(c);
  const G = c.groups ?? 1;
  const xs = [c.N, c.C, c.H, c.W], ws = [c.Cout, c.C / G, ...c.k], ys = [c.N, c.Cout, g.outH, g.outW];
  const r = rng(seed);
  const xv = values(numel(xs), r), wv = values(numel(ws), r), bv = c.bias ? values(c.Cout, r) : null;
  const out = nhwc(dtype, ys, new Array<number>(numel(ys)).fill(7));
  const ok = (impl ? cpuImpls.conv2dChannelsLast : conv2dNhwc)(out, nhwc(dtype, xs, xv), tensor(dtype, ws, wv), g, G, bv ? tensor(dtype, [c.Cout], bv) : null);
  if (ok === false) return null;
  return { got: read(out) as number[], ref: reference(c, g, xv, wv, bv), K: (c.C / G) * c.k[0] * c.k[1] };
}

function expectClose(dtype: DType, got: readonly number[], ref: { value: number[]; abs: number[] }, terms: number): void {
  const u = dtype === 'float32' ? 2 ** -24 : 2 ** -53;
  const bad = got.flatMap((v, i) => (Math.abs(v - ref.value[i]) <= 2 * (terms + 1) * u * ref.abs[i] + 1e-30 ? [] : [`[${i}] ${v} vs ${ref.value[i]}`]));
  expect(bad.slice(0, 5)).toEqual([]);
}

const CASES: Case[] = [
  // the bench's 3x3 shape, small: K = 576 spans three KC blocks
  { N: 2, C: 64, H: 7, W: 6, Cout: 64, k: [3, 3], pad: [1, 1], bias: true },
  // batch 1, odd sizes, channel counts not multiples of 4 (tails of the SIMD interleave and edge tiles)
  { N: 1, C: 9, H: 5, W: 7, Cout: 13, k: [3, 3], pad: [1, 1] },
  { N: 3, C: 11, H: 9, W: 8, Cout: 10, k: [3, 2], stride: [2, 1], pad: [1, 2], dil: [2, 1], bias: true },
  { N: 2, C: 16, H: 10, W: 11, Cout: 12, k: [2, 3], stride: [2, 3], pad: [0, 1], dil: [1, 2] },
  // pointwise (one GEMM), and strided 1x1 with padding
  { N: 2, C: 24, H: 7, W: 5, Cout: 36, k: [1, 1], bias: true },
  { N: 1, C: 8, H: 6, W: 5, Cout: 8, k: [1, 1], stride: [2, 2], pad: [1, 0] },
  // groups: each group's outputs are columns of the NHWC rows
  { N: 2, C: 32, H: 6, W: 7, Cout: 24, k: [3, 3], pad: [1, 1], groups: 2, bias: true },
  { N: 1, C: 30, H: 5, W: 5, Cout: 27, k: [3, 3], pad: [2, 2], dil: [2, 2], groups: 3 },
  // a kernel larger than the padded image on one side (outW = 1), and more positions than one block
  { N: 1, C: 8, H: 4, W: 3, Cout: 9, k: [2, 3] },
  { N: 3, C: 8, H: 13, W: 12, Cout: 8, k: [3, 3], pad: [1, 1], bias: true },
];

describe('CPU channels-last convolution', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    it(`${dtype}: matches a plain loop`, () => {
      CASES.forEach((c, i) => {
        const r = runNhwc(dtype, c, 100 + i);
        expect(r, JSON.stringify(c)).not.toBeNull();
        expectClose(dtype, r!.got, r!.ref, r!.K + 1);
      });
    });
  }

  it('stages operands that live outside the kernels\' memory', () => {
    outside = true;
    try {
      for (const dtype of ['float32', 'float64'] as const) {
        const r = runNhwc(dtype, CASES[6], 7);
        expectClose(dtype, r!.got, r!.ref, r!.K + 1);
      }
    } finally {
      outside = false;
    }
  });

  it('declines shapes the contiguous kernel does better (Note [CPU channels-last convolution]), and other dtypes', () => {
    // depthwise (one input channel per group), few output channels per group, a small GEMM
    expect(runNhwc('float32', { N: 1, C: 16, H: 6, W: 6, Cout: 16, k: [3, 3], pad: [1, 1], groups: 16 }, 1, true)).toBeNull();
    expect(runNhwc('float32', { N: 1, C: 16, H: 6, W: 6, Cout: 4, k: [3, 3] }, 2, true)).toBeNull();
    expect(runNhwc('float32', { N: 1, C: 8, H: 6, W: 6, Cout: 8, k: [3, 3] }, 3, true)).toBeNull();
    // and runs the bench's shape family
    const big = runNhwc('float32', { N: 1, C: 64, H: 4, W: 5, Cout: 64, k: [3, 3], pad: [1, 1] }, 4, true);
    expect(big).not.toBeNull();
    expectClose('float32', big!.got, big!.ref, big!.K + 1);
    const c: Case = { N: 1, C: 8, H: 3, W: 3, Cout: 8, k: [1, 1] };
    const out = nhwc('int32', [1, 8, 3, 3], null);
    expect(conv2dNhwc(out, nhwc('int32', [1, 8, 3, 3], null), tensor('int32', [8, 8, 1, 1], new Array<number>(64).fill(1)), geometry(c), 1, null)).toBe(false);
  });

  it('gives identical results on 1, 2 and 3 threads', async () => {
    const c: Case = { N: 3, C: 16, H: 17, W: 19, Cout: 20, k: [3, 3], pad: [1, 1], bias: true };
    const results: number[][] = [];
    for (const threads of [1, 2, 3]) {
      setNumThreads(threads);
      await threadsReady();
      results.push(runNhwc('float32', c, 9)!.got);
    }
    setNumThreads(2);
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it('through core: a channels-last conv2d keeps its strides and equals the contiguous one', () => {
    const c: Case = { N: 2, C: 16, H: 9, W: 7, Cout: 16, k: [3, 3], stride: [2, 1], pad: [1, 1], bias: true };
    const g = geometry(c);
    const r = rng(5);
    const xs = [c.N, c.C, c.H, c.W];
    const xv = values(numel(xs), r);
    const w = tensor('float32', [c.Cout, c.C, 3, 3], values(c.Cout * c.C * 9, r));
    const b = tensor('float32', [c.Cout], values(c.Cout, r));
    const ref = reference(c, g, xv, read(w) as number[], read(b) as number[]);
    const opts = { stride: [2, 1], padding: 1 };
    const yl = conv2d(new Tensor(nhwc('float32', xs, xv).retain()), new Tensor(w.retain()), new Tensor(b.retain()), opts);
    const yc = conv2d(new Tensor(tensor('float32', xs, xv).retain()), new Tensor(w.retain()), new Tensor(b.retain()), opts);
    const [, , oh, ow] = yl.impl.sizes;
    expect(yl.impl.strides).toEqual([oh * ow * c.Cout, 1, ow * c.Cout, c.Cout]);
    expect(yc.impl.isContiguous).toBe(true);
    expectClose('float32', read(yl.impl) as number[], ref, c.C * 9 + 1);
    expectClose('float32', read(yc.impl) as number[], ref, c.C * 9 + 1);
    // a channels-last weight too (core hands the kernel a contiguous copy of it)
    const wl = nhwc('float32', [c.Cout, c.C, 3, 3], read(w) as number[]);
    const yw = conv2d(new Tensor(nhwc('float32', xs, xv).retain()), new Tensor(wl.retain()), new Tensor(b.retain()), opts);
    expect(yw.impl.strides).toEqual(yl.impl.strides);
    expect(read(yw.impl)).toEqual(read(yl.impl));
    for (const y of [yl, yc, yw]) y.dispose();
  });
});
