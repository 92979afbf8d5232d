/**
 * Note [Channels-last upsampling] on WebGPU (Note [WebGPU channels-last upsampling]): nearest
 * and bilinear upsampling of a channels-last float32 input run the NHWC hooks forward and
 * backward (the spies count them), with values and gradients bit for bit the contiguous
 * input's on WebGPU (one kernel source for both layouts) and within float32 rounding of the
 * float64 CPU path, channels-last outputs and input gradients (PyTorch 1.13's layouts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import { webgpuImpls } from '@torch-ts/kernels-webgpu';

const F = torch.nn.functional;
const CL = torch.channels_last;
afterEach(() => vi.restoreAllMocks());

const ready = await torch.webgpu.init();
if (!ready) console.warn('[interpolate-channels-last-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

const CASES: [string, number[], torch.InterpolateOptions][] = [
  ['nearest x2', [2, 3, 4, 5], { scaleFactor: 2, mode: 'nearest' }],
  ['nearest to size (down)', [2, 5, 7, 9], { size: [3, 4], mode: 'nearest' }],
  ['nearest scale 1.7', [1, 4, 5, 6], { scaleFactor: 1.7, mode: 'nearest' }],
  ['bilinear x2', [2, 3, 4, 5], { scaleFactor: 2, mode: 'bilinear' }],
  ['bilinear align_corners', [2, 4, 5, 6], { size: [9, 11], mode: 'bilinear', alignCorners: true }],
  ['bilinear down, scale 0.6', [1, 6, 9, 10], { scaleFactor: 0.6, mode: 'bilinear' }],
];

let seed = 3;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 4 - 2;
const values = (n: number) => Array.from({ length: n }, rand);

describe.skipIf(!ready)('channels-last upsampling on webgpu', () => {
  it("the NHWC hooks, forward and backward: the contiguous path's bits, the float64 values, PyTorch's layouts", async () => {
    const fwd = [vi.spyOn(webgpuImpls, 'upsampleNearest2dChannelsLast'), vi.spyOn(webgpuImpls, 'upsampleBilinear2dChannelsLast')];
    const bwd = [vi.spyOn(webgpuImpls, 'upsampleNearest2dBackwardChannelsLast'), vi.spyOn(webgpuImpls, 'upsampleBilinear2dBackwardChannelsLast')];
    const failures: string[] = [];
    for (const [name, shape, opts] of CASES) {
      seed = 3;
      const x64 = torch.tensor(values(shape.reduce((a, b) => a * b, 1)), { dtype: 'float64' }).reshape(shape);
      const run = (dev: 'webgpu' | 'cpu', fmt: torch.MemoryFormat) => {
        const dt = dev === 'cpu' ? 'float64' : 'float32';
        const x = x64.to(dt).to(dev).contiguous({ memoryFormat: fmt }).requiresGrad_();
        const y = F.interpolate(x, opts);
        seed = 9;
        const gy = torch.tensor(values(y.numel()), { dtype: 'float64' }).reshape(y.shape).to(dt).to(dev).contiguous({ memoryFormat: fmt });
        y.backward(gy);
        return { y, gx: x.grad! };
      };
      const cl = run('webgpu', CL);
      const plain = run('webgpu', torch.contiguous_format);
      const ref = run('cpu', torch.contiguous_format);
      const [, C, H, W] = cl.y.shape;
      expect(cl.y.stride(), `${name}: output strides`).toEqual([H * W * C, 1, W * C, C]);
      expect(cl.gx.stride(), `${name}: input-gradient strides`).toEqual([shape[2] * shape[3] * shape[1], 1, shape[3] * shape[1], shape[1]]);
      for (const [what, a, b, r] of [
        ['values', cl.y, plain.y, ref.y],
        ['gradients', cl.gx, plain.gx, ref.gx],
      ] as const) {
        const got = Array.from((await a.contiguous().data()) as Float32Array);
        const same = Array.from((await b.contiguous().data()) as Float32Array);
        const want = Array.from(r.contiguous().dataSync() as Float64Array);
        if (got.some((v, i) => !Object.is(v, same[i]))) failures.push(`${name} ${what}: differ from the contiguous path`);
        const bad = got.findIndex((v, i) => !(Math.abs(v - want[i]) <= 1e-5 * (1 + Math.abs(want[i]))));
        if (bad >= 0) failures.push(`${name} ${what}[${bad}]: ${got[bad]} vs float64 ${want[bad]}`);
      }
    }
    expect(failures).toEqual([]);
    const taken = (spies: typeof fwd) => spies.map((s) => s.mock.results.filter((r) => r.value !== false).length);
    expect(taken(fwd)).toEqual([3, 3]);
    expect(taken(bwd)).toEqual([3, 3]);
  });
});
