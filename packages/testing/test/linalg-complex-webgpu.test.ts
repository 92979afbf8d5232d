/**
 * complex64 linear algebra on WebGPU (kernels-webgpu's Note [WebGPU complex LU, Cholesky,
 * triangular solves and eigh]): the complex64 factorization rows of goldens/linalg_complex.json
 * (cholesky, lu, lu_factor, lu_solve, solve_triangular, det, slogdet, logdet, eigvalsh, eigh)
 * run on WebGPU against PyTorch 1.13's values, with the CPU rows' tolerance (eps * 8 n
 * cond(A) times the largest magnitude: test/linalg-complex.test.ts); the gradients of the
 * rows' real loss on WebGPU equal the CPU's in complex64 (grads-webgpu's float32 tolerance);
 * eigh's A V = V diag(w), V^H V = I for both triangles, and of a 16 x 16 matrix; a batch of 70 (two workgroups) against
 * the CPU, at a storage offset, for every kernel and for solve / inv (which now factor the
 * complex matrix, not its real embedding); info and complex128's DTypeError.
 * The complex QR family (Note [WebGPU complex QR]): geqrf, householder_product and qr in
 * every mode on the complex64 rows of goldens/linalg_complex_qr.json (tall, wide, batched,
 * zero column, empty), and a batch of 70 tall and wide matrices at a storage offset against
 * the CPU.
 * The complex SVD (Note [WebGPU complex SVD: complex rotations, a workgroup per matrix]): svd
 * (full and reduced) and svdvals on the complex64 rows of goldens/linalg_complex_svd.json (S,
 * U diag(S) Vh, unitarity, empty inputs), U and Vh equal to the CPU's, phases included (the
 * shared Note [Complex SVD phase convention]); a batch of 70 tall and wide matrices at a storage
 * offset and two 40 x 24 matrices, one of each batch with a zero singular value, against the
 * CPU; pinv, pinverse, matrix_rank, cond 2 / -2, matrix_norm and norm 2 / -2 / nuc on WebGPU
 * against the goldens' composites.
 * (The OpInfo sweep does not run complex cases on WebGPU: test/ops-webgpu-suite.ts; the complex
 * SVD rows' gradients run there in test/grads-webgpu-suite.ts.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { FACTOR, gradProblem, lu, scaleOf, type Pairs, type QrCase } from './linalg-complex-rows';

interface Factor {
  id: string;
  dtype: 'complex64' | 'complex128';
  inputs: Pairs[];
  cond: number;
  expected: (Pairs & { dtype: string })[];
  weights?: number[][];
  grads?: number[][];
}
const golden = JSON.parse(readFileSync(new URL('../goldens/linalg_complex.json', import.meta.url), 'utf8')) as {
  factor: Factor[];
  cholesky_ex: { A: Pairs; info: number[]; message: string };
};

interface SvdCase {
  id: string;
  dtype: 'complex64' | 'complex128';
  gap: number;
  cond: number;
  rank_deficient: boolean;
  A: Pairs;
  reduced: [Pairs, Pairs, Pairs];
  full: [Pairs, Pairs, Pairs];
  svdvals: Pairs;
}
const svdGolden = JSON.parse(readFileSync(new URL('../goldens/linalg_complex_svd.json', import.meta.url), 'utf8')) as {
  cases: SvdCase[];
  composites: { id: string; fn: string; dtype: string; out: { shape: number[]; dtype: string; values: (number | string)[] } }[];
};

const qrGolden = JSON.parse(readFileSync(new URL('../goldens/linalg_complex_qr.json', import.meta.url), 'utf8')) as { cases: QrCase[] };

const L = torch.linalg;
const complex64Of = (p: Pairs): Tensor => torch.viewAsComplex(torch.tensor(p.values, { dtype: 'float32' }).reshape([...p.shape, 2]));
const host = async (t: Tensor): Promise<number[]> => {
  const c = await t.toAsync('cpu');
  return (c.isComplex() ? torch.viewAsReal(c.resolveConj()) : c).reshape([-1]).tolist() as number[];
};
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));


/** The rows' real loss: sum re(o w) + sum |o| over the differentiable outputs. */
function loss(outs: Tensor[], weights: number[][], device: 'cpu' | 'webgpu'): Tensor {
  let total: Tensor | null = null;
  outs
    .filter((o) => o.isFloatingPoint() || o.isComplex())
    .forEach((o, i) => {
      const w = o.isComplex()
        ? complex64Of({ shape: [...o.shape], values: weights[i] }).to(device)
        : torch.tensor(weights[i], { dtype: 'float32' }).reshape([...o.shape]).to(device);
      const term = torch.add(torch.real(torch.mul(o, w)).sum(), torch.abs(o).sum());
      total = total ? torch.add(total, term) : term;
    });
  return total as unknown as Tensor;
}

const ready = await torch.webgpu.init();
describe.skipIf(!ready)('complex64 linalg on WebGPU', () => {
  it('the complex64 factorization rows against PyTorch 1.13', async () => {
    const rows = golden.factor.filter((c) => c.dtype === 'complex64');
    expect(rows.length).toBe(Object.keys(FACTOR).length);
    for (const c of rows) {
      const xs = await Promise.all(c.inputs.map((p) => complex64Of(p).toAsync('webgpu')));
      const outs = FACTOR[c.id](...xs);
      const n = c.inputs[0].shape[c.inputs[0].shape.length - 1];
      for (const [i, o] of outs.entries()) {
        const e = c.expected[i];
        expect([c.id, o.device.type, o.dtype, o.shape]).toEqual([c.id, 'webgpu', e.dtype, e.shape]);
        const tol = 1.2e-7 * 8 * n * Math.max(1, c.cond) * scaleOf(e.values);
        expect([c.id, i, maxAbsDiff(await host(o), e.values) <= tol]).toEqual([c.id, i, true]);
      }
    }
  });

  it("gradients of the rows' loss on WebGPU equal the CPU's (complex64)", async () => {
    // (the complex128 rows carry the weights; both devices run their inputs in complex64)
    for (const c of golden.factor.filter((f) => f.grads)) {
      const grads: Record<string, number[][]> = {};
      for (const device of ['cpu', 'webgpu'] as const) {
        const leaves = await Promise.all(c.inputs.map(async (p) => (await complex64Of(p).toAsync(device)).requiresGrad_(true)));
        loss(FACTOR[c.id](...leaves), c.weights!, device).backward();
        grads[device] = await Promise.all(leaves.map((t) => host(t.grad!)));
      }
      grads.cpu.forEach((g, i) => expect([c.id, i, gradProblem(g, grads.webgpu[i])]).toEqual([c.id, i, null]));
    }
  });

  it('eigh: A V = V diag(w), V^H V = I, for both triangles (the other one garbled)', async () => {
    const c = golden.factor.find((f) => f.id === 'eigh' && f.dtype === 'complex64')!;
    const A = await complex64Of(c.inputs[0]).toAsync('webgpu');
    for (const uplo of ['L', 'U']) {
      const garbled = uplo === 'L' ? torch.add(torch.tril(A), torch.triu(torch.mul(A, 7), 1)) : torch.add(torch.triu(A), torch.tril(torch.mul(A, 7), -1));
      const [w, V] = L.eigh(garbled, uplo);
      expect(maxAbsDiff(await host(w), c.expected[0].values)).toBeLessThan(3e-3);
      const residual = torch.sub(torch.matmul(A, V), torch.mul(V, w.unsqueeze(-2))).abs().max();
      expect(await residual.itemAsync()).toBeLessThan(3e-3);
      const gram = torch.sub(torch.matmul(V.mH, V), torch.eye(4, { dtype: 'complex64', device: 'webgpu' })).abs().max();
      expect(await gram.itemAsync()).toBeLessThan(1e-4);
    }
  });

  it('a batch of 70 (two workgroups) at a storage offset: every kernel, solve and inv equal the CPU', async () => {
    const g = new torch.Generator().manualSeed(17);
    const n = 5;
    const batch = 70;
    // (one extra matrix in front: the kernels address the views' offsets)
    const raw = torch.viewAsComplex(torch.randn([batch + 1, n, n, 2], { generator: g }));
    const rhs = torch.viewAsComplex(torch.randn([batch, n, 3, 2], { generator: g }));
    const eye = torch.eye(n, { dtype: 'complex64' });
    const A = torch.add(raw.narrow(0, 1, batch), torch.mul(eye, 4));
    const H = torch.add(torch.matmul(A, A.mH), eye);
    const fns: [string, (a: Tensor, h: Tensor, b: Tensor) => Tensor[]][] = [
      ['lu_factor', (a) => lu(a)],
      ['lu_solve adjoint', (a, _h, b) => [L.luSolve(...lu(a), b, { adjoint: true })]],
      ['solve_triangular', (a, _h, b) => [L.solveTriangular(a, b, { upper: false })]],
      ['cholesky', (_a, h) => [L.cholesky(h)]],
      ['eigvalsh', (_a, h) => [L.eigvalsh(h)]],
      ['eigh invariant', (_a, h) => {
        const [w, V] = L.eigh(h);
        return [torch.matmul(torch.mul(V, torch.sqrt(w).unsqueeze(-2)), V.mH)];
      }],
      ['solve', (a, _h, b) => [L.solve(a, b)]],
      ['inv', (a) => [L.inv(a)]],
      ['det', (a) => [L.det(a)]],
    ];
    const [a, h, b] = await Promise.all([A, H, rhs].map((t) => t.toAsync('webgpu')));
    for (const [name, fn] of fns) {
      const want = fn(A, H, rhs);
      const got = fn(a, h, b);
      for (const [i, o] of got.entries()) {
        const w = await host(want[i]);
        // (condition numbers of these diagonally dominant matrices stay below about 10; eigh's sqrt(w) scale H's)
        const tol = 1.2e-7 * 8 * n * 10 * scaleOf(w);
        expect([name, i, maxAbsDiff(await host(o), w) <= tol]).toEqual([name, i, true]);
      }
    }
  });

  it("eigh of a 16 x 16 Hermitian matrix (more sweeps): eigenvalues as the CPU's, A V = V diag(w)", async () => {
    const g = new torch.Generator().manualSeed(5);
    const X = torch.viewAsComplex(torch.randn([16, 16, 2], { generator: g }));
    const H = torch.add(X, X.mH);
    const want = L.eigvalsh(H).tolist() as number[];
    const h = await H.toAsync('webgpu');
    const [w, V] = L.eigh(h);
    // (|w| <= ||H||_F, about 32 here: eps32 * 8 n times the largest eigenvalue)
    expect(maxAbsDiff(await host(w), want)).toBeLessThanOrEqual(1.2e-7 * 8 * 16 * scaleOf(want));
    const residual = torch.sub(torch.matmul(h, V), torch.mul(V, w.unsqueeze(-2))).abs().max();
    expect(await residual.itemAsync()).toBeLessThanOrEqual(1.2e-7 * 8 * 16 * scaleOf(want));
  });

  it("info as the CPU's (LinAlgError needs a read: core's Note [Checking info without a device read]); complex128 is a DTypeError", async () => {
    const infoOf = async (t: Tensor) => (await t.toAsync('cpu')).tolist();
    const ce = golden.cholesky_ex;
    const A = await complex64Of(ce.A).toAsync('webgpu');
    expect(await infoOf(L.choleskyEx(A).info)).toEqual(ce.info);
    const z = await torch.zeros([2, 2], { dtype: 'complex64' }).toAsync('webgpu');
    expect(await infoOf(L.luFactorEx(z).info)).toBe(1);
    // rank 1 in a batch of two: info names the second column of the second matrix; solve_ex
    // and inv_ex factor the complex matrix, so theirs is PyTorch's too (the real embedding's
    // would index its 2n x 2n matrix: core's Note [Complex linear solves by the real embedding])
    const s = torch.viewAsComplex(torch.tensor([[[[2, 1], [0, 0]], [[0, 0], [3, -1]]], [[[1, 1], [2, 2]], [[2, 0], [4, 0]]]], { dtype: 'float32' }));
    const sw = await s.toAsync('webgpu');
    expect(L.luFactorEx(s).info.tolist()).toEqual([0, 2]);
    expect(await infoOf(L.luFactorEx(sw).info)).toEqual([0, 2]);
    expect(await infoOf(L.solveEx(sw, sw).info)).toEqual([0, 2]);
    expect(await infoOf(L.invEx(sw).info)).toEqual([0, 2]);
    const d = await torch.eye(2, { dtype: 'complex128' }).toAsync('webgpu');
    for (const f of [() => L.luFactor(d), () => L.cholesky(d), () => L.eigh(d), () => L.solveTriangular(d, d, { upper: true }), () => L.svd(d), () => L.svdvals(d)]) {
      expect(f).toThrow(torch.DTypeError);
      expect(f).toThrow(/'complex128' on webgpu/);
    }
  });
  it('complex QR (geqrf, householder_product, qr in every mode) against PyTorch 1.13', async () => {
    const rows = qrGolden.cases.filter((c) => c.dtype === 'complex64');
    expect(rows.length).toBe(7);
    for (const c of rows) {
      const A = await complex64Of(c.A).toAsync('webgpu');
      const n = Math.max(4, ...c.A.shape.slice(-2));
      const close = async (what: string, o: Tensor, e: Pairs) => {
        expect([c.id, what, o.device.type, o.dtype, o.shape]).toEqual([c.id, what, 'webgpu', 'complex64', e.shape]);
        const tol = 1.2e-7 * 8 * n * Math.max(1, c.cond) * scaleOf(e.values);
        expect([c.id, what, maxAbsDiff(await host(o), e.values) <= tol]).toEqual([c.id, what, true]);
      };
      const { a, tau } = torch.geqrf(A);
      await close('geqrf a', a, c.geqrf[0]);
      await close('geqrf tau', tau, c.geqrf[1]);
      for (const mode of ['reduced', 'complete', 'r'] as const) {
        const { Q, R } = L.qr(A, mode);
        await close(`qr ${mode} Q`, Q, c[mode][0]);
        await close(`qr ${mode} R`, R, c[mode][1]);
      }
      if (c.householder) await close('householder_product', L.householderProduct(a, tau), c.householder);
    }
  });

  it('complex QR: a batch of 70 (two workgroups) at a storage offset, tall and wide, equals the CPU', async () => {
    const g = new torch.Generator().manualSeed(23);
    for (const [m, n] of [[6, 4], [3, 5]]) {
      const raw = torch.viewAsComplex(torch.randn([71, m, n, 2], { generator: g }));
      const A = raw.narrow(0, 1, 70);
      const a = (await raw.toAsync('webgpu')).narrow(0, 1, 70);
      const want = [...torch.geqrf(A), ...L.qr(A, 'complete')];
      const got = [...torch.geqrf(a), ...L.qr(a, 'complete')];
      if (m >= n) {
        const [qa, qt] = torch.geqrf(A);
        const [ga, gt] = torch.geqrf(a);
        want.push(L.householderProduct(qa, qt));
        got.push(L.householderProduct(ga, gt));
      }
      for (const [i, o] of got.entries()) {
        const w = await host(want[i]);
        // (random Gaussian matrices this small: condition numbers well below 100)
        const tol = 1.2e-7 * 8 * Math.max(m, n) * 100 * scaleOf(w);
        expect([m, n, i, maxAbsDiff(await host(o), w) <= tol]).toEqual([m, n, i, true]);
      }
    }
  });

  it("complex SVD: the complex64 rows of goldens/linalg_complex_svd.json (values, U diag(S) Vh, unitarity, full and reduced, empty) and the vectors as the CPU's, phases included", async () => {
    const rows = svdGolden.cases.filter((c) => c.dtype === 'complex64');
    expect(rows.length).toBe(9);
    for (const c of rows) {
      const A = complex64Of(c.A);
      const a = await A.toAsync('webgpu');
      const n = Math.max(4, ...c.A.shape.slice(-2));
      const tol = 1.2e-7 * 8 * n * scaleOf(c.svdvals.values);
      const sv = L.svdvals(a);
      expect([c.id, sv.device.type, sv.dtype, sv.shape, maxAbsDiff(await host(sv), c.svdvals.values) <= tol]).toEqual([c.id, 'webgpu', 'float32', c.svdvals.shape, true]);
      for (const full of [false, true]) {
        const { U, S, Vh } = L.svd(a, { fullMatrices: full });
        const [eU, eS, eVh] = c[full ? 'full' : 'reduced'];
        expect([c.id, full, U.shape, S.shape, Vh.shape, U.dtype]).toEqual([c.id, full, eU.shape, eS.shape, eVh.shape, 'complex64']);
        expect([c.id, full, maxAbsDiff(await host(S), eS.values) <= tol]).toEqual([c.id, full, true]);
        if (A.numel() === 0) {
          // (core fills an empty matrix's vectors: the identity's, or empty)
          expect([c.id, full, await host(U), await host(Vh)]).toEqual([c.id, full, eU.values, eVh.values]);
          continue;
        }
        const k = S.shape[S.dim() - 1];
        const rec = torch.matmul(torch.mul(U.narrow(-1, 0, k), S.unsqueeze(-2)), Vh.narrow(-2, 0, k));
        const gramU = torch.sub(torch.matmul(U.mH, U), torch.eye(U.shape[U.dim() - 1], { dtype: 'complex64', device: 'webgpu' }));
        const gramV = torch.sub(torch.matmul(Vh, Vh.mH), torch.eye(Vh.shape[Vh.dim() - 2], { dtype: 'complex64', device: 'webgpu' }));
        const unitary = async (gram: Tensor) => (await host(gram.abs())).every((x) => x <= 1.2e-7 * 8 * n);
        const checks = [maxAbsDiff(await host(rec), c.A.values) <= tol, await unitary(gramU), await unitary(gramV)];
        expect([c.id, full, ...checks]).toEqual([c.id, full, true, true, true]);
        if (c.rank_deficient) continue;
        // the same phase convention as the CPU's (kernels-cpu's Note [Complex SVD phase convention]):
        // U and Vh themselves agree, within the vectors' forward error (over the smallest relative gap)
        const want = L.svd(A, { fullMatrices: full });
        const vtol = (1.2e-7 * 8 * n) / c.gap;
        for (const [what, x, y] of [['U', U, want.U], ['Vh', Vh, want.Vh]] as const) {
          expect([c.id, full, what, maxAbsDiff(await host(x), await host(y)) <= vtol]).toEqual([c.id, full, what, true]);
        }
      }
    }
  });

  it('complex SVD: a batch of 70 (70 workgroups) at a storage offset, tall and wide, and two 40 x 24, each batch with a zero singular value, full and thin, equals the CPU', async () => {
    const g = new torch.Generator().manualSeed(29);
    // (and two medium matrices: 23 rounds of 12 pairs a sweep)
    for (const [m, n, batch] of [[6, 4, 70], [3, 5, 70], [40, 24, 2]]) {
      // (the batch's first matrix loses its last column (tall) or row (wide): a singular value
      // exactly zero on both devices, its vector completed by Gram-Schmidt)
      const mask = Array.from({ length: (batch + 1) * m * n }, (_, e) => (Math.floor(e / (m * n)) === 1 && (m >= n ? e % n === n - 1 : Math.floor(e / n) % m === m - 1) ? 0 : 1));
      const raw = torch.mul(torch.viewAsComplex(torch.randn([batch + 1, m, n, 2], { generator: g })), torch.tensor(mask, { dtype: 'float32' }).reshape([batch + 1, m, n]));
      const A = raw.narrow(0, 1, batch);
      const a = (await raw.toAsync('webgpu')).narrow(0, 1, batch);
      const sw = L.svdvals(A);
      expect(await host(sw.narrow(0, 0, 1).narrow(1, Math.min(m, n) - 1, 1))).toEqual([0]);
      for (const full of [false, true]) {
        const want = L.svd(A, { fullMatrices: full });
        const got = L.svd(a, { fullMatrices: full });
        const outs: [string, Tensor, Tensor][] = [['S', got.S, want.S], ['U', got.U, want.U], ['Vh', got.Vh, want.Vh], ['svdvals', L.svdvals(a), sw]];
        for (const [what, o, w] of outs) {
          const wv = await host(w);
          // (random Gaussian matrices this small: condition numbers and inverse gaps well below 100)
          const tol = 1.2e-7 * 8 * Math.max(m, n) * 100 * scaleOf(wv);
          expect([m, n, full, what, o.shape, maxAbsDiff(await host(o), wv) <= tol]).toEqual([m, n, full, what, w.shape, true]);
        }
      }
    }
  });

  it('the SVD composites on WebGPU (pinv, pinverse, matrix_rank, cond 2 / -2, matrix_norm and norm 2 / -2 / nuc) against PyTorch 1.13', async () => {
    const SVD_FNS: Record<string, (a: Tensor) => Tensor> = {
      pinv: (a) => L.pinv(a),
      'pinv atol': (a) => L.pinv(a, { atol: 1 }),
      pinverse: (a) => torch.pinverse(a),
      matrix_rank: (a) => L.matrixRank(a),
      'matrix_rank rtol': (a) => L.matrixRank(a, { rtol: 0.3 }),
      cond: (a) => L.cond(a),
      'cond -2': (a) => L.cond(a, -2),
      'matrix_norm nuc': (a) => L.matrixNorm(a, 'nuc'),
      'matrix_norm 2': (a) => L.matrixNorm(a, 2),
      'matrix_norm -2': (a) => L.matrixNorm(a, -2),
      'norm nuc': (a) => L.norm(a, 'nuc'),
    };
    const cases = new Map(svdGolden.cases.map((c) => [`${c.dtype} ${c.id}`, c]));
    const rows = svdGolden.composites.filter((c) => c.dtype === 'complex64' && c.fn in SVD_FNS);
    expect(new Set(rows.map((c) => c.fn)).size).toBe(Object.keys(SVD_FNS).length);
    for (const c of rows) {
      const cs = cases.get(`complex64 ${c.id}`)!;
      const out = SVD_FNS[c.fn](await complex64Of(cs.A).toAsync('webgpu'));
      const tag = [c.id, c.fn, out.device.type, out.dtype, out.shape];
      const got = await host(out);
      if (c.out.dtype === 'int64') {
        expect([...tag, got]).toEqual([c.id, c.fn, 'webgpu', 'int64', c.out.shape, c.out.values]);
        continue;
      }
      // (a rank-deficient input's cond is infinite or rounding noise's, above 1 / (100 eps) on both)
      const huge = (vs: (number | string)[]) => vs.every((v) => typeof v === 'string' || !Number.isFinite(v) || Math.abs(v) > 1 / (100 * 1.2e-7));
      if (cs.rank_deficient && c.fn === 'cond') {
        expect([...tag, huge(c.out.values), huge(got)]).toEqual([c.id, c.fn, 'webgpu', c.out.dtype, c.out.shape, true, true]);
        continue;
      }
      const condA = c.fn.startsWith('pinv') || c.fn.startsWith('cond') ? cs.cond : 1;
      const ok = maxAbsDiff(got, c.out.values as number[]) <= 1.2e-7 * 8 * 5 * condA * scaleOf(c.out.values as number[]);
      expect([...tag, ok]).toEqual([c.id, c.fn, 'webgpu', c.out.dtype, c.out.shape, true]);
    }
  });
});
