import { TorchError, TorchTypeError } from '../errors';

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
 * other work would run inside it (`tidyAsync` is the scope that can, Note [Async scopes]).
 * A handle joins the FinalizationRegistry only when it leaves the last scope (Note [Handles
 * in a tidy scope are not registered]).
 *
 * A scope is a `ScopeFrame`: the handles it holds, the scope that was innermost when it opened
 * (its parent, where kept handles go) and whether it is still open. Which frame is innermost
 * ("current") is answered by two sources, in order:
 *  1. the synchronous stack: the frames of the `tidy` calls (and `scope.run` segments, and
 *     the synchronous start of a `tidyAsync` body) now on the JS call stack. It is empty
 *     whenever a task or microtask starts, since each entry is pushed and popped by one
 *     synchronous call; so a frame on it can only be the one whose code is running.
 *  2. otherwise, the async context: the `tidyAsync` frame that the running continuation
 *     belongs to, as an async-context provider carries it across `await` (Note [Async scopes]).
 */
export interface ScopeFrame {
  readonly tracked: Set<Trackable>;
  /** The frame that was current when this one opened: its kept handles go there (or to its nearest open ancestor). */
  readonly parent: ScopeFrame | null;
  open: boolean;
}

let syncStack: ScopeFrame[] = [];

/**
 * Note [Async scopes]
 * `tidyAsync(async (scope) => ...)` is a scope that spans `await`: when the body's promise
 * settles, every handle the body made is disposed except those reachable from its result
 * (which move to the enclosing scope, as `tidy`'s do); when it rejects (or throws), every
 * handle it made is disposed and the same error propagates, untouched, through the promise
 * that `tidyAsync` returns, which is the only promise it creates (nothing is left to reject
 * unhandled). Other async bodies may run between the body's awaits; what they make is theirs.
 *
 * Knowing which body made a tensor after an `await` needs a value that follows the async
 * continuation: an async-context provider (`AsyncScopeContext`). Core imports nothing, so
 * core declares the interface and finds one of two providers:
 *  - the TC39 `AsyncContext.Variable`, where the global exists;
 *  - one registered from above: `@torch-ts/torch` registers Node's `AsyncLocalStorage`
 *    (`node:async_hooks`, fetched with `process.getBuiltinModule` so browser bundles never see it).
 * With a provider, a frame is entered with `provider.run(frame, body)` and every
 * continuation of the body (awaits, timers, `then` callbacks it schedules) sees it. Work the
 * body started and did not await that runs after it settled (a timer) goes to the nearest
 * scope still open above it, or to none. A callback the provider cannot follow (a native
 * callback outside Node's async hooks) sees no frame: its tensors are untracked, never
 * given to another body.
 *
 * Without one (browsers today), nothing tells a continuation apart from another body's, and
 * a global "current scope" that `tidyAsync` set and restored around awaits would hand one
 * body's tensors to whichever body resumed first: unsound as soon as two bodies interleave.
 * So there torch-ts tracks only what it can attribute for certain:
 *  - the synchronous start of the body (up to its first `await`), which runs on the stack;
 *  - synchronous segments the body marks: `scope.run(() => ...)`;
 *  - handles given to `scope.track(t)`.
 * Tensors made elsewhere after an `await` are attributed to no async scope: they are neither
 * disposed early nor misattributed, and the FinalizationRegistry (or `dispose`, `using`)
 * releases them. (Node before 20.16, which lacks `process.getBuiltinModule`, is in this
 * regime too.) `asyncScopeTracking()` says which regime holds. Code written for both
 * regimes wraps its synchronous stretches after each `await` in `scope.run`, which costs
 * nothing where a provider exists.
 */
export interface AsyncScopeContext {
  /** Runs `fn` with `frame` as the async context value of everything it starts. */
  run<R>(frame: object, fn: () => R): R;
  /** The value of the innermost `run` the running code descends from. */
  get(): object | undefined;
}

let asyncContext: AsyncScopeContext | null = tc39AsyncContext();
/** `tidyAsync` frames not yet settled: while none is, the async context is not consulted (tensor creation stays one array check). */
let asyncOpen = 0;

interface Tc39Variable {
  run<R>(value: object | undefined, fn: () => R): R;
  get(): object | undefined;
}

function tc39AsyncContext(): AsyncScopeContext | null {
  const ac = (globalThis as { AsyncContext?: { Variable?: new () => Tc39Variable } }).AsyncContext;
  if (typeof ac?.Variable !== 'function') return null;
  const v = new ac.Variable();
  return { run: (frame, fn) => v.run(frame, fn), get: () => v.get() };
}

/** Registers the provider that carries `tidyAsync` scopes across `await` (Note [Async scopes]); null removes it. */
export function registerAsyncScopeContext(provider: AsyncScopeContext | null): void {
  if (asyncOpen > 0) throw new TorchError('registerAsyncScopeContext: cannot change the provider while a tidyAsync scope is open');
  asyncContext = provider;
}

/**
 * How `tidyAsync` attributes tensors made after an `await` (Note [Async scopes]):
 * 'async-context' (automatically, through AsyncLocalStorage or AsyncContext) or
 * 'explicit' (only `scope.run` segments and `scope.track`).
 */
export function asyncScopeTracking(): 'async-context' | 'explicit' {
  return asyncContext ? 'async-context' : 'explicit';
}

function isFrame(v: unknown): v is ScopeFrame {
  return typeof v === 'object' && v !== null && 'tracked' in v && 'open' in v;
}

/** The innermost open frame: the sync stack's top, else the async context's frame (or its nearest open ancestor). */
function current(): ScopeFrame | null {
  if (syncStack.length) return syncStack[syncStack.length - 1];
  if (asyncOpen === 0 || asyncContext === null) return null;
  const v = asyncContext.get();
  return isFrame(v) ? openAncestor(v) : null;
}

/** `f` if open, else its nearest open ancestor (a continuation may outlive its scope: a timer it set). */
function openAncestor(f: ScopeFrame | null): ScopeFrame | null {
  while (f !== null && !f.open) f = f.parent;
  return f;
}

/** Records `t` in the innermost scope; false when no scope is open. */
export function trackInScope(t: Trackable): boolean {
  if (syncStack.length === 0 && asyncOpen === 0) return false; // the common case, on every tensor made
  const f = current();
  if (f === null) return false;
  f.tracked.add(t);
  return true;
}

export function untrackFromScope(t: Trackable): void {
  if (syncStack.length === 0 && asyncOpen === 0) return;
  const f = current();
  if (f !== null) f.tracked.delete(t);
}

function openFrame(): ScopeFrame {
  return { tracked: new Set(), parent: current(), open: true };
}

/** Disposes every handle of `frame` (after a failure). */
function closeFailed(frame: ScopeFrame): void {
  frame.open = false;
  for (const t of frame.tracked) if (!t.isDisposed) t.dispose();
  frame.tracked.clear();
}

/** Disposes the handles of `frame` not reachable from `result`; the others move to the nearest open ancestor. */
function closeWith(frame: ScopeFrame, result: unknown): void {
  frame.open = false;
  const kept = new Set<Trackable>();
  collect(result, kept, new Set());
  const outer = openAncestor(frame.parent);
  for (const t of frame.tracked) {
    if (!kept.has(t)) {
      if (!t.isDisposed) t.dispose();
    } else if (outer) outer.tracked.add(t);
    else if (!t.isDisposed) t[LEFT_SCOPES]?.();
  }
  frame.tracked.clear();
}

/** Runs synchronous `fn` with `frame` innermost; refuses a Promise (after disposing what `frame` holds when `owned`). */
function runSync<T>(op: string, frame: ScopeFrame, fn: () => T, owned: boolean): T {
  syncStack.push(frame);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    syncStack.pop();
    if (owned) closeFailed(frame);
    throw e;
  }
  syncStack.pop();
  if (result instanceof Promise) {
    if (owned) closeFailed(frame);
    // (the promise is the caller's: swallowing its rejection here would hide a real error, so
    // only our refusal is thrown and the promise is left as the caller made it)
    throw new TorchError(`${op}: fn returned a Promise; ${op} cannot span an await (use torch.tidyAsync for async code)`);
  }
  return result;
}

export function tidy<T>(fn: () => T): T {
  const frame = openFrame();
  const result = runSync('tidy', frame, fn, true);
  closeWith(frame, result);
  return result;
}

/** The handle a `tidyAsync` body receives (Note [Async scopes]). */
export class AsyncScope {
  readonly #frame: ScopeFrame;

  /** @internal */
  constructor(frame: ScopeFrame) {
    this.#frame = frame;
  }

  /** Whether the body has not settled yet. */
  get isOpen(): boolean {
    return this.#frame.open;
  }

  /**
   * Runs synchronous `fn` inside this scope: what it makes is this scope's, whatever the
   * async-context provider (the way to get automatic tracking after an `await` without one).
   */
  run<T>(fn: () => T): T {
    if (!this.#frame.open) throw new TorchError('AsyncScope.run: this scope has already settled');
    return runSync('AsyncScope.run', this.#frame, fn, false);
  }

  /** Records `t` (and takes it out of the scope that held it) so it is disposed when this scope settles; returns `t`. */
  track<T extends Trackable>(t: T): T {
    if (!this.#frame.open) throw new TorchError('AsyncScope.track: this scope has already settled');
    if (t.isDisposed) return t;
    untrackFromEnclosing(t);
    this.#frame.tracked.add(t);
    return t;
  }
}

/**
 * `tidy` for async bodies (Note [Async scopes]): `await torch.tidyAsync(async (scope) => ...)`.
 * Resolves to the body's result, whose tensors survive; every other tensor the body made is
 * disposed when it settles. A rejection (or a synchronous throw) disposes all of them and
 * rejects with the same error.
 */
export function tidyAsync<T>(fn: (scope: AsyncScope) => Promise<T> | T): Promise<T> {
  if (typeof fn !== 'function') return Promise.reject(new TorchTypeError(`tidyAsync: expected a function, but got ${fn === null ? 'null' : typeof fn}`));
  const frame = openFrame();
  const scope = new AsyncScope(frame);
  asyncOpen++;
  // The synchronous start runs with `frame` on the stack (whatever sync scopes are open
  // around this call are not the body's); continuations find it through the provider.
  const saved = syncStack;
  syncStack = [frame];
  let started: Promise<T> | T;
  try {
    const ctx = asyncContext;
    started = ctx ? ctx.run(frame, () => fn(scope)) : fn(scope);
  } catch (e) {
    syncStack = saved;
    asyncOpen--;
    closeFailed(frame);
    return Promise.reject(e);
  }
  syncStack = saved;
  return Promise.resolve(started).then(
    (result) => {
      asyncOpen--;
      closeWith(frame, result);
      return result;
    },
    (e: unknown) => {
      asyncOpen--;
      closeFailed(frame);
      throw e;
    },
  );
}

/** Keeps a handle made inside `tidy` alive past the scope. */
export function keep<T extends Trackable>(t: T): T {
  if (untrackFromEnclosing(t) && !t.isDisposed) t[LEFT_SCOPES]?.();
  return t;
}

/** Takes `t` out of every enclosing scope (the frames on the stack and the chain above the innermost one); whether any held it. */
function untrackFromEnclosing(t: Trackable): boolean {
  let tracked = false;
  for (const s of syncStack) if (s.tracked.delete(t)) tracked = true;
  for (let f = current(); f !== null; f = f.parent) if (f.tracked.delete(t)) tracked = true;
  return tracked;
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
