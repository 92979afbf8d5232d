/**
 * torch.linalg.lstsq and matrix_exp of complex matrices (kernels-cpu's Note [CPU complex lstsq
 * and matrix_exp]) against PyTorch 1.13 (goldens/linalg_complex_lstsq.json): lstsq's four
 * drivers on tall, wide, square (vector right-hand side), batched and broadcast problems and
 * rank-deficient / ill-conditioned / empty ones (solution, real residuals, rank, real singular values,
 * each as 1.13 returns it for the driver); matrix_exp at norms that pick each of mexp's degrees
 * and its scaling and squaring; the gradients of a real loss through both (complex128) against
 * PyTorch's; gradcheck / gradgradcheck (complex128, through view_as_real); the errors.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { golden, type Enc } from './linalg-complex-lstsq-rows';


const L = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;
const partsDtype = (d: string) => (d === 'complex64' ? 'float32' : 'float64');
const complexOf = (p: { shape: number[]; values: number[] }, d: string): Tensor => torch.viewAsComplex(torch.tensor(p.values, { dtype: partsDtype(d) }).reshape([...p.shape, 2]));
const valuesOf = (t: Tensor): number[] => (t.isComplex() ? (torch.viewAsReal(t.resolveConj()).reshape([-1]).tolist() as number[]) : (t.reshape([-1]).tolist() as number[]));
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));

/** `got` equals PyTorch's `e`: shape, dtype, values within eps * 8 * max(n, 4) * cond of the largest magnitude. */
function expectClose(what: string, got: Tensor, e: Enc, eps: number, n: number, cond: number): void {
  expect([what, got.dtype, got.shape]).toEqual([what, e.dtype, e.shape]);
  const tol = eps * 8 * Math.max(n, 4) * Math.max(1, cond) * Math.max(1, ...e.values.map(Math.abs));
  const d = maxAbsDiff(valuesOf(got), e.values);
  expect([what, d, d <= tol]).toEqual([what, d, true]);
}

describe('complex linalg.lstsq against PyTorch 1.13', () => {
  it('every driver: tall, wide, square vector, batched broadcast, rank-deficient, ill-conditioned, empty, no right-hand side; both dtypes', () => {
    const names = ['solution', 'residuals', 'rank', 'singular_values'];
    for (const c of golden.lstsq) {
      const A = complexOf(c.A, c.dtype);
      const B = complexOf(c.B, c.dtype);
      const out = L.lstsq(A, B, c.rcond, { driver: c.driver });
      const eps = c.dtype === 'complex128' ? 2.3e-16 : 1.2e-7;
      const n = Math.max(...c.A.shape.slice(-2));
      const got = [out.solution, out.residuals, out.rank, out.singularValues];
      got.forEach((t, i) => {
        const tag = `${c.dtype} ${c.id} ${c.driver} ${names[i]}`;
        // (residuals are squares of the solution's misfit: twice its relative error)
        if (names[i] === 'rank') expect([tag, t.dtype, t.shape, valuesOf(t)]).toEqual([tag, 'int64', c.out[i].shape, c.out[i].values]);
        else expectClose(tag, t, c.out[i], eps, n, names[i] === 'singular_values' ? 1 : c.cond * (names[i] === 'residuals' ? 2 : 1));
      });
    }
  });

  it('matrix_exp: each degree, scaling and squaring, batched, 1x1, empty; both dtypes; torch.matrix_exp', () => {
    for (const c of golden.matrix_exp) {
      const A = complexOf(c.A, c.dtype);
      const eps = c.dtype === 'complex128' ? 2.3e-16 : 1.2e-7;
      const n = c.A.shape[c.A.shape.length - 1] ?? 1;
      expectClose(`${c.dtype} ${c.id}`, L.matrixExp(A), c.out, eps * 4, n, 1);
      expectClose(`${c.dtype} ${c.id} torch.matrix_exp`, torch.matrixExp(A), c.out, eps * 4, n, 1);
    }
  });

  it('gradients of a real loss through lstsq (gelsy, gels, gelsd) and matrix_exp (complex128)', () => {
    const FNS: Record<string, (...xs: Tensor[]) => Tensor[]> = {
      'lstsq gelsy tall': (a, b) => [L.lstsq(a, b).solution],
      'lstsq gels wide': (a, b) => [L.lstsq(a, b, null, { driver: 'gels' }).solution],
      'lstsq gelsd batched': (a, b) => [L.lstsq(a, b, null, { driver: 'gelsd' }).solution],
      matrix_exp: (a) => [L.matrixExp(a)],
      'matrix_exp batched large norm': (a) => [torch.matrixExp(a)],
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
        const d = maxAbsDiff(valuesOf(t.grad!), c.grads[i]);
        expect([c.id, i, d, d <= 1e-10 * scale]).toEqual([c.id, i, d, true]);
      });
    }
  });

  it('gradcheck (complex128): lstsq gelsy tall and gelss wide, residuals, matrix_exp; gradgradcheck of matrix_exp', async () => {
    const g = new torch.Generator().manualSeed(47);
    const rn = (...s: number[]) => torch.randn([...s, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const c = (x: Tensor) => torch.viewAsComplex(x);
    const r = (z: Tensor) => torch.viewAsReal(z.resolveConj()).reshape([-1]);
    const tall = rn(4, 2);
    const wide = rn(2, 3);
    const b4 = rn(4, 1);
    const b2 = rn(2, 2);
    const sq = rn(3, 3);
    const fns: [string, (...xs: Tensor[]) => Tensor, Tensor[], boolean][] = [
      ['lstsq gelsy tall', (a, b) => r(L.lstsq(c(a), c(b)).solution), [tall, b4], false],
      ['lstsq gelss wide', (a, b) => r(L.lstsq(c(a), c(b), null, { driver: 'gelss' }).solution), [wide, b2], false],
      ['lstsq gels residuals', (a, b) => L.lstsq(c(a), c(b), null, { driver: 'gels' }).residuals, [tall, b4], false],
      ['matrix_exp', (a) => r(L.matrixExp(c(a))), [sq], true],
    ];
    for (const [name, fn, inputs, second] of fns) {
      expect([name, await gradcheck(fn, inputs)]).toEqual([name, true]);
      if (second) expect([name, await gradgradcheck(fn, inputs, { fastMode: true })]).toEqual([name, true]);
    }
  });

  it("errors: A and B's dtypes named as 1.13's, gels on a rank-deficient matrix", () => {
    const e = golden.errors;
    const crandn = (...shape: number[]) => torch.viewAsComplex(torch.randn([...shape, 2], { dtype: 'float64' }));
    expect(() => L.lstsq(crandn(3, 2), crandn(3, 1).to('complex64'))).toThrow(e['dtype complex128 complex64']!);
    expect(() => L.lstsq(crandn(3, 2), torch.randn([3, 1], { dtype: 'float64' }))).toThrow(e['dtype complex128 float64']!);
    const Z = crandn(3, 2);
    const zc = torch.cat([Z.narrow(1, 0, 1), torch.zeros([3, 1], { dtype: 'complex128' })], 1);
    expect(() => L.lstsq(zc, crandn(3, 1), null, { driver: 'gels' })).toThrow(e['gels rank-deficient']!);
    expect(() => L.lstsq(zc, crandn(3, 1), null, { driver: 'gels' })).toThrow(torch.TorchError);
  });
});
