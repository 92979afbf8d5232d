import { ShapeError, TorchError, fmtShape } from '../errors';
import type { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { front, overloadedFront } from './front';
import { abs, amax, div, gt, mul, reciprocal, sum } from './generated/table-ops';
import { full, zeros } from './factories';
import { matmul } from './linalg';
import { linalgInvEx, matrixNormOf, type MatrixOrd } from './linalg-front';
import { checkSquare, isLinalgDtype } from './linalg-solve';
import { toRealValueType } from '../dtype';
import { svdTensors, svdvalsOf } from './linalg-svd';
import { linalgEigh, linalgEigvalsh } from './linalg-qr-front';
import { LINALG_VECTOR_NORM } from './reduction-stats';
import { callFunctional, unwrapTensor } from './call';
import { nanToNum } from './logical';
import { where } from './pointwise';
import { narrow } from './shape-ops';
import { unsqueeze } from './views';
import { named } from './named-tuple';
import { BACKEND_KEYS, DispatchKey } from '../dispatch/dispatch-key';
import { FALLTHROUGH, registerKernel, registerOperator } from '../dispatch/dispatcher';
import { composite } from './composite';
import { torchTypeName } from './meta-utils';

/**
 * torch.linalg, part 2b: the SVD family (Note [The SVD primitive] in linalg-svd.ts), with
 * PyTorch 1.13's schemas, formulas and messages: svd, svdvals, pinv, matrix_rank, cond,
 * norm, and torch.svd / pinverse with their Tensor methods. matrix_norm's 2 / -2 / 'nuc'
 * orders (linalg-front.ts) take the singular values from here too.
 *
 * Note [Hermitian inputs through eigh]
 * pinv and matrix_rank with `hermitian=True` take the eigendecomposition, as PyTorch 1.13's:
 * linalg.eigh / eigvalsh, which read only the lower triangle; the singular values of a
 * symmetric matrix are the absolute values of its eigenvalues, so the threshold is taken
 * against max |w| and pinv is V diag(1/w kept) V^H (complex Hermitian inputs too, through
 * the complex eigh: core's Note [Complex linalg primitives]). The gradient is eigh's, PyTorch's
 * symmetric formula, on both triangles though only one is read (so finite differences of
 * a non-symmetric input cannot match it, in PyTorch neither); a non-square input raises
 * eigh's error.
 */

const LINALG = { method: false, namespaces: ['linalg'] } as const;

export type SvdResult = [Tensor, Tensor, Tensor] & { readonly U: Tensor; readonly S: Tensor; readonly Vh: Tensor };
export type TorchSvdResult = [Tensor, Tensor, Tensor] & { readonly U: Tensor; readonly S: Tensor; readonly V: Tensor };


// ---- svd ----

/** A = U diag(S) Vh, the singular values descending; `fullMatrices` (default true) completes U and Vh to square orthogonal matrices. */
export const linalgSvd = front('linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)', {
  ...LINALG,
  exportAs: 'svd',
}).run(([A, fullMatrices, driver]): SvdResult => named(['U', 'S', 'Vh'], svdTensors(A, fullMatrices, true, driver ?? null)));

/** The singular values, descending. */
export const linalgSvdvals = front('linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor', { ...LINALG, exportAs: 'svdvals' }).run(([A, driver]): Tensor =>
  svdvalsOf(A, driver ?? null),
);

/**
 * torch.svd, the old API: V rather than Vh (a view, Vh^H); `some=false` the full
 * decomposition; `computeUv=false` U and V of zeros ([..., m, m], [..., n, n]), as PyTorch's.
 */
export const svd = front('svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)').run(
  ([A, some, computeUv]): TorchSvdResult =>
    tidy(() => {
      if (A.dim() < 2) throw new ShapeError(`linalg.svd: input should have at least 2 dimensions, but has ${A.dim()} dimensions instead`);
      if (computeUv) {
        const [U, S, Vh] = svdTensors(A, !some, true, null);
        return named(['U', 'S', 'V'], [U, S, Vh.mH]);
      }
      const S = svdvalsOf(A);
      const [m, n] = A.shape.slice(-2);
      const batch = A.shape.slice(0, -2);
      const U = zeros([...batch, m, m], { dtype: A.dtype, device: A.device });
      const V = zeros([...batch, n, n], { dtype: A.dtype, device: A.device });
      return named(['U', 'S', 'V'], [U, S, V]);
    }),
);

// ---- tolerances ----

/** float32 / float64 machine epsilon (PyTorch's _get_epsilon of A's real value type: complex64's is float32's), which refuses the other dtypes. */
function epsilonOf(A: Tensor): number {
  const d = toRealValueType(A.dtype);
  if (d === 'float32') return 1.1920928955078125e-7;
  if (d === 'float64') return 2.220446049250313e-16;
  throw new TorchError("This function doesn't handle types other than float and double");
}

/**
 * PyTorch's get_atol_rtol and the threshold max(atol, rtol * sMax) ([..., 1]): atol 0 by
 * default, rtol eps * max(m, n) unless atol is given and positive (then 0). The tolerances
 * are numbers, in A's dtype (PyTorch's are float64 tensors: WebGPU has no float64; the
 * threshold rounds to A's dtype, the only difference).
 */
function threshold(A: Tensor, sMax: Tensor, atol: number | null, rtol: number | null): Tensor {
  const eps = epsilonOf(A);
  const [m, n] = A.shape.slice(-2);
  const r = rtol ?? (atol !== null && atol > 0 ? 0 : eps * Math.max(m, n));
  const a = atol ?? 0;
  // max(atol, rtol * sMax), NaN propagating as at::max does
  const scaled = mul(sMax, r);
  return where(gt(scaled, a), scaled, full([], a, { dtype: sMax.dtype, device: A.device }));
}

// ---- pinv ----

/**
 * Note [pinv differentiates itself]
 * PyTorch gives linalg_pinv its own derivative (derivatives.yaml: pinv_backward(grad, result,
 * self), FunctionsManual), whichever way the forward computes (the SVD, or eigh for
 * `hermitian`): the gradient of the pseudo-inverse as a function of the whole matrix. The
 * gradients of the factorizations differ from it (eigh's reads only the lower triangle, and
 * both see the thresholded singular values as constants differently), so pinv is an operator
 * of its own, `_linalg_pinv`, whose kernel, at every backend key (PyTorch's
 * CompositeExplicitAutograd), is the composite below: autograd records pinv itself (its
 * derivative is autograd's pinvBackward) and not the ops inside, which run below autograd.
 * Complex inputs pass the Complex key (Note [Complex linalg primitives]).
 */
function pinvForward(A: Tensor, atol: number | null, rtol: number | null, hermitian: boolean): Tensor {
  if (hermitian && A.numel() > 0) {
    const [w, V] = linalgEigh(A);
    const wAbs = abs(w);
    const tol = threshold(A, amax(wAbs, -1, true), atol, rtol);
    const wInv = where(gt(wAbs, tol), reciprocal(w), zeros([], { dtype: w.dtype, device: w.device }));
    return matmul(mul(V, unsqueeze(wInv, -2)), V.mH);
  }
  const [U, S, Vh] = svdTensors(A, false, true, null);
  if (A.numel() === 0) return matmul(mul(Vh.mH, unsqueeze(reciprocal(S), -2)), U.mH);
  const tol = threshold(A, narrow(S, -1, 0, 1), atol, rtol);
  const sInv = where(gt(S, tol), reciprocal(S), zeros([], { dtype: S.dtype, device: S.device }));
  return matmul(mul(Vh.mH, unsqueeze(sInv, -2)), U.mH);
}

export const LINALG_PINV = registerOperator({ schema: '_linalg_pinv(Tensor self, float? atol, float? rtol, bool hermitian) -> Tensor' });
{
  const kernel = composite((args) => pinvForward(args[0] as Tensor, args[1] as number | null, args[2] as number | null, args[3] as boolean));
  for (const k of BACKEND_KEYS) registerKernel(LINALG_PINV, k, kernel);
  registerKernel(LINALG_PINV, DispatchKey.Complex, FALLTHROUGH);
}

function pinvOf(A: Tensor, atol: number | null, rtol: number | null, hermitian: boolean): Tensor {
  return tidy(() => {
    // (the float overload computes the default rtol, eps of A's dtype, before pinv's own check)
    if (atol !== null && rtol === null) epsilonOf(A);
    // (complex inputs pass: hermitian=True computes through the complex eigh, the rest through
    // the complex SVD, Note [Complex SVD]: pinv = V diag(1/s kept) U^H)
    if (!isLinalgDtype(A.dtype, true) || A.dim() < 2) {
      throw new TorchError(`linalg.pinv(${torchTypeName(A.dtype)}{${fmtShape(A.shape)}}): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types`);
    }
    return callFunctional(LINALG_PINV, [unwrapTensor('linalg.pinv', 'self', A), atol, rtol, hermitian]);
  });
}

/**
 * The Moore-Penrose pseudo-inverse, from the SVD: singular values at or below
 * max(atol, rtol * the largest) count as zero (rtol's default eps * max(m, n) when atol is
 * not given or is 0). `rcond` (the older overload): atol 0, rtol rcond. `hermitian`: A is
 * taken as symmetric, its lower triangle read, through eigh (Note [Hermitian inputs through eigh]).
 */
export const linalgPinv = overloadedFront(
  [
    'linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor',
    'linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor',
  ],
  { ...LINALG, exportAs: 'pinv' },
).run((call): Tensor => {
  if (call.index === 0) {
    const [A, atol, rtol, hermitian] = call.values;
    return pinvOf(A, atol ?? null, rtol ?? null, hermitian);
  }
  const [A, rcond, hermitian] = call.values;
  return pinvOf(A, 0, rcond, hermitian);
});

/** torch.pinverse: linalg.pinv with rtol `rcond` (default 1e-15). */
export const pinverse = front('pinverse(Tensor self, float rcond=1e-15) -> Tensor').run(([A, rcond]): Tensor => pinvOf(A, 0, rcond, false));

// ---- matrix_rank ----

function matrixRankOf(A: Tensor, atol: number | null, rtol: number | null, hermitian: boolean): Tensor {
  return tidy(() => {
    if (A.dim() < 2) throw new ShapeError('torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.');
    // (the default rtol, eps of A's dtype, is computed before anything else looks at the dtype)
    if (rtol === null) epsilonOf(A);
    if (A.numel() === 0) return zeros(A.shape.slice(0, -2), { dtype: 'int64', device: A.device });
    // (|eigenvalues|, ascending by value: the largest is not at either end)
    const S = hermitian ? abs(linalgEigvalsh(A)) : svdvalsOf(A);
    const tol = threshold(A, hermitian ? amax(S, -1, true) : narrow(S, -1, 0, 1), atol, rtol);
    return sum(gt(S, tol), -1);
  });
}

/**
 * The number of singular values above max(atol, rtol * the largest) (int64); `tol` (the
 * older overload): atol tol, rtol 0. `hermitian`: Note [Hermitian inputs through eigh].
 */
export const linalgMatrixRank = overloadedFront(
  [
    'linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor',
    'linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor',
  ],
  { ...LINALG, exportAs: 'matrixRank' },
).run((call): Tensor => {
  if (call.index === 0) {
    const [A, atol, rtol, hermitian] = call.values;
    return matrixRankOf(A, atol ?? null, rtol ?? null, hermitian);
  }
  const [A, tol, hermitian] = call.values;
  return matrixRankOf(A, tol, 0, hermitian);
});

// ---- cond ----

type CondOrd = number | 'fro' | 'nuc';

/** PyTorch's `linalg.cond(ord=...)` of its squareCheckInputs: the ord as C++ prints the Scalar. */
function ordText(p: CondOrd): string {
  if (typeof p === 'string') return p;
  if (p === Infinity) return 'inf';
  if (p === -Infinity) return '-inf';
  return String(p);
}

function condOf(A: Tensor, p: CondOrd): Tensor {
  return tidy(() => {
    if (typeof p === 'number') {
      if (A.dim() < 2) throw new ShapeError('linalg.cond: The input tensor must have at least 2 dimensions.');
    } else {
      checkSquare(`linalg.cond(ord=${p})`, A.shape);
    }
    const absP = typeof p === 'number' ? Math.abs(p) : 0;
    if (typeof p === 'number' ? absP !== 2 && absP !== 1 && absP !== Infinity : p !== 'fro' && p !== 'nuc') {
      throw new TorchError(`linalg.cond got an invalid norm type: ${ordText(p)}`);
    }
    if (typeof p === 'number' && absP !== 2) checkSquare(`linalg.cond(ord=${ordText(p)})`, A.shape);
    // (NumPy does not define it for empty matrices: PyTorch returns zeros)
    if (A.numel() === 0) return zeros(A.shape.slice(0, -2), { dtype: toRealValueType(A.dtype), device: A.device });
    if (absP === 2) {
      const S = svdvalsOf(A);
      const sMax = narrow(S, -1, 0, 1);
      const sMin = narrow(S, -1, S.shape[S.dim() - 1] - 1, 1);
      return (p === -2 ? div(sMin, sMax) : div(sMax, sMin)).squeeze(-1);
    }
    if (p === 'nuc') {
      // (matrix_norm's 'nuc' of an inverse with infinities would raise: the definition directly)
      const S = svdvalsOf(A);
      return mul(sum(S, -1), sum(reciprocal(S), -1));
    }
    const [inverse, info] = linalgInvEx(A);
    const inv = where(unsqueeze(unsqueeze(gt(info, 0), -1), -1), full([], Infinity, { dtype: A.dtype, device: A.device }), inverse);
    const ord: MatrixOrd = p;
    const r = mul(matrixNormOf(A, ord, [-2, -1], false, null), matrixNormOf(inv, ord, [-2, -1], false, null));
    // (0 * inf: NumPy's inf)
    return nanToNum(r, Infinity, Infinity, -Infinity);
  });
}

/**
 * The condition number of A in the norm `p`: None, 2 and -2 from the singular values (any
 * shape); 'fro', 'nuc', inf, -inf, 1 and -1 (square A) as norm(A) * norm(A^-1), inf for a
 * singular A. Empty matrices give 0.
 */
export const linalgCond = overloadedFront(['linalg_cond(Tensor self, Scalar? p=None) -> Tensor', 'linalg_cond.p_str(Tensor self, str p) -> Tensor'], {
  ...LINALG,
  exportAs: 'cond',
}).run((call): Tensor => {
  const [A, p] = call.values;
  return condOf(A, call.index === 0 ? (p === null || p === undefined ? 2 : Number(p)) : (String(p) as CondOrd));
});

// ---- norm ----

/**
 * linalg.norm: a matrix norm (matrix_norm) when `ord` is given and `dim` has two entries,
 * or neither is given and A is 2-d; else a vector norm (vector_norm, ord 2 by default).
 */
export const linalgNorm = overloadedFront(
  [
    'linalg_norm(Tensor input, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
    'linalg_norm.ord_str(Tensor input, str ord, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor',
  ],
  { ...LINALG, exportAs: 'norm', choices: { ord: ['fro', 'nuc'] } },
).run((call): Tensor => {
  const [X, ordArg, dim, keepdim, dtype] = call.values;
  const d = dim ?? null;
  if (call.index === 1) {
    if (d === null && X.dim() !== 1 && X.dim() !== 2) throw new ShapeError(`linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ${X.dim()}D.`);
    const ord = String(ordArg);
    if (ord !== 'fro' && ord !== 'nuc') throw new TorchError(`linalg.matrix_norm: Order ${ord} not supported.`);
    return matrixNormOf(X, ord, d ?? [0, 1], keepdim, dtype ?? null);
  }
  const ord = ordArg === null || ordArg === undefined ? null : Number(ordArg);
  if (d !== null) {
    if (d.length !== 1 && d.length !== 2) throw new ShapeError(`linalg.norm: If dim is specified, it must be of length 1 or 2. Got [${d.join(', ')}]`);
  } else if (ord !== null && X.dim() !== 1 && X.dim() !== 2) {
    throw new ShapeError(`linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got ${X.dim()}D.`);
  }
  if (ord !== null && ((d !== null && d.length === 2) || (d === null && X.dim() === 2))) return matrixNormOf(X, ord, d ?? [0, 1], keepdim, dtype ?? null);
  return callFunctional(LINALG_VECTOR_NORM, [unwrapTensor('linalg.norm', 'input', X), ord ?? 2, d, keepdim, dtype ?? null]);
});
