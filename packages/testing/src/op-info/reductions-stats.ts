import * as torch from '@torch-ts/torch';
import { DTypeError, IndexError, TorchError, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, FLOAT_DTYPES, HALF_2X, NO_BOOL, t, tensorArg } from './common';
import { bool, dtype, intOrInts, num, oneOf, either, options, required, tensor, tensorPair, withOptions } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpInput } from './types';
import { untyped } from './untyped';

/**
 * The statistics reductions and the scans (goldens/ops_stats.json, written by
 * scripts/goldens/ops_stats.py). Kwargs come as torch-ts spells them; `p: 'inf'` is the
 * golden's spelling of an infinite order (JSON has no Infinity).
 */

const VAR_KW = options({ dim: intOrInts, keepdim: bool, correction: num, unbiased: bool, out: tensor });
const VAR_MEAN_KW = options({ dim: intOrInts, keepdim: bool, correction: num, unbiased: bool });
const NORM_KW = options({ dim: intOrInts, p: either(num, oneOf('inf', '-inf', 'fro')), keepdim: bool, dtype, out: tensor });
const COUNT_KW = options({ dim: intOrInts });
const MEDIAN_KW = options({ dim: num, keepdim: bool, out: tensorPair });
const MODE_KW = options({ dim: num, keepdim: bool, out: tensorPair });
const SCAN_KW = options({ dim: required(num), dtype, out: tensor });
const CUM_EXTREMUM_KW = options({ dim: required(num), out: tensorPair });

const VAR_SAMPLES = [
  'all', 'all-random', 'dim0', 'dim1', 'dim-neg', 'keepdim', 'dims', 'dims-keepdim', 'correction0', 'correction2',
  'correction-big', 'unbiased-false', 'unbiased-all', 'single', '0dim', 'empty-reduced-dim', 'empty-kept-dim', 'nan',
];
const VAR_MEAN_SAMPLES = ['all', 'dim0', 'keepdim', 'dims', 'correction0', 'unbiased-false', '0dim', 'empty-reduced-dim', 'nan'];
const NORM_SAMPLES = [
  'p2-all', 'p2-all-random', 'p2-dim', 'p1', 'p0', 'pinf', 'pinf-edges', 'p-inf', 'p3', 'p0.5', 'p-1.5', 'p1.5', 'fro', 'keepdim',
  'dtype-float64', 'nan', '0dim', 'empty-reduced-dim', 'empty-kept-dim', 'empty-inf',
];
const COUNT_SAMPLES = ['all', 'dim0', 'dims', 'nan', '0dim', 'empty-all'];
const MEDIAN_SAMPLES = ['all', 'all-even', 'all-nan', 'dim1', 'dim0', 'keepdim', 'nan', 'ties', '0dim', '0dim-dim', 'empty-all', 'empty-kept-dim', 'empty-reduced-dim'];
const MODE_SAMPLES = ['default-dim', 'dim0', 'keepdim', 'ties', '0dim', 'empty-kept-dim', 'empty-reduced-dim'];
const SCAN_SAMPLES = ['dim0', 'dim1', 'dim-neg', 'long', '0dim', 'empty', 'dtype-float64', 'dtype-same', 'nan'];
const CUMPROD_SAMPLES = [...SCAN_SAMPLES.filter((s) => s !== 'long'), 'zeros'];
const CUM_EXTREMUM_SAMPLES = ['dim0', 'dim1', 'dim-neg', 'nan', 'ties', '0dim', 'empty'];

/**
 * `bound`: how core's binder words it (Note [The argument binder]): 'position' for one
 * signature (`argument 'input' (position 1)`), 'overloads' for several (PyTorch's "invalid
 * combination of arguments"); undefined for front ends not bound yet.
 */
const notTensor = (errName: string, fn: (x: Tensor) => unknown, bound?: 'position' | 'overloads'): ErrorInput => ({
  name: 'a JS array instead of a tensor',
  make: () => untyped(fn)([1, 2]),
  error: TorchError,
  match:
    bound === 'overloads'
      ? new RegExp(`${errName}\\(\\) received an invalid combination of arguments - got \\(Array\\)`)
      : new RegExp(`${errName}\\(\\): argument '(input|self)'${bound === 'position' ? ' \\(position 1\\)' : ''} must be Tensor, not Array`),
});

const dimOutOfRange = (fn: (x: Tensor, d: number) => unknown): ErrorInput => ({
  name: 'a dim out of range',
  make: (d) => fn(t(d, [[1, 2], [3, 4]], 'float32'), 2),
  error: IndexError,
  match: /Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)/,
});

const repeatedDim = (fn: (x: Tensor, dims: number[]) => unknown): ErrorInput => ({
  name: 'a dim repeated in the list',
  make: (d) => fn(t(d, [[1, 2], [3, 4]], 'float32'), [0, -2]),
  error: TorchError,
  match: /dim 0 appears multiple times in the list of dims/,
});

/**
 * norm (or its method form) with the goldens' kwargs: `p: 'inf'` / `'-inf'` is an infinite
 * order; 'fro' is the `p` of PyTorch's `norm.str` overload, given positionally.
 */
function callNorm(x: Tensor, k: Kwargs, method: boolean): Tensor {
  const { p, ...rest } = NORM_KW(k);
  if (p === 'fro') return method ? x.norm(p, rest) : torch.norm(x, p, rest);
  const o = p === undefined ? rest : { ...rest, p: p === 'inf' ? Infinity : p === '-inf' ? -Infinity : p };
  if (!Object.keys(o).length) return method ? x.norm() : torch.norm(x);
  return method ? x.norm(o) : torch.norm(x, o);
}

function varLike(name: 'var' | 'std', fn: typeof torch.var): OpInfo {
  return {
    name,
    call: (i, k) => withOptions(VAR_KW, fn)(tensorArg(i[0], name), k),
    variants: { method: true, out: true },
    dtypes: FLOAT_DTYPES,
    samples: VAR_SAMPLES,
    errorInputs: [
      notTensor(name, (x) => fn(x), 'overloads'),
      dimOutOfRange((x, d) => fn(x, { dim: d })),
      repeatedDim((x, dims) => fn(x, { dim: dims })),
      {
        name: 'both unbiased and correction',
        make: (d) => fn(t(d, [1.5, 2.5]), { unbiased: true, correction: 0 }),
        error: TorchError,
        match: new RegExp(`${name}\\(\\): Cannot specify both unbiased and correction`),
      },
    ],
  };
}

function varMeanLike(name: 'varMean' | 'stdMean', fn: typeof torch.varMean): OpInfo {
  const pyName = name === 'varMean' ? 'var_mean' : 'std_mean';
  return {
    name,
    errorNames: [pyName],
    call: (i, k) => withOptions(VAR_MEAN_KW, fn)(tensorArg(i[0], name), k),
    variants: {},
    dtypes: FLOAT_DTYPES,
    samples: VAR_MEAN_SAMPLES,
    errorInputs: [notTensor(pyName, (x) => fn(x), 'overloads')],
  };
}

const cumExtremum = (name: 'cummax' | 'cummin'): OpInfo => ({
  name,
  call: (i, k) => torch[name](tensorArg(i[0], name), CUM_EXTREMUM_KW(k)),
  variants: { method: true, out: true },
  dtypes: ALL_DTYPES,
  samples: CUM_EXTREMUM_SAMPLES,
  errorInputs: [notTensor(name, (x) => torch[name](x, 0), 'position'), dimOutOfRange((x, d) => torch[name](x, d))],
  pytorch2x: { float16: HALF_2X(`${name}_cpu`) },
});

function scan(name: 'cumsum' | 'cumprod', samples: readonly string[]): OpInfo {
  const fn = torch[name];
  return {
    name,
    call: (i, k) => fn(tensorArg(i[0], name), SCAN_KW(k)),
    variants: { method: true, inplace: true, out: true },
    dtypes: ALL_DTYPES,
    samples,
    errorNames: [name, `${name}_`],
    errorInputs: [
      notTensor(name, (x) => fn(x, 0), 'position'),
      dimOutOfRange((x, d) => fn(x, d)),
      {
        name: 'a bool result',
        make: (d) => fn(t(d, [true, false]), { dim: 0, dtype: 'bool' }),
        error: DTypeError,
        match: new RegExp(`${name}: "${name}_out_cpu" not implemented for 'Bool'`),
      },
    ],
    pytorch2x: { float16: HALF_2X(`${name}_out_cpu`) },
  };
}

export const STATS_OPS: readonly OpInfo[] = [
  varLike('var', torch.var),
  varLike('std', torch.std),
  varMeanLike('varMean', torch.varMean),
  varMeanLike('stdMean', torch.stdMean),
  {
    name: 'norm',
    errorNames: ['norm', 'linalg.vector_norm'],
    call: (i, k) => callNorm(tensorArg(i[0], 'norm'), k, false),
    variants: { method: true, out: true },
    forms: { method: (i: readonly OpInput[], k: Kwargs) => callNorm(tensorArg(i[0], 'norm'), k, true) },
    dtypes: FLOAT_DTYPES,
    samples: NORM_SAMPLES,
    pytorch2x: { float16: FLOAT_ACC_2X('the |x|^p terms of a Half norm'), bfloat16: FLOAT_ACC_2X('the |x|^p terms of a BFloat16 norm') },
    errorInputs: [
      notTensor('norm', (x) => torch.norm(x), 'overloads'),
      dimOutOfRange((x, d) => torch.norm(x, 2, d)),
      {
        name: "the nuclear norm ('nuc')",
        make: (d) => torch.norm(t(d, [[1.5, 2.5], [1, 2]]), 'nuc'),
        error: TorchError,
        match: /norm\(\): the nuclear norm \('nuc'\)/,
      },
      {
        name: 'an integral dtype= for the result',
        make: (d) => torch.norm(t(d, [1.5, 2.5]), { dtype: 'int32' }),
        error: DTypeError,
        match: /linalg\.vector_norm: dtype should be floating point or complex. Got Int/,
      },
    ],
  },
  {
    name: 'countNonzero',
    errorNames: ['count_nonzero'],
    call: (i, k) => withOptions(COUNT_KW, torch.countNonzero)(tensorArg(i[0], 'countNonzero'), k),
    variants: { method: true },
    dtypes: ALL_DTYPES,
    samples: COUNT_SAMPLES,
    errorInputs: [
      notTensor('count_nonzero', (x) => torch.countNonzero(x), 'position'),
      dimOutOfRange((x, d) => torch.countNonzero(x, d)),
      repeatedDim((x, dims) => torch.countNonzero(x, dims)),
    ],
  },
  {
    name: 'median',
    // over all elements one tensor, without out=; along a dim (values, indices), by keyword
    call: (i, k) => {
      const x = tensorArg(i[0], 'median');
      const { dim, ...o } = MEDIAN_KW(k);
      if (dim !== undefined) return torch.median(x, { ...o, dim });
      if (Object.keys(o).length) throw new Error(`median: the OpInfo case gives ${Object.keys(o).join(', ')} without a dim`);
      return torch.median(x);
    },
    variants: { method: true, out: 'tuple' },
    dtypes: NO_BOOL,
    samples: MEDIAN_SAMPLES,
    errorInputs: [notTensor('median', (x) => torch.median(x), 'overloads'), dimOutOfRange((x, d) => torch.median(x, d))],
    pytorch2x: { float16: HALF_2X('median_cpu') },
  },
  {
    name: 'mode',
    call: (i, k) => withOptions(MODE_KW, torch.mode)(tensorArg(i[0], 'mode'), k),
    variants: { method: true, out: true },
    dtypes: ALL_DTYPES,
    samples: MODE_SAMPLES,
    errorInputs: [notTensor('mode', (x) => torch.mode(x), 'position'), dimOutOfRange((x, d) => torch.mode(x, d))],
  },
  scan('cumsum', SCAN_SAMPLES),
  scan('cumprod', CUMPROD_SAMPLES),
  cumExtremum('cummax'),
  cumExtremum('cummin'),
];
