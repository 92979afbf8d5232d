import { describe, it, expect } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/nn_init.json';
import { thrown } from './helpers';

const { nn } = torch;
type G = { shape: number[]; dtype: string; values: number[] };

describe('nn.init.eye_ / dirac_ equal PyTorch exactly', () => {
  const cases = golden.cases as Record<string, G>;
  const runs: [string, (t: torch.Tensor) => torch.Tensor][] = [
    ['eye_ 3x5', (t) => nn.init.eye_(t)],
    ['eye_ 4x2 f64', (t) => nn.init.eye_(t)],
    ['dirac_ 3d', (t) => nn.init.dirac_(t)],
    ['dirac_ 4d', (t) => nn.init.dirac_(t)],
    ['dirac_ 5d', (t) => nn.init.dirac_(t)],
    ['dirac_ 4d groups=2', (t) => nn.init.dirac_(t, 2)],
    ['dirac_ 3d groups=3 f64', (t) => nn.init.dirac_(t, { groups: 3 })],
  ];
  it('fills every golden case in place, overwriting prior contents, under no-grad', () => {
    expect(runs.map(([n]) => n).sort()).toEqual(Object.keys(cases).sort());
    for (const [name, fn] of runs) {
      const g = cases[name];
      const t = torch.full(g.shape, 7, { dtype: g.dtype as torch.DType, requiresGrad: true });
      const r = fn(t);
      expect(r, name).toBe(t);
      expect(t.dtype, name).toBe(g.dtype);
      expect(Array.from(t.detach().flatten().tolist() as number[]), name).toEqual(g.values);
    }
  });

  it("raises PyTorch's ValueErrors, prefixed with the initialiser's name and the shape", () => {
    const errs = golden.errors as Record<string, string[]>;
    const calls: [string, string, () => unknown][] = [
      ['eye_ 1d', 'eye_', () => nn.init.eye_(torch.empty(3))],
      ['eye_ 3d', 'eye_', () => nn.init.eye_(torch.empty(2, 2, 2))],
      ['dirac_ 2d', 'dirac_', () => nn.init.dirac_(torch.empty(2, 2))],
      ['dirac_ 6d', 'dirac_', () => nn.init.dirac_(torch.empty(1, 1, 1, 1, 1, 1))],
      ['dirac_ groups', 'dirac_', () => nn.init.dirac_(torch.empty(5, 2, 3), 2)],
    ];
    expect(calls.map(([n]) => n).sort()).toEqual(Object.keys(errs).sort());
    for (const [name, op, fn] of calls) {
      const e = thrown(fn) as Error;
      expect(errs[name][0]).toBe('ValueError');
      expect(e, name).toBeInstanceOf(torch.ValueError);
      expect(e.message.startsWith(`${op}: ${errs[name][1]} (`), `${name}: ${e.message}`).toBe(true);
    }
    expect(thrown(() => nn.init.dirac_(torch.empty(5, 2, 3), 3)).message).toContain('dim 0 is 5, groups is 3');
  });
});
