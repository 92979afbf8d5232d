/**
 * The rest of torch.func against PyTorch 1.13's functorch (goldens/func_more.json, written by
 * scripts/goldens/func_more.py): vmap of transposed convolutions by batching rule (input,
 * weight and bias batched, grouped), as_strided and in-place writes through views of batched
 * tensors, functorch's errors for out= forms and dynamic shapes; forward-mode AD under
 * noGrad (core Note [noGrad keeps forward AD]); reverse-over-forward (Note
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
