import * as torch from '@torch-ts/torch';
import { TorchError, type Tensor } from '@torch-ts/torch';
import { goldenSamples, t, tensorArg } from './common';
import { bool, either, ints, num, oneOf, options, tensor } from './kwargs';
import type { Kwargs, OpInfo, OpInput } from './types';
import { untyped } from './untyped';

/**
 * The OpInfo entries of bincount, histc and histogram (goldens/ops_histograms.json, written by
 * scripts/goldens/ops_histograms.py): composites in core (Note [bincount, histc and histogram
 * are composites]). bincount's length depends on the data, so on an async-read device the
 * runner calls bincountAsync.
 */

const BINCOUNT_KW = options({ minlength: num });
/** min and max travel as numbers, or as "inf" (JSON has no Infinity). */
const bound = either(num, oneOf('inf'));
const HISTC_KW = options({ bins: num, min: bound, max: bound, out: tensor });
const finite = (x: number | 'inf' | undefined) => (x === 'inf' ? Infinity : x);
const HISTOGRAM_KW = options({ bins: num, range: ints, density: bool });

const weightsOf = (i: readonly OpInput[], at: number, op: string): Tensor | undefined => (i.length > at ? tensorArg(i[at], op) : undefined);

/** torch.histogram, or x.histogram with `method` (a count of bins in the kwargs, or a Tensor of edges as the second input). */
function histogramCall(i: readonly OpInput[], k: Kwargs, method = false): readonly Tensor[] {
  const { bins, range, density } = HISTOGRAM_KW(k);
  const x = tensorArg(i[0], 'histogram');
  if (bins !== undefined) {
    const options = { range, weight: weightsOf(i, 1, 'histogram'), density };
    return method ? x.histogram(bins, options) : torch.histogram(x, bins, options);
  }
  const edges = tensorArg(i[1], 'histogram');
  const options = { weight: weightsOf(i, 2, 'histogram'), density };
  return method ? x.histogram(edges, options) : torch.histogram(x, edges, options);
}

export const HISTOGRAM_OPS: readonly OpInfo[] = [
  {
    name: 'bincount',
    call: (i, k) => torch.bincount(tensorArg(i[0], 'bincount'), weightsOf(i, 1, 'bincount'), BINCOUNT_KW(k).minlength),
    variants: { method: true },
    forms: {
      async: (i, k) => torch.bincountAsync(tensorArg(i[0], 'bincount'), weightsOf(i, 1, 'bincount'), BINCOUNT_KW(k).minlength),
      asyncMethod: (i, k) => tensorArg(i[0], 'bincount').bincountAsync(weightsOf(i, 1, 'bincount'), BINCOUNT_KW(k).minlength),
    },
    dtypes: ['int8', 'uint8', 'int16', 'int32', 'int64'],
    samples: goldenSamples('bincount'),
    errorInputs: [
      {
        name: 'a float tensor as minlength',
        make: (d) => torch.bincount(t(d, [1, 2]), { minlength: 1.5 }),
        error: TorchError,
        match: /bincount\(\): argument 'minlength' must be int, not number/,
      },
    ],
  },
  {
    name: 'histc',
    errorNames: ['histc', 'torch.histc', 'torch.histogram'],
    call: (i, k) => {
      const { min, max, ...rest } = HISTC_KW(k);
      return torch.histc(tensorArg(i[0], 'histc'), { ...rest, min: finite(min), max: finite(max) });
    },
    variants: { method: true, out: true },
    dtypes: ['float32', 'float64', 'bfloat16'],
    samples: goldenSamples('histc'),
    errorInputs: [
      {
        name: 'a tensor as min',
        make: (d) => untyped(torch.histc)(t(d, [1.5, 2.5]), 3, t(d, [0.5])),
        error: TorchError,
        match: /histc\(\): argument 'min' \(position 3\) must be Number, not Tensor/,
      },
    ],
  },
  {
    name: 'histogram',
    errorNames: ['histogram', 'torch.histogram', 'torch.histogramdd'],
    call: (i, k) => histogramCall(i, k),
    variants: { method: true },
    forms: { method: (i, k) => histogramCall(i, k, true) },
    dtypes: ['float32', 'float64'],
    samples: goldenSamples('histogram'),
    errorInputs: [
      {
        name: 'out=',
        make: (d) => untyped(torch.histogram)(t(d, [1.5, 2.5]), 2, { out: [t(d, [0, 0]), t(d, [0, 0, 0])] }),
        error: TorchError,
        match: /histogram\(\): argument 'out' is not supported by torch-ts yet/,
      },
      {
        name: 'a 2-dim range',
        make: (d) => untyped(torch.histogram)(t(d, [1.5, 2.5]), 2, { range: [[0, 1]] }),
        error: TorchError,
        match: /histogram\(\) received an invalid combination of arguments/,
      },
    ],
  },
];
