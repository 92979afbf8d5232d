/**
 * What of torch.linalg part 2a the OpInfo table cannot say (its entries: src/op-info/linalg-qr.ts):
 *  - eigh's and eigvalsh's derivatives, gradchecked on symmetric inputs A + A^T with distinct
 *    eigenvalues and a gauge-invariant loss (each eigenvector's sign fixed, or |V|), as
 *    PyTorch's OpInfo wraps them (the table's random draws are not symmetric: GRADCHECK_EXCLUDED);
 *  - eigenvectors compared as PyTorch's tests compare them: V diag(w) V^T = A and V^T V = I,
 *    and, for a repeated eigenvalue, through the reconstruction only;
 *  - the derivatives PyTorch refuses (geqrf; linalg.qr with mode='r', or 'complete' with m > n)
 *    and their messages, the error paths (lstsq's drivers, a rank-deficient gels), the SVD
 *    drivers' thresholds and residual rule, lstsq's derivative through pinv, named
 *    results, and that a loop of every function leaks no tensor or storage.
 * On CPU (the WebGPU kernels run the OpInfo table on SwiftShader: test/ops-webgpu-suite.ts).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import { signedColumns } from '../src/op-info/linalg-qr';

const { gradcheck, gradgradcheck } = torch.autograd;
const L = torch.linalg;
const f64 = (data: number[] | number[][] | number[][][]) => torch.tensor(data, { dtype: 'float64' });

/** max |a - b| (a number), the temporaries disposed. */
const maxDiff = (a: Tensor, b: Tensor): number => torch.tidy(() => torch.sub(a, b).abs().amax()).item() as number;

function leafOf(shape: number[], seed: number): Tensor {
  const g = new torch.Generator().manualSeed(seed);
  return torch.randn(shape, { dtype: 'float64', generator: g }).requiresGrad_(true);
}

/** A + A^T plus distinct multiples of I's diagonal entries (diag(0, 3, 6, ...)): symmetric, its eigenvalues well apart for small random A. */
function symmetric(A: Tensor): Tensor {
  const n = A.shape[A.dim() - 1];
  const spread = torch.mul(torch.eye(n, { dtype: 'float64' }), torch.arange(n, { dtype: 'float64' }).mul(3));
  return torch.add(torch.add(A, A.mT), spread);
}

describe('linalg.eigh / eigvalsh: gradcheck on symmetric inputs (float64, CPU)', () => {
  for (const shape of [[3, 3], [2, 4, 4], [1, 1]]) {
    for (const UPLO of ['L', 'U'] as const) {
      it(`eigh ${JSON.stringify(shape)} ${UPLO}: eigenvalues and sign-fixed eigenvectors`, async () => {
        const A = leafOf(shape, shape.length * 10 + shape[shape.length - 1]);
        const fn = (a: Tensor) => {
          const { eigenvalues, eigenvectors } = L.eigh(symmetric(a), { UPLO });
          return [eigenvalues, signedColumns(eigenvectors)];
        };
        expect(await gradcheck(fn, [A])).toBe(true);
        expect(await gradgradcheck(fn, [A])).toBe(true);
      });
    }
  }

  it('eigh: a loss of |V| (gauge-invariant), and eigenvalues alone', async () => {
    const A = leafOf([4, 4], 3);
    expect(await gradcheck((a: Tensor) => L.eigh(symmetric(a)).eigenvectors.abs(), [A])).toBe(true);
    expect(await gradcheck((a: Tensor) => L.eigh(symmetric(a)).eigenvalues, [A])).toBe(true);
  });

  it('eigvalsh', async () => {
    const A = leafOf([2, 3, 3], 5);
    expect(await gradcheck((a: Tensor) => L.eigvalsh(symmetric(a)), [A])).toBe(true);
    expect(await gradgradcheck((a: Tensor) => L.eigvalsh(symmetric(a), { UPLO: 'U' }), [A])).toBe(true);
  });

  it("the gradient is PyTorch's symmetric one (V diag(gw) V^T), though only one triangle is read", () => {
    const A = leafOf([3, 3], 9);
    torch.mul(L.eigvalsh(A), f64([1, 2, 3])).sum().backward();
    const g = A.grad!;
    expect(maxDiff(g, g.mT)).toBeLessThan(1e-15);
    expect(torch.triu(g, 1).abs().amax().item()).toBeGreaterThan(0.01);
  });
});

describe('linalg.eigh: eigenvectors as PyTorch compares them', () => {
  it('V diag(w) V^T = A, V^T V = I, eigenvalues ascending (float64 and float32)', () => {
    for (const dtype of ['float64', 'float32'] as const) {
      const g = new torch.Generator().manualSeed(1);
      const X = torch.randn([3, 6, 6], { dtype, generator: g });
      const A = torch.add(X, X.mT);
      const { eigenvalues: w, eigenvectors: V } = L.eigh(A);
      const tol = dtype === 'float64' ? 1e-13 : 1e-5;
      expect(maxDiff(torch.matmul(torch.mul(V, w.unsqueeze(-2)), V.mT), A)).toBeLessThan(tol * 10);
      expect(maxDiff(torch.matmul(V.mT, V), torch.eye(6, { dtype }))).toBeLessThan(tol);
      expect(torch.diff(w, 1, -1).amin().item()).toBeGreaterThanOrEqual(0);
    }
  });

  it('a repeated eigenvalue: any orthonormal basis of its eigenspace, A reconstructed', () => {
    const Q = L.qr(torch.randn([4, 4], { dtype: 'float64', generator: new torch.Generator().manualSeed(2) })).Q;
    const A = torch.matmul(torch.mul(Q, f64([1, 2, 2, 5]).unsqueeze(-2)), Q.mT);
    const { eigenvalues: w, eigenvectors: V } = L.eigh(A);
    expect(maxDiff(w, f64([1, 2, 2, 5]))).toBeLessThan(1e-14);
    expect(maxDiff(torch.matmul(torch.mul(V, w.unsqueeze(-2)), V.mT), A)).toBeLessThan(1e-14);
    expect(maxDiff(torch.matmul(V.mT, V), torch.eye(4, { dtype: 'float64' }))).toBeLessThan(1e-14);
  });

  it('lower-case UPLO is accepted, as PyTorch', () => {
    const A = f64([[2, 1], [5, 3]]);
    expect(maxDiff(L.eigvalsh(A, { UPLO: 'u' }), L.eigvalsh(f64([[2, 1], [1, 3]])))).toBe(0);
  });
});

describe('derivatives PyTorch refuses, with its messages', () => {
  it('geqrf', () => {
    const A = leafOf([3, 3], 1);
    const a = torch.geqrf(A).a.sum();
    expect(() => a.backward()).toThrow(/the derivative for 'geqrf' is not implemented\./);
  });

  it("linalg.qr with mode='r', and 'complete' with more rows than columns", () => {
    const A = leafOf([4, 3], 2);
    expect(() => L.qr(A, { mode: 'r' }).R.sum().backward()).toThrow(/The derivative of linalg\.qr depends on Q, which is not computed when mode='r'/);
    expect(() => L.qr(A, { mode: 'complete' }).Q.sum().backward()).toThrow(/The QR decomposition is not differentiable when mode='complete' and nrows > ncols\./);
  });

  it("linalg.qr with mode='complete' on a wide matrix is differentiable", async () => {
    expect(await gradcheck((a: Tensor) => L.qr(a, { mode: 'complete' }), [leafOf([2, 4], 3)])).toBe(true);
  });
});

describe('torch.linalg part 2a: errors and results', () => {
  it('lstsq: driver names in any case; an unknown one raises', () => {
    const A = f64([[1, 0], [0, 2], [1, 1]]);
    const B = f64([[1], [2], [3]]);
    expect(maxDiff(L.lstsq(A, B, { driver: 'GELSD' }).solution, L.lstsq(A, B, { driver: 'gelsd' }).solution)).toBe(0);
    expect(() => L.lstsq(A, B, { driver: 'foo' })).toThrow(/^torch\.linalg\.lstsq: parameter `driver` should be one of \(gels, gelsy, gelsd, gelss\)$/);
  });

  it('lstsq gelsd / gelss: the minimum-norm solution pinv(A) B, rank, singular values; residuals only at full rank', () => {
    // (two equal columns: rank 2)
    const deficient = f64([[1, 2, 2], [0.5, -1, -1], [3, 0.25, 0.25], [-2, 1.5, 1.5]]);
    const B = f64([[1, -1], [2, 0.5], [0, 1], [-1, 3]]);
    for (const driver of ['gelsd', 'gelss'] as const) {
      const r = L.lstsq(deficient, B, { driver });
      expect(maxDiff(r.solution, torch.matmul(L.pinv(deficient), B))).toBeLessThan(1e-13);
      expect(r.rank.item()).toBe(2);
      expect(maxDiff(r.singularValues, L.svdvals(deficient))).toBeLessThan(1e-14);
      expect(r.residuals.shape).toEqual([0]);
      const full = deficient.clone();
      full.narrow(1, 2, 1).add_(f64([[0.5], [0], [1], [0]]));
      const f = L.lstsq(full, B, { driver });
      expect(f.rank.item()).toBe(3);
      const res = torch.sub(torch.matmul(full, f.solution), B).square().sum(0);
      expect(maxDiff(f.residuals, res)).toBeLessThan(1e-13);
    }
  });

  it("lstsq gelsd / gelss: LAPACK's thresholds (gelsd takes rcond >= 1 as eps, gelss keeps nothing)", () => {
    const A = f64([[2, 0], [0, 1], [0, 0]]);
    const B = f64([[2], [3], [4]]);
    expect(L.lstsq(A, B, { driver: 'gelsd', rcond: 2 }).rank.item()).toBe(2);
    const none = L.lstsq(A, B, { driver: 'gelss', rcond: 2 });
    expect([none.rank.item(), none.solution.tolist(), none.residuals.shape]).toEqual([0, [[0], [0]], [0]]);
    // (rcond 0.5 cuts s = 1 against 0.5 * 2: strictly above is kept)
    expect(L.lstsq(A, B, { driver: 'gelsd', rcond: 0.5 }).rank.item()).toBe(1);
    expect(L.lstsq(A, B, { driver: 'gelss', rcond: 0.49 }).solution.tolist()).toEqual([[1], [3]]);
    // no right-hand side (1.13's LAPACK refuses nrhs = 0): the rank and values are still computed
    const k0 = L.lstsq(A, torch.zeros([3, 0], { dtype: 'float64' }), { driver: 'gelsd' });
    expect([k0.solution.shape, k0.rank.item(), k0.singularValues.tolist()]).toEqual([[2, 0], 2, [2, 1]]);
  });

  it("lstsq's derivative is 1.13's, through linalg.pinv at its default tolerances whatever rcond", async () => {
    // singular values 1, 0.1, 0.01: rcond 0.05 solves with rank 2, pinv keeps all three
    const Q = L.qr(torch.randn([4, 4], { dtype: 'float64', generator: new torch.Generator().manualSeed(7) })).Q;
    const V = L.qr(torch.randn([3, 3], { dtype: 'float64', generator: new torch.Generator().manualSeed(8) })).Q;
    const A = torch.matmul(torch.mul(Q.narrow(1, 0, 3), f64([1, 0.1, 0.01])), V.mT);
    for (const driver of ['gelsy', 'gelsd', 'gelss'] as const) {
      const B = torch.ones([4, 2], { dtype: 'float64' }).requiresGrad_(true);
      const r = L.lstsq(A, B, { driver, rcond: 0.05 });
      expect(r.rank.item()).toBe(2);
      r.solution.sum().backward();
      expect(maxDiff(B.grad!, torch.matmul(L.pinv(A).mT, torch.ones([3, 2], { dtype: 'float64' })))).toBeLessThan(1e-9);
    }
    expect(await gradcheck((a: Tensor, b: Tensor) => L.lstsq(a, b, { driver: 'gelsd' }), [leafOf([5, 3], 12), leafOf([5, 2], 13)])).toBe(true);
  });

  it("lstsq: gels of a rank-deficient matrix raises PyTorch's LinAlgError (CPU)", () => {
    const A = f64([[1, 0], [0, 0], [0, 0]]);
    expect(() => L.lstsq(A, f64([[1], [1], [1]]), { driver: 'gels' })).toThrow(L.LinAlgError);
    expect(() => L.lstsq(A, f64([[1], [1], [1]]), { driver: 'gels' })).toThrow(
      /^torch\.linalg\.lstsq: The least squares solution could not be computed because the input matrix does not have full rank \(error code: 2\)\.$/,
    );
    // gelsy finds the rank instead
    const r = L.lstsq(A, f64([[1], [1], [1]]));
    expect(r.rank.item()).toBe(1);
    expect(r.solution.tolist()).toEqual([[1], [0]]);
  });

  it('shapes and dtypes', () => {
    expect(() => L.qr(torch.ones([3]))).toThrow(/^linalg\.qr: The input tensor A must have at least 2 dimensions\.$/);
    expect(() => L.qr(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(DTypeError);
    expect(() => L.eigh(torch.ones([2, 3]))).toThrow(ShapeError);
    expect(() => L.eigh(torch.ones([2, 3]))).toThrow(/^linalg\.eigh: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.eigh(torch.ones([2, 2], { dtype: 'int32' }))).toThrow(/^"linalg_eigh_cpu" not implemented for 'Int'$/);
    expect(() => L.matrixExp(torch.ones([2, 3]))).toThrow(/^linalg\.matrix_exp: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => torch.matrixExp(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(/^matrix_exp: Expected a floating point or complex tensor as input\. Got Long$/);
    expect(() => torch.geqrf(torch.ones([3]))).toThrow(/^torch\.geqrf: input must have at least 2 dimensions\.$/);
    expect(() => L.householderProduct(torch.ones([2, 3]), torch.ones([1]))).toThrow(/^torch\.linalg\.householder_product: input\.shape\[-2\] must be greater than or equal to input\.shape\[-1\]$/);
    expect(() => L.lstsq(torch.ones([3]), torch.ones([3]))).toThrow(/^torch\.linalg\.lstsq: input must have at least 2 dimensions\.$/);
    expect(() => L.lstsq(torch.ones([3, 2]), torch.ones([2, 1]))).toThrow(/^torch\.linalg\.lstsq: input\.size\(-2\) should match other\.size\(-2\)$/);
  });

  it('named results; Q R = A, Q^T Q = I; Tensor methods', () => {
    const A = torch.randn([5, 3], { dtype: 'float64', generator: new torch.Generator().manualSeed(4) });
    const r = L.qr(A);
    const [Q, R] = r;
    expect(r.Q).toBe(Q);
    expect(r.R).toBe(R);
    expect(maxDiff(torch.matmul(Q, R), A)).toBeLessThan(1e-14);
    expect(maxDiff(torch.matmul(Q.mT, Q), torch.eye(3, { dtype: 'float64' }))).toBeLessThan(1e-14);
    const { a, tau } = A.geqrf();
    expect(maxDiff(a.orgqr(tau), Q)).toBeLessThan(1e-15);
    expect(maxDiff(A.qr().R, R)).toBe(0);
    const l = L.lstsq(A, torch.ones([5, 2], { dtype: 'float64' }), { driver: 'gels' });
    expect([l.solution.shape, l.residuals.shape, l.rank.shape, l.singularValues.shape]).toEqual([[3, 2], [2], [0], [0]]);
    const S = torch.tensor([[0, 1], [-1, 0]], { dtype: 'float64' });
    // exp of a rotation generator: [[cos 1, sin 1], [-sin 1, cos 1]]
    expect(maxDiff(S.matrixExp(), f64([[Math.cos(1), Math.sin(1)], [-Math.sin(1), Math.cos(1)]]))).toBeLessThan(1e-15);
  });
});

describe('torch.linalg part 2a leaks nothing', () => {
  it('a loop of every function, results disposed, errors included', () => {
    const A = f64([[4, 1, 0], [1, 3, 1], [0, 1, 2], [1, 1, 1]]);
    const S = f64([[4, 1, 0], [1, 3, 1], [0, 1, 2]]);
    const B = f64([[1, 2], [3, 4], [5, 6], [7, 8]]);
    const [At, b3, S5, half, deficient, b2] = [A.mT, f64([[1], [2], [3]]), S.mul(5), torch.ones([2, 2], { dtype: 'float16' }), f64([[1, 0], [0, 0]]), f64([[1], [1]])];
    const run = () => {
      const g = torch.geqrf(A);
      const out: (Tensor | readonly Tensor[])[] = [
        g, L.householderProduct(g.a, g.tau), torch.orgqr(g.a, g.tau), L.qr(A), L.qr(A, { mode: 'complete' }), L.qr(A, { mode: 'r' }), torch.qr(A),
        L.eigh(S), L.eigvalsh(S, { UPLO: 'U' }), L.lstsq(A, B), L.lstsq(A, B, { driver: 'gels' }), L.lstsq(At, b3),
        L.lstsq(A, B, { driver: 'gelsd' }), L.lstsq(At, b3, { driver: 'gelss' }), L.lstsq(deficient, b2, { driver: 'gelsd' }),
        L.matrixExp(S), torch.matrixExp(S5), L.matrixExp(half),
      ];
      for (const fails of [() => L.lstsq(A, B, { driver: 'foo' }), () => L.eigh(A), () => L.lstsq(deficient, b2, { driver: 'gels' })]) {
        expect(fails).toThrow(TorchError);
      }
      for (const t of out.flat()) t.dispose();
    };
    run();
    const before = torch.memory.stats('cpu');
    for (let i = 0; i < 5; i++) run();
    const after = torch.memory.stats('cpu');
    expect([after.liveTensors, after.liveStorages]).toEqual([before.liveTensors, before.liveStorages]);
  });

  it('a loop with gradients', () => {
    const A = leafOf([4, 3], 11);
    const step = () => {
      const loss = torch.tidy(() => {
        const { Q, R } = L.qr(A);
        const w = L.eigvalsh(symmetric(A.narrow(0, 0, 3)));
        const x = L.lstsq(A, torch.ones([4, 1], { dtype: 'float64' })).solution;
        const sv = L.lstsq(A, torch.ones([4, 1], { dtype: 'float64' }), { driver: 'gelsd' }).singularValues;
        return torch.add(torch.add(Q.sum(), R.sum()), torch.add(torch.add(w.sum(), sv.sum()), torch.add(x.sum(), L.matrixExp(A.narrow(0, 0, 3)).sum())));
      });
      loss.backward();
      loss.dispose();
      A.grad?.dispose();
      A.grad = null;
    };
    step();
    const before = torch.memory.stats('cpu');
    for (let i = 0; i < 5; i++) step();
    const after = torch.memory.stats('cpu');
    expect([after.liveTensors, after.liveStorages]).toEqual([before.liveTensors, before.liveStorages]);
  });
});
