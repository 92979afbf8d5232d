import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, HALF_2X, NO_BOOL, NO_HALF_BOOL, goldenSamples, tensorArg } from './common';
import { bool, either, ints, num, oneOf, options, required } from './kwargs';
import type { OpInfo, OpInput, Tolerance } from './types';

/**
 * The OpInfo entries of torch.linalg part 1 (core's Note [The linalg primitives]) and of
 * torch.det / inverse / slogdet / logdet / matrix_power; sample ids from
 * scripts/goldens/ops_linalg_solve.py. Float32 and float64 only (PyTorch's kernels refuse
 * the rest); on WebGPU float32 (Note [WebGPU LU, Cholesky and triangular solves]).
 *
 * Tolerances: the goldens include the 4 x 4 Hilbert matrix (condition number 1.6e4). PyTorch
 * factors float32 in float32 (LAPACK sgetrf), torch-ts's CPU in doubles and its WebGPU in
 * float32 with another operation order, so two correct float32 answers differ by up to
 * eps32 * cond = 6e-8 * 1.6e4 = 1e-3 relative: the entries that take it state that float32
 * tolerance. float64 keeps the default (eps64 * cond = 2e-12 is far below it).
 */

const FLOATS: readonly DType[] = ['float32', 'float64'];
/** The norms and vecdot take every floating dtype (reductions, not LAPACK kernels). */
const ALL_FLOATS: readonly DType[] = ['float32', 'float64', 'float16', 'bfloat16'];
const ILL_CONDITIONED: Readonly<Partial<Record<DType, Tolerance>>> = { float32: { rtol: 1e-3, atol: 1e-3 } };
// (well-conditioned float32 factorizations computed in float32 by PyTorch and in doubles here: a few ulps of a cond ~10 matrix)
const WELL_CONDITIONED: Readonly<Partial<Record<DType, Tolerance>>> = { float32: { rtol: 1e-5, atol: 1e-5 } };

const one = (i: readonly OpInput[], op: string): Tensor => tensorArg(i[0], op);
const ones = (d: torch.DeviceLike, shape: number[], dtype?: DType) => torch.ones(shape, { device: d, dtype });

const PIVOT_KW = options({ pivot: bool, checkErrors: bool });
const LU_SOLVE_KW = options({ left: bool, adjoint: bool });
const TRI_KW = options({ upper: required(bool), left: bool, unitriangular: bool });
const CHOL_KW = options({ upper: bool, checkErrors: bool });
const SOLVE_KW = options({ left: bool, checkErrors: bool });
const POWER_KW = options({ n: required(num) });
/** An ord as the goldens spell it ("inf" and "-inf": JSON has no Infinity) as the call takes it. */
function ordValue(o: number | 'inf' | '-inf' | undefined): number | undefined;
function ordValue(o: number | 'inf' | '-inf' | 'fro' | 'nuc' | undefined): number | 'fro' | 'nuc' | undefined;
function ordValue(o: number | string | undefined): number | string | undefined {
  if (o === 'inf') return Infinity;
  if (o === '-inf') return -Infinity;
  return o;
}
const VNORM_KW = options({ ord: either(num, oneOf('inf', '-inf')), dim: ints, keepdim: bool });
const MNORM_KW = options({ ord: either(num, oneOf('inf', '-inf', 'fro', 'nuc')), dim: ints, keepdim: bool });
const DIM_KW = options({ dim: num });

/** lu_solve's inputs are PyTorch's LU and int32 pivots of a well-conditioned A (its goldens factor it), and B. */
function luSolveCall(i: readonly OpInput[], k: Readonly<Record<string, unknown>>): Tensor {
  return torch.linalg.luSolve(one(i, 'luSolve'), tensorArg(i[1], 'luSolve'), tensorArg(i[2], 'luSolve'), LU_SOLVE_KW(k));
}

/** An entry taking one square matrix (no kwargs), with the error inputs they share. */
function square(name: string, errorNames: readonly string[], call: (A: Tensor) => Tensor | readonly Tensor[], method: boolean, tolerance = ILL_CONDITIONED): OpInfo {
  return {
    name,
    errorNames,
    call: (i) => call(one(i, name)),
    variants: method ? { method: true } : {},
    dtypes: FLOATS,
    samples: goldenSamples(name),
    tolerance,
    errorInputs: [
      { name: 'an int matrix', make: (d) => call(ones(d, [2, 2], 'int64')), error: DTypeError, match: /Expected a floating point or complex tensor as input. Got Long|not implemented for 'Long'/ },
      { name: 'a 2 x 3 matrix', make: (d) => call(ones(d, [2, 3])), error: ShapeError, match: /must be batches of square matrices, but they are 2 by 3 matrices/ },
    ],
  };
}

/** The kernels' names in their dtype errors: PyTorch's CPU kernels, and the WebGPU ones (float64: Note [WebGPU LU, Cholesky and triangular solves]). */
const DTYPE_NAMES = [
  'lu_cpu', 'cholesky_cpu', 'triangular_solve_cpu', 'linalg.lu_solve_cpu',
  'linalg_lu_factor_ex', 'linalg_lu_solve', 'linalg_solve_triangular', 'linalg_cholesky_ex',
];

export const LINALG_SOLVE_OPS: readonly OpInfo[] = [
  {
    name: 'linalgLuFactorEx',
    errorNames: ['torch.lu_factor', 'torch.linalg.lu_factor_ex', 'linalg.lu_factor', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.luFactorEx(one(i, 'luFactorEx'), PIVOT_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgLuFactorEx'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [
      { name: 'pivot=False', make: (d) => torch.linalg.luFactorEx(ones(d, [2, 2]), { pivot: false }), error: TorchError, match: /LU without pivoting is not implemented/ },
    ],
  },
  {
    name: 'linalgLuFactor',
    errorNames: ['torch.linalg.lu_factor', 'torch.lu_factor', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.luFactor(one(i, 'luFactor'), PIVOT_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgLuFactor'),
    tolerance: ILL_CONDITIONED,
    errorInputs: [],
  },
  {
    name: 'linalgLu',
    errorNames: ['linalg.lu', 'torch.lu_factor', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.lu(one(i, 'lu'), PIVOT_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgLu'),
    tolerance: WELL_CONDITIONED,
    errorInputs: [{ name: 'a vector', make: (d) => torch.linalg.lu(ones(d, [3])), error: ShapeError, match: /linalg.lu: Expected tensor with 2 or more dimensions. Got size: \[3\] instead/ }],
  },
  {
    name: 'linalgLuSolve',
    errorNames: ['linalg.lu_solve', 'torch.linalg.lu_solve', ...DTYPE_NAMES],
    call: luSolveCall,
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgLuSolve'),
    tolerance: WELL_CONDITIONED,
    errorInputs: [
      {
        name: 'int64 pivots',
        make: (d) => torch.linalg.luSolve(ones(d, [2, 2]), ones(d, [2], 'int64'), ones(d, [2, 1])),
        error: DTypeError,
        match: /linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32/,
      },
      {
        name: 'too few pivots',
        make: (d) => torch.linalg.luSolve(ones(d, [2, 2]), ones(d, [3], 'int32'), ones(d, [2, 1])),
        error: ShapeError,
        match: /linalg.lu_solve: Number of pivots per batch should be same as the dimension of the matrix/,
      },
      {
        name: 'a vector B',
        make: (d) => torch.linalg.luSolve(ones(d, [2, 2]), ones(d, [2], 'int32'), ones(d, [2])),
        error: ShapeError,
        match: /linalg.lu_solve: The input tensor B must have at least 2 dimensions./,
      },
      {
        name: 'B of another size',
        make: (d) => torch.linalg.luSolve(ones(d, [2, 2]), ones(d, [2], 'int32'), ones(d, [3, 1])),
        error: ShapeError,
        match: /linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x1\)/,
      },
    ],
  },
  {
    name: 'linalgSolveTriangular',
    errorNames: ['linalg.solve_triangular', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.solveTriangular(one(i, 'solveTriangular'), tensorArg(i[1], 'solveTriangular'), TRI_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgSolveTriangular'),
    tolerance: WELL_CONDITIONED,
    errorInputs: [
      {
        name: 'a vector B',
        make: (d) => torch.linalg.solveTriangular(ones(d, [2, 2]), ones(d, [2]), { upper: true }),
        error: ShapeError,
        match: /linalg.solve_triangular: The input tensor B must have at least 2 dimensions./,
      },
      {
        name: 'int64 inputs',
        make: (d) => torch.linalg.solveTriangular(ones(d, [2, 2], 'int64'), ones(d, [2, 1], 'int64'), { upper: true }),
        error: DTypeError,
        match: /"triangular_solve_cpu" not implemented for 'Long'/,
      },
    ],
  },
  {
    name: 'linalgCholeskyEx',
    errorNames: ['linalg.cholesky', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.choleskyEx(one(i, 'choleskyEx'), CHOL_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgCholeskyEx'),
    tolerance: WELL_CONDITIONED,
    errorInputs: [{ name: 'a 2 x 3 matrix', make: (d) => torch.linalg.choleskyEx(ones(d, [2, 3])), error: ShapeError, match: /linalg.cholesky: A must be batches of square matrices/ }],
  },
  {
    name: 'linalgCholesky',
    errorNames: ['linalg.cholesky', ...DTYPE_NAMES],
    call: (i, k) => torch.linalg.cholesky(one(i, 'cholesky'), CHOL_KW(k)),
    variants: {},
    dtypes: FLOATS,
    samples: goldenSamples('linalgCholesky'),
    tolerance: WELL_CONDITIONED,
    errorInputs: [],
  },
  square('linalgInv', ['linalg.inv', ...DTYPE_NAMES], (A) => torch.linalg.inv(A), false),
  square('inverse', ['linalg.inv', ...DTYPE_NAMES], (A) => torch.inverse(A), true),
  square('linalgInvEx', ['linalg.inv', ...DTYPE_NAMES], (A) => torch.linalg.invEx(A), false),
  square('linalgDet', ['linalg.det', ...DTYPE_NAMES], (A) => torch.linalg.det(A), false),
  square('det', ['linalg.det', ...DTYPE_NAMES], (A) => torch.det(A), true),
  square('linalgSlogdet', ['linalg.slogdet', ...DTYPE_NAMES], (A) => torch.linalg.slogdet(A), false),
  square('slogdet', ['linalg.slogdet', ...DTYPE_NAMES], (A) => torch.slogdet(A), true),
  square('logdet', ['logdet', ...DTYPE_NAMES], (A) => torch.logdet(A), true),
  ...(['linalgSolve', 'linalgSolveEx'] as const).map(
    (name): OpInfo => ({
      name,
      errorNames: ['linalg.solve', 'torch.linalg.solve', ...DTYPE_NAMES],
      call: (i, k) => (name === 'linalgSolve' ? torch.linalg.solve : torch.linalg.solveEx)(one(i, name), tensorArg(i[1], name), SOLVE_KW(k)),
      variants: {},
      dtypes: FLOATS,
      samples: goldenSamples(name),
      tolerance: ILL_CONDITIONED,
      errorInputs: [],
    }),
  ),
  ...(['linalgMatrixPower', 'matrixPower'] as const).map(
    (name): OpInfo => ({
      name,
      errorNames: ['linalg.matrix_power', 'linalg.inv', 'addmm_impl_cpu_', ...DTYPE_NAMES],
      call: (i, k) => (name === 'matrixPower' ? torch.matrixPower : torch.linalg.matrixPower)(one(i, name), POWER_KW(k).n),
      variants: name === 'matrixPower' ? { method: true } : {},
      forms: name === 'matrixPower' ? { method: (i, k) => one(i, name).matrixPower(POWER_KW(k).n) } : undefined,
      dtypes: ALL_DTYPES,
      samples: goldenSamples(name),
      tolerance: WELL_CONDITIONED,
      // products, as mm's entry (op-info/linalg.ts); n = 0 is eye, which 1.13 lacks in BFloat16
      pytorch2x: {
        float16: HALF_2X('bmm'),
        bfloat16: `${FLOAT_ACC_2X('BFloat16 products')}; 2.x also has the BFloat16 eye (n = 0) that 1.13 lacks ("eye" not implemented for 'BFloat16')`,
      },
      errorInputs: [],
    }),
  ),
  {
    name: 'linalgMultiDot',
    // (a bool chain fails in mm's kernel, as PyTorch's: "addmm_impl_cpu_" not implemented for 'Bool')
    errorNames: ['multi_dot', 'addmm_impl_cpu_'],
    call: (i) => torch.linalg.multiDot(i.map((x) => tensorArg(x, 'multiDot'))),
    variants: {},
    dtypes: NO_BOOL,
    samples: goldenSamples('linalgMultiDot'),
    tolerance: WELL_CONDITIONED,
    pytorch2x: { float16: HALF_2X('addmm_impl_cpu_'), bfloat16: FLOAT_ACC_2X('BFloat16 products') },
    errorInputs: [
      { name: 'one tensor', make: (d) => torch.linalg.multiDot([ones(d, [2, 2])]), error: TorchError, match: /multi_dot\(\): expected at least 2 tensors but got 1/ },
      { name: 'a 3-D first tensor', make: (d) => torch.linalg.multiDot([ones(d, [2, 2, 2]), ones(d, [2, 2])]), error: ShapeError, match: /multi_dot\(\): the first tensor must be 1D or 2D but got 3D/ },
      {
        name: 'two dtypes',
        make: (d) => torch.linalg.multiDot([ones(d, [2, 3]), ones(d, [3, 2], 'int32')]),
        error: DTypeError,
        match: /multi_dot\(\): all tensors must have be the same dtype but tensor 0 is float and tensor 1 int/,
      },
    ],
  },
  {
    name: 'linalgVectorNorm',
    errorNames: ['linalg.vector_norm'],
    call: (i, k) => {
      const o = VNORM_KW(k);
      return torch.linalg.vectorNorm(one(i, 'vectorNorm'), { ...o, ord: ordValue(o.ord) });
    },
    variants: {},
    dtypes: ALL_FLOATS,
    samples: goldenSamples('linalgVectorNorm'),
    errorInputs: [],
  },
  {
    name: 'linalgMatrixNorm',
    errorNames: ['linalg.matrix_norm'],
    call: (i, k) => {
      const o = MNORM_KW(k);
      const ord = ordValue(o.ord);
      const A = one(i, 'matrixNorm');
      return typeof ord === 'number' ? torch.linalg.matrixNorm(A, ord, { dim: o.dim, keepdim: o.keepdim }) : torch.linalg.matrixNorm(A, { ord, dim: o.dim, keepdim: o.keepdim });
    },
    variants: {},
    dtypes: ALL_FLOATS,
    samples: goldenSamples('linalgMatrixNorm'),
    errorInputs: [
      { name: 'an int matrix', make: (d) => torch.linalg.matrixNorm(ones(d, [2, 2], 'int64')), error: DTypeError, match: /linalg.matrix_norm: Expected a floating point or complex tensor as input. Got Long/ },
    ],
  },
  {
    name: 'linalgVecdot',
    errorNames: ['linalg.vecdot'],
    call: (i, k) => torch.linalg.vecdot(one(i, 'vecdot'), tensorArg(i[1], 'vecdot'), DIM_KW(k)),
    variants: {},
    dtypes: ALL_FLOATS,
    samples: goldenSamples('linalgVecdot'),
    errorInputs: [
      {
        name: 'two dtypes',
        make: (d) => torch.linalg.vecdot(ones(d, [3]), ones(d, [3], 'int32')),
        error: DTypeError,
        match: /linalg.vecdot: Expected x and y to have the same dtype, but found x of type Float and y of type Int instead/,
      },
    ],
  },
  {
    name: 'linalgCross',
    errorNames: ['linalg.cross', 'cross'],
    call: (i, k) => torch.linalg.cross(one(i, 'cross'), tensorArg(i[1], 'cross'), DIM_KW(k)),
    variants: {},
    dtypes: NO_HALF_BOOL,
    samples: goldenSamples('linalgCross'),
    errorInputs: [],
  },
];
