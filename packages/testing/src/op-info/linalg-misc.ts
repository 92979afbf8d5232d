import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, goldenSamples, tensorArg } from './common';
import { bool, either, num, oneOf, options } from './kwargs';
import type { OpInfo, OpInput } from './types';
import { untyped } from './untyped';

/**
 * The OpInfo entries of kron, cross, cdist, trace, diff, blockDiag, cartesianProd and
 * combinations; sample ids from scripts/goldens/ops_common.py (tril_indices and triu_indices
 * take no tensor: test/tri-indices.test.ts).
 */

const list = (i: readonly OpInput[], op: string): Tensor[] => i.map((x) => tensorArg(x, op));

const FLOAT32_64: readonly DType[] = ['float32', 'float64'];

const CROSS_KW = options({ dim: num });
/** p travels as a number, or as "inf" (JSON has no Infinity). */
const pValue = either(num, oneOf('inf'));
const CDIST_KW = options({ p: pValue, computeMode: oneOf('use_mm_for_euclid_dist_if_necessary', 'use_mm_for_euclid_dist', 'donot_use_mm_for_euclid_dist') });
const DIFF_KW = options({ n: num, dim: num });
const COMBINATIONS_KW = options({ r: num, withReplacement: bool });

function cdistCall(i: readonly OpInput[], k: Readonly<Record<string, unknown>>): Tensor {
  const { p, computeMode } = CDIST_KW(k);
  return torch.cdist(tensorArg(i[0], 'cdist'), tensorArg(i[1], 'cdist'), { p: p === 'inf' ? Infinity : p, computeMode });
}

/** diff's inputs: [input], [input, prepend] or [input, prepend, append]. */
function diffOptions(i: readonly OpInput[], k: Readonly<Record<string, unknown>>) {
  return { ...DIFF_KW(k), prepend: i.length > 1 ? tensorArg(i[1], 'diff') : undefined, append: i.length > 2 ? tensorArg(i[2], 'diff') : undefined };
}

const ones = (d: torch.DeviceLike, shape: number[], dtype?: DType) => torch.ones(shape, { device: d, dtype });

export const LINALG_MISC_OPS: readonly OpInfo[] = [
  {
    name: 'trace',
    call: (i) => torch.trace(tensorArg(i[0], 'trace')),
    variants: { method: true },
    dtypes: ALL_DTYPES.filter((d) => d !== 'bool' && d !== 'float16' && d !== 'bfloat16'),
    samples: goldenSamples('trace'),
    errorInputs: [
      { name: 'a vector', make: (d) => torch.trace(ones(d, [3])), error: ShapeError, match: /trace: expected a matrix, but got tensor with dim 1/ },
    ],
  },
  {
    name: 'kron',
    call: (i) => torch.kron(tensorArg(i[0], 'kron'), tensorArg(i[1], 'kron')),
    variants: { method: true },
    dtypes: ALL_DTYPES,
    samples: goldenSamples('kron'),
    errorInputs: [
      {
        name: 'out=',
        make: (d) => torch.kron(ones(d, [2]), ones(d, [2]), { out: ones(d, [4]) }),
        error: TorchError,
        match: /kron.*out/,
      },
    ],
  },
  {
    name: 'cross',
    errorNames: ['cross', 'linalg.cross'],
    call: (i, k) => torch.cross(tensorArg(i[0], 'cross'), tensorArg(i[1], 'cross'), CROSS_KW(k)),
    variants: { method: true },
    dtypes: ALL_DTYPES.filter((d) => d !== 'bool' && d !== 'float16'),
    samples: goldenSamples('cross'),
    errorInputs: [
      {
        name: 'no dimension of size 3',
        make: (d) => torch.cross(ones(d, [2, 4]), ones(d, [2, 4])),
        error: ShapeError,
        match: /cross: no dimension of size 3 in input/,
      },
      {
        name: 'two dtypes',
        make: (d) => torch.cross(ones(d, [3]), ones(d, [3], 'int32'), 0),
        error: DTypeError,
        match: /cross: expected scalar type Float but found Int/,
      },
    ],
  },
  {
    name: 'cdist',
    call: cdistCall,
    variants: {},
    dtypes: FLOAT32_64,
    samples: goldenSamples('cdist'),
    errorInputs: [
      {
        name: 'an unknown compute_mode',
        // (a string the types refuse, and the function at run time as Python's does)
        make: (d) => untyped(torch.cdist)(ones(d, [2, 2]), ones(d, [2, 2]), { computeMode: 'fast' }),
        error: TorchError,
        match: /cdist/,
      },
      {
        name: 'a negative p',
        make: (d) => torch.cdist(ones(d, [2, 2]), ones(d, [2, 2]), -1),
        error: TorchError,
        match: /cdist only supports non-negative p values/,
      },
    ],
  },
  {
    name: 'diff',
    call: (i, k) => torch.diff(tensorArg(i[0], 'diff'), diffOptions(i, k)),
    forms: { method: (i, k) => tensorArg(i[0], 'diff').diff(diffOptions(i, k)) },
    variants: { method: true },
    dtypes: ALL_DTYPES,
    samples: goldenSamples('diff'),
    errorInputs: [
      {
        name: 'an append of another shape',
        make: (d) => torch.diff(ones(d, [2, 3]), { dim: 1, append: ones(d, [3, 1]) }),
        error: ShapeError,
        match: /diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension; input.size\(0\) = 2, but got tensor.size\(0\) = 3/,
      },
    ],
  },
  {
    name: 'blockDiag',
    errorNames: ['block_diag', 'torch.block_diag'],
    call: (i) => torch.blockDiag(list(i, 'blockDiag')),
    variants: {},
    dtypes: ALL_DTYPES,
    samples: goldenSamples('blockDiag'),
    errorInputs: [
      {
        name: 'a 3-dim input',
        make: (d) => torch.blockDiag(ones(d, [2]), ones(d, [1, 1, 1])),
        error: ShapeError,
        match: /torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3 dimensions/,
      },
    ],
  },
  {
    name: 'cartesianProd',
    errorNames: ['cartesian_prod'],
    call: (i) => torch.cartesianProd(list(i, 'cartesianProd')),
    variants: {},
    dtypes: ALL_DTYPES,
    samples: goldenSamples('cartesianProd'),
    errorInputs: [
      {
        name: 'no tensor',
        make: () => torch.cartesianProd(),
        error: TorchError,
        match: /cartesian_prod: meshgrid expects a non-empty TensorList/,
      },
    ],
  },
  {
    name: 'combinations',
    call: (i, k) => torch.combinations(tensorArg(i[0], 'combinations'), COMBINATIONS_KW(k)),
    variants: {},
    dtypes: ALL_DTYPES,
    samples: goldenSamples('combinations'),
    errorInputs: [
      {
        name: 'a negative r',
        make: (d) => torch.combinations(ones(d, [3]), -2),
        error: TorchError,
        match: /combinations: Expect a non-negative number, but got -2/,
      },
    ],
  },
];
