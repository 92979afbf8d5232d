import * as torch from '@torch-ts/torch';
import { DTypeError, ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ALL_DTYPES, FLOAT_DTYPES, goldenSamples, HALF_2X, NO_BOOL, operand, reference2x, rowDtypes, rowErrorDtype, t, tensorArg } from './common';
import { check, num, oneOf, options, outOnly, tensor, type Check } from './kwargs';
import type { ErrorInput, Kwargs, OpInfo, OpInput } from './types';
import {
  BINARY_TABLE,
  BINARY_TABLE_NAMES,
  dispatcherName,
  makeBinder,
  TERNARY_TABLE,
  TERNARY_TABLE_NAMES,
  type BinaryRow,
  type BinaryTableName,
  type TernaryRow,
  type TernaryTableName,
} from '@torch-ts/core';
import { callMethod, tensorResult, untyped } from './untyped';

type Scalar = number | boolean | bigint;

interface BaseSpec {
  readonly name: string;
  readonly inplace: boolean;
  /** Whether Tensor has the method (not torch.special's rows). */
  readonly method?: boolean;
  readonly dtypes: readonly DType[];
  readonly samples: readonly string[];
  readonly errorNames?: readonly string[];
  /** The dtype of the error inputs' tensors (one the op accepts). */
  readonly errorDtype?: DType;
  readonly errorInputs?: readonly ErrorInput[];
  readonly pytorch2x?: OpInfo['pytorch2x'];
  readonly xfail?: OpInfo['xfail'];
  /** The message of a non-tensor operand where it is not the binder's (an op bound over overloads: pow). */
  readonly nonTensorMatch?: RegExp;
  /** The reader of a case's kwargs where the row has arguments (add's alpha): the call then goes through `untyped`. */
  readonly kwargs?: (k: Kwargs) => Readonly<Record<string, unknown>>;
}

/** B: the second operand, a tensor or a JS scalar where the op takes one (`scalarOther`), else a tensor. */
interface Spec<B extends Tensor | Scalar> extends BaseSpec {
  /** Whether `other` may be a JS scalar (the row's `scalarOther`): the binder's message names Number too. */
  readonly numbers: boolean;
  readonly fn: (self: Tensor, other: NoInfer<B>, options?: { out?: Tensor | null }) => Tensor;
  readonly operand: (x: OpInput | undefined, op: string) => B;
}

function binary<B extends Tensor | Scalar>(s: Spec<B>): OpInfo {
  const dtype = s.errorDtype ?? 'float32';
  const kwargs = s.kwargs;
  return {
    name: s.name,
    errorNames: s.errorNames,
    call: kwargs
      ? (i, k) => tensorResult(untyped(s.fn)(tensorArg(i[0], s.name), s.operand(i[1], s.name), kwargs(k)), s.name)
      : (i, k) => s.fn(tensorArg(i[0], s.name), s.operand(i[1], s.name), outOnly(k)),
    variants: { method: s.method !== false, inplace: s.inplace, out: true },
    dtypes: s.dtypes,
    samples: s.samples,
    errorInputs: [
      {
        name: 'shapes that do not broadcast',
        make: (d) => s.fn(t(d, [[1, 2, 3], [4, 5, 6]], dtype), s.operand(t(d, [1, 2, 3, 4], dtype), s.name)),
        error: ShapeError,
        match: /size of tensor a \(3\) must match the size of tensor b \(4\)|\[2, 3\].*\[4\]/,
      },
      {
        name: 'a non-tensor operand',
        make: (d) => untyped(s.fn)(t(d, [1, 2], dtype), 'two'),
        error: TorchError,
        match: s.nonTensorMatch ?? (s.numbers ? /must be Tensor or Number, not string/ : /must be Tensor, not string/),
      },
      ...(s.errorInputs ?? []),
    ],
    pytorch2x: s.pytorch2x,
    xfail: s.xfail,
  };
}

/**
 * int8 with a float16 operand computes in float16, where 1.13 has no atan2/hypot kernel; the
 * goldens' upcast covers only cases filed under float16, so this one keeps 1.13's error.
 */
const HALF_PROMOTE = (op: string) => ({
  'forward@promote:int8+float16': `deviation (not a bug): torch-ts computes ${op} in float16 as PyTorch 2.x does; the golden is 1.13's "${op}_cpu" not implemented for 'Half'`,
});

const IGAMMA_F32 =
  "deviation (not a bug): PyTorch 1.13's float32 igamma evaluates its large-a expansion in float32, 1.2e-5 off at a = 2e6, x = 2.001e6; torch-ts computes in doubles and rounds once";

/** PyTorch 2.x's half clamp kernel, which 1.13 lacks (clamp, clamp_min, clamp_max). */
const CLAMP_HALF = { float16: HALF_2X('clamp_scalar_cpu') } as const;

/**
 * The OpInfo entries of the op table's binary rows (Note [The op table] in core): the
 * function, how its second operand is read, dtypes, the in-place form and the names in
 * messages from each row, the samples from the goldens; documented deviations here.
 */
const BINARY_EXTRAS: Readonly<Partial<Record<BinaryTableName, Partial<Pick<BaseSpec, 'pytorch2x' | 'xfail' | 'errorInputs' | 'dtypes' | 'errorNames'>>>>> = {
  // (float64's golden of the same pair agrees with torch-ts)
  igamma: { xfail: { 'forward@values/float32': IGAMMA_F32 } },
  igammac: { xfail: { 'forward@values/float32': IGAMMA_F32 } },
  // 1.13 has no half or bfloat16 zeta kernel; 2.x has both
  specialZeta: { pytorch2x: { float16: HALF_2X('zeta_cpu'), bfloat16: HALF_2X('zeta_cpu').replace("'Half'", "'BFloat16'") }, xfail: HALF_PROMOTE('zeta') },
  // (bool: a number bound runs the clamp kernel, which PyTorch lacks for Bool; messages name
  // the in-place form too)
  clampMin: { dtypes: NO_BOOL, errorNames: ['clamp_min', 'clamp_min_', 'clampMin'], pytorch2x: CLAMP_HALF },
  clampMax: { dtypes: NO_BOOL, errorNames: ['clamp_max', 'clamp_max_', 'clampMax'], pytorch2x: CLAMP_HALF },
  add: {
    errorInputs: [
      {
        name: 'a float alpha with integral tensors',
        make: (d) => torch.add(t(d, [1, 2]), t(d, [3, 4]), { alpha: 0.5 }),
        error: DTypeError,
        match: /add: For integral input tensors, argument alpha must not be a floating point number/,
      },
      {
        name: 'a bool alpha with non-bool tensors',
        make: (d) => torch.add(t(d, [1, 2]), t(d, [3, 4]), { alpha: true }),
        error: DTypeError,
        match: /add: Boolean alpha only supported for Boolean results/,
      },
      {
        name: 'a float result written in place into an int tensor',
        make: (d) => t(d, [1, 2]).add_(2.5),
        error: DTypeError,
        match: /add_: result type Float can't be cast to the desired output type Long/,
      },
    ],
  },
  pow: {
    errorInputs: [
      {
        name: 'an integer tensor to a negative integer power',
        make: (d) => torch.pow(t(d, [1, 2]), -2),
        error: TorchError,
        match: /pow: Integers to negative integer powers are not allowed/,
      },
    ],
  },
  div: {
    errorInputs: [
      {
        name: 'an unknown rounding mode',
        make: (d) => untyped(torch.div)(t(d, [1, 2]), t(d, [1, 2]), { roundingMode: 'round' }),
        error: TorchError,
        match: /div: expected rounding_mode to be one of null, 'trunc', or 'floor' but found 'round'/,
      },
    ],
  },
  fmod: {
    xfail: {
      'forward@same-shape/float32':
        "deviation (not a bug): fmod(3e38, -0.5) is -0 exactly (C fmod, PyTorch's scalar loop); PyTorch 1.13's vectorized float32 loop gives nan (Sleef fmodf returns nan for that quotient)",
    },
  },
  atan2: { pytorch2x: { float16: HALF_2X('atan2_cpu') }, xfail: HALF_PROMOTE('atan2') },
  hypot: { pytorch2x: { float16: HALF_2X('hypot_cpu') }, xfail: HALF_PROMOTE('hypot') },
};

/** The rows whose `other` may be a JS scalar (PyTorch's Scalar overload: `scalarOther`). */
type ScalarRow = { [K in BinaryTableName]: (typeof BINARY_TABLE)[K] extends { readonly scalarOther: true } ? K : never }[BinaryTableName];

function takesScalar(name: BinaryTableName): name is ScalarRow {
  const row: BinaryRow = BINARY_TABLE[name];
  return row.scalarOther === true;
}

const str = check('a string', (v): v is string => typeof v === 'string');

/**
 * The reader of a case's kwargs for a row with arguments (Note [Checked kwargs]): the keyword
 * of each (a Scalar a number, a `str?` one of the row's choices) and `out`.
 */
function rowKwargs(aten: string, row: Pick<BinaryRow, 'args' | 'choices'>): BaseSpec['kwargs'] {
  if (!row.args) return undefined;
  const b = makeBinder(aten, `${aten}(${row.args}) -> Tensor`);
  const schema: Record<string, Check<unknown>> = { out: tensor };
  b.schema.args.forEach((a, i) => {
    const choices = row.choices?.[a.name];
    schema[b.keywords[i]] = a.type === 'str?' ? (choices ? oneOf(...choices) : str) : num;
  });
  return options(schema);
}

/** torch.special's rows, which torch.* lacks (Note [torch.special's rows] in core): their function is torch.special's. */
const SPECIAL_FUNCTIONS = {
  specialXlog1py: torch.special.xlog1py,
  specialZeta: torch.special.zeta,
  specialChebyshevPolynomialT: torch.special.chebyshevPolynomialT,
  specialChebyshevPolynomialU: torch.special.chebyshevPolynomialU,
  specialChebyshevPolynomialV: torch.special.chebyshevPolynomialV,
  specialChebyshevPolynomialW: torch.special.chebyshevPolynomialW,
  specialShiftedChebyshevPolynomialT: torch.special.shiftedChebyshevPolynomialT,
  specialShiftedChebyshevPolynomialU: torch.special.shiftedChebyshevPolynomialU,
  specialShiftedChebyshevPolynomialV: torch.special.shiftedChebyshevPolynomialV,
  specialShiftedChebyshevPolynomialW: torch.special.shiftedChebyshevPolynomialW,
  specialHermitePolynomialH: torch.special.hermitePolynomialH,
  specialHermitePolynomialHe: torch.special.hermitePolynomialHe,
  specialLaguerrePolynomialL: torch.special.laguerrePolynomialL,
  specialLegendrePolynomialP: torch.special.legendrePolynomialP,
} as const;

const isSpecialRow = (name: string): name is keyof typeof SPECIAL_FUNCTIONS => name in SPECIAL_FUNCTIONS;

/** The function form of a row (torch.name, or torch.special's), called with whatever the case gives. */
function rowFunction(name: BinaryTableName): (...args: unknown[]) => unknown {
  const f: unknown = isSpecialRow(name) ? SPECIAL_FUNCTIONS[name] : Reflect.get(torch, name);
  if (typeof f !== 'function') throw new Error(`binary row ${name}: the facade has no function of that name`);
  return (...args) => Reflect.apply(f, undefined, args);
}

/** A row's function, its second operand read as a JS scalar only where the row takes one. */
function rowOp(name: BinaryTableName, s: BaseSpec): OpInfo {
  const call = rowFunction(name);
  const fn = (self: Tensor, other: Tensor | Scalar, options?: { out?: Tensor | null }): Tensor => tensorResult(call(self, other, options), name);
  return takesScalar(name) ? binary({ ...s, fn, operand, numbers: true }) : binary({ ...s, fn, operand: tensorArg, numbers: false });
}

/** `x.name_(y)` where `y` broadcasts `x` to a bigger shape: the result does not fit in `x`. */
function inplaceTooSmall(name: string, dtype: DType): ErrorInput {
  return {
    name: 'in-place into a tensor smaller than the broadcast shape',
    make: (d) => callMethod(t(d, [1, 2], dtype), `${name}_`, [t(d, [[1, 2], [3, 4]], dtype)], name),
    error: ShapeError,
    match: /output with shape \[2\] doesn't match the broadcast shape \[2, 2\]/,
  };
}

/** A number `self` (`pow(2, x)`'s base): the goldens give a JS scalar there. */
function scalarArg(x: OpInput | undefined, op: string): Scalar {
  if (typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') return x;
  throw new Error(`${op}: the OpInfo sample gives ${typeof x} where a number is expected`);
}

/**
 * The OpInfo entry of a row's number `self`: PyTorch's `name.Scalar` overload (`pow.Scalar`:
 * `torch.pow(2, x)`), or a number its parser takes for `self` (`add.numberSelf`:
 * `torch.sub(1, p)`). The function and out= forms only (a number has no method and no in-place
 * form). For pow a number base makes the compute dtype a number's promotion with the exponent,
 * never bool, so every dtype runs; the others keep the dtypes the row rejects (sub refuses
 * any bool operand).
 */
function numberSelfOp(name: NumberSelfRow, row: BinaryRow): OpInfo {
  const aten = dispatcherName(name);
  const overload = row.scalarSelf === true;
  const op = `${name}.${overload ? 'Scalar' : 'numberSelf'}`;
  const fn = rowFunction(name);
  const read = rowKwargs(aten, row) ?? outOnly;
  return {
    name: op,
    methodName: name,
    errorNames: [aten],
    call: (i, k) => tensorResult(fn(scalarArg(i[0], op), tensorArg(i[1], op), read(k)), op),
    variants: { method: false, inplace: false, out: true },
    dtypes: overload && !row.rejects?.floating && !row.rejects?.integral && !row.rejects?.reducedFloating ? ALL_DTYPES : rowDtypes(row.rejects),
    samples: goldenSamples(op),
    pytorch2x: { ...BINARY_EXTRAS[name]?.pytorch2x, ...reference2x(op, aten) },
    errorInputs: [
      {
        name: `a non-tensor ${row.otherName ?? 'other'}`,
        make: () => fn(2, 'two'),
        error: TorchError,
        // (pow binds its three overloads in turn, as PyTorch's parser does)
        match: overload
          ? new RegExp(`${aten}\\(\\) received an invalid combination of arguments - got \\(number, string\\), but expected one of:`)
          : new RegExp(`${aten}\\(\\): argument '${row.otherName ?? 'other'}' \\(position 2\\) must be Tensor or Number, not string`),
      },
    ],
  };
}

type NumberSelfRow = {
  [K in BinaryTableName]: (typeof BINARY_TABLE)[K] extends { readonly scalarSelf: true } | { readonly numberSelf: true } ? K : never;
}[BinaryTableName];

function takesNumberSelf(name: BinaryTableName): name is NumberSelfRow {
  const row: BinaryRow = BINARY_TABLE[name];
  return row.scalarSelf === true || row.numberSelf === true;
}

export const BINARY_MATH_OPS: readonly OpInfo[] = BINARY_TABLE_NAMES.flatMap((name) => {
  const row: BinaryRow = BINARY_TABLE[name];
  const entry = binaryRowOp(name, row);
  return takesNumberSelf(name) ? [entry, numberSelfOp(name, row)] : [entry];
});

function binaryRowOp(name: BinaryTableName, row: BinaryRow): OpInfo {
  const aten = dispatcherName(name);
  const inplace = row.inplace !== false;
  const errorDtype = rowErrorDtype(row.rejects);
  const extras = BINARY_EXTRAS[name];
  return rowOp(name, {
    name,
    inplace,
    method: row.method !== false,
    dtypes: extras?.dtypes ?? rowDtypes(row.rejects),
    samples: goldenSamples(name),
    errorNames: extras?.errorNames ?? (aten === name ? undefined : [aten]),
    errorDtype,
    kwargs: rowKwargs(aten, row),
    // (PyTorch's parser tries the overloads of a row with a Scalar self in turn: pow's Tensor^Tensor, Tensor^Number, Number^Tensor)
    nonTensorMatch: row.scalarSelf ? new RegExp(`${aten}\\(\\) received an invalid combination of arguments - got \\(Tensor, string\\), but expected one of:`) : undefined,
    pytorch2x: { ...extras?.pytorch2x, ...reference2x(name, aten) },
    xfail: extras?.xfail,
    errorInputs: [...(inplace ? [inplaceTooSmall(name, errorDtype)] : []), ...(extras?.errorInputs ?? [])],
  });
}

// ---- clamp (Note [clamp's two kernels] in core) ----
const CLAMP_SAMPLES = ['scalar', 'scalar-float', 'tensor', 'tensor-0dim', 'empty', 'scalar-nan', 'tensor-nan', 'promote'];
type Bound = Tensor | Scalar | null;
const boundArg = (x: OpInput | undefined, op: string): Bound => operand(x, op);

/** `clamp`, `clamp.min` or `clamp.max`: the goldens give the input and the bounds present. */
function clampInfo(name: string, bounds: (i: readonly OpInput[]) => [Bound, Bound], samples: readonly string[], dtypes: readonly DType[]): OpInfo {
  const self = (i: readonly OpInput[]) => tensorArg(i[0], name);
  return {
    name,
    methodName: 'clamp',
    call: (i, k) => torch.clamp(self(i), ...bounds(i), outOnly(k)),
    variants: { method: true, inplace: true, out: true },
    forms: {
      method: (i) => self(i).clamp(...bounds(i)),
      inplace: (i) => self(i).clamp_(...bounds(i)),
    },
    dtypes,
    samples,
    errorInputs: [
      {
        name: 'neither bound',
        make: (d) => torch.clamp(t(d, [1.5, 2]), null, null),
        error: TorchError,
        match: /clamp: At least one of 'min' or 'max' must not be None/,
      },
      {
        name: 'bounds that do not broadcast',
        make: (d) => torch.clamp(t(d, [[1, 2, 3], [4, 5, 6]], 'float32'), t(d, [1, 2, 3, 4], 'float32')),
        error: ShapeError,
        match: /size of tensor a \(3\) must match the size of tensor b \(4\)|\[2, 3\].*\[4\]/,
      },
    ],
    pytorch2x: CLAMP_HALF,
    xfail: name === 'clamp' ? HALF_PROMOTE('clamp') : undefined,
  };
}

export const CLAMP_OPS: readonly OpInfo[] = [
  // bool: PyTorch has neither "clamp_scalar_cpu" nor "clamp_cpu" for Bool; one bound runs maximum/minimum
  clampInfo('clamp', (i) => [boundArg(i[1], 'clamp'), boundArg(i[2], 'clamp')], [...CLAMP_SAMPLES, 'min-gt-max'], NO_BOOL),
  clampInfo('clamp.min', (i) => [boundArg(i[1], 'clamp'), null], CLAMP_SAMPLES, NO_BOOL),
  clampInfo('clamp.max', (i) => [null, boundArg(i[1], 'clamp')], CLAMP_SAMPLES, NO_BOOL),
];

// ---- the op table's ternary rows ----

/** What a ternary row cannot say: lerp's and addcdiv's dtypes (their checks refuse the others), PyTorch 2.x's half kernels. */
const TERNARY_EXTRAS: Readonly<Record<TernaryTableName, Partial<Pick<OpInfo, 'dtypes' | 'pytorch2x' | 'xfail'>>>> = {
  // all tensors of one floating dtype (PyTorch does not promote)
  lerp: { dtypes: FLOAT_DTYPES, pytorch2x: { float16: HALF_2X('lerp_kernel_scalar') } },
  // bool: no addcmul kernel; addcdiv refuses integral (and bool) tensor1 / tensor2
  addcmul: { pytorch2x: { float16: HALF_2X('addcmul_cpu_out') }, xfail: HALF_PROMOTE('addcmul') },
  addcdiv: { dtypes: FLOAT_DTYPES, pytorch2x: { float16: HALF_2X('addcdiv_cpu_out') }, xfail: HALF_PROMOTE('addcdiv') },
};

/**
 * The OpInfo entry of a ternary row (Note [The op table] in core): its function (the last
 * operand a number where the row has `scalarLast`), its keywords, dtypes and samples from the
 * row and the goldens, every form.
 */
function ternaryRowOp(name: TernaryTableName): OpInfo {
  const row: TernaryRow = TERNARY_TABLE[name];
  const read = rowKwargs(dispatcherName(name), row) ?? outOnly;
  const fn = untyped(torch[name]);
  const last = row.scalarLast ? operand : tensorArg;
  const extras = TERNARY_EXTRAS[name];
  return {
    name,
    call: (i, k) => tensorResult(fn(tensorArg(i[0], name), tensorArg(i[1], name), last(i[2], name), read(k)), name),
    variants: { method: true, inplace: true, out: true },
    dtypes: extras.dtypes ?? rowDtypes(row.rejects),
    samples: goldenSamples(name),
    errorInputs: [
      {
        name: 'shapes that do not broadcast',
        make: (d) => fn(t(d, [[1, 2, 3], [4, 5, 6]], 'float32'), t(d, [1, 2, 3, 4], 'float32'), row.scalarLast ? 0.5 : t(d, [1], 'float32')),
        error: ShapeError,
        match: /size of tensor a \(3\) must match the size of tensor b \(4\)|\[2, 3\].*\[4\]/,
      },
    ],
    pytorch2x: extras.pytorch2x,
    xfail: extras.xfail,
  };
}

export const TERNARY_OPS: readonly OpInfo[] = TERNARY_TABLE_NAMES.map(ternaryRowOp);

/** isnan / isinf / isfinite: bool results, no in-place or out= form (as in PyTorch). */
export const CLASSIFY_OPS: readonly OpInfo[] = (['isnan', 'isinf', 'isfinite'] as const).map((name) => ({
  name,
  call: (i: readonly OpInput[]) => torch[name](tensorArg(i[0], name)),
  variants: { method: true },
  forms: { method: (i: readonly OpInput[]) => tensorArg(i[0], name)[name]() },
  dtypes: ALL_DTYPES,
  samples: ['edge', '0dim', 'empty'],
  errorInputs: [
    {
      name: 'a JS array instead of a tensor',
      make: () => untyped(torch[name])([1, 2]),
      error: TorchError,
      match: new RegExp(`${name}\\(\\): argument 'input' \\(position 1\\) must be Tensor, not Array`),
    },
  ],
}));
