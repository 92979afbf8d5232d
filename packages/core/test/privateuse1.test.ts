import { describe, expect, it } from 'vitest';
import {
  Device,
  DeviceError,
  DispatchKey,
  dispatchKeyDisplayName,
  privateUse1BackendName,
  renamePrivateUse1Backend,
  toDevice,
} from '../src';

// Note [PrivateUse1]: the device type and dispatch key an out-of-tree backend claims.
// (The backend end to end: packages/torch/test/privateuse1-backend.test.ts.)
describe('the privateuseone device type', () => {
  it('parses and prints as privateuseone, with an index, until a backend names it', () => {
    expect(privateUse1BackendName()).toBe('privateuseone');
    const d = toDevice('test', 'privateuseone');
    expect(d).toBe(Device.of('privateuseone', 0));
    expect(String(d)).toBe('privateuseone:0');
    expect(String(toDevice('test', 'privateuseone:2'))).toBe('privateuseone:2');
    expect(dispatchKeyDisplayName(DispatchKey.PrivateUse1)).toBe('PrivateUse1');
    expect(() => toDevice('test', 'foo' as never)).toThrow('test: expected one of cpu, webgpu, meta, privateuseone device type at start of device string: foo');
  });

  it('rejects names that are not device names or that are taken', () => {
    for (const bad of ['', 'Foo', '1foo', 'foo:0', 'foo-bar']) {
      expect(() => renamePrivateUse1Backend(bad)).toThrow(DeviceError);
    }
    for (const taken of ['cpu', 'webgpu', 'meta']) {
      expect(() => renamePrivateUse1Backend(taken)).toThrow(`renamePrivateUse1Backend: '${taken}' is already a device type; pick another name for the backend`);
    }
    expect(privateUse1BackendName()).toBe('privateuseone');
  });

  it('is renamed once: devices made before and after print the new name', () => {
    const before = toDevice('test', 'privateuseone:1');
    renamePrivateUse1Backend('foo_2');
    expect(String(before)).toBe('foo_2:1');
    expect(toDevice('test', 'foo_2:1' as never)).toBe(before);
    expect(JSON.stringify({ d: toDevice('test', 'foo_2' as never) })).toBe('{"d":"foo_2:0"}');
    expect(dispatchKeyDisplayName(DispatchKey.PrivateUse1)).toBe('foo_2');
    expect(dispatchKeyDisplayName(DispatchKey.AutogradPrivateUse1)).toBe('Autograd(foo_2)');
    expect(dispatchKeyDisplayName(DispatchKey.CPU)).toBe('CPU');
    expect(() => toDevice('test', 'cpu:0' as never)).toThrow("test: device 'cpu:0' takes no index");
    expect(() => renamePrivateUse1Backend('bar')).toThrow('Current backend: foo_2, new name: bar');
  });
});
