/**
 * Note [Channels-last pooling impls] on WebGPU (Note [WebGPU channels-last pooling], Note
 * [WebGPU channels-last batch norm] in kernels-webgpu): gradients through torch's autograd of
 * max_pool2d, avg_pool2d, adaptive_avg_pool2d and batch norm on a channels-last float32
 * input equal the contiguous input's (pooling: the same kernels and sums, bit for bit; batch
 * norm within float32 rounding: its channels-last sums are per (piece, channel)) and keep
 * PyTorch's channels-last layout, with the hooks taken forward and backward (the test counts
 * their calls). Values, indices, geometries and dispatch counts are
 * kernels-webgpu/test/pool-channels-last.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import { webgpuImpls } from '@torch-ts/kernels-webgpu';

const F = torch.nn.functional;

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 4 - 2;
const cpuInput = (shape: number[]) => torch.tensor(Array.from({ length: shape.reduce((a, b) => a * b, 1) }, rand), { dtype: 'float32' }).reshape(shape);
const input = (shape: number[]) => cpuInput(shape).to('webgpu');

afterEach(() => vi.restoreAllMocks());

const ready = await torch.webgpu.init();
if (!ready) console.warn('[pool-channels-last-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)('channels-last pooling and batch norm gradients on webgpu', () => {
  it('gradients through the NHWC forwards and backwards equal the contiguous input’s; channels-last grads', async () => {
    const hooks = (
      [
        'maxPool2dChannelsLast',
        'maxPool2dBackwardChannelsLast',
        'avgPool2dChannelsLast',
        'avgPool2dBackwardChannelsLast',
        'adaptiveAvgPool2dChannelsLast',
        'adaptiveAvgPool2dBackwardChannelsLast',
        'batchNormChannelsLast',
        'batchNormBackwardChannelsLast',
      ] as const
    ).map((n) => vi.spyOn(webgpuImpls, n));
    const nets: [string, (x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) => torch.Tensor][] = [
      ['max', (x) => F.maxPool2d(x, 3, 2, 1)],
      ['max dilated, ceil_mode', (x) => F.maxPool2d(x, [3, 2], [2, 1], [1, 1], [2, 1], true)],
      ['avg', (x) => F.avgPool2d(x, 3, { stride: 2, padding: 1, ceilMode: true, countIncludePad: false })],
      ['avg divisor_override', (x) => F.avgPool2d(x, [2, 3], { stride: [1, 2], padding: [1, 1], divisorOverride: 4 })],
      ['adaptive', (x) => F.adaptiveAvgPool2d(x, [2, 3])],
      ['bn train', (x, w, b) => F.batchNorm(x, null, null, { weight: w, bias: b, training: true })],
      ['bn eval', (x, w, b) => F.batchNorm(x, torch.zeros([6]).to('webgpu'), torch.ones([6]).to('webgpu').mul(1.5), { weight: w, bias: b, training: false })],
    ];
    const failures: string[] = [];
    for (const [name, f] of nets) {
      const runs = await Promise.all(
        (['channels_last', 'contiguous'] as const).map(async (fmt) => {
          seed = 7;
          const x = input([2, 6, 7, 9]).contiguous({ memoryFormat: fmt }).requiresGrad_();
          const w = input([6]).requiresGrad_();
          const b = input([6]).requiresGrad_();
          const y = f(x, w, b);
          y.mul(input([...y.shape])).sum().backward();
          const grads = [x.grad!, ...(name.startsWith('bn') ? [w.grad!, b.grad!] : [])];
          const [, C, H, W] = y.shape;
          return { strides: [y.stride(), x.grad!.stride()], want: [[H * W * C, 1, W * C, C], [378, 1, 54, 6]], values: await Promise.all(grads.map(async (g) => Array.from((await g.contiguous().data()) as Float32Array))) };
        }),
      );
      const [cl, plain] = runs;
      // (PyTorch's: the output and the input gradient channels-last)
      expect(cl.strides, `${name}: output and input-gradient strides`).toEqual(cl.want);
      // (pooling: the same kernels and sums, bit for bit; batch norm's channels-last sums run
      // per (piece, channel), so its values agree within float32 rounding of the sums)
      const same = name.startsWith('bn')
        ? (a: number, b: number, scale: number) => Math.abs(a - b) <= 4e-6 * scale
        : (a: number, b: number) => Object.is(a, b);
      cl.values.forEach((v, i) => {
        const scale = Math.max(1, ...plain.values[i].map(Math.abs));
        const bad = v.findIndex((e, q) => !same(e, plain.values[i][q], scale));
        if (bad >= 0) failures.push(`${name} grad ${i}[${bad}]: ${v[bad]} vs contiguous ${plain.values[i][bad]}`);
      });
    }
    expect(failures).toEqual([]);
    const taken = hooks.map((h) => h.mock.results.filter((r) => r.value !== false).length);
    expect(taken).toEqual([2, 2, 2, 2, 1, 1, 2, 2]);
  });

  it('adaptive max pooling and group norm: the NHWC hooks taken forward and backward, values and gradients as the float64 CPU reference', async () => {
    const hooks = (['adaptiveMaxPool2dChannelsLast', 'adaptiveMaxPool2dBackwardChannelsLast', 'groupNormChannelsLast', 'groupNormBackwardChannelsLast'] as const).map((n) =>
      vi.spyOn(webgpuImpls, n),
    );
    type Net = (x: torch.Tensor, w: torch.Tensor | null, b: torch.Tensor | null) => torch.Tensor;
    // [name, shape, groups-or-0 (0: no affine weight), net]
    const nets: [string, number[], boolean, Net][] = [
      ['adaptive max, windows that overlap', [2, 6, 7, 9], false, (x) => F.adaptiveMaxPool2d(x, [3, 4]) as torch.Tensor],
      ['adaptive max, upsampling windows', [2, 3, 5, 4], false, (x) => F.adaptiveMaxPool2d(x, [7, 6]) as torch.Tensor],
      // (C = 1 reads as contiguous: the composite runs, as the hook count below shows)
      ['adaptive max, C = 1', [3, 1, 5, 4], false, (x) => F.adaptiveMaxPool2d(x, [2, 3]) as torch.Tensor],
      ['group norm G = 3, affine', [2, 6, 7, 9], true, (x, w, b) => F.groupNorm(x, 3, { weight: w, bias: b })],
      ['group norm G = 1, odd sizes', [3, 5, 3, 7], true, (x, w, b) => F.groupNorm(x, 1, { weight: w, bias: b, eps: 1e-3 })],
      ['group norm G = C, no affine', [2, 4, 6, 5], false, (x) => F.groupNorm(x, 4)],
      // (576 positions: the partial sums in two pieces of positions on a software adapter)
      ['group norm G = 2, large planes', [2, 8, 24, 24], true, (x, w, b) => F.groupNorm(x, 2, { weight: w, bias: b })],
    ];
    const failures: string[] = [];
    for (const [name, shape, affine, f] of nets) {
      seed = 11;
      const x0 = cpuInput(shape);
      // ties broken the same way: a NaN and repeated values in the first plane's windows
      const data = x0.dataSync() as Float32Array;
      data[0] = NaN;
      data[3] = data[2];
      const base = torch.tensor(Array.from(data), { dtype: 'float32' }).reshape(shape);
      const useNaN = name.startsWith('adaptive');
      const src = useNaN ? base : x0;
      const C = shape[1];
      seed = 23;
      const w0 = cpuInput([C]);
      const b0 = cpuInput([C]);
      const run = (dev: 'webgpu' | 'cpu', fmt: 'channels_last' | 'contiguous') => {
        const dt = dev === 'cpu' ? 'float64' : 'float32';
        const x = src.to(dt).to(dev).contiguous({ memoryFormat: fmt }).requiresGrad_();
        const w = affine ? w0.to(dt).to(dev).requiresGrad_() : null;
        const b = affine ? b0.to(dt).to(dev).requiresGrad_() : null;
        const y = f(x, w, b);
        seed = 5;
        const gy = cpuInput([...y.shape]).to(dt).to(dev);
        y.mul(gy).sum().backward();
        return { y, grads: [x.grad!, ...(affine ? [w!.grad!, b!.grad!] : [])], x };
      };
      const cl = run('webgpu', 'channels_last');
      const ref = run('cpu', 'contiguous');
      const [, Cy, Hy, Wy] = cl.y.shape;
      const [, , H, W] = shape;
      // (C = 1 is both layouts; its strides are memory-format.test's business)
      if (C > 1) {
        expect(cl.y.stride(), `${name}: output strides`).toEqual([Hy * Wy * Cy, 1, Wy * Cy, Cy]);
        expect(cl.grads[0].stride(), `${name}: input gradient strides`).toEqual([H * W * C, 1, W * C, C]);
      }
      const compare = async (got: torch.Tensor, want: torch.Tensor, what: string) => {
        const a = Array.from((await got.contiguous().data()) as Float32Array);
        const e = Array.from(want.contiguous().dataSync() as Float64Array);
        const scale = Math.max(1, ...e.filter(Number.isFinite).map(Math.abs));
        const bad = a.findIndex((v, i) => !(Number.isNaN(e[i]) ? Number.isNaN(v) : Math.abs(v - e[i]) <= 2e-5 * scale));
        if (bad >= 0) failures.push(`${name} ${what}[${bad}]: ${a[bad]} vs float64 ${e[bad]}`);
      };
      await compare(cl.y, ref.y, 'output');
      for (let i = 0; i < cl.grads.length; i++) await compare(cl.grads[i], ref.grads[i], `grad ${i}`);
      if (useNaN) {
        const [, idx] = F.adaptiveMaxPool2d(src.to('webgpu').contiguous({ memoryFormat: 'channels_last' }), [Hy, Wy], true) as [torch.Tensor, torch.Tensor];
        const [, idxRef] = F.adaptiveMaxPool2d(src.to('float64'), [Hy, Wy], true) as [torch.Tensor, torch.Tensor];
        expect(Array.from(await idx.contiguous().data(), Number), `${name}: indices`).toEqual(Array.from(idxRef.dataSync(), Number));
      }
    }
    expect(failures).toEqual([]);
    const taken = hooks.map((h) => h.mock.results.filter((r) => r.value !== false).length);
    // (adaptive max: two nets with C > 1 plus their index checks forward, two backward; group norm: four nets)
    expect(taken).toEqual([4, 2, 4, 4]);
  });
});
