/// <reference types="@webgpu/types" />
import { DeviceError } from '@torch-ts/core';
import { throttleDawnPolling } from './polling';

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

/** Whether `init()` found a device (async-free after it, as API.md says). */
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

/** Called when the device is lost, after the context is cleared. */
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
      setContext(opts.device, 'user', 'a device given to init()', false);
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
    setContext(device, source, describeAdapter(adapter), software);
    if (software && source.startsWith('dawn')) throttleDawnPolling(); // (Note [Dawn's polling on a software adapter])
    unavailable = null;
    return true;
  } catch (e) {
    if (e instanceof DeviceError) throw e;
    unavailable = `WebGPU initialisation failed: ${(e as Error).message}`;
    if (required) throw new DeviceError(`webgpu.init: ${unavailable}`);
    return false;
  }
}

async function findAdapter(opts: WebGPUInitOptions): Promise<{ adapter: GPUAdapter; source: string } | null> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  const request = { powerPreference: opts.powerPreference } as GPURequestAdapterOptions;
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
  const info = (adapter as { info?: GPUAdapterInfo }).info;
  if (!info) return 'unknown adapter';
  return [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(' ') || 'unknown adapter';
}

/** A CPU implementation of WebGPU: the fallback adapter, or SwiftShader by name (Dawn's Vulkan on it). */
function isSoftwareAdapter(adapter: GPUAdapter): boolean {
  const info = (adapter as { info?: GPUAdapterInfo & { isFallbackAdapter?: boolean } }).info;
  if (info?.isFallbackAdapter === true || (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter === true) return true;
  return /swiftshader|llvmpipe|lavapipe|warp/i.test([info?.vendor, info?.architecture, info?.device, info?.description].join(' '));
}

function setContext(device: GPUDevice, source: string, adapterInfo: string, softwareAdapter: boolean): void {
  const l = device.limits;
  context = {
    device,
    source,
    adapterInfo,
    softwareAdapter,
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
  void device.lost.then((info) => {
    if (context?.device !== device) return;
    context = null;
    unavailable = `the WebGPU device was lost (${info.reason}: ${info.message})`;
    for (const f of lostListeners) f();
  });
}
