import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { goldenSamples, tensorArg } from './common';
import { bool, either, ints, num, oneOf, options, required } from './kwargs';
import type { OpInfo, OpInput, OpResult, Tolerance } from './types';

/**
 * The OpInfo entries of torch.linalg part 2b, the SVD family (core's Note [The SVD
 * primitive]); sample ids from scripts/goldens/ops_linalg_svd.py. Float32 and float64 only
 * (PyTorch's kernels refuse the rest); on WebGPU float32 (Note [WebGPU SVD: one-sided
 * Jacobi, a workgroup per matrix]).
 *
 * Singular vectors are unique up to a sign per pair (u_i, v_i): the svd entries return their
 * results through `signFix`, the goldens' sign_fix, so U and Vh compare exactly up to that
 * sign (the samples with vectors have distinct nonzero singular values; test/linalg-svd.test.ts
 * checks reconstruction and orthonormality where they are not unique).
 *
 * Tolerances: the goldens include the 4 x 4 Hilbert matrix (condition number 1.6e4). PyTorch
 * decomposes float32 in float32 (LAPACK sgesdd), which gets a small singular value to about
 * eps32 * s_max absolute, so s_min, the condition number, pinv and the vectors of the small
 * values carry a relative error up to eps32 * cond = 6e-8 * 1.6e4 = 1e-3, where torch-ts's
 * CPU (Jacobi in doubles) is exact to float32 rounding and its WebGPU kernel (Jacobi in
 * float32) has relative accuracy: the entries state that float32 tolerance (2e-3: the bound
 * with a factor 2 for the two float32 answers' own roundings). float64 keeps the default
 * (eps64 * cond = 4e-12 is far below it).
 */

const FLOATS: readonly DType[] = ['float32', 'float64'];
const ALL_FLOATS: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16'];
const ILL_CONDITIONED: Readonly<Partial<Record<DType, Tolerance>>> = { float32: { rtol: 2e-3, atol: 2e-3 } };

const one = (i: readonly OpInput[], op: string): Tensor => tensorArg(i[0], op);
const ones = (d: torch.DeviceLike, shape: number[], dtype?: DType) => torch.ones(shape, { device: d, dtype });

/** The signs (+1 / -1) of the entries of largest magnitude of X along `dim` (keepdim); ones where X is empty. */
function signsOf(X: Tensor, dim: number): Tensor {
  if (X.numel() === 0) {
    const shape = [...X.shape];
    shape[shape.length + dim] = 1;
    return torch.ones(shape, { dtype: X.dtype, device: X.device });
  }
  return torch.gather(X, dim, torch.argmax(torch.abs(X), dim, true)).sign();
}

/**
 * The goldens' sign_fix (ops_linalg_svd.py): each pair (u_i, v_i) flipped so that u_i's entry
 * of largest magnitude is positive; the rows of a full Vh past k by their own largest entry.
 * Without singular values (empty matrices) the vectors are the identity's on both sides and
 * are left as they are (the flip would be a multiplication by ones, which WebGPU cannot do in
 * float64, where core makes these results without a kernel).
 */
export function signFix(U: Tensor, S: Tensor, Vh: Tensor): Tensor[] {
  if (S.numel() === 0) return [U, S, Vh];
  return torch.tidy(() => {
    const k = S.shape[S.dim() - 1];
    const sU = signsOf(U, -2);
    const sV = signsOf(Vh, -1);
    const nV = Vh.shape[Vh.dim() - 2];
    const pair = torch.cat([torch.narrow(sU, -1, 0, k).mT, torch.narrow(sV, -2, k, nV - k)], -2);
    return [torch.mul(U, sU), S, torch.mul(Vh, pair)];
  });
}

const SVD_KW = options({ fullMatrices: bool, driver: oneOf('gesvd') });
const TSVD_KW = options({ some: bool, computeUv: bool });
const TOL_KW = options({ atol: num, rtol: num, hermitian: bool });
const RCOND_KW = options({ rcond: required(num) });
const TOLR_KW = options({ tol: required(num) });
const COND_KW = options({ p: either(num, oneOf('inf', '-inf', 'fro', 'nuc')) });
const NORM_KW = options({ ord: either(num, oneOf('inf', '-inf', 'fro', 'nuc')), dim: ints, keepdim: bool });
const RCOND_OPT_KW = options({ rcond: num });

/** An ord as the goldens spell it ("inf": JSON has no Infinity) as the call takes it. */
function ordValue(o: number | 'inf' | '-inf' | 'fro' | 'nuc' | undefined): number | 'fro' | 'nuc' | undefined {
  if (o === 'inf') return Infinity;
  if (o === '-inf') return -Infinity;
  return o;
}

function svdCall(i: readonly OpInput[], k: Readonly<Record<string, unknown>>): OpResult {
  return torch.tidy(() => {
    const [U, S, Vh] = torch.linalg.svd(one(i, 'svd'), SVD_KW(k));
    return signFix(U, S, Vh);
  });
}

function torchSvdCall(result: (A: Tensor, o: { some?: boolean; computeUv?: boolean }) => Tensor[], i: readonly OpInput[], k: Readonly<Record<string, unknown>>): OpResult {
  const o = TSVD_KW(k);
  return torch.tidy(() => {
    const [U, S, V] = result(one(i, 'svd'), o);
    if (o.computeUv === false) return [U, S, V];
    const [U2, S2, Vh2] = signFix(U, S, V.mT);
    return [U2, S2, Vh2.mT];
  });
}

function pinvCall(i: readonly OpInput[], k: Readonly<Record<string, unknown>>): Tensor {
  const A = one(i, 'pinv');
  if ('rcond' in k) return torch.linalg.pinv(A, RCOND_KW(k).rcond);
  return torch.linalg.pinv(A, TOL_KW(k));
}

function rankCall(i: readonly OpInput[], k: Readonly<Record<string, unknown>>): Tensor {
  const A = one(i, 'matrixRank');
  if ('tol' in k) return torch.linalg.matrixRank(A, TOLR_KW(k).tol);
  return torch.linalg.matrixRank(A, TOL_KW(k));
}

function condCall(i: readonly OpInput[], k: Readonly<Record<string, unknown>>): Tensor {
  const p = ordValue(COND_KW(k).p);
  const A = one(i, 'cond');
  return typeof p === 'string' ? torch.linalg.cond(A, p) : torch.linalg.cond(A, p);
}

function normCall(i: readonly OpInput[], k: Readonly<Record<string, unknown>>): Tensor {
  const o = NORM_KW(k);
  const ord = ordValue(o.ord);
  const A = one(i, 'norm');
  const rest = { dim: o.dim, keepdim: o.keepdim };
  return typeof ord === 'string' ? torch.linalg.norm(A, ord, rest) : torch.linalg.norm(A, ord, rest);
}

/** The kernels' names in their dtype errors: PyTorch's CPU kernel, and the WebGPU one (float64). */
const DTYPE_NAMES = ['linalg_svd_cpu', '_linalg_svd'];
const INT_MATRIX = (call: (A: Tensor) => unknown, match: RegExp) => ({
  name: 'an int matrix',
  make: (d: torch.DeviceLike) => call(ones(d, [2, 2], 'int64')),
  error: DTypeError,
  match,
});

export const LINALG_SVD_OPS: readonly OpInfo[] = [
  {
    name: 'linalgSvd',
    errorNames: ['linalg.svd', 'torch.linalg.svd', ...DTYPE_NAMES],
    call: svdCall,
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgSvd'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [INT_MATRIX((A) => torch.linalg.svd(A), /linalg.svd: Expected a floating point or complex tensor as input. Got Long/)],
  },
  {
    name: 'linalgSvdvals',
    errorNames: ['linalg.svd', 'torch.linalg.svd', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.svdvals(one(i, 'svdvals'), SVD_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgSvdvals'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [],
  },
  {
    name: 'svd',
    errorNames: ['linalg.svd', ...DTYPE_NAMES],
    call: (i, k) => torchSvdCall((A, o) => torch.svd(A, o), i, k),
    variants: { method: true },
    forms: { method: (i, k) => torchSvdCall((A, o) => A.svd(o), i, k) },
    dtypes: FLOATS,
    samples: goldenSamples('svd'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [],
  },
  {
    name: 'linalgPinv',
    errorNames: ['linalg.pinv', 'linalg.svd', "This function doesn't handle types other than float and double", ...DTYPE_NAMES],
    call: pinvCall,
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgPinv'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [],
  },
  {
    name: 'pinverse',
    errorNames: ['linalg.pinv', 'linalg.svd', ...DTYPE_NAMES],
    call: (i, k) => torch.pinverse(one(i, 'pinverse'), RCOND_OPT_KW(k)),
    variants: { method: true },
    dtypes: FLOATS,
    samples: goldenSamples('pinverse'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [],
  },
  {
    name: 'linalgMatrixRank',
    errorNames: ['torch.linalg.matrix_rank', 'linalg.svd', "This function doesn't handle types other than float and double", ...DTYPE_NAMES],
    call: rankCall,
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgMatrixRank'),
    errorInputs: [],
  },
  {
    name: 'linalgCond',
    errorNames: ['linalg.cond', 'linalg.svd', 'linalg.inv', ...DTYPE_NAMES, 'lu_cpu', 'linalg_lu_factor_ex', 'linalg_lu_solve'],
    call: condCall,
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgCond'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [
      { name: "p='foo'", make: (d) => torch.linalg.cond(ones(d, [2, 2]), 'foo' as 'fro'), error: TorchError, match: /linalg.cond got an invalid norm type: foo/ },
      { name: 'a vector, p=fro', make: (d) => torch.linalg.cond(ones(d, [3]), 'fro'), error: ShapeError, match: /linalg.cond\(ord=fro\): The input tensor A must have at least 2 dimensions./ },
    ],
  },
  {
    name: 'linalgNorm',
    errorNames: ['linalg.norm', 'linalg.matrix_norm', 'linalg.vector_norm', 'linalg.svd', ...DTYPE_NAMES],
    call: normCall,
    variants: {},
    dtypes: ALL_FLOATS,
    samples: goldenSamples('linalgNorm'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [
      {
        name: "ord='foo'",
        make: (d) => torch.linalg.norm(ones(d, [2, 2]), 'foo' as 'fro'),
        error: TorchError,
        match: /linalg.matrix_norm: Order foo not supported./,
      },
    ],
  },
];
