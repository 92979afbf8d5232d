/**
 * The spatial kernels (convolution, pooling, interpolation, padding) at sizes and in
 * configurations the OpInfo goldens do not reach: many workgroups, channel counts and
 * widths that are not multiples of the 4x4 register tiles, groups with stride, dilation and
 * padding together, both paths of the split weight-grad reduction, int32 / uint8
 * convolutions, max pooling's backward with colliding indices, raw int64 padding. Forward
 * values are checked against plain-JS loops; every backward kernel against its forward by
 * the adjoint identity <F x, y> = <x, F^T y> (F linear), which pins down each index map.
 */
import { describe, expect, it } from 'vitest';
import {
  Tensor,
  adaptiveAvgPool2d,
  adaptiveAvgPool2dBackward,
  avgPool2dBackward,
  avgPool2dRaw,
  conv2d,
  convolutionBackward,
  convTranspose2d,
  indexedPad,
  indexedPadBackward,
  maxPool2d,
  maxPool2dWithIndicesBackward,
  to,
  upsampleBilinear2d,
  upsampleBilinear2dBackward,
  upsampleNearest2d,
  upsampleNearest2dBackward,
  type DType,
  type PadMode,
} from '@torch-ts/core';
import { convImpls } from '../src/kernels/conv';
import { gpuTensor, randoms, readValues, webgpuReady } from './helpers';
import { eachTerm, outSize, type Conv } from './conv-reference';

const prod = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

function expectClose(got: readonly number[], want: readonly number[], rtol = 1e-4, atol = 1e-4): void {
  expect(got.length).toBe(want.length);
  const bad = got.findIndex((g, i) => !(Math.abs(g - want[i]) <= atol + rtol * Math.abs(want[i])));
  expect(bad, bad >= 0 ? `element ${bad}: got ${got[bad]}, want ${want[bad]}` : '').toBe(-1);
}


function refConv(c: Conv, x: number[], w: number[], wrap?: (v: number) => number): number[] {
  const [oH, oW] = outSize(c);
  const out = new Array<number>(c.N * c.O * oH * oW).fill(0);
  const cig = c.C / c.g;
  eachTerm(c, (n, o, ci, oh, ow, ih, iw, i, j, cl) => {
    const q = ((n * c.O + o) * oH + oh) * oW + ow;
    out[q] += x[((n * c.C + ci) * c.H + ih) * c.W + iw] * w[((o * cig + cl) * c.kH + i) * c.kW + j];
    if (wrap) out[q] = wrap(out[q]);
  });
  return out;
}

function refConvGrads(c: Conv, x: number[], w: number[], go: number[]): [number[], number[]] {
  const [oH, oW] = outSize(c);
  const cig = c.C / c.g;
  const gx = new Array<number>(x.length).fill(0);
  const gw = new Array<number>(w.length).fill(0);
  eachTerm(c, (n, o, ci, oh, ow, ih, iw, i, j, cl) => {
    const g = go[((n * c.O + o) * oH + oh) * oW + ow];
    const xi = ((n * c.C + ci) * c.H + ih) * c.W + iw;
    const wi = ((o * cig + cl) * c.kH + i) * c.kW + j;
    gx[xi] += g * w[wi];
    gw[wi] += g * x[xi];
  });
  return [gx, gw];
}

const CONVS: Record<string, Conv> = {
  'mnist-like 3x3 pad 1': { N: 3, C: 5, H: 13, W: 15, O: 6, kH: 3, kW: 3, s: [1, 1], p: [1, 1], d: [1, 1], g: 1 },
  'stride, dilation, padding, rect kernel': { N: 2, C: 3, H: 11, W: 14, O: 7, kH: 3, kW: 2, s: [2, 3], p: [2, 1], d: [2, 3], g: 1 },
  'groups with 5 channels out per group': { N: 2, C: 6, H: 9, W: 10, O: 15, kH: 3, kW: 3, s: [1, 2], p: [1, 0], d: [1, 1], g: 3 },
  depthwise: { N: 2, C: 4, H: 8, W: 9, O: 8, kH: 5, kW: 5, s: [1, 1], p: [2, 2], d: [1, 1], g: 4 },
  '1x1': { N: 2, C: 9, H: 5, W: 6, O: 5, kH: 1, kW: 1, s: [1, 1], p: [0, 0], d: [1, 1], g: 1 },
  'one output column': { N: 1, C: 2, H: 6, W: 3, O: 3, kH: 2, kW: 3, s: [2, 1], p: [0, 0], d: [1, 1], g: 1 },
};

function convInputs(c: Conv, seed: number, dtype: DType = 'float32', ints = false) {
  const x = randoms(c.N * c.C * c.H * c.W, seed, ints);
  const w = randoms(c.O * (c.C / c.g) * c.kH * c.kW, seed + 1, ints);
  return { x, w, xt: gpuTensor(x, dtype, [c.N, c.C, c.H, c.W]), wt: gpuTensor(w, dtype, [c.O, c.C / c.g, c.kH, c.kW]) };
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, v, i) => s + v * b[i], 0);

/** <F x, y> = <x, B y> for a linear F and its adjoint B, both on the device. */
async function expectAdjoint(F: (x: Tensor) => Tensor, B: (y: Tensor) => Tensor, inSizes: number[], seed: number): Promise<void> {
  const xv = randoms(prod(inSizes), seed);
  const fx = F(gpuTensor(xv, 'float32', inSizes));
  const outSizes = [...fx.shape];
  const yv = randoms(prod(outSizes), seed + 7);
  const by = B(gpuTensor(yv, 'float32', outSizes));
  expect([...by.shape]).toEqual(inSizes);
  const lhs = dot(await readValues(fx), yv);
  const rhs = dot(xv, await readValues(by));
  expect(Math.abs(lhs - rhs)).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(lhs)));
}

describe.skipIf(!webgpuReady)('WebGPU spatial kernels', () => {
  for (const [name, c] of Object.entries(CONVS)) {
    it(`conv2d forward (with and without bias) and both gradients match JS loops: ${name}`, async () => {
      const { x, w, xt, wt } = convInputs(c, 11);
      const opts = { stride: c.s, padding: c.p, dilation: c.d, groups: c.g };
      const want = refConv(c, x, w);
      expectClose(await readValues(conv2d(xt, wt, null, opts)), want);
      const [oH, oW] = outSize(c);
      const bv = randoms(c.O, 8);
      const biased = want.map((v, q) => v + bv[Math.floor(q / (oH * oW)) % c.O]);
      expectClose(await readValues(conv2d(xt, wt, gpuTensor(bv, 'float32', [c.O]), opts)), biased);
      const go = randoms(c.N * c.O * oH * oW, 5);
      const [gx, gw, gb] = convolutionBackward(gpuTensor(go, 'float32', [c.N, c.O, oH, oW]), xt, wt, [c.O], c.s, c.p, c.d, false, [0, 0], c.g, [true, true, false]);
      expect(gb).toBeNull();
      const [rx, rw] = refConvGrads(c, x, w, go);
      expectClose(await readValues(gx!), rx);
      expectClose(await readValues(gw!), rw);
    });
  }

  it('the weight grad without a split (more than 16384 4x4 blocks) and with one', async () => {
    for (const c of [
      { N: 1, C: 8192, H: 3, W: 3, O: 4, kH: 3, kW: 3, s: [1, 1], p: [1, 1], d: [1, 1], g: 1 },
      { N: 4, C: 1, H: 28, W: 28, O: 16, kH: 3, kW: 3, s: [1, 1], p: [1, 1], d: [1, 1], g: 1 },
    ] as Conv[]) {
      const { x, w, xt, wt } = convInputs(c, 3);
      const [oH, oW] = outSize(c);
      const go = randoms(c.N * c.O * oH * oW, 9);
      const [, gw] = convolutionBackward(gpuTensor(go, 'float32', [c.N, c.O, oH, oW]), xt, wt, null, c.s, c.p, c.d, false, [0, 0], c.g, [false, true, false]);
      expectClose(await readValues(gw!), refConvGrads(c, x, w, go)[1], 1e-4, 1e-3);
    }
  });

  it('conv_transpose2d is the adjoint of conv2d in its input (groups, stride, dilation)', async () => {
    const c = CONVS['groups with 5 channels out per group'];
    const [oH, oW] = outSize(c);
    const w = gpuTensor(randoms(c.O * (c.C / c.g) * 9, 2), 'float32', [c.O, c.C / c.g, 3, 3]);
    const opts = { stride: c.s, padding: c.p, dilation: c.d, groups: c.g };
    // output_padding recovers the input size the stride rounded away
    const outPad = [c.H - ((oH - 1) * c.s[0] - 2 * c.p[0] + 2 + 1), c.W - ((oW - 1) * c.s[1] - 2 * c.p[1] + 2 + 1)];
    await expectAdjoint((x) => conv2d(x, w, null, opts), (y) => convTranspose2d(y, w, null, { ...opts, outputPadding: outPad }), [c.N, c.C, c.H, c.W], 4);
  });

  it('int32 convolution wraps like PyTorch integer GEMM; uint8 wraps modulo 256', async () => {
    // (integer convolutions are not dilated: PyTorch's slow_conv_dilated takes floats and int64 only)
    const c = CONVS['mnist-like 3x3 pad 1'];
    const opts = { stride: c.s, padding: c.p, dilation: c.d, groups: c.g };
    const big = { ...convInputs(c, 21, 'int32', true) };
    const xs = big.x.map((v) => v * 40000);
    const got = await readValues(conv2d(gpuTensor(xs, 'int32', [c.N, c.C, c.H, c.W]), gpuTensor(big.w.map((v) => v * 30000), 'int32', [c.O, c.C, c.kH, c.kW]), null, opts));
    const ws = big.w.map((v) => v * 30000);
    expect(got).toEqual(refConv(c, xs, ws, (v) => Number(BigInt.asIntN(32, BigInt(v)))));
    const bias = Array.from({ length: c.O }, (_, o) => 2 ** 31 - 1 - o);
    const gotB = await readValues(conv2d(gpuTensor(xs, 'int32', [c.N, c.C, c.H, c.W]), gpuTensor(ws, 'int32', [c.O, c.C, c.kH, c.kW]), gpuTensor(bias, 'int32', [c.O]), opts));
    const [oH, oW] = outSize(c);
    expect(gotB).toEqual(got.map((v, q) => Number(BigInt.asIntN(32, BigInt(v + bias[Math.floor(q / (oH * oW)) % c.O])))));
    const u = convInputs(c, 23, 'uint8', true);
    const xu = u.x.map((v) => v + 3);
    const wu = u.w.map((v) => (v + 3) * 20);
    const gotU = await readValues(conv2d(gpuTensor(xu, 'uint8', [c.N, c.C, c.H, c.W]), gpuTensor(wu, 'uint8', [c.O, c.C, c.kH, c.kW]), null, opts));
    expect(gotU).toEqual(refConv(c, xu, wu).map((v) => v % 256));
  });

  it('im2col and col2im (registered for callers of the GEMM path) are each other\'s adjoints and match JS', async () => {
    const g = { channels: 3, height: 7, width: 9, kernelH: 3, kernelW: 2, strideH: 2, strideW: 1, padH: 1, padW: 1, dilationH: 1, dilationW: 2, outH: 4, outW: 8 };
    const K = g.channels * g.kernelH * g.kernelW;
    const L = g.outH * g.outW;
    const xv = randoms(g.channels * g.height * g.width, 31);
    const img = gpuTensor(xv, 'float32', [g.channels, g.height, g.width]);
    const col = gpuTensor(new Array(K * L).fill(0), 'float32', [K, L]);
    convImpls.im2col(col.impl, img.impl, g);
    const want: number[] = [];
    for (let c = 0; c < g.channels; c++) for (let i = 0; i < g.kernelH; i++) for (let j = 0; j < g.kernelW; j++) {
      for (let oh = 0; oh < g.outH; oh++) for (let ow = 0; ow < g.outW; ow++) {
        const h = oh * g.strideH - g.padH + i * g.dilationH;
        const w = ow * g.strideW - g.padW + j * g.dilationW;
        want.push(h < 0 || h >= g.height || w < 0 || w >= g.width ? 0 : xv[(c * g.height + h) * g.width + w]);
      }
    }
    const colv = await readValues(col);
    expect(colv).toEqual(want);
    const yv = randoms(K * L, 32);
    const back = gpuTensor(new Array(xv.length).fill(0), 'float32', [g.channels, g.height, g.width]);
    convImpls.col2im(back.impl, gpuTensor(yv, 'float32', [K, L]).impl, g);
    const lhs = dot(colv, yv);
    const rhs = dot(xv, await readValues(back));
    expect(Math.abs(lhs - rhs)).toBeLessThanOrEqual(1e-4 * (1 + Math.abs(lhs)));
  });

  it('max_pool2d backward adds every colliding gradient (overlapping windows, one peak per plane)', async () => {
    const [P, H, W] = [3, 11, 12];
    const xv = randoms(P * H * W, 41).map((v) => v - 2);
    const peaks = [5 * W + 6, 0, H * W - 1];
    peaks.forEach((q, p) => (xv[p * H * W + q] = 10));
    const x = gpuTensor(xv, 'float32', [1, P, H, W]);
    const r = maxPool2d(x, 3, { stride: 1, padding: 1, returnIndices: true }) as unknown as [Tensor, Tensor] | { values: Tensor; indices: Tensor };
    const [out, idx] = Array.isArray(r) ? r : [r.values, r.indices];
    const gov = randoms(out.numel(), 42);
    const gi = await readValues(maxPool2dWithIndicesBackward(gpuTensor(gov, 'float32', [...out.shape]), x, [3, 3], [1, 1], [1, 1], [1, 1], false, idx));
    const iv = await readValues(idx);
    const want = new Array<number>(P * H * W).fill(0);
    for (let q = 0; q < gov.length; q++) want[Math.floor(q / (H * W)) * H * W + iv[q]] += gov[q];
    expectClose(gi, want, 1e-5, 1e-5);
    // the peak of plane 0 is in 9 windows
    expect(iv.filter((v, q) => q < H * W && v === peaks[0]).length).toBe(9);
  });

  const pools: [string, number[], (x: Tensor) => Tensor, (y: Tensor, x: Tensor) => Tensor][] = [];
  for (const [k, s, p, ceil, cip, div] of [
    [3, 2, 1, false, true, null],
    [3, 2, 1, true, false, null],
    [2, 3, 0, true, true, null],
    [4, 1, 2, false, false, 3],
  ] as [number, number, number, boolean, boolean, number | null][]) {
    const args = [[k, k], [s, s], [p, p], ceil, cip, div] as const;
    pools.push([
      `avg_pool2d k${k} s${s} p${p} ceil=${ceil} count_include_pad=${cip} divisor=${div}`,
      [2, 3, 13, 11],
      (x) => avgPool2dRaw(x, ...args),
      (y, x) => avgPool2dBackward(y, x, ...args),
    ]);
  }
  for (const o of [[5, 4], [17, 23], [13, 1]]) {
    pools.push([`adaptive_avg_pool2d to ${o}`, [2, 3, 13, 11], (x) => adaptiveAvgPool2d(x, o), (y, x) => adaptiveAvgPool2dBackward(y, x)]);
  }
  for (const [o, sc] of [[[26, 22], null], [[19, 17], [1.5, 1.6]], [[5, 4], null], [[13, 33], null]] as [number[], number[] | null][]) {
    pools.push([
      `upsample_nearest2d to ${o} scales ${sc}`,
      [2, 3, 13, 11],
      (x) => upsampleNearest2d(x, o, sc?.[0] ?? null, sc?.[1] ?? null),
      (y) => upsampleNearest2dBackward(y, o, [2, 3, 13, 11], sc?.[0] ?? null, sc?.[1] ?? null),
    ]);
    for (const ac of [false, true]) {
      pools.push([
        `upsample_bilinear2d to ${o} scales ${sc} align_corners=${ac}`,
        [2, 3, 13, 11],
        (x) => upsampleBilinear2d(x, o, ac, sc?.[0] ?? null, sc?.[1] ?? null),
        (y) => upsampleBilinear2dBackward(y, o, [2, 3, 13, 11], ac, sc?.[0] ?? null, sc?.[1] ?? null),
      ]);
    }
  }
  for (const [mode, pad] of [
    ['reflect', [3, 5, 0, 4]],
    ['replicate', [6, 2, 7, 1]],
    ['circular', [4, 11, 13, 2]],
    ['reflect', [2, 1]],
  ] as [PadMode, number[]][]) {
    pools.push([`${mode} pad ${pad}`, pad.length === 2 ? [3, 14, 12] : [2, 3, 14, 12], (x) => indexedPad(x, pad, mode), (y, x) => indexedPadBackward(y, x, pad, mode)]);
  }
  for (const [name, sizes, F, B] of pools) {
    it(`backward is the adjoint of forward: ${name}`, async () => {
      const x = gpuTensor(randoms(prod(sizes), 3), 'float32', sizes);
      await expectAdjoint(F, (y) => B(y, x), sizes, 51);
    });
  }

  it('float16 and bfloat16 pooling / resampling kernels compute in f32 and round once (within their precision of float32)', async () => {
    for (const [name, sizes, F, B] of pools) for (const [half, tol] of [['float16', 2e-3], ['bfloat16', 1.6e-2]] as [DType, number][]) {
      const xv = randoms(prod(sizes), 61).map((v) => Math.round(v * 64) / 64);
      const results: number[][] = [];
      for (const dtype of ['float32', half]) {
        // (float16 tensors made and read by the device's casts)
        const x = to(gpuTensor(xv, 'float32', sizes), dtype);
        const y = F(x);
        const yv = randoms(y.numel(), 62).map((v) => Math.round(v * 64) / 64);
        const gi = B(to(gpuTensor(yv, 'float32', [...y.shape]), dtype), x);
        expect([y.dtype, gi.dtype]).toEqual([dtype, dtype]);
        results.push([...(await readValues(to(y, 'float32'))), ...(await readValues(to(gi, 'float32')))]);
      }
      const bad = results[0].findIndex((v, i) => !(Math.abs(v - results[1][i]) <= tol * Math.max(1, Math.abs(v))));
      expect(bad, `${name} in ${half}: element ${bad}: float32 ${results[0][bad]}, ${half} ${results[1][bad]}`).toBe(-1);
    }
  });

  it('pads move raw bits: int64 (both words), uint8 and bool', async () => {
    const pad = [2, 3, 1, 2];
    for (const [dtype, vals] of [
      ['int64', [5, -7, 3_000_000_000, -1, 0, 42]],
      ['uint8', [1, 2, 3, 250, 7, 9]],
      ['bool', [1, 0, 0, 1, 1, 0]],
    ] as [DType, number[]][]) {
      const x = gpuTensor(vals, dtype, [1, 2, 3]);
      const got = await readValues(indexedPad(x, pad, 'circular'));
      const want: number[] = [];
      for (let h = 0; h < 2 + 1 + 2; h++) for (let w = 0; w < 3 + 2 + 3; w++) want.push(vals[(((h - 1) % 2) + 2) % 2 * 3 + ((((w - 2) % 3) + 3) % 3)]);
      expect(got).toEqual(want);
    }
  });
});
