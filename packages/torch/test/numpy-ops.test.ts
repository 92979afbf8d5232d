/**
 * torch's NumPy-style functions against PyTorch 1.13 (scripts/goldens/numpy_ops.py): for each
 * case the outputs and the gradients of the float inputs for sum(out * arange / 10); plus
 * argwhere, aminmax, logspace, torch.normal's values for a seed, and errors.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/numpy_ops.json';
import { thrown } from './helpers';

import { num, numpyCases, type G, type Num } from './numpy-ops-cases';
const t = (g: G) => torch.tensor(g.values.map(num), { dtype: g.dtype as torch.DType }).reshape(g.shape);

function expectG(x: torch.Tensor, g: G, what: string, tol = 1e-12): void {
  expect(x.shape, what).toEqual(g.shape);
  expect(x.dtype, what).toBe(g.dtype);
  const v = Array.from(x.dataSync() as ArrayLike<number>, Number);
  g.values.forEach((e0, i) => {
    const e = num(e0);
    const ok = Number.isNaN(e) ? Number.isNaN(v[i]) : v[i] === e || Math.abs(v[i] - e) <= tol * (1 + Math.abs(e));
    if (!ok) expect.fail(`${what}[${i}]: ${v[i]} vs PyTorch ${e}`);
  });
}

const F = numpyCases(t(golden.inputs.AW as G));

describe("torch's NumPy-style functions", () => {
  it('outputs and gradients as PyTorch 1.13', () => {
    const cases = golden.cases as unknown as Record<string, { inputs: string[]; outs: G[]; grads: (G | null)[] }>;
    expect(Object.keys(F).sort()).toEqual(Object.keys(cases).sort());
    for (const [name, f] of Object.entries(F)) {
      const c = cases[name];
      const args = c.inputs.map((n) => t((golden.inputs as Record<string, G>)[n]).requiresGrad_());
      const r = f(...args);
      const outs = Array.isArray(r) ? r : [r];
      expect(outs.length, name).toBe(c.outs.length);
      outs.forEach((o, i) => expectG(o, c.outs[i], `${name} out ${i}`));
      let loss: torch.Tensor | null = null;
      for (const o of outs) {
        if (!o.requiresGrad) continue;
        const term = o.mul(torch.arange(o.numel(), { dtype: 'float64' }).view(o.shape).div(10)).sum();
        loss = loss === null ? term : loss.add(term);
      }
      loss?.backward();
      args.forEach((a, i) => {
        const g = c.grads[i];
        // (addmv with beta = 0 does not read self: PyTorch passes it a zero gradient, which
        // the NaN factor here turns into NaN; torch-ts passes none)
        if (name === 'addmv beta0' && i === 0) return expect(a.grad).toBe(null);
        if (g === null) expect(a.grad, `${name} grad ${i}`).toBe(null);
        else if (name === 'logaddexp inf') {
          // (where both are the same infinity PyTorch's gradient is NaN, 1 / (1 + exp(inf - inf));
          // torch-ts's result there is self's, and so is its gradient: the others agree)
          const ours = a.grad!.tolist() as number[];
          expect(g.values.slice(0, 2).map(num).every(Number.isNaN)).toBe(true);
          expect(ours.slice(0, 2)).toEqual(i === 0 ? [0, 0.1] : [0, 0]);
          expect(ours.slice(2)).toEqual(g.values.slice(2).map(num));
        } else {
          if (a.grad === null) expect.fail(`${name} grad ${i}: none, PyTorch has one`);
          expectG(a.grad!, g, `${name} grad ${i}`);
        }
      });
    }
  });

  it('argwhere, aminmax and logspace', () => {
    const X = t(golden.inputs.X as G);
    expect(torch.argwhere(X.gt(0)).tolist()).toEqual(golden.argwhere);
    const am = torch.aminmax(X, { dim: 1, keepdim: true });
    expectG(am.min, golden.aminmax.min as G, 'aminmax min');
    expectG(am.max, golden.aminmax.max as G, 'aminmax max');
    const [lo, hi] = torch.aminmax(X);
    expect([lo.item(), hi.item()]).toEqual(golden.aminmax.all);
    const ls = golden.logspace as Record<string, G>;
    expectG(torch.logspace(-1, 2, 7), ls.f32, 'logspace f32', 1e-7);
    expectG(torch.logspace(0, 3, 4, 2, { dtype: 'float64' }), ls.base2, 'logspace base 2');
    expectG(torch.logspace(0, 2, 3, { dtype: 'int64' }), ls.int, 'logspace int');
    expectG(torch.logspace(2, 5, 1, { dtype: 'float64' }), ls.one, 'logspace one step');
  });

  it("torch.normal's four forms give PyTorch CPU's values for a seed", () => {
    const n = golden.normal as Record<string, G>;
    const f64 = 'float64' as const;
    const makers: Record<string, () => torch.Tensor> = {
      'tensor mean, float std': () => torch.normal(torch.arange(20, { dtype: f64 }), 2.0),
      'float mean, tensor std': () => torch.normal(1.5, torch.arange(1, 21, { dtype: f64 }).div(10)),
      'tensor, tensor bcast': () => torch.normal(torch.zeros([4, 1], { dtype: f64 }), torch.ones([5], { dtype: f64 })),
      size: () => torch.normal(2.0, 3.0, [3, 7]),
      'size f64': () => torch.normal(-1.0, 0.5, [20], { dtype: f64 }),
    };
    for (const [key, make] of Object.entries(makers)) {
      torch.manualSeed(3);
      expectG(make(), n[key], key, 1e-15);
    }
  });

  it("kthvalue's index among ties and NaNs is PyTorch's (its quickselect), for every k", () => {
    const g = golden.kthvalue_ties as { rows: Num[][]; indices: number[][] };
    const rows = torch.tensor(g.rows.map((r) => r.map(num)), { dtype: 'float64' });
    const got = Array.from({ length: 9 }, (_, k) => torch.kthvalue(rows, k + 1, 1).indices.tolist() as number[]);
    g.indices.forEach((want, r) => expect(got.map((col) => col[r]), `row ${r}`).toEqual(want));
  });

  it('vander of integers is int64; isin in its forms', () => {
    expectG(torch.vander(torch.tensor([1, 2, 3])), golden.vander_int as G, 'vander int');
    expect(torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4])).tolist()).toEqual(golden.isin.basic);
    expect(torch.isin(torch.tensor([1, 2, 3]), 2, { invert: true }).tolist()).toEqual(golden.isin['invert scalar']);
    expect(torch.isin(t(golden.inputs.T as G), torch.tensor([1, 5], { dtype: 'float64' })).tolist()).toEqual(golden.isin['float 2d']);
  });

  it('vander is differentiable (1.13 has no working backward to compare with): gradcheck', async () => {
    const v = torch.tensor([0.5, -1.2, 2.0], { dtype: 'float64', requiresGrad: true });
    expect(await torch.autograd.gradcheck((x) => torch.vander(x, 4), [v])).toBe(true);
  });

  it('in-place forms write the function into self', () => {
    const X = t(golden.inputs.X as G);
    const V = t(golden.inputs.V as G);
    const W = t(golden.inputs.W as G);
    const M = t(golden.inputs.M as G);
    const Z = t(golden.inputs.Z as G);
    expect(X.clone().deg2rad_().tolist()).toEqual(torch.deg2rad(X).tolist());
    expect(X.clone().rad2deg_().tolist()).toEqual(torch.rad2deg(X).tolist());
    expect(W.clone().addmv_(X, V, { alpha: 2 }).tolist()).toEqual(torch.addmv(W, X, V, { alpha: 2 }).tolist());
    expect(X.clone().addr_(W, V).tolist()).toEqual(torch.addr(X, W, V).tolist());
    expect(X.clone().addbmm_(M, Z.slice(1, 0, 2)).tolist()).toEqual(torch.addbmm(X, M, Z.slice(1, 0, 2)).tolist());
  });

  it("PyTorch's errors", () => {
    const e = golden.errors as Record<string, string>;
    const X = t(golden.inputs.X as G);
    const V = t(golden.inputs.V as G);
    const Z = t(golden.inputs.Z as G);
    const has = (f: () => unknown, m: string) => expect(thrown(f).message).toContain(m);
    has(() => torch.meshgrid([X, V]), e['meshgrid 2d'].split(' but got')[0]);
    has(() => torch.hsplit(X, 3), e.hsplit);
    has(() => torch.vsplit(V, 2), e['vsplit 1d']);
    has(() => torch.rot90(X, 1, [0]), e['rot90 dims']);
    has(() => torch.rot90(X, 1, [1, 1]), e['rot90 same']);
    has(() => torch.takeAlongDim(X, torch.tensor([0]), 1), e['take_along_dim rank']);
    has(() => torch.diag(Z), e['diag 3d']);
    has(() => torch.vdot(X, V), e['vdot 2d']);
    has(() => torch.normal(torch.zeros([2]), -1.0), e['normal std']);
    has(() => torch.kthvalue(X, 5, 1), e['kthvalue k']);
    has(() => torch.cov(Z), e['cov 3d']);
    has(() => torch.vander(X), e['vander 2d']);
  });
});
