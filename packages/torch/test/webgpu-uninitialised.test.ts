import { describe, expect, it } from 'vitest';
import * as torch from '@torch-ts/torch';

/**
 * Issue 14: WebGPU used before `await torch.webgpu.init()` says so, as a DeviceError naming
 * the op; it used to be reported as "out of memory". This file never calls init(), and
 * vitest runs each file in a process of its own.
 */
describe('WebGPU before init()', () => {
  it.each([
    ['zeros', () => torch.zeros([2], { device: 'webgpu' })],
    ['empty', () => torch.empty([2], { device: 'webgpu' })],
    ['full', () => torch.full([2], 1, { device: 'webgpu' })],
    ['randn', () => torch.randn([2], { device: 'webgpu' })],
    ['to', () => torch.tensor([1, 2], { device: 'webgpu' })],
  ])('%s raises a DeviceError that says to call init()', (op, make) => {
    expect(torch.webgpu.isAvailable()).toBe(false);
    let err: unknown = null;
    try {
      make();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(torch.DeviceError);
    expect((err as Error).message).toBe(`${op}: WebGPU is not initialised: call \`await torch.webgpu.init()\` first`);
    expect((err as Error).message).not.toMatch(/out of memory/);
  });
});
