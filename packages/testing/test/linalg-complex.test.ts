/**
 * torch.linalg on complex inputs (core's Note [Complex linear solves by the real
 * embedding]): linalg.solve (left and right, vector right-hand sides, broadcast batches) and
 * linalg.inv against PyTorch 1.13 (goldens/linalg_complex.json), the gradients of a real
 * loss through them against PyTorch's, and gradcheck / gradgradcheck through view_as_real.
 * The same values on WebGPU (complex64). Then the norms (vector_norm; matrix_norm 'fro', 1,
 * inf: the moduli's), matrix_power (negative powers through the complex inverse),
 * multi_dot and vecdot (x's conjugate times y) of complex matrices, values and gradients against PyTorch's.
 * Then the factorizations (core's Note [Complex linalg primitives]): cholesky, lu, lu_factor,
 * lu_solve, solve_triangular, det, slogdet, logdet, eigvalsh and eigh (through a
 * gauge-invariant function; its vectors through A V = V diag(w) and V^H V = I) against
 * PyTorch 1.13's values and the gradients of a real loss, tolerances scaled by the input's
 * condition number; gradcheck / gradgradcheck; LinAlgError, info and the gauge error (the
 * factorizations on WebGPU: test/linalg-complex-webgpu.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { FACTOR, lu } from './linalg-complex-rows';

interface Pairs {
  shape: number[];
  values: number[];
}
interface Case {
  id: string;
  op: 'solve' | 'inv';
  dtype: 'complex64' | 'complex128';
  left: boolean;
  A: Pairs;
  B?: Pairs;
  expected: Pairs;
  weights?: number[];
  grads?: number[][];
}
interface Other {
  id: string;
  dtype: 'complex64' | 'complex128';
  A: Pairs;
  expected: Pairs;
  grad?: number[];
}
interface Typed extends Pairs {
  dtype: string;
}
interface Factor {
  id: string;
  dtype: 'complex64' | 'complex128';
  inputs: Pairs[];
  cond: number;
  expected: Typed[];
  weights?: number[][];
  grads?: number[][];
}
const golden = JSON.parse(readFileSync(new URL('../goldens/linalg_complex.json', import.meta.url), 'utf8')) as {
  cases: Case[];
  others: Other[];
  factor: Factor[];
  cholesky_ex: { A: Pairs; info: number[]; message: string };
};
const { cases, others } = golden;

const L = torch.linalg;
const { LinAlgError } = torch.linalg;
const { gradcheck, gradgradcheck } = torch.autograd;
const partsDtype = (d: string) => (d === 'complex64' ? 'float32' : 'float64');
const complexOf = (p: Pairs, d: string): Tensor => torch.viewAsComplex(torch.tensor(p.values, { dtype: partsDtype(d) }).reshape([...p.shape, 2]));
const pairsOf = (z: Tensor): number[] => torch.viewAsReal(z).reshape([-1]).tolist() as number[];
const maxAbsDiff = (x: number[], y: number[]): number => Math.max(0, ...x.map((v, i) => Math.abs(v - y[i])));
const run = (c: Case, A: Tensor, B: Tensor | null): Tensor => (c.op === 'solve' ? L.solve(A, B!, { left: c.left }) : L.inv(A));

describe('complex linalg.solve / inv against PyTorch 1.13', () => {
  for (const device of ['cpu', 'webgpu'] as const) {
    for (const c of cases) {
      if (device === 'webgpu' && c.dtype === 'complex128') continue;
      it(`${device} ${c.dtype}: ${c.id}`, async (ctx) => {
        if (device === 'webgpu' && !(await torch.webgpu.init())) return ctx.skip();
        const move = async (t: Tensor) => (device === 'cpu' ? t : await t.toAsync('webgpu'));
        const A = await move(complexOf(c.A, c.dtype));
        const B = c.B ? await move(complexOf(c.B, c.dtype)) : null;
        const out = run(c, A, B);
        expect([out.dtype, out.shape]).toEqual([c.dtype, c.expected.shape]);
        const got = pairsOf(device === 'cpu' ? out : await out.toAsync('cpu'));
        const scale = Math.max(1, ...c.expected.values.map(Math.abs));
        expect(maxAbsDiff(got, c.expected.values)).toBeLessThan((c.dtype === 'complex128' ? 1e-12 : 2e-5) * scale);
      });
    }
  }

  for (const c of cases) {
    if (!c.grads) continue;
    it(`PyTorch's gradient of a real loss: ${c.id}`, () => {
      const A = complexOf(c.A, c.dtype).requiresGrad_(true);
      const B = c.B ? complexOf(c.B, c.dtype).requiresGrad_(true) : null;
      const out = run(c, A, B);
      const w = complexOf({ shape: c.expected.shape, values: c.weights! }, c.dtype);
      torch.add(torch.real(torch.mul(out, w)).sum(), torch.abs(out).sum()).backward();
      const leaves = B ? [A, B] : [A];
      leaves.forEach((t, i) => {
        const scale = Math.max(1, ...c.grads![i].map(Math.abs));
        expect(maxAbsDiff(pairsOf(t.grad!), c.grads![i])).toBeLessThan(1e-10 * scale);
      });
    });
  }

  it('gradcheck and gradgradcheck through view_as_real', async () => {
    const g = new torch.Generator().manualSeed(5);
    const a = torch.randn([3, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const b = torch.randn([3, 2, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const solve = (x: Tensor, y: Tensor) => torch.viewAsReal(L.solve(torch.viewAsComplex(x), torch.viewAsComplex(y)));
    const inv = (x: Tensor) => torch.viewAsReal(L.inv(torch.viewAsComplex(x)));
    expect(await gradcheck(solve, [a, b])).toBe(true);
    expect(await gradgradcheck(solve, [a, b])).toBe(true);
    expect(await gradcheck(inv, [a])).toBe(true);
    expect(await gradgradcheck(inv, [a])).toBe(true);
  });

  it('a singular complex matrix raises a LinAlgError; solve_ex / inv_ex report info', () => {
    const s = torch.viewAsComplex(torch.tensor([[[1, 1], [2, 2]], [[2, 2], [4, 4]]], { dtype: 'float64' }));
    expect(() => L.inv(s)).toThrow(LinAlgError);
    expect(() => L.solve(s, s)).toThrow(LinAlgError);
    expect((L.invEx(s).info.item() as number) !== 0).toBe(true);
    expect(() => L.solve(s, torch.ones([2, 2], { dtype: 'float64' }))).toThrow(/^linalg\.solve: Expected A and B to have the same dtype, but found A of type ComplexDouble and B of type Double instead$/);
  });
});

const OTHERS: Record<string, (a: Tensor) => Tensor> = {
  vector_norm: (a) => L.vectorNorm(a),
  'vector_norm ord=1 dim=-1': (a) => L.vectorNorm(a, 1, { dim: [-1] }),
  'vector_norm ord=inf dim=(0, 2)': (a) => L.vectorNorm(a, Infinity, { dim: [0, 2] }),
  'matrix_norm fro': (a) => L.matrixNorm(a),
  'matrix_norm 1': (a) => L.matrixNorm(a, 1),
  'matrix_norm -inf': (a) => L.matrixNorm(a, -Infinity),
  'matrix_power 3': (a) => torch.viewAsReal(L.matrixPower(a, 3)),
  'matrix_power -2': (a) => torch.viewAsReal(L.matrixPower(a, -2)),
  'vecdot dim=-2': (a) => torch.viewAsReal(L.vecdot(a, torch.select(a, 0, 1), { dim: -2 })),
  multi_dot: (a) => torch.viewAsReal(L.multiDot([torch.select(a, 0, 0), torch.select(a, 0, 1), torch.select(a, 0, 0)])),
};

describe('complex norms, matrix_power and multi_dot against PyTorch 1.13', () => {
  for (const o of others) {
    it(`${o.dtype}: ${o.id}`, () => {
      const A = complexOf(o.A, o.dtype);
      if (o.grad) A.requiresGrad_(true);
      const out = OTHERS[o.id](A);
      expect([out.dtype, out.shape]).toEqual([partsDtype(o.dtype), o.expected.shape]);
      const scale = Math.max(1, ...o.expected.values.map(Math.abs));
      expect(maxAbsDiff(out.reshape([-1]).tolist() as number[], o.expected.values)).toBeLessThan((o.dtype === 'complex128' ? 1e-12 : 2e-5) * scale);
      if (o.grad) {
        out.sum().backward();
        expect(maxAbsDiff(pairsOf(A.grad!), o.grad)).toBeLessThan(1e-10 * Math.max(1, ...o.grad.map(Math.abs)));
      }
    });
  }
});


const valuesOf = (t: Tensor): number[] => (t.isComplex() ? pairsOf(t.resolveConj()) : (t.reshape([-1]).tolist() as number[]));
/** eps(dtype) * n * cond(A) * 8 times the largest magnitude: the forward error bound the real rows use. */
const tolFor = (c: Factor, values: number[], n: number) => (c.dtype === 'complex128' ? 2.3e-16 : 1.2e-7) * 8 * n * Math.max(1, c.cond) * Math.max(1, ...values.map(Math.abs));

describe('complex factorizations against PyTorch 1.13', () => {
  for (const c of golden.factor) {
    it(`${c.dtype}: ${c.id}`, () => {
      const xs = c.inputs.map((p) => complexOf(p, c.dtype));
      const outs = FACTOR[c.id](...xs);
      const n = c.inputs[0].shape[c.inputs[0].shape.length - 1];
      outs.forEach((o, i) => {
        const e = c.expected[i];
        expect([o.dtype, o.shape]).toEqual([e.dtype, e.shape]);
        expect(maxAbsDiff(valuesOf(o), e.values)).toBeLessThanOrEqual(tolFor(c, e.values, n));
      });
      if (!c.grads) return;
      const leaves = c.inputs.map((p) => complexOf(p, c.dtype).requiresGrad_(true));
      const diff = FACTOR[c.id](...leaves).filter((o) => o.isFloatingPoint() || o.isComplex());
      let loss: Tensor | null = null;
      diff.forEach((o, i) => {
        const w = o.isComplex() ? complexOf({ shape: [...o.shape], values: c.weights![i] }, c.dtype) : torch.tensor(c.weights![i], { dtype: 'float64' }).reshape([...o.shape]);
        const term = torch.add(torch.real(torch.mul(o, w)).sum(), torch.abs(o).sum());
        loss = loss ? torch.add(loss, term) : term;
      });
      (loss as unknown as Tensor).backward();
      leaves.forEach((t, i) => {
        expect(maxAbsDiff(pairsOf(t.grad!), c.grads![i])).toBeLessThanOrEqual(1e-13 * Math.max(1, c.cond) * Math.max(1, ...c.grads![i].map(Math.abs)));
      });
    });
  }

  it('eigh: A V = V diag(w), V^H V = I, for both triangles and dtypes', () => {
    for (const c of golden.factor.filter((f) => f.id === 'eigh')) {
      const A = complexOf(c.inputs[0], c.dtype);
      const tol = c.dtype === 'complex128' ? 1e-12 : 1e-4;
      for (const uplo of ['L', 'U']) {
        // (the other triangle garbled: only UPLO's is read)
        const garbled = uplo === 'L' ? torch.add(torch.tril(A), torch.triu(torch.mul(A, 7), 1)) : torch.add(torch.triu(A), torch.tril(torch.mul(A, 7), -1));
        const [w, V] = L.eigh(garbled, uplo);
        expect(maxAbsDiff(w.tolist() as number[], c.expected[0].values)).toBeLessThan(tol * 30);
        const AV = torch.matmul(A, V);
        expect(torch.sub(AV, torch.mul(V, w.unsqueeze(-2))).abs().max().item()).toBeLessThan(tol * 30);
        expect(torch.sub(torch.matmul(V.mH, V), torch.eye(4, { dtype: c.dtype })).abs().max().item()).toBeLessThan(tol);
      }
    }
  });

  it('gradcheck and gradgradcheck: cholesky, lu, lu_solve, solve_triangular, det, slogdet, eigh', async () => {
    // (2 x 2 matrices: the numerical Jacobians' cost grows with the square of the size)
    const g = new torch.Generator().manualSeed(9);
    const a = torch.randn([2, 2, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const b = torch.randn([2, 3, 2], { dtype: 'float64', generator: g }).requiresGrad_(true);
    const c = (x: Tensor) => torch.viewAsComplex(x);
    const r = (z: Tensor) => torch.viewAsReal(z.resolveConj());
    const hpd = (x: Tensor) => torch.add(torch.matmul(c(x), c(x).mH), torch.eye(2, { dtype: 'complex128' }));
    const fns: [string, (...xs: Tensor[]) => Tensor, Tensor[]][] = [
      ['cholesky', (x) => r(L.cholesky(hpd(x))), [a]],
      ['lu', (x) => torch.cat([...L.lu(c(x))].slice(1).map(r)), [a]],
      ['lu_solve adjoint left=False', (x, y) => r(L.luSolve(...lu(c(x)), c(y).mT, { left: false, adjoint: true })), [a, b]],
      ['solve_triangular', (x, y) => r(L.solveTriangular(c(x), c(y), { upper: true })), [a, b]],
      ['det', (x) => r(L.det(c(x))), [a]],
      ['slogdet', (x) => torch.cat([r(L.slogdet(c(x)).sign).reshape([-1]), L.slogdet(c(x)).logabsdet.reshape([1])]), [a]],
      ['eigh', (x) => {
        const [w, V] = L.eigh(hpd(x));
        return torch.cat([w, r(torch.matmul(torch.mul(V, w.unsqueeze(-2)), V.mH)).reshape([-1])]);
      }, [a]],
    ];
    for (const [name, fn, inputs] of fns) {
      expect([name, await gradcheck(fn, inputs)]).toEqual([name, true]);
      // (second order where the formula differs most from the real one's: ^H through solves and the phase of slogdet)
      if (name === 'cholesky' || name === 'lu_solve adjoint left=False' || name === 'slogdet') expect([name, await gradgradcheck(fn, inputs)]).toEqual([name, true]);
    }
  });

  it("errors: PyTorch's LinAlgError naming the batch element, cholesky_ex's info, eigh's gauge error", () => {
    const ce = golden.cholesky_ex;
    const A = complexOf(ce.A, 'complex128');
    expect(L.choleskyEx(A).info.tolist()).toEqual(ce.info);
    expect(() => L.cholesky(A)).toThrow(LinAlgError);
    expect(() => L.cholesky(A)).toThrow(ce.message);
    expect(() => L.choleskyEx(A, { checkErrors: true })).toThrow(/^linalg\.cholesky: \(Batch element 1\): The factorization could not be completed/);
    const z = torch.zeros([2, 2], { dtype: 'complex64' });
    expect(L.luFactorEx(z).info.item()).toBe(1);
    expect(() => L.luFactor(z)).toThrow(/^torch\.linalg\.lu_factor: U\[1,1\] is zero/);
    expect(() => L.inv(z)).toThrow(/^linalg\.inv: The diagonal element 1 is zero/);
    expect(() => L.cholesky(torch.ones([2, 3], { dtype: 'complex64' }))).toThrow(/^linalg\.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    const H = torch.add(torch.matmul(A, A.mH), torch.eye(3, { dtype: 'complex128' })).detach().requiresGrad_(true);
    const [, V] = L.eigh(H);
    expect(() => torch.real(V).sum().backward()).toThrow(
      'linalg_eigh_backward: The eigenvectors in the complex case are specified up to multiplication by e^{i phi}. The specified loss function depends on this quantity, so it is ill-defined.',
    );
  });

});
