/**
 * The OpInfo table on WebGPU (Dawn + SwiftShader in Node), with CPU as the oracle (STYLE.md
 * habit 6), run by test/webgpu-table.test.ts (Note [One process for the WebGPU table]).
 * After the OpInfo checks it runs the vmap and forward-AD sweeps over the same ops on WebGPU
 * (float32, one sample per op: ops-webgpu-sweeps.ts), reusing the pipelines those compiled.
 * What WebGPU cannot match yet is a strict xfail with its reason (Note [Strict xfails]): an
 * entry that starts passing fails the run. Without an adapter the suite is skipped with a
 * notice, unless TORCH_TS_REQUIRE_WEBGPU=1 makes that an error.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { REAL_DTYPES } from '@torch-ts/torch';
import { OP_TABLE } from '../src/op-info';
import { describeOpInfo } from '../src/run-op-info';
import { registerDeviceHarness, webgpuHarness } from '../src/devices';
import { caseId, loadOpGoldens } from '../src/goldens';
import { disposeAll, makeInputs } from '../src/inputs';
import { notOnWebgpu, webgpuXfails } from '../src/webgpu-xfails';
import { describeWebgpuSweeps } from './ops-webgpu-sweeps';

/**
 * Registers the table's suite in the calling test file; `shard` runs every count-th op from
 * `index` only (a way to split the table while developing; CI runs it whole).
 */
export async function opsWebgpuSuite(shard: { readonly index: number; readonly count: number } = { index: 0, count: 1 }): Promise<void> {
  const ready = await torch.webgpu.init();
  if (ready) {
    const only = process.env.TORCH_TS_WEBGPU_OPS?.split(',');
    // this shard's ops: every count-th of the table, from index (the ops alternate in cost)
    const selected = (only ? OP_TABLE.filter((op) => only.includes(op.name)) : OP_TABLE).filter((_, i) => i % shard.count === shard.index);
    // Ops WebGPU computes in no dtype get a strict probe below instead of their cases.
    const NOT_ON_WEBGPU = notOnWebgpu(OP_TABLE);
    const table = selected.filter((op) => !(op.name in NOT_ON_WEBGPU));
    const xfails = webgpuXfails(table, OP_TABLE);
    registerDeviceHarness(webgpuHarness(xfails));
    // Complex cases (Note [Complex OpInfo]) run in complex64, two float32 lanes; complex128,
    // whose parts are float64, must raise WebGPU's DTypeError as float64 does (dtype xfails).
    describeOpInfo(table, ['webgpu'], { requireEveryGoldenOp: false, dtypes: [...REAL_DTYPES, 'complex64', 'complex128'] });
    // After the OpInfo checks, in this process: the sweeps reuse the pipelines those compiled.
    describeWebgpuSweeps(table, OP_TABLE, xfails);

    const absent = selected.filter((o) => o.name in NOT_ON_WEBGPU);
    if (absent.length > 0) describe('ops not on WebGPU yet (strict: each must still fail somewhere)', () => {
      const goldens = loadOpGoldens();
      for (const op of absent) {
        it(`${op.name}: ${NOT_ON_WEBGPU[op.name]}`, () => {
          // Every golden case, error cases included (a missing kernel can also pre-empt the
          // error PyTorch raises): some must still meet a missing WebGPU kernel or dtype.
          const cases = goldens.get(op.name) ?? [];
          const missing: string[] = [];
          for (const c of cases) {
            const inputs = makeInputs(c, 'webgpu');
            let result: unknown = null;
            try {
              result = op.call(inputs, c.kwargs);
            } catch (e) {
              const m = String((e as Error).message);
              if (/no kernel for aten::\S+ on WebGPU|on webgpu/.test(m)) missing.push(caseId(c));
            } finally {
              disposeAll(inputs, result);
            }
          }
          expect(missing.length, `${op.name} ran every case on WebGPU: its dtype table (kernels-webgpu dtypes.ts) must say so`).toBeGreaterThan(0);
        });
      }
    });
    if (shard.index === 0) describe('the facade on webgpu', () => {
      it('moves tensors both ways, reads async, and refuses sync reads by naming the async one', async () => {
        const x = torch.tensor([[1, 2], [3, 4]], { dtype: 'float32', device: 'webgpu' });
        expect(String(x.device)).toBe('webgpu:0');
        expect(await x.tolistAsync()).toEqual([[1, 2], [3, 4]]);
        expect(await x.sum().itemAsync()).toBe(10);
        expect(() => x.tolist()).toThrow(/tolistAsync/);
        const back = await x.toAsync('cpu');
        expect(back.tolist()).toEqual([[1, 2], [3, 4]]);
        const up = back.to('webgpu');
        expect(Array.from(await up.data() as Float32Array)).toEqual([1, 2, 3, 4]);
        expect(torch.webgpu.isAvailable()).toBe(true);
        await torch.webgpu.synchronize();
      });

      it('runs autograd unchanged on webgpu (CPU gives the same gradient)', async () => {
        const grads: number[][] = [];
        for (const device of ['cpu', 'webgpu'] as const) {
          const w = torch.tensor([[0.5, -1], [2, 0.25]], { device, requiresGrad: true });
          const xin = torch.tensor([[1, 2], [3, 4]], { dtype: 'float32', device });
          const loss = torch.mm(xin, w).relu().mul(xin).sum();
          loss.backward();
          grads.push(Array.from(await w.grad!.data() as Float32Array));
        }
        expect(grads[1]).toEqual(grads[0]);
      });

      it('reports webgpu memory stats with the caching allocator counters', () => {
        const s = torch.memory.stats('webgpu');
        expect(s.device).toBe('webgpu:0');
        expect(s.allocator).toHaveProperty('cacheHits');
        torch.webgpu.emptyCache();
      });
    });
  } else {
    console.warn('[ops-webgpu] OpInfo on WebGPU SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
    // Only a machine without any adapter gets here (TORCH_TS_REQUIRE_WEBGPU=1, as CI sets it,
    // makes init() throw instead): check that this, and not a failed initialisation, is why.
    it('has no WebGPU adapter here, the one reason this suite may not run', () => {
      expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
    });
  }
}
