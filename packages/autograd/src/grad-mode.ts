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
import { forwardLevelActive, setDualLevelEnterHook } from './forward-ad';

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
  return !reverseOff && !localExcluded().has(DispatchKey.AutogradCPU);
}

/**
 * Note [noGrad keeps forward AD]
 * PyTorch's no_grad stops reverse-mode recording only: dual tensors' tangents still
 * propagate under it (forward AD is not grad mode). torch-ts computes tangents in the
 * Autograd kernels (Note [Forward-mode AD]), which key exclusion would skip, so `noGrad`
 * entered while a dual level is active keeps the keys and sets `reverseOff` instead: the
 * Autograd kernels then run the op below autograd, record nothing, and still compute the
 * outputs' tangents. `enableGrad` clears it for its scope. A `noGrad` entered before the
 * dual level excludes the keys (the fast path: no Autograd kernel runs at all); entering a
 * dual level inside it (`noGradSwitchForDualLevel`, called by enterDualLevel) swaps that
 * exclusion for `reverseOff` until the level exits, so tangents propagate in either order,
 * as PyTorch 1.13's do. `keysOffByNoGrad` tells noGrad's exclusion from other exclusions of
 * the same keys (inferenceMode, an Autograd kernel redispatching below itself), which keep
 * forward AD off.
 */
let reverseOff = false;
/** True inside a `noGrad` scope that excluded the autograd keys (cleared by `enableGrad`). */
let keysOffByNoGrad = false;

/** Sets `keysOffByNoGrad` until disposed, then restores it. */
class KeysOffFlagGuard implements Disposable {
  private readonly prev = keysOffByNoGrad;
  private done = false;
  constructor(on: boolean) {
    keysOffByNoGrad = on;
  }
  [Symbol.dispose](): void {
    if (this.done) return;
    this.done = true;
    keysOffByNoGrad = this.prev;
  }
}

/** Disposes `inner` guards in reverse order, once. */
function stacked(...guards: Disposable[]): Disposable {
  let done = false;
  return {
    [Symbol.dispose]: () => {
      if (done) return;
      done = true;
      for (let i = guards.length - 1; i >= 0; i--) guards[i]![Symbol.dispose]();
    },
  };
}

/**
 * Called when a dual level is entered: inside a key-excluding `noGrad`, re-includes the
 * autograd keys and turns reverse recording off instead, until the returned guard is
 * disposed (at the level's exit). Null when nothing needs switching.
 */
export function noGradSwitchForDualLevel(): Disposable | null {
  if (!keysOffByNoGrad || !localExcluded().has(DispatchKey.AutogradCPU)) return null;
  const keys = new ExcludedSetGuard(localExcluded().minus(AUTOGRAD_KEYSET));
  const off = new ReverseOffGuard(true);
  const flag = new KeysOffFlagGuard(false);
  return stacked(keys, off, flag);
}

/** Whether reverse-mode recording is off while the Autograd kernels still run (Note [noGrad keeps forward AD]). */
export function reverseRecordingOff(): boolean {
  return reverseOff;
}

/** Sets `reverseOff` until disposed, then restores it. */
class ReverseOffGuard implements Disposable {
  private readonly prev = reverseOff;
  private done = false;
  constructor(on: boolean) {
    reverseOff = on;
  }
  [Symbol.dispose](): void {
    if (this.done) return;
    this.done = true;
    reverseOff = this.prev;
  }
}

function withGuard<T>(guard: Disposable, fn: () => T): T {
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}

setDualLevelEnterHook(noGradSwitchForDualLevel);

export function noGrad(): Disposable;
export function noGrad<T>(fn: () => T): T;
export function noGrad<T>(fn?: () => T): T | Disposable {
  if (forwardLevelActive()) {
    const guard = new ReverseOffGuard(true);
    return fn ? withGuard(guard, fn) : guard;
  }
  if (!fn) {
    const keys = new ExcludeGuard(AUTOGRAD_KEYSET);
    return stacked(keys, new KeysOffFlagGuard(true));
  }
  const flag = new KeysOffFlagGuard(true);
  return withGuard(flag, () => withExcluded(AUTOGRAD_KEYSET, fn));
}

export function enableGrad(): Disposable;
export function enableGrad<T>(fn: () => T): T;
export function enableGrad<T>(fn?: () => T): T | Disposable {
  const set = localExcluded().minus(AUTOGRAD_KEYSET);
  const flag = new KeysOffFlagGuard(false);
  if (!reverseOff) return fn ? withGuard(flag, () => withExcludedSet(set, fn)) : stacked(flag, new ExcludedSetGuard(set));
  const off = new ReverseOffGuard(false);
  if (!fn) return stacked(flag, off, new ExcludedSetGuard(set));
  return withGuard(stacked(flag, off), () => withExcludedSet(set, fn));
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
