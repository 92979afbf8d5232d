/**
 * Gradients of a channels-last conv2d (Note [Channels-last convolution impl]: the CPU's
 * channels-last gradient impls, Note [CPU channels-last convolution gradients]) equal the
 * contiguous conv2d's, with PyTorch 1.13's gradient strides (channels-last input and weight
 * gradients, as memory-format.test.ts checks against goldens for small shapes): shapes big
 * enough for the impls to run, a strided one, groups, 1x1, and a contiguous grad_output; and
 * that the impls ran (no layout copies) for every case.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import { cpuImpls } from '@torch-ts/kernels-cpu';

const F = torch.nn.functional;
const CL = torch.channels_last;

interface Case {
  x: number[];
  w: number[];
  stride?: number;
  padding?: number;
  dilation?: number;
  groups?: number;
}

const CASES: Case[] = [
  { x: [2, 16, 7, 6], w: [16, 16, 3, 3], padding: 1 },
  { x: [1, 12, 9, 8], w: [20, 12, 3, 3], padding: 2, dilation: 2 },
  { x: [2, 16, 9, 7], w: [16, 16, 3, 3], stride: 2, padding: 1 },
  { x: [2, 64, 5, 4], w: [48, 64, 1, 1] },
  { x: [2, 32, 6, 5], w: [32, 16, 3, 3], padding: 1, groups: 2 },
];

function maxRelErr(a: torch.Tensor, b: torch.Tensor): number {
  const scale = Math.max(1e-30, b.abs().max().item() as number);
  return (a.sub(b).abs().max().item() as number) / scale;
}

const clStrides = ([, C, H, W]: readonly number[]) => [H * W * C, 1, W * C, C];

afterEach(() => vi.restoreAllMocks());

describe('channels-last conv2d gradients', () => {
  it('run in the CPU impls for every case, strided ones included (no layout copies)', () => {
    const ran = (spy: { mock: { results: { value: unknown }[] } }) => spy.mock.results.map((r) => r.value);
    for (const c of CASES) {
      const gi = vi.spyOn(cpuImpls, 'conv2dChannelsLastInputGrad');
      const gw = vi.spyOn(cpuImpls, 'conv2dChannelsLastWeightGrad');
      const opts = { stride: c.stride ?? 1, padding: c.padding ?? 0, dilation: c.dilation ?? 1, groups: c.groups ?? 1 };
      const x = torch.randn(c.x).contiguous({ memoryFormat: CL }).requiresGrad_();
      const w = torch.randn(c.w).contiguous({ memoryFormat: CL }).requiresGrad_();
      const y = F.conv2d(x, w, null, opts);
      torch.autograd.grad(y, [x, w], torch.randn(y.shape).contiguous({ memoryFormat: CL }));
      expect(ran(gi), JSON.stringify(c)).toEqual([true]);
      expect(ran(gw), JSON.stringify(c)).toEqual([true]);
      vi.restoreAllMocks();
    }
  });

  it('equal the contiguous conv2d gradients, with channels-last gradient strides', () => {
    torch.manualSeed(3);
    for (const dtype of ['float64', 'float32'] as const) {
      const tol = dtype === 'float64' ? 1e-13 : 2e-6;
      for (const c of CASES) {
        const what = `${dtype} ${JSON.stringify(c)}`;
        const opts = { stride: c.stride ?? 1, padding: c.padding ?? 0, dilation: c.dilation ?? 1, groups: c.groups ?? 1 };
        const x0 = torch.randn(c.x, { dtype });
        const w0 = torch.randn(c.w, { dtype });
        const b0 = torch.randn([c.w[0]], { dtype });
        const grads = (xf: torch.MemoryFormat, wf: torch.MemoryFormat, gyFormat: torch.MemoryFormat) => {
          const x = x0.contiguous({ memoryFormat: xf }).requiresGrad_();
          const w = w0.contiguous({ memoryFormat: wf }).requiresGrad_();
          const b = b0.clone().requiresGrad_();
          const y = F.conv2d(x, w, b, opts);
          torch.manualSeed(11);
          const gy = torch.randn(y.shape, { dtype }).contiguous({ memoryFormat: gyFormat });
          const [gx, gw, gb] = torch.autograd.grad(y, [x, w, b], gy);
          return { y, gx: gx!, gw: gw!, gb: gb! };
        };
        const ref = grads(torch.contiguous_format, torch.contiguous_format, torch.contiguous_format);
        for (const [wf, gyf] of [[torch.contiguous_format, CL], [CL, CL], [torch.contiguous_format, torch.contiguous_format]] as const) {
          const got = grads(CL, wf, gyf);
          expect(got.y.stride(), what).toEqual(clStrides(got.y.shape));
          expect(got.gx.stride(), what).toEqual(clStrides(c.x));
          expect(got.gw.stride(), what).toEqual(clStrides(c.w));
          expect(maxRelErr(got.gx, ref.gx), `${what} grad_input`).toBeLessThan(tol);
          expect(maxRelErr(got.gw, ref.gw), `${what} grad_weight`).toBeLessThan(tol);
          expect(maxRelErr(got.gb, ref.gb), `${what} grad_bias`).toBeLessThan(tol);
        }
      }
    }
  });
});
