import { describe, expect, it } from 'vitest';
import { loadLibrary } from '../src/libs';
import { torchTsCpu } from '../src/libs/torch-ts';
import type { Library, LibName, NodeLibName } from '../src/libs/types';
import { measure } from '../src/measure';
import { compareProbes } from '../src/probe';
import { checkCells, cellOf, formatTable } from '../src/report';
import { TINY_WORKLOADS } from '../src/workloads';

// The WebGPU side of `pnpm bench --device webgpu --quick`, on tiny sizes: torch-ts on WebGPU
// and tfjs-backend-webgpu (both on Dawn, in this process) run every workload, force it (an
// awaited read), and their results are cross-checked against torch-ts on the CPU, the way
// the harness checks libraries against each other. No timing is asserted. Without a WebGPU
// adapter the suite is skipped with a notice, unless TORCH_TS_REQUIRE_WEBGPU=1.
const OPTIONS = { targetMs: 1, maxReps: 2, warmupMs: 0, maxWarmups: 1, slowMs: 10_000, probe: true };
const REQUIRED = process.env.TORCH_TS_REQUIRE_WEBGPU === '1';
/** Workloads whose ops other work is still bringing to WebGPU: n/a is allowed there, with its reason. */
const MAY_BE_MISSING = ['softmax', 'conv2d', 'mlp-step'];
/** Workloads tfjs cannot express at all (as in peers.test.ts): n/a with this reason. */
const TFJS_CANNOT: Readonly<Record<string, RegExp>> = { 'per-sample-vmap': /^no vmap in tfjs/, 'per-sample-loop': /^no vmap in tfjs/, 'per-sample-cnn-vmap': /^no vmap in tfjs/, 'per-sample-cnn-loop': /^no vmap in tfjs/ };
const torchTs = torchTsCpu('one');

async function load(name: NodeLibName): Promise<Library | null> {
  try {
    return await loadLibrary(name);
  } catch (e) {
    if (REQUIRED) throw e;
    console.warn(`[bench] ${name} tests SKIPPED: ${(e as Error).message} (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)`);
    return null;
  }
}

const torchWebgpu = await load('torch-ts-webgpu');
const tfjsWebgpu = torchWebgpu ? await load('tfjs-webgpu') : null;

for (const [name, lib] of [
  ['torch-ts-webgpu', torchWebgpu],
  ['tfjs-webgpu', tfjsWebgpu],
] as const) {
  describe.skipIf(!lib)(`bench (${name}, tiny sizes, checked against torch-ts CPU)`, () => {
    for (const w of TINY_WORKLOADS) {
      it(w.id, async () => {
        const ref = await measure(torchTs, w, OPTIONS);
        const m = await measure(lib!, w, OPTIONS);
        if (m.na !== undefined && name === 'tfjs-webgpu' && w.id in TFJS_CANNOT) {
          expect(m.na).toMatch(TFJS_CANNOT[w.id]!);
          return;
        }
        if (m.na !== undefined) {
          expect(name, `${w.id}: n/a (${m.na})`).toBe('torch-ts-webgpu');
          expect(MAY_BE_MISSING, `${w.id}: n/a (${m.na})`).toContain(w.id);
          expect(m.na).toMatch(/^no WebGPU kernel for aten::\S+ yet$/);
          console.warn(`[bench] ${w.id} on ${name}: n/a (${m.na})`);
          return;
        }
        expect(m.samples.length).toBeGreaterThan(0);
        if (ref.na !== undefined) return; // the CPU lacks the op too: nothing to check against
        expect(compareProbes(m.probe!, ref.probe!)).toBeNull();
        // The harness's check, as main.ts runs it: no mismatch flagged against torch-ts-webgpu.
        const cells = new Map<LibName, ReturnType<typeof cellOf>>([
          ['torch-ts', cellOf([ref])],
          [name, cellOf([m])],
        ]);
        checkCells(cells, name);
        expect(cells.get('torch-ts')!.mismatch).toBeUndefined();
      });
    }
  });
}

describe.skipIf(!torchWebgpu)('bench on webgpu: reporting', () => {
  it('describes the adapters and flags a wrong WebGPU result', () => {
    expect(torchWebgpu!.describe()).toMatch(/^torch-ts WebGPU/);
    if (tfjsWebgpu) expect(tfjsWebgpu.describe()).toMatch(/backend webgpu \(Dawn in Node/);
    const w = TINY_WORKLOADS[0];
    const good = { id: w.id, samples: [2], probe: { length: 4, samples: [1, 2, 3, 4], sum: 10, sumAbs: 10 } };
    const bad = { id: w.id, samples: [1], probe: { length: 4, samples: [1, 2, 3, 5], sum: 11, sumAbs: 11 } };
    const cells = new Map<LibName, ReturnType<typeof cellOf>>([
      ['torch-ts-webgpu', cellOf([good])],
      ['tfjs-webgpu', cellOf([bad])],
    ]);
    checkCells(cells, 'torch-ts-webgpu');
    expect(cells.get('tfjs-webgpu')!.mismatch).toMatch(/sample 3/);
    const table = formatTable([w], ['torch-ts-webgpu', 'tfjs-webgpu'], new Map([[w.id, cells]]), { notes: true, ours: 'torch-ts-webgpu' });
    expect(table).toContain('vs tfjs-webgpu');
    expect(table).toContain('WRONG');
  });
});
