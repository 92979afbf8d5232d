/**
 * complex64 linalg.eig / eigvals on WebGPU (kernels-webgpu's Note [WebGPU complex eig: zgeev,
 * an invocation per matrix]): every complex64 case of goldens/linalg_eig.json (PyTorch 1.13's
 * cgeev: random, batched, triangular, diagonal, Hermitian, real, Jordan block, repeated,
 * scaled rows, 1 x 1, empty) with the CPU test's checks (eigenvalues as multisets, the
 * eigenvectors up to a unit phase per column, A V = V diag(L) with unit columns whose largest
 * component is real), eigvals equal to eig's values; a batch of 70 (two workgroups) at a
 * storage offset (goldens/linalg_eig_complex_batch.json): the eigenvalues in cgeev's order
 * (but for a few near ties), A V = V diag(L), and, where the CPU's double iteration deflates
 * in the same order, the CPU's eigenvectors (the same normalisation and phase); a NaN matrix
 * in a batch leaves its neighbours' results alone; a 24 x 24 matrix against the CPU's eigenvalues (the CPU raises; WebGPU never reads info:
 * core's Note [Checking info without a device read]); complex128's DTypeError.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { type C, type EigCase, checkAgainstGolden, complexOf, eigProblems, matrices, maxAbsDiff, multisetDistance, pairsOf } from './linalg-eig-complex-rows';

const batchGolden = JSON.parse(readFileSync(new URL('../goldens/linalg_eig_complex_batch.json', import.meta.url), 'utf8')) as { batch: { shape: number[]; a: number[]; L: number[] }[] };
const goldens = JSON.parse(readFileSync(new URL('../goldens/linalg_eig.json', import.meta.url), 'utf8')) as { complex_cases: EigCase[]; complex_grads: { id: string; shape: number[]; a: number[]; wr: number[]; wi: number[]; c: number[] }[] };
const L = torch.linalg;
const host = async (t: Tensor): Promise<number[]> => pairsOf(await t.toAsync('cpu'));

describe('linalg.eig of complex64 matrices on WebGPU (cgeev\'s steps on the device)', () => {
  it('every complex64 golden case against PyTorch 1.13: values, vectors, eigvals', async (ctx) => {
    if (!(await torch.webgpu.init())) return ctx.skip();
    const cases = goldens.complex_cases.filter((c) => c.dtype === 'complex64');
    expect(cases.length).toBe(14);
    for (const c of cases) {
      const A = await complexOf(c.a, c.shape, 'complex64').toAsync('webgpu');
      const { eigenvalues, eigenvectors } = L.eig(A);
      expect([c.id, eigenvalues.device.type, eigenvalues.dtype, eigenvectors.dtype, eigenvalues.shape, eigenvectors.shape]).toEqual([c.id, 'webgpu', 'complex64', 'complex64', c.shape.slice(0, -1), c.shape]);
      const [Lm, Vm, Em] = await Promise.all([eigenvalues, eigenvectors, L.eigvals(A)].map(host));
      checkAgainstGolden(c, Lm, Vm);
      // eigvals (the kernel without vectors) runs the same iteration on the active block
      expect([c.id, maxAbsDiff(Em, Lm)]).toEqual([c.id, 0]);
    }
  });

  it("a batch of 70 (two workgroups) at a storage offset: cgeev's order (PyTorch 1.13), the CPU's vectors; a NaN matrix stays its own", async (ctx) => {
    if (!(await torch.webgpu.init())) return ctx.skip();
    const gb = batchGolden.batch[0];
    const [batch, n] = gb.shape;
    const A = complexOf(gb.a, gb.shape, 'complex64');
    const big = torch.cat([torch.zeros([1, n, n], { dtype: 'complex64' }), A]);
    const Aw = (await big.toAsync('webgpu')).narrow(0, 1, batch);
    expect(Aw.storageOffset()).toBeGreaterThan(0);
    const cpu = L.eig(A);
    const gpu = L.eig(Aw);
    const [Lw, Vw, Ew] = await Promise.all([gpu.eigenvalues, gpu.eigenvectors, L.eigvals(Aw)].map(host));
    expect(maxAbsDiff(Ew, Lw)).toBe(0);
    const as = matrices(gb.a, batch);
    const [lw, vw, lg, lc, vc] = [Lw, Vw, gb.L, pairsOf(cpu.eigenvalues), pairsOf(cpu.eigenvectors)].map((x) => matrices(x, batch));
    const sameOrder = (x: C[], y: C[], scale: number) => x.every((l, j) => Math.hypot(l[0] - y[j][0], l[1] - y[j][1]) < 1e-4 * scale);
    const outOfOrder: number[] = [];
    let likeCpu = 0;
    let cpuInOrder = 0;
    for (let b = 0; b < batch; b++) {
      const scale = Math.max(1, ...as[b].map((z) => Math.hypot(...z)));
      expect([b, multisetDistance(lw[b], lg[b]) < 1e-4 * scale]).toEqual([b, true]);
      expect([b, eigProblems(as[b], lw[b], vw[b], n, 2e-6)]).toEqual([b, []]);
      if (!sameOrder(lw[b], lg[b], scale)) outOfOrder.push(b);
      if (sameOrder(lc[b], lg[b], scale)) cpuInOrder++;
      // where the CPU's double iteration deflates in the same order: the same normalised vectors, column for column
      if (!sameOrder(lw[b], lc[b], scale)) continue;
      likeCpu++;
      const gap = Math.min(...lc[b].flatMap((l, j) => lc[b].filter((_, k) => k !== j).map((m) => Math.hypot(l[0] - m[0], l[1] - m[1]))));
      expect([b, maxAbsDiff(vw[b].flat(), vc[b].flat()) < (2e-5 * scale) / gap]).toEqual([b, true]);
    }
    // cgeev's order where float32's deflations are cgeev's: the kernel takes its steps in float32,
    // so it keeps that order far more often than the CPU's double iteration (55 of 70); a few
    // matrices (4 on SwiftShader) deflate in another order, float32 rounding differing from the
    // LAPACK build's (its summation order, fused multiply-adds) at a near tie
    expect([outOfOrder.length <= batch / 10, batch - outOfOrder.length > cpuInOrder + 5]).toEqual([true, true]);
    expect(likeCpu).toBeGreaterThan(batch / 2);
    // a medium matrix, 24 x 24: the CPU's eigenvalues, A V = V diag(L)
    const m = 24;
    const gm = new torch.Generator().manualSeed(5);
    const M = torch.complex(torch.randn([m, m], { generator: gm }), torch.randn([m, m], { generator: gm }));
    const em = L.eig(await M.toAsync('webgpu'));
    const [lm, vm] = await Promise.all([em.eigenvalues, em.eigenvectors].map(host));
    const ms = pairsOf(M);
    const mscale = Math.max(1, ...ms.map(Math.abs));
    expect(multisetDistance(matrices(lm, 1)[0], matrices(pairsOf(L.eigvals(M)), 1)[0])).toBeLessThan(1e-4 * mscale);
    expect(eigProblems(matrices(ms, 1)[0], matrices(lm, 1)[0], matrices(vm, 1)[0], m, 2e-6)).toEqual([]);
    // a NaN in the second of three matrices: the others' results are untouched (on the CPU it raises)
    const pairs = gb.a.slice(0, 3 * 2 * n * n);
    pairs[2 * (n * n + 2 * n + 3)] = Number.NaN;
    const three = complexOf(pairs, [3, n, n], 'complex64');
    expect(() => L.eigvals(three)).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
    const lt = matrices(await host(L.eigvals(await three.toAsync('webgpu'))), 3);
    const scale = Math.max(1, ...pairs.filter((x) => !Number.isNaN(x)).map(Math.abs));
    expect(multisetDistance(lt[0], matrices(pairsOf(L.eigvals(A.narrow(0, 0, 1))), 1)[0])).toBeLessThan(1e-4 * scale);
    expect(multisetDistance(lt[2], matrices(pairsOf(L.eigvals(A.narrow(0, 2, 1))), 1)[0])).toBeLessThan(1e-4 * scale);
  });

  it("the gradient of PyTorch's gauge-invariant loss (eig and eigvals) equals the CPU's in complex64", async (ctx) => {
    if (!(await torch.webgpu.init())) return ctx.skip();
    for (const g of goldens.complex_grads) {
      const grad = async (device: 'cpu' | 'webgpu', valuesOnly: boolean): Promise<number[]> => {
        const A = (await complexOf(g.a, g.shape, 'complex64').toAsync(device)).requiresGrad_(true);
        const t = async (x: number[], shape: number[]) => torch.tensor(x, { dtype: 'float32' }).reshape(shape).toAsync(device);
        const [wr, wi, c] = await Promise.all([t(g.wr, g.shape.slice(0, -1)), t(g.wi, g.shape.slice(0, -1)), t(g.c, g.shape)]);
        const values = valuesOnly ? L.eigvals(A) : L.eig(A).eigenvalues;
        let loss = torch.add(torch.mul(torch.real(values), wr).sum(), torch.mul(torch.imag(values), wi).sum());
        if (!valuesOnly) loss = torch.add(loss, torch.mul(torch.abs(L.eig(A).eigenvectors), c).sum());
        loss.backward();
        expect([g.id, A.grad!.device.type, A.grad!.dtype]).toEqual([g.id, device, 'complex64']);
        return host(A.grad!);
      };
      for (const valuesOnly of [false, true]) {
        const want = await grad('cpu', valuesOnly);
        const got = await grad('webgpu', valuesOnly);
        const scale = Math.max(1, ...want.map(Math.abs));
        expect([g.id, valuesOnly, maxAbsDiff(got, want) <= 1e-3 * scale]).toEqual([g.id, valuesOnly, true]);
      }
    }
  });

  it("complex128 is a DTypeError on WebGPU (float64 parts)", async (ctx) => {
    if (!(await torch.webgpu.init())) return ctx.skip();
    const d = await torch.eye(2, { dtype: 'complex128' }).toAsync('webgpu');
    for (const f of [() => L.eig(d), () => L.eigvals(d)]) {
      expect(f).toThrow(torch.DTypeError);
      expect(f).toThrow(/'complex128' on webgpu/);
    }
  });
});
