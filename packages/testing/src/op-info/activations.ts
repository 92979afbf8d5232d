import * as torch from '@torch-ts/torch';
import { ShapeError, TorchError, type DType, type Tensor } from '@torch-ts/torch';
import { ACTIVATION_TABLE, ACTIVATION_TABLE_NAMES, dispatcherName, makeBinder, type ActivationRow, type ActivationTableName } from '@torch-ts/core';
import { loadOpGoldens } from '../goldens';
import { goldenSamples, HALF_2X, NO_BOOL, reference2x, rowDtypes, t, tensorArg } from './common';
import { check, num, oneOf, options, tensor, type Check } from './kwargs';
import type { ErrorInput, Kwargs, OpForms, OpInfo, OpInput } from './types';
import { tensorResult, untyped } from './untyped';

/** The error inputs every activation shares: a JS array for the input, an out= of the wrong shape. */
function activationErrors(fn: (...args: never[]) => unknown, callWithOut: (x: Tensor, out: Tensor) => unknown, inputPosition = 1): ErrorInput[] {
  return [
    {
      name: 'a JS array instead of a tensor',
      make: () => untyped(fn)([1, 2]),
      error: TorchError,
      match: new RegExp(`\\(\\): argument 'input' \\(position ${inputPosition}\\) must be Tensor, not Array`),
    },
    {
      name: 'an out= tensor of the wrong shape',
      make: (d) => callWithOut(t(d, [0.5, 1.5], 'float32'), torch.empty([3], { device: d })),
      error: ShapeError,
      match: /output with shape \[3\] doesn't match the broadcast shape \[2\]/,
    },
  ];
}

/** The dtypes where 1.13's goldens were computed on float32 copies: PyTorch 2.x has the CPU kernel 1.13 lacks. */
function pytorch2xOf(name: string, kernel: string): OpInfo['pytorch2x'] {
  const cases = loadOpGoldens().get(name) ?? [];
  const upcast = (d: DType) => cases.some((c) => c.dtype === d && c.reference === 'upcast');
  const out: Partial<Record<DType, string>> = {};
  if (upcast('float16')) out.float16 = HALF_2X(kernel);
  if (upcast('bfloat16')) out.bfloat16 = HALF_2X(kernel).replace("'Half'", "'BFloat16'");
  return { ...out, ...reference2x(name, dispatcherName(name)) };
}

// ---- the op table's activation rows ----

/**
 * The function form of the rows PyTorch has no `torch.name` for (Note [torch.special's rows] in
 * core): torch.special's, and polygamma's, whose torch.polygamma takes `n` first.
 */
const ROW_FUNCTIONS: Readonly<Partial<Record<ActivationTableName, (...args: never[]) => unknown>>> = {
  // (n = 1 where a case gives none: the error inputs)
  polygamma: (self: Tensor, options?: { n?: number; out?: Tensor | null }) => {
    const { n, ...rest } = options ?? {};
    return torch.polygamma(n ?? 1, self, rest);
  },
};

/** torch.special's function of a row keyed by its operator's name (`specialLogNdtr`: torch.special.logNdtr). */
function specialFunction(name: string): ((...args: unknown[]) => unknown) | undefined {
  if (!name.startsWith('special')) return undefined;
  const f: unknown = Reflect.get(torch.special, `${name[7].toLowerCase()}${name.slice(8)}`);
  if (typeof f !== 'function') throw new Error(`torch.special has no function for the row ${name}`);
  return (...args) => Reflect.apply(f, undefined, args);
}

interface ActivationExtras {
  readonly dtypes?: readonly DType[];
  /** The arguments a row requires, for its error inputs (polygamma's n). */
  readonly required?: Kwargs;
  /** The position of `input` in the function form (polygamma(n, input): 2). */
  readonly inputPosition?: number;
  readonly xfail?: OpInfo['xfail'];
}

const BF16_STEPS = (what: string): string =>
  `deviation (not a bug): PyTorch 1.13's bfloat16 ${what} rounds its intermediate steps to bfloat16 (errors of several percent); torch-ts computes in doubles and rounds once`;

/**
 * What a row cannot say: hardtanh's dtypes, since PyTorch refuses uint8 only for its default
 * (negative) min_val; the required arguments of polygamma and mvlgamma; documented deviations.
 */
const ACTIVATION_EXTRAS: Readonly<Partial<Record<ActivationTableName, ActivationExtras>>> = {
  hardtanh: { dtypes: NO_BOOL.filter((d) => d !== 'uint8') },
  polygamma: { required: { n: 1 }, inputPosition: 2 },
  mvlgamma: { dtypes: NO_BOOL, required: { p: 1 } },
  specialI0e: { xfail: { 'forward@edge/bfloat16': BF16_STEPS('i0e (its Chebyshev series)') } },
};

const str = check('a string', (v): v is string => typeof v === 'string');

/**
 * The reader of a case's kwargs for a row (Note [Checked kwargs]): the keywords of its front
 * ends' arguments, each checked as its schema type says (a `str` as one of the row's choices),
 * and `out`.
 */
function rowKwargs(aten: string, row: ActivationRow) {
  const front = makeBinder(aten, `${aten}(${row.frontArgs ?? row.args}) -> Tensor`);
  const schema: Record<string, Check<unknown>> = { out: tensor };
  front.schema.args.forEach((a, i) => {
    const choices = row.choices?.[a.name];
    schema[front.keywords[i]] = a.type === 'str' ? (choices ? oneOf(...choices) : str) : num;
  });
  return options(schema);
}

/**
 * The OpInfo entry of an activation row (Note [The op table] in core), derived from the row:
 * its dtypes from what it rejects, its forms (in-place where it has one, the method where
 * PyTorch has it), the keywords its cases may set, the names in its messages, the samples of
 * its goldens, and PyTorch 2.x's half kernel where 1.13's goldens were upcast. Every row's
 * function takes a different options type, which no one compile-time type pairs with the
 * derived reader, so the calls go through `untyped`: the reader checks each keyword at run
 * time against the row's own argument text, and the facade's binder checks them again.
 */
function tableActivation(name: ActivationTableName): OpInfo {
  const row: ActivationRow = ACTIVATION_TABLE[name];
  const aten = dispatcherName(name);
  const read = rowKwargs(aten, row);
  const extras = ACTIVATION_EXTRAS[name];
  const fn = ROW_FUNCTIONS[name] ?? specialFunction(name) ?? facadeFunction(name);
  const call = (x: Tensor, k: Kwargs) => tensorResult(untyped(fn)(x, read(k)), name);
  // (polygamma_ is a method only: Note [torch.special's rows])
  const inplaceFn = row.inplace === false ? null : row.torchFunction === false ? methodFunction(`${name}_`) : facadeFunction(`${name}_`);
  const forms: OpForms | undefined = inplaceFn
    ? {
        inplace: (i, k) => {
          const { out, ...rest } = read(k);
          if (out) throw new Error(`${name}: the OpInfo case gives out= to the in-place form`);
          return tensorResult(inplaceFn(tensorArg(i[0], name), rest), `${name}_`);
        },
      }
    : undefined;
  return {
    name,
    errorNames: [name, `${name}_`, aten, `${aten}_`],
    call: (i, k) => call(tensorArg(i[0], name), k),
    variants: { method: row.method === true, inplace: inplaceFn !== null, out: true },
    forms,
    dtypes: extras?.dtypes ?? rowDtypes(row.rejects),
    samples: goldenSamples(name),
    errorInputs: activationErrors(fn, (x, out) => call(x, { ...extras?.required, out }), extras?.inputPosition),
    pytorch2x: pytorch2xOf(name, row.kernel ?? `${aten}_cpu`),
    xfail: extras?.xfail,
  };
}

/** `x.name(...)` as a function of `x` first, looked up by a name made at run time (`polygamma_`). */
function methodFunction(name: string): (...args: unknown[]) => unknown {
  return (self, ...args) => {
    if (!(self instanceof torch.Tensor)) throw new Error(`${name}: the method's self must be a Tensor`);
    const f: unknown = Reflect.get(self, name);
    if (typeof f !== 'function') throw new Error(`Tensor has no method ${name}`);
    return Reflect.apply(f, self, args);
  };
}

/** `torch.name` looked up by a name made at run time (`leakyRelu_`); throws when the facade lacks it. */
function facadeFunction(name: string): (...args: unknown[]) => unknown {
  const f: unknown = Reflect.get(torch, name);
  if (typeof f !== 'function') throw new Error(`the facade has no torch.${name}`);
  return (...args) => Reflect.apply(f, undefined, args);
}

// ---- the composite activations ----

const OUT = options({ out: tensor });

/** selu and relu6: the elu and hardtanh rows with fixed arguments (core's ops/activations.ts). */
function composite(s: {
  readonly name: string;
  readonly aten: string;
  readonly fn: (self: Tensor, options?: { out?: Tensor | null; inplace?: boolean }) => Tensor;
  readonly inplace: (self: Tensor) => Tensor;
  readonly kernel: string;
  readonly dtypes: readonly DType[];
}): OpInfo {
  return {
    name: s.name,
    errorNames: [s.name, `${s.name}_`, s.aten, `${s.aten}_`],
    call: (i: readonly OpInput[], k: Kwargs) => s.fn(tensorArg(i[0], s.name), OUT(k)),
    variants: { method: false, inplace: true, out: true },
    forms: {
      inplace: (i, k) => {
        if (OUT(k).out) throw new Error(`${s.name}: the OpInfo case gives out= to the in-place form`);
        return s.inplace(tensorArg(i[0], s.name));
      },
    },
    dtypes: s.dtypes,
    samples: goldenSamples(s.name),
    errorInputs: activationErrors(s.fn, (x, out) => s.fn(x, { out })),
    pytorch2x: pytorch2xOf(s.name, s.kernel),
  };
}

const NDTR_HALF =
  "deviation (not a bug): ndtr is PyTorch's composite (1 + erf(x / sqrt 2)) / 2, which in float16 rounds erf(x) to half before adding 1 (as 2.x does); 1.13 has no half erf, so its goldens ran the whole composite in float32";

/** torch.special.ndtr: PyTorch 1.13's composite over erf (core's ops/special.ts), function and out= only. */
const NDTR: OpInfo = {
  name: 'specialNdtr',
  errorNames: ['special_ndtr', 'mul', 'erf'],
  call: (i, k) => torch.special.ndtr(tensorArg(i[0], 'specialNdtr'), OUT(k)),
  variants: { method: false, inplace: false, out: true },
  dtypes: torch.REAL_DTYPES,
  samples: goldenSamples('specialNdtr'),
  errorInputs: activationErrors(torch.special.ndtr, (x, out) => torch.special.ndtr(x, { out })),
  pytorch2x: pytorch2xOf('specialNdtr', 'erf_vml_cpu'),
  xfail: Object.fromEntries(['edge', 'random', 'domain'].map((s) => [`forward@${s}/float16`, NDTR_HALF])),
};

export const ACTIVATION_OPS: readonly OpInfo[] = [
  NDTR,
  ...ACTIVATION_TABLE_NAMES.map(tableActivation),
  composite({ name: 'selu', aten: 'elu', fn: torch.selu, inplace: torch.selu_, kernel: 'elu_cpu', dtypes: rowDtypes(ACTIVATION_TABLE.elu.rejects) }),
  composite({ name: 'relu6', aten: 'hardtanh', fn: torch.relu6, inplace: (x) => torch.relu6(x, { inplace: true }), kernel: 'clamp_scalar_cpu', dtypes: NO_BOOL }),
];
