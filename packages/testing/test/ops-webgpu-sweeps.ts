/**
 * The OpInfo-wide vmap and forward-AD sweeps on WebGPU (issue 19: "the same suites on
 * WebGPU"), as extra describe blocks of a WebGPU OpInfo shard (ops-webgpu-suite.ts) over the
 * shard's own ops: they run after the shard's OpInfo checks, in the same process, so they
 * reuse the WGSL pipelines those have compiled (shader compiles are most of WebGPU's CPU
 * time on SwiftShader). They are the float32 device mirrors of the CPU sweeps:
 *   - vmap (Note [The vmap sweep]): for one float32 golden case per op (the smallest that
 *     the shard's forward and oracle checks pass on WebGPU), vmap(op) on WebGPU, both
 *     variants, must equal the per-sample loop on the CPU over the same values within the
 *     op's float32 tolerance, and run no per-sample fallback outside STILL_LOOPED;
 *   - forward AD (Note [The forward-AD sweep]): for one gradcheck sample per differentiable
 *     op (the smallest WebGPU runs: GRAD_XFAILS_WEBGPU), cast to float32, the tangent on
 *     WebGPU must equal the CPU's float32 tangent.
 * What cannot pass is a strict xfail with its reason (VMAP_XFAILS_WEBGPU, JVP_XFAILS_WEBGPU:
 * Note [Strict xfails]): a listed op that passes fails the run.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import type { Tensor } from '@torch-ts/torch';
import { traceBatchedFallback } from '@torch-ts/core';
import { caseId, loadOpGoldens, type GoldenCase } from '../src/goldens';
import type { OpInfo } from '../src/op-info';
import { compareReadBacks, readBackSync, type ReadBack } from '../src/values';
import { XfailBook } from '../src/xfail';
import { STILL_LOOPED, VMAP_VARIANTS, runVmapCase, vmapDeviceCase } from '../src/vmap-sweep';
import { deviceTangentProblems, forwardAdDeviceSamples } from '../src/forward-ad-sweep';
import { GRAD_XFAILS_WEBGPU, JVP_XFAILS_WEBGPU, VMAP_XFAILS_WEBGPU } from '../src/webgpu-xfails';

async function readBack(t: Tensor): Promise<ReadBack> {
  const c = await t.toAsync('cpu');
  try {
    return readBackSync(c);
  } finally {
    if (c !== t) c.dispose();
  }
}

/** A test that must pass, or, with a reason, must fail (Note [Strict xfails]). */
function strict(title: string, reason: string | undefined, fn: () => Promise<string[]>): void {
  if (reason) {
    it(`${title} [xfail: ${reason}]`, async () => {
      let problems: string[];
      try {
        problems = await fn();
      } catch (e) {
        problems = [`threw ${(e as Error).message.split('\n')[0]}`];
      }
      expect(problems, `${title} now passes on webgpu: remove its xfail`).not.toEqual([]);
    });
  } else {
    it(title, async () => {
      expect((await fn()).join('\n')).toBe('');
    });
  }
}

/**
 * The two sweeps' describe blocks for `table` (the shard's ops that WebGPU computes).
 * `xfail` is the shard harness's (webgpuXfails), `allOps` the whole table (xfail keys must
 * name its ops).
 */
export function describeWebgpuSweeps(table: readonly OpInfo[], allOps: readonly OpInfo[], xfail: Readonly<Record<string, Readonly<Record<string, string>>>>): void {
  const goldens = loadOpGoldens();
  const names = new Set(allOps.map((op) => op.name));
  const here = new Set(table.map((op) => op.name));

  /** Whether the shard's forward and oracle checks of `c` are expected to pass (no xfail of either). */
  const passesHere = (op: OpInfo, c: GoldenCase) => {
    const book = new XfailBook(op.xfail, xfail[op.name]);
    const at = (check: 'forward' | 'oracle') => ({ check, dtype: c.dtype, sample: c.sample, caseId: caseId(c) });
    return !book.reason(at('forward')) && !book.reason(at('oracle'));
  };
  const vmapOps = table.filter((op) => !op.randomCheck).flatMap((op) => {
    const c = vmapDeviceCase(op, goldens, (k) => passesHere(op, k));
    return c ? [{ op, c }] : [];
  });
  // (random ops draw their own values on WebGPU, not the CPU's: Note [Counter-based random streams] in core)
  const jvpSamples = forwardAdDeviceSamples(
    table.filter((op) => !op.randomCheck),
    goldens,
    (id) => id in GRAD_XFAILS_WEBGPU || id.split('/')[0] in GRAD_XFAILS_WEBGPU,
  );

  describe(`vmap on webgpu equals the loop over samples (float32; ${vmapOps.length} of the shard's ${table.length} ops)`, () => {
    it('lists xfails of ops of the table only, each with a case in its shard', () => {
      const bad = Object.keys(VMAP_XFAILS_WEBGPU).filter((k) => !names.has(k) || (here.has(k) && !vmapOps.some((v) => v.op.name === k)));
      expect(bad).toEqual([]);
    });
    for (const { op, c } of vmapOps) {
      strict(`${op.name} (${caseId(c)})`, VMAP_XFAILS_WEBGPU[op.name], () =>
        torch.tidyAsync(async () => {
          const problems: string[] = [];
          for (const variant of VMAP_VARIANTS) {
            let run: ReturnType<typeof runVmapCase> | undefined;
            const looped = traceBatchedFallback(() => {
              run = runVmapCase(op, c, variant, 'webgpu', 'cpu');
            }).filter((n) => !STILL_LOOPED.includes(n));
            if (looped.length) problems.push(`${variant}: ran the per-sample fallback for ${looped.join(', ')} (not in STILL_LOOPED)`);
            if (!run || run.kind === 'loop-raised') continue;
            if (run.kind !== 'ran') {
              if (run.problem) problems.push(`${run.where}: ${run.problem}`);
              continue;
            }
            const { got, expected, where, tolerance } = run;
            if (got.length !== expected.length) problems.push(`${where}: ${got.length} outputs, expected ${expected.length}`);
            const reads = await Promise.all(got.map(readBack));
            reads.forEach((g, j) => {
              if (!expected[j]) return;
              const p = compareReadBacks(g, readBackSync(expected[j]), { tolerance });
              if (p.length) problems.push(`${where} output ${j}: ${p.slice(0, 3).join('; ')}`);
            });
          }
          return problems;
        }),
      );
    }
  });

  describe(`forward AD on webgpu equals the CPU's tangents (float32; ${jvpSamples.length} of the shard's ${table.length} ops)`, () => {
    it('lists xfails of ops of the table only, each with a sample in its shard', () => {
      const bad = Object.keys(JVP_XFAILS_WEBGPU).filter((k) => !names.has(k) || (here.has(k) && !jvpSamples.some((s) => s.op.name === k)));
      expect(bad).toEqual([]);
    });
    for (const s of jvpSamples) {
      strict(`${s.op.name} (${s.caseId})`, JVP_XFAILS_WEBGPU[s.op.name], () => deviceTangentProblems(s, 'webgpu'));
    }
  });
}
