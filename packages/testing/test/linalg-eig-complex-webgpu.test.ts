/**
 * complex64 linalg.eig / eigvals on WebGPU (kernels-webgpu's Note [WebGPU complex eig: zgeev,
 * an invocation per matrix]): every complex64 case of goldens/linalg_eig.json (PyTorch 1.13's
 * cgeev: random, batched, triangular, diagonal, Hermitian, real, Jordan block, repeated,
 * scaled rows, 1 x 1, empty) with the CPU test's checks (eigenvalues as multisets, the
 * eigenvectors up to a unit phase per column, A V = V diag(L) with unit columns whose largest
 * component is real), eigvals equal to eig's values; a batch of 70 (two workgroups) at a
 * storage offset against the CPU kernel (the same zgeev steps: the same eigenvalue order, the
 * same eigenvectors to float32 rounding); a NaN matrix in a batch leaves its neighbours'
 * results alone; complex128's DTypeError.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { type EigCase, checkAgainstGolden, complexOf, eigProblems, matrices, maxAbsDiff, multisetDistance, pairsOf } from './linalg-eig-complex-rows';

vi.setConfig({ testTimeout: 120_000 });

const goldens = JSON.parse(readFileSync(new URL('../goldens/linalg_eig.json', import.meta.url), 'utf8')) as { complex_cases: EigCase[] };
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

  it('a batch of 70 (two workgroups) at a storage offset: the CPU kernel\'s order and vectors; a NaN matrix stays its own', async (ctx) => {
    if (!(await torch.webgpu.init())) return ctx.skip();
    const g = new torch.Generator().manualSeed(7);
    const batch = 70;
    const n = 6;
    const big = torch.complex(torch.randn([batch + 1, n, n], { generator: g }), torch.randn([batch + 1, n, n], { generator: g }));
    const A = big.narrow(0, 1, batch);
    const Aw = (await big.toAsync('webgpu')).narrow(0, 1, batch);
    expect(Aw.storageOffset()).toBeGreaterThan(0);
    const cpu = L.eig(A);
    const gpu = L.eig(Aw);
    const [Lw, Vw, Ew] = await Promise.all([gpu.eigenvalues, gpu.eigenvectors, L.eigvals(Aw)].map(host));
    const Lc = pairsOf(cpu.eigenvalues);
    const Vc = pairsOf(cpu.eigenvectors);
    expect(maxAbsDiff(Ew, Lw)).toBe(0);
    const as = matrices(pairsOf(A), batch);
    const [lw, vw, lc, vc] = [Lw, Vw, Lc, Vc].map((x) => matrices(x, batch));
    let inOrder = 0;
    for (let b = 0; b < batch; b++) {
      const scale = Math.max(1, ...as[b].map((z) => Math.hypot(...z)));
      expect([b, multisetDistance(lw[b], lc[b]) < 1e-4 * scale]).toEqual([b, true]);
      expect([b, eigProblems(as[b], lw[b], vw[b], n, 2e-6)]).toEqual([b, []]);
      // the same steps: the same order and, column for column, the same normalised vectors
      const same = lw[b].every((l, j) => Math.hypot(l[0] - lc[b][j][0], l[1] - lc[b][j][1]) < 1e-4 * scale);
      if (!same) continue;
      inOrder++;
      const gap = Math.min(...lc[b].flatMap((l, j) => lc[b].filter((_, k) => k !== j).map((m) => Math.hypot(l[0] - m[0], l[1] - m[1]))));
      expect([b, maxAbsDiff(vw[b].flat(), vc[b].flat()) < (2e-5 * scale) / gap]).toEqual([b, true]);
    }
    expect(inOrder).toBe(batch);
    // a NaN in the second of three matrices: the others' results are untouched (on the CPU it raises)
    const pairs = pairsOf(big.narrow(0, 0, 3));
    pairs[2 * (n * n + 2 * n + 3)] = Number.NaN;
    const three = complexOf(pairs, [3, n, n], 'complex64');
    expect(() => L.eigvals(three)).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
    const lt = matrices(await host(L.eigvals(await three.toAsync('webgpu'))), 3);
    const scale = Math.max(1, ...pairs.filter((x) => !Number.isNaN(x)).map(Math.abs));
    expect(multisetDistance(lt[0], matrices(pairsOf(L.eigvals(big.narrow(0, 0, 1))), 1)[0])).toBeLessThan(1e-4 * scale);
    expect(multisetDistance(lt[2], matrices(pairsOf(L.eigvals(big.narrow(0, 2, 1))), 1)[0])).toBeLessThan(1e-4 * scale);
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
