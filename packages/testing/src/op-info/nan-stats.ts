import * as torch from '@torch-ts/torch';
import { DTypeError, IndexError, TorchError, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, FLOAT_DTYPES, HALF_2X, NO_BOOL, t, tensorArg, tensorOrNumber } from './common';
import { bool, dtype, intOrInts, num, oneOf, options, required, tensor, tensorPair, withOptions } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpInput } from './types';
import { untyped } from './untyped';

/**
 * The NaN-ignoring statistics (goldens/ops_nan_stats.json, written by
 * scripts/goldens/ops_nan_stats.py): nansum, nanmean, logcumsumexp, nanmedian, quantile and
 * nanquantile, composites in core (Note [NaN-ignoring statistics are composites]).
 */

const SUM_KW = options({ dim: intOrInts, keepdim: bool, dtype, out: tensor });
const LCSE_KW = options({ dim: required(num), out: tensor });
const MEDIAN_KW = options({ dim: num, keepdim: bool, out: tensorPair });
const QUANTILE_KW = options({
  dim: num,
  keepdim: bool,
  interpolation: oneOf('linear', 'lower', 'higher', 'midpoint', 'nearest', 'cubic'),
  out: tensor,
});

const notTensor = (errName: string, fn: (x: Tensor) => unknown, bound: 'position' | 'overloads'): ErrorInput => ({
  name: 'a JS array instead of a tensor',
  make: () => untyped(fn)([1, 2]),
  error: TorchError,
  match:
    bound === 'overloads'
      ? new RegExp(`${errName}\\(\\) received an invalid combination of arguments - got \\(Array`)
      : new RegExp(`${errName}\\(\\): argument 'input' \\(position 1\\) must be Tensor, not Array`),
});

const dimOutOfRange = (fn: (x: Tensor, d: number) => unknown): ErrorInput => ({
  name: 'a dim out of range',
  make: (d) => fn(t(d, [[1, 2], [3, 4]], 'float32'), 2),
  error: IndexError,
  match: /Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)/,
});

function nanReduce(name: 'nansum' | 'nanmean'): OpInfo {
  const fn = torch[name];
  return {
    name,
    call: (i, k) => withOptions(SUM_KW, fn)(tensorArg(i[0], name), k),
    variants: { method: true, out: true },
    dtypes: name === 'nansum' ? ALL_DTYPES : FLOAT_DTYPES,
    samples: [
      'all', 'all-nan', 'dim0', 'dim1', 'dim-neg', 'keepdim', 'dims', 'dims-keepdim', 'dtype-float64', '0dim', 'empty-all',
      'empty-reduced-dim', 'empty-kept-dim',
    ],
    errorInputs: [
      notTensor(name, (x) => fn(x), 'position'),
      dimOutOfRange((x, d) => fn(x, d)),
      {
        name: 'a dim repeated in the list',
        make: (d) => fn(t(d, [[1, 2], [3, 4]], 'float32'), [0, -2]),
        error: TorchError,
        match: /dim 0 appears multiple times in the list of dims/,
      },
      ...(name === 'nanmean'
        ? [{
            name: 'an integral input',
            make: (d: torch.DeviceLike) => fn(t(d, [1, 2], 'int64')),
            error: DTypeError,
            match: /nanmean\(\): expected input to have floating point dtype but got Long/,
          }]
        : []),
    ],
    pytorch2x: {
      float16: FLOAT_ACC_2X(`a Half ${name} (sum${name === 'nanmean' ? ' and division' : ''})`),
      bfloat16: FLOAT_ACC_2X(`a BFloat16 ${name} (sum${name === 'nanmean' ? ' and division' : ''})`),
    },
  };
}

/** quantile / nanquantile: `q` is the second input, a JS number or a tensor (of the input's dtype, float32 for the others: the golden script's). */
function quantileLike(name: 'quantile' | 'nanquantile'): OpInfo {
  const run = (i: readonly OpInput[], k: Kwargs, method: boolean): Tensor => {
    const x = tensorArg(i[0], name);
    const q = tensorOrNumber(i[1], name);
    const o = QUANTILE_KW(k);
    // (`cubic` is PyTorch's error case: the front's choices only type the argument)
    const f = untyped(method ? x[name].bind(x) : torch[name]);
    const r = Object.keys(o).length ? f(...(method ? [] : [x]), q, o) : f(...(method ? [] : [x]), q);
    if (!(r instanceof torch.Tensor)) throw new Error(`${name}: the call gave no tensor`);
    return r;
  };
  return {
    name,
    errorNames: [name, 'quantile'],
    call: (i, k) => run(i, k, false),
    forms: { method: (i, k) => run(i, k, true) },
    variants: { method: true, out: true },
    dtypes: ['float32', 'float64'],
    samples: [
      'all', 'all-keepdim', 'dim1', 'dim0-keepdim', 'q-tensor', 'q-tensor-all', 'q-tensor-keepdim', 'q-0dim-tensor', 'q-one', 'nan', 'nan-row', 'ties', 'lower',
      'higher', 'midpoint', 'nearest', '0dim', '0dim-dim', 'empty', 'q-out-of-range', 'q-tensor-out-of-range', 'bad-interpolation',
    ],
    errorInputs: [
      notTensor(name, (x) => torch[name](x, 0.5), 'overloads'),
      dimOutOfRange((x, d) => torch[name](x, 0.5, d)),
      {
        name: 'a 2-D q',
        make: (d) => torch[name](t(d, [1.5, 2.5], 'float32'), t(d, [[0.5]], 'float32')),
        error: TorchError,
        match: /quantile\(\) q must be a scalar or 1D tensor/,
      },
      {
        name: 'a q of another dtype',
        make: (d) => torch[name](t(d, [1.5, 2.5], 'float32'), t(d, [0.5], 'int32')),
        error: DTypeError,
        match: /quantile\(\) q tensor must be same dtype as the input tensor/,
      },
    ],
  };
}

export const NAN_STATS_OPS: readonly OpInfo[] = [
  nanReduce('nansum'),
  nanReduce('nanmean'),
  {
    name: 'logcumsumexp',
    call: (i, k) => torch.logcumsumexp(tensorArg(i[0], 'logcumsumexp'), LCSE_KW(k)),
    variants: { method: true, out: true },
    dtypes: FLOAT_DTYPES,
    samples: ['dim0', 'dim1', 'dim-neg', 'long', 'large', 'infinities', 'nan', '0dim', 'empty'],
    errorInputs: [
      notTensor('logcumsumexp', (x) => torch.logcumsumexp(x, 0), 'position'),
      dimOutOfRange((x, d) => torch.logcumsumexp(x, d)),
    ],
    pytorch2x: { float16: HALF_2X('logcumsumexp_out_cpu') },
  },
  {
    name: 'nanmedian',
    call: (i, k) => {
      const x = tensorArg(i[0], 'nanmedian');
      const { dim, ...o } = MEDIAN_KW(k);
      if (dim !== undefined) return torch.nanmedian(x, { ...o, dim });
      if (Object.keys(o).length) throw new Error(`nanmedian: the OpInfo case gives ${Object.keys(o).join(', ')} without a dim`);
      return torch.nanmedian(x);
    },
    variants: { method: true, out: 'tuple' },
    dtypes: NO_BOOL,
    samples: ['all', 'all-even', 'all-nan', 'only-nan', 'dim1', 'dim0', 'keepdim', 'nan', 'ties', '0dim', '0dim-dim', 'empty-all', 'empty-kept-dim', 'empty-reduced-dim'],
    errorNames: ['nanmedian', 'median'],
    errorInputs: [notTensor('nanmedian', (x) => torch.nanmedian(x), 'overloads'), dimOutOfRange((x, d) => torch.nanmedian(x, d))],
    pytorch2x: { float16: HALF_2X('median_cpu') },
  },
  quantileLike('quantile'),
  quantileLike('nanquantile'),
];
