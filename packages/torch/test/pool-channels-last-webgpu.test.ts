/**
 * Note [Channels-last pooling impls] on WebGPU (Note [WebGPU channels-last pooling], Note
 * [WebGPU channels-last batch norm] in kernels-webgpu): gradients through torch's autograd of
 * max_pool2d, avg_pool2d, adaptive_avg_pool2d and batch norm on a channels-last float32
 * input equal the contiguous input's (the same kernels and sums: bit for bit) and keep
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
const input = (shape: number[]) => torch.tensor(Array.from({ length: shape.reduce((a, b) => a * b, 1) }, rand), { dtype: 'float32' }).reshape(shape).to('webgpu');

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
      cl.values.forEach((v, i) => {
        const bad = v.findIndex((e, q) => !Object.is(e, plain.values[i][q]));
        if (bad >= 0) failures.push(`${name} grad ${i}[${bad}]: ${v[bad]} vs contiguous ${plain.values[i][bad]}`);
      });
    }
    expect(failures).toEqual([]);
    const taken = hooks.map((h) => h.mock.results.filter((r) => r.value !== false).length);
    expect(taken).toEqual([2, 2, 2, 2, 1, 1, 2, 2]);
  });
});
