import { describe, expect, it } from 'vitest';
import * as torch from '../src/index';

// Values from PyTorch 1.13 (Note [In-place ops on views (CopySlices)] in @torch-ts/autograd).
const f32 = (data: torch.TensorData) => torch.tensor(data, { dtype: 'float32' });

describe('in-place ops on views rewrite the base history (CopySlices)', () => {
  it('a column of a non-leaf multiplied in place', () => {
    const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32', requiresGrad: true });
    const y = x.mul(2);
    y.index(':', 0).mul_(3);
    expect(y.gradFn!.name()).toBe('torch::autograd::CopySlices');
    y.mul(f32([[1, 2, 3], [4, 5, 6]])).sum().backward();
    expect(y.tolist()).toEqual([[6, 4, 6], [24, 10, 12]]);
    expect(x.grad!.tolist()).toEqual([[6, 4, 6], [24, 10, 12]]);
  });

  it('a base that does not require grad gets history from what is written into its view', () => {
    const w = torch.tensor([0.5, 1.5], { requiresGrad: true });
    const z = torch.zeros([3]);
    z.index('0:2').add_(w.mul(w));
    expect(z.requiresGrad).toBe(true);
    z.mul(f32([1, 2, 3])).sum().backward();
    expect(z.tolist()).toEqual([0.25, 2.25, 0]);
    expect(w.grad!.tolist()).toEqual([1, 6]);
  });

  it("the view's own gradient goes through the new base", () => {
    const x = torch.tensor([1, 2, 3, 4], { dtype: 'float32', requiresGrad: true });
    const y = x.mul(1);
    const v = y.index('1:3');
    v.mul_(2);
    expect(v.gradFn!.name()).toBe('AsStridedBackward0');
    v.mul(v).sum().backward();
    expect(x.grad!.tolist()).toEqual([0, 16, 24, 0]);
  });

  it('a base with permuted strides', () => {
    const x = torch.tensor([[1, 2], [3, 4], [5, 6]], { dtype: 'float32', requiresGrad: true });
    const y = x.t().mul(2);
    expect(y.stride()).toEqual([1, 2]);
    y.index(0).mul_(3);
    y.mul(f32([[1, 2, 3], [4, 5, 6]])).sum().backward();
    expect(y.tolist()).toEqual([[6, 18, 30], [4, 8, 12]]);
    expect(x.grad!.tolist()).toEqual([[6, 8], [12, 10], [18, 12]]);
  });

  it('passes gradcheck and gradgradcheck (float64)', async () => {
    const x = torch.tensor([[0.3, -1.2, 2.1], [0.7, 1.5, -0.4]], { dtype: 'float64', requiresGrad: true });
    const fn = (t: torch.Tensor) => {
      const y = t.mul(t);
      y.index(':', 0).mul_(t.index(':', 1));
      return y;
    };
    expect(await torch.autograd.gradcheck(fn, [x])).toBe(true);
    expect(await torch.autograd.gradgradcheck(fn, [x])).toBe(true);
  });

  it('leaks nothing', () => {
    const start = torch.memory.stats().liveTensors;
    torch.tidy(() => {
      const x = torch.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32', requiresGrad: true });
      const y = x.mul(2);
      y.index(':', 0).mul_(3);
      y.sum().backward();
      x.grad!.dispose();
    });
    expect(torch.memory.stats().liveTensors).toBe(start);
  });
});
