import type { DeviceLike, DType, Tensor } from '@torch-ts/torch';
import type { ReadBack } from '../values';

/**
 * Note [OpInfo]
 * One declaration per op drives every test of it (STYLE.md habit 5), as PyTorch's OpInfo
 * does: forward values against PyTorch goldens for each sample and dtype, the method,
 * in-place and `out=` forms, non-contiguous inputs, error inputs and a leak check, on every
 * device the runner is given. The table holds what cannot be derived from the goldens:
 * how to call the op through the facade, which forms it has, the dtypes PyTorch's CPU
 * kernel supports, tolerances, hand-written error inputs, and the cases known to fail.
 */

/** A decoded golden input: a tensor on the device under test, or a JS scalar. */
export type OpInput = Tensor | number | boolean | bigint;

/** The options object of a call, spelled as torch-ts spells it (`roundingMode`, `keepdim`); entries read it through a schema (Note [Checked kwargs] in kwargs.ts). */
export type Kwargs = Readonly<Record<string, unknown>>;

/** A single tensor, or the array of a tuple result (`max(dim)` gives `[values, indices]`). */
export type OpResult = Tensor | readonly Tensor[];

/** `|got - expected| <= atol + rtol * |expected|`, as `torch.testing.assert_close`. */
export interface Tolerance {
  readonly rtol: number;
  readonly atol: number;
}

/** The checks the runner makes; an xfail key may name one (`'inplace@float16'`). */
export const CHECKS = ['forward', 'method', 'inplace', 'out', 'noncontig', 'oracle', 'error-input', 'leak'] as const;
export type CheckName = (typeof CHECKS)[number];

export function isCheckName(s: string): s is CheckName {
  return CHECKS.some((c) => c === s);
}

/** A TorchError subclass (or TorchError itself). */
export type ErrorClass = abstract new (message: string) => Error;

/** A call that must throw: `make` runs the op on bad input (on the device under test). */
export interface ErrorInput {
  /** What is wrong with the input, for the test's name. */
  readonly name: string;
  readonly make: (device: DeviceLike) => unknown;
  readonly error: ErrorClass;
  readonly match: RegExp;
}

export interface OpVariants {
  /** `x.op(...)` exists; checked equal to the function form. */
  readonly method?: boolean;
  /** `x.op_(...)` exists; checked to write into `x`, return it and bump its version. */
  readonly inplace?: boolean;
  /**
   * `op(..., { out })` exists; checked to write into `out` and return it (a tuple result into
   * a tuple of outs, `{ out: [values, indices] }`). `'tuple'`: only the cases with a tuple
   * result have an out form (`median(x, dim, { out })` but no `median(x, { out })`); `'single'`:
   * only the cases with one tensor result (`nonzero(x, { out })`, but `asTuple` refuses out=).
   */
  readonly out?: boolean | 'tuple' | 'single';
}

/**
 * How the non-function forms are called when the defaults do not fit. Defaults:
 * method `inputs[0][methodName](...rest, kwargs)`, in-place the same with `methodName + '_'`,
 * out `call(inputs, { ...kwargs, out })`.
 */
export interface OpForms {
  readonly method?: (inputs: readonly OpInput[], kwargs: Kwargs) => OpResult;
  readonly inplace?: (inputs: readonly OpInput[], kwargs: Kwargs) => Tensor;
  readonly out?: (inputs: readonly OpInput[], kwargs: Kwargs, out: Tensor) => Tensor;
  /**
   * The async function form (`torch.maskedSelectAsync`), for an op whose result SIZE depends
   * on the data: on a device that reads asynchronously only (DeviceHarness.asyncForms, WebGPU)
   * the sync form refuses, and the runner runs this one wherever it would run the function
   * form (forward, out= as `async(inputs, { ...kwargs, out })`, non-contiguous, oracle,
   * gradients), expecting the same results.
   */
  readonly async?: (inputs: readonly OpInput[], kwargs: Kwargs) => Promise<OpResult>;
  /** The async method form (`x.maskedSelectAsync(mask)`), run for the method check there. */
  readonly asyncMethod?: (inputs: readonly OpInput[], kwargs: Kwargs) => Promise<OpResult>;
}

/**
 * What an entry says about complex64 and complex128 (Note [Complex OpInfo] in complex.ts), as
 * PyTorch's OpInfo lists them among its `dtypes`: those PyTorch's CPU kernel accepts (the
 * others must throw its error) and the complex sample ids of goldens/ops_complex.json.
 */
export interface ComplexSupport {
  readonly dtypes: readonly ('complex64' | 'complex128')[];
  readonly samples: readonly string[];
}

/** Whether the entry says PyTorch computes the op in `d` (real or complex). */
export function supportsDtype(op: OpInfo, d: DType): boolean {
  return d === 'complex64' || d === 'complex128' ? (op.complex?.dtypes.includes(d) ?? false) : op.dtypes.includes(d);
}

export interface OpInfo {
  /** The key of the op's cases in goldens/ops_*.json (`'div.trunc'` for a mode of div). */
  readonly name: string;
  /** The Tensor method behind the method/in-place forms; defaults to `name`. */
  readonly methodName?: string;
  /** Names an error message of the op may start with; defaults to `[methodName ?? name]`. */
  readonly errorNames?: readonly string[];
  /** The function form, through the facade. */
  readonly call: (inputs: readonly OpInput[], kwargs: Kwargs) => OpResult;
  readonly variants: OpVariants;
  readonly forms?: OpForms;
  /** The real dtypes PyTorch's CPU kernel accepts (2.x where docs/api.md follows 2.x); others must throw. */
  readonly dtypes: readonly DType[];
  /** The op's complex cases (Note [Complex OpInfo] in complex.ts); absent: the op has none yet. */
  readonly complex?: ComplexSupport;
  /** The golden sample ids of the op, all of them: the runner checks the goldens agree. */
  readonly samples: readonly string[];
  /** Overrides of the default tolerance per dtype (ints and bool are always exact). */
  readonly tolerance?: Readonly<Partial<Record<DType, Tolerance>>>;
  readonly errorInputs: readonly ErrorInput[];
  /**
   * Cases known to fail, with why; the test must fail (an xfail that passes fails the run).
   * A key is `[check@]selector`, the selector a dtype, a sample id, a case id
   * (`promote:int8+uint8`) or `sample/dtype`; without a check it covers every check.
   */
  readonly xfail?: Readonly<Record<string, string>>;
  /**
   * Dtypes where torch-ts follows PyTorch 2.x, not the 1.13 the goldens come from (docs/api.md):
   * their goldens were computed on float32 copies (`"reference": "upcast"`). Checked both
   * ways against the goldens.
   */
  readonly pytorch2x?: Readonly<Partial<Record<DType, string>>>;
  /**
   * Random ops: the problems of a draw `got` (the results, read back) for the case's
   * `inputs` (tensors read back, scalars as numbers) and kwargs, on a device whose random
   * values are its own (DeviceHarness.ownRandomValues): there the values cannot equal the
   * goldens', so this replaces the value comparison (dtypes and shapes still must match).
   * The golden cases are small, so the check may also draw a large sample on `device`.
   */
  readonly randomCheck?: (
    got: readonly ReadBack[],
    inputs: readonly (ReadBack | number | boolean)[],
    kwargs: Kwargs,
    device: DeviceLike,
  ) => string[] | Promise<string[]>;
}
