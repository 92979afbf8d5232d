/**
 * complex64 linalg.lstsq and matrix_exp on WebGPU (kernels-webgpu's Note [WebGPU complex
 * lstsq and matrix_exp]): the complex64 rows of goldens/linalg_complex_lstsq.json (every
 * driver on tall, wide, square with a vector right-hand side, batched and broadcast,
 * rank-deficient, ill-conditioned, empty and no-right-hand-side problems; matrix_exp at norms
 * that pick each degree and the scaling and squaring, batched, 1 x 1, empty) run on WebGPU
 * against PyTorch 1.13 with the CPU test's tolerance (test/linalg-complex-lstsq.test.ts); a
 * batch of 70 (two workgroups) at a storage offset against the CPU; the gradients of the
 * golden rows' loss on WebGPU equal the CPU's (complex64); complex128 is a DTypeError.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { golden } from './linalg-complex-lstsq-rows';
import { gradProblem, scaleOf } from './linalg-complex-rows';


const L = torch.linalg;
const EPS = 1.2e-7;
const complex64Of = (p: { shape: number[]; values: number[] }): Tensor => torch.viewAsComplex(torch.tensor(p.values, { dtype: 'float32' }).reshape([...p.shape, 2]));
const host = async (t: Tensor): Promise<number[]> => {
  const c = await t.toAsync('cpu');
  return (c.isComplex() ? torch.viewAsReal(c.resolveConj()) : c).reshape([-1]).tolist() as number[];
};
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));

/** sum_i |B - A X|^2 per column of complex64 A [m, n], X [n, k], B [m, k] (the residuals of X). */
function misfit(A: Tensor, X: Tensor, B: Tensor): number[] {
  const r = torch.sub(B, torch.matmul(A, X));
  return torch.mul(r, r.conj()).real.sum(-2).tolist() as number[];
}

const ready = await torch.webgpu.init();
describe.skipIf(!ready)('complex64 lstsq and matrix_exp on WebGPU', () => {
  it('lstsq: the complex64 rows of goldens/linalg_complex_lstsq.json, every driver, against PyTorch 1.13', async () => {
    const names = ['solution', 'residuals', 'rank', 'singular_values'];
    const rows = golden.lstsq.filter((c) => c.dtype === 'complex64');
    expect(rows.length).toBe(golden.lstsq.length / 2);
    for (const c of rows) {
      const [A, B] = await Promise.all([complex64Of(c.A).toAsync('webgpu'), complex64Of(c.B).toAsync('webgpu')]);
      const out = L.lstsq(A, B, c.rcond, { driver: c.driver });
      const [m, n] = c.A.shape.slice(-2);
      const size = Math.max(m, n);
      for (const [i, t] of [out.solution, out.residuals, out.rank, out.singularValues].entries()) {
        const tag = `${c.id} ${c.driver} ${names[i]}`;
        let e = c.out[i];
        // core's Note [lstsq by the SVD]: a tall matrix of rank < n under gelsd / gelss gets its
        // residuals on WebGPU (the ranks are not read on the host), where 1.13 returns none:
        // they must be the misfit of 1.13's solution
        if (names[i] === 'residuals' && m > n && (c.driver === 'gelsd' || c.driver === 'gelss') && e.shape.length === 1 && e.shape[0] === 0 && n > 0) {
          const X = complex64Of({ shape: c.out[0].shape, values: c.out[0].values });
          const want = misfit(complex64Of(c.A), X.dim() === 1 ? X.unsqueeze(-1) : X, complex64Of(c.B));
          e = { shape: [want.length], dtype: 'float32', values: want };
        }
        expect([tag, t.device.type, t.dtype, t.shape]).toEqual([tag, 'webgpu', e.dtype, e.shape]);
        const got = await host(t);
        if (names[i] === 'rank') {
          expect([tag, got]).toEqual([tag, e.values]);
          continue;
        }
        // (CPU test's tolerance; residuals are squares of the misfit: twice its relative error)
        const cond = names[i] === 'singular_values' ? 1 : c.cond * (names[i] === 'residuals' ? 2 : 1);
        const tol = EPS * 8 * Math.max(size, 4) * Math.max(1, cond) * scaleOf(e.values);
        const d = maxAbsDiff(got, e.values);
        expect([tag, d, d <= tol]).toEqual([tag, d, true]);
      }
    }
  });

  it('matrix_exp: the complex64 rows (each degree, scaling and squaring, batched, 1x1, empty) against PyTorch 1.13; torch.matrix_exp', async () => {
    const rows = golden.matrix_exp.filter((c) => c.dtype === 'complex64');
    for (const c of rows) {
      const A = await complex64Of(c.A).toAsync('webgpu');
      const n = c.A.shape[c.A.shape.length - 1] ?? 1;
      const tol = EPS * 4 * 8 * Math.max(n, 4) * scaleOf(c.out.values);
      for (const [name, fn] of [['linalg.matrix_exp', L.matrixExp], ['torch.matrix_exp', torch.matrixExp]] as const) {
        const r = fn(A);
        expect([c.id, name, r.device.type, r.dtype, r.shape]).toEqual([c.id, name, 'webgpu', 'complex64', c.out.shape]);
        const d = maxAbsDiff(await host(r), c.out.values);
        expect([c.id, name, d, d <= tol]).toEqual([c.id, name, d, true]);
      }
    }
  });

  it('a batch of 70 (two workgroups) at a storage offset: every driver tall and wide, gelsy rank-deficient, matrix_exp at every degree, equal the CPU', async () => {
    const g = new torch.Generator().manualSeed(29);
    const batch = 70;
    const crandn = (...s: number[]) => torch.viewAsComplex(torch.randn([...s, 2], { generator: g }));
    // (one extra matrix in front: the kernels address the views' offsets)
    const tall = crandn(batch + 1, 6, 4).narrow(0, 1, batch);
    const wide = crandn(batch + 1, 3, 5).narrow(0, 1, batch);
    const bTall = crandn(batch, 6, 2);
    const bWide = crandn(batch, 3, 2);
    // rank 2 of 6 x 4: the last two columns combinations of the first two
    const lo = tall.narrow(2, 0, 2);
    const deficient = torch.cat([lo, torch.matmul(lo, crandn(2, 2))], 2);
    const problems: [string, Tensor, Tensor, string][] = [];
    for (const driver of ['gels', 'gelsy', 'gelsd', 'gelss']) problems.push([`tall ${driver}`, tall, bTall, driver], [`wide ${driver}`, wide, bWide, driver]);
    problems.push(['rank 2 gelsy', deficient, bTall, 'gelsy']);
    for (const [name, A, B, driver] of problems) {
      const want = L.lstsq(A, B, null, { driver });
      const [a, b] = await Promise.all([A.toAsync('webgpu'), B.toAsync('webgpu')]);
      const got = L.lstsq(a, b, null, { driver });
      const pairs: [string, Tensor, Tensor][] = [['solution', want.solution, got.solution], ['rank', want.rank, got.rank], ['singular_values', want.singularValues, got.singularValues]];
      if (!name.startsWith('rank') && driver !== 'gelsy') pairs.push(['residuals', want.residuals, got.residuals]);
      for (const [what, w, o] of pairs) {
        expect([name, what, o.shape]).toEqual([name, what, w.shape]);
        const wv = await host(w);
        const d = maxAbsDiff(await host(o), wv);
        // (random complex Gaussian matrices of these shapes: condition numbers below about 30)
        expect([name, what, d, d <= EPS * 8 * 6 * 30 * scaleOf(wv)]).toEqual([name, what, d, true]);
      }
    }
    // matrix_exp: norms across every degree's interval and past it (scaling and squaring)
    const norms = Array.from({ length: batch }, (_, i) => [1e-8, 1e-4, 0.03, 0.4, 1.2, 2.5, 9, 30][i % 8]);
    const M = crandn(batch + 1, 4, 4).narrow(0, 1, batch);
    const scaled = torch.mul(M, torch.tensor(norms).reshape([batch, 1, 1]).div(torch.linalg.matrixNorm(M, 1).unsqueeze(-1).unsqueeze(-1)));
    const want = await host(L.matrixExp(scaled));
    const got = await host(L.matrixExp(await scaled.toAsync('webgpu')));
    for (let i = 0; i < batch; i++) {
      const w = want.slice(32 * i, 32 * (i + 1));
      const d = maxAbsDiff(got.slice(32 * i, 32 * (i + 1)), w);
      // (each squaring doubles the relative error: the norm's log2 bounds their count)
      const tol = EPS * 8 * 4 * Math.max(4, 2 * Math.log2(norms[i])) * scaleOf(w);
      expect([i, norms[i], d, d <= tol]).toEqual([i, norms[i], d, true]);
    }
  });

  it("gradients of the golden rows' loss (lstsq gelsy, gels wide, gelsd batched; matrix_exp) on WebGPU equal the CPU's (complex64)", async () => {
    const FNS: Record<string, (...xs: Tensor[]) => Tensor[]> = {
      'lstsq gelsy tall': (a, b) => [L.lstsq(a, b).solution],
      'lstsq gels wide': (a, b) => [L.lstsq(a, b, null, { driver: 'gels' }).solution],
      'lstsq gelsd batched': (a, b) => [L.lstsq(a, b, null, { driver: 'gelsd' }).solution],
      matrix_exp: (a) => [L.matrixExp(a)],
      'matrix_exp batched large norm': (a) => [torch.matrixExp(a)],
    };
    expect(golden.grads.map((c) => c.id).sort()).toEqual(Object.keys(FNS).sort());
    for (const c of golden.grads) {
      const grads: Record<string, number[][]> = {};
      for (const device of ['cpu', 'webgpu'] as const) {
        const leaves = await Promise.all(c.inputs.map(async (p) => (await complex64Of(p).toAsync(device)).requiresGrad_(true)));
        let loss: Tensor | null = null;
        for (const [i, o] of FNS[c.id](...leaves).entries()) {
          const w = await complex64Of({ shape: [...o.shape], values: c.weights[i] }).toAsync(device);
          const term = torch.add(torch.real(torch.mul(o, w)).sum(), torch.abs(o).sum());
          loss = loss ? torch.add(loss, term) : term;
        }
        (loss as unknown as Tensor).backward();
        grads[device] = await Promise.all(leaves.map((t) => host(t.grad!)));
      }
      grads.cpu.forEach((g, i) => expect([c.id, i, gradProblem(g, grads.webgpu[i])]).toEqual([c.id, i, null]));
    }
  });

  it('complex128 is a DTypeError naming the op and the dtype', async () => {
    const d = await torch.eye(3, { dtype: 'complex128' }).toAsync('webgpu');
    const b = await torch.ones([3, 1], { dtype: 'complex128' }).toAsync('webgpu');
    const fns = [() => L.lstsq(d, b), () => L.lstsq(d, b, null, { driver: 'gels' }), () => L.lstsq(d, b, null, { driver: 'gelsd' }), () => L.matrixExp(d), () => torch.matrixExp(d)];
    for (const f of fns) {
      expect(f).toThrow(torch.DTypeError);
      expect(f).toThrow(/'complex128' on webgpu/);
    }
  });
});
