import { describe, expect, it } from 'vitest';
import { empty, keep, liveCounts, tidy, type Tensor } from '../src';

const gc = (globalThis as { gc?: () => void }).gc;

async function collectUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !done(); i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Up to 50 forced full GCs per test: seconds on a loaded 2-core machine, not a hang.
describe('the FinalizationRegistry safety net', () => {
  it('runs with --expose-gc (vitest.config.ts)', () => {
    expect(typeof gc).toBe('function');
  });

  it('releases the TensorImpl and storage of handles nobody disposed', async () => {
    const counts = liveCounts('meta');
    const before = { tensors: counts.tensors, storages: counts.storages };
    (() => {
      for (let i = 0; i < 100; i++) empty([4], { device: 'meta' }).t();
    })();
    expect(counts.tensors).toBe(before.tensors + 200); // 100 bases and 100 views
    await collectUntil(() => counts.tensors === before.tensors);
    expect(counts.tensors).toBe(before.tensors);
    expect(counts.storages).toBe(before.storages);
  });

  it('does not release a handle twice when it was disposed before collection', async () => {
    const counts = liveCounts('meta');
    const before = counts.tensors;
    (() => {
      for (let i = 0; i < 50; i++) empty([2], { device: 'meta' }).dispose();
    })();
    expect(counts.tensors).toBe(before);
    await collectUntil(() => false); // give the registry every chance to misfire
    expect(counts.tensors).toBe(before);
  });

  it('keeps the storage of a collected base while a live view uses it', async () => {
    const counts = liveCounts('meta');
    const before = counts.storages;
    let view = (() => empty([3, 4], { device: 'meta' }).t())();
    await collectUntil(() => false);
    expect(counts.storages).toBe(before + 1);
    expect(view.shape).toEqual([4, 3]);
    view.dispose();
    view = undefined as never;
    expect(counts.storages).toBe(before);
  });

  // Note [Handles in a tidy scope are not registered]: a handle made inside tidy joins the
  // registry when it leaves the last scope, so the net still catches it afterwards.
  it('releases handles that left tidy scopes undisposed: returned from nested scopes, or taken out by keep()', async () => {
    const counts = liveCounts('meta');
    const before = { tensors: counts.tensors, storages: counts.storages };
    (() => {
      for (let i = 0; i < 20; i++) {
        tidy(() => tidy(() => empty([4], { device: 'meta' }))); // returned through two scopes
        tidy(() => {
          keep(empty([4], { device: 'meta' })); // kept, then dropped
          tidy(() => keep(empty([2], { device: 'meta' }))); // kept from an inner scope
          empty([3], { device: 'meta' }); // disposed by tidy
        });
      }
    })();
    expect(counts.tensors).toBe(before.tensors + 60);
    await collectUntil(() => counts.tensors === before.tensors);
    expect(counts.tensors).toBe(before.tensors);
    expect(counts.storages).toBe(before.storages);
  });

  it('does not release twice a handle that left a scope and was then disposed, nor one kept twice', async () => {
    const counts = liveCounts('meta');
    const before = counts.tensors;
    const held: Tensor[] = [];
    (() => {
      for (let i = 0; i < 20; i++) {
        const t = tidy(() => empty([2], { device: 'meta' }));
        const u = tidy(() => keep(keep(empty([2], { device: 'meta' }))));
        held.push(keep(t)); // keep outside any scope: not in a scope, nothing to do
        t.dispose();
        held.push(u.t()); // a live view keeps u's TensorImpl alive after u is collected
      }
    })();
    expect(counts.tensors).toBe(before + 40);
    await collectUntil(() => false);
    // the 20 collected `u` handles released their references once; their views hold the impls
    expect(counts.tensors).toBe(before + 40);
    // disposing the views drops the last references (a second release would throw here)
    for (const h of held) h.dispose();
    await collectUntil(() => counts.tensors === before);
    expect(counts.tensors).toBe(before);
  });

  // Note [Deferred registration]: handles wait for registration until a microtask or until
  // PENDING_MAX of them wait; either way the net catches the undisposed ones.
  it('releases handles dropped in a synchronous burst far longer than the pending batch', async () => {
    const counts = liveCounts('meta');
    const before = { tensors: counts.tensors, storages: counts.storages };
    (() => {
      for (let i = 0; i < 2000; i++) {
        empty([4], { device: 'meta' });
        empty([4], { device: 'meta' }).dispose();
      }
    })();
    expect(counts.tensors).toBe(before.tensors + 2000);
    await collectUntil(() => counts.tensors === before.tensors);
    expect(counts.tensors).toBe(before.tensors);
    expect(counts.storages).toBe(before.storages);
  });

  it('does not release again a handle registered after a microtask and disposed later', async () => {
    const counts = liveCounts('meta');
    const before = counts.tensors;
    const handles = Array.from({ length: 20 }, () => empty([2], { device: 'meta' }));
    await Promise.resolve(); // the pending handles are registered now
    const views = handles.map((h) => h.t()); // each keeps its base's TensorImpl alive
    for (const h of handles) h.dispose(); // unregisters
    handles.length = 0;
    await collectUntil(() => false);
    expect(counts.tensors).toBe(before + 40);
    for (const v of views) v.dispose(); // a second release of a base would throw here
    expect(counts.tensors).toBe(before);
  });
});
