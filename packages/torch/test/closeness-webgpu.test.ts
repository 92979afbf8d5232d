/**
 * allclose / equal on WebGPU: the sync forms refuse (a JS boolean needs a host read, and
 * WebGPU tensors cannot be read synchronously) naming `allcloseAsync` / `equalAsync`, after
 * their argument checks; the async forms and isclose (an ordinary composite) give PyTorch
 * 1.13's results (goldens/closeness.json) for the cases in dtypes WebGPU computes. The CPU runs
 * every case (closeness.test.ts).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { CASES, describeCase, operand, options } from './closeness-cases';

const ready = await torch.webgpu.init();
if (!ready) console.warn('[closeness-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

/** The dtypes WebGPU computes these composites in (float64, complex128 and int64 have no WebGPU storage here). */
const ON_WEBGPU = new Set(['float32', 'float16', 'int8', 'int32', 'bool', 'complex64']);

describe.skipIf(!ready)('allclose, equal and isclose on WebGPU', () => {
  it('the sync allclose and equal refuse, naming their async forms; argument errors come first', () => {
    const a = torch.tensor([1, 2], { dtype: 'float32', device: 'webgpu' });
    expect(() => torch.allclose(a, a)).toThrow(/^allclose: cannot read a tensor on webgpu:0 synchronously; use `await torch\.allcloseAsync\(\.\.\.\)` instead$/);
    expect(() => a.allclose(a)).toThrow(torch.DeviceError);
    expect(() => torch.equal(a, a)).toThrow(/^equal: cannot read a tensor on webgpu:0 synchronously; use `await torch\.equalAsync\(\.\.\.\)` instead$/);
    expect(() => torch.allclose(a, a.to('float16'))).toThrow(/^allclose: Half did not match Float|^allclose: Float did not match Half$/);
    const c = torch.tensor([1, 2], { dtype: 'float32' });
    expect(() => torch.allclose(a, c)).toThrow(/^allclose: expected all tensors to be on the same device, but found at least two devices, (webgpu:0 and cpu|cpu and webgpu:0)$/);
    expect(() => torch.equal(c, a)).toThrow(/^equal: expected all tensors to be on the same device, but found at least two devices, (webgpu:0 and cpu|cpu and webgpu:0)$/);
    expect(() => torch.isclose(a, c)).toThrow(/^isclose: expected all tensors to be on the same device, but found at least two devices, (webgpu:0 and cpu|cpu and webgpu:0)$/);
  });

  it('allcloseAsync, equalAsync and isclose give 1.13 results', async () => {
    const problems: string[] = [];
    let ran = 0;
    for (const c of CASES.filter((x) => ON_WEBGPU.has(x.a.dtype) && ON_WEBGPU.has(x.b.dtype) && x.error === undefined)) {
      const a = operand(c.a, 'webgpu');
      const b = operand(c.b, 'webgpu');
      let got: unknown;
      try {
        if (c.fn === 'equal') got = await torch.equalAsync(a, b);
        else if (c.fn === 'allclose') got = await torch.allcloseAsync(a, b, options(c));
        else {
          const r = torch.isclose(a, b, options(c));
          got = [r.shape, await r.flatten().tolistAsync()];
        }
      } catch (e) {
        got = e;
      }
      ran++;
      const want = c.shape ? [c.shape, c.expected] : c.expected;
      if (got instanceof Error) problems.push(`${describeCase(c)}: threw ${got.message}`);
      else if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${describeCase(c)}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }
    expect(problems).toEqual([]);
    expect(ran).toBeGreaterThanOrEqual(60);
  });
});
