/**
 * `torch.webgpu`: the facade's side of the optional WebGPU backend.
 *
 * Note [WebGPU as an optional package]
 * `@torch-ts/kernels-webgpu` is an optional peer dependency of the facade: a CPU-only or
 * browser-without-WebGPU install must not pull its code or the `webgpu` package (Dawn, a
 * native addon of about 130 MB). So the facade never imports it statically. The backend
 * registers a runtime with core when it is imported (Note [Device runtimes] in core), and
 * `init()` finds it there:
 * - already registered: the application imported the backend itself, which is what a bundled
 *   browser app does (`import '@torch-ts/kernels-webgpu'`), since a bundler cannot follow the
 *   computed specifier below;
 * - otherwise `init()` loads the package by name (Node, or a browser with an import map), and
 *   a missing package is a TorchError that names it and says how to install it.
 * The CommonJS build loads it with `require`: `import()` would load the backend's ESM build,
 * which registers into the ESM copy of core, not the CommonJS copy this build uses.
 * The types below are the facade's own, so that its declarations do not name the optional
 * package (they must compile where it is not installed); test/webgpu-runtime.test.ts checks
 * that the backend satisfies them.
 */
import { DeviceError, TorchError, deviceRuntime } from '@torch-ts/core';

export const WEBGPU_PACKAGE = '@torch-ts/kernels-webgpu';

/** Options of `torch.webgpu.init()`. */
export interface WebGPUInitOptions {
  /** Passed to `requestAdapter`. */
  readonly powerPreference?: 'low-power' | 'high-performance';
  /**
   * Throw a DeviceError when no adapter is found, instead of resolving `false`. Also on when
   * the environment sets `TORCH_TS_REQUIRE_WEBGPU=1`.
   */
  readonly required?: boolean;
  /**
   * Use this `GPUDevice` instead of requesting one (an application that already has one).
   * Typed as `object` so that these declarations need no WebGPU type package.
   */
  readonly device?: object;
}

/** The adapter limits the backend reads and respects. */
export interface WebGPULimits {
  readonly maxStorageBufferBindingSize: number;
  readonly maxBufferSize: number;
  readonly minStorageBufferOffsetAlignment: number;
  readonly minUniformBufferOffsetAlignment: number;
  readonly maxComputeWorkgroupsPerDimension: number;
  readonly maxComputeInvocationsPerWorkgroup: number;
  readonly maxComputeWorkgroupSizeX: number;
  readonly maxComputeWorkgroupStorageSize: number;
  readonly maxStorageBuffersPerShaderStage: number;
}

/** The caching allocator's counters, named as PyTorch's `torch.cuda.memory_stats()`. */
export interface WebGPUMemoryStats {
  allocatedBytes: number;
  peakAllocatedBytes: number;
  requestedBytes: number;
  peakRequestedBytes: number;
  activeBytes: number;
  peakActiveBytes: number;
  reservedBytes: number;
  peakReservedBytes: number;
  cachedBytes: number;
  allocations: number;
  frees: number;
  cacheHits: number;
  segmentAllocations: number;
  segmentFrees: number;
  numAllocRetries: number;
  numOoms: number;
}

/** What the backend runs on. */
export interface WebGPUDeviceInfo {
  /** `navigator.gpu`, `dawn`, `dawn+swiftshader`, or `user` (a device passed to `init`). */
  source: string;
  adapter: string;
  softwareAdapter: boolean;
  limits: WebGPULimits;
}

/** The runtime `@torch-ts/kernels-webgpu` registers with core. */
export interface WebGPURuntime {
  init(opts?: WebGPUInitOptions): Promise<boolean>;
  isAvailable(): boolean;
  unavailableReason(): string | null;
  shutdown(): void;
  synchronize(): Promise<void>;
  emptyCache(): void;
  memoryStats(): WebGPUMemoryStats;
  deviceInfo(): WebGPUDeviceInfo;
}

// Set per output format by tsup.config.ts; undefined when the sources run directly (ESM).
declare const __TORCH_TS_CJS__: boolean | undefined;
declare const require: (id: string) => unknown;

const RUNTIME_METHODS = ['init', 'isAvailable', 'unavailableReason', 'shutdown', 'synchronize', 'emptyCache', 'memoryStats', 'deviceInfo'] as const satisfies readonly (keyof WebGPURuntime)[];

/**
 * The registered runtime, checked for the methods this facade calls (core keeps it as a
 * plain object, Note [Device runtimes]): a backend of another version that lacks one is
 * named here rather than failing on the first call.
 */
function runtime(): WebGPURuntime | undefined {
  const r = deviceRuntime('webgpu');
  if (r === undefined || isWebGPURuntime(r)) return r;
  const missing = RUNTIME_METHODS.filter((m) => typeof Reflect.get(r, m) !== 'function');
  throw new TorchError(`torch.webgpu: the registered WebGPU runtime lacks ${missing.join(', ')}: ${WEBGPU_PACKAGE} and @torch-ts/torch are of different versions`);
}

function isWebGPURuntime(r: object): r is WebGPURuntime {
  return RUNTIME_METHODS.every((m) => typeof Reflect.get(r, m) === 'function');
}

function notInitialised(op: string): DeviceError {
  return new DeviceError(`${op}: WebGPU is not initialised: call \`await torch.webgpu.init()\` first`);
}

function isMissing(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined;
  const message = e instanceof Error ? e.message : String(e);
  // Node says ERR_MODULE_NOT_FOUND (import) or MODULE_NOT_FOUND (require); a browser without
  // an import map fails to resolve the bare specifier. Only the backend itself counts: a
  // module missing inside an installed backend is a different problem, reported as is.
  return message.includes(WEBGPU_PACKAGE) && (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /resolve|find|failed to load/i.test(message));
}

async function load(op: string): Promise<WebGPURuntime> {
  const loaded = runtime();
  if (loaded) return loaded;
  try {
    if (typeof __TORCH_TS_CJS__ !== 'undefined' && __TORCH_TS_CJS__) require(WEBGPU_PACKAGE);
    else await import(/* @vite-ignore */ WEBGPU_PACKAGE);
  } catch (e) {
    if (!isMissing(e)) throw e;
    throw new TorchError(
      `${op}: the WebGPU backend is not installed: it is the optional package ${WEBGPU_PACKAGE} ` +
        `(npm install ${WEBGPU_PACKAGE}); in a bundled app, also \`import '${WEBGPU_PACKAGE}'\` once`,
    );
  }
  const registered = runtime();
  if (!registered) {
    throw new TorchError(
      `${op}: ${WEBGPU_PACKAGE} was loaded but did not register with this copy of @torch-ts/core ` +
        '(two copies of core are installed, or the package was loaded both as ESM and as CommonJS)',
    );
  }
  return registered;
}

const ZERO_STATS: WebGPUMemoryStats = {
  allocatedBytes: 0,
  peakAllocatedBytes: 0,
  requestedBytes: 0,
  peakRequestedBytes: 0,
  activeBytes: 0,
  peakActiveBytes: 0,
  reservedBytes: 0,
  peakReservedBytes: 0,
  cachedBytes: 0,
  allocations: 0,
  frees: 0,
  cacheHits: 0,
  segmentAllocations: 0,
  segmentFrees: 0,
  numAllocRetries: 0,
  numOoms: 0,
};

/** `torch.webgpu`: `await init()` loads the backend and finds a device (navigator.gpu, or Dawn in Node); then `device: 'webgpu'` works. */
export const webgpu = {
  /**
   * Loads `@torch-ts/kernels-webgpu` (rejecting with a TorchError naming it when it is not
   * installed) and finds a device; resolves `true` when WebGPU is ready, `false` when there is
   * no adapter (unless `required`).
   */
  async init(opts: WebGPUInitOptions = {}): Promise<boolean> {
    return (await load('webgpu.init')).init(opts);
  },
  /** Whether a device is ready; `false` until `init()` resolved `true`. */
  isAvailable(): boolean {
    return runtime()?.isAvailable() ?? false;
  },
  /** Why the last `init()` found no device, or `null`. */
  unavailableReason(): string | null {
    return runtime()?.unavailableReason() ?? null;
  },
  /** Waits for submitted work and destroys the device (a no-op when there is none). */
  shutdown(): void {
    runtime()?.shutdown();
  },
  /** Resolves when the device has finished the work recorded so far; raises the first WebGPU error since the last sync. */
  async synchronize(): Promise<void> {
    const rt = runtime();
    if (!rt) throw notInitialised('webgpu.synchronize');
    await rt.synchronize();
  },
  /** Returns the caching allocator's unused buffers to the device. */
  emptyCache(): void {
    runtime()?.emptyCache();
  },
  /** The caching allocator's counters (zeros while the backend is not loaded). */
  memoryStats(): WebGPUMemoryStats {
    return runtime()?.memoryStats() ?? { ...ZERO_STATS };
  },
  /** The adapter, where it came from, and the limits the backend respects. */
  deviceInfo(): WebGPUDeviceInfo {
    const rt = runtime();
    if (!rt) throw notInitialised('webgpu.deviceInfo');
    return rt.deviceInfo();
  },
};
