/**
 * `@torch-ts/kernels-webgpu`: the WebGPU backend. Importing this module registers the WebGPU
 * allocator, the device reader and uploader, and the WebGPU kernels with core (docs/architecture.md,
 * "Backends"); `await init()` (torch.webgpu.init) then finds a device.
 *
 * @module @torch-ts/kernels-webgpu
 */
import { DispatchKey, TensorImpl, registerAllocator, registerBackend, registerDeviceReader, registerDeviceRuntime, registerDeviceUploader, type HostValues } from '@torch-ts/core';
import * as api from './api';
import { webgpuAllocator } from './memory/webgpu-allocator';
import { webgpuImpls } from './impls';
import { webgpuDtypeVariants, webgpuDtypes } from './dtypes';
import { copy } from './kernels/pointwise';
import { readToHost, readValues, uploadFromHost } from './runtime/transfer';
import { poisonAround } from './runtime/poison';

/**
 * Note [Reading a strided WebGPU tensor]
 * `data()` of a view that is not contiguous (a transpose, a column, a broadcast) gathers it
 * into a dense buffer on the device, then reads that. The GPU permutes 16 MB in a fraction of
 * a millisecond where the host took 70 ms (the transposed add of the bench on an H100), and
 * the read moves numel elements instead of the whole span of storage the view covers.
 */
async function values(impl: TensorImpl, op: string): Promise<HostValues> {
  if (impl.isContiguous) return readValues(impl, op);
  const dense = TensorImpl.empty(op, impl.sizes, impl.dtype, impl.device);
  try {
    copy(dense, impl);
    return await readValues(dense, op, impl);
  } finally {
    dense.release();
  }
}

registerAllocator(webgpuAllocator);
registerDeviceReader('webgpu', { toHost: readToHost, values });
registerDeviceUploader('webgpu', uploadFromHost);
registerBackend(DispatchKey.WebGPU, webgpuImpls, { around: poisonAround, dtypes: { ...webgpuDtypes, ...webgpuDtypeVariants } });
// What torch.webgpu calls (Note [Device runtimes] in core): the facade does not import this package.
registerDeviceRuntime('webgpu', api);

export { init, isAvailable, unavailableReason, shutdown, synchronize, emptyCache, memoryStats, deviceInfo, queueCounters } from './api';
export type { WebGPUInitOptions, WebGPULimits } from './api';
export { kernelTuning, setKernelTuning, type KernelTuning } from './runtime/tuning';
export { webgpuImpls } from './impls';
export { webgpuDtypes, webgpuDtypeVariants } from './dtypes';
export { WebGPUAllocator, webgpuAllocator, type WebGPUBlock } from './memory/webgpu-allocator';
export { CachingAllocator, formatStats, type BufferFactory, type CachingAllocatorLimits, type CachingAllocatorStats, type Block } from './memory/caching-allocator';
