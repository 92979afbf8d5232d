import {
  AUTOGRAD_KEYSET,
  DispatchKey,
  ExcludeGuard,
  exchangeInferenceMode,
  ExcludedSetGuard,
  localExcluded,
  withExcluded,
  withExcludedSet,
} from '@torch-ts/core';

/**
 * Note [Grad mode is key exclusion]
 * `noGrad` excludes the autograd dispatch keys, so ops go straight to the backend and
 * record nothing; `enableGrad` removes them from the excluded set again; `inferenceMode`
 * records nothing either, and the tensors it makes are inference tensors, which autograd
 * refuses outside it (core Note [Inference tensors]). (PyTorch's InferenceMode also skips
 * version counting for those; torch-ts still counts, which no check can observe.)
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

/** The scope guard of `inferenceMode()`: autograd keys excluded and inference tensors made until disposed. */
class InferenceModeGuard implements Disposable {
  private readonly keys = new ExcludeGuard(AUTOGRAD_KEYSET);
  private readonly prev = exchangeInferenceMode(true);
  private done = false;

  [Symbol.dispose](): void {
    if (this.done) return;
    this.done = true;
    exchangeInferenceMode(this.prev);
    this.keys[Symbol.dispose]();
  }
}

export function inferenceMode(): Disposable;
export function inferenceMode<T>(fn: () => T): T;
export function inferenceMode<T>(fn?: () => T): T | Disposable {
  if (!fn) return new InferenceModeGuard();
  const prev = exchangeInferenceMode(true);
  try {
    return withExcluded(AUTOGRAD_KEYSET, fn);
  } finally {
    exchangeInferenceMode(prev);
  }
}

/** Runs `fn` with grad mode set to `enabled`. */
export function setGradEnabled<T>(enabled: boolean, fn: () => T): T {
  return enabled ? enableGrad(fn) : noGrad(fn);
}
