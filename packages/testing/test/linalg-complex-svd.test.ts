/**
 * The complex SVD family (core's Note [Complex SVD]; kernels-cpu's Note [CPU complex SVD:
 * one-sided Jacobi with complex rotations]) against PyTorch 1.13 (goldens/linalg_complex_svd.json):
 * linalg.svd (reduced, full), svdvals and torch.svd of complex64 / complex128 matrices (tall,
 * wide, batched, rank-deficient, real-valued, empty), the singular vectors compared up to a
 * unit phase per pair (within the forward error bound over the singular values' smallest
 * relative gap) and through U diag(S) Vh and unitarity, and the phase convention kernels-cpu
 * shares with WebGPU (Note [Complex SVD phase convention]); pinv, matrix_rank, cond, matrix_norm
 * and linalg.norm over it; the gradients of a real loss of gauge-invariant functions against
 * PyTorch's; gradcheck / gradgradcheck in complex128; svd_backward's gauge error and the
 * other errors. (complex64 on WebGPU, and complex128's DTypeError there: linalg-complex-webgpu.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';

interface Enc {
  shape: number[];
  dtype: string;
  values: number[];
}
interface Case {
  id: string;
  dtype: 'complex64' | 'complex128';
  gap: number;
  cond: number;
  rank_deficient: boolean;
  A: Enc;
  reduced: [Enc, Enc, Enc];
  full: [Enc, Enc, Enc];
  svdvals: Enc;
  torch_svd_shapes: number[][];
  torch_svd_no_uv: [Enc, Enc, Enc];
}
interface Composite {
  id: string;
  fn: string;
  dtype: 'complex64' | 'complex128';
  out: Enc;
}
interface Grad {
  id: string;
  A: Enc;
  weights: number[][];
  grad: number[];
}
const golden = JSON.parse(readFileSync(new URL('../goldens/linalg_complex_svd.json', import.meta.url), 'utf8')) as {
  cases: Case[];
  composites: Composite[];
  grads: Grad[];
  errors: Record<string, string>;
};

const L = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;
const partsDtype = (d: string) => (d === 'complex64' || d === 'float32' ? 'float32' : 'float64');
const complexOf = (p: { shape: number[]; values: number[] }, d: string): Tensor =>
  torch.viewAsComplex(torch.tensor(p.values, { dtype: partsDtype(d) }).reshape([...p.shape, 2]));
const valuesOf = (t: Tensor): number[] => (t.isComplex() ? (torch.viewAsReal(t.resolveConj()).reshape([-1]).tolist() as number[]) : (t.reshape([-1]).tolist() as number[]));
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));
const epsOf = (d: string) => (d === 'complex128' ? 2.3e-16 : 1.2e-7);
const maxAbs = (xs: number[]) => Math.max(1, ...xs.map(Math.abs));

/** `got` has `e`'s shape and dtype, its values within `tol` times the largest magnitude of `e`. */
function expectClose(what: string, got: Tensor, e: Enc, tol: number): void {
  expect([what, got.dtype, got.shape]).toEqual([what, e.dtype, e.shape]);
  const err = maxAbsDiff(valuesOf(got), e.values);
  expect([what, err, err <= tol * maxAbs(e.values)]).toEqual([what, err, true]);
}

/** max |X^H X - I| over the columns of X (rows with `rows`). */
function unitarity(X: Tensor, rows = false): number {
  const G = rows ? torch.matmul(X, X.mH) : torch.matmul(X.mH, X);
  const n = G.shape[G.dim() - 1];
  return n === 0 ? 0 : (torch.abs(torch.sub(G, torch.eye(n, { dtype: X.dtype }))).max().item() as number);
}

/**
 * kernels-cpu's Note [Complex SVD phase convention]: in each of the first k columns of Jacobi's
 * V (Vh^H for a tall or square A, U for a wide one) the first entry within 1/64 of the column's
 * largest magnitude is real and positive; null, or the first column that breaks it.
 */
function phaseConvention(U: Tensor, Vh: Tensor, k: number, eps: number): string | null {
  const V = U.shape[U.dim() - 2] >= Vh.shape[Vh.dim() - 1] ? Vh.mH : U;
  const [r, c] = V.shape.slice(-2);
  const x = valuesOf(V);
  for (let b = 0; b < x.length / (2 * r * c); b++) {
    for (let j = 0; j < k; j++) {
      const at = (i: number) => 2 * (b * r * c + i * c + j);
      const mag = (i: number) => Math.hypot(x[at(i)], x[at(i) + 1]);
      let big = 0;
      for (let i = 0; i < r; i++) big = Math.max(big, mag(i));
      let i = 0;
      while (!(mag(i) >= big * (1 - 1 / 64))) i++;
      if (!(x[at(i)] > 0 && Math.abs(x[at(i) + 1]) <= 4 * eps * x[at(i)])) return `matrix ${b} column ${j}: entry ${i} is (${x[at(i)]}, ${x[at(i) + 1]})`;
    }
  }
  return null;
}

describe('complex linalg.svd / svdvals / torch.svd against PyTorch 1.13', () => {
  it('values, vectors up to a phase per pair, U diag(S) Vh, unitarity; full and reduced; both dtypes', () => {
    for (const c of golden.cases) {
      const tag = `${c.dtype} ${c.id}`;
      const A = complexOf(c.A, c.dtype);
      const n = Math.max(4, ...c.A.shape.slice(-2));
      const tol = epsOf(c.dtype) * 8 * n;
      expectClose(`${tag} svdvals`, L.svdvals(A), c.svdvals, tol);
      for (const mode of ['reduced', 'full'] as const) {
        const { U, S, Vh } = L.svd(A, { fullMatrices: mode === 'full' });
        const [eU, eS, eVh] = c[mode];
        expectClose(`${tag} ${mode} S`, S, eS, tol);
        expect([tag, mode, U.shape, Vh.shape, U.dtype, Vh.dtype]).toEqual([tag, mode, eU.shape, eVh.shape, c.dtype, c.dtype]);
        if (A.numel() === 0) {
          // (the vectors of an empty matrix are the identity's, or empty)
          expect([tag, mode, valuesOf(U), valuesOf(Vh)]).toEqual([tag, mode, eU.values, eVh.values]);
          continue;
        }
        const k = S.shape[S.dim() - 1];
        const Uk = U.narrow(-1, 0, k);
        const Vhk = Vh.narrow(-2, 0, k);
        const rec = torch.matmul(torch.mul(Uk, S.unsqueeze(-2)), Vhk);
        expectClose(`${tag} ${mode} U diag(S) Vh`, rec, c.A, tol);
        expect([tag, mode, unitarity(U) <= tol, unitarity(Vh, true) <= tol]).toEqual([tag, mode, true, true]);
        expect([tag, mode, phaseConvention(U, Vh, k, epsOf(c.dtype))]).toEqual([tag, mode, null]);
        if (c.rank_deficient) continue;
        // the phase e^{i phi_i} taking our u_i to PyTorch's, applied to (u_i, v_i)
        const pU = complexOf(eU, c.dtype).narrow(-1, 0, k);
        const pVh = complexOf(eVh, c.dtype).narrow(-2, 0, k);
        const dotp = torch.sum(torch.mul(torch.conj(Uk), pU), -2);
        const phase = torch.div(dotp, torch.abs(dotp));
        const vtol = tol / c.gap;
        expectClose(`${tag} ${mode} U up to phase`, torch.mul(Uk, phase.unsqueeze(-2)), { ...eU, shape: [...pU.shape], values: valuesOf(pU) }, vtol);
        expectClose(`${tag} ${mode} Vh up to phase`, torch.mul(Vhk, torch.conj(phase).unsqueeze(-1)), { ...eVh, shape: [...pVh.shape], values: valuesOf(pVh) }, vtol);
      }
      const full = torch.svd(A, false);
      expect([tag, [full.U.shape, full.S.shape, full.V.shape]]).toEqual([tag, c.torch_svd_shapes]);
      if (A.numel() > 0) {
        // torch.svd's V is Vh^H (conjugated): A = U diag(S) V^H
        const some = torch.svd(A);
        expectClose(`${tag} torch.svd U diag(S) V^H`, torch.matmul(torch.mul(some.U, some.S.unsqueeze(-2)), some.V.mH), c.A, tol);
      }
      const noUv = torch.svd(A, true, false);
      expectClose(`${tag} torch.svd compute_uv=False U`, noUv.U, c.torch_svd_no_uv[0], 0);
      expectClose(`${tag} torch.svd compute_uv=False S`, noUv.S, c.torch_svd_no_uv[1], tol);
      expectClose(`${tag} torch.svd compute_uv=False V`, noUv.V, c.torch_svd_no_uv[2], 0);
    }
  });

  it('pinv (default, atol, rtol), pinverse, matrix_rank, cond (every p), matrix_norm and norm (2, -2, nuc)', () => {
    const FNS: Record<string, (a: Tensor) => Tensor> = {
      pinv: (a) => L.pinv(a),
      'pinv atol': (a) => L.pinv(a, { atol: 1 }),
      'pinv rtol': (a) => L.pinv(a, { rtol: 0.3 }),
      pinverse: (a) => torch.pinverse(a),
      matrix_rank: (a) => L.matrixRank(a),
      'matrix_rank atol': (a) => L.matrixRank(a, { atol: 1.5 }),
      'matrix_rank rtol': (a) => L.matrixRank(a, { rtol: 0.3 }),
      cond: (a) => L.cond(a),
      'cond -2': (a) => L.cond(a, -2),
      'matrix_norm nuc': (a) => L.matrixNorm(a, 'nuc'),
      'matrix_norm 2': (a) => L.matrixNorm(a, 2),
      'matrix_norm -2': (a) => L.matrixNorm(a, -2),
      'matrix_norm nuc keepdim': (a) => L.matrixNorm(a, 'nuc', { keepdim: true }),
      'norm 2': (a) => L.norm(a, 2),
      'norm nuc': (a) => L.norm(a, 'nuc'),
      'norm -2': (a) => L.norm(a, -2),
      'cond nuc': (a) => L.cond(a, 'nuc'),
      'cond fro': (a) => L.cond(a, 'fro'),
      'cond 1': (a) => L.cond(a, 1),
      'cond -1': (a) => L.cond(a, -1),
      'cond inf': (a) => L.cond(a, Infinity),
      'cond -inf': (a) => L.cond(a, -Infinity),
    };
    const cases = new Map(golden.cases.map((c) => [`${c.dtype} ${c.id}`, c]));
    for (const c of golden.composites) {
      const tag = `${c.dtype} ${c.id} ${c.fn}`;
      const cs = cases.get(`${c.dtype} ${c.id}`)!;
      const out = FNS[c.fn](complexOf(cs.A, c.dtype));
      if (c.out.dtype === 'int64') {
        expect([tag, out.dtype, out.shape, valuesOf(out)]).toEqual([tag, 'int64', c.out.shape, c.out.values]);
        continue;
      }
      // (pinv and cond scale the error by the condition number of the kept singular values; a
      // rank-deficient input's cond is infinite or rounding noise's, above 1 / (100 eps) in both)
      if (cs.rank_deficient && c.fn.startsWith('cond') && c.fn !== 'cond -2') {
        const huge = (vs: (number | string)[]) => vs.every((v) => typeof v === 'string' || !Number.isFinite(v) || Math.abs(v) > 1 / (100 * epsOf(c.dtype)));
        expect([tag, out.dtype, out.shape, huge(c.out.values), huge(valuesOf(out))]).toEqual([tag, c.out.dtype, c.out.shape, true, true]);
        continue;
      }
      const condA = c.fn.startsWith('pinv') || c.fn.startsWith('cond') ? cs.cond : 1;
      expectClose(tag, out, c.out, epsOf(c.dtype) * 8 * 5 * condA);
    }
  });
});

describe('complex SVD derivatives (PyTorch 1.13 svd_backward)', () => {
  const usv = (a: Tensor) => {
    const { U, S, Vh } = L.svd(a, { fullMatrices: false });
    return [torch.matmul(torch.mul(U, S.unsqueeze(-2)), Vh)];
  };
  const absUv = (a: Tensor) => {
    const { U, S, Vh } = L.svd(a, { fullMatrices: false });
    return [torch.abs(U), torch.abs(Vh), S];
  };
  const FNS: Record<string, (a: Tensor) => Tensor[]> = {
    'svdvals tall': (a) => [L.svdvals(a)],
    'svdvals wide batched': (a) => [L.svdvals(a)],
    'U S Vh tall': usv,
    'U S Vh wide': usv,
    '|U| |Vh| S square batched': absUv,
    '|U| |Vh| S tall': absUv,
    '|U| |Vh| S wide': absUv,
    '|U| |Vh| full square': (a) => {
      const { U, S, Vh } = L.svd(a);
      const k = S.shape[S.dim() - 1];
      return [torch.abs(U.narrow(-1, 0, k)), torch.abs(Vh.narrow(-2, 0, k))];
    },
    'pinv tall': (a) => [L.pinv(a)],
    'pinv wide batched': (a) => [L.pinv(a)],
    'matrix_norm nuc': (a) => [L.matrixNorm(a, 'nuc')],
    cond: (a) => [L.cond(a)],
    'pinv rank 2': (a) => [L.pinv(a)],
    'svdvals rank 2 tall': (a) => [L.svdvals(a).narrow(-1, 0, 2)],
  };

  it('gradients of a real loss of gauge-invariant functions against PyTorch (complex128), rank-deficient inputs too', () => {
    for (const c of golden.grads) {
      const A = complexOf(c.A, 'complex128').requiresGrad_(true);
      let loss: Tensor | null = null;
      FNS[c.id](A).forEach((o, i) => {
        const w = o.isComplex() ? complexOf({ shape: [...o.shape], values: c.weights[i] }, 'complex128') : torch.tensor(c.weights[i], { dtype: 'float64' }).reshape([...o.shape]);
        const term = o.isComplex() ? torch.real(torch.mul(o, w)).sum() : torch.mul(o, w).sum();
        loss = loss ? torch.add(loss, term) : term;
      });
      (loss as unknown as Tensor).backward();
      const err = maxAbsDiff(valuesOf(A.grad!), c.grad);
      expect([c.id, err, err <= 1e-11 * maxAbs(c.grad)]).toEqual([c.id, err, true]);
    }
  });

  it('gradcheck (complex128): svdvals (batched, rank-deficient), U diag(S) Vh (tall, wide), |U| and |Vh| (reduced, full), pinv; gradgradcheck of svdvals and U diag(S) Vh', async () => {
    const g = new torch.Generator().manualSeed(47);
    const parts = (...shape: number[]) => torch.randn([...shape, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const c = (x: Tensor) => torch.viewAsComplex(x);
    const r = (z: Tensor) => (z.isComplex() ? torch.viewAsReal(z.resolveConj()).reshape([-1]) : z.reshape([-1]));
    const flat = (f: (a: Tensor) => Tensor[]) => (x: Tensor) => torch.cat(f(c(x)).map(r));
    const fns: [string, (x: Tensor) => Tensor, Tensor, boolean][] = [
      ['svdvals wide batched', flat((a) => [L.svdvals(a)]), parts(2, 2, 3), true],
      ['U diag(S) Vh tall', flat(usv), parts(3, 2), true],
      ['U diag(S) Vh wide', flat(usv), parts(2, 3), false],
      ['|U| |Vh| S square', flat(absUv), parts(3, 3), false],
      ['|U| |Vh| full tall', flat(FNS['|U| |Vh| full square']), parts(3, 2), false],
      ['pinv tall', flat((a) => [L.pinv(a)]), parts(3, 2), false],
      // (rank 2 of 3: the nonzero singular values stay differentiable)
      ['svdvals rank 2, its nonzero values', flat((a) => [L.svdvals(a).narrow(-1, 0, 2)]), torch.viewAsReal(torch.matmul(c(parts(3, 2)), c(parts(2, 3)))).detach().requiresGrad_(true), false],
    ];
    for (const [name, fn, x, second] of fns) {
      expect([name, await gradcheck(fn, [x])]).toEqual([name, true]);
      // (second order by PyTorch's fast_mode: one random projection)
      if (second) expect([name, await gradgradcheck(fn, [x], { fastMode: true })]).toEqual([name, true]);
    }
  });

  it("svd_backward's gauge error, the other errors PyTorch raises (matrix_norm's dtype= checks too), and svdvals' forward-mode derivative", () => {
    const e = golden.errors;
    const crandn = (...shape: number[]) => torch.viewAsComplex(torch.randn([...shape, 2], { dtype: 'float64' }));
    const A = crandn(3, 3).requiresGrad_(true);
    expect(() => torch.real(L.svd(A).U).sum().backward()).toThrow(e['gauge U']);
    expect(() => torch.imag(L.svd(A).Vh).sum().backward()).toThrow(e['gauge Vh']);
    expect(() => L.svd(torch.ones([3], { dtype: 'complex64' }))).toThrow(e['svd 1-d']);
    expect(() => L.pinv(torch.ones([3], { dtype: 'complex64' }))).toThrow(e['pinv 1-d']);
    expect(() => L.cond(crandn(2, 3), 'nuc')).toThrow(e['cond nuc non-square']);
    const C = crandn(3, 3).to('complex64');
    const R = torch.randn([3, 3]);
    for (const [id, f] of [
      ['matrix_norm nuc real dtype', () => L.matrixNorm(C, 'nuc', { dtype: 'float64' })],
      ['matrix_norm 2 real dtype', () => L.matrixNorm(C, 2, { dtype: 'float64' })],
      ['matrix_norm fro real dtype', () => L.matrixNorm(C, 'fro', { dtype: 'float64' })],
      ['norm nuc real dtype', () => L.norm(C, 'nuc', { dtype: 'float64' })],
      ['matrix_norm real input complex dtype', () => L.matrixNorm(R, 'nuc', { dtype: 'complex128' })],
      ['matrix_norm int dtype', () => L.matrixNorm(C, 'nuc', { dtype: 'int64' })],
    ] as const) {
      expect(f).toThrow(torch.DTypeError);
      expect(f).toThrow(e[id]);
    }
    expect(L.matrixNorm(C, 'nuc', { dtype: 'complex128' }).dtype).toBe(e['matrix_norm nuc complex dtype']);
    expect(() => L.svd(crandn(2, 2), { driver: 'gesvd' })).toThrow('torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.');
    // (a gauge-invariant loss of the vectors passes the check)
    const B = crandn(3, 3).requiresGrad_(true);
    torch.abs(L.svd(B).U).sum().backward();
    expect(B.grad!.shape).toEqual([3, 3]);
    // forward mode: dS = Re diag(U^H dA V), against a central difference
    const X = crandn(3, 2);
    const T = crandn(3, 2);
    const [, jvp] = torch.func.jvp((a: Tensor) => L.svdvals(a), [X], [T]) as [Tensor, Tensor];
    const h = 1e-6;
    const fd = torch.div(torch.sub(L.svdvals(torch.add(X, torch.mul(T, h))), L.svdvals(torch.sub(X, torch.mul(T, h)))), 2 * h);
    expect(maxAbsDiff(valuesOf(jvp), valuesOf(fd)) <= 1e-8).toBe(true);
  });
});
