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

export const AUTOGRAD_KEYSET = DispatchKeySet.of(
  DispatchKey.AutogradCPU,
  DispatchKey.AutogradWebGPU,
  DispatchKey.AutogradMeta,
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
