/// <reference types="@webgpu/types" />
import { DeviceError } from '@torch-ts/core';
import { runPendingDawnCallbacks, watchDawnPolling } from './polling';
import { probeDivision, type DivisionProbe } from '../wgsl/division';

/** What `torch.webgpu.init(opts)` takes. */
export interface WebGPUInitOptions {
  /** Passed to `requestAdapter`. */
  readonly powerPreference?: 'low-power' | 'high-performance';
  /**
   * Throw a DeviceError when no adapter is found, instead of resolving `false`. Also on when
   * the environment sets `TORCH_TS_REQUIRE_WEBGPU=1` (CI runs the WebGPU suite for real).
   */
  readonly required?: boolean;
  /** Use this device instead of requesting one (an application that already has a GPUDevice). */
  readonly device?: GPUDevice;
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

export interface GpuContext {
  readonly device: GPUDevice;
  readonly limits: WebGPULimits;
  /** Where the device came from: `navigator.gpu`, `dawn` or `dawn+swiftshader`, or `user`. */
  readonly source: string;
  readonly adapterInfo: string;
  /** Whether the adapter runs shaders on the CPU (SwiftShader, a fallback adapter): Note [Kernel tuning per adapter]. */
  readonly softwareAdapter: boolean;
  /** How the device's f32 division rounds (Note [Division on WebGPU]). */
  readonly division: DivisionProbe;
}

/**
 * Note [Keeping Dawn alive]
 * In Node the `GPU` object that the `webgpu` package's `create([])` returns owns Dawn's
 * instance: if it is garbage collected while a device is in use, Dawn crashes or hangs. It
 * is kept in `gpuInstances`, at module scope, for the life of the process (with the first,
 * adapter-less instance when the SwiftShader retry made a second one).
 */
const gpuInstances: GPU[] = [];
let context: GpuContext | null = null;
let unavailable: string | null = null;
let pending: Promise<boolean> | null = null;
const lostListeners: (() => void)[] = [];

/** Whether `init()` found a device (async-free after it, as docs/api.md says). */
export function isAvailable(): boolean {
  return context !== null;
}

/** Why the last `init()` found no device, or null. */
export function unavailableReason(): string | null {
  return unavailable;
}

/** The device context, or the error that says to initialise WebGPU first. */
export function gpu(op: string): GpuContext {
  if (context) return context;
  throw new DeviceError(
    `${op}: WebGPU is not initialised: call \`await torch.webgpu.init()\` first` + (unavailable ? ` (last init: ${unavailable})` : ''),
  );
}

export function gpuOrNull(): GpuContext | null {
  return context;
}

/** Called when the device is lost or released by `shutdown()`, after the context is cleared. */
export function onDeviceLost(f: () => void): void {
  lostListeners.push(f);
}

function requireFromEnv(): boolean {
  const env = typeof process !== 'undefined' ? process.env : undefined;
  return env?.TORCH_TS_REQUIRE_WEBGPU === '1';
}

/**
 * Finds an adapter and a device: `navigator.gpu` where there is one (a browser), else Dawn
 * through the `webgpu` package (Node). Resolves `true` when WebGPU is ready, `false` when
 * there is no adapter (the reason is in `unavailableReason()`), or throws a DeviceError when
 * it is required. Calling it again after success is a no-op.
 */
export function init(opts: WebGPUInitOptions = {}): Promise<boolean> {
  if (context) return Promise.resolve(true);
  pending ??= doInit(opts).finally(() => {
    pending = null;
  });
  return pending;
}

async function doInit(opts: WebGPUInitOptions): Promise<boolean> {
  const required = opts.required === true || requireFromEnv();
  try {
    if (opts.device) {
      setContext(opts.device, 'user', 'a device given to init()', false, await probeDivision(opts.device));
      return true;
    }
    const found = await findAdapter(opts);
    if (!found) {
      unavailable = 'no WebGPU adapter was found';
      if (required) throw new DeviceError(`webgpu.init: ${unavailable} (TORCH_TS_REQUIRE_WEBGPU=1 or { required: true })`);
      return false;
    }
    const { adapter, source } = found;
    // 'shader-f16' where the adapter has it, though no kernel needs it: float16 is emulated on
    // every adapter (Note [float16 on WebGPU]), rounding as PyTorch's CPU does.
    const requiredFeatures: GPUFeatureName[] = adapter.features.has('shader-f16') ? ['shader-f16'] : [];
    const device = await adapter.requestDevice({ requiredLimits: wantedLimits(adapter), requiredFeatures });
    const software = isSoftwareAdapter(adapter);
    setContext(device, source, describeAdapter(adapter), software, await probeDivision(device));
    watchDawnPolling(software); // (Note [Dawn's polling on a software adapter]; Note [Exiting with work in flight])
    unavailable = null;
    return true;
  } catch (e) {
    if (e instanceof DeviceError) throw e;
    unavailable = `WebGPU initialisation failed: ${e instanceof Error ? e.message : String(e)}`;
    if (required) throw new DeviceError(`webgpu.init: ${unavailable}`);
    return false;
  }
}

async function findAdapter(opts: WebGPUInitOptions): Promise<{ adapter: GPUAdapter; source: string } | null> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  const request: GPURequestAdapterOptions = opts.powerPreference === undefined ? {} : { powerPreference: opts.powerPreference };
  if (nav?.gpu) {
    const adapter = await nav.gpu.requestAdapter(request);
    if (adapter) return { adapter, source: 'navigator.gpu' };
  }
  if (typeof process === 'undefined' || !process.versions?.node) return null;
  await ensureRuntimeDir();
  const dawn = await loadDawn();
  if (!dawn) return null;
  const first = dawn.create([]);
  gpuInstances.push(first);
  const adapter = await first.requestAdapter(request);
  if (adapter) return { adapter, source: 'dawn' };
  // No Vulkan driver: try the SwiftShader one that a Chromium install ships (a CPU
  // implementation of Vulkan), unless the environment already chose a driver.
  if (process.env.VK_ICD_FILENAMES) return null;
  const icd = await findSwiftShaderIcd();
  if (!icd) return null;
  process.env.VK_ICD_FILENAMES = icd;
  const second = dawn.create([]);
  gpuInstances.push(second);
  const retry = await second.requestAdapter(request);
  return retry ? { adapter: retry, source: 'dawn+swiftshader' } : null;
}

/** Vulkan's WSI layers complain on every instance without XDG_RUNTIME_DIR: give them a private one. */
async function ensureRuntimeDir(): Promise<void> {
  if (process.env.XDG_RUNTIME_DIR) return;
  try {
    const fsSpec = 'node:fs';
    const osSpec = 'node:os';
    const fs = (await import(/* @vite-ignore */ fsSpec)) as typeof import('node:fs');
    const os = (await import(/* @vite-ignore */ osSpec)) as typeof import('node:os');
    const dir = `${os.tmpdir()}/torch-ts-xdg-${process.getuid?.() ?? 'user'}`;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = dir;
  } catch {
    // only a warning from the driver is at stake
  }
}

interface DawnModule {
  create(options: string[]): GPU;
  globals: Record<string, unknown>;
}

async function loadDawn(): Promise<DawnModule | null> {
  // A computed specifier: bundlers for the browser leave it alone (navigator.gpu is used there).
  const spec = 'webgpu';
  try {
    const m = (await import(/* @vite-ignore */ spec)) as DawnModule;
    // Dawn's GPU* classes (GPUBufferUsage, GPUMapMode...) as globals, as a browser has them.
    for (const [k, v] of Object.entries(m.globals)) {
      if (!(k in globalThis)) (globalThis as Record<string, unknown>)[k] = v;
    }
    return m;
  } catch {
    return null;
  }
}

const SWIFTSHADER_ICDS = [
  '/usr/lib/chromium/vk_swiftshader_icd.json',
  '/usr/lib/chromium-browser/vk_swiftshader_icd.json',
  '/opt/google/chrome/vk_swiftshader_icd.json',
];

async function findSwiftShaderIcd(): Promise<string | null> {
  const fsSpec = 'node:fs';
  const fs = (await import(/* @vite-ignore */ fsSpec)) as typeof import('node:fs');
  return SWIFTSHADER_ICDS.find((p) => fs.existsSync(p)) ?? null;
}

/** Asks for the adapter's own limits where they exceed the defaults a device gets. */
function wantedLimits(adapter: GPUAdapter): Record<string, number> {
  const l = adapter.limits;
  return {
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxBufferSize: l.maxBufferSize,
    maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
  };
}

function describeAdapter(adapter: GPUAdapter): string {
  // (older engines have no `adapter.info`)
  const info: GPUAdapterInfo | undefined = adapter.info;
  if (!info) return 'unknown adapter';
  return [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(' ') || 'unknown adapter';
}

/** A CPU implementation of WebGPU: the fallback adapter, or SwiftShader by name (Dawn's Vulkan on it). */
function isSoftwareAdapter(adapter: GPUAdapter): boolean {
  // (older engines have no `adapter.info`, and the flag on the adapter itself)
  const info: GPUAdapterInfo | undefined = adapter.info;
  if (info?.isFallbackAdapter === true || ('isFallbackAdapter' in adapter && adapter.isFallbackAdapter === true)) return true;
  return /swiftshader|llvmpipe|lavapipe|warp/i.test([info?.vendor, info?.architecture, info?.device, info?.description].join(' '));
}

function setContext(device: GPUDevice, source: string, adapterInfo: string, softwareAdapter: boolean, division: DivisionProbe): void {
  const l = device.limits;
  context = {
    device,
    source,
    adapterInfo,
    softwareAdapter,
    division,
    limits: {
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
      minStorageBufferOffsetAlignment: l.minStorageBufferOffsetAlignment,
      minUniformBufferOffsetAlignment: l.minUniformBufferOffsetAlignment,
      maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
      maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
      maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    },
  };
  if (source !== 'user') releaseAtExit();
  void device.lost.then((info) => {
    if (context?.device !== device) return;
    context = null;
    unavailable = `the WebGPU device was lost (${info.reason}: ${info.message})`;
    for (const f of lostListeners) f();
  });
}

/**
 * Note [Exiting with work in flight]
 * Dawn's Node binding (the `webgpu` package) has two ways to kill a process that ends while
 * the device still runs work torch-ts submitted (ops return at once, and a script that ends
 * without reading its last result leaves the last batches running):
 *  - In the main thread, `process.exit(n)`, an uncaught exception or an unhandled rejection
 *    end in C's `exit()`, which runs the static destructors of every loaded library while
 *    the driver's threads still execute the submitted commands. On SwiftShader (software
 *    Vulkan) those threads then touch the driver's destroyed globals: a segmentation fault
 *    (status 139) in about one run in eight of the test's script, in place of the status the
 *    program chose (a core dump shows the main thread in `__run_exit_handlers` and a
 *    SwiftShader thread faulting inside libvk_swiftshader). A natural end or
 *    `process.exitCode` never crashed: the binding's pending promises keep the event loop
 *    alive until the device is idle.
 *  - In a worker thread, `process.exit(n)` or an uncaught error tears the worker's
 *    environment down with the binding's promises (onSubmittedWorkDone, mapAsync,
 *    popErrorScope) still pending, and the binding aborts the whole process (status 134,
 *    "Promise not resolved or rejected").
 * A signal's default action (SIGINT, SIGTERM) kills the process without running any of
 * this, so it ends with the signal's status already.
 *
 * So torch-ts releases the device it created on the `exit` event of the process (or the
 * worker), which Node emits synchronously on every one of those paths, before `exit()` and
 * before a worker's environment is torn down: `shutdown()` destroys the device, which in
 * Dawn waits until the submitted work is done (it cannot be cancelled; this is the only
 * delay, bounded by the work already submitted, and nothing is printed), then runs the
 * binding's scheduled callbacks at once (`runPendingDawnCallbacks`: its polls, which call
 * the callbacks of the work the destroyed device finished or dropped, and the rejections
 * those schedule), so that every pending promise is settled before the teardown.
 * Commands recorded but not submitted are dropped: nothing can read their results any more.
 * The exit status and the error output stay the user's: the listener throws nothing and
 * changes no exit code (for an uncaught exception Node emits `exit` before it prints the
 * error; the print follows unchanged). A device the application gave to `init({ device })`
 * is the application's to destroy and is left alone. `torch.webgpu.shutdown()` is the same
 * release, for a program that wants the device gone before it ends; `init()` afterwards
 * finds a new device. `packages/torch/test/webgpu-exit.test.ts` checks every exit path,
 * in the main thread and in workers, many runs each. Not covered: `worker.terminate()` (and
 * the main thread ending while a worker still runs) stops a worker without its `exit`
 * event, so a worker's device is not released that way.
 */
let exitHooked = false;

function releaseAtExit(): void {
  if (exitHooked || typeof process === 'undefined' || typeof process.once !== 'function') return;
  exitHooked = true;
  process.once('exit', () => {
    exitHooked = false;
    try {
      shutdown();
    } catch {
      // the process is ending: its own status and error output matter more than a failed release
    }
  });
}

/**
 * Releases the WebGPU device torch-ts created (Note [Exiting with work in flight]): waits,
 * blocking, for the work already submitted, drops commands recorded but not submitted, and
 * destroys the device. WebGPU tensors still alive become unusable (free them before); a
 * later `init()` finds a new device. A no-op when WebGPU is not initialised; a device given
 * to `init({ device })` is only forgotten, not destroyed.
 */
export function shutdown(): void {
  const ctx = context;
  if (!ctx) return;
  context = null;
  unavailable = 'the WebGPU device was released by webgpu.shutdown()';
  for (const f of lostListeners) f();
  if (ctx.source === 'user') return;
  ctx.device.destroy();
  runPendingDawnCallbacks();
}
