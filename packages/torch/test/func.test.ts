/**
 * torch.func against PyTorch 1.13's functorch (goldens/func.json, written by
 * scripts/goldens/func.py) and against plain loops: grad / gradAndValue / vjp / jvp / jacrev /
 * jacfwd / hessian values, vmap's inDims / outDims / nesting / chunkSize / randomness, functionalCall's
 * substitution and restore, stackModuleState ensembling, and per-sample CNN gradients.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '../src';
import type { Tensor } from '../src';
import { thrown } from './helpers';

interface V {
  shape: number[];
  dtype: string;
  values: number[];
}
const G = JSON.parse(readFileSync(new URL('./goldens/func.json', import.meta.url), 'utf8')).cases as Record<string, Record<string, any>>;
const t = (v: V): Tensor => torch.tensor(v.values, { dtype: 'float64' }).reshape(v.shape);
const F = torch.nn.functional;
const { vmap, grad, gradAndValue, vjp, jvp, jacrev, jacfwd, hessian, functionalCall, stackModuleState } = torch.func;

function close(a: Tensor, b: Tensor | V, rtol = 1e-10, atol = 1e-12): void {
  const e = b instanceof torch.Tensor ? b : t(b);
  expect(a.shape).toEqual(e.shape);
  const av = a.reshape(-1).tolist() as number[];
  const ev = e.reshape(-1).tolist() as number[];
  av.forEach((x, i) => expect(Math.abs(x - ev[i]!)).toBeLessThanOrEqual(atol + rtol * Math.abs(ev[i]!)));
}

describe('grad, gradAndValue, vjp, jacrev, hessian (functorch goldens)', () => {
  it('match functorch values', () => {
    let c = G.grad_sin!;
    close(grad((x: Tensor) => x.sin().mul(x).sum())(t(c.x)), c.grad);
    c = G.grad_argnums!;
    const [gx, gy] = grad((x: Tensor, y: Tensor) => x.mul(y.exp()).sum(), { argnums: [0, 1] })(t(c.x), t(c.y));
    close(gx, c.gx);
    close(gy, c.gy);
    c = G.grad_aux!;
    const [ga, aux] = grad((x: Tensor) => [x.pow(3).sum(), x.cos()], { hasAux: true })(t(c.x));
    close(ga, c.grad);
    close(aux, c.aux);
    c = G.grad_and_value!;
    const [gv, v] = gradAndValue((x: Tensor) => x.tanh().pow(2).sum())(t(c.x)) as [Tensor, Tensor];
    close(gv, c.grad);
    close(v, c.value);
    c = G.jacrev_mv_tanh!;
    const A = t(c.A);
    close(jacrev((x: Tensor) => torch.mv(A, x).tanh())(t(c.x)), c.jac);
    c = G.jacrev_outer!;
    const [j0, j1] = jacrev((x: Tensor, y: Tensor) => x.unsqueeze(1).mul(y.unsqueeze(0)).sin(), [0, 1])(t(c.x), t(c.y));
    close(j0, c.j0);
    close(j1, c.j1);
    c = G.hessian!;
    close(hessian((x: Tensor) => x.sin().mul(torch.roll(x, 1)).sum().add(x.pow(4).sum()))(t(c.x)), c.hess);
    c = G.hessian_xy!;
    close(hessian((x: Tensor, y: Tensor) => x.exp().mul(y.sin()).sum(), 1)(t(c.x), t(c.y)), c.hess);
    c = G.vjp!;
    const B = t(c.A);
    const [out, fn] = vjp((x: Tensor) => B.matmul(x.sin()), t(c.x));
    close(out as Tensor, c.out);
    close(fn(t(c.ct))[0] as Tensor, c.grad);
  });

  it('compose with autograd, give zeros for unused inputs, and raise functorch errors', () => {
    // grad of grad: d2/dx2 of x^3 = 6x
    const x = torch.tensor([0.5, -1.5], { dtype: 'float64' });
    close(grad((u: Tensor) => grad((w: Tensor) => w.pow(3).sum())(u).sum())(x), x.mul(6));
    // grad's result stays differentiable when its input requires grad (outer backward)
    const w = x.clone().requiresGrad_(true);
    grad((u: Tensor) => u.pow(3).sum())(w).sum().backward();
    close(w.grad!, x.mul(6));
    // unused input: zero gradient
    close(grad((_a: Tensor, b: Tensor) => b.sum(), { argnums: 0 })(x, x), torch.zeros([2], { dtype: 'float64' }));
    // pytree argument
    const g = grad((p: { a: Tensor; b: Tensor }) => p.a.mul(p.b).sum())({ a: x, b: x.add(1) });
    close(g.a, x.add(1));
    close(g.b, x);
    const e1 = thrown(() => grad((u: Tensor) => u.mul(2))(x));
    expect(e1).toBeInstanceOf(torch.TorchError);
    expect(e1.message).toMatch(/^gradAndValue\(f\)\(\*args\): Expected f\(\*args\) to return a scalar Tensor, got tensor with 1 dims/);
    const e2 = thrown(() => grad((u: Tensor) => u.sum(), { argnums: 2 })(x));
    expect(e2.message).toMatch(/^gradAndValue\(f\)\(\*args\): Got argnums=2, but only 1 positional inputs/);
    const e3 = thrown(() => grad((u: Tensor) => u.sum())(torch.tensor([1, 2])));
    expect(e3.message).toMatch(/only floating point and complex Tensors can be differentiated, got one of dtype int64/);
    const [, vf] = vjp((u: Tensor) => u.mul(2), x);
    expect(thrown(() => vf(torch.ones([3], { dtype: 'float64' }))).message).toMatch(/^vjp: Mismatch in shape: grad_output\[0\] has a shape of \[3\] and output\[0\] has a shape of \[2\]/);
  });
});

describe('jvp, jacfwd (forward mode, functorch goldens)', () => {
  it('match functorch values, and jacfwd equals jacrev', () => {
    let c = G.jvp_mv_tanh!;
    const A = t(c.A);
    const [o1, j1] = jvp((x: Tensor) => torch.mv(A, x).tanh(), [t(c.x)], [t(c.tx)]) as [Tensor, Tensor];
    close(o1, c.out);
    close(j1, c.jvp);
    c = G.jvp_two_aux!;
    const [o2, j2, aux] = jvp((x: Tensor, y: Tensor) => [x.mul(y.exp()).sin(), x.cos()], [t(c.x), t(c.y)], [t(c.tx), t(c.ty)], { hasAux: true }) as [Tensor, Tensor, Tensor];
    close(o2, c.out);
    close(j2, c.jvp);
    close(aux, c.aux);
    c = G.jacfwd_mv_tanh!;
    const f3 = (x: Tensor) => torch.mv(t(G.jacfwd_mv_tanh!.A), x).tanh();
    close(jacfwd(f3)(t(c.x)), c.jac);
    close(jacfwd(f3)(t(c.x)), jacrev(f3)(t(c.x)));
    c = G.jacfwd_outer!;
    const [k0, k1] = jacfwd((x: Tensor, y: Tensor) => x.unsqueeze(1).mul(y.unsqueeze(0)).sin(), [0, 1])(t(c.x), t(c.y));
    close(k0, c.j0);
    close(k1, c.j1);
    c = G.jacfwd_two_outputs!;
    const [ja, jb] = jacfwd((x: Tensor) => [x.sin().sum(), x.unsqueeze(1).mul(x.unsqueeze(0))])(t(c.x));
    close(ja, c.ja);
    close(jb, c.jb);
  });

  it('raise for mismatched primals and tangents, and leave no dual level open', () => {
    const x = torch.ones([3], { dtype: 'float64' });
    expect(thrown(() => jvp((a: Tensor) => a, x as never, [x])).message).toMatch(/^jvp\(f, primals, tangents\): Expected primals to be a tuple/);
    expect(thrown(() => jvp((a: Tensor) => a, [x], [torch.ones([2], { dtype: 'float64' })])).message).toMatch(/same shape; primal 0 has \[3\], tangent 0 has \[2\]/);
    expect(thrown(() => jvp((a: Tensor) => a, [x], [x, x])).message).toMatch(/same python structure/);
    expect(thrown(() => jvp(() => 3, [x], [x])).message).toMatch(/Tensor outputs/);
    // the level closed on the throw: a new one opens
    const [, tan] = jvp((a: Tensor) => a.mul(2), [x], [x]) as [Tensor, Tensor];
    expect(tan.tolist()).toEqual([2, 2, 2]);
  });
});

describe('vmap', () => {
  const X = torch.randn([4, 3], { dtype: 'float64' });
  const Y = torch.randn([3, 4], { dtype: 'float64' });
  const loop = (n: number, f: (i: number) => Tensor) => torch.stack(Array.from({ length: n }, (_, i) => f(i)));

  it('equals a loop over the batch for op families, inDims, outDims, nesting and chunkSize', () => {
    const M = torch.randn([3, 5], { dtype: 'float64' });
    const fns: [string, (r: Tensor) => Tensor][] = [
      ['unary', (r) => r.exp().sin()],
      ['binary broadcast', (r) => r.add(M.select(1, 0))],
      ['reduction dim', (r) => r.sum(0, true).add(r.amax(0))],
      ['matmul', (r) => r.matmul(M)],
      ['views', (r) => r.unsqueeze(0).expand([2, 3]).transpose(0, 1).reshape(-1)],
      ['softmax', (r) => torch.softmax(r, 0).add(torch.logSoftmax(r, 0))],
      ['cat/stack', (r) => torch.cat([r, torch.stack([r, r]).reshape(-1)])],
      ['indexing', (r) => r.index(torch.tensor([2, 0]))],
    ];
    for (const [, f] of fns) close(vmap(f)(X), loop(4, (i) => f(X.select(0, i))));
    // inDims per argument, with an unmapped one; negative dims; outDims
    const h = (a: Tensor, b: Tensor, c: Tensor) => a.mul(b).add(c);
    const c0 = torch.randn([3], { dtype: 'float64' });
    close(vmap(h, { inDims: [0, 1, null] })(X, Y, c0), loop(4, (i) => h(X.select(0, i), Y.select(1, i), c0)));
    close(vmap(h, { inDims: [-2, -1, null], outDims: 1 })(X, Y, c0), loop(4, (i) => h(X.select(0, i), Y.select(1, i), c0)).transpose(0, 1));
    // several outputs with their own outDims, pytree inputs
    const [o1, o2] = vmap((p: { a: Tensor; b: Tensor }) => [p.a.sum(), p.a.mul(p.b)], { inDims: [{ a: 0, b: 1 }], outDims: [0, 1] })({ a: X, b: Y });
    close(o1 as Tensor, X.sum(1));
    close(o2 as Tensor, X.mul(Y.t()).t());
    // nested: outer product of every pair of rows
    const outer = vmap(vmap((a: Tensor, b: Tensor) => a.dot(b), { inDims: [null, 0] }), { inDims: [0, null] });
    close(outer(X, Y.t()), X.matmul(Y));
    // chunkSize does not change the result
    for (const chunkSize of [1, 3, 4, 10]) close(vmap((r: Tensor) => r.cos(), { chunkSize })(X), X.cos());
  });

  it('randomness modes, and errors for mismatched sizes and bad options', () => {
    const Z = torch.zeros([5, 2], { dtype: 'float64' });
    const e = thrown(() => vmap((r: Tensor) => r.add(torch.randn([2], { dtype: 'float64' })))(Z));
    expect(e).toBeInstanceOf(torch.TorchError);
    expect(e.message).toMatch(/^vmap: called random operation while in randomness error mode/);
    const same = vmap((r: Tensor) => r.add(torch.randn([2], { dtype: 'float64' })), { randomness: 'same' })(Z);
    for (let i = 1; i < 5; i++) close(same.select(0, i), same.select(0, 0));
    const diff = vmap((r: Tensor) => r.add(torch.randn([2], { dtype: 'float64' })), { randomness: 'different' })(Z);
    expect(diff.select(0, 1).sub(diff.select(0, 0)).abs().sum().item()).toBeGreaterThan(0);
    expect(thrown(() => vmap((a: Tensor, b: Tensor) => a.add(b))(X, Y)).message).toMatch(
      /^vmap: Expected all tensors to have the same size in the mapped dimension, got sizes \[4, 3\]/,
    );
    expect(thrown(() => vmap((a: Tensor) => a, { inDims: null })(X)).message).toMatch(/^vmap: at least one input must be a Tensor mapped over/);
    expect(thrown(() => vmap((a: Tensor) => a, { inDims: 2 })(X)).message).toMatch(/^vmap: inDims: dim 2 is out of bounds for a tensor of dimension 2/);
    expect(thrown(() => vmap((a: Tensor) => a, { chunkSize: 0 })).message).toMatch(/^vmap: chunkSize should be null or a positive integer, got 0/);
    expect(thrown(() => vmap((a: Tensor) => a.shape[0])(X)).message).toMatch(/^vmap: fn must only return Tensors/);
    // (reading a batched tensor's value is refused first, as PyTorch's vmap refuses .item())
    expect(thrown(() => vmap((a: Tensor) => a.sum().item())(X)).message).toMatch(/^vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow/);
  });
});

describe('functionalCall, stackModuleState, per-sample gradients', () => {
  it('functionalCall substitutes for one call and restores, even on throw', () => {
    const c = G.functional_call!;
    const lin = new torch.nn.Linear(3, 2).double();
    const W0 = lin.weight;
    close(functionalCall(lin, { weight: t(c.W), bias: t(c.b) }, t(c.x)), c.out);
    expect(lin.weight).toBe(W0);
    expect(lin._parameters.get('weight')).toBe(W0);
    const net = new torch.nn.Sequential(lin, new torch.nn.ReLU());
    const bad = thrown(() => functionalCall(net, { '0.weight': torch.zeros([2, 3], { dtype: 'float64' }) }, torch.zeros([4, 5], { dtype: 'float64' })));
    expect(bad).toBeInstanceOf(torch.TorchError);
    expect(lin.weight).toBe(W0);
    expect(thrown(() => functionalCall(lin, { nope: W0 }, t(c.x))).message).toMatch(/^functionalCall: Linear has no parameter or buffer named 'nope'/);
    // gradients flow to the substituted tensors
    const W = t(c.W).requiresGrad_(true);
    functionalCall(lin, { weight: W }, t(c.x)).sum().backward();
    close(W.grad!, t(c.x).sum(0, true).expand([2, 3]));
  });

  it('stackModuleState + vmap(functionalCall) equals each model run alone', () => {
    const models = [0, 1, 2].map(() => new torch.nn.Linear(3, 2).double());
    const [params, buffers] = stackModuleState(models);
    expect(params.weight!.shape).toEqual([3, 2, 3]);
    expect(params.weight!.requiresGrad).toBe(true);
    const x = torch.randn([5, 3], { dtype: 'float64' });
    const ens = vmap((p: Record<string, Tensor>, b: Record<string, Tensor>, u: Tensor) => functionalCall(models[0]!, [p, b], u), { inDims: [0, 0, null] })(params, buffers, x);
    close(ens, torch.stack(models.map((m) => m(x))));
    expect(thrown(() => stackModuleState([])).message).toBe('stackModuleState: Expected at least one model, got 0.');
    models[1]!.eval();
    expect(thrown(() => stackModuleState(models)).message).toMatch(/^stackModuleState: Expected all models to have the same training\/eval mode/);
  });

  it('vmap(grad) per-sample CNN gradients equal functorch and the loop over samples', () => {
    const c = G.per_sample_cnn!;
    const p = Object.fromEntries(Object.entries(c.params as Record<string, V>).map(([k, v]) => [k, t(v)]));
    const xs = t(c.x);
    const ys = torch.tensor(c.y as number[]);
    const loss = (q: Record<string, Tensor>, x: Tensor, y: Tensor) => {
      const h = F.relu(F.conv2d(x.unsqueeze(0), q.cw!, q.cb!));
      return F.crossEntropy(F.linear(h.flatten(1), q.lw!, q.lb!), y.unsqueeze(0));
    };
    const per = vmap(grad(loss), { inDims: [null, 0, 0] })(p, xs, ys) as Record<string, Tensor>;
    for (const k of Object.keys(p)) {
      close(per[k]!, (c.grads as Record<string, V>)[k]!, 1e-9, 1e-12);
      close(per[k]!, loop4((i) => grad(loss)(p, xs.select(0, i), ys.select(0, i))[k]));
    }
  });
});

function loop4(f: (i: number) => Tensor): Tensor {
  return torch.stack([0, 1, 2, 3].map(f));
}
