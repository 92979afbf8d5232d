import {
  AUTOGRAD_KEYSET,
  DispatchKey,
  ExcludeGuard,
  ExcludedSetGuard,
  localExcluded,
  withExcluded,
  withExcludedSet,
} from '@torch-ts/core';

/**
 * Note [Grad mode is key exclusion]
 * `noGrad` excludes the autograd dispatch keys, so ops go straight to the backend and
 * record nothing; `enableGrad` removes them from the excluded set again; `inferenceMode`
 * records nothing either. (PyTorch's InferenceMode also skips version counting, but only for
 * the "inference tensors" it creates; torch-ts has no such tensors yet, so an in-place op in
 * it still bumps versions and a saved tensor changed there is still caught.)
 * Each works as a function (`noGrad(() => ...)`, restoring the mode even when it throws) and
 * as a scope guard (`using _ = noGrad()`).
 */
export function isGradEnabled(): boolean {
  return !localExcluded().has(DispatchKey.AutogradCPU);
}

export function noGrad(): Disposable;
export function noGrad<T>(fn: () => T): T;
export function noGrad<T>(fn?: () => T): T | Disposable {
  return fn ? withExcluded(AUTOGRAD_KEYSET, fn) : new ExcludeGuard(AUTOGRAD_KEYSET);
}

export function enableGrad(): Disposable;
export function enableGrad<T>(fn: () => T): T;
export function enableGrad<T>(fn?: () => T): T | Disposable {
  const set = localExcluded().minus(AUTOGRAD_KEYSET);
  return fn ? withExcludedSet(set, fn) : new ExcludedSetGuard(set);
}

export function inferenceMode(): Disposable;
export function inferenceMode<T>(fn: () => T): T;
export function inferenceMode<T>(fn?: () => T): T | Disposable {
  return fn ? withExcluded(AUTOGRAD_KEYSET, fn) : new ExcludeGuard(AUTOGRAD_KEYSET);
}

/** Runs `fn` with grad mode set to `enabled`. */
export function setGradEnabled<T>(enabled: boolean, fn: () => T): T {
  return enabled ? enableGrad(fn) : noGrad(fn);
}
