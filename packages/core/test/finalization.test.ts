import { describe, expect, it } from 'vitest';
import { empty, liveCounts } from '../src';

const gc = (globalThis as { gc?: () => void }).gc;

async function collectUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !done(); i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Up to 50 forced full GCs per test: seconds on a loaded 2-core machine, not a hang.
describe('the FinalizationRegistry safety net', { timeout: 30_000 }, () => {
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
});
