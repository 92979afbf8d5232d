/**
 * `torch.supports(op, dtype, 'webgpu')` against what WebGPU does (core Note [Dtype support
 * is data]). Where it says yes, the OpInfo suite runs every case and compares it with CPU
 * (ops-webgpu-suite.ts, whose xfails derive from `supports`); here, where it says no, one case
 * per op and dtype must raise the DTypeError (or "no kernel") naming the op, not run or
 * compute something else: a kernel that gained the dtype without its table entry fails here
 * as in the strict xfails, and a table entry without the kernel fails the OpInfo suite.
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { OP_TABLE } from '../src/op-info';
import { caseId, loadOpGoldens, type GoldenCase } from '../src/goldens';
import { disposeAll, makeInputs } from '../src/inputs';
import { attemptForm } from '../src/op-forms';
import { kernelOp, unsupportedMark, webgpuXfails } from '../src/webgpu-xfails';
import type { OpInfo } from '../src/op-info/types';

/** One case per op and dtype that `supports` says WebGPU has no kernels for. */
function unsupportedCases(): { op: OpInfo; c: GoldenCase; reason: string }[] {
  const xfails = webgpuXfails(OP_TABLE);
  const goldens = loadOpGoldens();
  const picked = new Map<string, { op: OpInfo; c: GoldenCase; reason: string }>();
  for (const op of OP_TABLE) {
    for (const c of goldens.get(op.name) ?? []) {
      const reason = xfails[op.name]?.[`forward@${caseId(c)}/${c.dtype}`];
      const key = `${kernelOp(op.name, c)}/${c.dtype}`;
      if (reason === undefined || !reason.includes(`is false: kernels-webgpu`) || picked.has(key)) continue;
      picked.set(key, { op, c, reason });
    }
  }
  return [...picked.values()];
}

const ready = await torch.webgpu.init();
if (ready) {
  describe('supports() on webgpu', () => {
    const cases = unsupportedCases();

    it('has unsupported dtypes to check (float64 everywhere, the emulated ones per op)', () => {
      expect(cases.length).toBeGreaterThan(100);
      expect(cases.some(({ c }) => c.dtype === 'float64')).toBe(true);
      expect(cases.some(({ c }) => c.dtype === 'bfloat16')).toBe(true);
    });

    it('raises the DTypeError or the missing kernel wherever it says no', async () => {
      const ran: string[] = [];
      for (const { op, c, reason } of cases) {
        const inputs = makeInputs(c, 'webgpu');
        let result: unknown = null;
        let error: unknown = null;
        try {
          // (the async form where the op has one: WebGPU refuses the synchronous data-dependent ones)
          const r = await attemptForm(op, true, inputs, c.kwargs);
          if (!r.ok) throw r.error;
          result = r.value;
          // (a kernel that raises on the device reports at the read)
          for (const t of [result].flat()) if (t instanceof torch.Tensor) await t.data();
        } catch (e) {
          error = e;
        } finally {
          disposeAll(inputs, result);
        }
        const m = String((error as Error | null)?.message);
        const expected = error instanceof torch.DTypeError || (error instanceof torch.TorchError && /no kernel for aten::\S+ on WebGPU/.test(m));
        if (!expected) ran.push(`${op.name} ${caseId(c)}/${c.dtype} (${reason.slice(reason.indexOf('supports('))}): ${error ? `threw ${m}` : 'ran'}`);
      }
      await torch.webgpu.synchronize().catch(() => {});
      expect(ran).toEqual([]);
    });

    it('names the dtype in its reason', () => {
      for (const { reason } of cases) expect(reason).toMatch(/supports\('[^']+', '[a-z0-9]+', 'webgpu'\) is false/);
      expect(unsupportedMark('float64', 'webgpu')).toBe(", 'float64', 'webgpu') is false");
    });
  });
} else {
  console.warn('[supports-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');
  // Only a machine without any adapter gets here (TORCH_TS_REQUIRE_WEBGPU=1 makes init() throw).
  it('has no WebGPU adapter here, the one reason this suite may not run', () => {
    expect(torch.webgpu.unavailableReason()).toBe('no WebGPU adapter was found');
  });
}
