import { TorchError } from '../errors';

/** What `tidy` tracks: anything disposable that may appear in a result. */
export interface Trackable {
  dispose(): void;
  readonly isDisposed: boolean;
  /** Called when a tracked handle leaves the last scope alive undisposed (a Tensor registers its safety net then). */
  [LEFT_SCOPES]?(): void;
}

/** The method key of `Trackable`'s left-the-scopes callback (a symbol: not part of Tensor's API). */
export const LEFT_SCOPES: unique symbol = Symbol('leftScopes');

/**
 * Note [tidy scopes]
 * `tidy(fn)` opens a scope; every tensor handle created while it is the innermost scope is
 * recorded there. When `fn` returns, the handles reachable from its result (a tensor, or
 * arrays / plain objects / Maps holding tensors) move to the enclosing scope (or become
 * untracked), and every other handle of the scope is disposed. Tensors created before the
 * scope are never touched. `fn` must be synchronous: a scope cannot span an `await`, since
 * other work would run inside it. A handle joins the FinalizationRegistry only when it
 * leaves the last scope (Note [Handles in a tidy scope are not registered]).
 */
const scopes: Set<Trackable>[] = [];

/** Records `t` in the innermost scope; false when no scope is open. */
export function trackInScope(t: Trackable): boolean {
  if (scopes.length === 0) return false;
  scopes[scopes.length - 1].add(t);
  return true;
}

export function untrackFromScope(t: Trackable): void {
  if (scopes.length) scopes[scopes.length - 1].delete(t);
}

export function tidy<T>(fn: () => T): T {
  const scope = new Set<Trackable>();
  scopes.push(scope);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    scopes.pop();
    for (const t of scope) if (!t.isDisposed) t.dispose();
    throw e;
  }
  scopes.pop();
  if (result instanceof Promise) {
    for (const t of scope) if (!t.isDisposed) t.dispose();
    throw new TorchError('tidy: fn returned a Promise; tidy cannot span an await (use dispose() or `using` in async code)');
  }
  const kept = new Set<Trackable>();
  collect(result, kept, new Set());
  const outer = scopes.length ? scopes[scopes.length - 1] : null;
  for (const t of scope) {
    if (!kept.has(t)) {
      if (!t.isDisposed) t.dispose();
    } else if (outer) outer.add(t);
    else if (!t.isDisposed) t[LEFT_SCOPES]?.();
  }
  return result;
}

/** Keeps a handle made inside `tidy` alive past the scope. */
export function keep<T extends Trackable>(t: T): T {
  let tracked = false;
  for (const s of scopes) if (s.delete(t)) tracked = true;
  if (tracked && !t.isDisposed) t[LEFT_SCOPES]?.();
  return t;
}

function isTrackable(v: object): v is Trackable {
  return 'dispose' in v && typeof v.dispose === 'function' && 'isDisposed' in v;
}

function collect(v: unknown, out: Set<Trackable>, seen: Set<unknown>): void {
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  if (isTrackable(v)) {
    out.add(v);
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) collect(x, out, seen);
  } else if (v instanceof Map) {
    for (const x of v.values()) collect(x, out, seen);
  } else if (Object.getPrototypeOf(v) === Object.prototype) {
    for (const x of Object.values(v)) collect(x, out, seen);
  }
}
