/**
 * The activation modules and functions added after issue 18's list, against PyTorch 1.13
 * (scripts/goldens/nn_activations_more.py): reprs, outputs, input gradients and PReLU's weight
 * gradient and state-dict keys; RReLU's random slopes in training; errors.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_activations_more.json';
import { thrown } from './helpers';
import { expectFloat64, float64Tensor, type Float64Golden } from './float64-goldens';

const { nn } = torch;
const F = nn.functional;
type G = Float64Golden;
const t = float64Tensor;

const expectG = expectFloat64;

const MODULES: Record<string, () => torch.nn.Module> = {
  ReLU6: () => new nn.ReLU6(),
  SELU: () => new nn.SELU(),
  'CELU(0.5)': () => new nn.CELU(0.5),
  'Softplus(2,1)': () => new nn.Softplus(2, 1),
  'Hardtanh(-2,3)': () => new nn.Hardtanh(-2, 3),
  Hardswish: () => new nn.Hardswish(),
  Hardsigmoid: () => new nn.Hardsigmoid(),
  Mish: () => new nn.Mish(),
  LogSigmoid: () => new nn.LogSigmoid(),
  'Softmin(1)': () => new nn.Softmin(1),
  Softmax2d: () => new nn.Softmax2d(),
  'GLU(1)': () => new nn.GLU(1),
  PReLU: () => new nn.PReLU(),
  'PReLU(4,0.1)': () => new nn.PReLU(4, 0.1),
  'Threshold(0.5,-2)': () => new nn.Threshold(0.5, -2),
  'Hardshrink(1.5)': () => new nn.Hardshrink(1.5),
  'Softshrink(0.7)': () => new nn.Softshrink(0.7),
  Tanhshrink: () => new nn.Tanhshrink(),
  Softsign: () => new nn.Softsign(),
  'RReLU eval': () => new nn.RReLU(0.1, 0.3).eval(),
};

describe('more activation modules', () => {
  it('reprs, outputs and gradients as PyTorch 1.13', () => {
    const cases = golden.cases as Record<string, { repr: string; out: G; grad: G; weight_grad?: G; state_dict?: string[] }>;
    expect(Object.keys(MODULES).sort()).toEqual(Object.keys(cases).sort());
    for (const [key, make] of Object.entries(MODULES)) {
      const c = cases[key];
      const m = make().double();
      expect(String(m), key).toBe(c.repr);
      const x = t(golden.x).requiresGrad_();
      const y = m.call(x) as torch.Tensor;
      expectG(y, c.out, key);
      y.mul(torch.arange(y.numel(), { dtype: 'float64' }).view(y.shape).div(10)).sum().backward();
      expectG(x.grad!, c.grad, `${key} grad`);
      if (c.weight_grad) {
        expectG((m as torch.nn.PReLU).weight.grad!, c.weight_grad, `${key} weight grad`);
        expect([...m.stateDict().keys()]).toEqual(c.state_dict);
      }
    }
    const reprs: Record<string, () => torch.nn.Module> = {
      'ReLU6(True)': () => new nn.ReLU6(true),
      'CELU(0.5,True)': () => new nn.CELU(0.5, true),
      Softplus: () => new nn.Softplus(),
      Hardtanh: () => new nn.Hardtanh(),
      Softmin: () => new nn.Softmin(),
      GLU: () => new nn.GLU(),
      'PReLU(3)': () => new nn.PReLU(3),
      Hardshrink: () => new nn.Hardshrink(),
      RReLU: () => new nn.RReLU(),
      'RReLU(0.1,0.3,True)': () => new nn.RReLU(0.1, 0.3, true),
    };
    for (const [key, make] of Object.entries(reprs)) expect(String(make()), key).toBe((golden.reprs as Record<string, string>)[key]);
  });

  it('RReLU in training draws a slope in [lower, upper) for each negative element', () => {
    const m = new nn.RReLU(0.1, 0.3);
    const x = torch.full([2000], -1, { dtype: 'float64' });
    const slopes = (m.call(x) as torch.Tensor).neg().tolist() as number[];
    expect(Math.min(...slopes)).toBeGreaterThanOrEqual(0.1);
    expect(Math.max(...slopes)).toBeLessThan(0.3);
    expect(Math.abs(slopes.reduce((a, b) => a + b, 0) / slopes.length - 0.2)).toBeLessThan(0.01);
    expect((m.call(torch.ones([3], { dtype: 'float64' })) as torch.Tensor).tolist()).toEqual([1, 1, 1]);
  });

  it("the functions' errors as PyTorch's", () => {
    const e = golden.errors;
    expect(thrown(() => F.glu(torch.randn([2, 3]))).message).toContain(e.glu);
    expect(thrown(() => F.softshrink(torch.randn([2]), -1)).message).toContain(e.softshrink);
    expect(thrown(() => F.prelu(torch.randn([2, 3]), torch.ones([2]))).message).toContain(e.prelu);
  });
});
