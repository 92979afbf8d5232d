/**
 * The forms of an op (function, method, in-place, out=) as callables, the defaults of
 * OpForms filled in, and the helpers every check shares: running a call so that nothing it
 * makes outlives it, and matching a thrown error against PyTorch's.
 */
import * as torch from '@torch-ts/torch';
import { DTypeError, IndexError, ShapeError, TorchError, type Tensor } from '@torch-ts/torch';
import type { GoldenError } from './goldens';
import { tensorArg } from './op-info/common';
import type { ErrorClass, Kwargs, OpInfo, OpInput, OpResult } from './op-info/types';
import { callMethod, opResult, tensorResult } from './op-info/untyped';

type Form = (inputs: readonly OpInput[], kwargs: Kwargs) => OpResult;

/** `inputs[0][name](...rest, kwargs)`: the method the OpInfo entry names (Note [Deliberately ill-typed calls]). */
function callMethodForm(op: OpInfo, name: string, inputs: readonly OpInput[], kwargs: Kwargs): unknown {
  const self = tensorArg(inputs[0], op.name);
  // `x.neg()` rather than `x.neg({})`: the options object only when there are options.
  const args: unknown[] = [...inputs.slice(1)];
  if (Object.keys(kwargs).length) args.push(kwargs);
  return callMethod(self, name, args, op.name);
}

export function methodForm(op: OpInfo): Form {
  const name = op.methodName ?? op.name;
  return op.forms?.method ?? ((i, k) => opResult(callMethodForm(op, name, i, k), `${op.name}: x.${name}()`));
}

export function inplaceForm(op: OpInfo): (inputs: readonly OpInput[], kwargs: Kwargs) => Tensor {
  const name = `${op.methodName ?? op.name}_`;
  return op.forms?.inplace ?? ((i, k) => tensorResult(callMethodForm(op, name, i, k), `${op.name}: x.${name}()`));
}

/** The out= form; `out` is a tuple of tensors where the result is a tuple (`{ out: [values, indices] }`). */
export function outForm(op: OpInfo): (inputs: readonly OpInput[], kwargs: Kwargs, out: Tensor | readonly Tensor[]) => OpResult {
  const form = op.forms?.out;
  if (!form) return (i, k, out) => op.call(i, { ...k, out });
  return (i, k, out) => {
    if (!(out instanceof torch.Tensor)) throw new Error(`${op.name}: its out= form (OpForms.out) takes one tensor, not a tuple`);
    return form(i, k, out);
  };
}

/** Whether the case has an out= form to check (OpVariants.out). */
export function outApplies(op: OpInfo, c: { readonly expected?: unknown }): boolean {
  const tuple = Array.isArray(c.expected);
  return op.variants.out === true || (op.variants.out === 'tuple' && tuple) || (op.variants.out === 'single' && !tuple);
}

/** The tensors of a result: one, or each element of a tuple result. */
export function resultList(r: OpResult): readonly Tensor[] {
  return r instanceof torch.Tensor ? [r] : r;
}

/**
 * Runs `fn` in `torch.tidy`, so that what it makes and does not return is disposed even when
 * it throws; returns what it returned (the caller disposes that) or what it threw.
 */
export function attempt<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: torch.tidy(fn) };
  } catch (error) {
    return { ok: false, error };
  }
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * The function form (or the method form) of `op` as the checks run it on a device: its
 * OpForms.async / asyncMethod where the device reads asynchronously only (`asyncForms`) and
 * the op has one, else `attempt` of the sync form. (An async form cannot run in `tidy`, which
 * ends at the first await: it must dispose what it makes itself, as the async ops do.)
 */
export async function attemptForm(op: OpInfo, asyncForms: boolean | undefined, inputs: readonly OpInput[], kwargs: Kwargs, form: 'function' | 'method' = 'function'): Promise<Attempt<OpResult>> {
  const run = asyncForms ? (form === 'method' ? op.forms?.asyncMethod : op.forms?.async) : undefined;
  if (!run) return attempt(() => (form === 'method' ? methodForm(op)(inputs, kwargs) : op.call(inputs, kwargs)));
  try {
    return { ok: true, value: await run(inputs, kwargs) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The out= form as the checks run it on a device (the async form with `out` where attemptForm runs that). */
export async function attemptOut(op: OpInfo, asyncForms: boolean | undefined, inputs: readonly OpInput[], kwargs: Kwargs, out: Tensor | Tensor[]): Promise<Attempt<OpResult>> {
  const run = asyncForms ? op.forms?.async : undefined;
  if (!run) return attempt(() => outForm(op)(inputs, kwargs, out));
  try {
    return { ok: true, value: await run(inputs, { ...kwargs, out }) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The TorchError subclass torch-ts throws where PyTorch raised `e`: the message decides, as
 * PyTorch raises RuntimeError for nearly everything. TorchError itself accepts any subclass.
 */
export function errorClassFor(e: GoldenError): ErrorClass {
  if (e.type === 'IndexError') return IndexError;
  const m = e.message;
  if (
    /not implemented for '|could not infer output dtype|can't be cast to the desired output type|Found dtype \w+ but expected|expected scalar type|same dtype|Subtraction, the `-` operator|Negation, the `-` operator|Boolean inputs not supported|alpha must not be a floating point/.test(
      m,
    )
  ) {
    return DTypeError;
  }
  if (/must match the size of tensor|doesn't match the broadcast shape|cannot be multiplied/.test(m)) return ShapeError;
  return TorchError;
}

/** Names the op may be spelled with at the start of its messages (`add`, `add_`). */
export function errorNames(op: OpInfo): readonly string[] {
  return op.errorNames ?? [op.methodName ?? op.name];
}

/** Problems with a thrown error: not the class expected, or a message that does not name the op. */
export function errorProblems(op: OpInfo, thrown: unknown, expected: readonly ErrorClass[], match: RegExp | null): string[] {
  if (!(thrown instanceof Error)) return [`threw ${String(thrown)}, not an Error`];
  const problems: string[] = [];
  const got = `${thrown.constructor.name}: ${thrown.message}`;
  if (!(thrown instanceof TorchError)) problems.push(`threw ${got}, which is not a TorchError`);
  else if (!expected.some((cls) => thrown instanceof cls)) problems.push(`threw ${got}, expected a ${expected.map((cls) => cls.name).join(' or ')}`);
  const named = errorNames(op).some((n) => new RegExp(`(^|[^\\w.])${escape(n)}(_|\\b)`).test(thrown.message));
  if (!named) problems.push(`the message does not name the op (${errorNames(op).join(' or ')}): ${thrown.message}`);
  if (match && !match.test(thrown.message)) problems.push(`the message does not match ${match}: ${thrown.message}`);
  return problems;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
