import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';
import { DeviceError, TorchError, privateUse1BackendName, registerPrivateUse1Backend, renamePrivateUse1Backend, toDevice } from '@torch-ts/core';
// The fixture registers itself on import, as a published backend package would.
import { fooAllocator } from '../../../tools/fixtures/third-party-backend/src/index';

/**
 * An out-of-tree backend (tools/fixtures/third-party-backend, which imports only
 * @torch-ts/core's public exports) claims the PrivateUse1 device as `foo`
 * (Note [PrivateUse1]): factories, `to`, ops, autograd, async reads and errors on it.
 */
describe('a third-party backend on PrivateUse1', () => {
  it('claims the device under its name: devices parse from and print as foo', () => {
    expect(privateUse1BackendName()).toBe('foo');
    const x = torch.ones([2], { device: 'foo' });
    expect(String(x.device)).toBe('foo:0');
    expect(x.device.type).toBe('privateuseone');
    expect(x.device).toBe(toDevice('test', 'foo:0'));
    expect(String(toDevice('test', 'foo:1'))).toBe('foo:1');
    expect(toDevice('test', 'privateuseone')).toBe(x.device);
    expect(toDevice('test', { type: 'foo', index: 0 })).toBe(x.device);
    expect(String(x)).toBe('tensor(<2 elements on foo:0; read with await x.data()>, size=[2], dtype=torch.float32)');
    expect(() => toDevice('ones', 'bar' as never)).toThrow('ones: expected one of cpu, webgpu, meta, foo device type at start of device string: bar');
    x.dispose();
  });

  it('runs its ops on foo tensors, with core computing shapes, promotion and broadcasting', async () => {
    const a = torch.tensor([[1, 2, 3], [4, 5, 6]], { device: 'foo' });
    const b = torch.tensor([10, 20, 30], { device: 'foo' });
    expect(await a.add(b, { alpha: 2 }).tolistAsync()).toEqual([[21, 42, 63], [24, 45, 66]]);
    expect(await a.mul(b).neg().sum(1).tolistAsync()).toEqual([-140, -320]);
    expect(await a.add(1).tolistAsync()).toEqual([[2, 3, 4], [5, 6, 7]]);
    const i = torch.tensor([1, 2], { dtype: 'int64', device: 'foo' });
    const sum = i.add(torch.ones([2], { device: 'foo' }));
    expect(sum.dtype).toBe('float32');
    expect(await sum.tolistAsync()).toEqual([2, 3]);
    expect(await i.sum().itemAsync()).toBe(3);
  });

  it('copies a strided CPU tensor to foo with to() and back with toAsync()', async () => {
    const cpu = torch.arange(6, { dtype: 'float64' }).reshape(2, 3).t();
    const f = cpu.to('foo');
    expect(String(f.device)).toBe('foo:0');
    expect(f.dtype).toBe('float64');
    expect(await f.tolistAsync()).toEqual([[0, 3], [1, 4], [2, 5]]);
    const back = await f.toAsync('cpu');
    expect(String(back.device)).toBe('cpu');
    expect(back.tolist()).toEqual(cpu.tolist());
    expect(Array.from((await f.to({ dtype: 'float32' }).data()) as Float32Array)).toEqual([0, 3, 1, 4, 2, 5]);
    const dst = torch.zeros([3, 2], { device: 'foo' });
    dst.copy_(cpu);
    expect(await dst.tolistAsync()).toEqual([[0, 3], [1, 4], [2, 5]]);
  });

  it('differentiates through foo kernels once autograd is loaded', async () => {
    const w = torch.tensor([1, 2, 3], { dtype: 'float32', device: 'foo', requiresGrad: true });
    w.mul(w).sum().backward();
    expect(String(w.grad!.device)).toBe('foo:0');
    expect(await w.grad!.tolistAsync()).toEqual([2, 4, 6]);
  });

  it('names foo in its errors', () => {
    const x = torch.ones([2, 2], { device: 'foo' });
    expect(() => x.exp()).toThrow(new TorchError('exp: no kernel for aten::exp on foo (the foo backend does not implement exp)'));
    expect(() => x.mm(x)).toThrow('mm: no kernel for aten::mm on foo (foo has no matrix multiply yet)');
    expect(() => x.tolist()).toThrow(new DeviceError('tolist: cannot read a tensor on foo:0 synchronously; use `await x.tolistAsync()` instead'));
    expect(() => x.to('cpu')).toThrow("to: cannot copy a tensor on foo:0 to cpu synchronously; use `await x.toAsync('cpu')` instead");
    expect(() => x.add(torch.ones([2, 2]))).toThrow(DeviceError);
    expect(() => x.add(torch.ones([2, 2]))).toThrow(/foo:0/);
  });

  it('keeps its name: a second backend cannot rename the device, the same name is fine', () => {
    expect(() => renamePrivateUse1Backend('foo')).not.toThrow();
    expect(() => renamePrivateUse1Backend('bar')).toThrow(
      new DeviceError('renamePrivateUse1Backend: the privateuseone backend has already been named! Current backend: foo, new name: bar'),
    );
    expect(() => registerPrivateUse1Backend('bar', {}, { allocator: fooAllocator })).toThrow(/already been named/);
    expect(() => registerPrivateUse1Backend('foo', {}, { allocator: { ...fooAllocator, deviceType: 'cpu' } })).toThrow(
      "registerPrivateUse1Backend: the allocator of backend 'foo' must have deviceType 'privateuseone', but got 'cpu'",
    );
    expect(privateUse1BackendName()).toBe('foo');
  });

  it('counts its memory in memory.stats(foo) and frees it on dispose', () => {
    const before = torch.memory.stats('foo');
    expect(before.device).toBe('foo:0');
    const x = torch.ones([4, 4], { device: 'foo', dtype: 'float64' });
    const y = x.add(x);
    const during = torch.memory.stats('foo');
    expect(during.liveTensors - before.liveTensors).toBe(2);
    expect(during.liveBytes - before.liveBytes).toBe(2 * 16 * 8);
    x.dispose();
    y.dispose();
    const after = torch.memory.stats('foo');
    expect(after.liveTensors).toBe(before.liveTensors);
    expect(after.liveBytes).toBe(before.liveBytes);
  });
});
