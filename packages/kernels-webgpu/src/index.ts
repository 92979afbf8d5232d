// @torch-ts/kernels-webgpu: the WebGPU backend. Importing this module registers the WebGPU
// allocator, the device reader and uploader, and the WebGPU kernels with core (ARCHITECTURE.md,
// "Backends"); `await init()` (torch.webgpu.init) then finds a device.
import { DispatchKey, registerAllocator, registerBackend, registerDeviceReader, registerDeviceUploader } from '@torch-ts/core';
import { webgpuAllocator } from './memory/webgpu-allocator';
import { webgpuImplTable } from './impls';
import { readToHost, readValues, uploadFromHost } from './runtime/transfer';

registerAllocator(webgpuAllocator);
registerDeviceReader('webgpu', { toHost: readToHost, values: readValues });
registerDeviceUploader('webgpu', uploadFromHost);
registerBackend(DispatchKey.WebGPU, webgpuImplTable);

export { init, isAvailable, unavailableReason, shutdown, synchronize, emptyCache, memoryStats, deviceInfo, queueCounters } from './api';
export type { WebGPUInitOptions, WebGPULimits } from './api';
export { kernelTuning, setKernelTuning, type KernelTuning } from './runtime/tuning';
export { webgpuImpls } from './impls';
export { WebGPUAllocator, webgpuAllocator, type WebGPUBlock } from './memory/webgpu-allocator';
export { CachingAllocator, formatStats, type BufferFactory, type CachingAllocatorLimits, type CachingAllocatorStats, type Block } from './memory/caching-allocator';
