import { describe, expect, it } from 'vitest';
import { add, cumsum, exp, mul, DeviceError, TorchError, DTypeError, memoryStats, notImplemented } from '@torch-ts/core';
import { deviceInfo, isAvailable, queueCounters, synchronize, webgpuImpls } from '../src';
import { gpuTensor, readValues, webgpuReady } from './helpers';

describe.skipIf(!webgpuReady)('WebGPU runtime (Dawn)', () => {
  it('initialises and reads the adapter limits', () => {
    expect(isAvailable()).toBe(true);
    const info = deviceInfo();
    expect(info.limits.maxStorageBufferBindingSize).toBeGreaterThan(0);
    expect(info.limits.minStorageBufferOffsetAlignment).toBeLessThanOrEqual(256);
  });

  it('uploads and reads back float32, int32, uint8 and bool', async () => {
    expect(await readValues(gpuTensor([1.5, -2, 3e10], "float32"))).toEqual([1.5, -2, Math.fround(3e10)]);
    expect(await readValues(gpuTensor([1, -2, 2 ** 31 - 1], 'int32'))).toEqual([1, -2, 2 ** 31 - 1]);
    expect(await readValues(gpuTensor([1, 0, 255, 7, 9], 'uint8'))).toEqual([1, 0, 255, 7, 9]);
    expect(await readValues(gpuTensor([1, 0, 1], 'bool'))).toEqual([1, 0, 1]);
  });

  it('runs pointwise kernels, batched until a read', async () => {
    const a = gpuTensor([1, 2, 3, 4, 5, 6, 7, 8], 'float32', [2, 4]);
    const b = gpuTensor([10, 20, 30, 40], 'float32', [4]);
    const e0 = gpuTensor([0, 1], 'float32');
    const before = queueCounters();
    const c = add(a, b);
    const d = mul(c, c);
    const e = exp(e0);
    const mid = queueCounters();
    expect(mid.submits).toBe(before.submits); // nothing submitted before a read
    expect(await readValues(d)).toEqual([121, 484, 1089, 1936, 225, 676, 1369, 2304]);
    const ev = await readValues(e);
    expect(ev[0]).toBe(1);
    expect(ev[1]).toBeCloseTo(Math.E, 5);
    await synchronize();
  });

  it('reads strided views without copies', async () => {
    const a = gpuTensor([0, 1, 2, 3, 4, 5], 'float32', [2, 3]);
    expect(await readValues(a.t())).toEqual([0, 3, 1, 4, 2, 5]);
    const i = gpuTensor([1, 2, 3, 4, 5, 6], 'uint8', [2, 3]);
    expect(await readValues(add(i.t(), i.t()))).toEqual([2, 8, 4, 10, 6, 12]);
  });

  it('sync reads throw the error naming the async alternative', () => {
    const a = gpuTensor([1, 2], 'float32');
    expect(() => a.dataSync()).toThrow(/await x\.data\(\)/);
    expect(() => a.item()).toThrow(DeviceError);
    expect(() => a.to('cpu')).toThrow(/toAsync/);
  });

  it('an op without a WebGPU kernel raises the error naming the op and the key, never a CPU round trip', () => {
    // An opt-out is explicit and checked by the compiler (Note [The WebGPU impl table]): the
    // error is checked by opting one impl out of the registered table for the test.
    const table = webgpuImpls as Record<string, unknown>;
    const saved = table.cumsum;
    table.cumsum = notImplemented('taken out for this test');
    try {
      const a = gpuTensor([1, 2, 3], 'float32');
      expect(() => cumsum(a, 0)).toThrow(TorchError);
      expect(() => cumsum(a, 0)).toThrow(/cumsum: no kernel for aten::cumsum on WebGPU \(taken out for this test\)/);
    } finally {
      table.cumsum = saved;
    }
  });

  it('raises a DTypeError for float64 kernels', () => {
    const a = gpuTensor([1, 2], 'float64');
    expect(() => exp(a)).toThrow(DTypeError);
    expect(() => exp(a)).toThrow(/exp.*float64.*webgpu/);
  });

  it('counts live webgpu storages', () => {
    const before = memoryStats('webgpu').liveStorages;
    const a = gpuTensor([1, 2], 'float32');
    expect(memoryStats('webgpu').liveStorages).toBe(before + 1);
    a.dispose();
    expect(memoryStats('webgpu').liveStorages).toBe(before);
    expect(TorchError).toBeDefined();
  });
});
