import { commandQueueOrNull, commandQueue } from './runtime/queue';
import { gpu, init as initDevice, isAvailable, shutdown as releaseDevice, unavailableReason, type WebGPUInitOptions, type WebGPULimits } from './runtime/device';
import { webgpuAllocator } from './memory/webgpu-allocator';
import type { CachingAllocatorStats } from './memory/caching-allocator';

export type { WebGPUInitOptions, WebGPULimits };

/** `await torch.webgpu.init()`: finds a device (Note [Keeping Dawn alive]); `true` when WebGPU is ready. */
export function init(opts: WebGPUInitOptions = {}): Promise<boolean> {
  return initDevice(opts);
}

export { isAvailable, unavailableReason };

/**
 * Releases the device early (Note [Exiting with work in flight]): waits for the submitted
 * work, drops unsubmitted commands, destroys the device. WebGPU tensors still alive become
 * unusable; `init()` afterwards finds a new device. torch-ts does the same by itself when the
 * process or worker exits, so a program never needs to call it to exit cleanly.
 */
export function shutdown(): void {
  releaseDevice();
}

/** Submits the recorded work and resolves when the device has finished it; raises the first WebGPU error since the last sync. */
export async function synchronize(): Promise<void> {
  await commandQueue('webgpu.synchronize').synchronize();
}

/** Returns the caching allocator's unused buffers to the device (Note [WebGPU caching allocator]). */
export function emptyCache(): void {
  webgpuAllocator.emptyCache();
}

/** The caching allocator's counters (also in `torch.memory.stats('webgpu').allocator`). */
export function memoryStats(): CachingAllocatorStats {
  return webgpuAllocator.stats();
}

/** What the backend runs on: the adapter, where it came from, and the limits it respects. */
export function deviceInfo(): { source: string; adapter: string; softwareAdapter: boolean; limits: WebGPULimits } {
  const ctx = gpu('webgpu.deviceInfo');
  return { source: ctx.source, adapter: ctx.adapterInfo, softwareAdapter: ctx.softwareAdapter, limits: ctx.limits };
}

/** Submits, pipelines compiled and dispatches so far: to check batching and the pipeline cache. */
export function queueCounters(): { submits: number; dispatches: number; pipelinesCompiled: number } {
  return { ...(commandQueueOrNull()?.counters ?? { submits: 0, dispatches: 0, pipelinesCompiled: 0 }) };
}
