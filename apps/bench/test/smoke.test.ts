import { describe, expect, it } from 'vitest';
import { torchTs } from '../src/libs/torch-ts';
import { isNa } from '../src/libs/types';
import { measure } from '../src/measure';
import { compareProbes, probeOf } from '../src/probe';
import { cellOf, formatTable, median } from '../src/report';
import { TINY_WORKLOADS } from '../src/workloads';

// The torch-ts side of `pnpm bench --quick`, on tiny sizes: every workload sets up, runs,
// forces its result and disposes what it made. No timing is asserted.
const OPTIONS = { targetMs: 1, maxReps: 2, warmupMs: 0, maxWarmups: 1, slowMs: 10_000, probe: true };

describe('bench (torch-ts, tiny sizes)', () => {
  for (const w of TINY_WORKLOADS) {
    it(w.id, () => {
      const m = measure(torchTs, w, OPTIONS);
      if (m.na !== undefined) {
        // Only the ops other work is still adding may be missing.
        expect(m.na).toMatch(/^op missing/);
        expect(['softmax', 'conv2d', 'mlp-step']).toContain(w.id);
        return;
      }
      expect(m.samples.length).toBeGreaterThan(0);
      expect(m.probe!.length).toBeGreaterThan(0);
      expect(Number.isFinite(m.probe!.sum)).toBe(true);
    });
  }

  it('computes what the workloads say', () => {
    const run = (id: string) => {
      const s = torchTs.setup(TINY_WORKLOADS.find((w) => w.id === id)!);
      if (isNa(s)) throw new Error(s.na);
      try {
        return Array.from(s.run() as ArrayLike<number>);
      } finally {
        s.dispose();
      }
    };
    const sum = run('sum-16M');
    const exp = run('exp-4M');
    expect(sum.length).toBe(1);
    expect(exp.length).toBe(1000);
    // add-transposed: (a^T + b) differs from a + b; the tiny shape is [7, 9] with a [9, 7].
    expect(run('add-transposed').length).toBe(63);
    expect(run('sum-lastdim').length).toBe(7);
  });

  it('flags a wrong result and formats n/a', () => {
    const ref = probeOf(Float32Array.from([1, 2, 3, 4]));
    expect(compareProbes(probeOf(Float32Array.from([1, 2, 3, 4.0001])), ref)).toBeNull();
    expect(compareProbes(probeOf(Float32Array.from([1, 2, 3, 5])), ref)).toMatch(/sample 3/);
    expect(median([3, 1, 2, 10])).toBe(2.5);
    const rows = new Map([
      ['matmul-128', new Map([['torch-ts', cellOf([{ id: 'matmul-128', samples: [1, 2, 3] }])], ['tfjs-cpu', cellOf([{ id: 'matmul-128', samples: [], na: 'nope' }])]])],
    ]) as Parameters<typeof formatTable>[2];
    const table = formatTable(TINY_WORKLOADS.slice(0, 1), ['torch-ts', 'tfjs-cpu'], rows);
    expect(table).toContain('n/a');
    expect(table).toContain('matmul-128 on tfjs-cpu: n/a (nope)');
  });
});
