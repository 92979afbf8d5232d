/**
 * F.dropout1d / 2d / 3d, nn.Dropout1d / 2d / 3d and F.normalize against PyTorch 1.13
 * (scripts/goldens/nn_feature_dropout.py): the channels a seed zeroes, reprs, errors;
 * normalize's values and gradients (a zero row, p = 1 and inf, eps).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_feature_dropout.json';
import { thrown } from './helpers';
import { expectFloat64, float64Tensor, type Float64Golden } from './float64-goldens';

const { nn } = torch;
const F = nn.functional;
type G = Float64Golden;
const t = float64Tensor;
const ones = (...s: number[]) => torch.ones(s, { dtype: 'float64' });

const expectG = expectFloat64;

describe('feature dropout', () => {
  it("zeroes the channels PyTorch's seed zeroes, scaled by 1 / (1 - p)", () => {
    const makers: Record<string, () => torch.Tensor> = {
      dropout1d: () => F.dropout1d(ones(3, 4, 2), 0.3),
      'dropout1d unbatched': () => F.dropout1d(ones(5, 3), 0.5),
      dropout2d: () => F.dropout2d(ones(2, 5, 2, 2), 0.4),
      'dropout2d 3d': () => F.dropout2d(ones(3, 4, 2), 0.5),
      dropout3d: () => F.dropout3d(ones(2, 3, 1, 2, 1), 0.5),
      'dropout3d unbatched': () => F.dropout3d(ones(4, 1, 2, 1), 0.25),
      p1: () => F.dropout2d(ones(2, 2, 1, 1), 1.0),
      eval: () => F.dropout2d(ones(2, 2, 1, 1), 0.5, false),
    };
    expect(Object.keys(makers).sort()).toEqual(Object.keys(golden.dropouts).sort());
    for (const [key, make] of Object.entries(makers)) {
      torch.manualSeed(4);
      expectG(make(), (golden.dropouts as Record<string, G>)[key], key);
    }
  });

  it('modules: reprs, training and eval, errors', () => {
    expect([String(new nn.Dropout1d()), String(new nn.Dropout2d(0.2)), String(new nn.Dropout3d({ inplace: true }))]).toEqual(golden.reprs);
    const m = new nn.Dropout2d(0.4);
    torch.manualSeed(4);
    expectG(m.call(ones(2, 5, 2, 2)) as torch.Tensor, golden.dropouts.dropout2d as G, 'module');
    m.eval();
    expect((m.call(ones(2, 2)) as torch.Tensor).tolist()).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(thrown(() => F.dropout1d(torch.ones([2, 3, 4, 5]))).message).toContain(golden.errors['dropout1d 4d']);
    expect(thrown(() => F.dropout2d(torch.ones([2, 3, 4, 5]), 1.5)).message).toContain(golden.errors.p);
  });
});

describe('F.normalize', () => {
  it('values and gradients as PyTorch 1.13', () => {
    for (const [key, c] of Object.entries(golden.normalize as Record<string, { kw: Record<string, number | string>; out: G; grad: G }>)) {
      const x = t(golden.x).requiresGrad_();
      const kw = { ...c.kw, ...(c.kw.p === 'inf' ? { p: Infinity } : {}) } as { p?: number; dim?: number; eps?: number };
      const y = F.normalize(x, kw);
      expectG(y, c.out, key);
      y.mul(torch.arange(y.numel(), { dtype: 'float64' }).view(y.shape).div(10)).sum().backward();
      expectG(x.grad!, c.grad, `${key} grad`);
    }
  });
});
