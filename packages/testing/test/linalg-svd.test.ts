/**
 * What of torch.linalg part 2b (the SVD family) the OpInfo table cannot say (its entries:
 * src/op-info/linalg-svd.ts, which compare U and Vh up to each pair's sign):
 *  - the vectors where they are not unique (rank-deficient, repeated and zero singular
 *    values, the completion of full_matrices): U diag(S) Vh reconstructs A and U, Vh are
 *    orthonormal, on CPU (float64, float32) and on WebGPU when it is available;
 *  - svd's derivative through gauge-invariant losses (|U|, |Vh|, S: a real pair's sign does
 *    not change them), with full_matrices narrowed to the first k vectors, as PyTorch's tests;
 *  - linalg.det's derivative at singular matrices (core's Note [The determinant's derivative]);
 *  - the error paths (PyTorch 1.13's messages), the named results, and a leak loop.
 * The expected values of det's gradient are PyTorch 1.13's (with create_graph: its first-order
 * path gives 0 there), from real runs.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';

const { gradcheck, gradgradcheck } = torch.autograd;
const L = torch.linalg;
const f64 = (data: number[][] | number[][][]) => torch.tensor(data, { dtype: 'float64' });

/** max |a - b| (a number), the temporaries disposed. */
const maxDiff = (a: Tensor, b: Tensor): number => torch.tidy(() => torch.sub(a, b).abs().amax().item() as number);

function leafOf(shape: number[], seed: number): Tensor {
  const g = new torch.Generator().manualSeed(seed);
  return torch.randn(shape, { dtype: 'float64', generator: g }).requiresGrad_(true);
}

/** A [m, n] float64 matrix of rank r: the product of random [m, r] and [r, n] factors. */
function rankR(m: number, n: number, r: number, seed: number): Tensor {
  const g = new torch.Generator().manualSeed(seed);
  return torch.matmul(torch.randn([m, r], { dtype: 'float64', generator: g }), torch.randn([r, n], { dtype: 'float64', generator: g }));
}

/** Q1 diag(values) Q2^T with random orthogonal Q1, Q2 (from the SVD of random matrices). */
function withValues(values: number[], seed: number): Tensor {
  const n = values.length;
  const g = new torch.Generator().manualSeed(seed);
  const q1 = L.svd(torch.randn([n, n], { dtype: 'float64', generator: g })).U;
  const q2 = L.svd(torch.randn([n, n], { dtype: 'float64', generator: g })).U;
  return torch.matmul(torch.mul(q1, torch.tensor(values, { dtype: 'float64' })), q2.mT);
}

/** The problems of an SVD of A: reconstruction, orthonormal columns of U and rows of Vh, values descending and nonnegative. */
function svdProblems(A: Tensor, U: Tensor, S: Tensor, Vh: Tensor, tol: number): string[] {
  const k = S.shape[S.dim() - 1];
  const scale = Math.max(1, S.numel() > 0 ? (S.amax().item() as number) : 1);
  const problems: string[] = [];
  const rec = torch.matmul(torch.mul(torch.narrow(U, -1, 0, k), S.unsqueeze(-2)), torch.narrow(Vh, -2, 0, k));
  if (!(maxDiff(rec, A) <= tol * scale)) problems.push(`U diag(S) Vh - A: ${maxDiff(rec, A)}`);
  const eyeOf = (n: number) => torch.eye(n, { dtype: A.dtype });
  const utu = torch.matmul(U.mT, U);
  if (U.numel() > 0 && !(maxDiff(utu, eyeOf(U.shape[U.dim() - 1])) <= tol)) problems.push(`U^T U - I: ${maxDiff(utu, eyeOf(U.shape[U.dim() - 1]))}`);
  const vvt = torch.matmul(Vh, Vh.mT);
  if (Vh.numel() > 0 && !(maxDiff(vvt, eyeOf(Vh.shape[Vh.dim() - 2])) <= tol)) problems.push(`Vh Vh^T - I: ${maxDiff(vvt, eyeOf(Vh.shape[Vh.dim() - 2]))}`);
  if (k > 1) {
    const steps = torch.sub(torch.narrow(S, -1, 0, k - 1), torch.narrow(S, -1, 1, k - 1));
    if ((steps.amin().item() as number) < 0) problems.push('S not descending');
  }
  if (S.numel() > 0 && (S.amin().item() as number) < 0) problems.push('S negative');
  return problems;
}

const CASES: [string, () => Tensor][] = [
  ['rank 2 of 4 x 3', () => rankR(4, 3, 2, 1)],
  ['rank 1 of 3 x 5', () => rankR(3, 5, 1, 2)],
  ['rank 3 of 6 x 6', () => rankR(6, 6, 3, 3)],
  ['repeated values 3, 3, 1', () => withValues([3, 3, 1], 4)],
  ['values 2, 2, 2, 2 (an orthogonal matrix times 2)', () => withValues([2, 2, 2, 2], 5)],
  ['the zero matrix 3 x 2', () => torch.zeros([3, 2], { dtype: 'float64' })],
  ['an exactly zero column', () => f64([[1, 0, 2], [3, 0, 4], [5, 0, 7]])],
  ['a batch of tall matrices', () => rankR(2 * 7, 4, 4, 6).reshape([2, 7, 4])],
  ['a 20 x 12 random matrix', () => rankR(20, 12, 12, 7)],
];

describe('linalg.svd where the vectors are not unique: reconstruction and orthonormality', () => {
  for (const device of ['cpu', 'webgpu'] as const) {
    for (const dtype of ['float64', 'float32'] as const) {
      if (device === 'webgpu' && dtype === 'float64') continue;
      for (const [name, make] of CASES) {
        for (const fullMatrices of [false, true]) {
          it(`${device} ${dtype}: ${name}${fullMatrices ? ', full_matrices' : ''}`, async (ctx) => {
            if (device === 'webgpu' && !(await torch.webgpu.init())) return ctx.skip();
            const A = make().to(dtype);
            const Ad = device === 'cpu' ? A : await A.toAsync('webgpu');
            const r = L.svd(Ad, { fullMatrices });
            const [U, S, Vh] = device === 'cpu' ? [r.U, r.S, r.Vh] : await Promise.all([r.U, r.S, r.Vh].map((t) => t.toAsync('cpu')));
            const [m, n] = A.shape.slice(-2);
            const k = Math.min(m, n);
            expect([U.shape.slice(-2), S.shape.slice(-1), Vh.shape.slice(-2)]).toEqual([
              [m, fullMatrices ? m : k],
              [k],
              [fullMatrices ? n : k, n],
            ]);
            expect(svdProblems(A, U, S, Vh, dtype === 'float64' ? 1e-13 : 2e-5)).toEqual([]);
            // the values agree with svdvals and with the CPU's float64 values
            const ref = L.svdvals(make());
            expect(maxDiff(S.to('float64'), ref)).toBeLessThan((dtype === 'float64' ? 1e-13 : 2e-5) * Math.max(1, ref.amax().item() as number));
          });
        }
      }
    }
  }

  it('the vectors of a simple matrix, and torch.svd V = Vh^T', () => {
    const A = f64([[3, 0], [0, -2]]);
    const { U, S, Vh } = L.svd(A);
    expect(S.tolist()).toEqual([3, 2]);
    expect(torch.abs(U).tolist()).toEqual([[1, 0], [0, 1]]);
    expect(maxDiff(torch.matmul(torch.mul(U, S), Vh), A)).toBe(0);
    const old = torch.svd(A);
    expect(maxDiff(old.V, Vh.mT)).toBe(0);
    expect(old.V.shape).toEqual([2, 2]);
    const none = torch.svd(torch.ones([2, 3], { dtype: 'float64' }), { computeUv: false });
    expect([none.U.shape, none.V.shape, none.U.abs().sum().item(), none.V.abs().sum().item()]).toEqual([[2, 2], [3, 3], 0, 0]);
  });

  it('empty inputs: values empty, full vectors the identity (PyTorch 1.13)', () => {
    const { U, S, Vh } = L.svd(torch.zeros([0, 3], { dtype: 'float64' }));
    expect([U.shape, S.shape, Vh.tolist()]).toEqual([[0, 0], [0], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]]);
    const thin = L.svd(torch.zeros([2, 3, 0]), { fullMatrices: false });
    expect([thin.U.shape, thin.S.shape, thin.Vh.shape]).toEqual([[2, 3, 0], [2, 0], [2, 0, 0]]);
    expect(L.svdvals(torch.zeros([0, 2, 2])).shape).toEqual([0, 2]);
    expect(L.pinv(torch.zeros([0, 3])).shape).toEqual([3, 0]);
    expect(L.matrixRank(torch.zeros([2, 0, 3])).tolist()).toEqual([0, 0]);
    expect(L.cond(torch.zeros([0, 0])).item()).toBe(0);
  });

  it('pinv and matrix_rank of rank-deficient matrices, hermitian from the lower triangle', () => {
    const A = rankR(5, 4, 2, 9);
    const P = L.pinv(A);
    // the Moore-Penrose conditions
    expect(maxDiff(torch.matmul(torch.matmul(A, P), A), A)).toBeLessThan(1e-12);
    expect(maxDiff(torch.matmul(torch.matmul(P, A), P), P)).toBeLessThan(1e-12);
    expect(L.matrixRank(A).item()).toBe(2);
    expect(L.matrixRank(A.to('float32')).item()).toBe(2);
    const S = torch.add(rankR(4, 4, 4, 10), rankR(4, 4, 4, 10).mT);
    const lowerOnly = torch.add(torch.tril(S), torch.triu(torch.ones([4, 4], { dtype: 'float64' }), 1).mul(100));
    expect(maxDiff(L.pinv(lowerOnly, { hermitian: true }), L.inv(S))).toBeLessThan(1e-10);
    expect(L.matrixRank(torch.tril(rankR(3, 3, 1, 11)), { hermitian: true }).item()).toBe(3);
  });

  it('hermitian: through eigh as PyTorch (|eigenvalues| against the largest), gradchecked on symmetric inputs', async () => {
    // eigenvalues 3, -2, 1e-9: |w| ranks them, and the tiny one is cut at rtol 1e-6
    const Q = L.qr(torch.randn([3, 3], { dtype: 'float64', generator: new torch.Generator().manualSeed(21) })).Q;
    const S = torch.matmul(torch.mul(Q, torch.tensor([3, -2, 1e-9], { dtype: 'float64' })), Q.mT);
    expect(L.matrixRank(S, { hermitian: true }).item()).toBe(3);
    expect(L.matrixRank(S, { hermitian: true, rtol: 1e-6 }).item()).toBe(2);
    expect(maxDiff(L.pinv(S, { hermitian: true, rtol: 1e-6 }), L.pinv(S, { rtol: 1e-6 }))).toBeLessThan(1e-12);
    expect(() => L.pinv(torch.ones([2, 3], { dtype: 'float64' }), { hermitian: true })).toThrow(/^linalg\.eigh: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.matrixRank(torch.ones([2, 3], { dtype: 'float64' }), { hermitian: true })).toThrow(/^linalg\.eigh: A must be batches of square matrices/);
    const sym = (a: Tensor) => L.pinv(torch.add(torch.add(a, a.mT), torch.mul(torch.eye(3, { dtype: 'float64' }), torch.tensor([0, 3, 6], { dtype: 'float64' }))), { hermitian: true });
    const a = torch.randn([3, 3], { dtype: 'float64', generator: new torch.Generator().manualSeed(22) }).mul(0.3).requiresGrad_(true);
    expect(await gradcheck(sym, [a])).toBe(true);
    expect(await gradgradcheck(sym, [a])).toBe(true);
  });
});

describe('linalg.svd: gradcheck through gauge-invariant losses (float64, CPU)', () => {
  const invariant = (fullMatrices: boolean) => (a: Tensor) => {
    const { U, S, Vh } = L.svd(a, { fullMatrices });
    const k = S.shape[S.dim() - 1];
    return [torch.abs(torch.narrow(U, -1, 0, k)), S, torch.abs(torch.narrow(Vh, -2, 0, k))];
  };
  for (const shape of [[3, 3], [5, 3], [3, 5], [2, 4, 3], [1, 1], [1, 4]]) {
    for (const fullMatrices of [false, true]) {
      it(`svd ${JSON.stringify(shape)}${fullMatrices ? ' full_matrices (first k vectors)' : ''}`, async () => {
        const A = leafOf(shape, shape.reduce((x, y) => x * 10 + y, 0) + (fullMatrices ? 1 : 0));
        expect(await gradcheck(invariant(fullMatrices), [A])).toBe(true);
        expect(await gradgradcheck(invariant(fullMatrices), [A])).toBe(true);
      });
    }
  }

  it('U diag(S) Vh through each factor: the gradient of a loss of the reconstruction is the identity map', async () => {
    const A = leafOf([4, 3], 21);
    expect(await gradcheck((a: Tensor) => { const { U, S, Vh } = L.svd(a, { fullMatrices: false }); return torch.matmul(torch.mul(U, S.unsqueeze(-2)), Vh); }, [A])).toBe(true);
  });

  it('torch.svd (V, some) and svdvals', async () => {
    const A = leafOf([4, 3], 22);
    expect(await gradcheck((a: Tensor) => { const { U, S, V } = torch.svd(a); return [torch.abs(U), S, torch.abs(V)]; }, [A])).toBe(true);
    expect(await gradgradcheck((a: Tensor) => L.svdvals(a), [A])).toBe(true);
  });

  it('the node is LinalgSvdBackward0; a sign-dependent real loss has the gradient of the signs picked, as PyTorch (its gauge check is for complex inputs)', () => {
    const A = leafOf([3, 3], 23);
    const { U } = L.svd(A);
    expect(U.gradFn?.name()).toBe('LinalgSvdBackward0');
    const loss = U.sum();
    loss.backward();
    expect(Number.isFinite(A.grad!.abs().sum().item() as number)).toBe(true);
  });
});

describe('linalg.det at singular matrices: PyTorch 1.13 linalg_det_backward (float64, CPU)', () => {
  it('rank n - 1: the cofactors, as 1.13 gives with create_graph', () => {
    const B = f64([[1, 2, 3], [2, 4, 6], [1, 0, 1]]).requiresGrad_(true);
    const [g] = torch.autograd.grad([L.det(B)], [B]);
    expect(maxDiff(g!, f64([[4, 4, -4], [-2, -2, 2], [0, 0, 0]]))).toBeLessThan(1e-12);
    const A = f64([[1, 2], [2, 4]]).requiresGrad_(true);
    const [h] = torch.autograd.grad([torch.det(A)], [A]);
    expect(maxDiff(h!, f64([[4, -2], [-2, 1]]))).toBeLessThan(1e-12);
    expect(L.det(A).gradFn?.name()).toBe('LinalgDetBackward0');
  });

  for (const [name, make] of [
    ['rank 2 of 3 x 3', () => rankR(3, 3, 2, 31)],
    ['rank 1 of 3 x 3', () => rankR(3, 3, 1, 32)],
    ['rank 3 of 4 x 4', () => rankR(4, 4, 3, 33)],
    ['the zero matrix', () => torch.zeros([3, 3], { dtype: 'float64' })],
    ['a batch of a singular and a regular matrix', () => torch.stack([rankR(3, 3, 2, 34), rankR(3, 3, 3, 35)])],
  ] as const) {
    it(`gradcheck: ${name}`, async () => {
      const A = make().requiresGrad_(true);
      expect(await gradcheck((a: Tensor) => L.det(a), [A])).toBe(true);
    });
  }

  it('gradgradcheck on regular matrices (a batch), and finite gradients of every order at a singular one', async () => {
    const A = leafOf([2, 3, 3], 36);
    expect(await gradgradcheck((a: Tensor) => L.det(a), [A])).toBe(true);
    const B = rankR(3, 3, 2, 37).requiresGrad_(true);
    const [g] = torch.autograd.grad([L.det(B)], [B], { createGraph: true });
    const [gg] = torch.autograd.grad([g!.sum()], [B]);
    expect(Number.isFinite(gg!.abs().sum().item() as number)).toBe(true);
  });

  // (1.13's slogdet_backward solves A^T X = I there and gets inf in some entries; torch-ts's
  // LU-composed derivative gets NaN: neither is finite, as log|det| has no derivative at 0)
  it('slogdet keeps its LU derivative: not finite at a singular matrix, as 1.13', () => {
    const B = f64([[1, 2, 3], [2, 4, 6], [1, 0, 1]]).requiresGrad_(true);
    const [g] = torch.autograd.grad([L.slogdet(B).logabsdet], [B]);
    expect(g!.isfinite().all().item()).toBe(false);
  });
});

describe('torch.linalg SVD family errors (PyTorch 1.13 messages)', () => {
  it('dims, dtypes and the CUDA-only driver', () => {
    const v = torch.ones([3]);
    expect(() => L.svd(v)).toThrow(ShapeError);
    expect(() => L.svd(v)).toThrow(/^linalg\.svd: The input tensor A must have at least 2 dimensions\.$/);
    expect(() => L.svdvals(v)).toThrow(/^linalg\.svd: The input tensor A must have at least 2 dimensions\.$/);
    expect(() => torch.svd(v)).toThrow(/^linalg\.svd: input should have at least 2 dimensions, but has 1 dimensions instead$/);
    expect(() => L.svd(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(DTypeError);
    expect(() => L.svd(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(/^linalg\.svd: Expected a floating point or complex tensor as input\. Got Long$/);
    expect(() => L.svd(torch.ones([2, 2], { dtype: 'float16' }))).toThrow(/^"linalg_svd_cpu" not implemented for 'Half'$/);
    expect(L.svd(torch.ones([0, 2], { dtype: 'float16' })).S.shape).toEqual([0]);
    expect(() => L.svd(torch.ones([2, 2]), { driver: 'gesvd' })).toThrow(/^torch\.linalg\.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend\.$/);
    expect(() => L.svdvals(torch.ones([2, 2]), { driver: 'gesvdj' })).toThrow(/only supported on CUDA inputs with cuSOLVER backend/);
  });

  it('pinv, matrix_rank, cond, norm, matrix_norm', () => {
    expect(() => L.pinv(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(/^linalg\.pinv\(Long\{\[2, 2\]\}\): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types$/);
    expect(() => L.pinv(torch.ones([2]))).toThrow(/^linalg\.pinv\(Float\{\[2\]\}\): expected a tensor with 2 or more dimensions/);
    expect(() => L.pinv(torch.ones([2, 2], { dtype: 'int64' }), { atol: 0.5 })).toThrow(/^This function doesn't handle types other than float and double$/);
    expect(() => L.matrixRank(torch.ones([2]))).toThrow(/^torch\.linalg\.matrix_rank: The input tensor input must have at least 2 dimensions\.$/);
    expect(() => L.matrixRank(torch.ones([2, 2], { dtype: 'int64' }))).toThrow(/^This function doesn't handle types other than float and double$/);
    expect(() => L.cond(torch.ones([2]))).toThrow(/^linalg\.cond: The input tensor must have at least 2 dimensions\.$/);
    expect(() => L.cond(torch.ones([2, 2]), 3)).toThrow(/^linalg\.cond got an invalid norm type: 3$/);
    expect(() => L.cond(torch.ones([2, 3]), 1)).toThrow(/^linalg\.cond\(ord=1\): A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.cond(torch.ones([2, 3]), -Infinity)).toThrow(/^linalg\.cond\(ord=-inf\): A must be batches of square matrices/);
    expect(() => L.cond(torch.ones([2, 3]), 'nuc')).toThrow(/^linalg\.cond\(ord=nuc\): A must be batches of square matrices/);
    expect(() => L.norm(torch.ones([2, 2, 2]), 2)).toThrow(/^linalg\.norm: If dim is not specified but ord is, the input must be 1D or 2D\. Got 3D\.$/);
    expect(() => L.norm(torch.ones([2, 2, 2]), 'fro')).toThrow(/^linalg\.norm: If dim is not specified but ord is, the input must be 1D or 2D\. Got 3D\.$/);
    expect(() => L.norm(torch.ones([2, 2, 2]), null, { dim: [0, 1, 2] })).toThrow(/^linalg\.norm: If dim is specified, it must be of length 1 or 2\. Got \[0, 1, 2\]$/);
    expect(() => L.matrixNorm(torch.ones([2, 2], { dtype: 'float16' }), 2)).toThrow(/^linalg\.matrix_norm: Low precision dtypes not supported\. Got Half$/);
    expect(() => L.matrixNorm(torch.ones([2, 2]), -3)).toThrow(TorchError);
  });
});

describe('torch.linalg SVD family: results and leaks', () => {
  it('named tuples: indexable and by name', () => {
    const A = f64([[4, 1], [2, 3]]);
    const r = L.svd(A);
    const [U, S, Vh] = r;
    expect([r.U, r.S, r.Vh]).toEqual([U, S, Vh]);
    const t = torch.svd(A);
    expect([t.U, t.S, t.V]).toEqual([t[0], t[1], t[2]]);
    const x = A.svd();
    expect(maxDiff(x.S, S)).toBe(0);
    expect(maxDiff(A.pinverse(), L.inv(A))).toBeLessThan(1e-14);
  });

  it('a loop of every function, with gradients, results disposed, errors included', () => {
    const A = f64([[4, 1, 0], [1, 3, 1], [0, 1, 2], [1, 1, 1]]);
    const Sq = f64([[4, 1, 0], [1, 3, 1], [0, 1, 2]]);
    const leaf = leafOf([3, 3], 41);
    const [empty, vector] = [torch.zeros([0, 3], { dtype: 'float64' }), torch.ones([3])];
    const run = () => {
      const out: (Tensor | readonly Tensor[])[] = [
        L.svd(A), L.svd(A, { fullMatrices: false }), L.svdvals(A), torch.svd(A), torch.svd(A, { computeUv: false }), A.svd(),
        L.pinv(A), L.pinv(A, 0.1), L.pinv(Sq, { hermitian: true }), torch.pinverse(A), A.pinverse(), L.matrixRank(A), L.matrixRank(A, 0.5),
        L.cond(Sq), L.cond(Sq, 'fro'), L.cond(Sq, 'nuc'), L.cond(Sq, -Infinity), L.norm(A), L.norm(A, 'nuc'), L.norm(A, -2), L.matrixNorm(A, 2),
        L.svd(empty),
      ];
      for (const fails of [() => L.svd(vector), () => L.cond(A, 3), () => L.svd(A, { driver: 'gesvd' })]) expect(fails).toThrow(TorchError);
      const loss = torch.tidy(() => torch.add(torch.add(L.svdvals(leaf).sum(), L.det(leaf)), L.pinv(leaf).sum()));
      loss.backward();
      loss.dispose();
      leaf.grad?.dispose();
      leaf.grad = null;
      for (const t of out.flat()) t.dispose();
    };
    run(); // (first-call caches, if any, before counting)
    const before = torch.memory.stats('cpu');
    for (let i = 0; i < 5; i++) run();
    const after = torch.memory.stats('cpu');
    expect([after.liveTensors, after.liveStorages]).toEqual([before.liveTensors, before.liveStorages]);
  });
});
