/**
 * torch.linalg.eig / eigvals of complex matrices (core's Note [The eig primitive], kernels-cpu's
 * Note [CPU complex eig: LAPACK's zgeev]) against PyTorch 1.13's CPU results
 * (goldens/linalg_eig.json's complex_cases, LAPACK's zgeev):
 *  - complex128: the eigenvalues in zgeev's order and the eigenvectors with its normalisation,
 *    element for element (the CPU kernel follows zgeev step by step);
 *  - complex64: cgeev iterates in single precision, so the eigenvalues are compared as
 *    multisets and the eigenvectors up to a unit phase per column (simple eigenvalues);
 *    every result also satisfies A V = V diag(L) with unit columns whose largest component is real;
 *  - the derivative: PyTorch's (complex) gradient of a gauge-invariant loss, gradcheck and
 *    gradgradcheck in complex128 of the eigenvalues and |V|, the gauge error;
 *  - the error paths (WebGPU's kernel: linalg-eig-complex-webgpu.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import { type EigCase, checkAgainstGolden, complexOf, maxAbsDiff, pairsOf } from './linalg-eig-complex-rows';

interface GradCase {
  id: string;
  shape: number[];
  a: number[];
  wr: number[];
  wi: number[];
  c: number[];
  grad: number[];
}
const goldens = JSON.parse(readFileSync(new URL('../goldens/linalg_eig.json', import.meta.url), 'utf8')) as { complex_cases: EigCase[]; complex_grads: GradCase[] };

const L = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;

describe('linalg.eig of complex matrices against PyTorch 1.13 (LAPACK zgeev)', () => {
  for (const dtype of ['complex128', 'complex64'] as const) {
    it(`${dtype}: every golden case (values, vectors, eigvals)`, () => {
      const cases = goldens.complex_cases.filter((c) => c.dtype === dtype);
      expect(cases.length).toBe(14);
      for (const c of cases) {
        const A = complexOf(c.a, c.shape, dtype);
        const { eigenvalues, eigenvectors } = L.eig(A);
        expect([c.id, eigenvalues.dtype, eigenvectors.dtype, eigenvalues.shape, eigenvectors.shape]).toEqual([c.id, dtype, dtype, c.shape.slice(0, -1), c.shape]);
        const Lm = pairsOf(eigenvalues);
        checkAgainstGolden(c, Lm, pairsOf(eigenvectors));
        expect([c.id, maxAbsDiff(pairsOf(L.eigvals(A)), Lm)]).toEqual([c.id, 0]);
      }
    });
  }

  it('a conjugated (lazy conj bit) and a non-contiguous input', () => {
    const c = goldens.complex_cases.find((x) => x.id === 'random 4x4' && x.dtype === 'complex128')!;
    const A = complexOf(c.a, c.shape);
    // eig(conj(A)) = conj of eig(A), as the matrix is conjugated before the factorization
    const direct = L.eig(A.conj().resolveConj());
    const lazy = L.eig(A.conj());
    expect(maxAbsDiff(pairsOf(lazy.eigenvalues), pairsOf(direct.eigenvalues))).toBe(0);
    expect(maxAbsDiff(pairsOf(lazy.eigenvectors), pairsOf(direct.eigenvectors))).toBe(0);
    const t = L.eig(A.mT);
    const tc = L.eig(A.mT.contiguous());
    expect(maxAbsDiff(pairsOf(t.eigenvalues), pairsOf(tc.eigenvalues))).toBe(0);
  });
});

describe('linalg.eig derivative, complex input', () => {
  it("PyTorch's gradient of a gauge-invariant loss", () => {
    for (const g of goldens.complex_grads) {
      const A = complexOf(g.a, g.shape).requiresGrad_(true);
      const wr = torch.tensor(g.wr, { dtype: 'float64' }).reshape(g.shape.slice(0, -1));
      const wi = torch.tensor(g.wi, { dtype: 'float64' }).reshape(g.shape.slice(0, -1));
      const c = torch.tensor(g.c, { dtype: 'float64' }).reshape(g.shape);
      const { eigenvalues, eigenvectors } = L.eig(A);
      const loss = torch.add(torch.add(torch.mul(torch.real(eigenvalues), wr).sum(), torch.mul(torch.imag(eigenvalues), wi).sum()), torch.mul(torch.abs(eigenvectors), c).sum());
      loss.backward();
      expect(A.grad!.dtype).toBe('complex128');
      expect([g.id, maxAbsDiff(pairsOf(A.grad!), g.grad) < 1e-10 * Math.max(1, ...g.grad.map(Math.abs))]).toEqual([g.id, true]);
    }
  });

  it('gradcheck and gradgradcheck in complex128: eigvals (batched) and |V|', async () => {
    const g = new torch.Generator().manualSeed(11);
    const x = torch.randn([2, 3, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const eigvals = (t: Tensor) => torch.viewAsReal(L.eigvals(torch.viewAsComplex(t)));
    expect(await gradcheck(eigvals, [x])).toBe(true);
    expect(await gradgradcheck(eigvals, [x])).toBe(true);
    const y = torch.randn([3, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const absV = (t: Tensor) => torch.abs(L.eig(torch.viewAsComplex(t)).eigenvectors);
    expect(await gradcheck(absV, [y])).toBe(true);
    expect(await gradgradcheck(absV, [y])).toBe(true);
  });

  it("a loss that depends on the eigenvectors' phase raises the gauge error; empty inputs give empty gradients", () => {
    const A = torch.viewAsComplex(torch.randn([3, 3, 2], { dtype: 'float64', generator: new torch.Generator().manualSeed(4) })).requiresGrad_(true);
    const loss = torch.imag(L.eig(A).eigenvectors).sum();
    expect(() => loss.backward()).toThrow(TorchError);
    const loss2 = torch.imag(L.eig(A).eigenvectors).sum();
    expect(() => loss2.backward()).toThrow(/^linalg_eig_backward: The eigenvectors in the complex case are specified up to multiplication by e\^\{i phi\}/);
    const E = torch.zeros([0, 2, 2], { dtype: 'complex128' }).requiresGrad_(true);
    torch.abs(L.eigvals(E)).sum().backward();
    expect([E.grad!.shape, E.grad!.dtype]).toEqual([[0, 2, 2], 'complex128']);
  });
});

describe('linalg.eig errors, complex input (PyTorch 1.13)', () => {
  it('shapes and non-finite values', () => {
    const z = (re: number[][]) => torch.complex(torch.tensor(re, { dtype: 'float64' }), torch.zerosLike(torch.tensor(re, { dtype: 'float64' })));
    expect(() => L.eig(z([[1, 2, 3], [4, 5, 6]]))).toThrow(ShapeError);
    expect(() => L.eig(z([[1, 2, 3], [4, 5, 6]]))).toThrow(/^linalg\.eig: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.eigvals(z([[1, 2, 3], [4, 5, 6]]))).toThrow(/^linalg\.eigvals: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => L.eig(z([[1, bad], [0, 1]]))).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
      expect(() => L.eigvals(torch.complex(torch.tensor([[1, 0], [0, 1]], { dtype: 'float32' }), torch.tensor([[0, bad], [0, 0]], { dtype: 'float32' })))).toThrow(/^torch\.linalg\.eig: input tensor should not contain infs or NaNs\.$/);
    }
  });
});
