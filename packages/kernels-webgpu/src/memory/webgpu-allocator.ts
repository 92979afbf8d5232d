/// <reference types="@webgpu/types" />
import { DeviceError, emptyStats, type AllocateOptions, type Allocator, type DataPtr, type Device } from '@torch-ts/core';
import { gpu, gpuOrNull, onDeviceLost } from '../runtime/device';
import { BufferUsage } from '../runtime/flags';
import { commandQueueOrNull } from '../runtime/queue';
import { CachingAllocator, type Block, type CachingAllocatorStats } from './caching-allocator';

/** What a WebGPU storage's `data` is: a block of a segment buffer. `null` for 0 bytes. */
export type WebGPUBlock = Block<GPUBuffer> | null;

/**
 * The WebGPU allocator registered with core (Note [WebGPU caching allocator]): a
 * CachingAllocator over GPUBuffers of the initialised device, made on first use.
 */
export class WebGPUAllocator implements Allocator {
  readonly deviceType = 'webgpu' as const;
  private cache: CachingAllocator<GPUBuffer> | null = null;
  private cacheDevice: GPUDevice | null = null;
  private readonly deleter = (context: unknown): void => {
    const block = context as Block<GPUBuffer>;
    // A block of a lost or released device's allocator is simply dropped, also once init()
    // has made a new device and allocator (Note [Exiting with work in flight]).
    if (this.cache && this.cacheDevice === gpuOrNull()?.device && this.cache.owns(block)) this.cache.free(block);
  };

  constructor() {
    onDeviceLost(() => {
      this.cache = null;
      this.cacheDevice = null;
    });
  }

  /** The caching allocator of the current device. */
  caching(op: string): CachingAllocator<GPUBuffer> {
    const ctx = gpu(op);
    if (!this.cache || this.cacheDevice !== ctx.device) {
      const device = ctx.device;
      this.cacheDevice = device;
      this.cache = new CachingAllocator<GPUBuffer>(
        {
          create: (size) =>
            device.createBuffer({
              size,
              usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
            }),
          destroy: (buffer) => {
            commandQueueOrNull()?.forgetBuffer(buffer); // (Note [Bind group cache])
            buffer.destroy();
          },
        },
        {
          maxBindingSize: ctx.limits.maxStorageBufferBindingSize,
          maxBufferSize: ctx.limits.maxBufferSize,
          offsetAlignment: ctx.limits.minStorageBufferOffsetAlignment,
        },
      );
    }
    return this.cache;
  }

  allocate(nbytes: number, device: Device, options?: AllocateOptions): DataPtr<WebGPUBlock> {
    if (device.type !== 'webgpu' || device.index !== 0) {
      throw new DeviceError(`${options?.op ?? 'WebGPUAllocator'}: cannot allocate on device ${device} (only webgpu:0 exists)`);
    }
    // Before `init()` this is a DeviceError naming the op, which core passes on as it is.
    const cache = this.caching(options?.op ?? 'allocate');
    if (nbytes === 0) return { data: null, context: null, deleter: null, device };
    const block = cache.allocate(nbytes, 'allocate');
    return { data: block, context: block, deleter: this.deleter, device };
  }

  stats(): CachingAllocatorStats {
    return this.cache?.stats() ?? { ...emptyStats(), requestedBytes: 0, peakRequestedBytes: 0, activeBytes: 0, peakActiveBytes: 0, peakReservedBytes: 0, cacheHits: 0, segmentAllocations: 0, segmentFrees: 0, numAllocRetries: 0, numOoms: 0 };
  }

  resetPeakStats(): void {
    this.cache?.resetPeakStats();
  }

  /** Destroys the buffers that hold no live tensor (Note [Block reuse in submission order]: flushes first). */
  emptyCache(): void {
    commandQueueOrNull()?.flush();
    this.cache?.emptyCache();
  }
}

export const webgpuAllocator: WebGPUAllocator = new WebGPUAllocator();
