/**
 * max_pool2d, avg_pool2d, adaptive_avg_pool2d and batch norm on a channels-last input on
 * WebGPU (Note [WebGPU channels-last pooling], Note [WebGPU channels-last batch norm]): the
 * hooks of Note [Channels-last pooling impls] read and write NHWC directly in place of the
 * layout copies. Over geometries with padding, dilation, ceil_mode, count_include_pad,
 * divisor_override, NaNs (max pooling), C = 1 and a storage offset: values within float32
 * rounding of float64 JS references and equal to the NCHW path on WebGPU (pooling: the same
 * kernels, the same sums; batch norm within float32 rounding, its channels-last sums being per
 * (piece, channel)), int64 indices equal, channels-last output strides, the backwards likewise,
 * and dispatch counts against the copy path (the hook declined). The gradients through
 * torch's autograd are torch/test/pool-channels-last-webgpu.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Tensor,
  _nativeBatchNormBackward,
  adaptiveAvgPool2d,
  adaptiveAvgPool2dBackward,
  avgPool2dBackward,
  avgPool2dRaw,
  batchNorm,
  maxPool2d,
  maxPool2dWithIndicesBackward,
  narrow,
  permute,
  to,
  type DType,
  type Pool2dGeometry,
} from '@torch-ts/core';
import { queueCounters, webgpuImpls } from '../src';
import { gpuTensor, randoms, readValues, webgpuReady } from './helpers';

afterEach(() => vi.restoreAllMocks());

const prod = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** NCHW row-major values of [N, C, H, W] in NHWC order. */
function toNhwc(v: readonly number[], [N, C, H, W]: readonly number[]): number[] {
  const out: number[] = [];
  for (let n = 0; n < N; n++) for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) for (let c = 0; c < C; c++) out.push(v[((n * C + c) * H + h) * W + w]);
  return out;
}

/** A WebGPU [N, C, H, W] tensor of `v` (NCHW row-major), dense channels-last, after `skip` batch elements of storage (a storage offset). */
function channelsLast(v: readonly number[], sizes: readonly number[], dtype: DType = 'float32', skip = 0): Tensor {
  const [N, C, H, W] = sizes;
  const t = gpuTensor([...new Array<number>(skip * H * W * C).fill(7), ...toNhwc(v, sizes)], 'float32', [N + skip, H, W, C]);
  const x = permute(skip ? narrow(t, 0, skip, N) : t, [0, 3, 1, 2]);
  return dtype === 'float32' ? x : to(x, dtype);
}
const clStrides = ([, C, H, W]: readonly number[]) => [H * W * C, 1, W * C, C];

/** got within float32 rounding of the float64 `want` (NaN where NaN). */
function expectClose(got: readonly number[], want: readonly number[], what: string, tol = 2e-6): void {
  expect(got.length, what).toBe(want.length);
  const bad = got.findIndex((g, i) => (Number.isNaN(want[i]) ? !Number.isNaN(g) : !(Math.abs(g - want[i]) <= tol * (1 + Math.abs(want[i])))));
  expect(bad, bad >= 0 ? `${what} element ${bad}: got ${got[bad]}, want ${want[bad]}` : '').toBe(-1);
}

/** Bit-equal, NaN where NaN (toEqual treats NaN as equal to NaN). */
function expectSame(got: readonly number[], want: readonly number[], what: string): void {
  expect(got, what).toEqual(want);
}

// ---- float64 references (NCHW row-major) ----

function poolOut(L: number, k: number, s: number, p: number, d: number, ceil: boolean): number {
  let o = Math.floor((L + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0)) / s) + 1;
  if (ceil && (o - 1) * s >= L + p) o--;
  return o;
}

interface Pool {
  shape: number[];
  k: [number, number];
  s: [number, number];
  p: [number, number];
  d: [number, number];
  ceil: boolean;
  skip?: number;
}

function geometry(c: Pool): Pool2dGeometry {
  const [, , H, W] = c.shape;
  return {
    height: H, width: W, kernelH: c.k[0], kernelW: c.k[1], strideH: c.s[0], strideW: c.s[1], padH: c.p[0], padW: c.p[1],
    dilationH: c.d[0], dilationW: c.d[1], outH: poolOut(H, c.k[0], c.s[0], c.p[0], c.d[0], c.ceil), outW: poolOut(W, c.k[1], c.s[1], c.p[1], c.d[1], c.ceil),
  };
}

/** Calls f(plane, oh, ow, q) for every output element q (NCHW row-major). */
function eachOut(P: number, oH: number, oW: number, f: (pl: number, oh: number, ow: number, q: number) => void): void {
  for (let pl = 0, q = 0; pl < P; pl++) for (let oh = 0; oh < oH; oh++) for (let ow = 0; ow < oW; ow++, q++) f(pl, oh, ow, q);
}

/** max_pool2d: values and flat h * W + w indices; NaN wins (the last NaN of a window names the index). */
function refMax(x: readonly number[], c: Pool): [number[], number[]] {
  const g = geometry(c);
  const [N, C, H, W] = c.shape;
  const vals: number[] = [];
  const idx: number[] = [];
  eachOut(N * C, g.outH, g.outW, (pl, oh, ow) => {
    let best = -Infinity;
    let at = -1;
    for (let i = 0; i < g.kernelH; i++) {
      const h = oh * g.strideH - g.padH + i * g.dilationH;
      if (h < 0 || h >= H) continue;
      for (let j = 0; j < g.kernelW; j++) {
        const w = ow * g.strideW - g.padW + j * g.dilationW;
        if (w < 0 || w >= W) continue;
        const v = x[pl * H * W + h * W + w];
        if (at < 0) at = h * W + w;
        if (v > best || Number.isNaN(v)) {
          best = v;
          at = h * W + w;
        }
      }
    }
    vals.push(best);
    idx.push(at);
  });
  return [vals, idx];
}

/** avg_pool2d's windows and divisors (PyTorch's rules), as (plane, window cells, divisor) per output element. */
function avgWindows(c: Pool, cip: boolean, div: number | null, f: (pl: number, cells: number[], d: number, q: number) => void): void {
  const g = geometry(c);
  const [N, C, H, W] = c.shape;
  eachOut(N * C, g.outH, g.outW, (pl, oh, ow, q) => {
    const h0 = oh * g.strideH - g.padH;
    const w0 = ow * g.strideW - g.padW;
    const h1 = Math.min(h0 + g.kernelH, H + g.padH);
    const w1 = Math.min(w0 + g.kernelW, W + g.padW);
    const size = (h1 - h0) * (w1 - w0);
    const cells: number[] = [];
    for (let h = Math.max(h0, 0); h < Math.min(h1, H); h++) for (let w = Math.max(w0, 0); w < Math.min(w1, W); w++) cells.push(h * W + w);
    f(pl, cells, div ?? (cip ? size : cells.length), q);
  });
}

function refAvg(x: readonly number[], c: Pool, cip: boolean, div: number | null): number[] {
  const [, , H, W] = c.shape;
  const out: number[] = [];
  avgWindows(c, cip, div, (pl, cells, d) => out.push(cells.length ? cells.reduce((s, q) => s + x[pl * H * W + q], 0) / d : 0));
  return out;
}

function refAvgBackward(go: readonly number[], c: Pool, cip: boolean, div: number | null): number[] {
  const [, , H, W] = c.shape;
  const gi = new Array<number>(prod(c.shape)).fill(0);
  avgWindows(c, cip, div, (pl, cells, d, q) => cells.forEach((e) => (gi[pl * H * W + e] += go[q] / d)));
  return gi;
}

/** adaptive windows [floor(o L / oL), ceil((o + 1) L / oL)) per output element. */
function adaptiveWindows([N, C, H, W]: readonly number[], [oH, oW]: readonly number[], f: (pl: number, cells: number[], q: number) => void): void {
  eachOut(N * C, oH, oW, (pl, oh, ow, q) => {
    const cells: number[] = [];
    for (let h = Math.floor((oh * H) / oH); h < Math.ceil(((oh + 1) * H) / oH); h++) for (let w = Math.floor((ow * W) / oW); w < Math.ceil(((ow + 1) * W) / oW); w++) cells.push(h * W + w);
    f(pl, cells, q);
  });
}

const POOLS: Record<string, Pool> = {
  '3x3 stride 2 pad 1': { shape: [2, 5, 9, 11], k: [3, 3], s: [2, 2], p: [1, 1], d: [1, 1], ceil: false },
  '2x2 stride 2, 7 channels': { shape: [1, 7, 8, 8], k: [2, 2], s: [2, 2], p: [0, 0], d: [1, 1], ceil: false },
  'rectangular, ceil_mode': { shape: [3, 4, 7, 10], k: [3, 2], s: [2, 1], p: [1, 0], d: [1, 1], ceil: true },
  'dilation 2x1, ceil_mode': { shape: [1, 9, 13, 6], k: [3, 3], s: [3, 2], p: [1, 1], d: [2, 1], ceil: true },
  '5x5 pad 2, stride 1': { shape: [2, 3, 5, 5], k: [5, 5], s: [1, 1], p: [2, 2], d: [1, 1], ceil: false },
  '17 channels, dilation 1x2, a storage offset': { shape: [2, 17, 6, 7], k: [2, 3], s: [1, 2], p: [1, 1], d: [1, 2], ceil: false, skip: 1 },
  '40 channels (many workgroups), a storage offset': { shape: [3, 40, 12, 9], k: [3, 3], s: [2, 2], p: [1, 1], d: [1, 1], ceil: true, skip: 2 },
};

/** The op's dispatches and new pipelines. */
function counted<T>(f: () => T): [T, number, number] {
  const before = queueCounters();
  const r = f();
  const after = queueCounters();
  return [r, after.dispatches - before.dispatches, after.pipelinesCompiled - before.pipelinesCompiled];
}

/** The hook, spied (counts its calls); `decline` makes it return false so core takes the copy path. */
function spy(name: 'maxPool2dChannelsLast' | 'avgPool2dChannelsLast' | 'adaptiveAvgPool2dChannelsLast' | 'batchNormChannelsLast' | 'batchNormBackwardChannelsLast' | 'maxPool2dBackwardChannelsLast' | 'avgPool2dBackwardChannelsLast' | 'adaptiveAvgPool2dBackwardChannelsLast') {
  return vi.spyOn(webgpuImpls, name);
}
const taken = (s: { mock: { results: { value: unknown }[] } }) => s.mock.results.filter((r) => r.value !== false).length;

function maxPoolOf(x: Tensor, c: Pool): [Tensor, Tensor] {
  const r = maxPool2d(x, c.k, c.s, c.p, c.d, c.ceil, true) as unknown as [Tensor, Tensor] | { values: Tensor; indices: Tensor };
  return Array.isArray(r) ? r : [r.values, r.indices];
}

describe.skipIf(!webgpuReady)('WebGPU channels-last pooling and batch norm without layout copies', () => {
  it('max_pool2d: values (NaNs included) and int64 indices equal the NCHW path and the float64 reference; channels-last strides; one dispatch, no new pipeline', async () => {
    const hook = spy('maxPool2dChannelsLast');
    let seed = 1;
    for (const [name, c] of Object.entries(POOLS)) {
      const x = randoms(prod(c.shape), seed++);
      for (let i = 0; i < 4; i++) x[(i * 7919 + seed * 31) % x.length] = NaN;
      const g = geometry(c);
      const outShape = [c.shape[0], c.shape[1], g.outH, g.outW];
      const [pv, pi] = maxPoolOf(gpuTensor(x, 'float32', c.shape), c);
      const xcl = channelsLast(x, c.shape, 'float32', c.skip);
      expect([...xcl.impl.strides], name).toEqual(clStrides(c.shape));
      const [[v, idx], dispatches, pipelines] = counted(() => maxPoolOf(xcl, c));
      expect([dispatches, pipelines], `${name}: dispatches, pipelines`).toEqual([1, 0]);
      expect([...v.shape], name).toEqual(outShape);
      expect([...v.impl.strides, ...idx.impl.strides], name).toEqual([...clStrides(outShape), ...clStrides(outShape)]);
      expect(idx.dtype).toBe('int64');
      const [rv, ri] = refMax(x.map(Math.fround), c);
      const got = await readValues(v);
      const gotIdx = await readValues(idx);
      expectSame(got, rv, `${name} values against the reference`);
      expectSame(gotIdx, ri, `${name} indices against the reference`);
      expectSame(got, await readValues(pv), `${name} values against the NCHW path`);
      expectSame(gotIdx, await readValues(pi), `${name} indices against the NCHW path`);
    }
    expect(taken(hook)).toBe(Object.keys(POOLS).length);
  });

  it('avg_pool2d (count_include_pad, divisor_override, ceil_mode) and adaptive_avg_pool2d equal the NCHW path and the float64 reference', async () => {
    const avg = spy('avgPool2dChannelsLast');
    const ada = spy('adaptiveAvgPool2dChannelsLast');
    let seed = 20;
    let calls = 0;
    for (const [name, pool] of Object.entries(POOLS)) {
      const c: Pool = { ...pool, d: [1, 1] }; // (avg_pool2d has no dilation)
      for (const [cip, div] of [[true, null], [false, null], [true, 3]] as const) {
        const what = `${name} count_include_pad ${cip} divisor ${div}`;
        const x = randoms(prod(c.shape), seed++);
        const args = [c.k, c.s, c.p, c.ceil, cip, div] as const;
        const plain = avgPool2dRaw(gpuTensor(x, 'float32', c.shape), ...args);
        const [y, dispatches, pipelines] = counted(() => avgPool2dRaw(channelsLast(x, c.shape, 'float32', c.skip), ...args));
        expect([dispatches, pipelines], `${what}: dispatches, pipelines`).toEqual([1, 0]);
        expect([...y.impl.strides], what).toEqual(clStrides([...y.shape]));
        const got = await readValues(y);
        expectClose(got, refAvg(x, c, cip, div), what);
        expectSame(got, await readValues(plain), `${what} against the NCHW path`);
        calls++;
      }
    }
    const adaptive: [number[], number[], number?][] = [
      [[2, 5, 9, 11], [1, 1]],
      [[1, 6, 7, 7], [3, 2]],
      [[3, 3, 5, 8], [5, 8]],
      [[1, 13, 10, 9], [4, 7], 1],
      [[2, 33, 6, 6], [4, 4], 2],
    ];
    for (const [shape, size, skip] of adaptive) {
      const what = `adaptive ${shape} -> ${size}`;
      const x = randoms(prod(shape), seed++);
      const plain = adaptiveAvgPool2d(gpuTensor(x, 'float32', shape), size);
      const [y, dispatches] = counted(() => adaptiveAvgPool2d(channelsLast(x, shape, 'float32', skip), size));
      expect(dispatches, what).toBe(1);
      expect([...y.impl.strides], what).toEqual(clStrides([...y.shape]));
      const want: number[] = [];
      adaptiveWindows(shape, size, (pl, cells) => want.push(cells.reduce((s, q) => s + x[pl * shape[2] * shape[3] + q], 0) / cells.length));
      const got = await readValues(y);
      expectClose(got, want, what);
      expectSame(got, await readValues(plain), `${what} against the NCHW path`);
    }
    expect([taken(avg), taken(ada)]).toEqual([calls, adaptive.length]);
  });

  it('the pooling backwards read channels-last gradients (and indices) directly: equal the NCHW path and the float64 reference', async () => {
    const hooks = [spy('maxPool2dBackwardChannelsLast'), spy('avgPool2dBackwardChannelsLast'), spy('adaptiveAvgPool2dBackwardChannelsLast')];
    let seed = 40;
    for (const [name, c] of Object.entries(POOLS)) {
      const x = randoms(prod(c.shape), seed++);
      const g = geometry(c);
      const os = [c.shape[0], c.shape[1], g.outH, g.outW];
      const gov = randoms(prod(os), seed++);
      const xcl = channelsLast(x, c.shape, 'float32', c.skip);
      const xp = gpuTensor(x, 'float32', c.shape);
      // max: the indices of the channels-last forward (channels-last themselves)
      const [, idx] = maxPoolOf(xcl, c);
      const [, idxPlain] = maxPoolOf(xp, c);
      const mx = (go: Tensor, t: Tensor, i: Tensor) => maxPool2dWithIndicesBackward(go, t, c.k, c.s, c.p, c.d, c.ceil, i);
      const plainMax = mx(gpuTensor(gov, 'float32', os), xp, idxPlain);
      const [gmax, dmax] = counted(() => mx(channelsLast(gov, os, 'float32', 1), xcl, idx));
      expect(dmax, `${name} max backward dispatches`).toBe(1);
      expect([...gmax.impl.strides], name).toEqual(clStrides(c.shape));
      const iv = await readValues(idx);
      const wantMax = new Array<number>(x.length).fill(0);
      iv.forEach((e, q) => (wantMax[Math.floor(q / (g.outH * g.outW)) * c.shape[2] * c.shape[3] + e] += gov[q]));
      const gotMax = await readValues(gmax);
      expectClose(gotMax, wantMax, `${name} max backward`);
      expectSame(gotMax, await readValues(plainMax), `${name} max backward against the NCHW path`);
      // avg (no dilation)
      const ca: Pool = { ...c, d: [1, 1] };
      const ga = geometry(ca);
      const aos = [c.shape[0], c.shape[1], ga.outH, ga.outW];
      const agov = randoms(prod(aos), seed++);
      for (const [cip, div] of [[true, null], [false, null], [false, 5]] as const) {
        const args = [c.k, c.s, c.p, c.ceil, cip, div] as const;
        const what = `${name} avg backward count_include_pad ${cip} divisor ${div}`;
        const plain = avgPool2dBackward(gpuTensor(agov, 'float32', aos), xp, ...args);
        const [gi, d] = counted(() => avgPool2dBackward(channelsLast(agov, aos, 'float32', c.skip), xcl, ...args));
        expect(d, what).toBe(1);
        expect([...gi.impl.strides], what).toEqual(clStrides(c.shape));
        const got = await readValues(gi);
        expectClose(got, refAvgBackward(agov, ca, cip, div), what);
        expectSame(got, await readValues(plain), `${what} against the NCHW path`);
      }
      // adaptive to (ceil(H / 2), 3)
      const as = [c.shape[0], c.shape[1], Math.ceil(c.shape[2] / 2), 3];
      const agv = randoms(prod(as), seed++);
      const plainAd = adaptiveAvgPool2dBackward(gpuTensor(agv, 'float32', as), xp);
      const [gad, dad] = counted(() => adaptiveAvgPool2dBackward(channelsLast(agv, as, 'float32'), xcl));
      expect(dad, `${name} adaptive backward dispatches`).toBe(1);
      expect([...gad.impl.strides], name).toEqual(clStrides(c.shape));
      const wantAd = new Array<number>(x.length).fill(0);
      adaptiveWindows(c.shape, as.slice(2), (pl, cells, q) => cells.forEach((e) => (wantAd[pl * c.shape[2] * c.shape[3] + e] += agv[q] / cells.length)));
      const gotAd = await readValues(gad);
      expectClose(gotAd, wantAd, `${name} adaptive backward`);
      expectSame(gotAd, await readValues(plainAd), `${name} adaptive backward against the NCHW path`);
    }
    for (const h of hooks) expect(taken(h)).toBe(Object.keys(POOLS).length * (h === hooks[1] ? 3 : 1));
  });

  it('fewer dispatches than the copy path (the hooks declined): max, avg and adaptive pooling and their backwards', async () => {
    const c = POOLS['3x3 stride 2 pad 1'];
    const g = geometry(c);
    const os = [c.shape[0], c.shape[1], g.outH, g.outW];
    const x = randoms(prod(c.shape), 70);
    const gov = randoms(prod(os), 71);
    const run = () => {
      const xcl = channelsLast(x, c.shape);
      const go = channelsLast(gov, os);
      const [[v, i], dmax] = counted(() => maxPoolOf(xcl, c));
      const [gm, dmaxb] = counted(() => maxPool2dWithIndicesBackward(go, xcl, c.k, c.s, c.p, c.d, c.ceil, i));
      const [a, davg] = counted(() => avgPool2dRaw(xcl, c.k, c.s, c.p, c.ceil, false, null));
      const [ga, davgb] = counted(() => avgPool2dBackward(go, xcl, c.k, c.s, c.p, c.ceil, false, null));
      const [ad, dad] = counted(() => adaptiveAvgPool2d(xcl, [2, 3]));
      return { counts: [dmax, dmaxb, davg, davgb, dad], outs: [v, i, gm, a, ga, ad] };
    };
    const direct = run();
    expect(direct.counts).toEqual([1, 1, 1, 1, 1]);
    const names = ['maxPool2dChannelsLast', 'maxPool2dBackwardChannelsLast', 'avgPool2dChannelsLast', 'avgPool2dBackwardChannelsLast', 'adaptiveAvgPool2dChannelsLast'] as const;
    for (const n of names) spy(n).mockReturnValue(false);
    const copied = run();
    direct.counts.forEach((d, k) => expect(copied.counts[k], `${names[k]}: the copy path's dispatches`).toBeGreaterThan(d));
    // (and the copy path gives the same values and layout)
    for (let k = 0; k < direct.outs.length; k++) {
      expect([...copied.outs[k].impl.strides]).toEqual([...direct.outs[k].impl.strides]);
      expectClose(await readValues(copied.outs[k]), await readValues(direct.outs[k]), `output ${k}: the copy path`, 2e-5);
    }
  });

  it('float16 and bfloat16 channels-last pooling equals the NCHW path in that dtype; float64 and int64 are declined', async () => {
    const c = POOLS['rectangular, ceil_mode'];
    const x = randoms(prod(c.shape), 80).map((v) => Math.round(v * 64) / 64);
    for (const dtype of ['float16', 'bfloat16'] as const) {
      const xcl = channelsLast(x, c.shape, dtype, 1);
      const xp = to(gpuTensor(x, 'float32', c.shape), dtype);
      expect([xcl.dtype, ...xcl.impl.strides]).toEqual([dtype, ...clStrides(c.shape)]);
      const pairs: [Tensor, Tensor][] = [
        [maxPoolOf(xcl, c)[0], maxPoolOf(xp, c)[0]],
        [avgPool2dRaw(xcl, c.k, c.s, c.p, c.ceil, false, null), avgPool2dRaw(xp, c.k, c.s, c.p, c.ceil, false, null)],
        [adaptiveAvgPool2d(xcl, [3, 4]), adaptiveAvgPool2d(xp, [3, 4])],
      ];
      for (const [a, b] of pairs) {
        expect([a.dtype, ...a.impl.strides]).toEqual([dtype, ...clStrides([...a.shape])]);
        expectSame(await readValues(to(a, 'float32')), await readValues(to(b, 'float32')), `${dtype} ${a.shape}`);
      }
    }
    // the hooks themselves decline dtypes without a kernel, before writing anything
    const g = geometry(c);
    const os = [c.shape[0], c.shape[1], g.outH, g.outW];
    for (const dtype of ['int64', 'int32'] as const) {
      const xi = channelsLast(x.map((v) => Math.round(v * 8)), c.shape, dtype);
      const out = channelsLast(new Array<number>(prod(os)).fill(0), os, dtype);
      const idx = channelsLast(new Array<number>(prod(os)).fill(0), os, 'int64');
      expect(webgpuImpls.avgPool2dChannelsLast(out.impl, xi.impl, g, true, null)).toBe(false);
      expect(webgpuImpls.maxPool2dChannelsLast(out.impl, idx.impl, xi.impl, g)).toBe(false);
      expect(webgpuImpls.adaptiveAvgPool2dChannelsLast(out.impl, xi.impl)).toBe(false);
      expect(await readValues(out)).toEqual(new Array<number>(prod(os)).fill(0));
    }
    // int64 avg_pool2d through core: declined, so the NCHW path raises its dtype error as before
    expect(() => avgPool2dRaw(channelsLast([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 2, 2], 'int64'), [2, 2], [1, 1], [0, 0], false, true, null)).toThrow(/not implemented for 'int64' on webgpu/);
  });

  it('C = 1: an NHWC-permuted input takes the hook (PyTorch 1.13 keeps its strides, [HW, 1, W, 1]); a contiguous one the NCHW path', async () => {
    const c: Pool = { shape: [3, 1, 6, 5], k: [2, 3], s: [1, 2], p: [1, 1], d: [1, 1], ceil: true };
    const g = geometry(c);
    const os = [c.shape[0], 1, g.outH, g.outW];
    const x = randoms(prod(c.shape), 90);
    const [rv, ri] = refMax(x, c);
    const hook = spy('maxPool2dChannelsLast');
    const avg = spy('avgPool2dChannelsLast');
    // (torch.empty(3, 6, 5, 1).permute(0, 3, 1, 2) is strided [30, 1, 5, 1]; 1.13's max_pool2d (values and indices) and
    // avg_pool2d of it with these arguments are strided [21, 1, 3, 1])
    const xcl = channelsLast(x, c.shape, 'float32', 1);
    expect([...xcl.impl.strides]).toEqual([30, 1, 5, 1]);
    const [v, idx] = maxPoolOf(xcl, c);
    const a = avgPool2dRaw(xcl, c.k, c.s, c.p, c.ceil, false, null);
    expect([taken(hook), taken(avg)]).toEqual([1, 1]);
    expect([...v.impl.strides, ...idx.impl.strides, ...a.impl.strides]).toEqual([21, 1, 3, 1, 21, 1, 3, 1, 21, 1, 3, 1]);
    expect(clStrides(os)).toEqual([21, 1, 3, 1]);
    expectSame(await readValues(v), rv, 'C = 1 hook values');
    expectSame(await readValues(idx), ri, 'C = 1 hook indices');
    expectClose(await readValues(a), refAvg(x, c, false, null), 'C = 1 hook avg');
    // a contiguous C = 1 input (what contiguous(channels_last) leaves it) takes the NCHW kernels
    const [pv, pi] = maxPoolOf(gpuTensor(x, 'float32', c.shape), c);
    expect(taken(hook)).toBe(1);
    expectSame(await readValues(pv), rv, 'C = 1 NCHW values');
    expectSame(await readValues(pi), ri, 'C = 1 NCHW indices');
  });

  // ---- batch norm ----

  /** Per-channel (mean, biased variance) of NCHW x. */
  function stats(x: readonly number[], [N, C, H, W]: readonly number[]): [number[], number[]] {
    const mean: number[] = [];
    const vars: number[] = [];
    for (let ch = 0; ch < C; ch++) {
      const vs: number[] = [];
      for (let n = 0; n < N; n++) for (let e = 0; e < H * W; e++) vs.push(x[(n * C + ch) * H * W + e]);
      const m = vs.reduce((a, b) => a + b, 0) / vs.length;
      mean.push(m);
      vars.push(vs.reduce((a, b) => a + (b - m) * (b - m), 0) / vs.length);
    }
    return [mean, vars];
  }
  const chanOf = (q: number, [, C, H, W]: readonly number[]) => Math.floor(q / (H * W)) % C;

  const BNS: [number[], number?][] = [[[2, 5, 9, 11]], [[1, 7, 3, 3], 1], [[4, 16, 5, 6]], [[2, 3, 1, 1]], [[3, 64, 8, 8], 2]];

  it('batch norm train (batch stats, running stats) and eval: equal the NCHW path and the float64 reference; channels-last output; three dispatches', async () => {
    const hook = spy('batchNormChannelsLast');
    let seed = 100;
    let calls = 0;
    for (const [shape, skip] of BNS) {
      const C = shape[1];
      const cnt = prod(shape) / C;
      for (const affine of [true, false]) {
        for (const training of [true, false]) {
          const what = `${shape} affine ${affine} training ${training}`;
          const x = randoms(prod(shape), seed++);
          const w = affine ? randoms(C, seed++) : null;
          const b = affine ? randoms(C, seed++) : null;
          const rm0 = randoms(C, seed++);
          const rv0 = randoms(C, seed++).map((v) => Math.fround(Math.abs(v) + 0.5));
          const runs = [true, false].map((cl) => {
            const rm = gpuTensor(rm0, 'float32', [C]);
            const rv = gpuTensor(rv0, 'float32', [C]);
            const xt = cl ? channelsLast(x, shape, 'float32', skip) : gpuTensor(x, 'float32', shape);
            const [y, d] = counted(() =>
              batchNorm(xt, rm, rv, w && gpuTensor(w, 'float32', [C]), b && gpuTensor(b, 'float32', [C]), training, 0.2, 1e-4),
            );
            return { y, rm, rv, d };
          });
          const [cl, plain] = runs;
          expect(cl.d, `${what}: dispatches`).toBe(training ? 3 : 2);
          expect(plain.d, `${what}: the NCHW path's dispatches on a contiguous input`).toBe(cl.d);
          expect([...cl.y.impl.strides], what).toEqual(clStrides(shape));
          const [mean, vars] = stats(x, shape);
          const mu = training ? mean : rm0;
          const va = training ? vars : rv0;
          const want = x.map((v, q) => {
            const ch = chanOf(q, shape);
            return ((v - mu[ch]) / Math.sqrt(va[ch] + 1e-4)) * (w ? w[ch] : 1) + (b ? b[ch] : 0);
          });
          const got = await readValues(cl.y);
          expectClose(got, want, `${what} output`, 1e-5);
          expectClose(got, await readValues(plain.y), `${what} output against the NCHW path`, 1e-5);
          const wantRm = training ? rm0.map((r, ch) => 0.8 * r + 0.2 * mean[ch]) : rm0;
          const wantRv = training ? rv0.map((r, ch) => 0.8 * r + 0.2 * vars[ch] * (cnt / (cnt - 1))) : rv0;
          expectClose(await readValues(cl.rm), wantRm, `${what} running_mean`, 1e-5);
          expectClose(await readValues(cl.rv), wantRv, `${what} running_var`, 1e-5);
          expectClose(await readValues(cl.rm), await readValues(plain.rm), `${what} running_mean against the NCHW path`, 1e-5);
          expectClose(await readValues(cl.rv), await readValues(plain.rv), `${what} running_var against the NCHW path`, 1e-5);
          calls++;
        }
      }
    }
    expect(taken(hook)).toBe(calls);
  });

  it('batch norm backward (channels-last gradient): input, weight and bias gradients equal the NCHW path and the float64 reference, train and eval', async () => {
    const hook = spy('batchNormBackwardChannelsLast');
    let seed = 200;
    let calls = 0;
    for (const [shape, skip] of BNS) {
      const C = shape[1];
      const cnt = prod(shape) / C;
      for (const affine of [true, false]) {
        for (const training of [true, false]) {
          const what = `${shape} affine ${affine} training ${training}`;
          const x = randoms(prod(shape), seed++);
          const gy = randoms(prod(shape), seed++);
          const w = affine ? randoms(C, seed++) : null;
          // the saved statistics (training) or the running mean and 1 / sqrt(var + eps) (eval)
          const [bm, bv] = stats(x, shape);
          const mean = training ? bm.map(Math.fround) : randoms(C, seed++);
          const invstd = (training ? bv : randoms(C, seed++).map((v) => Math.abs(v) + 0.5)).map((v) => Math.fround(1 / Math.sqrt(v + 1e-3)));
          const runs = [true, false].map((cl) => {
            const args = [gpuTensor(mean, 'float32', [C]), gpuTensor(invstd, 'float32', [C]), training] as const;
            const xt = cl ? channelsLast(x, shape, 'float32', skip) : gpuTensor(x, 'float32', shape);
            const gt = cl ? channelsLast(gy, shape, 'float32', 1) : gpuTensor(gy, 'float32', shape);
            return counted(() => _nativeBatchNormBackward(gt, xt, w && gpuTensor(w, 'float32', [C]), ...args));
          });
          const [[gcl, dcl], [gplain]] = runs;
          expect(dcl, `${what}: dispatches (sums, totals, input gradient)`).toBe(3);
          expect([...gcl[0].impl.strides], what).toEqual(clStrides(shape));
          const sg = new Array<number>(C).fill(0);
          const dot = new Array<number>(C).fill(0);
          gy.forEach((g, q) => {
            const ch = chanOf(q, shape);
            sg[ch] += g;
            dot[ch] += g * (x[q] - mean[ch]);
          });
          const wantGi = gy.map((g, q) => {
            const ch = chanOf(q, shape);
            const sc = (w ? w[ch] : 1) * invstd[ch];
            return training ? (g - sg[ch] / cnt - (x[q] - mean[ch]) * invstd[ch] * invstd[ch] * (dot[ch] / cnt)) * sc : g * sc;
          });
          const wants = [wantGi, dot.map((v, ch) => v * invstd[ch]), sg];
          for (let k = 0; k < 3; k++) {
            const got = await readValues(gcl[k]);
            expectClose(got, wants[k], `${what} grad ${k}`, 2e-5);
            expectClose(got, await readValues(gplain[k]), `${what} grad ${k} against the NCHW path`, 2e-5);
          }
          calls++;
        }
      }
    }
    expect(taken(hook)).toBe(calls);
  });

  it('batch norm: fewer dispatches than the copy path, and float16 is normalised through the NCHW path (the hook is float32)', async () => {
    const shape = [2, 5, 9, 11];
    const x = randoms(prod(shape), 300);
    const gy = randoms(prod(shape), 301);
    const C = shape[1];
    const run = () => {
      const xcl = channelsLast(x, shape);
      const [y, dy] = counted(() => batchNorm(xcl, null, null, null, null, true, 0.1, 1e-5));
      const [gs, db] = counted(() => _nativeBatchNormBackward(channelsLast(gy, shape), xcl, null, gpuTensor(new Array<number>(C).fill(0.1), 'float32', [C]), gpuTensor(new Array<number>(C).fill(1.5), 'float32', [C]), true));
      return { counts: [dy, db], outs: [y, gs[0]] };
    };
    const direct = run();
    spy('batchNormChannelsLast').mockReturnValue(false);
    spy('batchNormBackwardChannelsLast').mockReturnValue(false);
    const copied = run();
    expect(direct.counts).toEqual([3, 3]);
    direct.counts.forEach((d, k) => expect(copied.counts[k], `${k}: the copy path's dispatches`).toBeGreaterThan(d));
    for (let k = 0; k < 2; k++) {
      expect([...copied.outs[k].impl.strides]).toEqual([...direct.outs[k].impl.strides]);
      expectClose(await readValues(copied.outs[k]), await readValues(direct.outs[k]), `output ${k}: the copy path`, 2e-5);
    }
    vi.restoreAllMocks();
    // the hook declines a non-float32 call before writing anything (core hands it the compute dtype, float32 on WebGPU)
    const xh = channelsLast(x, shape, 'float16');
    const out = channelsLast(new Array<number>(x.length).fill(0), shape, 'float16');
    const stat = () => gpuTensor(new Array<number>(C).fill(0), 'float32', [C]);
    expect(webgpuImpls.batchNormChannelsLast(out.impl, stat().impl, stat().impl, xh.impl, null, null, null, null, true, 0.1, 1e-5)).toBe(false);
    expect(await readValues(out)).toEqual(new Array<number>(x.length).fill(0));
    // float16 through core: the NCHW path, still channels-last out, values within float16 of float32's
    const yh = batchNorm(xh, null, null, null, null, true, 0.1, 1e-5);
    expect([yh.dtype, ...yh.impl.strides]).toEqual(['float16', ...clStrides(shape)]);
    expectClose(await readValues(to(yh, 'float32')), await readValues(batchNorm(channelsLast(x, shape), null, null, null, null, true, 0.1, 1e-5)), 'float16 batch norm', 4e-3);
  });
});
