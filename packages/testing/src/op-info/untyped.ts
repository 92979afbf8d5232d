import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import type { OpResult } from './types';

/**
 * Note [Deliberately ill-typed calls]
 * Error inputs call an op the way its types forbid (a JS array where a Tensor goes, a
 * string operand, a dtype that is not one) to check the refusal at run time, which a caller
 * from JavaScript meets. Such a call goes through `untyped(fn)`: the one idiom for it in
 * this package, visible at each call site, instead of an `as unknown as Tensor` at each
 * argument. It calls `fn` through Reflect.apply, which is what the engine does anyway;
 * nothing is asserted about the arguments, and the result is `unknown` (an error input
 * only needs the call to throw). The method forms of the OpInfo runner, which look a
 * Tensor method up by name, go through `callMethod` for the same reason.
 */
export function untyped(fn: (...args: never[]) => unknown): (...args: unknown[]) => unknown {
  return (...args) => Reflect.apply(fn, undefined, args);
}

/** `self[name](...args)` for a method named at run time; throws when Tensor has no such method. */
export function callMethod(self: Tensor, name: string, args: readonly unknown[], op: string): unknown {
  const fn: unknown = Reflect.get(self, name);
  if (typeof fn !== 'function') throw new Error(`${op}: Tensor has no method ${name}`);
  return Reflect.apply(fn, self, args);
}

/** A result checked to be an OpResult (one tensor, or an array of tensors). */
export function opResult(r: unknown, what: string): OpResult {
  if (r instanceof torch.Tensor) return r;
  if (isTensorList(r)) return r;
  throw new Error(`${what} returned ${describe(r)}, not a tensor or an array of tensors`);
}

/** A result checked to be one tensor. */
export function tensorResult(r: unknown, what: string): Tensor {
  if (r instanceof torch.Tensor) return r;
  throw new Error(`${what} returned ${describe(r)}, not a tensor`);
}

function isTensorList(r: unknown): r is readonly Tensor[] {
  return Array.isArray(r) && r.every((x: unknown) => x instanceof torch.Tensor);
}

function describe(x: unknown): string {
  return Array.isArray(x) ? 'an array' : x === null ? 'null' : typeof x;
}
