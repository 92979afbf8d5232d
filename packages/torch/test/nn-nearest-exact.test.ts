/**
 * F.interpolate(mode 'nearest-exact') against PyTorch 1.13 (scripts/goldens/nn_nearest_exact.py):
 * 3-d, 4-d and 5-d inputs, sizes and scale factors up, down and non-integer, values and input
 * gradients in float64, channels-last layouts, nn.Upsample's repr.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_nearest_exact.json';
import { expectFloat64, float64Tensor, type Float64Golden } from './float64-goldens';

const F = torch.nn.functional;

describe("F.interpolate mode 'nearest-exact'", () => {
  it('values and gradients as 1.13 on 3-d, 4-d and 5-d inputs', () => {
    for (const [key, c] of Object.entries(golden.cases as Record<string, { kw: Record<string, number | number[]>; x: Float64Golden; out: Float64Golden; grad: Float64Golden }>)) {
      const x = float64Tensor(c.x).requiresGrad_();
      const y = F.interpolate(x, { size: (c.kw.size as number | number[]) ?? null, scaleFactor: (c.kw.scale_factor as number | number[]) ?? null, mode: 'nearest-exact' });
      expectFloat64(y, c.out, `${key} out`);
      y.mul(torch.linspace(-1, 1.5, y.numel(), { dtype: 'float64' }).view(y.shape)).sum().backward();
      expectFloat64(x.grad!, c.grad, `${key} grad`);
    }
  });

  it('channels-last in, channels-last out and gradient; nn.Upsample', () => {
    const x = torch.randn([2, 3, 4, 5], { dtype: 'float64' }).contiguous({ memoryFormat: torch.channels_last }).requiresGrad_();
    const y = F.interpolate(x, { scaleFactor: 1.5, mode: 'nearest-exact' });
    y.backward(torch.onesLike(y));
    expect(y.stride()).toEqual(golden.layouts['out stride']);
    expect(x.grad!.stride()).toEqual(golden.layouts['grad stride']);
    const up = new torch.nn.Upsample({ scaleFactor: 2, mode: 'nearest-exact' });
    expect(String(up)).toBe(golden.repr);
    const z = torch.arange(4, { dtype: 'float32' }).view([1, 1, 4]);
    expect((up.call(z) as torch.Tensor).view([-1]).tolist()).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });
});
