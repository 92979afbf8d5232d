import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Tensor,
  TorchError,
  asyncScopeTracking,
  empty,
  keep,
  liveCounts,
  registerAsyncScopeContext,
  tidy,
  tidyAsync,
} from '../src/index';

// Core Note [Async scopes], in its two regimes: with an async-context provider (Node's
// AsyncLocalStorage, as @torch-ts/torch registers it) and without one (the browser's).

const m = (shape: number[]): Tensor => empty(shape, { device: 'meta' });
const liveMeta = () => liveCounts('meta').tensors;
/** Yields to the event loop (a macrotask), so that other bodies run in between. */
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

function useAls(): void {
  const storage = new AsyncLocalStorage<object>();
  registerAsyncScopeContext({ run: (f, fn) => storage.run(f, fn), get: () => storage.getStore() });
}

afterEach(() => registerAsyncScopeContext(null));

describe('tidyAsync with an async-context provider', () => {
  it('says which regime holds', () => {
    expect(asyncScopeTracking()).toBe('explicit');
    useAls();
    expect(asyncScopeTracking()).toBe('async-context');
  });

  it('disposes what the body made across awaits and keeps its result', async () => {
    useAls();
    const n = liveMeta();
    const made: Tensor[] = [];
    const r = await tidyAsync(async () => {
      made.push(m([1]));
      await tick();
      made.push(m([2]));
      await Promise.resolve();
      made.push(m([3]));
      return { out: made[2], list: [made[1]] };
    });
    expect(made[0].isDisposed).toBe(true);
    expect(made[1].isDisposed).toBe(false);
    expect(r.out).toBe(made[2]);
    expect(liveMeta()).toBe(n + 2);
    r.out.dispose();
    r.list[0].dispose();
    expect(liveMeta()).toBe(n);
  });

  it('interleaved bodies dispose only their own tensors', async () => {
    useAls();
    const n = liveMeta();
    const a: Tensor[] = [];
    const b: Tensor[] = [];
    let releaseA!: () => void;
    const gateA = new Promise<void>((r) => (releaseA = r));
    const pa = tidyAsync(async () => {
      a.push(m([1]));
      await gateA; // A waits while B runs, makes tensors and settles
      a.push(m([2]));
      return a[1];
    });
    const pb = tidyAsync(async () => {
      await tick();
      b.push(m([3]));
      await tick();
      b.push(m([4]));
      return null;
    });
    await pb;
    // B settled: its tensors are gone, A's (made before and after B's) are untouched
    expect(b.every((t) => t.isDisposed)).toBe(true);
    expect(a[0].isDisposed).toBe(false);
    releaseA();
    const ra = await pa;
    expect(a[0].isDisposed).toBe(true);
    expect(ra.isDisposed).toBe(false);
    ra.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('many concurrent bodies, each returning one of its tensors', async () => {
    useAls();
    const n = liveMeta();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        tidyAsync(async () => {
          const ts = [m([i + 1])];
          for (let k = 0; k < 3; k++) {
            await tick();
            ts.push(m([i + 1]));
          }
          return ts[i % 4];
        }),
      ),
    );
    expect(liveMeta()).toBe(n + 20);
    results.forEach((t, i) => expect(t.shape).toEqual([i + 1]));
    for (const t of results) t.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('nested scopes: the inner result moves to the outer scope', async () => {
    useAls();
    const n = liveMeta();
    let inner: Tensor | null = null;
    const r = await tidyAsync(async () => {
      inner = await tidyAsync(async () => {
        await tick();
        m([9]);
        return m([1]);
      });
      expect(liveMeta()).toBe(n + 1);
      const sync = tidy(() => [m([2]), m([3])][1]); // a sync tidy inside, after an await
      await tick();
      return sync;
    });
    expect(inner!.isDisposed).toBe(true); // not returned by the outer body
    expect(r.shape).toEqual([3]);
    r.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('a rejection disposes every tensor of the body and propagates the same error', async () => {
    useAls();
    const n = liveMeta();
    const err = new Error('boom');
    let made: Tensor | null = null;
    const p = tidyAsync(async () => {
      await tick();
      made = m([2]);
      await tick();
      throw err;
    });
    await expect(p).rejects.toBe(err);
    expect(made!.isDisposed).toBe(true);
    expect(liveMeta()).toBe(n);
  });

  it('refuses a non-function with a rejection naming tidyAsync', async () => {
    await expect(tidyAsync(42 as never)).rejects.toThrow(/^tidyAsync: expected a function, but got number$/);
  });

  it('a synchronous throw in the body becomes a rejection (no throw from tidyAsync)', async () => {
    useAls();
    const n = liveMeta();
    const err = new TorchError('sync');
    const p = tidyAsync(() => {
      m([1]);
      throw err;
    });
    await expect(p).rejects.toBe(err);
    expect(liveMeta()).toBe(n);
  });

  it('a continuation that outlives its scope falls back to the enclosing scope', async () => {
    useAls();
    const n = liveMeta();
    let late: Tensor | null = null;
    let lateDone!: () => void;
    const done = new Promise<void>((r) => (lateDone = r));
    const outer = await tidyAsync(async () => {
      await tidyAsync(async () => {
        setTimeout(() => {
          late = m([5]); // the inner scope has settled by now: the outer one owns this
          lateDone();
        }, 5);
        return null;
      });
      await done;
      expect(late!.isDisposed).toBe(false);
      return 1;
    });
    expect(outer).toBe(1);
    expect(late!.isDisposed).toBe(true);
    expect(liveMeta()).toBe(n);
  });

  it('keep() takes a tensor out of the async scope', async () => {
    useAls();
    const n = liveMeta();
    let kept: Tensor | null = null;
    await tidyAsync(async () => {
      await tick();
      kept = keep(m([4]));
    });
    expect(kept!.isDisposed).toBe(false);
    kept!.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('the sync tidy still refuses a Promise and names tidyAsync', () => {
    useAls();
    let e: unknown;
    try {
      tidy(async () => m([1]));
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(TorchError);
    expect((e as Error).message).toMatch(/^tidy: fn returned a Promise; .*tidyAsync/);
  });
});

describe('tidyAsync without a provider (the browser regime)', () => {
  it('tracks the synchronous start, scope.run segments and scope.track; never misattributes', async () => {
    expect(asyncScopeTracking()).toBe('explicit');
    const n = liveMeta();
    const start: Tensor[] = [];
    const seg: Tensor[] = [];
    let loose: Tensor | null = null;
    let tracked: Tensor | null = null;
    let otherLoose: Tensor | null = null;
    const pa = tidyAsync(async (scope) => {
      start.push(m([1])); // before the first await: tracked
      await tick();
      loose = m([2]); // after an await, unmarked: this regime cannot tell whose it is
      seg.push(...scope.run(() => [m([3]), m([4])]));
      tracked = scope.track(m([5]));
      await tick();
      return seg[1];
    });
    const pb = tidyAsync(async () => {
      await tick();
      otherLoose = m([6]);
      await tick();
    });
    const [ra] = await Promise.all([pa, pb]);
    expect(start[0].isDisposed).toBe(true);
    expect(seg[0].isDisposed).toBe(true);
    expect(tracked!.isDisposed).toBe(true);
    expect(ra).toBe(seg[1]);
    expect(ra.isDisposed).toBe(false);
    // neither body disposed a tensor it could not attribute
    expect(loose!.isDisposed).toBe(false);
    expect(otherLoose!.isDisposed).toBe(false);
    for (const t of [ra, loose!, otherLoose!]) t.dispose();
    expect(liveMeta()).toBe(n);
  });

  it('scope.run refuses a Promise and a settled scope', async () => {
    let saved: { run: (f: () => unknown) => unknown } | null = null;
    await tidyAsync(async (scope) => {
      saved = scope;
      expect(() => scope.run(async () => 1)).toThrow(/^AsyncScope.run: fn returned a Promise/);
    });
    expect(() => saved!.run(() => 1)).toThrow(/^AsyncScope.run: this scope has already settled/);
  });

  it('a rejection disposes the tracked tensors and propagates the same error', async () => {
    const n = liveMeta();
    const err = new RangeError('bad');
    const p = tidyAsync(async (scope) => {
      m([1]);
      await tick();
      scope.run(() => m([2]));
      throw err;
    });
    await expect(p).rejects.toBe(err);
    expect(liveMeta()).toBe(n);
  });

  it('started inside a sync tidy, the body owns its own tensors', async () => {
    const n = liveMeta();
    let p: Promise<Tensor> | null = null;
    let outerTemp: Tensor | null = null;
    tidy(() => {
      outerTemp = m([1]);
      p = tidyAsync(async () => m([2]));
      return null;
    });
    expect(outerTemp!.isDisposed).toBe(true);
    const r = await p!;
    expect(r.isDisposed).toBe(false); // the sync tidy did not take the body's result
    r.dispose();
    expect(liveMeta()).toBe(n);
  });
});
