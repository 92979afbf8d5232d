/**
 * torch.linalg.eig / eigvals (core's Note [The eig primitive]) against PyTorch 1.13's CPU
 * results (goldens/linalg_eig.json, LAPACK's geev):
 *  - float64: the eigenvalues in geev's order and the eigenvectors with geev's
 *    normalisation, element for element (the CPU kernel follows dgeev step by step);
 *  - float32: sgeev iterates in single precision and may converge in another order or to
 *    another sign, so the eigenvalues are compared as sorted multisets and the
 *    eigenvectors up to a unit phase per column; every result also satisfies A V = V diag(L)
 *    with unit columns whose largest component is real;
 *  - the derivative: PyTorch's gradient of a gauge-invariant loss, gradcheck and
 *    gradgradcheck of eigenvalues, |V| and V diag(L) V^-1 in float64, and the gauge error;
 *  - the error paths with PyTorch 1.13's messages.
 * The same goldens on WebGPU (float32), whose kernel follows sgeev's steps in float32.
 * Complex inputs (zgeev): linalg-eig-complex.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import { eigProblems, matrices, maxAbsDiff, pairsOf, phaseDistance, type C } from './linalg-eig-complex-rows';

interface EigCase {
  id: string;
  dtype: 'float32' | 'float64';
  shape: number[];
  a: number[];
  L: number[];
  V: number[];
}
interface GradCase {
  id: string;
  shape: number[];
  a: number[];
  wr: number[];
  wi: number[];
  c: number[];
  grad: number[];
}
const goldens = JSON.parse(readFileSync(new URL('../goldens/linalg_eig.json', import.meta.url), 'utf8')) as { cases: EigCase[]; grads: GradCase[] };

const L = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;


const byValue = (x: C, y: C): number => x[0] - y[0] || x[1] - y[1];

/** Compares eig's results (as pairs) with the golden: float64 element for element, float32 up to order and phase; then the eigenpairs' own checks. */
function checkAgainstGolden(c: EigCase, Lm: number[], Vm: number[], exact: boolean): void {
  const n = c.shape[c.shape.length - 1];
  const batch = c.shape.slice(0, -2).reduce((x, y) => x * y, 1);
  const scale = Math.max(1, ...c.a.map(Math.abs));
  if (exact) {
    // geev's order and normalisation, element for element
    expect(maxAbsDiff(Lm, c.L)).toBeLessThan(1e-13 * scale);
    expect(maxAbsDiff(Vm, c.V)).toBeLessThan(1e-12);
  } else {
    const mine = matrices(Lm, batch);
    const theirs = matrices(c.L, batch);
    for (let b = 0; b < batch; b++) {
      const x = [...mine[b]].sort(byValue);
      const y = [...theirs[b]].sort(byValue);
      expect(maxAbsDiff(x.flat(), y.flat())).toBeLessThan(1e-5 * scale);
      // eigenvectors up to a unit phase, paired by eigenvalue, where the eigenvalue is simple (else any basis of its eigenspace will do)
      const close = (l: C, m: C) => Math.hypot(l[0] - m[0], l[1] - m[1]) <= 1e-4 * scale;
      const simple = mine[b].map((l) => mine[b].filter((m) => close(l, m)).length === 1);
      const perm = mine[b].map((l) => theirs[b].findIndex((m) => close(l, m)));
      const vm = matrices(Vm, batch)[b];
      const vt = matrices(c.V, batch)[b];
      const permuted = vt.map((_, k) => vt[Math.floor(k / n) * n + perm[k % n]]);
      expect(phaseDistance(vm, permuted, n, simple)).toBeLessThan(1e-4);
    }
  }
  const a64 = c.a.map((x) => (c.dtype === 'float32' ? Math.fround(x) : x));
  for (let b = 0; b < batch; b++) {
    const problems = eigProblems(a64.slice(b * n * n, (b + 1) * n * n).map((x): C => [x, 0]), matrices(Lm, batch)[b], matrices(Vm, batch)[b], n, c.dtype === 'float64' ? 1e-13 : 2e-6);
    expect(problems).toEqual([]);
  }
}

describe('linalg.eig against PyTorch 1.13 (LAPACK geev)', () => {
  for (const c of goldens.cases) {
    it(`${c.dtype}: ${c.id} ${JSON.stringify(c.shape)}`, () => {
      const A = torch.tensor(c.a, { dtype: c.dtype }).reshape(c.shape);
      const { eigenvalues, eigenvectors } = L.eig(A);
      const cd = c.dtype === 'float64' ? 'complex128' : 'complex64';
      expect([eigenvalues.dtype, eigenvectors.dtype]).toEqual([cd, cd]);
      expect(eigenvalues.shape).toEqual(c.shape.slice(0, -1));
      expect(eigenvectors.shape).toEqual(c.shape);
      const Lm = pairsOf(eigenvalues);
      checkAgainstGolden(c, Lm, pairsOf(eigenvectors), c.dtype === 'float64');
      // eigvals: the same values
      expect(maxAbsDiff(pairsOf(L.eigvals(A)), Lm)).toBe(0);
    });
  }

  it('the named result and the geev order of a simple matrix', () => {
    const r = L.eig(torch.tensor([[2, 0], [0, 1]], { dtype: 'float64' }));
    const [w, V] = r;
    expect(w).toBe(r.eigenvalues);
    expect(V).toBe(r.eigenvectors);
    expect(pairsOf(w)).toEqual([2, 0, 1, 0]);
    expect(pairsOf(V)).toEqual([1, 0, 0, 0, 0, 0, 1, 0]);
  });
});

describe('linalg.eig derivative', () => {
  for (const g of goldens.grads) {
    it(`PyTorch's gradient of a gauge-invariant loss: ${g.id}`, () => {
      const A = torch.tensor(g.a, { dtype: 'float64' }).reshape(g.shape).requiresGrad_(true);
      const wr = torch.tensor(g.wr, { dtype: 'float64' }).reshape(g.shape.slice(0, -1));
      const wi = torch.tensor(g.wi, { dtype: 'float64' }).reshape(g.shape.slice(0, -1));
      const c = torch.tensor(g.c, { dtype: 'float64' }).reshape(g.shape);
      const { eigenvalues, eigenvectors } = L.eig(A);
      const loss = torch.add(torch.add(torch.mul(torch.real(eigenvalues), wr).sum(), torch.mul(torch.imag(eigenvalues), wi).sum()), torch.mul(torch.abs(eigenvectors), c).sum());
      loss.backward();
      const got = A.grad!.reshape([-1]).tolist() as number[];
      expect(maxAbsDiff(got, g.grad)).toBeLessThan(1e-10 * Math.max(1, ...g.grad.map(Math.abs)));
    });
  }

  const leaf = (seed: number, shape: number[]): Tensor => torch.randn(shape, { dtype: 'float64', generator: new torch.Generator().manualSeed(seed) }).requiresGrad_(true);

  it('gradcheck and gradgradcheck: eigenvalues (real and complex pairs)', async () => {
    for (const [seed, shape] of [[1, [4, 4]], [2, [2, 3, 3]]] as const) {
      const A = leaf(seed, [...shape]);
      const f = (x: Tensor) => torch.viewAsReal(L.eigvals(x));
      expect(await gradcheck(f, [A])).toBe(true);
      expect(await gradgradcheck(f, [A])).toBe(true);
    }
  });

  it('gradcheck and gradgradcheck: |V| and V diag(L) V^-1 (gauge-invariant)', async () => {
    const A = leaf(3, [4, 4]);
    const absV = (x: Tensor) => torch.abs(L.eig(x).eigenvectors);
    expect(await gradcheck(absV, [A])).toBe(true);
    expect(await gradgradcheck(absV, [A])).toBe(true);
    // V diag(L) V^-1 = A: its derivative is the identity map (V^-1 through the real embedding of the complex inverse)
    const rebuilt = (x: Tensor) => {
      const { eigenvalues, eigenvectors } = L.eig(x);
      const [vr, vi] = [torch.real(eigenvectors), torch.imag(eigenvectors)];
      const n = vr.shape[0];
      const big = torch.cat([torch.cat([vr, torch.neg(vi)], -1), torch.cat([vi, vr], -1)], -2);
      const [lr, li] = [torch.real(eigenvalues), torch.imag(eigenvalues)];
      // (V diag(L)) as [[Pr, -Pi], [Pi, Pr]] times the embedding's inverse: the real block is Re(V diag(L) V^-1)
      const pr = torch.sub(torch.mul(vr, lr), torch.mul(vi, li));
      const pi = torch.add(torch.mul(vr, li), torch.mul(vi, lr));
      const top = torch.cat([pr, torch.neg(pi)], -1);
      return torch.narrow(torch.matmul(top, L.inv(big)), -1, 0, n);
    };
    expect(maxAbsDiff(rebuilt(A).reshape([-1]).tolist() as number[], A.reshape([-1]).tolist() as number[])).toBeLessThan(1e-12);
    expect(await gradcheck(rebuilt, [A])).toBe(true);
  });

  it('a loss that depends on the eigenvectors\' phase raises the gauge error', () => {
    const A = leaf(4, [3, 3]);
    const { eigenvectors } = L.eig(A);
    const loss = torch.imag(eigenvectors).sum();
    expect(() => loss.backward()).toThrow(/^linalg_eig_backward: The eigenvectors in the complex case are specified up to multiplication by e\^\{i phi\}/);
  });
});

describe('linalg.eig errors (PyTorch 1.13)', () => {
  it('shapes, dtypes and non-finite values', () => {
    expect(() => L.eig(torch.ones([2, 3]))).toThrow(ShapeError);
    expect(() => L.eig(torch.ones([2, 3]))).toThrow(/^linalg\.eig: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.eig(torch.ones([3]))).toThrow(/^linalg\.eig: The input tensor A must have at least 2 dimensions\.$/);
    expect(() => L.eigvals(torch.ones([2, 3]))).toThrow(/^linalg\.eigvals: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.eig(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(DTypeError);
    expect(() => L.eig(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(/^Unknown Complex ScalarType for Long$/);
    expect(() => L.eig(torch.ones([2, 2], { dtype: 'float16' }))).toThrow(/^"linalg_eig_out_cpu" not implemented for 'Half'$/);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => L.eig(torch.tensor([[1, bad], [0, 1]]))).toThrow(TorchError);
      expect(() => L.eig(torch.tensor([[1, bad], [0, 1]]))).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
      expect(() => L.eigvals(torch.tensor([[1, bad], [0, 1]]))).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
    }
  });

});

describe('linalg.eig on WebGPU (float32, sgeev\'s steps on the device)', () => {
  for (const c of goldens.cases) {
    if (c.dtype !== 'float32') continue;
    it(`${c.id} ${JSON.stringify(c.shape)}`, async (ctx) => {
      if (!(await torch.webgpu.init())) return ctx.skip();
      const A = await torch.tensor(c.a, { dtype: 'float32' }).reshape(c.shape).toAsync('webgpu');
      const r = L.eig(A);
      expect([r.eigenvalues.device.type, r.eigenvalues.dtype, r.eigenvectors.dtype]).toEqual(['webgpu', 'complex64', 'complex64']);
      const [Lw, Vw, Ew] = await Promise.all([r.eigenvalues, r.eigenvectors, L.eigvals(A)].map((t) => t.toAsync('cpu')));
      const Lm = pairsOf(Lw);
      checkAgainstGolden(c, Lm, pairsOf(Vw), false);
      // eigvals (the kernel without vectors): the same values
      expect(maxAbsDiff(pairsOf(Ew), Lm)).toBe(0);
    });
  }
});
