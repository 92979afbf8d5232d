/**
 * torch.saveAsync / serializePtAsync of WebGPU tensors (issue 18): each device storage is
 * read back once, whole, so views of one storage are still one storage in the file, and
 * the bytes are those of the same tensors on the CPU. The synchronous form refuses device
 * tensors with a DeviceError. Skipped without a WebGPU adapter, unless
 * TORCH_TS_REQUIRE_WEBGPU=1 makes that an error (`webgpu.init` throws).
 */
import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { thrown } from './helpers';

const ready = await torch.webgpu.init();
if (!ready) console.warn('[serialization-webgpu] SKIPPED: no WebGPU adapter (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)');

/** A state dict with views sharing one storage, a module's parameters and an int32 tensor, on `device`. */
function objectOn(device: 'cpu' | 'webgpu'): Record<string, unknown> {
  const base = torch.arange(24, { dtype: 'float32', device }).mul(0.5).sub(3).reshape(4, 6);
  const lin = new torch.nn.Linear(3, 2);
  torch.noGrad(() => {
    lin.weight.copy_(torch.tensor([[1, -2, 3], [0.5, 0.25, -4]]));
    lin.bias!.copy_(torch.tensor([0.125, -8]));
  });
  if (device === 'webgpu') lin.to('webgpu');
  return {
    views: new Map([
      ['base', base],
      ['t', base.t()],
      ['strided', base.asStrided([3, 3], [6, 2], 6)],
      ['row', base.select(0, 2)],
    ]),
    model: lin,
    counts: torch.tensor([7, -8, 2 ** 31 - 1], { dtype: 'int32', device }),
    step: 12,
  };
}

describe.skipIf(!ready)('serializePtAsync on WebGPU', () => {
  it('writes the bytes of the same tensors on the CPU, views still sharing; the sync form refuses', async () => {
    const onGpu = objectOn('webgpu');
    const bytes = await torch.serialization.serializePtAsync(onGpu);
    const cpuBytes = torch.serialization.serializePt(objectOn('cpu'));
    expect(Buffer.from(bytes).equals(Buffer.from(cpuBytes))).toBe(true);
    const back = torch.serialization.loadPt(bytes) as Map<string, Map<string, torch.Tensor>>;
    const views = back.get('views')!;
    expect(views.get('t')!.impl.storage).toBe(views.get('base')!.impl.storage);
    expect(views.get('strided')!.tolist()).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8]].map((r, i) => r.map((_, j) => (6 + 6 * i + 2 * j) * 0.5 - 3)));
    const e = thrown(() => torch.serialization.serializePt(onGpu));
    expect(e).toBeInstanceOf(torch.DeviceError);
    expect(e.message).toMatch(/^serializePt: tensors on webgpu(:0)? cannot be read synchronously; use serializePtAsync/);
  });
});
