/**
 * The devices the OpInfo runner can test. CPU is built in; a backend package adds its own
 * harness (`registerDeviceHarness`) and the suite names it: `describeOpInfo(OP_TABLE,
 * ['cpu', 'webgpu'])`. Goldens apply on every device; a harness with an `oracle` is also
 * compared against that device's results for the same inputs (STYLE.md: CPU is the oracle
 * for WebGPU). A WebGPU harness would read:
 *
 *   registerDeviceHarness({
 *     name: 'webgpu', device: 'webgpu', oracle: 'cpu',
 *     setup: () => torch.webgpu.init(),
 *     read: async (t) => { const c = await t.toAsync('cpu'); try { return readBackSync(c); } finally { c.dispose(); } },
 *     liveCounts: () => { const s = torch.memory.stats('webgpu'); return { tensors: s.liveTensors, storages: s.liveStorages }; },
 *   });
 */
import * as torch from '@torch-ts/torch';
import type { DeviceLike, Tensor } from '@torch-ts/torch';
import { readBackSync, type ReadBack } from './values';
import type { GoldenCase } from './goldens';
import { kernelOp } from './webgpu-xfails';

export interface DeviceHarness {
  /** The name used in test titles and in `describeOpInfo(table, [name])`. */
  readonly name: string;
  /** What factories are given (`{ device }`). */
  readonly device: DeviceLike;
  /** Runs once before the device's tests (`await torch.webgpu.init()`). */
  setup?(): Promise<void>;
  /** The tensor's values on the host; devices without synchronous reads return a promise. */
  read(t: Tensor): ReadBack | Promise<ReadBack>;
  /** Live TensorImpls and storages on the device, for the leak check. */
  liveCounts(): { readonly tensors: number; readonly storages: number };
  /** Another harness whose results this one must match, case by case, within tolerance. */
  readonly oracle?: string;
  /** Known failures on this device only: op name -> xfail key -> reason (keys as OpInfo.xfail). */
  readonly xfail?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /**
   * Waits for the device's queued work and drops the data-dependent errors it found, after
   * checks that run cases without reading their results (the leak check), so that those
   * errors do not surface at a later test's read.
   */
  settle?(): Promise<void>;
  /**
   * Whether the device has kernels for the case's op in its dtype, where that is less than
   * CPU's: otherwise a DTypeError naming the op is an accepted answer to a case that expects
   * an error (the dtype check may come before a data-dependent one, e.g. an index out of range).
   */
  readonly supports?: (op: string, c: GoldenCase) => boolean;
  /**
   * Random ops here draw values of their own (WebGPU: Philox, Note [Counter-based random
   * streams] in core), not PyTorch CPU's: their forward and oracle checks compare dtypes and
   * shapes, and run the op's `randomCheck` on the values instead of comparing them.
   */
  readonly ownRandomValues?: boolean;
  /**
   * The device reads asynchronously only (WebGPU): ops whose result size depends on the data
   * refuse their sync forms, so the checks run their OpForms.async / asyncMethod instead.
   */
  readonly asyncForms?: boolean;
}

export const CPU_HARNESS: DeviceHarness = {
  name: 'cpu',
  device: 'cpu',
  read: readBackSync,
  liveCounts: () => {
    const s = torch.memory.stats('cpu');
    return { tensors: s.liveTensors, storages: s.liveStorages };
  },
};

const harnesses = new Map<string, DeviceHarness>([[CPU_HARNESS.name, CPU_HARNESS]]);

export function registerDeviceHarness(h: DeviceHarness): void {
  harnesses.set(h.name, h);
}

/** The harness of a device name, or the harness itself. */
export function deviceHarness(device: string | DeviceHarness): DeviceHarness {
  if (typeof device !== 'string') return device;
  const h = harnesses.get(device);
  if (!h) throw new Error(`describeOpInfo: no harness for device '${device}' (registered: ${[...harnesses.keys()].join(', ')})`);
  return h;
}

/**
 * The WebGPU harness (issue 5): CPU is its oracle, reads go through `toAsync('cpu')`.
 * `setup` initialises WebGPU and throws when no adapter is found, so a suite that runs it
 * must first check `await torch.webgpu.init()` (ops-webgpu-suite.ts skips, with a notice,
 * unless TORCH_TS_REQUIRE_WEBGPU=1 makes init itself throw). `xfail` is set by the suite.
 */
export function webgpuHarness(xfail?: DeviceHarness['xfail']): DeviceHarness {
  return {
    name: 'webgpu',
    device: 'webgpu',
    oracle: 'cpu',
    setup: async () => {
      if (!(await torch.webgpu.init())) throw new Error('OpInfo on webgpu: no WebGPU adapter');
    },
    read: async (t) => {
      const c = await t.toAsync('cpu');
      try {
        return readBackSync(c);
      } finally {
        if (c !== t) c.dispose();
      }
    },
    liveCounts: () => {
      const s = torch.memory.stats('webgpu');
      return { tensors: s.liveTensors, storages: s.liveStorages };
    },
    xfail,
    settle: () => torch.webgpu.synchronize().catch(() => {}),
    supports: (op, c) => torch.supports(kernelOp(op, c), c.dtype, 'webgpu'),
    ownRandomValues: true,
    asyncForms: true,
  };
}
