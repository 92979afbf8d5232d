/**
 * Note [Channels-last upsampling] on the CPU (Note [CPU channels-last upsampling]): nearest and
 * bilinear upsampling of a channels-last float32 / float64 input run the NHWC hooks forward and
 * backward (the spies count them), with values and gradients bit for bit the contiguous
 * input's, channels-last outputs and input gradients (PyTorch 1.13's layouts), over geometries
 * up and down, non-integer scales, align_corners, scale_factor vs size, C = 1 and a storage
 * offset; a declining hook changes nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import { cpuImpls } from '@torch-ts/kernels-cpu';

const F = torch.nn.functional;
const CL = torch.channels_last;
afterEach(() => vi.restoreAllMocks());

interface Case {
  name: string;
  shape: number[];
  opts: torch.InterpolateOptions;
  offset?: boolean;
}

const CASES: Case[] = [
  { name: 'nearest x2', shape: [2, 3, 4, 5], opts: { scaleFactor: 2, mode: 'nearest' } },
  { name: 'nearest to size (down)', shape: [2, 5, 7, 9], opts: { size: [3, 4], mode: 'nearest' } },
  { name: 'nearest scale 1.7', shape: [1, 4, 5, 6], opts: { scaleFactor: 1.7, mode: 'nearest' }, offset: true },
  { name: 'nearest to size (up, non-integer)', shape: [2, 3, 5, 4], opts: { size: [7, 9], mode: 'nearest' } },
  { name: 'bilinear x2', shape: [2, 3, 4, 5], opts: { scaleFactor: 2, mode: 'bilinear' } },
  { name: 'bilinear align_corners', shape: [2, 4, 5, 6], opts: { size: [9, 11], mode: 'bilinear', alignCorners: true } },
  { name: 'bilinear down, scale 0.6', shape: [1, 6, 9, 10], opts: { scaleFactor: 0.6, mode: 'bilinear' }, offset: true },
  { name: 'bilinear C = 3, to 1x1', shape: [2, 3, 4, 4], opts: { size: [1, 1], mode: 'bilinear', alignCorners: true } },
];

let seed = 3;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 4 - 2;
const values = (n: number) => Array.from({ length: n }, rand);

describe('channels-last upsampling on the CPU', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    it(`${dtype}: the NHWC hooks, forward and backward, give the contiguous path's bits and PyTorch's layouts`, () => {
      const fwd = [vi.spyOn(cpuImpls, 'upsampleNearest2dChannelsLast'), vi.spyOn(cpuImpls, 'upsampleBilinear2dChannelsLast')];
      const bwd = [vi.spyOn(cpuImpls, 'upsampleNearest2dBackwardChannelsLast'), vi.spyOn(cpuImpls, 'upsampleBilinear2dBackwardChannelsLast')];
      for (const c of CASES) {
        seed = 3;
        const n = c.shape.reduce((a, b) => a * b, 1);
        const base = torch.tensor(values(n), { dtype }).reshape(c.shape);
        const run = (fmt: torch.MemoryFormat) => {
          // (a storage offset: the input is a slice of a larger channels-last tensor)
          const x0 = c.offset ? torch.cat([torch.zeros([1, ...c.shape.slice(1)], { dtype }), base]).contiguous({ memoryFormat: fmt }).narrow(0, 1, c.shape[0]) : base.contiguous({ memoryFormat: fmt });
          const x = x0.detach().requiresGrad_();
          const y = F.interpolate(x, c.opts);
          seed = 9;
          const gy = torch.tensor(values(y.numel()), { dtype }).reshape(y.shape).contiguous({ memoryFormat: fmt });
          y.backward(gy);
          return { x, y, gx: x.grad! };
        };
        const cl = run(CL);
        const plain = run(torch.contiguous_format);
        const [, C, H, W] = cl.y.shape;
        if (c.offset) expect(cl.x.storageOffset(), c.name).toBeGreaterThan(0);
        expect(cl.y.stride(), `${c.name}: output strides`).toEqual([H * W * C, 1, W * C, C]);
        expect(cl.gx.stride(), `${c.name}: input-gradient strides`).toEqual(cl.x.stride());
        expect(Array.from(cl.y.contiguous().dataSync() as Float64Array), `${c.name}: values`).toEqual(Array.from(plain.y.dataSync() as Float64Array));
        expect(Array.from(cl.gx.contiguous().dataSync() as Float64Array), `${c.name}: gradients`).toEqual(Array.from(plain.gx.contiguous().dataSync() as Float64Array));
      }
      const taken = (spies: typeof fwd) => spies.map((s) => s.mock.results.filter((r) => r.value !== false).length);
      expect(taken(fwd)).toEqual([4, 4]);
      // (a [2, 3, 1, 1] grad_output reads as contiguous: that backward takes the planes)
      expect(taken(bwd)).toEqual([4, 3]);
    });
  }

  it('a declining hook (float16 has none) takes the NCHW path: same values and layouts', () => {
    const x = torch.randn([2, 3, 4, 5]).contiguous({ memoryFormat: CL });
    const want = F.interpolate(x, { scaleFactor: 1.5, mode: 'bilinear' });
    const spy = vi.spyOn(cpuImpls, 'upsampleBilinear2dChannelsLast').mockReturnValue(false);
    const got = F.interpolate(x, { scaleFactor: 1.5, mode: 'bilinear' });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(got.stride()).toEqual(want.stride());
    expect(Array.from(got.dataSync() as Float32Array)).toEqual(Array.from(want.dataSync() as Float32Array));
    vi.restoreAllMocks();
    const h = x.to('float16');
    const yh = F.interpolate(h, { scaleFactor: 2, mode: 'nearest' });
    expect(yh.stride()).toEqual([8 * 10 * 3, 1, 10 * 3, 3]);
    expect(Array.from(yh.to('float32').contiguous().dataSync() as Float32Array)).toEqual(Array.from(F.interpolate(h.contiguous(), { scaleFactor: 2, mode: 'nearest' }).to('float32').dataSync() as Float32Array));
  });
});
