/**
 * torch.uniqueConsecutive on WebGPU (Note [Data-dependent sizes on async-read backends]): the
 * sync form refuses, naming its async form, before any work; `uniqueConsecutiveAsync` counts
 * the runs on the device and gives the CPU's values, inverse and counts (goldens of
 * scripts/goldens/unique_consecutive.py).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import golden from './goldens/unique_consecutive.json';

const ready = await torch.webgpu.init();
if (!ready) console.warn('[unique-consecutive-webgpu] WebGPU cases SKIPPED: no WebGPU adapter (TORCH_TS_REQUIRE_WEBGPU=1 fails instead)');

describe.skipIf(!ready)('uniqueConsecutive on webgpu', () => {
  it('the sync form names the async one; the async form gives 1.13 values, inverse and counts', async () => {
    const x = torch.tensor([1, 1, 2, 2, 3, 1, 1]).to('webgpu');
    expect(() => torch.uniqueConsecutive(x)).toThrow(/unique_consecutive: the size of the result depends on the data.*uniqueConsecutiveAsync/);
    for (const key of ['2-d flattened', 'dim 0', 'dim 1', 'dim -1 of 3-d']) {
      const c = (golden.cases as unknown as Record<string, { x: { shape: number[]; values: number[] }; dim: number | null; values: { values: number[] }; inverse: { values: number[] }; counts: { values: number[] } }>)[key];
      const input = torch.tensor(c.x.values).reshape(c.x.shape).to('webgpu');
      const [v, inv, cnt] = (await torch.uniqueConsecutiveAsync(input, { returnInverse: true, returnCounts: true, dim: c.dim })) as torch.Tensor[];
      expect(v.device.type).toBe('webgpu');
      expect(Array.from(await v.data(), Number), key).toEqual(c.values.values);
      expect(Array.from(await inv.data(), Number), key).toEqual(c.inverse.values);
      expect(Array.from(await cnt.data(), Number), key).toEqual(c.counts.values);
    }
  });
});
