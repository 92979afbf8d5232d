/**
 * torch.autograd.forwardAd and torch.autograd.functional against PyTorch 1.13
 * (test/goldens/forward_ad.json, scripts/goldens/forward_ad.py, whose f1..f5 and inputs are
 * written the same way here): tangents of dual tensors, in-place and view tangents, tangent
 * layouts, jacobian / hessian (both strategies) / vjp / jvp / hvp / vhp; and the errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { thrown } from './helpers';

interface Values {
  shape: number[];
  dtype: string;
  values: number[];
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const G = JSON.parse(readFileSync(new URL('./goldens/forward_ad.json', import.meta.url), 'utf8')) as Record<string, any>;
const { forwardAd: fa, functional: AF } = torch.autograd;

const ramp = (shape: number[], a: number, b: number) => {
  const n = shape.reduce((x, y) => x * y, 1);
  return torch.linspace(a, b, n, { dtype: 'float64' }).reshape(shape);
};
const f1 = (x: Tensor) => x.sin().mul(x).sum();
const f2 = (x: Tensor, y: Tensor) => x.matmul(y).tanh();
const f3 = (x: Tensor) => torch.softmax(x, -1).mul(x.exp());
const f4 = (x: Tensor) => x.logSoftmax(0).pow(2).sum().add(x.prod());
const f5 = (x: Tensor, y: Tensor) => x.mul(y.cos()).sum().add(x.unsqueeze(1).mul(y).pow(2).sum());

const x3 = () => ramp([3], -0.7, 1.1);
const v3 = () => ramp([3], 0.3, -0.5);
const x23 = () => ramp([2, 3], -1.0, 0.8);
const t23 = () => ramp([2, 3], 0.2, 0.9);
const y32 = () => ramp([3, 2], 0.5, -0.4);
const x2 = () => ramp([2], 0.2, -0.9);
const y2 = () => ramp([2, 2], 0.4, 1.3);

function expectValues(t: unknown, g: Values, tol = 1e-10): void {
  expect(t).toBeInstanceOf(torch.Tensor);
  const x = t as Tensor;
  expect(x.shape).toEqual(g.shape);
  expect(x.dtype).toBe(g.dtype);
  const got = [...(x.contiguous().dataSync() as Float64Array)];
  got.forEach((v, i) => expect(Math.abs(v - g.values[i])).toBeLessThanOrEqual(tol * (1 + Math.abs(g.values[i]))));
}

describe('forwardAd', () => {
  it('gives the tangents of matmul/tanh and softmax/exp as PyTorch', () => {
    fa.dualLevel(() => {
      const y = f2(fa.makeDual(x23(), t23()), fa.makeDual(y32(), ramp([3, 2], -0.3, 0.3)));
      expectValues(fa.unpackDual(y).tangent, G.dual_f2);
      const z = f3(fa.makeDual(x3(), v3()));
      const u = fa.unpackDual(z);
      expectValues(u[1], G.dual_f3); // (indexable too)
      expect(u.primal.shape).toEqual([3]);
      expect(fa.unpackDual(u.primal).tangent).toBeNull();
    });
  });

  it('updates tangents in place through views, and gives a base without one a tangent', () => {
    {
      using _level = fa.dualLevel();
      const d = fa.makeDual(x3(), v3());
      const c = d.clone();
      const w = c.index('1:3');
      w.mul_(torch.tensor([2.0, -1.0], { dtype: 'float64' }));
      expectValues(fa.unpackDual(c).tangent, G.inplace_view.c);
      expectValues(fa.unpackDual(w).tangent, G.inplace_view.w);

      const base = torch.zeros([4], { dtype: 'float64' });
      base.index('1:3').copy_(fa.makeDual(torch.ones([2], { dtype: 'float64' }), torch.tensor([5, 6], { dtype: 'float64' })));
      expectValues(fa.unpackDual(base).tangent, G.inplace_into_plain);

      const e = fa.makeDual(x23(), t23());
      const et = e.t();
      e.mul_(3);
      e.indexAdd_(0, torch.tensor([1]), fa.makeDual(ramp([1, 3], 1.0, 2.0), ramp([1, 3], -1.0, 1.0)));
      expectValues(fa.unpackDual(e).tangent, G.view_sees_inplace.d);
      expectValues(fa.unpackDual(et).tangent, G.view_sees_inplace.dt);
    }
    // leaving the level drops every tangent
    const d = fa.dualLevel(() => fa.makeDual(x3(), v3()));
    fa.dualLevel(() => expect(fa.unpackDual(d).tangent).toBeNull());
  });

  it('keeps a tangent laid out as its primal, and copies one laid out otherwise', () => {
    fa.dualLevel(() => {
      const tt = ramp([3, 2], 0.0, 1.0).t();
      const ut = fa.unpackDual(fa.makeDual(x23(), tt)).tangent!;
      expect(ut.stride()).toEqual(G.layout.stride);
      expectValues(ut, G.layout.values);
      tt.zero_(); // a copy: unchanged
      expectValues(ut, G.layout.values);
      const t2 = t23();
      const ut2 = fa.unpackDual(fa.makeDual(x23(), t2)).tangent!;
      expect(ut2.stride()).toEqual(G.layout_same.stride);
      t2.fill_(7); // the same data
      expect([...(ut2.dataSync() as Float64Array)]).toEqual([7, 7, 7, 7, 7, 7]);
    });
  });

  it("raises PyTorch's errors", () => {
    expect(thrown(() => fa.makeDual(x3(), v3())).message).toMatch(/^makeDual: Trying to create a dual Tensor for forward AD but no level exists/);
    fa.dualLevel(() => {
      expect(thrown(() => fa.enterDualLevel()).message).toMatch(/Nested forward mode AD is not supported/);
      const e = thrown(() => fa.makeDual(x3(), torch.zeros([2], { dtype: 'float64' })));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e.message).toMatch(/^makeDual: Trying to set a forward gradient that has a different size .* Tensor is of size \[3\] while the given forward gradient is of size \[2\]/);
      expect(thrown(() => fa.makeDual(torch.tensor([1, 2]), torch.tensor([1, 2]))).message).toMatch(/^makeDual: Expected primal to be floating point or complex, but got: int64/);
    });
    expect(thrown(() => fa.exitDualLevel()).message).toMatch(/^exitDualLevel: Trying to exit a forward AD level/);
  });
});

describe('forward AD of the indexing ops (explicit JVP formulas, autograd forward-formulas-indexing.ts)', () => {
  it('gives tangents equal to central differences, index and mask arguments used, a missing self or source tangent as zeros', () => {
    // each op is affine in its float inputs, so central differences are exact up to rounding
    const x = ramp([3, 4], -1.2, 0.9);
    const v = ramp([3, 4], 0.4, -0.7);
    const src = ramp([3, 2], 0.3, 1.5);
    const w = ramp([3, 2], -0.6, 0.2);
    const rows = torch.tensor([2, 0], { dtype: 'int64' });
    const ix = torch.tensor([[0, 3], [1, 1], [2, 0]], { dtype: 'int64' });
    const mask = torch.tensor([[true, false, false, true], [false, false, true, false], [true, true, false, false]]);
    const cases: [string, (a: Tensor, b: Tensor) => Tensor][] = [
      ['index', (a) => a.index(rows, torch.tensor([3, 1], { dtype: 'int64' }))],
      ['gather', (a) => torch.gather(a, 1, ix)],
      ['indexSelect', (a) => torch.indexSelect(a, 1, torch.tensor([3, 0, 3], { dtype: 'int64' }))],
      ['take', (a) => torch.take(a, ix)],
      ['embedding', (a) => torch.nn.functional.embedding(torch.tensor([[0, 2], [1, 1]], { dtype: 'int64' }), a)],
      ['maskedFill_', (a) => a.clone().maskedFill_(mask, 2.5)],
      ['scatter_', (a, b) => a.clone().scatter_(1, ix, b)],
      ['scatterAdd_', (a, b) => a.clone().scatterAdd_(1, ix, b)],
      ['indexAdd_', (a, b) => a.clone().indexAdd_(1, torch.tensor([1, 3], { dtype: 'int64' }), b, { alpha: 0.5 })],
      ['indexPut_', (a, b) => a.clone().indexPut_([torch.tensor([0, 2, 1], { dtype: 'int64' })], b.select(1, 0).unsqueeze(1), { accumulate: true })],
    ];
    const zero = (t: Tensor) => t.mul(0);
    for (const [name, f] of cases) {
      // both tangents, self's only, the source's only (where there is a source)
      const combos = f.length === 2 ? [[true, true], [true, false], [false, true]] : [[true, false]];
      for (const [selfDual, srcDual] of combos) {
        const [tv, tw] = [selfDual ? v : zero(v), srcDual ? w : zero(w)];
        const got = fa.dualLevel(() => {
          const a = selfDual ? fa.makeDual(x, v) : x;
          const b = srcDual ? fa.makeDual(src, w) : src;
          return fa.unpackDual(f(a, b)).tangent?.clone() ?? null;
        });
        const fd = f(x.add(tv), src.add(tw)).sub(f(x.sub(tv), src.sub(tw))).div(2);
        expect(got, `${name}`).not.toBeNull();
        expect(got!.shape, name).toEqual(fd.shape);
        const err = got!.sub(fd).abs().max().item() as number;
        expect(err, `${name}: tangent differs from central differences by ${err}`).toBeLessThan(1e-12);
      }
    }
  });
});

describe('autograd.functional', () => {
  it('jacobian and hessian match PyTorch in both strategies', () => {
    const j2 = AF.jacobian(f2, [x23(), y32()]) as Tensor[];
    j2.forEach((t, i) => expectValues(t, G.jacobian_f2[i]));
    expectValues(AF.jacobian(f3, x3()), G.jacobian_f3);
    const j3f = AF.jacobian(f3, x3(), { strategy: 'forward-mode', vectorize: true });
    expectValues(j3f, G.jacobian_f3);
    (AF.jacobian(f2, [x23(), y32()], { strategy: 'forward-mode', vectorize: true }) as Tensor[]).forEach((t, i) => expectValues(t, G.jacobian_f2[i]));
    expectValues(AF.hessian(f1, x3()), G.hessian_f1);
    expectValues(AF.hessian(f4, x3()), G.hessian_f4);
    // forward-over-reverse
    expectValues(AF.hessian(f4, x3(), { outerJacobianStrategy: 'forward-mode', vectorize: true }), G.hessian_f4);
    const h5 = AF.hessian(f5, [x2(), y2()]) as Tensor[][];
    h5.forEach((row, i) => row.forEach((t, j) => expectValues(t, G.hessian_f5[i][j])));
    const h5f = AF.hessian(f5, [x2(), y2()], { outerJacobianStrategy: 'forward-mode', vectorize: true }) as Tensor[][];
    h5f.forEach((row, i) => row.forEach((t, j) => expectValues(t, G.hessian_f5[i][j])));
  });

  it('vjp, jvp, hvp and vhp match PyTorch', () => {
    const [o1, r1] = AF.vjp(f3, x3(), v3());
    expectValues(o1, G.vjp_f3.out);
    expectValues(r1, G.vjp_f3.vjp);
    const [o2, r2] = AF.jvp(f3, x3(), v3());
    expectValues(o2, G.jvp_f3.out);
    expectValues(r2, G.jvp_f3.jvp);
    const [o3, r3] = AF.hvp(f1, x3(), v3());
    expectValues(o3, G.hvp_f1.out);
    expectValues(r3, G.hvp_f1.hvp);
    const [o4, r4] = AF.vhp(f4, x3(), v3());
    expectValues(o4, G.vhp_f4.out);
    expectValues(r4, G.vhp_f4.vhp);
    const [o5, r5] = AF.hvp(f5, [x2(), y2()], [ramp([2], 1.0, -1.0), ramp([2, 2], 0.1, 0.4)]);
    expectValues(o5, G.hvp_f5.out);
    (r5 as Tensor[]).forEach((t, i) => expectValues(t, G.hvp_f5.hvp[i]));
    // with createGraph the results keep a graph (hvp by double backward)
    const x = x3().requiresGrad_();
    const [, r6] = AF.hvp(f1, x, v3(), { createGraph: true });
    expectValues(r6, G.hvp_f1.hvp);
    expect((r6 as Tensor).requiresGrad).toBe(true);
    expect((r2 as Tensor).requiresGrad).toBe(false);
  });

  it("raises PyTorch's errors (strict, sizes, strategy)", () => {
    const indep = (x: Tensor, y: Tensor) => x.mul(2).add(y.mul(0).detach());
    expect(thrown(() => AF.jacobian(indep, [x3(), x3()], { strict: true })).message).toMatch(
      /^jacobian: Output 0 of the user-provided function is independent of input 1. This is not allowed in strict mode./,
    );
    const j = AF.jacobian(indep, [x3(), x3()]) as Tensor[];
    expect(j[1].abs().sum().item()).toBe(0);
    expect(thrown(() => AF.vjp(f3, x3(), torch.ones([2], { dtype: 'float64' }))).message).toMatch(/^vjp: Entry 0 in v has invalid size: should be \[3\] but got \[2\]/);
    expect(thrown(() => AF.vjp(f3, x3())).message).toMatch(/^vjp: The vector v can only be None if the user-provided function returns a single Tensor with a single element/);
    expect(thrown(() => AF.jacobian(f3, x3(), { strategy: 'forward-mode' })).message).toMatch(/only supported with `vectorize=True`/);
    expect(thrown(() => AF.hessian(f3, x3())).message).toMatch(/^hessian: The Tensor returned by the function given to hessian should contain a single element/);
  });
});

describe('forward AD errors for ops without a JVP', () => {
  it("raises PyTorch's message", () => {
    class Twice extends torch.autograd.Function {
      static override forward(_ctx: unknown, x: Tensor): Tensor {
        return x.mul(2);
      }
      static override backward(_ctx: unknown, g: Tensor): Tensor {
        return g.mul(2);
      }
    }
    fa.dualLevel(() => {
      const x = fa.makeDual(x3(), v3());
      expect(thrown(() => x.scatter(0, torch.tensor([0, 1]), torch.ones([2], { dtype: 'float64' }), { reduce: 'add' })).message).toMatch(
        /^Trying to use forward AD with aten::scatter_? that does not support it\.$/,
      );
      const e = thrown(() => Twice.apply(x));
      expect(e).toBeInstanceOf(torch.TorchError);
      expect(e.message).toBe('Twice: You must implement the jvp function for custom autograd.Function to use it with forward mode AD.');
      // without a tangent the Function runs
      expect(Twice.apply<Tensor>(x3()).tolist()).toEqual(x3().mul(2).tolist());
    });
  });
});
