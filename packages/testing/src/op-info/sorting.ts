import * as torch from '@torch-ts/torch';
import { DTypeError, IndexError, ShapeError, TorchError } from '@torch-ts/torch';
import { ALL_DTYPES, HALF_2X, NO_BOOL, operand, t, tensorArg } from './common';
import { bool, num, oneOf, options, required, tensor, tensorPair } from './kwargs';
import type { Kwargs, OpInfo, OpInput } from './types';

/** The OpInfo entries of the sorting ops; sample ids from scripts/goldens/ops_sorting.py. */

const SORT_KW = options({ dim: num, descending: bool, stable: bool, out: tensorPair });
const ARGSORT_KW = options({ dim: num, descending: bool, stable: bool });
const TOPK_KW = options({ k: required(num), dim: num, largest: bool, sorted: bool, out: tensorPair });
const UNIQUE_KW = options({ sorted: bool, returnInverse: bool, returnCounts: bool, dim: num });
const SEARCHSORTED_KW = options({ right: bool, side: oneOf('left', 'right'), outInt32: bool, out: tensor });
const BUCKETIZE_KW = options({ right: bool, outInt32: bool, out: tensor });

const SORT_SAMPLES = ['1d', 'ties', 'ties-desc', 'edges', 'edges-desc', 'dim0', 'mid-dim', '0d', 'empty'];

const SORT: OpInfo = {
  name: 'sort',
  call: (i, k) => torch.sort(tensorArg(i[0], 'sort'), SORT_KW(k)),
  variants: { method: true, out: true },
  dtypes: ALL_DTYPES,
  samples: SORT_SAMPLES,
  errorInputs: [
    {
      name: 'a dim out of range',
      make: (d) => torch.sort(torch.ones([2, 3], { device: d }), 2),
      error: IndexError,
      match: /sort: Dimension out of range/,
    },
  ],
};

const ARGSORT: OpInfo = {
  name: 'argsort',
  errorNames: ['argsort', 'sort'],
  call: (i, k) => torch.argsort(tensorArg(i[0], 'argsort'), ARGSORT_KW(k)),
  variants: { method: true },
  dtypes: ALL_DTYPES,
  samples: SORT_SAMPLES,
  errorInputs: [
    {
      name: 'a dim out of range',
      make: (d) => torch.argsort(torch.ones([2, 3], { device: d }), { dim: -3 }),
      error: IndexError,
      match: /sort: Dimension out of range/,
    },
  ],
};

const TOPK: OpInfo = {
  name: 'topk',
  call: (i, k) => {
    const { k: count, ...rest } = TOPK_KW(k);
    return torch.topk(tensorArg(i[0], 'topk'), count, rest);
  },
  variants: { method: true, out: true },
  forms: {
    method: (i, k) => {
      const { k: count, ...rest } = TOPK_KW(k);
      return tensorArg(i[0], 'topk').topk(count, rest);
    },
  },
  dtypes: NO_BOOL,
  samples: ['k3', 'smallest', 'dim0', 'k0', 'kall', '0d', 'k-too-big'],
  pytorch2x: { float16: HALF_2X('topk_cpu') },
  errorInputs: [
    {
      name: 'a negative k',
      make: (d) => torch.topk(torch.ones([3], { device: d }), -1),
      error: IndexError,
      match: /topk: selected index k out of range/,
    },
    {
      name: 'a k that is not an integer',
      make: (d) => torch.topk(torch.ones([3], { device: d }), 1.5),
      error: TorchError,
      match: /topk\(\): argument 'k' \(position 2\) must be int, not number/,
    },
  ],
};

const UNIQUE: OpInfo = {
  name: 'unique',
  call: (i, k) => torch.unique(tensorArg(i[0], 'unique'), UNIQUE_KW(k)),
  variants: { method: true },
  forms: {
    async: (i, k) => torch.uniqueAsync(tensorArg(i[0], 'unique'), UNIQUE_KW(k)),
    asyncMethod: (i, k) => tensorArg(i[0], 'unique').uniqueAsync(UNIQUE_KW(k)),
  },
  dtypes: ALL_DTYPES,
  samples: ['flat', 'inverse', 'counts', 'both', 'dim0', 'dim1', 'empty', '0d'],
  pytorch2x: { float16: HALF_2X('unique') },
  errorInputs: [
    {
      name: 'a dim out of range',
      make: (d) => torch.unique(torch.ones([2, 3], { device: d }), { dim: 2 }),
      error: IndexError,
      match: /unique: Dimension out of range/,
    },
  ],
};

type SearchInputs = readonly OpInput[];
const searchCall = (i: SearchInputs, k: Kwargs, extra: torch.SearchsortedOptions = {}) => {
  const seq = tensorArg(i[0], 'searchsorted');
  const values = operand(i[1], 'searchsorted');
  const options = { ...SEARCHSORTED_KW(k), ...(i[2] !== undefined ? { sorter: tensorArg(i[2], 'searchsorted') } : {}), ...extra };
  // (PyTorch's two overloads: a Tensor or a Scalar `self`)
  return values instanceof torch.Tensor ? torch.searchsorted(seq, values, options) : torch.searchsorted(seq, values, options);
};

const SEARCHSORTED: OpInfo = {
  name: 'searchsorted',
  errorNames: ['searchsorted'],
  call: (i, k) => searchCall(i, k),
  variants: { out: true },
  forms: { out: (i, k, out) => searchCall(i, k, { out }) },
  dtypes: NO_BOOL,
  samples: ['left', 'right', 'side', 'int32', 'nd', 'sorter', 'empty-values', 'empty-seq', 'scalar', 'shape-mismatch', 'promote'],
  errorInputs: [
    {
      name: 'side and right that disagree',
      make: (d) => torch.searchsorted(t(d, [1, 2, 3]), t(d, [2]), { side: 'left', right: true }),
      error: TorchError,
      match: /searchsorted: side and right can't be set to opposites/,
    },
    {
      name: 'a sorter that is not int64',
      make: (d) => torch.searchsorted(t(d, [1, 2, 3]), t(d, [2]), { sorter: t(d, [0, 1, 2], 'int32') }),
      error: DTypeError,
      match: /searchsorted: sorter must be a tensor of long dtype/,
    },
    {
      name: 'a scalar value with N-D boundaries',
      make: (d) => torch.searchsorted(torch.ones([2, 3], { device: d }), 1),
      error: ShapeError,
      match: /searchsorted: input value can be a scalar only when boundaries tensor dimension is 1/,
    },
    {
      name: 'an out= of the wrong dtype',
      make: (d) => torch.searchsorted(t(d, [1, 2, 3]), t(d, [2]), { out: torch.empty([1], { device: d, dtype: 'int32' }) }),
      error: DTypeError,
      match: /searchsorted: output tensor's dtype is wrong/,
    },
  ],
};

const BUCKETIZE: OpInfo = {
  name: 'bucketize',
  call: (i, k) => torch.bucketize(tensorArg(i[0], 'bucketize'), tensorArg(i[1], 'bucketize'), BUCKETIZE_KW(k)),
  variants: { out: true },
  dtypes: NO_BOOL,
  samples: ['left', 'right', '0d', '2d-boundaries'],
  errorInputs: [
    {
      name: 'a 0-D boundaries tensor',
      make: (d) => torch.bucketize(t(d, [1]), t(d, 1)),
      error: ShapeError,
      match: /bucketize: boundaries tensor must be 1 dimension/,
    },
  ],
};

export const SORTING_OPS: readonly OpInfo[] = [SORT, ARGSORT, TOPK, UNIQUE, SEARCHSORTED, BUCKETIZE];
