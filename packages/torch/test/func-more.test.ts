/**
 * The rest of torch.func against PyTorch 1.13's functorch (goldens/func_more.json, written by
 * scripts/goldens/func_more.py): vmap of transposed convolutions by batching rule (input,
 * weight and bias batched, grouped), as_strided and in-place writes through views of batched
 * tensors, functorch's errors for out= forms and dynamic shapes; forward-mode AD under
 * noGrad, entered inside or outside the dual level (autograd Note [noGrad keeps forward AD]); reverse-over-forward (Note
 * [Reverse-over-forward]): grad of a function that calls jvp, by primal and by tangent, and
 * autograd.grad of an unpacked tangent.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '../src';
import type { Tensor } from '../src';
import { traceBatchedFallback } from '@torch-ts/core';

interface V {
  shape: number[];
  dtype: string;
  values: number[];
}
const G = JSON.parse(readFileSync(new URL('./goldens/func_more.json', import.meta.url), 'utf8')).cases as Record<string, Record<string, any>>;
const t = (v: V): Tensor => torch.tensor(v.values, { dtype: 'float64' }).reshape(v.shape);
const F = torch.nn.functional;
const fa = torch.autograd.forwardAd;
const { vmap, grad, jvp } = torch.func;

function close(a: Tensor | null | undefined, e: V, rtol = 1e-10, atol = 1e-12): void {
  expect(a).toBeInstanceOf(torch.Tensor);
  expect(a!.shape).toEqual(e.shape);
  const av = a!.reshape(-1).tolist() as number[];
  av.forEach((x, i) => expect(Math.abs(x - e.values[i]!), `element ${i}`).toBeLessThanOrEqual(atol + rtol * Math.abs(e.values[i]!)));
}

function thrownMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(torch.TorchError);
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('vmap batching rules (functorch goldens)', () => {
  it('transposed convolutions 1d/2d/3d with input, weight and bias batched, without the per-sample fallback', () => {
    const fns = { d1: F.convTranspose1d, d2: F.convTranspose2d, d3: F.convTranspose3d } as const;
    const looped = traceBatchedFallback(() => {
      for (const [name, c] of Object.entries(G.conv_transpose!)) {
        const fn = fns[name as keyof typeof fns] as (x: Tensor, w: Tensor, b: Tensor | null, o: object) => Tensor;
        const o = { stride: c.stride, padding: c.padding, outputPadding: c.output_padding, groups: c.groups };
        const [x, w, b] = [t(c.x), t(c.w), t(c.b)];
        close(vmap((xi: Tensor) => fn(xi, w.select(0, 0), b.select(0, 0), o))(x), c.input);
        close(vmap((wi: Tensor) => fn(x.select(0, 0), wi, null, o))(w), c.weight);
        close(vmap((xi: Tensor, wi: Tensor, bi: Tensor) => fn(xi, wi, bi, o))(x, w, b), c.all);
        close(vmap((xi: Tensor, wi: Tensor) => fn(xi.select(0, 0), wi, b.select(0, 0), o))(x, w), c.unbatched_sample);
      }
    });
    expect(looped).toEqual([]);
  });

  it('as_strided addresses each sample from its batch stride, and in-place ops write through batched views', () => {
    const c = G.views!;
    const x = t(c.x);
    close(vmap((a: Tensor) => a.asStrided([2, 2], [1, 2]))(x), c.strided, 0, 0);
    close(vmap((a: Tensor) => a.asStrided([2, 2], [1, 2], 1))(x), c.strided_offset, 0, 0);
    close(vmap((a: Tensor) => a.slice(0, 1).asStrided([2, 2], [1, 2]))(x), c.strided_of_slice, 0, 0);
    close(vmap((a: Tensor) => a.asStrided([2, 2], [1, 2]), { inDims: 1 })(x.t().contiguous()), c.strided_dim1, 0, 0);
    const y = x.clone();
    const out = vmap((a: Tensor) => {
      a.asStrided([2], [2]).mul_(10);
      return a;
    })(y);
    close(out, c.strided_write_out, 0, 0);
    close(y, c.strided_write_input, 0, 0);
    const z = x.clone();
    const vout = vmap((a: Tensor) => {
      a.slice(0, 1, 3).add_(a.slice(0, 5, 7));
      return a.slice(0, 0, 4);
    })(z);
    close(vout, c.view_add_out, 0, 0);
    close(z, c.view_add_input, 0, 0);
  });

  it("raises functorch's errors for out= forms and ops with data-dependent result shapes", () => {
    const e = G.errors!;
    const x = t(G.views!.x);
    expect(thrownMessage(() => vmap((a: Tensor) => torch.add(a, 1, { out: torch.empty([8], { dtype: 'float64' }) }))(x))).toBe(`vmap: ${e.out}`);
    const own = x.clone();
    expect(thrownMessage(() => vmap((a: Tensor) => torch.sin(a, { out: a }))(own))).toBe(`vmap: ${e.out_batched}`);
    close(own, G.views!.x, 0, 0); // (refused before anything was written)
    expect(thrownMessage(() => vmap((a: Tensor) => torch.nonzero(a))(x))).toBe(e.nonzero);
    expect(thrownMessage(() => vmap((a: Tensor) => torch.unique(a))(x))).toBe(e.unique);
    expect(thrownMessage(() => vmap((a: Tensor, m: Tensor) => torch.maskedSelect(a, m))(x, x.gt(3)))).toBe(e.masked_select);
    // an unbatched mask keeps one shape for every sample: it runs
    const m = x.select(0, 0).gt(3);
    const r = vmap((a: Tensor) => torch.maskedSelect(a, m))(x);
    expect(r.shape).toEqual([3, 4]);
    // a batched table bounds-checks each sample's rows, with embedding's own error
    const table = torch.zeros([3, 6, 2], { dtype: 'float64' });
    for (const ids of [[6], [-1]]) {
      const want = thrownMessage(() => F.embedding(torch.tensor(ids), table.select(0, 1)));
      expect(want).toBe('embedding: index out of range in self');
      expect(() => vmap((w: Tensor) => F.embedding(torch.tensor(ids), w))(table)).toThrow(torch.IndexError);
      expect(thrownMessage(() => vmap((w: Tensor) => F.embedding(torch.tensor(ids), w))(table))).toBe(want);
    }
  });
});

describe('batching rules equal the loop over samples in the cases the OpInfo sweep does not reach', () => {
  it('broadcast batch ranks, batched weights, whole-tensor reductions, in-place scatters, with no per-sample fallback', () => {
    torch.manualSeed(7);
    const r = (...shape: number[]) => torch.randn(shape, { dtype: 'float64' });
    const loop = (n: number, f: (k: number) => Tensor): Tensor => torch.stack(Array.from({ length: n }, (_, k) => f(k)));
    const check = (got: Tensor, want: Tensor) => close(got, { shape: [...want.shape], dtype: 'float64', values: want.reshape(-1).tolist() as number[] }, 1e-9, 1e-11);
    const x = r(3, 2, 4, 5);
    const g = r(3, 5);
    const bias = r(3, 5);
    const sq = r(4, 4).add(torch.eye(4, { dtype: 'float64' }).mul(4));
    const rhs = r(3, 2, 4, 2);
    const idx = torch.tensor([[0, 2], [1, 0]], { dtype: 'int64' });
    const cases: [string, () => void][] = [
      ['layerNorm, batched weight and bias', () => check(vmap((a: Tensor, w: Tensor, b: Tensor) => F.layerNorm(a, [5], w, b))(x, g, bias), loop(3, (k) => F.layerNorm(x.select(0, k), [5], g.select(0, k), bias.select(0, k))))],
      ['groupNorm, batched weight', () => {
        const w4 = r(3, 4).add(1);
        check(vmap((a: Tensor, w: Tensor) => F.groupNorm(a, 2, w))(x, w4), loop(3, (k) => F.groupNorm(x.select(0, k), 2, w4.select(0, k))));
      }],
      ['bce with logits, batched pos weight', () => {
        const pw = r(3, 5).abs();
        const tgt = torch.rand([2, 4, 5], { dtype: 'float64' });
        check(vmap((a: Tensor, p: Tensor) => F.binaryCrossEntropyWithLogits(a, tgt, { posWeight: p }))(x, pw), loop(3, (k) => F.binaryCrossEntropyWithLogits(x.select(0, k), tgt, { posWeight: pw.select(0, k) })));
      }],
      ['lu_solve, a batch rank per operand', () => {
        const [LU, piv] = torch.linalg.luFactor(sq) as Tensor[];
        check(vmap((b: Tensor) => torch.linalg.luSolve(LU!, piv!, b))(rhs), loop(3, (k) => torch.linalg.luSolve(LU!, piv!, rhs.select(0, k))));
      }],
      ['solve_triangular, batched matrix, unbatched rhs', () => {
        const A = r(3, 4, 4).triu().add(torch.eye(4, { dtype: 'float64' }).mul(3));
        const B = r(2, 4, 3);
        check(vmap((a: Tensor) => torch.linalg.solveTriangular(a, B, { upper: true }))(A), loop(3, (k) => torch.linalg.solveTriangular(A.select(0, k), B, { upper: true })));
      }],
      ['baddbmm, broadcast self', () => {
        const m1 = r(3, 2, 4, 5);
        const m2 = r(2, 5, 3);
        const s0 = r(3);
        check(vmap((a: Tensor) => torch.baddbmm(s0, a, m2, { beta: 0.5, alpha: 2 }))(m1), loop(3, (k) => torch.baddbmm(s0, m1.select(0, k), m2, { beta: 0.5, alpha: 2 })));
      }],
      ['argmax keepdim over every element, median, roll without dims, repeat with new dims, pads', () => {
        check(vmap((a: Tensor) => a.argmax(null, true))(x).double(), loop(3, (k) => x.select(0, k).argmax(null, true)).double());
        check(vmap((a: Tensor) => a.median())(x), loop(3, (k) => x.select(0, k).median()));
        check(vmap((a: Tensor) => a.roll(3))(x), loop(3, (k) => x.select(0, k).roll(3)));
        check(vmap((a: Tensor) => a.repeat([2, 1, 1, 2]))(x), loop(3, (k) => x.select(0, k).repeat([2, 1, 1, 2])));
        check(vmap((a: Tensor) => F.pad(a, [1, 2, 0, 1], 'constant', 0.5))(x), loop(3, (k) => F.pad(x.select(0, k), [1, 2, 0, 1], 'constant', 0.5)));
        check(vmap((a: Tensor) => a.flip([-1, 0]).tril(1))(x), loop(3, (k) => x.select(0, k).flip([-1, 0]).tril(1)));
      }],
      ['eval batch norm with unbatched running stats and affine parameters', () => {
        const [rm, rv, w, b] = [r(4), r(4).abs().add(0.5), r(4), r(4)];
        const bn = (a: Tensor) => F.batchNorm(a, rm, rv, { weight: w, bias: b, training: false });
        check(vmap(bn)(x.reshape([3, 2, 4, 5])), loop(3, (k) => bn(x.reshape([3, 2, 4, 5]).select(0, k))));
      }],
      ['in-place scatter_add_ and masked_fill_ with unbatched index and mask, scatter with a number', () => {
        const src = r(2, 2);
        const mask = r(4, 5).gt(0);
        const mask3 = torch.tensor([true, false, true]);
        const f = (a: Tensor) => a.clone().scatterAdd_(1, idx, src).maskedFill_(mask3, -1);
        const base = r(3, 2, 3);
        const fm = (a: Tensor) => a.clone().maskedFill_(mask, -1);
        check(vmap(f)(base), loop(3, (k) => f(base.select(0, k))));
        check(vmap(fm)(x), loop(3, (k) => fm(x.select(0, k))));
        // scatter with a number for src (scatter_.value, .value_reduce), index batched or not
        const idxB = torch.tensor([[[0, 2], [1, 0]], [[1, 1], [0, 2]], [[2, 0], [0, 1]]], { dtype: 'int64' });
        const sv = (a: Tensor, i: Tensor) => torch.scatter(a, 1, i, 2.5).scatter_(1, i, 3, { reduce: 'multiply' });
        check(vmap((a: Tensor) => sv(a, idx))(base), loop(3, (k) => sv(base.select(0, k), idx)));
        check(vmap(sv)(base, idxB), loop(3, (k) => sv(base.select(0, k), idxB.select(0, k))));
      }],
      ['training batch norm without running stats: weight and bias batched or not, 2-D to 4-D input', () => {
        const [w, b, wb, bb] = [r(4), r(4), r(3, 4), r(3, 4)];
        const x2 = r(3, 5, 4);
        const x4 = x.reshape([3, 2, 4, 5]).mul(2).add(1);
        for (const xs of [x2, x4]) {
          const plain = (a: Tensor) => F.batchNorm(a, null, null, { training: true, eps: 1e-3 });
          check(vmap(plain)(xs), loop(3, (k) => plain(xs.select(0, k))));
          const affine = (a: Tensor) => F.batchNorm(a, null, null, { weight: w, bias: b, training: true });
          check(vmap(affine)(xs), loop(3, (k) => affine(xs.select(0, k))));
          const per = (a: Tensor, wi: Tensor, bi: Tensor) => F.batchNorm(a, null, null, { weight: wi, bias: bi, training: true });
          check(vmap(per)(xs, wb, bb), loop(3, (k) => per(xs.select(0, k), wb.select(0, k), bb.select(0, k))));
          // (the batch at another dim of the input)
          check(vmap(affine, { inDims: 1 })(xs.movedim(0, 1)), loop(3, (k) => affine(xs.select(0, k))));
        }
      }],
      ['embedding with a batched table, searchsorted with batched sequences, masked_select with an unbatched mask', () => {
        const table = r(3, 6, 4);
        const ids = torch.tensor([[5, 0, 2], [1, 1, 4]], { dtype: 'int64' });
        const idsB = torch.tensor([[[5, 0], [2, 3]], [[1, 1], [4, 0]], [[0, 5], [3, 3]]], { dtype: 'int64' });
        check(vmap((w: Tensor) => F.embedding(ids, w))(table), loop(3, (k) => F.embedding(ids, table.select(0, k))));
        check(vmap((w: Tensor, i: Tensor) => F.embedding(i, w))(table, idsB), loop(3, (k) => F.embedding(idsB.select(0, k), table.select(0, k))));
        // (int32 indices: embedding takes them, the rule's gather needs int64)
        const idsB32 = idsB.to('int32');
        check(vmap((w: Tensor, i: Tensor) => F.embedding(i, w))(table, idsB32), loop(3, (k) => F.embedding(idsB32.select(0, k), table.select(0, k))));
        const seq1 = r(3, 5).sort().values;
        const seq2 = r(3, 2, 5).sort().values;
        const vals = r(3, 2, 3);
        check(vmap((q: Tensor, v: Tensor) => torch.searchsorted(q, v))(seq1, vals).double(), loop(3, (k) => torch.searchsorted(seq1.select(0, k), vals.select(0, k))).double());
        check(vmap((q: Tensor) => torch.searchsorted(q, vals.select(0, 0), { right: true }))(seq1).double(), loop(3, (k) => torch.searchsorted(seq1.select(0, k), vals.select(0, 0), { right: true })).double());
        check(vmap((q: Tensor, v: Tensor) => torch.searchsorted(q, v))(seq2, vals).double(), loop(3, (k) => torch.searchsorted(seq2.select(0, k), vals.select(0, k))).double());
        check(vmap((q: Tensor) => torch.searchsorted(q, vals.select(0, 1)))(seq2).double(), loop(3, (k) => torch.searchsorted(seq2.select(0, k), vals.select(0, 1))).double());
        const mask = r(4, 1).gt(0).logicalOr(torch.tensor([true, false, false, true, false]));
        check(vmap((a: Tensor) => torch.maskedSelect(a, mask))(x), loop(3, (k) => torch.maskedSelect(x.select(0, k), mask)));
        const wide = r(2, 1, 5).gt(0);
        const col = r(3, 4, 1);
        check(vmap((a: Tensor) => torch.maskedSelect(a, wide))(col), loop(3, (k) => torch.maskedSelect(col.select(0, k), wide)));
      }],
    ];
    const looped = traceBatchedFallback(() => {
      for (const [name, run] of cases) {
        try {
          run();
        } catch (e) {
          throw new Error(`${name}: ${(e as Error).message}`);
        }
      }
    });
    expect(looped).toEqual([]);
  });
});

describe('forward-mode AD under noGrad and reverse-over-forward (PyTorch goldens)', () => {
  it('propagates tangents under noGrad inside a dual level, recording no reverse-mode history', () => {
    const c = G.no_grad!;
    const q = t(c.q).requiresGrad_();
    fa.dualLevel(() => {
      const d = fa.makeDual(t(c.p), t(c.v));
      const [r1, r2, r2Grad] = torch.noGrad(() => {
        const r1 = d.sin().mul(d);
        const dq = fa.makeDual(q, t(c.v));
        const r2 = dq.mul(dq).tanh().sum();
        return [r1, r2, r2.requiresGrad] as const;
      });
      expect(torch.isGradEnabled()).toBe(true);
      close(fa.unpackDual(r1).tangent, c.sin_mul);
      close(fa.unpackDual(r2).tangent, c.tanh_sum);
      expect(r2Grad).toBe(c.tanh_sum_requires_grad);
      // enableGrad inside noGrad records again
      const r3 = torch.noGrad(() =>
        torch.enableGrad(() => {
          const dq = fa.makeDual(q, t(c.v));
          return dq.mul(dq).tanh().sum();
        }),
      );
      expect(r3.requiresGrad).toBe(true);
      close(r3, c.enable_grad_value);
      close(fa.unpackDual(r3).tangent, c.enable_grad_tangent);
    });
  });

  it('propagates tangents in a dual level entered inside noGrad, in both scope forms', () => {
    const c = G.no_grad!;
    const o = G.no_grad_outer!;
    const q = t(c.q).requiresGrad_();
    const body = (): void => {
      const d = fa.makeDual(t(c.p), t(c.v));
      close(fa.unpackDual(d.sin().mul(d)).tangent, o.sin_mul);
      const dq = fa.makeDual(q, t(c.v));
      const r2 = dq.mul(dq).tanh().sum();
      expect(r2.requiresGrad).toBe(o.tanh_sum_requires_grad);
      close(fa.unpackDual(r2).tangent, o.tanh_sum);
      expect(torch.isGradEnabled()).toBe(false);
      const r3 = torch.enableGrad(() => {
        const dq2 = fa.makeDual(q, t(c.v));
        return dq2.mul(dq2).tanh().sum();
      });
      expect(r3.requiresGrad).toBe(o.enable_grad_requires_grad);
      close(fa.unpackDual(r3).tangent, o.enable_grad_tangent);
    };
    torch.noGrad(() => {
      fa.dualLevel(body);
      expect(torch.isGradEnabled()).toBe(o.grad_enabled_after);
      expect(q.mul(2).requiresGrad).toBe(o.after_requires_grad);
    });
    {
      using _ng = torch.noGrad();
      {
        using _dl = fa.dualLevel();
        body();
      }
      expect(torch.isGradEnabled()).toBe(o.grad_enabled_after);
      expect(q.mul(2).requiresGrad).toBe(o.after_requires_grad);
    }
    expect(torch.isGradEnabled()).toBe(true);
    expect(q.mul(2).requiresGrad).toBe(true);
  });

  it('differentiates through jvp: grad by the primal and by the tangent, a closure, an unpacked tangent', () => {
    const c = G.reverse_over_forward!;
    const [A, x, v] = [t(c.A), t(c.x), t(c.v)];
    const fs: Record<string, (q: Tensor) => Tensor> = {
      sin_mul: (q) => q.sin().mul(q),
      mv_tanh: (q) => torch.mv(A, q).tanh(),
      softmax: (q) => torch.softmax(q.mul(q), 0),
      views: (q) => q.slice(0, 1).mul(q.slice(0, 0, -1)).add(q.reshape([2, 2]).t().reshape([4]).slice(0, 0, 3)),
      norm_exp: (q) => q.exp().div(q.norm()),
    };
    for (const [name, f] of Object.entries(fs)) {
      const g = c.fns[name];
      close(grad((q: Tensor) => (jvp(f, [q], [v])[1] as Tensor).sum())(x), g.wrt_primal);
      close(grad((tv: Tensor) => (jvp(f, [x], [tv])[1] as Tensor).pow(2).sum())(v), g.wrt_tangent);
    }
    close(grad((q: Tensor) => (jvp((r: Tensor) => r.sin().mul(q), [x], [v])[1] as Tensor).sum())(x), c.closure);
    const xr = x.clone().requiresGrad_();
    const tt = fa.dualLevel(() => fa.unpackDual(fa.makeDual(xr, v).sin().mul(xr.exp())).tangent!.sum());
    close(torch.autograd.grad([tt], [xr])[0], c.unpacked_tangent);
  });
});
