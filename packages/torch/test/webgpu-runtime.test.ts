import { describe, expect, it } from 'vitest';
import type * as backend from '@torch-ts/kernels-webgpu';
import * as torch from '@torch-ts/torch';
import type { WebGPURuntime } from '../src/webgpu';

// Note [WebGPU as an optional package]: the facade declares the backend's runtime with types of
// its own. This assignment is the compile-time check (tsc typechecks test/) that the backend's
// API satisfies them; a drift is a type error here rather than a wrong call at run time.
type Satisfies<T extends WebGPURuntime> = T;
export type BackendSatisfiesRuntime = Satisfies<typeof backend>;

describe('torch.webgpu before the backend is loaded', () => {
  it('answers without loading it: not available, zero stats, deviceInfo is a DeviceError', () => {
    expect(torch.webgpu.isAvailable()).toBe(false);
    expect(torch.webgpu.unavailableReason()).toBe(null);
    expect(torch.webgpu.memoryStats().allocatedBytes).toBe(0);
    expect(() => torch.webgpu.deviceInfo()).toThrow(torch.DeviceError);
    expect(() => torch.webgpu.deviceInfo()).toThrow('webgpu.deviceInfo: WebGPU is not initialised');
    torch.webgpu.shutdown();
    torch.webgpu.emptyCache();
  });
});
