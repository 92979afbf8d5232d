import { DispatchKey } from './dispatch-key';
import { DispatchKeySet } from './dispatch-key-set';

/**
 * The process-wide included/excluded key sets (PyTorch keeps them thread-local; JavaScript
 * runs one op at a time). Every call's key set is (tensor keys ∪ included) − excluded.
 * `noGrad` excludes the autograd keys; an autograd kernel excludes them while it
 * redispatches to the backend ("below autograd").
 */
let included = DispatchKeySet.EMPTY;
let excluded = DispatchKeySet.EMPTY;

/**
 * Note [Inference tensors]
 * While `inferenceMode` is on, every tensor made with new data is an *inference tensor*
 * (PyTorch's `is_inference()`): its VersionCounter carries the flag, so its views and
 * aliases are inference tensors too, while a view made in the mode of a normal tensor stays
 * normal. Outside the mode, PyTorch refuses what would need autograd bookkeeping it skipped:
 * saving one for backward, `requiresGrad_(true)`, and writing one in place (Note [Version
 * counters are bumped at ADInplaceOrView] is where the write is refused, before the op runs).
 */
let inferenceModeOn = false;

export function isInferenceModeEnabled(): boolean {
  return inferenceModeOn;
}

/** Sets the inference mode flag and returns the previous one, which the caller restores in a `finally`. */
export function exchangeInferenceMode(on: boolean): boolean {
  const prev = inferenceModeOn;
  inferenceModeOn = on;
  return prev;
}

export const AUTOGRAD_KEYSET = DispatchKeySet.of(
  DispatchKey.AutogradCPU,
  DispatchKey.AutogradWebGPU,
  DispatchKey.AutogradMeta,
  DispatchKey.AutogradPrivateUse1,
);
export const AFTER_AUTOGRAD_EXCLUDED = AUTOGRAD_KEYSET.add(DispatchKey.ADInplaceOrView);

export function localIncluded(): DispatchKeySet {
  return included;
}

export function localExcluded(): DispatchKeySet {
  return excluded;
}

/**
 * Sets the excluded set and returns the set it replaces, which the caller must restore in a
 * `finally`. For the paths every op call takes (autograd's redispatch below itself), where
 * `withExcluded`'s closure or a guard object would be an allocation per call.
 */
export function exchangeExcluded(set: DispatchKeySet): DispatchKeySet {
  const prev = excluded;
  excluded = set;
  return prev;
}

/** A scope guard: keys excluded until disposed (`using _ = excludeKeys(...)`). */
export class ExcludeGuard implements Disposable {
  private readonly prev: DispatchKeySet;
  private done = false;

  constructor(keys: DispatchKeySet) {
    this.prev = excluded;
    excluded = excluded.union(keys);
  }

  [Symbol.dispose](): void {
    if (this.done) return;
    this.done = true;
    excluded = this.prev;
  }
}

export class IncludeGuard implements Disposable {
  private readonly prev: DispatchKeySet;
  private done = false;

  constructor(keys: DispatchKeySet) {
    this.prev = included;
    included = included.union(keys);
  }

  [Symbol.dispose](): void {
    if (this.done) return;
    this.done = true;
    included = this.prev;
  }
}

/** A scope guard that sets the excluded set to exactly `set` until disposed (`enableGrad` inside `noGrad`). */
export class ExcludedSetGuard implements Disposable {
  private readonly prev: DispatchKeySet;
  private done = false;

  constructor(set: DispatchKeySet) {
    this.prev = excluded;
    excluded = set;
  }

  [Symbol.dispose](): void {
    if (this.done) return;
    this.done = true;
    excluded = this.prev;
  }
}

/** Runs `fn` with `keys` excluded, restoring the previous set even when `fn` throws. */
export function withExcluded<T>(keys: DispatchKeySet, fn: () => T): T {
  const prev = excluded;
  excluded = excluded.union(keys);
  try {
    return fn();
  } finally {
    excluded = prev;
  }
}

/** Runs `fn` with exactly `set` as the excluded set (used to restore a saved state). */
export function withExcludedSet<T>(set: DispatchKeySet, fn: () => T): T {
  const prev = excluded;
  excluded = set;
  try {
    return fn();
  } finally {
    excluded = prev;
  }
}
