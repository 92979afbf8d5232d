/**
 * What of torch.linalg part 1 the OpInfo table cannot say (its entries: src/op-info/linalg-solve.ts):
 *  - the Cholesky derivative, gradchecked on symmetric positive-definite inputs A A^T + n I
 *    (the table's random draws are not: GRADCHECK_EXCLUDED), as PyTorch's OpInfo wraps it;
 *  - the error paths: the LinAlgError of the raising forms naming the failing batch element,
 *    the `_ex` forms' info and their check_errors, non-square and integer inputs;
 *  - the named results, and that a loop of every function leaks no tensor or storage.
 * On CPU: WebGPU's forms do not read info (core's Note [Checking info without a device read]).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';

const { gradcheck, gradgradcheck } = torch.autograd;
const L = torch.linalg;
const f64 = (data: number[] | number[][] | number[][][]) => torch.tensor(data, { dtype: 'float64' });
const SINGULAR = [
  [1, 2],
  [2, 4],
];
const NOT_PD = [
  [1, 2],
  [2, 1],
];
/** A batch of two: a good matrix, then `bad`. */
const batchOf = (bad: number[][]) => f64([
  [
    [4, 1],
    [1, 3],
  ],
  bad,
]);

/** max |a - b| (a number), the temporaries disposed. */
const maxDiff = (a: Tensor, b: Tensor): number => torch.tidy(() => torch.sub(a, b).abs().amax()).item() as number;

/** A A^T + n I of a float64 leaf A ([..., n, n]): symmetric positive-definite for every A, so gradcheck may perturb A freely. */
function spd(A: Tensor): Tensor {
  const n = A.shape[A.dim() - 1];
  return torch.add(torch.matmul(A, A.mT), torch.eye(n, { dtype: 'float64' }).mul(n));
}

function leafOf(shape: number[], seed: number): Tensor {
  const g = new torch.Generator().manualSeed(seed);
  return torch.randn(shape, { dtype: 'float64', generator: g }).requiresGrad_(true);
}

describe('linalg.cholesky: gradcheck on A A^T + n I (float64, CPU)', () => {
  for (const upper of [false, true]) {
    for (const shape of [[3, 3], [2, 4, 4], [1, 1]]) {
      it(`cholesky ${JSON.stringify(shape)}${upper ? ' upper' : ''}`, async () => {
        const A = leafOf(shape, shape.length * 10 + shape[shape.length - 1] + (upper ? 1 : 0));
        expect(await gradcheck((a: Tensor) => L.cholesky(spd(a), { upper }), [A])).toBe(true);
        expect(await gradgradcheck((a: Tensor) => L.cholesky(spd(a), { upper }), [A])).toBe(true);
      });
    }
  }

  it('choleskyEx: L, with info not differentiable', async () => {
    const A = leafOf([3, 3], 7);
    expect(await gradcheck((a: Tensor) => L.choleskyEx(spd(a))[0], [A])).toBe(true);
    const [, info] = L.choleskyEx(spd(A));
    expect(info.requiresGrad).toBe(false);
    expect(info.dtype).toBe('int32');
  });

  it('the factor reproduces its input: L L^T = A', () => {
    const A = torch.noGrad(() => spd(leafOf([2, 3, 3], 3)));
    const Lf = L.cholesky(A);
    expect(maxDiff(torch.matmul(Lf, Lf.mT), A)).toBeLessThan(1e-12);
    expect(torch.triu(Lf, 1).abs().amax().item()).toBe(0);
  });
});

describe('torch.linalg errors (CPU)', () => {
  it('LinAlgError is a TorchError, exported as torch.linalg.LinAlgError', () => {
    expect(new L.LinAlgError('x')).toBeInstanceOf(TorchError);
  });

  it('inv of a singular matrix names the diagonal element, and in a batch the batch element', () => {
    expect(() => L.inv(f64(SINGULAR))).toThrow(L.LinAlgError);
    expect(() => L.inv(f64(SINGULAR))).toThrow(
      /^linalg\.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular\.$/,
    );
    expect(() => torch.inverse(batchOf(SINGULAR))).toThrow(
      /^linalg\.inv: \(Batch element 1\): The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular\.$/,
    );
  });

  it('cholesky of a matrix that is not positive-definite names the leading minor and the batch element', () => {
    expect(() => L.cholesky(f64(NOT_PD))).toThrow(L.LinAlgError);
    expect(() => L.cholesky(batchOf(NOT_PD))).toThrow(
      /^linalg\.cholesky: \(Batch element 1\): The factorization could not be completed because the input is not positive-definite \(the leading minor of order 2 is not positive-definite\)\.$/,
    );
  });

  it('solve of a singular system', () => {
    expect(() => L.solve(f64(SINGULAR), f64([[1], [1]]))).toThrow(/^torch\.linalg\.solve: The solver failed because the input matrix is singular\.$/);
    expect(() => L.solve(batchOf(SINGULAR), f64([[1], [1]]))).toThrow(/^torch\.linalg\.solve: \(Batch element 1\): The solver failed/);
  });

  it("lu_factor of a singular matrix raises PyTorch's RuntimeError (a TorchError, not a LinAlgError)", () => {
    let thrown: unknown;
    try {
      L.luFactor(batchOf(SINGULAR));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(TorchError);
    expect(thrown).not.toBeInstanceOf(L.LinAlgError);
    expect((thrown as Error).message).toMatch(/^torch\.linalg\.lu_factor: \(Batch element 1\): U\[2,2\] is zero and using it on lu_solve would result in a division by zero/);
  });

  it('the _ex forms return info and do not raise; check_errors raises', () => {
    const [, pivots, info] = L.luFactorEx(batchOf(SINGULAR));
    expect(info.tolist()).toEqual([0, 2]);
    expect(pivots.dtype).toBe('int32');
    expect(pivots.tolist()).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(L.choleskyEx(batchOf(NOT_PD)).info.tolist()).toEqual([0, 2]);
    expect(L.choleskyEx(f64(NOT_PD)).info.item()).toBe(2);
    expect(L.invEx(batchOf(SINGULAR)).info.tolist()).toEqual([0, 2]);
    expect(L.solveEx(f64(SINGULAR), f64([[1], [1]])).info.item()).toBe(2);
    expect(L.luFactorEx(f64([[4, 1], [1, 3]])).info.item()).toBe(0);
    expect(() => L.choleskyEx(batchOf(NOT_PD), { checkErrors: true })).toThrow(/^linalg\.cholesky: \(Batch element 1\): The factorization could not be completed/);
    expect(() => L.invEx(f64(SINGULAR), { checkErrors: true })).toThrow(/^linalg\.inv_ex: The diagonal element 2 is zero/);
    expect(() => L.luFactorEx(f64(SINGULAR), { checkErrors: true })).toThrow(/^torch\.linalg\.lu_factor_ex: U\[2,2\] is zero/);
  });

  it('det, slogdet and logdet of a singular matrix do not raise', () => {
    expect(L.det(f64(SINGULAR)).item()).toBe(-0); // (as PyTorch's: one row swap times a zero pivot)
    const { sign, logabsdet } = L.slogdet(f64(SINGULAR));
    expect([sign.item(), logabsdet.item()]).toEqual([-0, -Infinity]); // (PyTorch's signs too)
    expect(torch.logdet(f64(SINGULAR)).item()).toBe(-Infinity);
    expect(torch.logdet(f64([[0, 1], [1, 0]])).item()).toBeNaN();
  });

  it('non-square and integer inputs', () => {
    const rect = torch.ones([2, 3], { dtype: 'float64' });
    expect(() => L.inv(rect)).toThrow(ShapeError);
    expect(() => L.inv(rect)).toThrow(/^linalg\.inv: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    expect(() => L.det(torch.ones([3]))).toThrow(/^linalg\.det: The input tensor A must have at least 2 dimensions\.$/);
    expect(() => L.cholesky(rect)).toThrow(/^linalg\.cholesky: A must be batches of square matrices, but they are 2 by 3 matrices$/);
    const ints = torch.ones([2, 2], { dtype: 'int64' });
    expect(() => L.inv(ints)).toThrow(DTypeError);
    expect(() => L.inv(ints)).toThrow(/^linalg\.inv: Expected a floating point or complex tensor as input\. Got Long$/);
    expect(() => L.cholesky(ints)).toThrow(/^linalg\.cholesky: Expected a floating point or complex tensor as input\. Got Long$/);
    expect(() => L.slogdet(torch.ones([2, 2], { dtype: 'float16' }))).toThrow(/^linalg\.slogdet: Low precision dtypes not supported\. Got Half$/);
    expect(() => L.luFactor(torch.ones([2, 2], { dtype: 'int32' }))).toThrow(/^"lu_cpu" not implemented for 'Int'$/);
    expect(() => L.solve(torch.ones([2, 2]), torch.ones([2, 1], { dtype: 'float64' }))).toThrow(
      /^linalg\.solve: Expected A and B to have the same dtype, but found A of type Float and B of type Double instead$/,
    );
  });

  it('empty inputs of any dtype factor to empty results, as PyTorch (no kernel runs)', () => {
    const [LU, pivots, info] = L.luFactorEx(torch.ones([0, 3, 3], { dtype: 'int64' }));
    expect([LU.shape, LU.dtype, pivots.shape, info.shape]).toEqual([[0, 3, 3], 'int64', [0, 3], [0]]);
    expect(L.det(torch.ones([0, 0], { dtype: 'float16' })).item()).toBe(1);
    const { P, L: lower, U } = L.lu(torch.ones([0, 2, 2], { dtype: 'int32' }));
    expect([P.shape, lower.shape, U.shape]).toEqual([[0, 2, 2], [0, 2, 2], [0, 2, 2]]);
  });
});

describe('torch.linalg results', () => {
  it('named tuples: indexable and by name', () => {
    const A = f64([[4, 1], [2, 3]]);
    const r = L.luFactor(A);
    const [LU, pivots] = r;
    expect(r.LU).toBe(LU);
    expect(r.pivots).toBe(pivots);
    const { P, L: lower, U } = L.lu(A);
    expect(maxDiff(torch.matmul(P, torch.matmul(lower, U)), A)).toBeLessThan(1e-15);
    const s = L.slogdet(A);
    expect(s.sign.item()).toBe(1);
    expect(s.logabsdet.item()).toBeCloseTo(Math.log(10), 12);
    expect(L.det(A).item()).toBeCloseTo(10, 12);
    expect(maxDiff(torch.matmul(A, L.inv(A)), torch.eye(2, { dtype: 'float64' }))).toBeLessThan(1e-15);
  });
});

describe('torch.linalg leaks nothing', () => {
  it('a loop of every function, results disposed, errors included', () => {
    const A = f64([[4, 1, 0], [1, 3, 1], [0, 1, 2]]);
    const B = f64([[1, 2], [3, 4], [5, 6]]);
    const [bad, notPd, B2, Bt, rect] = [batchOf(SINGULAR), f64(NOT_PD), B.narrow(0, 0, 2), B.mT, torch.ones([2, 3])];
    const run = () => {
      const factors = L.luFactor(A);
      const out: (Tensor | readonly Tensor[])[] = [
        L.luFactorEx(A), factors, L.lu(A), L.luSolve(factors.LU, factors.pivots, B),
        L.solveTriangular(A, B, { upper: true }), L.choleskyEx(A), L.cholesky(A), L.inv(A), L.invEx(A), torch.inverse(A),
        L.det(A), torch.det(A), L.slogdet(A), torch.slogdet(A), torch.logdet(A), L.solve(A, B), L.solveEx(A, B),
        L.matrixPower(A, 3), L.matrixPower(A, -2), L.matrixPower(A, 0), torch.matrixPower(A, 5), L.multiDot([A, B, Bt]),
        L.vectorNorm(A), L.matrixNorm(A), L.matrixNorm(A, 1), L.vecdot(A, A), L.cross(A, A),
      ];
      for (const fails of [() => L.inv(bad), () => L.cholesky(notPd), () => L.solve(bad, B2), () => L.luFactor(bad), () => L.inv(rect)]) {
        expect(fails).toThrow(TorchError);
      }
      for (const t of out.flat()) t.dispose();
    };
    run(); // (first-call caches, if any, before counting)
    const before = torch.memory.stats('cpu');
    for (let i = 0; i < 5; i++) run();
    const after = torch.memory.stats('cpu');
    expect([after.liveTensors, after.liveStorages]).toEqual([before.liveTensors, before.liveStorages]);
  });

  it('a loop with gradients', () => {
    const A = leafOf([3, 3], 11);
    const step = () => {
      const loss = torch.tidy(() => torch.add(L.det(torch.add(A, torch.eye(3, { dtype: 'float64' }).mul(3))), L.cholesky(spd(A)).sum()));
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
