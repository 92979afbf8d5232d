/**
 * torch.func on WebGPU: a few representative cases, CPU as the oracle (the exhaustive checks
 * are func.test.ts on the CPU). vmap of a matmul + softmax, jacrev, and per-sample gradients
 * with vmap(grad) of a small linear model, all float32 on 'webgpu', against the same
 * computation on the CPU; and batching rules on WebGPU (core Note [Batched tensors]): a small
 * CNN's per-sample gradients (shared weights: the batch folds into conv's N; per-sample
 * weights: into its groups) and a nested vmap, with no per-sample fallback; the rules for
 * transposed convolution, layer norm with a batched weight and as_strided, forward-AD
 * tangents under noGrad, and grad of a function that calls jvp; the rules for a batched
 * embedding table and training batch norm, tangents in a dual level entered under noGrad
 * through gather's JVP; the rules for advanced indexing, index_put and batch norm with
 * batched running stats.
 */
import { describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

const { vmap, grad, jacrev } = torch.func;
const F = torch.nn.functional;

async function expectClose(gpu: Tensor, cpu: Tensor): Promise<void> {
  expect(String(gpu.device)).toBe('webgpu:0');
  expect(gpu.shape).toEqual(cpu.shape);
  const got = Array.from((await gpu.data()) as Float32Array);
  const want = Array.from(cpu.contiguous().dataSync() as Float32Array);
  got.forEach((x, j) => {
    if (!(Math.abs(x - want[j]!) <= 1e-5 * Math.abs(want[j]!) + 1e-5)) expect.fail(`[${j}]: ${x} on webgpu vs ${want[j]} on the CPU`);
  });
}

const ready = await torch.webgpu.init();
if (ready) {
  describe('torch.func on webgpu equals the CPU', () => {
    it('vmap, jacrev and vmap(grad) per-sample gradients', async () => {
      const X = torch.randn([5, 4]);
      const W = torch.randn([4, 3]);
      const b = torch.randn([3]);
      const ys = torch.tensor([0, 2, 1, 1, 0]);
      const f = (r: Tensor, w: Tensor) => torch.softmax(r.matmul(w), 0);
      const on = (...ts: Tensor[]) => ts.map((t) => t.to('webgpu'));
      const [Xg, Wg, bg, yg] = on(X, W, b, ys);
      await expectClose(vmap(f, { inDims: [0, null] })(Xg!, Wg!), vmap(f, { inDims: [0, null] })(X, W));
      const j = (r: Tensor) => r.matmul(W).tanh();
      const jg = (r: Tensor) => r.matmul(Wg!).tanh();
      await expectClose(jacrev(jg)(Xg!.select(0, 0)), jacrev(j)(X.select(0, 0)));
      const loss = (p: { w: Tensor; b: Tensor }, x: Tensor, y: Tensor) => F.crossEntropy(F.linear(x.unsqueeze(0), p.w.t(), p.b), y.unsqueeze(0));
      const per = vmap(grad(loss), { inDims: [null, 0, 0] });
      const cpu = per({ w: W, b }, X, ys) as { w: Tensor; b: Tensor };
      const gpu = per({ w: Wg!, b: bg! }, Xg!, yg!) as { w: Tensor; b: Tensor };
      await expectClose(gpu.w, cpu.w);
      await expectClose(gpu.b, cpu.b);
    });

    it('batching rules: per-sample CNN gradients and a nested vmap, with no per-sample fallback', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        torch.manualSeed(3);
        const p = { cw: torch.randn([3, 2, 3, 3]), cb: torch.randn([3]), lw: torch.randn([2, 12]), lb: torch.randn([2]) };
        const xs = torch.randn([3, 2, 4, 4]);
        const ys = torch.tensor([0, 1, 1]);
        const loss = (q: typeof p, x: Tensor, y: Tensor) =>
          F.crossEntropy(F.linear(F.maxPool2d(F.relu(F.conv2d(x.unsqueeze(0), q.cw, q.cb, { padding: 1 })), 2).flatten(1), q.lw, q.lb), y.unsqueeze(0));
        const gpuOf = (q: typeof p) => ({ cw: q.cw.to('webgpu'), cb: q.cb.to('webgpu'), lw: q.lw.to('webgpu'), lb: q.lb.to('webgpu') });
        const shared = vmap(grad(loss), { inDims: [null, 0, 0] });
        const cpu = shared(p, xs, ys) as typeof p;
        const gpu = shared(gpuOf(p), xs.to('webgpu'), ys.to('webgpu')) as typeof p;
        for (const k of ['cw', 'cb', 'lw', 'lb'] as const) await expectClose(gpu[k], cpu[k]);
        const ps = { cw: p.cw.expand([3, 3, 2, 3, 3]).mul(torch.tensor([1, 0.5, -1]).view([3, 1, 1, 1, 1])), cb: p.cb.expand([3, 3]), lw: p.lw.expand([3, 2, 12]), lb: p.lb.expand([3, 2]) };
        const own = vmap(grad(loss));
        const cpuOwn = own(ps, xs, ys) as typeof p;
        const gpuOwn = own(gpuOf(ps), xs.to('webgpu'), ys.to('webgpu')) as typeof p;
        for (const k of ['cw', 'cb', 'lw', 'lb'] as const) await expectClose(gpuOwn[k], cpuOwn[k]);
        const f = (a: Tensor, b: Tensor) => a.matmul(b).logSoftmax(-1).sum();
        const A = torch.randn([2, 3, 4]);
        const B = torch.randn([4, 5]);
        const nested = vmap(vmap(f, { inDims: [0, null] }), { inDims: [0, null] });
        await expectClose(nested(A.to('webgpu'), B.to('webgpu')), nested(A, B));
        expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('performance drop'))).toEqual([]);
      } finally {
        warn.mockRestore();
      }
    });

    it('new rules (transposed conv, layer norm, as_strided), tangents under noGrad and grad of a jvp', async () => {
      torch.manualSeed(5);
      const x = torch.randn([3, 2, 4, 5]);
      const w = torch.randn([3, 2, 3, 2, 2]);
      const ln = torch.randn([3, 5]);
      const convT = (xi: Tensor, wi: Tensor) => F.convTranspose2d(xi, wi, null, { stride: 2, padding: 1 });
      const norm = (xi: Tensor, g: Tensor) => F.layerNorm(xi, [5], g);
      await expectClose(vmap(convT)(x.to('webgpu'), w.to('webgpu')), vmap(convT)(x, w));
      await expectClose(vmap(norm)(x.to('webgpu'), ln.to('webgpu')), vmap(norm)(x, ln));
      const strided = (a: Tensor) => a.asStrided([2, 3], [1, 2]);
      await expectClose(vmap(strided)(x.flatten(1).to('webgpu')), vmap(strided)(x.flatten(1)));
      const fa = torch.autograd.forwardAd;
      const p = torch.randn([6]);
      const v = torch.randn([6]);
      const tangentOf = (pp: Tensor, vv: Tensor) => fa.dualLevel(() => fa.unpackDual(torch.noGrad(() => fa.makeDual(pp, vv).sin().mul(pp.exp()).softmax(0))).tangent!);
      await expectClose(tangentOf(p.to('webgpu'), v.to('webgpu')), tangentOf(p, v));
      const rof = (vv: Tensor) => grad((q: Tensor) => (torch.func.jvp((r: Tensor) => r.tanh().mul(r), [q], [vv])[1] as Tensor).sum());
      await expectClose(rof(v.to('webgpu'))(p.to('webgpu')), rof(v)(p));
    });

    it('rules for a batched embedding table and training batch norm, noGrad before the dual level, an indexing JVP', async () => {
      torch.manualSeed(6);
      const table = torch.randn([3, 5, 4]);
      const ids = torch.tensor([[4, 0], [2, 2]]);
      const emb = (w: Tensor) => F.embedding(ids.to(w.device), w);
      await expectClose(vmap(emb)(table.to('webgpu')), vmap(emb)(table));
      const x = torch.randn([3, 4, 2, 5]);
      const g = torch.randn([3, 2]);
      const bn = (xi: Tensor, gi: Tensor) => F.batchNorm(xi, null, null, { weight: gi, training: true });
      await expectClose(vmap(bn)(x.to('webgpu'), g.to('webgpu')), vmap(bn)(x, g));
      const fa = torch.autograd.forwardAd;
      const p = torch.randn([2, 3]);
      const v = torch.randn([2, 3]);
      const idx = torch.tensor([[2, 0], [1, 1]]);
      const outer = (pp: Tensor, vv: Tensor) =>
        torch.noGrad(() => fa.dualLevel(() => fa.unpackDual(torch.gather(fa.makeDual(pp, vv).exp(), 1, idx.to(pp.device))).tangent!));
      await expectClose(outer(p.to('webgpu'), v.to('webgpu')), outer(p, v));
    });

    it('rules for advanced indexing, index_put with accumulate and batch norm with batched running stats', async () => {
      torch.manualSeed(7);
      const x = torch.randn([3, 4, 5]);
      const i = torch.tensor([[0, -1], [2, 2], [3, 1]]);
      const j = torch.tensor([[4, 0], [1, 1], [-2, 3]]);
      const v = torch.randn([3, 2, 4]);
      const at = (s: Tensor, a: Tensor, b: Tensor) => s.index(a, b);
      const put = (s: Tensor, a: Tensor, w: Tensor) => s.indexPut([a], w, { accumulate: true });
      await expectClose(vmap(at)(x.to('webgpu'), i.to('webgpu'), j.to('webgpu')), vmap(at)(x, i, j));
      await expectClose(vmap(put)(x.mT.to('webgpu'), i.to('webgpu'), v.to('webgpu')), vmap(put)(x.mT, i, v));
      const xb = torch.randn([3, 4, 2, 5]);
      const stats = () => [torch.randn([3, 2]), torch.rand([3, 2]).add(0.5)];
      const [m, s2] = stats();
      const bn = (xi: Tensor, mi: Tensor, vi: Tensor) => F.batchNorm(xi, mi, vi, { training: true, momentum: 0.3 });
      const [mg, vg] = [m!.to('webgpu'), s2!.to('webgpu')];
      await expectClose(vmap(bn)(xb.to('webgpu'), mg, vg), vmap(bn)(xb, m!, s2!));
      await expectClose(mg, m!);
      await expectClose(vg, s2!);
    });

    it('vmap of searchsorted over empty boundaries writes zeros over a reused dirty buffer', async () => {
      // (the rule hands core [3, 0] boundaries, which core took for 0 rows: the output,
      // allocated where a freed junk tensor of its size was, was never written; PyTorch: zeros)
      const v = torch.randn([3, 4], { device: 'webgpu' });
      const bd = torch.empty([3, 0], { device: 'webgpu' });
      const ss = (b: Tensor, x: Tensor) => torch.searchsorted(b, x);
      for (const inDims of [[0, 0], [0, null]] as const) {
        const x = inDims[1] === null ? v.select(0, 0) : v;
        torch.arange(1000, 1012, { dtype: 'int64', device: 'webgpu' }).dispose();
        const r = vmap(ss, { inDims: [...inDims] })(bd, x) as Tensor;
        expect([inDims, r.dtype, r.shape, Array.from((await r.data({ bigint: true })) as BigInt64Array, Number)]).toEqual([inDims, 'int64', [3, 4], new Array(12).fill(0)]);
      }
    });
  });
} else {
  console.warn('[func-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
  it('has no WebGPU adapter here, the one reason this suite may not run', () => {
    expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
  });
}
