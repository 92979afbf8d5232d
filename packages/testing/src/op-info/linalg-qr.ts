import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { goldenSamples, tensorArg } from './common';
import { num, oneOf, options, bool } from './kwargs';
import type { OpInfo, OpInput, Tolerance } from './types';

/**
 * The OpInfo entries of torch.linalg part 2a (core's Note [The QR, eigh, lstsq and
 * matrix_exp primitives]): geqrf, householder_product / orgqr, linalg.qr / torch.qr, eigh,
 * eigvalsh, lstsq and matrix_exp; sample ids from scripts/goldens/ops_linalg_qr.py. Float32
 * and float64 only (PyTorch's kernels refuse the rest); on WebGPU float32 (Note [WebGPU QR,
 * eigh, lstsq and matrix_exp]).
 *
 * Tolerances: the goldens include the 4 x 4 Hilbert matrix (condition number 1.6e4).
 * PyTorch computes float32 in float32 (LAPACK's sgeqrf, ssyevd, sgelsy), torch-ts's CPU in
 * doubles and its WebGPU in float32 with another operation order, so two correct float32
 * answers differ by up to eps32 * cond = 6e-8 * 1.6e4 = 1e-3 relative: the entries that take
 * it state that float32 tolerance. matrix_exp's float32 goldens reach a 1-norm of 10, where
 * ATen squares the degree-18 approximation 2 times (ceil(log2(10 / 3.01))): each squaring
 * doubles the relative rounding error of the one before, and exp's condition number at
 * norm 10 is about the norm itself, so eps32 * 10 * 2^2 = 5e-6, below the tolerance stated.
 *
 * Eigenvectors are unique up to sign, in LAPACK too: the eigh entry's call (and its goldens)
 * flips each column so that its entry of largest magnitude is positive, which also makes its
 * output a smooth function of A for gradcheck (PyTorch's tests compare eigenvectors up to
 * that sign, or through V diag(w) V^T: test/linalg-qr.test.ts does).
 */

const FLOATS: readonly DType[] = ['float32', 'float64'];
const ILL_CONDITIONED: Readonly<Partial<Record<DType, Tolerance>>> = { float32: { rtol: 1e-3, atol: 1e-3 } };
const MATRIX_EXP_TOL: Readonly<Partial<Record<DType, Tolerance>>> = { float32: { rtol: 1e-5, atol: 1e-5 } };

/** (not 2.x's own: core's linalg_matrix_exp explains the choice) */
const MATRIX_EXP_16 =
  "exponentiated in float32 and rounded once: 1.13 computes bfloat16 in bfloat16 with float64's thresholds (ones(2, 2) overflows to inf) and fails float16 at log2 where the polynomial of degree 1 or 2 does not serve";

const one = (i: readonly OpInput[], op: string): Tensor => tensorArg(i[0], op);
const ones = (d: torch.DeviceLike, shape: number[], dtype?: DType) => torch.ones(shape, { device: d, dtype });

const QR_KW = options({ mode: oneOf('reduced', 'complete', 'r') });
const TORCH_QR_KW = options({ some: bool });
const UPLO_KW = options({ UPLO: oneOf('L', 'U') });
const LSTSQ_KW = options({ rcond: num, driver: oneOf('gels', 'gelsy', 'gelsd', 'gelss', 'GELS') });

/** Each column of V flipped so that its entry of largest magnitude is positive (the goldens' `signed`). */
export function signedColumns(V: Tensor): Tensor {
  if (V.numel() === 0) return V;
  const idx = torch.argmax(torch.abs(V), -2, true);
  const s = torch.sign(torch.gather(V, -2, idx));
  return torch.mul(V, torch.where(torch.eq(s, 0), torch.onesLike(s), s));
}

/** The kernels' names in their dtype errors: PyTorch's CPU kernels, and the WebGPU ones (float64: Note [WebGPU QR, eigh, lstsq and matrix_exp]). */
const DTYPE_NAMES = ['geqrf_cpu', 'orgqr_cpu', 'linalg_eigh_cpu', 'linalg_matrix_exp', 'geqrf', 'linalg_householder_product', 'linalg_qr', '_linalg_eigh', 'linalg_lstsq'];

function householder(name: 'linalgHouseholderProduct' | 'orgqr'): OpInfo {
  const fn = name === 'orgqr' ? torch.orgqr : torch.linalg.householderProduct;
  return {
    name,
    errorNames: ['torch.linalg.householder_product', ...DTYPE_NAMES],
    call: (i) => fn(one(i, name), tensorArg(i[1], name)),
    variants: name === 'orgqr' ? { method: true } : {},
    dtypes: FLOATS,
    samples: goldenSamples(name),
    errorInputs: [
      {
        name: 'too many reflectors',
        make: (d) => fn(ones(d, [3, 2]), ones(d, [3])),
        error: ShapeError,
        match: /torch.linalg.householder_product: input.shape\[-1\] must be greater than or equal to tau.shape\[-1\]/,
      },
      {
        name: 'tau of another batch',
        make: (d) => fn(ones(d, [2, 3, 2]), ones(d, [3, 2])),
        error: ShapeError,
        match: /torch.linalg.householder_product: Expected batch dimensions of tau to be equal to input.shape\[:-2\], but got \[3\]/,
      },
      {
        name: 'tau of another dtype',
        make: (d) => fn(ones(d, [3, 2]), ones(d, [2], 'int32')),
        error: DTypeError,
        match: /torch.linalg.householder_product: tau dtype Int does not match input dtype Float/,
      },
      {
        name: 'tau of two dims',
        make: (d) => fn(ones(d, [3, 3]), ones(d, [2, 2])),
        error: ShapeError,
        match: /Expected tau to have one dimension less than input, but got tau.ndim equal to 2 and input.ndim is equal to 2/,
      },
    ],
  };
}

function matrixExp(name: 'linalgMatrixExp' | 'matrixExp'): OpInfo {
  const fn = name === 'matrixExp' ? torch.matrixExp : torch.linalg.matrixExp;
  return {
    name,
    errorNames: ['linalg.matrix_exp', 'matrix_exp', ...DTYPE_NAMES],
    call: (i) => fn(one(i, name)),
    variants: name === 'matrixExp' ? { method: true } : {},
    dtypes: ['float32', 'float64', 'float16', 'bfloat16'],
    samples: goldenSamples(name),
    tolerance: MATRIX_EXP_TOL,
    pytorch2x: {
      float16: MATRIX_EXP_16,
      bfloat16: MATRIX_EXP_16,
    },
    errorInputs: [
      { name: 'an int matrix', make: (d) => fn(ones(d, [2, 2], 'int64')), error: DTypeError, match: /matrix_exp: Expected a floating point or complex tensor as input. Got Long/ },
    ],
  };
}

export const LINALG_QR_OPS: readonly OpInfo[] = [
  {
    name: 'geqrf',
    errorNames: ['torch.geqrf', ...DTYPE_NAMES],
    call: (i) => torch.geqrf(one(i, 'geqrf')),
    variants: { method: true },
    dtypes: FLOATS,
    samples: goldenSamples('geqrf'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [],
  },
  householder('linalgHouseholderProduct'),
  householder('orgqr'),
  {
    name: 'linalgQr',
    errorNames: ['linalg.qr', 'qr received unrecognized mode', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.qr(one(i, 'qr'), QR_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgQr'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [
      {
        name: 'an unknown mode',
        make: (d) => torch.linalg.qr(ones(d, [2, 2]), { mode: 'R' as 'r' }),
        error: TorchError,
        match: /qr received unrecognized mode 'R' but expected one of 'reduced' \(default\), 'r', or 'complete'/,
      },
    ],
  },
  {
    name: 'qr',
    errorNames: ['linalg.qr', ...DTYPE_NAMES],
    call: (i, k) => torch.qr(one(i, 'qr'), TORCH_QR_KW(k)),
    variants: { method: true },
    dtypes: FLOATS,
    samples: goldenSamples('qr'),
    errorInputs: [],
  },
  {
    name: 'linalgEigh',
    errorNames: ['linalg.eigh', 'Expected UPLO argument', ...DTYPE_NAMES],
    call: (i, k) =>
      torch.tidy(() => {
        const [w, V] = torch.linalg.eigh(one(i, 'eigh'), UPLO_KW(k));
        return [w, signedColumns(V)];
      }),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgEigh'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [
      { name: 'UPLO x', make: (d) => torch.linalg.eigh(ones(d, [2, 2]), { UPLO: 'x' }), error: TorchError, match: /Expected UPLO argument to be 'L' or 'U', but got x/ },
    ],
  },
  {
    name: 'linalgEigvalsh',
    errorNames: ['linalg.eigh', 'Expected UPLO argument', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.eigvalsh(one(i, 'eigvalsh'), UPLO_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgEigvalsh'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [],
  },
  {
    name: 'linalgLstsq',
    errorNames: ['torch.linalg.lstsq', "This function doesn't handle types other than float and double", ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.lstsq(one(i, 'lstsq'), tensorArg(i[1], 'lstsq'), LSTSQ_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgLstsq'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [
      {
        name: 'an unknown driver',
        make: (d) => torch.linalg.lstsq(ones(d, [3, 2]), ones(d, [3, 1]), { driver: 'foo' }),
        error: TorchError,
        match: /torch.linalg.lstsq: parameter `driver` should be one of \(gels, gelsy, gelsd, gelss\)/,
      },
      {
        name: 'b with more dims',
        make: (d) => torch.linalg.lstsq(ones(d, [3, 2]), ones(d, [2, 3, 1])),
        error: ShapeError,
        match: /torch.linalg.lstsq: input.dim\(\) must be greater or equal to other.dim\(\) and \(input.dim\(\) - other.dim\(\)\) <= 1/,
      },
      {
        name: 'a vector b of another length',
        make: (d) => torch.linalg.lstsq(ones(d, [3, 2]), ones(d, [4])),
        error: ShapeError,
        match: /torch.linalg.lstsq: input.size\(-2\) should match other.size\(-1\)/,
      },
      {
        name: 'two dtypes',
        make: (d) => torch.linalg.lstsq(ones(d, [3, 2]), ones(d, [3, 1], 'int32')),
        error: DTypeError,
        match: /torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype Float and other's dtype Int/,
      },
    ],
  },
  matrixExp('linalgMatrixExp'),
  matrixExp('matrixExp'),
];
