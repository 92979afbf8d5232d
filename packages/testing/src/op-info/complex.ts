/**
 * Note [Complex OpInfo]
 * PyTorch's OpInfo lists complex64 and complex128 among an op's dtypes; here an entry's
 * `complex` field does (types.ts ComplexSupport), added to the entries of the other families
 * by `withComplex` so that those files stay as they are. The cases come from
 * goldens/ops_complex.json (scripts/goldens/ops_complex.py), merged into the op's real cases:
 * sample ids start with `c-`, a complex tensor travels as view_as_real pairs. The runner
 * checks them as it checks real cases (forward against PyTorch 1.13, method, in-place, out=,
 * non-contiguous inputs, the oracle device), `complex.dtypes` against the first complex
 * sample's goldens (a dtype PyTorch rejects must raise its error here too), and gradients in
 * complex128 through real leaves viewed as complex (Note [OpInfo gradcheck]).
 */
import type { ComplexSupport, OpInfo } from './types';

const BOTH = ['complex64', 'complex128'] as const;
const NONE = [] as const;

const UNARY_SAMPLES = ['c-random', 'c-edges', 'c-nonfinite'];
const BINARY_SAMPLES = ['c-same-shape', 'c-broadcast', 'c-real-other', 'c-real-self'];

const unary = (dtypes: ComplexSupport['dtypes'] = BOTH): ComplexSupport => ({ dtypes, samples: UNARY_SAMPLES });
const only = (...samples: string[]): ComplexSupport => ({ dtypes: BOTH, samples });

/** Each op's complex support; ops not named here have no complex cases yet. */
export const COMPLEX_SUPPORT: Readonly<Record<string, ComplexSupport>> = {
  ...Object.fromEntries(
    ['neg', 'abs', 'exp', 'log', 'sqrt', 'sin', 'cos', 'reciprocal', 'tanh', 'sigmoid', 'rsqrt', 'square', 'log2', 'log10', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'asinh', 'acosh', 'atanh', 'isnan', 'isinf', 'isfinite'].map((n) => [n, unary()]),
  ),
  // PyTorch 1.13's CPU has no complex kernel for these (sign: "Unlike NumPy, torch.sign is not intended to support complex numbers")
  ...Object.fromEntries(['exp2', 'expm1', 'log1p', 'sign', 'erf'].map((n) => [n, unary(NONE)])),
  ...Object.fromEntries(['add', 'sub', 'mul', 'div', 'eq', 'ne'].map((n) => [n, only(...BINARY_SAMPLES)])),
  pow: only(...BINARY_SAMPLES, 'c-scalar-int', 'c-scalar-two', 'c-scalar-float', 'c-scalar-negative', 'c-zero-base'),
  'pow.Scalar': only('c-scalar-base'),
  isclose: only('c-near', 'c-near-tol', 'c-nonfinite', 'c-nonfinite-self', 'c-equal-nan', 'c-broadcast'),
  where: only('c-same-shape'),
  lerp: only('c-scalar-weight', 'c-tensor-weight'),
  addcmul: only('c-same-shape', 'c-broadcast'),
  addcdiv: only('c-same-shape', 'c-broadcast'),
  sum: only('c-all', 'c-dim1'),
  mean: only('c-all', 'c-dim1'),
  prod: only('c-all', 'c-dim1'),
  var: only('c-all', 'c-dim1', 'c-correction'),
  std: only('c-all', 'c-dim1', 'c-correction'),
  cumsum: only('c-dim0', 'c-dim1'),
  cumprod: only('c-dim0', 'c-dim1'),
  linalgVectorNorm: only('c-default', 'c-ord1', 'c-inf', 'c-ord3-dims'),
  mm: only('c-rect'),
  bmm: only('c-basic'),
  mv: only('c-basic'),
  dot: only('c-basic'),
  matmul: only('c-1d-1d', 'c-2d-1d', 'c-batch-broadcast'),
  outer: only('c-basic'),
  addmm: only('c-basic'),
  baddbmm: only('c-basic'),
  flip: only('c-both'),
  roll: only('c-dim'),
  repeat: only('c-more-dims'),
  triu: only('c-rect'),
  tril: only('c-rect'),
  indexSelect: only('c-dim1'),
  gather: only('c-dim1'),
  scatter: only('c-dim0'),
  take: only('c-basic'),
  indexPut: only('c-set'),
  maskedFill: only('c-scalar'),
  maskedSelect: only('c-basic'),
  pad: only('c-constant-1d'),
  cat: only('c-dim0'),
  stack: only('c-dim0'),
  // torch.linalg (core's Note [Complex linalg primitives])
  ...Object.fromEntries(['linalgInv', 'linalgDet', 'linalgSlogdet', 'linalgLuFactor'].map((n) => [n, only('c-square')])),
  linalgLu: only('c-rect'),
  linalgCholesky: only('c-hpd'),
  linalgEigvalsh: only('c-hermitian'),
  linalgQr: only('c-tall', 'c-wide'),
  geqrf: only('c-tall'),
  linalgHouseholderProduct: only('c-tall'),
  // the SVD family (core's Note [Complex SVD]): its gauge-invariant functions
  linalgSvdvals: only('c-tall', 'c-wide'),
  linalgPinv: only('c-tall'),
  linalgMatrixRank: only('c-square'),
  linalgCond: only('c-square'),
  // lstsq (each driver) and matrix_exp (kernels-cpu's Note [CPU complex lstsq and matrix_exp])
  linalgLstsq: only('c-tall', 'c-tall-gels', 'c-tall-gelsd', 'c-tall-gelss', 'c-wide-gelsd', 'c-square-vector'),
  linalgMatrixExp: only('c-square'),
  matrixExp: only('c-square'),
  // "sort" not implemented for 'ComplexFloat': PyTorch has no order on complex numbers
  sort: { dtypes: NONE, samples: ['c-1d'] },
};

/**
 * Complex cases known to fail, per op, with why (strict xfails, Note [Strict xfails]); merged
 * into the entry's own `xfail`.
 */
export const COMPLEX_XFAIL: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.fromEntries(
  ['sqrt', 'reciprocal', 'rsqrt', 'sigmoid', 'sin', 'cos', 'tan', 'sinh', 'cosh', 'tanh', 'asin', 'acos', 'asinh', 'acosh', 'atanh'].map((n) => [
    n,
    {
      'forward@c-nonfinite':
        "inf and nan parts: C99 Annex G's special values (csqrt(x + inf i) = inf + inf i, csin(inf) = nan + 0i...) are not matched yet; the composites give nan where PyTorch's std::complex gives a signed zero or an infinity",
    },
  ]),
);

/** `op` with its complex support and complex xfails (Note [Complex OpInfo]). */
export function withComplex(op: OpInfo): OpInfo {
  const complex = COMPLEX_SUPPORT[op.name];
  if (!complex) return op;
  const xfail = COMPLEX_XFAIL[op.name];
  return { ...op, complex, ...(xfail ? { xfail: { ...op.xfail, ...xfail } } : {}) };
}
