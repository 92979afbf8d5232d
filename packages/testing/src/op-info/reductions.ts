import * as torch from '@torch-ts/torch';
import { DTypeError, IndexError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_ACC_2X, FLOAT_DTYPES, NO_BOOL, t, tensorArg } from './common';
import { bool, dtype, intOrInts, num, options, tensor, tensorOrPair, withOptions } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpResult } from './types';
import { untyped } from './untyped';

/** A reduction as the error inputs call it: over every element, or over `dim`. */
interface DimReduction {
  (self: Tensor): unknown;
  (self: Tensor, options: { dim: number }): unknown;
}

// Sample ids written by scripts/goldens/ops_reduction.py.
const COMMON = [
  'all',
  'all-random',
  'dim0',
  'dim1',
  'dim-neg',
  'keepdim',
  '0dim',
  '0dim-dim',
  'empty-kept-dim',
  'empty-reduced-dim',
  'empty-all',
  'nan',
];
const DIM_LISTS = ['dims', 'dims-keepdim', 'dims-all'];
const TIES = ['ties', 'ties-dim0'];

/** `notTensor`: the message for a JS array as input (ops bound over overloads word it as PyTorch's parser does). */
function dimErrors(name: string, fn: DimReduction, notTensor = new RegExp(`${name}\\(\\): argument 'input' \\(position 1\\) must be Tensor, not Array`)): ErrorInput[] {
  return [
    {
      name: 'a dim out of range',
      make: (d) => fn(t(d, [[1, 2], [3, 4]], 'float32'), { dim: 2 }),
      error: IndexError,
      match: /Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)/,
    },
    {
      name: 'a JS array instead of a tensor',
      make: () => untyped(fn)([1, 2]),
      error: TorchError,
      match: notTensor,
    },
  ];
}

const repeatedDim = (fn: (self: Tensor, options: { dim: number[] }) => unknown): ErrorInput => ({
  name: 'a dim repeated in the list',
  make: (d) => fn(t(d, [[1, 2], [3, 4]], 'float32'), { dim: [0, -2] }),
  error: TorchError,
  match: /dim 0 appears multiple times in the list of dims/,
});

const EMPTY_BOOL =
  "deviation (not a bug): PyTorch returns an empty result for an empty bool input because its dtype check lives in the kernel, which empty inputs skip; torch-ts rejects bool up front";

interface ReductionSpec {
  readonly name: string;
  /** The call with the case's kwargs (checked: Note [Checked kwargs]). */
  readonly call: (self: Tensor, k: Kwargs) => OpResult;
  readonly fn: DimReduction;
  readonly dtypes: readonly DType[];
  readonly samples: readonly string[];
  readonly errorInputs?: readonly ErrorInput[];
  readonly notTensorMatch?: RegExp;
  readonly pytorch2x?: OpInfo['pytorch2x'];
  readonly xfail?: OpInfo['xfail'];
}

function reduction(s: ReductionSpec): OpInfo {
  return {
    name: s.name,
    call: (i, k) => s.call(tensorArg(i[0], s.name), k),
    variants: { method: true, out: true },
    dtypes: s.dtypes,
    samples: s.samples,
    errorInputs: [...dimErrors(s.name, s.fn, s.notTensorMatch), ...(s.errorInputs ?? [])],
    pytorch2x: s.pytorch2x,
    xfail: s.xfail,
  };
}

const emptyWithoutDim = (name: string, fn: (self: Tensor) => unknown): ErrorInput => ({
  name: 'an empty input without a dim',
  make: (d) => fn(torch.zeros([0, 3], { device: d })),
  error: TorchError,
  match: new RegExp(`${name}\\(\\): Expected reduction dim to be specified for input.numel\\(\\) == 0`),
});

const REDUCE_KW = options({ dim: intOrInts, keepdim: bool, dtype, out: tensor });
const PROD_KW = options({ dim: num, keepdim: bool, dtype, out: tensor });
const KEEPDIM_KW = options({ dim: intOrInts, keepdim: bool, out: tensor });
const ARG_KW = options({ dim: num, keepdim: bool, out: tensor });
const EXTREMUM_KW = options({ dim: num, keepdim: bool, out: tensorOrPair });

/** max / min: (values, indices) along a dim, given by keyword as the goldens give it; one tensor over all elements. */
function extremumCall(name: 'max' | 'min') {
  const fn = torch[name];
  return (x: Tensor, k: Kwargs): OpResult => {
    const { dim, ...o } = EXTREMUM_KW(k);
    if (dim !== undefined) return fn(x, { ...o, dim });
    if (o.keepdim !== undefined) throw new Error(`${name}: the OpInfo case gives keepdim without a dim`);
    if (o.out === undefined) return fn(x);
    if (o.out instanceof torch.Tensor) return fn(x, { out: o.out });
    throw new Error(`${name}: the OpInfo case gives a pair of outs without a dim`);
  };
}

export const REDUCTION_OPS: readonly OpInfo[] = [
  reduction({
    name: 'sum',
    call: withOptions(REDUCE_KW, torch.sum),
    fn: torch.sum,
    dtypes: ALL_DTYPES,
    samples: [...COMMON, ...DIM_LISTS, 'dtype-float64', 'dtype-same'],
    errorInputs: [
      repeatedDim(torch.sum),
      {
        name: 'a dtype that is not one',
        make: (d) => untyped(torch.sum)(t(d, [1, 2]), { dtype: 'float128' }),
        error: DTypeError,
        match: /sum: expected a dtype/,
      },
    ],
    pytorch2x: { float16: FLOAT_ACC_2X('a Half sum over several dims'), bfloat16: FLOAT_ACC_2X('a BFloat16 sum over several dims') },
  }),
  reduction({
    name: 'mean',
    call: withOptions(REDUCE_KW, torch.mean),
    fn: torch.mean,
    dtypes: FLOAT_DTYPES,
    samples: [...COMMON, ...DIM_LISTS, 'dtype-float64'],
    errorInputs: [repeatedDim(torch.mean)],
    // 2.x: "BF16/FP16 mean should be computed via cast_fp32 -> sum -> div -> cast_bf16_or_fp16"
    pytorch2x: { float16: FLOAT_ACC_2X('a Half mean (sum and division)'), bfloat16: FLOAT_ACC_2X('a BFloat16 mean (sum and division)') },
  }),
  reduction({
    name: 'prod',
    call: withOptions(PROD_KW, torch.prod),
    fn: torch.prod,
    dtypes: ALL_DTYPES,
    samples: [...COMMON, 'dtype-float64', 'overflow'],
    errorInputs: [
      {
        name: 'a list of dims',
        make: (d) => untyped(torch.prod)(t(d, [[1, 2], [3, 4]]), [0, 1]),
        error: TorchError,
        match: /prod\(\): argument 'dim' \(position 2\) must be int, not Array/,
      },
    ],
    pytorch2x: {
      float16: `PyTorch 2.x has the Half CPU prod that 1.13 lacks ("prod_cpu" not implemented for 'Half'); goldens computed on float32 copies`,
      bfloat16: `PyTorch 2.x has the BFloat16 CPU prod that 1.13 lacks ("prod_cpu" not implemented for 'BFloat16'); goldens computed on float32 copies`,
    },
  }),
  ...(['amax', 'amin'] as const).map((name) =>
    reduction({
      name,
      call: withOptions(KEEPDIM_KW, torch[name]),
      fn: torch[name],
      dtypes: ALL_DTYPES,
      samples: [...COMMON, ...TIES, ...DIM_LISTS],
      errorInputs: [emptyWithoutDim(name, torch[name]), repeatedDim(torch[name])],
    }),
  ),
  ...(['max', 'min'] as const).map((name) =>
    reduction({
      name,
      call: extremumCall(name),
      fn: torch[name],
      dtypes: ALL_DTYPES,
      samples: [...COMMON, ...TIES],
      // (three overloads: all elements, a dim, elementwise with another tensor)
      notTensorMatch: new RegExp(`${name}\\(\\) received an invalid combination of arguments - got \\(Array\\), but expected one of:`),
      errorInputs: [
        emptyWithoutDim(name, torch[name]),
        {
          name: 'an empty dim to reduce',
          make: (d) => torch[name](torch.zeros([0, 3], { device: d }), 0),
          error: IndexError,
          match: new RegExp(`${name}\\(\\): Expected reduction dim 0 to have non-zero size`),
        },
      ],
    }),
  ),
  ...(['argmax', 'argmin'] as const).map((name) =>
    reduction({
      name,
      call: withOptions(ARG_KW, torch[name]),
      fn: torch[name],
      dtypes: NO_BOOL,
      samples: [...COMMON, ...TIES, 'all-keepdim'],
      errorInputs: [emptyWithoutDim(name, torch[name])],
      xfail: { 'empty-kept-dim/bool': EMPTY_BOOL },
    }),
  ),
];
