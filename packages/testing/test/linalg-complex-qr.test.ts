/**
 * The complex Householder QR family (core's Note [Complex linalg primitives]; kernels-cpu's
 * Note [CPU complex QR]): geqrf, householder_product / orgqr and linalg.qr / torch.qr of
 * complex64 and complex128 matrices against PyTorch 1.13 (goldens/linalg_complex_qr.json),
 * element for element (LAPACK's conventions: tau complex, R's diagonal real): tall, wide,
 * square, batched, empty and with an exactly zero column; the gradients of a real loss
 * through qr and householder_product against PyTorch's; gradcheck / gradgradcheck in
 * complex128 (through view_as_real); PyTorch's errors; WebGPU's complex128 refusal. Then pinv and
 * matrix_rank with hermitian=True (through the complex eigh) and cond's 'fro' / inf of complex
 * matrices against PyTorch's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import type { Pairs, QrCase } from './linalg-complex-rows';

interface Hermitian {
  id: string;
  dtype: 'complex64' | 'complex128';
  A: Pairs;
  out: Pairs & { dtype: string };
}
interface Grad {
  id: string;
  inputs: Pairs[];
  weights: number[][];
  grads: number[][];
}
const golden = JSON.parse(readFileSync(new URL('../goldens/linalg_complex_qr.json', import.meta.url), 'utf8')) as {
  cases: QrCase[];
  grads: Grad[];
  errors: Record<string, string>;
  hermitian: Hermitian[];
};

const L = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;
const partsDtype = (d: string) => (d === 'complex64' ? 'float32' : 'float64');
const complexOf = (p: Pairs, d: string): Tensor => torch.viewAsComplex(torch.tensor(p.values, { dtype: partsDtype(d) }).reshape([...p.shape, 2]));
const pairsOf = (z: Tensor): number[] => torch.viewAsReal(z.resolveConj()).reshape([-1]).tolist() as number[];
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));

/** `got` equals PyTorch's `e` (shape, dtype; values within the forward error bound eps * 8 * n * cond(A) of the largest magnitude, as linalg-complex.test's). */
function expectClose(what: string, got: Tensor, e: Pairs, dtype: string, n = 1, cond = 1): void {
  expect([what, got.dtype, got.shape]).toEqual([what, dtype, e.shape]);
  const tol = (dtype === 'complex128' ? 2.3e-16 : 1.2e-7) * 8 * Math.max(n, 4) * Math.max(1, cond) * Math.max(1, ...e.values.map(Math.abs));
  expect([what, maxAbsDiff(pairsOf(got), e.values) <= tol]).toEqual([what, true]);
}

describe('complex geqrf / householder_product / qr against PyTorch 1.13', () => {
  it('values: tall, wide, square batched, zero column, real-valued, empty; both dtypes; every mode', () => {
    for (const c of golden.cases) {
      const A = complexOf(c.A, c.dtype);
      const tag = `${c.dtype} ${c.id}`;
      const close = (what: string, got: Tensor, e: Pairs) => expectClose(`${tag} ${what}`, got, e, c.dtype, Math.max(...c.A.shape.slice(-2)), c.cond);
      const [a, tau] = torch.geqrf(A);
      close('geqrf a', a, c.geqrf[0]);
      close('geqrf tau', tau, c.geqrf[1]);
      for (const mode of ['reduced', 'complete', 'r'] as const) {
        const { Q, R } = L.qr(A, mode);
        close(`qr ${mode} Q`, Q, c[mode][0]);
        close(`qr ${mode} R`, R, c[mode][1]);
      }
      close('torch.qr some=False Q', torch.qr(A, false).Q, c.complete[0]);
      if (c.householder) {
        close('householder_product', L.householderProduct(a, tau), c.householder);
        close('orgqr', torch.orgqr(a, tau), c.householder);
      }
    }
  });

  it('gradients of a real loss through qr and householder_product (complex128)', () => {
    const FNS: Record<string, (...xs: Tensor[]) => Tensor[]> = {
      'qr reduced tall': (a) => [...L.qr(a)],
      'qr reduced wide': (a) => [...L.qr(a)],
      'qr reduced batched': (a) => [...L.qr(a)],
      'qr complete square': (a) => [...L.qr(a, 'complete')],
      householder_product: (a, t) => [L.householderProduct(a, t)],
      'householder_product batched': (a, t) => [L.householderProduct(a, t)],
    };
    for (const c of golden.grads) {
      const leaves = c.inputs.map((p) => complexOf(p, 'complex128').requiresGrad_(true));
      let loss: Tensor | null = null;
      FNS[c.id](...leaves).forEach((o, i) => {
        const w = complexOf({ shape: [...o.shape], values: c.weights[i] }, 'complex128');
        const term = torch.add(torch.real(torch.mul(o, w)).sum(), torch.abs(o).sum());
        loss = loss ? torch.add(loss, term) : term;
      });
      (loss as unknown as Tensor).backward();
      leaves.forEach((t, i) => {
        const scale = Math.max(1, ...c.grads[i].map(Math.abs));
        expect([c.id, i, maxAbsDiff(pairsOf(t.grad!), c.grads[i]) <= 1e-11 * scale]).toEqual([c.id, i, true]);
      });
    }
  });

  it('gradcheck (complex128): qr reduced tall and wide, complete square, householder_product; gradgradcheck of qr', async () => {
    const g = new torch.Generator().manualSeed(31);
    const tall = torch.randn([3, 2, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const wide = torch.randn([2, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const sq = torch.randn([2, 2, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const tau = torch.randn([2, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const c = (x: Tensor) => torch.viewAsComplex(x);
    const r = (z: Tensor) => torch.viewAsReal(z.resolveConj()).reshape([-1]);
    const both = (mode: 'reduced' | 'complete') => (x: Tensor) => {
      const { Q, R } = L.qr(c(x), mode);
      return torch.cat([r(Q), r(R)]);
    };
    const fns: [string, (...xs: Tensor[]) => Tensor, Tensor[], boolean][] = [
      ['qr reduced tall', both('reduced'), [tall], true],
      ['qr reduced wide', both('reduced'), [wide], false],
      ['qr complete square', both('complete'), [sq], false],
      ['householder_product', (x, t) => r(L.householderProduct(c(x), c(t))), [tall, tau], false],
    ];
    for (const [name, fn, inputs, second] of fns) {
      expect([name, await gradcheck(fn, inputs)]).toEqual([name, true]);
      // (second order by PyTorch's fast_mode: one random projection, the whole Jacobians cost seconds)
      if (second) expect([name, await gradgradcheck(fn, inputs, { fastMode: true })]).toEqual([name, true]);
    }
  });

  it("errors: PyTorch's messages for mode='r' and complete tall backward, tau's dtype; geqrf has no derivative", () => {
    const e = golden.errors;
    const crandn = (...shape: number[]) => torch.viewAsComplex(torch.randn([...shape, 2], { dtype: 'float64' }));
    const A = crandn(3, 3).requiresGrad_(true);
    expect(() => L.qr(A, 'r').R.abs().sum().backward()).toThrow(e['qr r backward']);
    const T = crandn(4, 3).requiresGrad_(true);
    expect(() => L.qr(T, 'complete').Q.abs().sum().backward()).toThrow(e['qr complete tall backward']);
    expect(() => L.householderProduct(crandn(3, 3), torch.randn([2], { dtype: 'float64' }))).toThrow(e['householder_product dtype']);
    expect(() => torch.geqrf(A).a.abs().sum().backward()).toThrow("the derivative for 'geqrf' is not implemented.");
  });

  it('WebGPU: complex128 QR is a DTypeError (float64 parts; complex64 runs there: linalg-complex-webgpu.test)', async (ctx) => {
    if (!(await torch.webgpu.init())) return ctx.skip();
    const A = await torch.eye(3, { dtype: 'complex128' }).toAsync('webgpu');
    const tau = await torch.zeros([2], { dtype: 'complex128' }).toAsync('webgpu');
    for (const f of [() => L.qr(A), () => torch.geqrf(A), () => L.householderProduct(A, tau)]) {
      expect(f).toThrow(torch.DTypeError);
      expect(f).toThrow(/^[\w.]+: "[\w.]+" not implemented for 'complex128' on webgpu$/);
    }
  });
});

describe('complex pinv / matrix_rank (hermitian), cond, and the functions without a complex kernel', () => {
  const HERMITIAN: Record<string, (a: Tensor) => Tensor> = {
    'pinv hermitian': (a) => L.pinv(a, { hermitian: true }),
    'pinv hermitian rank 2': (a) => L.pinv(a, { hermitian: true }),
    'matrix_rank hermitian': (a) => L.matrixRank(a, { hermitian: true }),
    'matrix_rank hermitian rank 2': (a) => L.matrixRank(a, { hermitian: true }),
    'matrix_rank hermitian atol': (a) => L.matrixRank(a, { atol: 8, rtol: 0, hermitian: true }),
    'cond fro': (a) => L.cond(a, 'fro'),
    'cond inf': (a) => L.cond(a, Infinity),
    'cond 1 empty': (a) => L.cond(a, 1),
  };
  // (no gradient here: 1.13 differentiates pinv by pinv_backward, hermitian or not, where
  // torch-ts's hermitian path takes eigh's Hermitian gradient, for real inputs as for complex)
  it('values against PyTorch 1.13 (ranks exactly)', () => {
    for (const c of golden.hermitian) {
      const tag = `${c.dtype} ${c.id}`;
      const out = HERMITIAN[c.id](complexOf(c.A, c.dtype));
      expect([tag, out.dtype, out.shape]).toEqual([tag, c.out.dtype, c.out.shape]);
      const got = out.isComplex() ? pairsOf(out) : (out.reshape([-1]).tolist() as number[]);
      if (c.out.dtype === 'int64') expect([tag, got]).toEqual([tag, c.out.values]);
      else {
        const tol = (c.dtype === 'complex128' ? 1e-12 : 2e-5) * 10 * Math.max(1, ...c.out.values.map(Math.abs));
        expect([tag, maxAbsDiff(got, c.out.values) <= tol]).toEqual([tag, true]);
      }
    }
  });

  it("eig's shape check comes first, as PyTorch's", () => {
    // (lstsq and matrix_exp have their complex kernels: linalg-complex-lstsq.test.ts; the SVD
    // family and eig theirs: linalg-complex-svd.test.ts, linalg-eig-complex.test.ts)
    // (shapes are checked first, as PyTorch's)
    expect(() => L.eig(torch.viewAsComplex(torch.randn([2, 3, 2], { dtype: 'float64' })))).toThrow(/^linalg\.eig: A must be batches of square matrices, but they are 2 by 3 matrices$/);
  });
});
