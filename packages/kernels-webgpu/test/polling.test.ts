/**
 * Note [Dawn's polling on a software adapter]: the wrapped setImmediate recognises only the
 * binding's native poll callback, passes every other callback on unchanged, and makes a long
 * device wait poll about once a millisecond instead of flat out.
 */
import { describe, expect, it } from 'vitest';
import { add } from '@torch-ts/core';
import { deviceInfo, synchronize } from '../src';
import { dawnPollCounts, isDawnPoll } from '../src/runtime/polling';
import { gpuTensor, webgpuReady } from './helpers';

describe('isDawnPoll', () => {
  it('rejects JS functions, arrows, bound functions, classes and built-ins', () => {
    function named(): void {}
    const anon = [function () {}][0];
    expect(anon.name).toBe('');
    for (const f of [named, anon, () => {}, async () => {}, named.bind(null), anon.bind(null), class {}, Math.max, setTimeout, Function.prototype]) {
      expect(isDawnPoll(f)).toBe(false);
    }
    expect(isDawnPoll(undefined)).toBe(false);
    expect(isDawnPoll('x')).toBe(false);
  });
});

describe.skipIf(!webgpuReady)('setImmediate while torch-ts drives Dawn', () => {
  it('passes other callbacks on with their arguments, and clearImmediate still cancels them', async () => {
    const got = await new Promise<unknown[]>((resolve) => setImmediate((...a: unknown[]) => resolve(a), 1, 'two'));
    expect(got).toEqual([1, 'two']);
    let ran = false;
    clearImmediate(setImmediate(() => (ran = true)));
    await new Promise((r) => setTimeout(r, 5));
    expect(ran).toBe(false);
  });

  it.runIf(webgpuReady && deviceInfo().softwareAdapter && deviceInfo().source.startsWith('dawn'))(
    'polls about once a millisecond during a long wait on a software adapter, not flat out',
    async () => {
      // What is checked is a ratio (polls per millisecond waited), which load does not raise:
      // a busier machine makes the wait longer and the polls no more frequent. The work is
      // sized to last well past the 1 ms spin phase on SwiftShader and no longer, and the
      // time limit is generous, since under CI's load the same work took 4 to 15 times as long.
      const n = 1 << 20;
      const a = gpuTensor(Array.from({ length: n }, (_, i) => i % 7), 'float32');
      await synchronize();
      const before = dawnPollCounts();
      const t0 = performance.now();
      const ys = Array.from({ length: 8 }, () => add(a, a));
      await synchronize();
      const waited = performance.now() - t0;
      const after = dawnPollCounts();
      const polls = after.immediate - before.immediate + (after.delayed - before.delayed);
      expect(after.delayed - before.delayed).toBeGreaterThan(0);
      // at most one poll per ms after the spin phase (plus that phase's); flat out was about 40 per ms here
      expect(polls).toBeLessThan(waited * 1.5 + 200);
      ys.forEach((y) => y.dispose());
      a.dispose();
    },
    120_000,
  );
});
