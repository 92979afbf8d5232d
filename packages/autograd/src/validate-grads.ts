import { AutogradError, Tensor, fmtShape, sum, to } from '@torch-ts/core';
import type { InputInfo } from './formula-node';

/**
 * Note [Validating gradients]
 * Every gradient that user code hands the engine is checked before it flows on, as
 * PyTorch does, because a wrong one otherwise surfaces far away (a `.grad` of the wrong
 * shape, an optimizer step that broadcasts garbage) or not at all:
 *  - a backward function's outputs (derivative formulas and custom Functions alike), as
 *    engine.cpp's `validate_outputs`: a gradient whose shape the input's expands to is
 *    summed down to it (`at::sum_to`), any other shape is an error; a dtype that differs is
 *    cast to the input's; a device that differs is an error, except for a 0-dim gradient,
 *    which is moved;
 *  - a hook's return value, as python_hook.cpp's `check_single_result`: `undefined` (or
 *    null) keeps the gradient, anything but a Tensor is a TypeError, and a Tensor must keep
 *    the dtype, device and exact size of the gradient it replaces (no summing: a hook that
 *    changes the size is a bug, not a broadcast);
 *  - the gradients given to `backward` / `autograd.grad` (api.ts), as autograd/__init__.py's
 *    `_make_grads` followed by `validate_outputs` on the roots.
 */

/** How an error names a JS value that is not a Tensor (PyTorch prints its Python type). */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'Array';
  if (typeof v === 'object') return v.constructor?.name ?? 'object';
  return typeof v;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** ATen's `is_expandable_to(shape, desired)`: `shape` broadcasts to `desired`. */
export function isExpandableTo(shape: readonly number[], desired: readonly number[]): boolean {
  const lead = desired.length - shape.length;
  if (lead < 0) return false;
  return shape.every((s, i) => s === desired[lead + i] || s === 1);
}

/**
 * The gradient for forward input `index` of node `fnName` brought to that input's metadata
 * (Note [Validating gradients]). `fnName` is a thunk: a node's name is only built for an error.
 */
export function validateGrad(fnName: () => string, index: number, g: Tensor, info: InputInfo): Tensor {
  let r = g;
  if (!sameShape(r.shape, info.sizes)) {
    if (!isExpandableTo(info.sizes, r.shape)) {
      throw new AutogradError(
        `Function ${fnName()} returned an invalid gradient at index ${index} - got ${fmtShape(r.shape)} but expected shape compatible with ${fmtShape(info.sizes)}`,
      );
    }
    r = sumToSize(r, info.sizes);
  }
  if (r.dtype !== info.dtype) r = to(r, info.dtype);
  if (r.device !== info.device) {
    if (r.dim() !== 0) {
      throw new AutogradError(`Function ${fnName()} returned an invalid gradient at index ${index} - expected device ${info.device} but got ${r.device}`);
    }
    r = to(r, { device: info.device });
  }
  return r;
}

/** A gradient summed over the dims its input was broadcast along (the caller checked it can be). */
export function sumToSize(g: Tensor, sizes: readonly number[]): Tensor {
  const shape = g.shape;
  if (sameShape(shape, sizes)) return g;
  const lead = shape.length - sizes.length;
  const dims: number[] = [];
  for (let d = 0; d < shape.length; d++) {
    if (d < lead || (sizes[d - lead] === 1 && shape[d] !== 1)) dims.push(d);
  }
  let r = dims.length ? sum(g, dims, { keepdim: true }) : g;
  if (lead > 0) r = r.view([...sizes]);
  return r;
}

function hookName(hook: unknown): string {
  const n = hook !== null && (typeof hook === 'object' || typeof hook === 'function') && 'name' in hook ? hook.name : undefined;
  return typeof n === 'string' && n !== '' ? n : '<anonymous>';
}

function typeString(t: Tensor, withDevice: boolean): string {
  return withDevice ? `${t.dtype} on ${t.device}` : t.dtype;
}

/**
 * One value a hook returned in place of `original`: null when it keeps the gradient, else
 * the Tensor, checked as PyTorch's `check_single_result` / `check_variable_result`.
 */
export function checkHookValue(hook: unknown, original: Tensor | null, result: unknown): Tensor | null {
  if (result === undefined || result === null) return null;
  if (original === null) throw new AutogradError(`hook '${hookName(hook)}': can't replace a null gradient with a non-null value`);
  if (!(result instanceof Tensor)) throw new TypeError(`expected Tensor, but hook '${hookName(hook)}' returned ${typeName(result)}`);
  if (result.dtype !== original.dtype || result.device !== original.device) {
    const dev = result.device !== original.device;
    throw new AutogradError(
      `hook '${hookName(hook)}' has changed the type of value (was ${typeString(original, dev)} got ${typeString(result, dev)})`,
    );
  }
  if (!sameShape(result.shape, original.shape)) {
    throw new AutogradError(`hook '${hookName(hook)}' has changed the size of value (was ${fmtShape(original.shape)} got ${fmtShape(result.shape)})`);
  }
  return result;
}

/**
 * The list a Node hook (`gradFn.registerHook` / `registerPrehook`) returned in place of
 * `original`: null when it keeps them, else one entry per gradient, each checked; an entry
 * of null or undefined means no gradient there, as None does in PyTorch.
 */
export function checkHookList(hook: unknown, original: readonly (Tensor | null)[], result: unknown): (Tensor | null)[] | null {
  if (result === undefined || result === null) return null;
  if (!Array.isArray(result)) throw new TypeError(`expected an Array, but hook '${hookName(hook)}' returned ${typeName(result)}`);
  if (result.length !== original.length) {
    throw new AutogradError(
      `hook '${hookName(hook)}' has returned an incorrect number of values (got ${result.length}, but expected ${original.length})`,
    );
  }
  return result.map((r: unknown, i) => (r === undefined || r === null ? null : checkHookValue(hook, original[i] ?? null, r)));
}
