import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, goldenSamples, HALF_2X, NO_BOOL, operand, rowDtypes, rowErrorDtype, t, tensorArg } from './common';
import { oneOf, options, outOnly, tensor } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpInput } from './types';
import { dispatcherName, UNARY_TABLE, UNARY_TABLE_NAMES, type UnaryRow, type UnaryTableName } from '@torch-ts/core';
import { loadOpGoldens } from '../goldens';
import { callMethod, untyped } from './untyped';

type Scalar = number | boolean | bigint;
type UnaryFn = (self: Tensor, options?: { out?: Tensor | null }) => Tensor;

const other = operand;

// Sample ids written by scripts/goldens/ops_pointwise.py.
const BINARY_SAMPLES = ['same-shape', 'broadcast', 'broadcast-0dim', '0dim-0dim', '0dim-tensor', 'empty'];
const SCALAR_SAMPLES = ['scalar-int', 'scalar-float', 'scalar-negative-int'];
const DIV_SAMPLES = ['signs', 'divide-by-zero'];

/** Errors every binary op shares: shapes that do not broadcast, in-place into a smaller tensor. */
function binaryErrors(name: string, fn: (a: Tensor, b: Tensor) => Tensor, untypedFn: (...args: unknown[]) => unknown, inplace: string | null, nonTensor = /must be Tensor or Number, not string/): ErrorInput[] {
  const errors: ErrorInput[] = [
    {
      name: 'shapes that do not broadcast',
      make: (d) => fn(t(d, [[1, 2, 3], [4, 5, 6]]), t(d, [1, 2, 3, 4])),
      error: ShapeError,
      match: /size of tensor a \(3\) must match the size of tensor b \(4\)|\[2, 3\].*\[4\]/,
    },
    {
      name: 'a non-tensor operand',
      make: (d) => untypedFn(t(d, [1, 2]), 'two'),
      error: TorchError,
      match: nonTensor,
    },
  ];
  if (inplace) {
    errors.push({
      name: 'in-place into a tensor smaller than the broadcast shape',
      make: (d) => callMethod(t(d, [1.5, 2]), inplace, [t(d, [[1.5, 2], [3, 4]])], name),
      error: ShapeError,
      match: /output with shape \[2\] doesn't match the broadcast shape \[2, 2\]/,
    });
  }
  return errors;
}

/**
 * O: the options of `fn`, read from the case's kwargs by `kwargs`; B: its second operand,
 * read from the sample by `operand` (a tensor or a JS scalar, or a tensor only).
 */
interface BinarySpec<O, B> {
  readonly name: string;
  readonly fn: (self: Tensor, other: NoInfer<B>, options?: NoInfer<O>) => Tensor;
  readonly kwargs: (k: Kwargs) => O;
  readonly operand: (x: OpInput | undefined, op: string) => B;
  readonly methodName?: string;
  readonly errorNames?: readonly string[];
  readonly inplace: boolean;
  readonly scalars?: boolean;
  readonly dtypes: readonly DType[];
  readonly samples: readonly string[];
  /** The options of the error inputs' calls (div.trunc's rounding mode). */
  readonly errorKwargs?: Kwargs;
  readonly errorInputs?: readonly ErrorInput[];
  /** The message of a non-tensor operand, where it is not the common one (an op bound over overloads). */
  readonly nonTensorMatch?: RegExp;
  readonly xfail?: Readonly<Record<string, string>>;
}

function binary<O, B extends Tensor | Scalar = Tensor | Scalar>(s: BinarySpec<O, B>): OpInfo {
  const method = s.methodName ?? s.name;
  const read = s.operand;
  // Cases carry their kwargs (`roundingMode` for div.trunc) in the goldens.
  const call = (i: readonly OpInput[], k: Kwargs) => s.fn(tensorArg(i[0], s.name), read(i[1], s.name), s.kwargs(k));
  const errorKwargs = s.errorKwargs;
  return {
    name: s.name,
    methodName: s.methodName,
    errorNames: s.errorNames,
    call,
    variants: { method: true, inplace: s.inplace, out: true },
    dtypes: s.dtypes,
    samples: [...BINARY_SAMPLES, ...(s.scalars === false ? [] : SCALAR_SAMPLES), 'promote', ...s.samples],
    errorInputs: [
      ...binaryErrors(
        s.name,
        (a, b) => (errorKwargs ? s.fn(a, read(b, s.name), s.kwargs(errorKwargs)) : s.fn(a, read(b, s.name))),
        (...args) => (errorKwargs ? untyped(s.fn)(...args, s.kwargs(errorKwargs)) : untyped(s.fn)(...args)),
        s.inplace ? `${method}_` : null,
        s.nonTensorMatch,
      ),
      ...(s.errorInputs ?? []),
    ],
    xfail: s.xfail,
  };
}

const ROUNDING_KW = options({ roundingMode: oneOf('trunc', 'floor'), out: tensor });

const BINARY_OPS: OpInfo[] = [
  binary({
    name: 'div.trunc',
    methodName: 'div',
    fn: torch.div,
    kwargs: ROUNDING_KW,
    operand: other,
    inplace: true,
    dtypes: NO_BOOL,
    samples: DIV_SAMPLES,
    errorKwargs: { roundingMode: 'trunc' },
  }),
  binary({
    name: 'div.floor',
    methodName: 'div',
    fn: torch.div,
    kwargs: ROUNDING_KW,
    operand: other,
    inplace: true,
    dtypes: NO_BOOL,
    samples: DIV_SAMPLES,
    errorKwargs: { roundingMode: 'floor' },
  }),
  // trueDivide / floorDivide are div with a mode: their messages name div.
  binary({ name: 'trueDivide', errorNames: ['div', 'trueDivide', 'true_divide'], fn: torch.trueDivide, kwargs: outOnly, operand: other, inplace: true, dtypes: ALL_DTYPES, samples: DIV_SAMPLES }),
  binary({
    name: 'floorDivide',
    errorNames: ['div', 'floorDivide', 'floor_divide'],
    fn: torch.floorDivide,
    kwargs: outOnly,
    operand: other,
    inplace: true,
    dtypes: NO_BOOL,
    samples: DIV_SAMPLES,
    xfail: {
      'forward@same-shape/float32':
        "deviation (not a bug): 3e38 // 0.5 overflows; torch-ts gives inf as PyTorch's scalar loop does, PyTorch 1.13's vectorized loop gives nan (Sleef fmodf returns nan for that quotient)",
    },
  }),
];

const UNARY_SAMPLES = ['edge', 'random', '0dim', 'empty'];
/** Tighter than the default: erf/erfc agree with glibc to 2 ulp, erfinv (two Newton steps on erf) to ~20. */
const LOG1P_HUGE =
  "deviation (not a bug): log1p(3e38) is 88.6; torch-ts gives it as PyTorch's scalar loop (std::log1p) does, PyTorch 1.13's vectorized float32 loop gives inf (SLEEF's log1pf returns inf above 1e38)";
const ERF_F64 = { float64: { rtol: 1e-14, atol: 1e-300 } } as const;

interface UnaryExtras {
  /** The golden samples, where they are not UNARY_SAMPLES. */
  readonly samples?: readonly string[];
  readonly tolerance?: OpInfo['tolerance'];
  /** The dispatcher's name, where it is not `name` (`logical_not`): the binder's messages give it. */
  readonly aten?: string;
  readonly errorNames?: readonly string[];
  /** The dtype of the error inputs' tensors, where the op does not accept float32. */
  readonly errorDtype?: DType;
  readonly xfail?: OpInfo['xfail'];
}

function unary(name: string, fn: UnaryFn, dtypes: readonly DType[], half2x: string | null, extras: UnaryExtras = {}): OpInfo {
  const aten = extras.aten ?? name;
  const dtype = extras.errorDtype;
  return {
    name,
    errorNames: extras.errorNames ?? (extras.aten ? [extras.aten] : undefined),
    tolerance: extras.tolerance,
    call: (i, k) => fn(tensorArg(i[0], name), outOnly(k)),
    variants: { method: true, inplace: true, out: true },
    dtypes,
    samples: extras.samples ?? UNARY_SAMPLES,
    errorInputs: [
      {
        name: 'a JS array instead of a tensor',
        make: () => untyped(fn)([1, 2]),
        error: TorchError,
        match: new RegExp(`${aten}\\(\\): argument 'input' \\(position 1\\) must be Tensor, not Array`),
      },
      {
        name: 'an out= tensor of the wrong shape',
        make: (d) => fn(dtype ? t(d, [1, 2], dtype) : t(d, [0.5, 1.5], 'float32'), { out: torch.empty([3], { device: d, dtype: dtype ?? null }) }),
        error: ShapeError,
        match: /output with shape \[3\] doesn't match the broadcast shape \[2\]/,
      },
    ],
    pytorch2x: half2x ? { float16: HALF_2X(half2x) } : undefined,
    xfail: extras.xfail,
  };
}

/**
 * The OpInfo entries of the op table's unary rows (Note [The op table] in core), derived
 * from each row: its dtypes from what the row rejects, the names in its messages, the samples
 * of its goldens, and PyTorch 2.x's half kernel where 1.13's goldens were upcast. UNARY_EXTRAS
 * holds what a row cannot say (tolerances and documented deviations).
 */
const UNARY_EXTRAS: Readonly<Record<string, UnaryExtras>> = {
  log1p: {
    xfail: {
      'forward@edge/float32': LOG1P_HUGE,
      'forward@edge/bfloat16': LOG1P_HUGE,
    },
  },
  // Note [erf, erfc and erfinv in doubles]: float64 is checked to a few ulp, not assert_close's 1e-7
  erf: { tolerance: ERF_F64 },
  erfc: { tolerance: ERF_F64 },
  erfinv: { tolerance: ERF_F64 },
};

function tableUnary(name: UnaryTableName, row: UnaryRow): OpInfo {
  const cases = loadOpGoldens().get(name) ?? [];
  const upcast = cases.some((c) => c.dtype === 'float16' && c.reference === 'upcast');
  const upcastBf16 = cases.some((c) => c.dtype === 'bfloat16' && c.reference === 'upcast');
  const aten = dispatcherName(name);
  const extras: UnaryExtras = {
    ...UNARY_EXTRAS[name],
    samples: goldenSamples(name),
    aten: aten === name ? undefined : aten,
    errorDtype: row.rejects?.floating ? rowErrorDtype(row.rejects) : undefined,
  };
  const fn: UnaryFn = torch[name];
  const info = unary(name, fn, rowDtypes(row.rejects), upcast ? (row.kernel ?? `${name}_cpu`) : null, extras);
  if (!upcastBf16) return info;
  return { ...info, pytorch2x: { ...info.pytorch2x, bfloat16: HALF_2X(row.kernel ?? `${name}_cpu`).replace("'Half'", "'BFloat16'") } };
}

const UNARY_OPS: OpInfo[] = [
  ...UNARY_TABLE_NAMES.map((name) => tableUnary(name, UNARY_TABLE[name])),
  // pow(x, 2): its errors come from pow, and bool squares to int64 (so bool's square_ throws)
  unary('square', torch.square, ALL_DTYPES, null, { errorNames: ['square', 'pow', 'square_', 'pow_'] }),
];

const WHERE: OpInfo = {
  name: 'where',
  // goldens: [condition, input, other]
  call: (i, k) => torch.where(tensorArg(i[0], 'where'), other(i[1], 'where'), other(i[2], 'where'), outOnly(k)),
  variants: { method: true, out: true },
  forms: {
    method: (i) => tensorArg(i[1], 'where').where(tensorArg(i[0], 'where'), other(i[2], 'where')),
  },
  dtypes: ALL_DTYPES,
  samples: ['same-shape', 'broadcast', 'scalar-int', 'scalar-float', 'empty', 'promote'],
  errorInputs: [
    {
      name: 'a condition that is not bool',
      make: (d) => torch.where(t(d, [1, 0]), t(d, [1, 2]), t(d, [3, 4])),
      error: DTypeError,
      match: /where: expected condition to be a boolean tensor, but got a tensor with dtype Long/,
    },
    {
      name: 'shapes that do not broadcast',
      make: (d) => torch.where(t(d, [true, false]), t(d, [1, 2, 3]), t(d, [3, 4])),
      error: ShapeError,
      match: /where/,
    },
  ],
};

export const POINTWISE_OPS: readonly OpInfo[] = [...BINARY_OPS, ...UNARY_OPS, WHERE];
