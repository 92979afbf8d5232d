/**
 * vmap against a Python-style loop over samples for every op of the OpInfo table (Note [The
 * vmap sweep] in src/vmap-sweep.ts; core Note [Batched tensors]): for one real golden case
 * per op, a batch of 3 samples made of each tensor input (the input, its elements reversed,
 * its elements rolled by one), `vmap(op)` must equal the stack of the op's per-sample
 * results, within the op's tolerance; once with every tensor input mapped, once with only
 * the first (the others unbatched, broadcast over the batch). Ops whose loop raises for a
 * rearranged sample (a domain that needs order: sorted boundaries, a positive-definite
 * matrix) are compared on their first variant only where it ran. The ops that ran the
 * per-sample fallback during the sweep (core's traceBatchedFallback) must be exactly
 * STILL_LOOPED. The WebGPU shards (test/ops-webgpu-suite.ts) run the same check, float32,
 * on one case per op.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { OP_TABLE, loadOpGoldens, readBackSync, compareReadBacks } from '../src';
import { STILL_LOOPED, VMAP_VARIANTS, runVmapCase, vmapCase } from '../src/vmap-sweep';
import { traceBatchedFallback } from '@torch-ts/core';

describe('vmap equals a loop over samples', () => {
  it('for one golden case of every OpInfo op, all inputs mapped and only the first mapped', () => {
    const goldens = loadOpGoldens();
    const failures: string[] = [];
    let compared = 0;
    let loopRaised = 0;
    let noCase = 0;
    const warn = console.warn;
    console.warn = () => undefined;
    let fallbacks: string[] = [];
    try {
      fallbacks = traceBatchedFallback(() => {
        for (const op of OP_TABLE) {
          if (op.randomCheck) continue; // (random draws: vmap's randomness modes, in torch's func.test.ts)
          const c = vmapCase(op, goldens);
          if (!c) {
            noCase++;
            continue;
          }
          for (const variant of VMAP_VARIANTS) {
            torch.tidy(() => {
              const run = runVmapCase(op, c, variant);
              if (run.kind === 'loop-raised') {
                loopRaised++;
                return;
              }
              if (run.kind === 'refused') {
                if (run.problem) failures.push(`${run.where}: ${run.problem}`);
                compared++;
                return;
              }
              if (run.kind === 'vmap-raised') {
                failures.push(`${run.where}: ${run.problem}`);
                return;
              }
              const { got, expected, where, tolerance } = run;
              if (got.length !== expected.length) failures.push(`${where}: ${got.length} outputs, expected ${expected.length}`);
              got.forEach((g, j) => {
                if (!expected[j]) return;
                const problems = compareReadBacks(readBackSync(g), readBackSync(expected[j]), { tolerance });
                if (problems.length > 0) failures.push(`${where} output ${j}: ${problems.slice(0, 3).join('; ')}`);
              });
              compared++;
            });
          }
        }
      });
    } finally {
      console.warn = warn;
    }
    // (the counts, for the report: how much of the table the sweep reached)
    console.log(`vmap sweep: ${compared} comparisons, ${loopRaised} loop references raised, ${noCase} ops without a real case; ${fallbacks.length} ops ran the per-sample fallback`);
    expect(failures.join("\n")).toBe("");
    expect(fallbacks).toEqual(STILL_LOOPED);
    expect(compared).toBeGreaterThan(600);
  });
});
