import type { Conv2dGeometry, DType, TensorImpl } from '@torch-ts/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuImpls, setNumThreads, threadsReady } from '../src/index';
import { conv2dNhwcInputGrad, conv2dNhwcWeightGrad } from '../src/kernels/conv2d';
import { empty, read, releaseCreated, rng, tensor, view, write } from './helpers';
import { geometry, type Case } from './conv-cases';

// Note [CPU channels-last convolution gradients] against plain float64 loops: strides,
// padding, dilation, groups, odd sizes, channel counts that are not multiples of 4, batch 1;
// the same bits on 1, 2 and 3 threads; the declined shapes.

afterEach(releaseCreated);

/** An [N, C, H, W] tensor stored channels-last holding `v` (NCHW order), or uninitialised (filled with 7). */
function nhwc(dtype: DType, [N, C, H, W]: number[], v: number[] | null): TensorImpl {
  const t = view(empty(dtype, [N, H, W, C]), [N, C, H, W], [H * W * C, 1, W * C, C], 0);
  write(t, v ?? new Array<number>(N * C * H * W).fill(7));
  return t;
}

const numel = (s: number[]) => s.reduce((a, b) => a * b, 1);

/** grad_input and grad_weight (NCHW order) in float64 with the sums of |terms| per element. */
function reference(c: Case, g: Conv2dGeometry, x: number[], w: number[], gy: number[]) {
  const G = c.groups ?? 1, cig = c.C / G, cog = c.Cout / G, kH = g.kernelH, kW = g.kernelW;
  const gi = new Array<number>(numel([c.N, c.C, c.H, c.W])).fill(0), giAbs = gi.slice();
  const gw = new Array<number>(c.Cout * cig * kH * kW).fill(0), gwAbs = gw.slice();
  for (let n = 0; n < c.N; n++)
    for (let o = 0; o < c.Cout; o++)
      for (let oh = 0; oh < g.outH; oh++)
        for (let ow = 0; ow < g.outW; ow++) {
          const dy = gy[((n * c.Cout + o) * g.outH + oh) * g.outW + ow];
          for (let ci = 0; ci < cig; ci++)
            for (let i = 0; i < kH; i++)
              for (let j = 0; j < kW; j++) {
                const ih = oh * g.strideH - g.padH + i * g.dilationH, iw = ow * g.strideW - g.padW + j * g.dilationW;
                if (ih < 0 || ih >= c.H || iw < 0 || iw >= c.W) continue;
                const xi = ((n * c.C + Math.floor(o / cog) * cig + ci) * c.H + ih) * c.W + iw;
                const wi = ((o * cig + ci) * kH + i) * kW + j;
                gi[xi] += dy * w[wi];
                giAbs[xi] += Math.abs(dy * w[wi]);
                gw[wi] += dy * x[xi];
                gwAbs[wi] += Math.abs(dy * x[xi]);
              }
        }
  return { gi: { value: gi, abs: giAbs }, gw: { value: gw, abs: gwAbs } };
}

interface Run {
  gi: number[] | null;
  gw: number[] | null;
  ref: ReturnType<typeof reference>;
  terms: { gi: number; gw: number };
}

/** Runs both gradient kernels (or, `impl`, the impls with their heuristics) on `c`; null for a declined one. */
function runGrads(dtype: DType, c: Case, seed: number, impl = false): Run {
  const g = geometry(c);
  const G = c.groups ?? 1;
  const xs = [c.N, c.C, c.H, c.W], ws = [c.Cout, c.C / G, ...c.k], ys = [c.N, c.Cout, g.outH, g.outW];
  const r = rng(seed);
  const xv = Array.from({ length: numel(xs) }, r), wv = Array.from({ length: numel(ws) }, r), yv = Array.from({ length: numel(ys) }, r);
  const gi = nhwc(dtype, xs, null);
  const gw = tensor(dtype, ws, new Array<number>(numel(ws)).fill(7));
  const fi = impl ? cpuImpls.conv2dChannelsLastInputGrad : conv2dNhwcInputGrad;
  const fw = impl ? cpuImpls.conv2dChannelsLastWeightGrad : conv2dNhwcWeightGrad;
  if (typeof fi !== 'function' || typeof fw !== 'function') throw new Error('missing impl');
  const okI = fi(gi, nhwc(dtype, ys, yv), tensor(dtype, ws, wv), g, G);
  const okW = fw(gw, nhwc(dtype, ys, yv), nhwc(dtype, xs, xv), g, G);
  // per output element: input grad sums cog * taps terms, weight grad N * outH * outW
  const terms = { gi: (c.Cout / G) * c.k[0] * c.k[1], gw: c.N * g.outH * g.outW };
  return { gi: okI === false ? null : (read(gi) as number[]), gw: okW === false ? null : (read(gw) as number[]), ref: reference(c, g, xv, wv, yv), terms };
}

function expectClose(dtype: DType, got: readonly number[], ref: { value: number[]; abs: number[] }, terms: number, what: string): void {
  const u = dtype === 'float32' ? 2 ** -24 : 2 ** -53;
  const bad = got.flatMap((v, i) => (Math.abs(v - ref.value[i]) <= 2 * (terms + 1) * u * ref.abs[i] + 1e-30 ? [] : [`[${i}] ${v} vs ${ref.value[i]}`]));
  expect(bad.slice(0, 5), what).toEqual([]);
}

const CASES: Case[] = [
  // the bench's 3x3 shape, small: K = 576 spans several gw column blocks, P over one block
  { N: 2, C: 64, H: 7, W: 6, Cout: 64, k: [3, 3], pad: [1, 1] },
  { N: 3, C: 8, H: 13, W: 12, Cout: 8, k: [3, 3], pad: [1, 1] },
  // batch 1, odd sizes, channel counts not multiples of 4
  { N: 1, C: 9, H: 5, W: 7, Cout: 13, k: [3, 3], pad: [1, 1] },
  { N: 2, C: 11, H: 9, W: 8, Cout: 10, k: [3, 2], pad: [1, 0], dil: [2, 1] },
  // strided (Note [Channels-last strided convolution input gradient]), with dilation; the
  // bench's 3x3 stride 2 shape, small; 5x5 stride 2 over odd sizes; groups with stride 3
  { N: 3, C: 11, H: 9, W: 8, Cout: 10, k: [3, 2], stride: [2, 1], pad: [1, 2], dil: [2, 1] },
  { N: 2, C: 64, H: 9, W: 7, Cout: 64, k: [3, 3], stride: [2, 2], pad: [1, 1] },
  { N: 2, C: 12, H: 11, W: 13, Cout: 20, k: [5, 5], stride: [2, 2], pad: [2, 2] },
  { N: 1, C: 24, H: 10, W: 11, Cout: 18, k: [3, 3], stride: [3, 2], pad: [1, 1], groups: 3 },
  // pointwise, and strided 1x1 with padding
  { N: 2, C: 24, H: 7, W: 5, Cout: 36, k: [1, 1] },
  { N: 1, C: 8, H: 6, W: 5, Cout: 8, k: [1, 1], stride: [2, 2], pad: [1, 0] },
  // groups
  { N: 2, C: 32, H: 6, W: 7, Cout: 24, k: [3, 3], pad: [1, 1], groups: 2 },
  { N: 1, C: 30, H: 5, W: 5, Cout: 27, k: [3, 3], pad: [2, 2], dil: [2, 2], groups: 3 },
  // more output channels per group than the weight gradient packs at a time (192), and
  // positions over several blocks of 256 with windows at every border
  { N: 1, C: 8, H: 5, W: 6, Cout: 200, k: [3, 3], pad: [1, 1] },
  { N: 2, C: 12, H: 17, W: 15, Cout: 16, k: [5, 5], pad: [2, 2] },
  // a kernel larger than the padded image on one side (outW = 1); padding over d (k - 1) (the strided path)
  { N: 1, C: 8, H: 4, W: 3, Cout: 9, k: [2, 3] },
  { N: 1, C: 5, H: 4, W: 4, Cout: 6, k: [1, 1], pad: [1, 1] },
];

describe('CPU channels-last convolution gradients', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    it(`${dtype}: match plain loops (strided input gradients and paddings over d (k - 1) included)`, () => {
      CASES.forEach((c, i) => {
        const r = runGrads(dtype, c, 200 + i);
        const what = JSON.stringify(c);
        expect(r.gw, what).not.toBeNull();
        expectClose(dtype, r.gw!, r.ref.gw, r.terms.gw, `gw ${what}`);
        expect(r.gi, what).not.toBeNull();
        expectClose(dtype, r.gi!, r.ref.gi, r.terms.gi, `gi ${what}`);
      });
    });
  }

  it('the impls decline small GEMMs and other dtypes (Note [CPU channels-last convolution])', () => {
    // depthwise, few output channels per group, a small GEMM: both decline
    for (const c of [
      { N: 1, C: 16, H: 6, W: 6, Cout: 16, k: [3, 3], pad: [1, 1], groups: 16 },
      { N: 1, C: 16, H: 6, W: 6, Cout: 4, k: [3, 3], pad: [1, 1] },
      { N: 1, C: 8, H: 6, W: 6, Cout: 8, k: [3, 3], pad: [1, 1] },
    ] as Case[]) {
      const r = runGrads('float32', c, 3, true);
      expect([r.gi, r.gw], JSON.stringify(c)).toEqual([null, null]);
    }
    // the bench's shapes: the 3x3 and the 1x1 run both gradients natively
    const big = runGrads('float32', { N: 1, C: 64, H: 4, W: 5, Cout: 64, k: [3, 3], pad: [1, 1] }, 4, true);
    expectClose('float32', big.gi!, big.ref.gi, big.terms.gi, 'gi');
    expectClose('float32', big.gw!, big.ref.gw, big.terms.gw, 'gw');
    const one = runGrads('float32', { N: 1, C: 64, H: 4, W: 5, Cout: 64, k: [1, 1] }, 5, true);
    expectClose('float32', one.gi!, one.ref.gi, one.terms.gi, 'gi 1x1');
    expectClose('float32', one.gw!, one.ref.gw, one.terms.gw, 'gw 1x1');
    const c: Case = { N: 1, C: 8, H: 3, W: 3, Cout: 8, k: [1, 1] };
    const ints = (s: number[]) => nhwc('int32', s, new Array<number>(numel(s)).fill(1));
    expect(conv2dNhwcInputGrad(ints([1, 8, 3, 3]), ints([1, 8, 3, 3]), tensor('int32', [8, 8, 1, 1], new Array<number>(64).fill(1)), geometry(c), 1)).toBe(false);
    expect(conv2dNhwcWeightGrad(tensor('int32', [8, 8, 1, 1], new Array<number>(64).fill(1)), ints([1, 8, 3, 3]), ints([1, 8, 3, 3]), geometry(c), 1)).toBe(false);
  });

  it('gives identical results on 1, 2 and 3 threads', async () => {
    // (the second: 6 weight-gradient units of one group, which a task runs side by side)
    for (const c of [
      { N: 3, C: 16, H: 17, W: 19, Cout: 20, k: [3, 3], pad: [1, 1] },
      { N: 2, C: 64, H: 11, W: 13, Cout: 24, k: [3, 3], pad: [1, 1] },
      // (the strided input gradient: one unit per image)
      { N: 3, C: 32, H: 20, W: 19, Cout: 32, k: [3, 3], stride: [2, 2], pad: [1, 1] },
    ] as Case[]) {
      const results: (number[] | null)[][] = [];
      for (const threads of [1, 2, 3]) {
        setNumThreads(threads);
        await threadsReady();
        const r = runGrads('float32', c, 9);
        results.push([r.gi, r.gw]);
      }
      setNumThreads(2);
      expect(results[0][0]).not.toBeNull();
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);
    }
  });
});
