/**
 * Gradients through views whose elements overlap (issue 15: unfold with step < size,
 * as_strided with small strides), on CPU and WebGPU, against PyTorch 1.13's values
 * (autograd Note [Overlapping view gradients]): each position of the base receives the sum
 * of every window element that refers to it, which a parallel backend gets only when
 * duplicate positions are combined atomically. Skipped without a WebGPU adapter, unless
 * TORCH_TS_REQUIRE_WEBGPU=1 makes that an error (`webgpu.init` throws).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const ready = await torch.webgpu.init();
if (!ready) console.warn('[webgpu-view-grads] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');

const devices = ready ? (['cpu', 'webgpu'] as const) : (['cpu'] as const);

/** The gradient of sum(view(x) * arange weights) with respect to x. */
async function gradOf(base: number[] | number[][], device: (typeof devices)[number], view: (x: Tensor) => Tensor): Promise<unknown> {
  return torch.tidy(() => {
    const x = torch.tensor(base, { dtype: 'float32', device }).requiresGrad_();
    const v = view(x);
    const w = torch.arange(v.numel(), { dtype: 'float32', device }).reshape(v.shape);
    v.mul(w).sum().backward();
    return x.grad!;
  }).tolistAsync();
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

// python: v = torch.arange(9., requires_grad=True); (view(v) * torch.arange(n).reshape(shape)).sum().backward(); v.grad
const CASES: [string, number[] | number[][], (x: Tensor) => Tensor, unknown][] = [
  ['unfold(0, 3, 2)', range(9), (x) => x.unfold(0, 3, 2), [0, 1, 5, 4, 11, 7, 17, 10, 11]],
  ['asStrided([3, 3], [1, 1])', range(9), (x) => x.asStrided([3, 3], [1, 1]), [0, 4, 12, 12, 8, 0, 0, 0, 0]],
  ['asStrided([2, 3], [2, 1], 1)', range(10), (x) => x.asStrided([2, 3], [2, 1], 1), [0, 0, 1, 5, 4, 5, 0, 0, 0, 0]],
  [
    'unfold(1, 2, 1).unfold(0, 3, 1) of a [4, 5]',
    [range(5), range(5), range(5), range(5)],
    (x) => x.unfold(1, 2, 1).unfold(0, 3, 1),
    [
      [0, 9, 21, 33, 21],
      [25, 68, 92, 116, 67],
      [27, 72, 96, 120, 69],
      [26, 61, 73, 85, 47],
    ],
  ],
];

describe('gradients through overlapping views', () => {
  for (const device of devices) {
    for (const [name, base, view, expected] of CASES) {
      it(`${name} on ${device}`, async () => {
        expect(await gradOf(base, device, view)).toEqual(expected);
      });
    }

    it(`double backward through an overlapping unfold on ${device}`, async () => {
      // the gradient of <grad_x, c> with respect to the weights is c read at the windows
      const [gw, c] = torch.tidy(() => {
        const x = torch.arange(9, { dtype: 'float32', device }).requiresGrad_();
        const w = torch.ones([4, 3], { dtype: 'float32', device }).requiresGrad_();
        const c = torch.arange(9, { dtype: 'float32', device }).mul(3).sub(2);
        const [gx] = torch.autograd.grad([x.unfold(0, 3, 2).mul(w).sum()], [x], { createGraph: true });
        const [gw] = torch.autograd.grad([gx!.mul(c).sum()], [w]);
        return [gw!, c.unfold(0, 3, 2).contiguous()];
      });
      expect(await gw.tolistAsync()).toEqual(await c.tolistAsync());
    });
  }
});
