import * as torch from '@torch-ts/torch';
import { DTypeError, IndexError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { makeBinder, REDUCTION_TABLE, REDUCTION_TABLE_NAMES, type ReductionRow, type ReductionTableName } from '@torch-ts/core';
import { ALL_DTYPES, FLOAT_ACC_2X, FLOAT_DTYPES, goldenSamples, HALF_2X, rowDtypes, t, tensorArg } from './common';
import { bool, dtype, intOrInts, num, options, required, tensor, tensorOrPair, type Check } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpResult } from './types';
import { tensorResult, untyped } from './untyped';

/** A reduction as the error inputs call it: over every element, or over `dim`. */
interface DimReduction {
  (self: Tensor): unknown;
  (self: Tensor, options: { dim: number }): unknown;
}

// Sample ids written by scripts/goldens/ops_reduction.py (max and min's; the op table's rows take all of theirs).
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
}

function reduction(s: ReductionSpec): OpInfo {
  return {
    name: s.name,
    call: (i, k) => s.call(tensorArg(i[0], s.name), k),
    variants: { method: true, out: true },
    dtypes: s.dtypes,
    samples: s.samples,
    errorInputs: [...dimErrors(s.name, s.fn, s.notTensorMatch), ...(s.errorInputs ?? [])],
  };
}

const emptyWithoutDim = (name: string, fn: (self: Tensor) => unknown): ErrorInput => ({
  name: 'an empty input without a dim',
  make: (d) => fn(torch.zeros([0, 3], { device: d })),
  error: TorchError,
  match: new RegExp(`${name}\\(\\): Expected reduction dim to be specified for input.numel\\(\\) == 0`),
});

const EXTREMUM_KW = options({ dim: num, keepdim: bool, out: tensorOrPair });

// ---- the op table's reduction rows ----

/** What a row cannot say: PyTorch 2.x's kernels that 1.13's goldens were upcast for, and documented deviations. */
const REDUCTION_EXTRAS: Readonly<Partial<Record<ReductionTableName, Pick<OpInfo, 'pytorch2x' | 'xfail'>>>> = {
  sum: { pytorch2x: { float16: FLOAT_ACC_2X('a Half sum over several dims'), bfloat16: FLOAT_ACC_2X('a BFloat16 sum over several dims') } },
  // 2.x: "BF16/FP16 mean should be computed via cast_fp32 -> sum -> div -> cast_bf16_or_fp16"
  mean: { pytorch2x: { float16: FLOAT_ACC_2X('a Half mean (sum and division)'), bfloat16: FLOAT_ACC_2X('a BFloat16 mean (sum and division)') } },
  prod: {
    pytorch2x: {
      float16: `PyTorch 2.x has the Half CPU prod that 1.13 lacks ("prod_cpu" not implemented for 'Half'); goldens computed on float32 copies`,
      bfloat16: `PyTorch 2.x has the BFloat16 CPU prod that 1.13 lacks ("prod_cpu" not implemented for 'BFloat16'); goldens computed on float32 copies`,
    },
  },
  argmax: { xfail: { 'empty-kept-dim/bool': EMPTY_BOOL } },
  argmin: { xfail: { 'empty-kept-dim/bool': EMPTY_BOOL } },
  logsumexp: { pytorch2x: { float16: HALF_2X('logsumexp') } },
};

/** The check of a case's kwarg for an argument of schema type `type` (int[1]: one int or a list). */
function kwargCheck(op: string, type: string): Check<unknown> {
  const base = type.endsWith('?') ? type.slice(0, -1) : type;
  if (base.startsWith('int[')) return intOrInts;
  if (base === 'int') return num;
  if (base === 'bool') return bool;
  if (base === 'ScalarType') return dtype;
  throw new Error(`${op}: no kwarg check for an argument of type ${type}`);
}

/**
 * The OpInfo entry of a reduction row (Note [The op table] in core), derived from the row: the
 * keywords its cases may set (each checked as its schema type says, a required one required),
 * its dtypes (floating only for a `floating` rule, no bool where its kernel rejects it), the
 * samples of its goldens, and the error inputs its arguments call for: a dim out of range and a
 * JS array for every row, a repeated dim for a dim list, a list for one int dim, a dtype that is
 * not one for a `dtype`, a missing required dim, and an empty input without a dim for a row
 * without an identity. Every row's function takes different options, which no one compile-time
 * type pairs with the derived reader, so the calls go through `untyped`; the facade's binder
 * checks each keyword again.
 */
function tableReduction(name: ReductionTableName): OpInfo {
  const row: ReductionRow = REDUCTION_TABLE[name];
  const fn = untyped(torch[name]);
  const binder = makeBinder(name, `${name}(${row.args}) -> Tensor`);
  const args = binder.schema.args;
  const schema: Record<string, Check<unknown>> = { out: tensor };
  args.forEach((a, i) => {
    const c = kwargCheck(name, a.type);
    schema[binder.keywords[i]] = a.defaultValue === undefined && !a.type.endsWith('?') ? required(c) : c;
  });
  const read = options(schema);
  const call = (x: Tensor, k: Kwargs) => {
    const o = read(k);
    return tensorResult(Object.keys(o).length ? fn(x, o) : fn(x), name);
  };
  const dim = args.find((a) => a.name === 'dim');
  if (!dim) throw new Error(`${name}: the row has no dim`);
  // (the required arguments, given positionally: logsumexp's dim)
  const requiredArgs = args.filter((a) => a.defaultValue === undefined && !a.type.endsWith('?')).map(() => 0);
  const x2 = (d: torch.DeviceLike) => t(d, [[1, 2], [3, 4]], 'float32');
  const errors: ErrorInput[] = [
    {
      name: 'a dim out of range',
      make: (d) => fn(x2(d), { dim: 2 }),
      error: IndexError,
      match: /Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)/,
    },
    {
      name: 'a JS array instead of a tensor',
      make: () => fn([1, 2], ...requiredArgs),
      error: TorchError,
      match: new RegExp(`${name}\\(\\): argument 'input' \\(position 1\\) must be Tensor, not Array`),
    },
  ];
  if (row.identity === false || row.reduces === 'index') errors.push(emptyWithoutDim(name, (x) => fn(x)));
  if (dim.type.startsWith('int[')) {
    errors.push({
      name: 'a dim repeated in the list',
      make: (d) => fn(x2(d), { dim: [0, -2] }),
      error: TorchError,
      match: /dim 0 appears multiple times in the list of dims/,
    });
  } else {
    errors.push({
      name: 'a list of dims',
      make: (d) => fn(t(d, [[1, 2], [3, 4]]), [0, 1]),
      error: TorchError,
      match: new RegExp(`${name}\\(\\): argument 'dim' \\(position 2\\) must be int, not Array`),
    });
  }
  if (args.some((a) => a.name === 'dtype')) {
    errors.push({
      name: 'a dtype that is not one',
      make: (d) => fn(t(d, [1, 2]), { dtype: 'float128' }),
      error: DTypeError,
      match: new RegExp(`${name}: expected a dtype`),
    });
  }
  if (requiredArgs.length > 0) {
    errors.push({
      name: 'no dim',
      make: (d) => fn(t(d, [1.5, 2.5]), undefined),
      error: TorchError,
      match: new RegExp(`${name}\\(\\) missing 1 required positional argument: "dim"`),
    });
  }
  return {
    name,
    call: (i, k) => call(tensorArg(i[0], name), k),
    variants: { method: true, out: true },
    dtypes: row.rule === 'floating' ? FLOAT_DTYPES : rowDtypes(row.rejects),
    samples: goldenSamples(name),
    errorInputs: errors,
    ...REDUCTION_EXTRAS[name],
  };
}

/** max / min: (values, indices) along a dim, given by keyword as the goldens give it; one tensor over all elements. */
function extremumCall(name: 'max' | 'min') {
  const fn = torch[name];
  return (x: Tensor, k: Kwargs): OpResult => {
    const { dim, ...o } = EXTREMUM_KW(k);
    if (dim !== undefined) {
      const { out, ...rest } = o;
      if (out instanceof torch.Tensor) throw new Error(`${name}: the OpInfo case gives one out for a (values, indices) result`);
      return fn(x, { ...rest, dim, out });
    }
    if (o.keepdim !== undefined) throw new Error(`${name}: the OpInfo case gives keepdim without a dim`);
    if (o.out === undefined) return fn(x);
    if (o.out instanceof torch.Tensor) return fn(x, { out: o.out });
    throw new Error(`${name}: the OpInfo case gives a pair of outs without a dim`);
  };
}

export const REDUCTION_OPS: readonly OpInfo[] = [
  ...REDUCTION_TABLE_NAMES.map(tableReduction),
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
];
