import { isComplexType, isFloatingType, type DType } from '../dtype';
import { DTypeError, ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { normalizeDim } from '../views';
import { tidy } from '../tensor/scope';
import { callFunctional, callMulti, unwrapTensor } from './call';
import { front, overloadedFront } from './front';
import { abs, add, amax, amin, div, log, mul, ne, prod, remainder, sign, sub, sum } from './generated/table-ops';
import { arange, eye, fullLike } from './factories';
import { cat } from './join';
import { mm, matmul } from './linalg';
import { CROSS } from './linalg-misc';
import {
  LINALG_CHOLESKY_EX,
  LINALG_LU_FACTOR_EX,
  LINALG_LU_SOLVE,
  LINALG_SOLVE_TRIANGULAR,
  checkFloating,
  checkInfo,
  checkSameDtype,
  checkSolveShapes,
  checkSquare,
} from './linalg-solve';
import { where } from './pointwise';
import { LINALG_VECTOR_NORM } from './reduction-stats';
import { tril, triu } from './reorder';
import { narrow } from './shape-ops';
import { clone, copy_ } from './copy';
import { detach, diagonal, expand, permute, squeeze, unsqueeze } from './views';
import { attachDet, svdvalsOf } from './linalg-svd';
import { named } from './named-tuple';
import { conj } from './complex';
import { cTypeName, torchTypeName } from './meta-utils';
import { complexEmbedding, fromStackedParts, stackedIdentity, stackedParts } from './linalg-complex';
import { hasComplexLinalg } from './linalg-complex-factor';
import { supports } from './supports';

/**
 * torch.linalg, part 1: the LU / Cholesky / triangular family and the functions composed of
 * it (Note [The linalg primitives] in linalg-solve.ts), with PyTorch's schemas and messages.
 * They are the `torch.linalg` namespace of the facade (camelCase: `torch.linalg.luFactor`),
 * and torch.det / inverse / slogdet / logdet / matrix_power with their Tensor methods. The
 * non-`_ex` forms raise a LinAlgError on CPU for a singular or not positive-definite input;
 * on WebGPU they cannot check without a device read and do not (Note [Checking info without
 * a device read]): call the `_ex` form and read `info` there.
 */

const LINALG = { method: false, namespaces: ['linalg'] } as const;


export type LUFactorResult = [Tensor, Tensor] & { readonly LU: Tensor; readonly pivots: Tensor };
export type LUFactorExResult = [Tensor, Tensor, Tensor] & { readonly LU: Tensor; readonly pivots: Tensor; readonly info: Tensor };
export type LUResult = [Tensor, Tensor, Tensor] & { readonly P: Tensor; readonly L: Tensor; readonly U: Tensor };
export type InvExResult = [Tensor, Tensor] & { readonly inverse: Tensor; readonly info: Tensor };
export type SolveExResult = [Tensor, Tensor] & { readonly result: Tensor; readonly info: Tensor };
export type CholeskyExResult = [Tensor, Tensor] & { readonly L: Tensor; readonly info: Tensor };
export type SlogdetResult = [Tensor, Tensor] & { readonly sign: Tensor; readonly logabsdet: Tensor };

function luFactorExOf(A: Tensor, pivot: boolean, checkErrors: boolean): Tensor[] {
  return callMulti(LINALG_LU_FACTOR_EX, [unwrapTensor('linalg.lu_factor_ex', 'A', A), pivot, checkErrors]);
}

function luSolveOf(LU: Tensor, pivots: Tensor, B: Tensor, left: boolean, adjoint: boolean): Tensor {
  return callFunctional(LINALG_LU_SOLVE, [unwrapTensor('linalg.lu_solve', 'LU', LU), unwrapTensor('linalg.lu_solve', 'pivots', pivots), unwrapTensor('linalg.lu_solve', 'B', B), left, adjoint]);
}

/** squareCheckInputs and checkFloatingOrComplex, as PyTorch's (`lowPrecision=false`: inv and slogdet refuse float16 / bfloat16 even when empty). */
function checkInputMatrix(op: string, A: Tensor, lowPrecision = true, complex = false): void {
  checkSquare(op, A.shape);
  // (complex inputs: the LU family's primitives take them, Note [Complex linalg primitives])
  if (complex && isComplexType(A.dtype)) return;
  checkFloating(op, A, lowPrecision);
}

// ---- LU ----

/** The LU factorization with partial pivoting of a (batch of) matrices, and `info` (0, or the first zero pivot). */
export const linalgLuFactorEx = front('linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)', {
  ...LINALG,
  exportAs: 'luFactorEx',
}).run(([A, pivot, checkErrors]): LUFactorExResult => named(['LU', 'pivots', 'info'], luFactorExOf(A, pivot, checkErrors)));

/**
 * The LU factorization with partial pivoting, packed (`LU`) with its 1-based int32 `pivots`.
 * A singular input raises on CPU, as PyTorch's; not on WebGPU (use `luFactorEx`'s info).
 */
export const linalgLuFactor = front('linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)', { ...LINALG, exportAs: 'luFactor' }).run(
  ([A, pivot]): LUFactorResult =>
    tidy(() => {
      const [LU, pivots, info] = luFactorExOf(A, pivot, false);
      checkInfo('torch.linalg.lu_factor', 'lu_factor', info.impl);
      return named(['LU', 'pivots'], [LU, pivots]);
    }),
);

/** The permutation matrix of 1-based `pivots` ([..., k]) for m rows: P with A = P L U (lu_solve of the identity: Note [The linalg primitives]). */
function permutationOf(pivots: Tensor, m: number, dtype: DType): Tensor {
  const k = pivots.shape[pivots.dim() - 1];
  let piv = pivots;
  if (k < m) {
    const rest = arange(k + 1, m + 1, { dtype: 'int32', device: pivots.device });
    piv = cat([pivots, expand(rest, [...pivots.shape.slice(0, -1), m - k])], -1);
  }
  const I = eye(m, { dtype, device: pivots.device });
  return luSolveOf(I, piv, I, true, true);
}

/** A = P L U: the permutation P, unit lower-trapezoidal L ([..., m, k]) and upper-trapezoidal U ([..., k, n]), k = min(m, n). */
export const linalgLu = front('linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)', { ...LINALG, exportAs: 'lu' }).run(([A, pivot]): LUResult => tidy(() => luOf(A, pivot)));

function luOf(A: Tensor, pivot: boolean): LUResult {
  if (A.dim() < 2) throw new ShapeError(`linalg.lu: Expected tensor with 2 or more dimensions. Got size: ${fmtShape(A.shape)} instead`);
  const [LU, pivots] = luFactorExOf(A, pivot, false);
  const [m, n] = A.shape.slice(-2);
  const k = Math.min(m, n);
  const L = add(tril(narrow(LU, -1, 0, k), -1), eye(m, k, { dtype: A.dtype, device: A.device }));
  const U = triu(narrow(LU, -2, 0, k));
  // an empty A has no row swaps: P is the identity, of any dtype (lu_solve takes floats only)
  const perm = A.numel() === 0 ? eye(m, { dtype: A.dtype, device: A.device }) : permutationOf(pivots, m, A.dtype);
  const P = expandBatch(perm, [...A.shape.slice(0, -2), m, m]);
  return named(['P', 'L', 'U'], [P, L, U]);
}

function expandBatch(t: Tensor, shape: number[]): Tensor {
  return t.shape.length === shape.length && t.shape.every((s, i) => s === shape[i]) ? t : expand(t, shape);
}

/** Solves A X = B (or X A = B: `left=False`; A^H: `adjoint`) from A's LU factorization. */
export const linalgLuSolve = front('linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor', {
  ...LINALG,
  exportAs: 'luSolve',
}).run(([LU, pivots, B, left, adjoint]): Tensor => luSolveOf(LU, pivots, B, left, adjoint));

// ---- triangular ----

/** Solves A X = B (X A = B: `left=False`) for triangular A (`upper`; `unitriangular`: ones on the diagonal, not read). */
export const linalgSolveTriangular = front('linalg_solve_triangular(Tensor A, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor', {
  ...LINALG,
  exportAs: 'solveTriangular',
}).run(([A, B, upper, left, unitriangular]): Tensor =>
  callFunctional(LINALG_SOLVE_TRIANGULAR, [unwrapTensor('linalg.solve_triangular', 'A', A), unwrapTensor('linalg.solve_triangular', 'B', B), upper, left, unitriangular]),
);

// ---- Cholesky ----

function choleskyExOf(A: Tensor, upper: boolean, checkErrors: boolean): Tensor[] {
  return callMulti(LINALG_CHOLESKY_EX, [unwrapTensor('linalg.cholesky', 'A', A), upper, checkErrors]);
}

/** The Cholesky factor of a symmetric positive-definite matrix and `info` (0, or the order of the first leading minor that is not positive-definite). */
export const linalgCholeskyEx = front('linalg_cholesky_ex(Tensor A, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)', {
  ...LINALG,
  exportAs: 'choleskyEx',
}).run(([A, upper, checkErrors]): CholeskyExResult => named(['L', 'info'], choleskyExOf(A, upper, checkErrors)));

/**
 * The Cholesky factor L (A = L L^H; `upper`: U = L^H) of a symmetric positive-definite
 * matrix, reading its lower triangle. A matrix that is not positive-definite raises a
 * LinAlgError on CPU; not on WebGPU (use `choleskyEx`'s info there).
 */
export const linalgCholesky = front('linalg_cholesky(Tensor A, *, bool upper=False) -> Tensor', { ...LINALG, exportAs: 'cholesky' }).run(([A, upper]): Tensor =>
  tidy(() => {
    const [L, info] = choleskyExOf(A, upper, false);
    checkInfo('linalg.cholesky', 'cholesky', info.impl);
    return L;
  }),
);

// ---- inverse ----

function invExOf(op: string, A: Tensor): [Tensor, Tensor] {
  return tidy(() => invExIn(op, A));
}

function invExIn(op: string, A: Tensor): [Tensor, Tensor] {
  checkInputMatrix(op, A, false, true);
  const n = A.shape[A.dim() - 1];
  if (isComplexType(A.dtype) && !hasComplexLinalg(A.device)) {
    const [LU, pivots, info] = luFactorExOf(complexEmbedding(A), true, false);
    return [expandBatch(fromStackedParts(luSolveOf(LU, pivots, stackedIdentity(n, A), true, false), n), [...A.shape]), info];
  }
  const [LU, pivots, info] = luFactorExOf(A, true, false);
  const I = eye(n, { dtype: A.dtype, device: A.device });
  return [expandBatch(luSolveOf(LU, pivots, I, true, false), [...A.shape]), info];
}

/** The inverse of a square matrix and `info` (0, or the first zero pivot of its LU factorization): never raises for a singular input. */
export const linalgInvEx = front('linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)', { ...LINALG, exportAs: 'invEx' }).run(
  ([A, checkErrors]): InvExResult => {
    const [inverse, info] = invExOf('linalg.inv', A);
    if (checkErrors) checkInfo('linalg.inv_ex', 'inv', info.impl);
    return named(['inverse', 'info'], [inverse, info]);
  },
);

function invOf(op: string, A: Tensor): Tensor {
  return tidy(() => {
    const [inverse, info] = invExOf(op, A);
    checkInfo('linalg.inv', 'inv', info.impl);
    return inverse;
  });
}

/** The inverse of a square matrix. A singular input raises a LinAlgError on CPU; not on WebGPU (use `invEx`'s info there). */
export const linalgInv = front('linalg_inv(Tensor A) -> Tensor', { ...LINALG, exportAs: 'inv' }).run(([A]): Tensor => invOf('linalg.inv', A));

/** torch.inverse: linalg.inv. */
export const inverse = front('inverse(Tensor input) -> Tensor').run(([A]): Tensor => invOf('linalg.inv', A));

// ---- determinants ----

/** (-1)^(number of row swaps) of each factorization, as an int64 tensor of 1 and -1. */
function permutationSign(pivots: Tensor): Tensor {
  const n = pivots.shape[pivots.dim() - 1];
  const swaps = sum(ne(pivots, arange(1, n + 1, { dtype: 'int32', device: pivots.device })), -1);
  return sub(1, mul(remainder(swaps, 2), 2));
}

function detOf(op: string, A: Tensor): Tensor {
  checkInputMatrix(op, A, true, true);
  return tidy(() => {
    if (isComplexType(A.dtype) && !supports('linalgSvd', A.dtype, A.device)) {
      // (the LU factors' own derivative where the device has no complex SVD for the SVD
      // formula of Note [The determinant's derivative] (WebGPU: Note [Complex SVD]), so an
      // exactly singular complex A gets inf / NaN there)
      const [LU, pivots] = luFactorExOf(A, true, false);
      return mul(prod(diagonal(LU, 0, -2, -1), -1), permutationSign(pivots));
    }
    // (the value from A's LU factors, the derivative PyTorch's: Note [The determinant's derivative])
    const [LU, pivots] = luFactorExOf(detach(A), true, false);
    return attachDet(A, mul(prod(diagonal(LU, 0, -2, -1), -1), permutationSign(pivots)));
  });
}

function slogdetOf(op: string, A: Tensor): Tensor[] {
  checkInputMatrix(op, A, false, true);
  return tidy(() => {
    const [LU, pivots] = luFactorExOf(A, true, false);
    const d = diagonal(LU, 0, -2, -1);
    if (isComplexType(A.dtype)) {
      // the sign is the unit phase prod(d / |d|) (0 for a singular A, as PyTorch's sgn)
      const a = abs(d);
      const phase = where(ne(a, 0), div(d, where(ne(a, 0), a, 1)), 0);
      return [mul(prod(phase, -1), permutationSign(pivots)), sum(log(a), -1)];
    }
    const s = mul(prod(sign(d), -1), permutationSign(pivots));
    return [s, sum(log(abs(d)), -1)];
  });
}

/** The determinant of a square matrix, from its LU factorization. */
export const linalgDet = front('linalg_det(Tensor A) -> Tensor', { ...LINALG, exportAs: 'det' }).run(([A]): Tensor => detOf('linalg.det', A));

/** torch.det: linalg.det. */
export const det = front('det(Tensor self) -> Tensor').run(([A]): Tensor => detOf('linalg.det', A));

/** The sign and the log of the absolute value of the determinant: (0, -inf) for a singular matrix. */
export const linalgSlogdet = front('linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)', { ...LINALG, exportAs: 'slogdet' }).run(
  ([A]): SlogdetResult => named(['sign', 'logabsdet'], slogdetOf('linalg.slogdet', A)),
);

/** torch.slogdet: linalg.slogdet. */
export const slogdet = front('slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)').run(([A]): SlogdetResult =>
  named(['sign', 'logabsdet'], slogdetOf('linalg.slogdet', A)),
);

/** log(det(A)): NaN where the determinant is negative, -inf where it is 0. */
export const logdet = front('logdet(Tensor self) -> Tensor').run(([A]): Tensor =>
  tidy(() => {
    const [s, logabsdet] = slogdetOf('logdet', A);
    // (complex: log(sign) + logabsdet, the principal logarithm, as PyTorch's)
    if (isComplexType(A.dtype)) return add(log(s), logabsdet);
    return where(ne(s, -1), logabsdet, fullLike(logabsdet, NaN));
  }),
);

// ---- solve ----

/** PyTorch's linalg_solve_is_vector_rhs: B is a (batch of) vector(s) rather than matrices. */
function isVectorRhs(A: Tensor, B: Tensor): boolean {
  return B.dim() === 1 || (A.dim() - 1 === B.dim() && B.shape.every((s, i) => s === A.shape[i]));
}

function solveExOf(A: Tensor, B: Tensor, left: boolean): [Tensor, Tensor] {
  return tidy(() => solveExIn(A, B, left));
}

function solveExIn(A: Tensor, B: Tensor, left: boolean): [Tensor, Tensor] {
  const op = 'linalg.solve';
  checkInputMatrix(op, A, true, true);
  checkSameDtype(op, A, B, 'A', 'B');
  const vector = isVectorRhs(A, B);
  const B2 = vector ? unsqueeze(B, left ? -1 : -2) : B;
  checkSolveShapes(op, A.shape, B2.shape, left);
  if (isComplexType(A.dtype) && !hasComplexLinalg(A.device)) {
    // (X A = B is A^T X^T = B^T: a transpose, not the adjoint)
    const n = A.shape[A.dim() - 1];
    const [LU, pivots, info] = luFactorExOf(complexEmbedding(left ? A : A.mT), true, false);
    const Xt = fromStackedParts(luSolveOf(LU, pivots, stackedParts(left ? B2 : B2.mT), true, false), n);
    const X = left ? Xt : Xt.mT;
    return [vector ? squeeze(X, left ? -1 : -2) : X, info];
  }
  const [LU, pivots, info] = luFactorExOf(A, true, false);
  const X = luSolveOf(LU, pivots, B2, left, false);
  return [vector ? squeeze(X, left ? -1 : -2) : X, info];
}

/** Solves A X = B (X A = B: `left=False`) and returns `info`: never raises for a singular A. B may be a (batch of) vector(s). */
export const linalgSolveEx = front('linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor info)', {
  ...LINALG,
  exportAs: 'solveEx',
}).run(([A, B, left, checkErrors]): SolveExResult => {
  const [result, info] = solveExOf(A, B, left);
  if (checkErrors) checkInfo('torch.linalg.solve_ex', 'solve', info.impl);
  return named(['result', 'info'], [result, info]);
});

/** Solves A X = B (X A = B: `left=False`). A singular A raises a LinAlgError on CPU; not on WebGPU (use `solveEx`'s info there). */
export const linalgSolve = front('linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor', { ...LINALG, exportAs: 'solve' }).run(([A, B, left]): Tensor =>
  tidy(() => {
    const [result, info] = solveExOf(A, B, left);
    checkInfo('torch.linalg.solve', 'solve', info.impl);
    return result;
  }),
);

// ---- matrix_power ----

function matrixPowerOf(A: Tensor, n: number): Tensor {
  return tidy(() => matrixPowerIn(A, n));
}

function matrixPowerIn(A: Tensor, n: number): Tensor {
  checkSquare('linalg.matrix_power', A.shape);
  // (as PyTorch's, the identity copied into a clone of A: the result requires grad when A
  // does, with a zero gradient, rather than being a constant)
  if (n === 0) return copy_(clone(A), expand(eye(A.shape[A.dim() - 1], { dtype: A.dtype, device: A.device }), [...A.shape]));
  let a = A;
  if (n < 0) {
    a = invOf('linalg.inv', A);
    n = -n;
  }
  if (n === 1) return clone(a);
  if (n === 2) return matmul(a, a);
  if (n === 3) return matmul(matmul(a, a), a);
  // PyTorch's order: the binary digits of n from the lowest, so the rounding is its
  let z: Tensor | null = null;
  let result: Tensor | null = null;
  while (n > 0) {
    const bit = n % 2;
    n = Math.floor(n / 2);
    z = z === null ? a : matmul(z, z);
    if (bit === 1) result = result === null ? z : matmul(result, z);
  }
  return result!;
}

/** A^n for an integer n (n < 0: the inverse's power, raising for a singular A on CPU as linalg.inv). */
export const linalgMatrixPower = front('linalg_matrix_power(Tensor A, int n) -> Tensor', { ...LINALG, exportAs: 'matrixPower' }).run(([A, n]): Tensor =>
  matrixPowerOf(A, n),
);

/** torch.matrix_power: linalg.matrix_power. */
export const matrixPower = front('matrix_power(Tensor self, int n) -> Tensor').run(([A, n]): Tensor => matrixPowerOf(A, n));

// ---- multi_dot ----

/** The cheapest parenthesization of the chain (PyTorch's matrix_chain_order), applied. */
function chainProduct(ts: readonly Tensor[]): Tensor {
  const n = ts.length;
  const p = [ts[0].shape[0], ...ts.map((t) => t.shape[1])];
  const m: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const s: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let l = 1; l < n; l++) {
    for (let i = 0; i < n - l; i++) {
      const j = i + l;
      m[i][j] = Infinity;
      for (let k = i; k < j; k++) {
        const q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1];
        if (q < m[i][j]) {
          m[i][j] = q;
          s[i][j] = k;
        }
      }
    }
  }
  const product = (i: number, j: number): Tensor => (i === j ? ts[i] : mm(product(i, s[i][j]), product(s[i][j] + 1, j)));
  return product(0, n - 1);
}

/** The product of a chain of matrices in the cheapest order; the first and last may be vectors. */
export const linalgMultiDot = front('linalg_multi_dot(Tensor[] tensors) -> Tensor', { ...LINALG, exportAs: 'multiDot' }).run(([tensors]): Tensor => tidy(() => multiDotOf(tensors)));

function multiDotOf(tensors: readonly Tensor[]): Tensor {
  const op = 'multi_dot()';
  const n = tensors.length;
  if (n < 2) throw new TorchError(`${op}: expected at least 2 tensors but got ${n}`);
  const d0 = tensors[0].dim();
  const dl = tensors[n - 1].dim();
  if (d0 !== 1 && d0 !== 2) throw new ShapeError(`${op}: the first tensor must be 1D or 2D but got ${d0}D`);
  if (dl !== 1 && dl !== 2) throw new ShapeError(`${op}: the last tensor must be 1D or 2D but got ${dl}D`);
  for (let i = 1; i < n - 1; i++) {
    if (tensors[i].dim() !== 2) throw new ShapeError(`${op}: tensor ${i} must be 2D but got ${tensors[i].dim()}D`);
  }
  for (let i = 1; i < n; i++) {
    if (tensors[i].dtype !== tensors[0].dtype) {
      throw new DTypeError(`${op}: all tensors must have be the same dtype but tensor 0 is ${cTypeName(tensors[0].dtype)} and tensor ${i} ${cTypeName(tensors[i].dtype)}`);
    }
    if (tensors[i].device.toString() !== tensors[0].device.toString()) {
      throw new TorchError(`${op}: all tensors must be on the same device but tensor 0 is on ${tensors[0].device} and tensor ${i} on ${tensors[i].device}`);
    }
  }
  const ts = tensors.map((t, i) => (i === 0 && d0 === 1 ? unsqueeze(t, 0) : i === n - 1 && dl === 1 ? unsqueeze(t, 1) : t));
  for (let i = 0; i + 1 < n; i++) {
    if (ts[i].shape[1] !== ts[i + 1].shape[0]) {
      throw new ShapeError(`${op}: tensors ${i} and ${i + 1} with shapes ${fmtShape(ts[i].shape)} and ${fmtShape(ts[i + 1].shape)} cannot be multiplied`);
    }
  }
  let r: Tensor;
  if (n === 2) r = mm(ts[0], ts[1]);
  else if (n === 3) {
    const [a, b] = ts[0].shape;
    const [c, d] = ts[2].shape;
    const cost1 = a * c * (b + d);
    const cost2 = b * d * (a + c);
    r = cost1 > cost2 ? mm(ts[0], mm(ts[1], ts[2])) : mm(mm(ts[0], ts[1]), ts[2]);
  } else r = chainProduct(ts);
  if (d0 === 1) r = squeeze(r, 0);
  if (dl === 1) r = squeeze(r, -1);
  return r;
}

// ---- norms and products ----

/** The vector norm of order `ord` over `dim` (every element when None): PyTorch's linalg.vector_norm. */
export const linalgVectorNorm = front('linalg_vector_norm(Tensor x, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor', {
  ...LINALG,
  exportAs: 'vectorNorm',
}).run(([x, ord, dim, keepdim, dtype]): Tensor =>
  callFunctional(LINALG_VECTOR_NORM, [unwrapTensor('linalg.vector_norm', 'x', x), ord, dim ?? null, keepdim, dtype ?? null]),
);

export type MatrixOrd = 'fro' | 'nuc' | number;

/** linalg.matrix_norm (also linalg.norm's and linalg.cond's matrix norms). */
export function matrixNormOf(A: Tensor, ord: MatrixOrd, dimArg: readonly number[], keepdim: boolean, dtype: DType | null | undefined): Tensor {
  const op = 'linalg.matrix_norm';
  if (A.dim() < 2) throw new ShapeError(`${op}: The input tensor A must have at least 2 dimensions.`);
  // (complex: 'fro', 1 and inf reduce the moduli, registerLinalgComplexKernels; 2, -2 and 'nuc' take the complex SVD)
  if (!isComplexType(A.dtype)) checkFloating(op, A);
  if (dimArg.length !== 2) throw new ShapeError(`${op}: dim must be a 2-tuple. Got ${dimArg.join(' ')}`);
  const dim = dimArg.map((d) => normalizeDim(op, d, A.dim()));
  if (dim[0] === dim[1]) throw new ShapeError(`${op}: dims must be different. Got (${dim[0]}, ${dim[1]})`);
  // (1.13's _linalg_matrix_norm_checks: a real dtype= would drop a complex A's imaginary parts)
  if (dtype) {
    if (!isFloatingType(dtype) && !isComplexType(dtype)) throw new DTypeError(`${op}: dtype should be floating point or complex, but got ${torchTypeName(dtype)}`);
    if (isComplexType(A.dtype) !== isComplexType(dtype)) {
      throw new DTypeError(`${op}: dtype should be ${isComplexType(A.dtype) ? 'complex for complex' : 'real for real'} inputs, but got ${torchTypeName(dtype)}`);
    }
  }
  if (ord === 'fro') return callFunctional(LINALG_VECTOR_NORM, [A.impl, 2, dim, keepdim, dtype ?? null]);
  const absOrd = ord === 'nuc' ? 0 : Math.abs(ord);
  if (ord !== 'nuc' && absOrd !== 2 && absOrd !== 1 && absOrd !== Infinity) throw new TorchError(`${op}: Order ${ord} not supported.`);
  if (ord === 'nuc' || absOrd === 2) {
    // (1.13 refuses float16 / bfloat16 here even before the SVD kernel would; a complex A
    // takes the complex SVD, Note [Complex SVD])
    checkFloating(op, A, false, true);
    return tidy(() => singularNorm(A, ord, dim, keepdim, dtype));
  }
  // the inf norm is the 1 norm of the transpose: the max (min) over rows of the row sums
  if (absOrd === Infinity) dim.reverse();
  // (without keepdim, the first reduction shifts a later dim down by one)
  const second = !keepdim && dim[0] < dim[1] ? dim[1] - 1 : dim[1];
  return tidy(() => {
    const colSums = callFunctional(LINALG_VECTOR_NORM, [A.impl, 1, [dim[0]], keepdim, dtype ?? null]);
    return ord > 0 ? amax(colSums, second, keepdim) : amin(colSums, second, keepdim);
  });
}

/**
 * ord 2, -2 and 'nuc' (1.13's linalg_matrix_norm): the singular values of A (cast to
 * `dtype` first) with `dim` moved last, then their max, min or sum; keepdim puts the two
 * dims back as size 1.
 */
function singularNorm(A: Tensor, ord: 'nuc' | number, dim: readonly number[], keepdim: boolean, dtype: DType | null | undefined): Tensor {
  const perm = [...A.shape.keys()].filter((d) => d !== dim[0] && d !== dim[1]).concat(dim);
  const A2 = permute(dtype ? A.to(dtype) : A, perm);
  const S = svdvalsOf(A2);
  let r = ord === 'nuc' ? sum(S, -1) : ord > 0 ? amax(S, -1) : amin(S, -1);
  if (keepdim) for (const d of [...dim].sort((a, b) => a - b)) r = unsqueeze(r, d);
  return r;
}

/**
 * The matrix norm over the two dims `dim`: 'fro', 'nuc' (the sum of the singular values),
 * 1, -1, inf, -inf, 2 and -2 (the largest and smallest singular value).
 */
export const linalgMatrixNorm = overloadedFront(
  [
    "linalg_matrix_norm.str_ord(Tensor A, str ord='fro', int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
    'linalg_matrix_norm(Tensor A, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ],
  { ...LINALG, exportAs: 'matrixNorm', choices: { ord: ['fro', 'nuc'] } },
).run((call): Tensor => {
  const [A, ord, dim, keepdim, dtype] = call.values;
  if (call.index === 0 && ord !== 'fro' && ord !== 'nuc') throw new TorchError(`linalg.matrix_norm: Order ${String(ord)} not supported.`);
  return matrixNormOf(A, call.index === 0 ? (ord as 'fro' | 'nuc') : Number(ord), dim, keepdim, dtype);
});

/** The dot product of vectors along `dim` (the inputs broadcast): sum(x * y, dim). */
export const linalgVecdot = front('linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor', { ...LINALG, exportAs: 'vecdot' }).run(([x, y, dim]): Tensor => {
  if (!isComplexType(x.dtype)) checkFloating('linalg.vecdot', x);
  checkSameDtype('linalg.vecdot', x, y, 'x', 'y');
  // (complex: x's conjugate, as PyTorch's x.conj() * y)
  return tidy(() => sum(mul(isComplexType(x.dtype) ? conj(x) : x, y), dim));
});

/** The cross product of 3-vectors along `dim` (default the last), the inputs broadcast. */
export const linalgCross = front('linalg_cross(Tensor input, Tensor other, *, int dim=-1) -> Tensor', { ...LINALG, exportAs: 'cross' }).run(
  ([input, other, dim]): Tensor => callFunctional(CROSS, [unwrapTensor('linalg.cross', 'input', input), unwrapTensor('linalg.cross', 'other', other), dim]),
);

export { LinAlgError } from './linalg-solve';

/**
 * `torch.chain_matmul(*matrices)` (deprecated in PyTorch for linalg.multi_dot): the product of
 * 2-d matrices in the cheapest order; one matrix gives a copy of it.
 */
export const chainMatmul = front('chain_matmul(Tensor[] matrices) -> Tensor', { method: false, varargs: true }).run(([ms]): Tensor => {
  if (ms.length === 0) throw new TorchError('chain_matmul(): Expected one or more matrices');
  for (const m of ms) if (m.dim() !== 2) throw new ShapeError(`chain_matmul: Tensor dimension is ${m.dim()}, expected 2 instead.`);
  return ms.length === 1 ? ms[0].clone() : tidy(() => multiDotOf(ms));
});
