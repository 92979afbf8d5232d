/**
 * conv2d on a channels-last input on WebGPU (Note [WebGPU channels-last convolution]): the
 * direct kernel reads the NHWC input and writes the NHWC output in place of the two layout
 * copies. Over geometries with stride, padding, dilation, groups (depthwise too), channel
 * counts not a multiple of the 4x4 tile, batch 1 and a storage offset: values against a
 * float64 JS reference, bit-equal to the contiguous path (the same kernel, the same sums),
 * channels-last output strides, exactly one dispatch and no new pipeline per convolution;
 * the gradients of a channels-last convolution; the input- and weight-grad kernels called
 * directly on NHWC operands (what channels-last backward hooks would hand them); int32, a
 * declining dtype (uint8, through the contiguous path) and the shape error.
 */
import { describe, expect, it } from 'vitest';
import { TorchError, conv2d, convolutionBackward, narrow, permute, type Conv2dGeometry, type DType, type Tensor } from '@torch-ts/core';
import { queueCounters } from '../src';
import { convImpls } from '../src/kernels/conv';
import { gpuTensor, randoms, readValues, webgpuReady } from './helpers';
import { eachFlatTerm, outSize, type Conv } from './conv-reference';

function expectClose(got: readonly number[], want: readonly number[], what: string, rtol = 1e-4, atol = 1e-4): void {
  expect(got.length, what).toBe(want.length);
  const bad = got.findIndex((g, i) => !(Math.abs(g - want[i]) <= atol + rtol * Math.abs(want[i])));
  expect(bad, bad >= 0 ? `${what} element ${bad}: got ${got[bad]}, want ${want[bad]}` : '').toBe(-1);
}


/** The convolution in float64 (plus bias per output channel), NCHW row-major. */
function refConv(c: Conv, x: number[], w: number[], b: number[] | null): number[] {
  const [oH, oW] = outSize(c);
  const out = Array.from({ length: c.N * c.O * oH * oW }, (_, q) => (b ? b[Math.floor(q / (oH * oW)) % c.O] : 0));
  eachFlatTerm(c, (xi, wi, oi) => (out[oi] += x[xi] * w[wi]));
  return out;
}

function refGrads(c: Conv, x: number[], w: number[], go: number[]): [number[], number[]] {
  const gx = new Array<number>(x.length).fill(0);
  const gw = new Array<number>(w.length).fill(0);
  eachFlatTerm(c, (xi, wi, oi) => {
    gx[xi] += go[oi] * w[wi];
    gw[wi] += go[oi] * x[xi];
  });
  return [gx, gw];
}

/** NCHW row-major values of [N, C, H, W] in NHWC order. */
function toNhwc(v: readonly number[], [N, C, H, W]: readonly number[]): number[] {
  const out: number[] = [];
  for (let n = 0; n < N; n++) for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) for (let c = 0; c < C; c++) out.push(v[((n * C + c) * H + h) * W + w]);
  return out;
}

/**
 * A WebGPU tensor [N, C, H, W] of `v` (NCHW row-major), dense channels-last: uploaded as NHWC and
 * permuted, after `skip` batch elements of padding in its storage (a storage offset).
 */
function channelsLast(v: readonly number[], sizes: readonly number[], dtype: DType, skip = 0): Tensor {
  const [N, C, H, W] = sizes;
  const nhwc = [...new Array<number>(skip * H * W * C).fill(7), ...toNhwc(v, sizes)];
  const t = gpuTensor(nhwc, dtype, [N + skip, H, W, C]);
  return permute(skip ? narrow(t, 0, skip, N) : t, [0, 3, 1, 2]);
}

const clStrides = ([, C, H, W]: readonly number[]) => [H * W * C, 1, W * C, C];

const CONVS: Record<string, Conv> = {
  '3x3 pad 1, 5 channels in, 6 out': { N: 2, C: 5, H: 7, W: 9, O: 6, kH: 3, kW: 3, s: [1, 1], p: [1, 1], d: [1, 1], g: 1 },
  'stride, dilation, padding, rectangular kernel': { N: 2, C: 3, H: 11, W: 14, O: 7, kH: 3, kW: 2, s: [2, 3], p: [2, 1], d: [2, 3], g: 1 },
  'groups of 2 in, 5 out, with stride': { N: 2, C: 6, H: 9, W: 10, O: 15, kH: 3, kW: 3, s: [1, 2], p: [1, 0], d: [1, 1], g: 3 },
  'depthwise 5x5': { N: 2, C: 6, H: 8, W: 9, O: 6, kH: 5, kW: 5, s: [1, 1], p: [2, 2], d: [1, 1], g: 6 },
  'depthwise with multiplier 2, stride 2': { N: 1, C: 4, H: 9, W: 7, O: 8, kH: 3, kW: 3, s: [2, 2], p: [1, 1], d: [1, 1], g: 4 },
  '1x1, 9 channels': { N: 3, C: 9, H: 5, W: 6, O: 5, kH: 1, kW: 1, s: [1, 1], p: [0, 0], d: [1, 1], g: 1 },
  'batch 1, odd sizes, one output column': { N: 1, C: 7, H: 6, W: 3, O: 3, kH: 2, kW: 3, s: [2, 1], p: [0, 0], d: [1, 1], g: 1 },
  'a storage offset, 13 channels out': { N: 2, C: 3, H: 6, W: 5, O: 13, kH: 3, kW: 3, s: [1, 1], p: [1, 1], d: [1, 1], g: 1, skip: 1 },
};

describe.skipIf(!webgpuReady)('WebGPU channels-last conv2d', () => {
  it('reads and writes NHWC directly: float64 values, bit-equal to the contiguous path, channels-last strides, one dispatch and no new pipeline', async () => {
    let seed = 1;
    for (const [name, c] of Object.entries(CONVS)) {
      for (const withBias of [true, false]) {
        const what = `${name}${withBias ? ' (bias)' : ''}`;
        const xs = [c.N, c.C, c.H, c.W];
        const x = randoms(c.N * c.C * c.H * c.W, seed++);
        const w = randoms(c.O * (c.C / c.g) * c.kH * c.kW, seed++);
        const b = withBias ? randoms(c.O, seed++) : null;
        const wt = gpuTensor(w, 'float32', [c.O, c.C / c.g, c.kH, c.kW]);
        const bt = b ? gpuTensor(b, 'float32', [c.O]) : null;
        const xcl = channelsLast(x, xs, 'float32', c.skip);
        expect([...xcl.impl.strides], what).toEqual(clStrides(xs));
        expect(xcl.impl.storageOffset, what).toBe((c.skip ?? 0) * c.C * c.H * c.W);
        const opts = { stride: c.s, padding: c.p, dilation: c.d, groups: c.g };
        // the contiguous path first: it compiles the kernel the channels-last call reuses
        const plain = conv2d(gpuTensor(x, 'float32', xs), wt, bt, opts);
        const before = queueCounters();
        const y = conv2d(xcl, wt, bt, opts);
        const after = queueCounters();
        expect([after.dispatches - before.dispatches, after.pipelinesCompiled - before.pipelinesCompiled], `${what}: dispatches, pipelines`).toEqual([1, 0]);
        const [oH, oW] = outSize(c);
        expect([...y.shape], what).toEqual([c.N, c.O, oH, oW]);
        expect([...y.impl.strides], what).toEqual(clStrides([c.N, c.O, oH, oW]));
        const got = await readValues(y);
        expectClose(got, refConv(c, x, w, b), what);
        expect(got, `${what}: equal to the contiguous path`).toEqual(await readValues(plain));
      }
    }
  });

  it('gradients of a channels-last convolution (channels-last grad_output) match float64 loops', async () => {
    for (const c of [CONVS['groups of 2 in, 5 out, with stride'], CONVS['a storage offset, 13 channels out'], CONVS['stride, dilation, padding, rectangular kernel']]) {
      const xs = [c.N, c.C, c.H, c.W];
      const [oH, oW] = outSize(c);
      const x = randoms(c.N * c.C * c.H * c.W, 41);
      const w = randoms(c.O * (c.C / c.g) * c.kH * c.kW, 42);
      const go = randoms(c.N * c.O * oH * oW, 43);
      const [gx, gw, gb] = convolutionBackward(
        channelsLast(go, [c.N, c.O, oH, oW], 'float32'),
        channelsLast(x, xs, 'float32', c.skip),
        gpuTensor(w, 'float32', [c.O, c.C / c.g, c.kH, c.kW]),
        [c.O], c.s, c.p, c.d, false, [0, 0], c.g, [true, true, true],
      );
      const [rx, rw] = refGrads(c, x, w, go);
      expectClose(await readValues(gx!), rx, 'grad input');
      expectClose(await readValues(gw!), rw, 'grad weight', 1e-4, 1e-3);
      const rb = Array.from({ length: c.O }, (_, o) => go.reduce((s, v, q) => (Math.floor(q / (oH * oW)) % c.O === o ? s + v : s), 0));
      expectClose(await readValues(gb!), rb, 'grad bias');
    }
  });

  it('the input- and weight-grad kernels read and write NHWC operands as they are (for channels-last backward hooks)', async () => {
    // stride 1 and 2: the input grad has a kernel for each (Note [WebGPU direct convolution])
    for (const c of [CONVS['3x3 pad 1, 5 channels in, 6 out'], CONVS['a storage offset, 13 channels out'], CONVS['groups of 2 in, 5 out, with stride']]) {
      const xs = [c.N, c.C, c.H, c.W];
      const [oH, oW] = outSize(c);
      const os = [c.N, c.O, oH, oW];
      const g: Conv2dGeometry = {
        channels: c.C / c.g, height: c.H, width: c.W, kernelH: c.kH, kernelW: c.kW, strideH: c.s[0], strideW: c.s[1],
        padH: c.p[0], padW: c.p[1], dilationH: c.d[0], dilationW: c.d[1], outH: oH, outW: oW,
      };
      const x = randoms(c.N * c.C * c.H * c.W, 51);
      const w = randoms(c.O * (c.C / c.g) * c.kH * c.kW, 52);
      const go = randoms(c.N * c.O * oH * oW, 53);
      const wt = gpuTensor(w, 'float32', [c.O, c.C / c.g, c.kH, c.kW]);
      const gx = channelsLast(new Array<number>(x.length).fill(0), xs, 'float32', 1);
      const gw = gpuTensor(new Array<number>(w.length).fill(0), 'float32', [...wt.shape]);
      convImpls.conv2dInputGrad(gx.impl, channelsLast(go, os, 'float32', c.skip).impl, wt.impl, g, c.g);
      convImpls.conv2dWeightGrad(gw.impl, channelsLast(go, os, 'float32').impl, channelsLast(x, xs, 'float32', c.skip).impl, g, c.g);
      const [rx, rw] = refGrads(c, x, w, go);
      expect([...gx.impl.strides]).toEqual(clStrides(xs));
      expectClose(await readValues(gx), rx, 'NHWC grad input');
      expectClose(await readValues(gw), rw, 'grad weight of NHWC operands', 1e-4, 1e-3);
    }
  });

  it('int32 takes the channels-last kernel (exact); uint8 declines and takes the contiguous path (wrapping); shape errors name the op', async () => {
    const c = CONVS['groups of 2 in, 5 out, with stride'];
    const xs = [c.N, c.C, c.H, c.W];
    const opts = { stride: c.s, padding: c.p, dilation: c.d, groups: c.g };
    const [oH, oW] = outSize(c);
    const x = randoms(c.N * c.C * c.H * c.W, 5, true);
    const w = randoms(c.O * (c.C / c.g) * c.kH * c.kW, 6, true);
    const b = randoms(c.O, 7, true);
    const args = [channelsLast(x, xs, 'int32'), gpuTensor(w, 'int32', [c.O, c.C / c.g, c.kH, c.kW]), gpuTensor(b, 'int32', [c.O])] as const;
    const before = queueCounters().dispatches;
    const yi = conv2d(...args, opts);
    expect(queueCounters().dispatches - before, 'int32: one dispatch').toBe(1);
    expect([...yi.impl.strides]).toEqual(clStrides([c.N, c.O, oH, oW]));
    expect(await readValues(yi)).toEqual(refConv(c, x, w, b));
    const xu = x.map((v) => v + 3);
    const wu = w.map((v) => v + 3);
    const yu = conv2d(channelsLast(xu, xs, 'uint8'), gpuTensor(wu, 'uint8', [c.O, c.C / c.g, c.kH, c.kW]), null, opts);
    expect(yu.dtype).toBe('uint8');
    expect([...yu.impl.strides]).toEqual(clStrides([c.N, c.O, oH, oW]));
    expect(await readValues(yu)).toEqual(refConv(c, xu, wu, null).map((v) => v % 256));
    const bad = gpuTensor(randoms(4 * 5 * 9, 8), 'float32', [4, 5, 3, 3]);
    expect(() => conv2d(channelsLast(x, xs, 'float32'), bad, null, {})).toThrow(TorchError);
    expect(() => conv2d(channelsLast(x, xs, 'float32'), bad, null, {})).toThrow(
      'conv2d: Given groups=1, weight of size [4, 5, 3, 3], expected input[2, 6, 9, 10] to have 5 channels, but got 6 channels instead',
    );
  });
});
