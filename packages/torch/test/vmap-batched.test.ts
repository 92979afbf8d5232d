/**
 * vmap over batched tensors (core Note [Batched tensors], func Note [vmap over batched
 * tensors]): per-sample gradients of a small CNN through batching rules only (no per-sample
 * fallback), the fallback's one warning per op, nested levels, inDims / outDims / chunkSize,
 * grad / jacrev / jacfwd / hessian inside and outside vmap, each against a loop over samples,
 * and PyTorch's errors for writes into unbatched tensors.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as torch from '../src';
import type { Tensor } from '../src';

const F = torch.nn.functional;
const { vmap, grad, jacrev, jacfwd, hessian } = torch.func;

function close(a: Tensor, e: Tensor, rtol = 1e-10, atol = 1e-12): void {
  expect(a.shape).toEqual(e.shape);
  const av = a.reshape(-1).tolist() as number[];
  const ev = e.reshape(-1).tolist() as number[];
  av.forEach((x, i) => expect(Math.abs(x - ev[i]!)).toBeLessThanOrEqual(atol + rtol * Math.abs(ev[i]!)));
}

const loop = (n: number, f: (i: number) => Tensor): Tensor => torch.stack(Array.from({ length: n }, (_, i) => f(i)));
const rand = (shape: number[], seed: number): Tensor => {
  torch.manualSeed(seed);
  return torch.randn(shape, { dtype: 'float64' });
};

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => warn.mockRestore());
const fallbackWarnings = (): string[] => warn.mock.calls.map((c: unknown[]) => String(c[0])).filter((m: string) => m.includes('performance drop'));

describe('vmap over batched tensors', () => {
  it('per-sample CNN gradients (conv2d, relu, maxPool2d, linear, logSoftmax + nllLoss) equal the loop, with no per-sample fallback', () => {
    const p: Record<string, Tensor> = { cw: rand([4, 2, 3, 3], 1), cb: rand([4], 2), lw: rand([3, 16], 3), lb: rand([3], 4) };
    const xs = rand([3, 2, 6, 6], 5);
    const ys = torch.tensor([0, 2, 1]);
    const loss = (q: Record<string, Tensor>, x: Tensor, y: Tensor): Tensor => {
      const h = F.maxPool2d(F.relu(F.conv2d(x.unsqueeze(0), q.cw!, q.cb!, { padding: 1 })), 3);
      return F.nllLoss(F.logSoftmax(F.linear(h.flatten(1), q.lw!, q.lb!), 1), y.unsqueeze(0));
    };
    const per = vmap(grad(loss), { inDims: [null, 0, 0] })(p, xs, ys) as Record<string, Tensor>;
    expect(fallbackWarnings()).toEqual([]);
    for (const k of Object.keys(p)) close(per[k]!, loop(3, (i) => (grad(loss)(p, xs.select(0, i), ys.select(0, i)) as Record<string, Tensor>)[k]!));
    // the batch mapped with the weights too (each sample its own model): conv's batch folds into groups
    const ps = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, torch.stack([v, v.mul(0.5), v.neg()])]));
    const perModel = vmap(grad(loss))(ps, xs, ys) as Record<string, Tensor>;
    expect(fallbackWarnings()).toEqual([]);
    const sub = (i: number) => Object.fromEntries(Object.entries(ps).map(([k, v]) => [k, v.select(0, i)]));
    for (const k of Object.keys(p)) close(perModel[k]!, loop(3, (i) => (grad(loss)(sub(i), xs.select(0, i), ys.select(0, i)) as Record<string, Tensor>)[k]!));
    // crossEntropy with a mean over a per-sample batch of 2
    const ce = (w: Tensor, x: Tensor, y: Tensor) => F.crossEntropy(torch.matmul(x, w), y);
    const xb = rand([4, 2, 3], 6);
    const yb = torch.tensor([[0, 1], [1, 1], [0, 0], [1, 0]]);
    const w = rand([3, 2], 7);
    close(vmap(grad(ce), { inDims: [null, 0, 0] })(w, xb, yb), loop(4, (i) => grad(ce)(w, xb.select(0, i), yb.select(0, i))));
    expect(fallbackWarnings()).toEqual([]);
  });

  it('runs an op without a rule per sample, warning once per op in PyTorch words, with the loop values', () => {
    const x = rand([3, 4, 4], 8);
    const idx = torch.tensor([0, 5, -1], { dtype: 'int64' });
    const f = (a: Tensor) => torch.take(a.sin(), idx);
    close(vmap(f)(x), loop(3, (i) => f(x.select(0, i))), 0, 0);
    close(vmap(f)(x), loop(3, (i) => f(x.select(0, i))), 0, 0);
    const w = fallbackWarnings();
    expect(w.length).toBe(1);
    expect(w[0]).toMatch(/^vmap: There is a performance drop because we have not yet implemented the batching rule for aten::take/);
  });

  it('nests levels, maps non-zero and null inDims, places outDims, and chunks', () => {
    const x = rand([2, 3, 4], 9);
    const y = rand([4, 5], 10);
    const f = (a: Tensor, b: Tensor) => torch.matmul(a, b).softmax(-1).sum(0);
    // inner over x's dim 1, outer over dim 0; y unbatched at both levels
    const nested = vmap(vmap(f, { inDims: [0, null] }), { inDims: [0, null] })(x.unsqueeze(2), y);
    close(nested, loop(2, (i) => loop(3, (j) => f(x.select(0, i).select(0, j).unsqueeze(0), y))), 1e-12, 1e-14);
    const moved = vmap((a: Tensor) => a.mul(2).sum(0), { inDims: 2, outDims: 1 })(x);
    close(moved, loop(4, (k) => x.select(2, k).mul(2).sum(0)).movedim(0, 1), 0, 0);
    const bothLevels = vmap((a: Tensor) => vmap((b: Tensor) => a.mul(b))(y.select(0, 0)))(x.select(1, 0));
    close(bothLevels, loop(2, (i) => loop(5, (j) => x.select(1, 0).select(0, i).mul(y.select(0, 0).select(0, j)))), 0, 0);
    const chunked = vmap((a: Tensor) => a.exp().sum(), { inDims: 1, chunkSize: 2 })(x);
    close(chunked, loop(3, (i) => x.select(1, i).exp().sum()), 1e-14, 0);
    // an output that does not depend on the mapped input is expanded over the batch
    const [same, dep] = vmap((a: Tensor) => [y.sum(), a.sum()], { outDims: [0, 0] })(x) as Tensor[];
    close(same!, y.sum().expand([2]), 0, 0);
    close(dep!, x.sum([1, 2]), 1e-14, 0);
  });

  it('composes with grad outside, jacrev / jacfwd / hessian inside, and equals the loops', () => {
    const x = rand([3, 4], 11);
    const A = rand([4, 4], 12);
    const f = (v: Tensor) => torch.mv(A, v.tanh()).pow(2).sum();
    // grad outside vmap: autograd through the physical ops
    const outside = grad((xs: Tensor) => vmap(f)(xs).sum())(x);
    close(outside, loop(3, (i) => grad(f)(x.select(0, i))), 1e-12, 1e-14);
    close(vmap(jacrev(f))(x), loop(3, (i) => jacrev(f)(x.select(0, i))), 1e-12, 1e-14);
    close(vmap(jacfwd(f))(x), loop(3, (i) => jacfwd(f)(x.select(0, i))), 1e-12, 1e-14);
    close(vmap(hessian(f))(x), loop(3, (i) => hessian(f)(x.select(0, i))), 1e-12, 1e-14);
    close(vmap(vmap(grad(f)))(x.reshape([3, 1, 4])), loop(3, (i) => grad(f)(x.select(0, i))).unsqueeze(1), 1e-12, 1e-14);
  });

  it("raises PyTorch's errors for writes into an unbatched tensor and for data-dependent reads", () => {
    const x = rand([3, 4], 13);
    const y = rand([4], 14);
    // (functorch 1.13 batches add_ pointwise and the kernel refuses: vmap-inplace.test.ts has every op's message)
    expect(() => vmap((a: Tensor) => y.add_(a))(x)).toThrow("add_: output with shape [4] doesn't match the broadcast shape [3, 4]");
    expect(() => vmap((a: Tensor) => y.sub_(a))(x)).toThrow(/^vmap: inplace arithmetic\(self, \*extra_args\) is not possible/);
    // writing into a batched tensor is fine, and reaches the physical value
    const z = x.clone();
    vmap((a: Tensor) => a.mul_(2))(z);
    close(z, x.mul(2), 0, 0);
    expect(() => vmap((a: Tensor) => torch.tensor(a.sum().item()))(x)).toThrow(/data-dependent control flow/);
  });
});
