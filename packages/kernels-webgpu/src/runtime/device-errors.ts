/// <reference types="@webgpu/types" />
import { IndexError, TorchError, type IndexErrorStyle } from '@torch-ts/core';
import { BufferUsage, MapMode } from './flags';

/**
 * Note [Device-side errors]
 * Errors that depend on the data (an index out of range, an integer division by zero) are
 * found by the kernels, on the device, long after the op returned. They belong to the
 * tensors the failing launch wrote: the read of such a tensor, or of anything computed from
 * it, raises the error, every time, and the read of an unrelated tensor does not (Note
 * [Poisoned storages] in poison.ts). `synchronize()` raises an error that no read raised
 * yet, as CUDA's synchronize raises a pending device-side assert.
 *
 * The record is one storage buffer per device of `ERROR_SLOTS` slots; a slot is
 * `DEVICE_ERROR_WORDS` u32 words at a binding offset (a multiple of the device's
 * minStorageBufferOffsetAlignment):
 *   [code, p0, p1, p2, p3, ...]  code 0: no error; else the code of the launch's first
 *                                error, and four payload words its formatter reads.
 * Every launch (dispatch) that may report gets a slot of its own, so two failing launches
 * keep their own errors. Slots are numbered per batch (Note [Command batching]): the k-th
 * reporting dispatch of a batch writes slot k. When the queue submits a batch it appends,
 * to the batch's encoder, a copy of the used slots into a MAP_READ staging buffer and a
 * `clearBuffer` of them, so the next batch finds them zero (both in queue order). The copy
 * is mapped at once; when it resolves, each launch's `LaunchCheck` settles with its error or
 * with none. A batch holds at most MAX_BATCH dispatches, so ERROR_SLOTS = MAX_BATCH slots
 * always suffice. In a loop that repeats the same ops, the k-th slot goes to the same
 * kernel step after step, so the slot offsets keep bind groups cache hits (Note [Bind group
 * cache]).
 * Within one launch the first invocation that reports wins (atomicCompareExchangeWeak of
 * word 0 from 0); which of several faulty elements wins is unspecified (as on CUDA; CPU
 * reports the first in row-major order), so the message may name another bad index. A
 * kernel that may fail skips the faulty element (never writes out of bounds) and goes on.
 *
 * How a kernel uses it (see kernels/gather-scatter.ts):
 *   1. `const code = deviceErrorCode(key, format)` once per kind of error: `key` a string
 *      that names it (e.g. `index:gather:nowrap`), `format(payload)` builds the TorchError
 *      from the four payload words (u32; reinterpret with `| 0` for signed values). Codes
 *      are small integers, stable for the process; pass the code to the kernel as a
 *      uniform word or bake it into the source. `indexErrorCode(op, style)` is the one for
 *      index errors (payload: value lo, value hi, dim, size), with CPU's messages.
 *   2. Put `deviceErrorWgsl(b)` in the kernel source (declares binding `b` as `dev_err` and
 *      the function `report_error(code, p0, p1, p2, p3)`), and pass
 *      `deviceErrorBinding(queue)` as the buffer of binding `b` in `queue.dispatch`; the
 *      queue gives it the launch's slot when it records the dispatch (a binding object
 *      reused by several dispatches gets a slot for each).
 *   3. Nothing else: the op that ran the kernel marks the tensors it wrote with the
 *      launch's check (Note [Poisoned storages]), and reads resolve it.
 * Example (integer division by zero, for helper "dtypes"):
 *   const code = deviceErrorCode('zerodiv:div', () => new TorchError('ZeroDivisionError'));
 *   WGSL: `if (b == 0) { report_error(${code}u, 0u, 0u, 0u, 0u); return; }`
 */
export const DEVICE_ERROR_WORDS = 8;
const RECORD_BYTES = DEVICE_ERROR_WORDS * 4;

type Formatter = (payload: Uint32Array) => TorchError;

const formatters: (Formatter | null)[] = [null];
const codes = new Map<string, number>();

/** The error code for `key` (registered with `format` on first use). */
export function deviceErrorCode(key: string, format: Formatter): number {
  let c = codes.get(key);
  if (c === undefined) {
    c = formatters.length;
    formatters.push(format);
    codes.set(key, c);
  }
  return c;
}

/**
 * The code of an index error of `op` with CPU's messages (kernels-cpu index-ops.ts).
 * Payload: the index value as int64 words (lo, hi), the dim, the size.
 */
export function indexErrorCode(op: string, style: IndexErrorStyle): number {
  return deviceErrorCode(`index:${op}:${style}`, (p) => {
    const value = (p[1] | 0) * 4294967296 + p[0];
    if (style === 'take') return new IndexError(`${op}: out of range: tried to access index ${value} on a tensor of ${p[3]} elements.`);
    return new IndexError(`${op}: index ${value} is out of bounds for dimension ${p[2]} with size ${p[3]}`);
  });
}

/** A fixed-message error (`embedding: index out of range in self`), no payload. */
export function messageErrorCode(key: string, make: () => TorchError): number {
  return deviceErrorCode(`msg:${key}`, make);
}

/** The WGSL of the record at binding `binding`: `dev_err` and `report_error`. */
export function deviceErrorWgsl(binding: number): string {
  return `@group(0) @binding(${binding}) var<storage, read_write> dev_err: array<atomic<u32>>;
fn report_error(code: u32, p0: u32, p1: u32, p2: u32, p3: u32) {
  loop {
    let r = atomicCompareExchangeWeak(&dev_err[0], 0u, code);
    if (r.exchanged) {
      atomicStore(&dev_err[1], p0); atomicStore(&dev_err[2], p1); atomicStore(&dev_err[3], p2); atomicStore(&dev_err[4], p3);
      return;
    }
    if (r.old_value != 0u) { return; }
  }
}`;
}

/** Reporting launches a batch may hold: one per dispatch at most (queue.ts' MAX_BATCH). */
export const ERROR_SLOTS = 256;

/** Launches that could report and have settled (for tests: the leak check), and their total. */
const counters = { launches: 0, settled: 0 };

export function deviceErrorCounters(): { launches: number; settled: number } {
  return { ...counters };
}

/** Launches settled so far: poison.ts memoises its evaluations on it. */
export function settledCount(): number {
  return counters.settled;
}

/** The reporting launches of one batch and, once it is submitted, the read of their slots. */
export class BatchErrors {
  readonly checks: LaunchCheck[] = [];
  /** Set when the batch is submitted; resolves once every check of the batch has settled. */
  done: Promise<void> | null = null;
}

/**
 * One launch that could report an error, and what it reported: `undefined` while its batch
 * has not been read back, then `null` (no error) or the error's code and payload.
 */
export class LaunchCheck {
  code: number | undefined = undefined;
  payload: Uint32Array | null = null;
  /** Raised by a read, so `synchronize()` does not raise it again. */
  raised = false;

  constructor(
    /** Launch order, over the process: the earliest error of several is the one raised. */
    readonly seq: number,
    readonly batch: BatchErrors,
  ) {}

  get settled(): boolean {
    return this.code !== undefined;
  }

  get failed(): boolean {
    return this.code !== undefined && this.code !== 0;
  }

  /** The error this launch reported, a new TorchError each time (the stack shows the read). */
  error(): TorchError {
    const format = formatters[this.code ?? 0];
    return format ? format(this.payload!) : new TorchError(`webgpu: a kernel reported an unknown device error (code ${this.code})`);
  }

  settle(code: number, payload: Uint32Array | null): void {
    this.code = code;
    this.payload = payload;
    counters.settled++;
  }
}

/** Receives each reporting launch as it is recorded (poison.ts attributes it to the running op). */
let launchListener: ((check: LaunchCheck) => void) | null = null;

export function onLaunch(f: (check: LaunchCheck) => void): void {
  launchListener = f;
}

let nextSeq = 1;

/** The record of one device and the batches whose slots are being read (owned by the CommandQueue). */
export class DeviceErrorRecord {
  private buffer: GPUBuffer | null = null;
  private readonly slotBytes: number;
  /** The reporting launches of the batch being recorded. */
  private batch: BatchErrors | null = null;
  private pending: { batch: BatchErrors; staging: GPUBuffer; bytes: number } | null = null;
  private readonly free: GPUBuffer[] = [];
  /** Submitted batches not read back yet. */
  private readonly inFlight = new Set<BatchErrors>();
  /** The first failed launch that nothing raised yet, for `synchronize()`. */
  private unraised: LaunchCheck | null = null;

  constructor(
    private readonly device: GPUDevice,
    offsetAlignment: number,
  ) {
    this.slotBytes = Math.max(RECORD_BYTES, Math.ceil(RECORD_BYTES / offsetAlignment) * offsetAlignment);
  }

  /** A binding of the record for a kernel; `claim` (at dispatch) points it at the launch's slot. */
  binding(): GPUBufferBinding {
    // (WebGPU zero-initialises new buffers.)
    this.buffer ??= this.device.createBuffer({
      size: ERROR_SLOTS * this.slotBytes,
      usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST,
    });
    return { buffer: this.buffer, offset: 0, size: RECORD_BYTES };
  }

  /** Whether `b` is a binding of the record (the queue asks, for each binding it records). */
  owns(b: GPUBufferBinding): boolean {
    return b.buffer === this.buffer;
  }

  /** Slots the batch being recorded has used. */
  get slotsUsed(): number {
    return this.batch?.checks.length ?? 0;
  }

  /** Points `b` at the next slot of the batch being recorded, for one launch. */
  claim(b: GPUBufferBinding): void {
    const batch = (this.batch ??= new BatchErrors());
    const slot = batch.checks.length;
    if (slot >= ERROR_SLOTS) throw new TorchError('webgpu: internal error: more reporting launches in a batch than error slots');
    b.offset = slot * this.slotBytes;
    const check = new LaunchCheck(nextSeq++, batch);
    batch.checks.push(check);
    counters.launches++;
    launchListener?.(check);
  }

  /** Called by the queue with the batch's encoder, before it is finished: copies the used slots out and clears them. */
  beforeSubmit(encoder: GPUCommandEncoder): void {
    const batch = this.batch;
    if (!batch || !this.buffer) return;
    this.batch = null;
    const bytes = batch.checks.length * this.slotBytes;
    const staging = this.free.pop() ?? this.device.createBuffer({ size: ERROR_SLOTS * this.slotBytes, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    encoder.copyBufferToBuffer(this.buffer, 0, staging, 0, bytes);
    encoder.clearBuffer(this.buffer, 0, bytes);
    this.pending = { batch, staging, bytes };
  }

  /** Called by the queue after the batch was submitted: maps the copy (resolves once the batch is done). */
  afterSubmit(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    const { batch, staging, bytes } = p;
    const words = this.slotBytes / 4;
    this.inFlight.add(batch);
    batch.done = staging.mapAsync(MapMode.READ, 0, bytes).then(
      () => {
        const w = new Uint32Array(staging.getMappedRange(0, bytes));
        batch.checks.forEach((c, k) => {
          const code = w[k * words];
          c.settle(code, code === 0 ? null : w.slice(k * words + 1, k * words + 5));
          if (code !== 0 && (this.unraised === null || this.unraised.raised)) this.unraised = c;
        });
        staging.unmap();
        this.free.push(staging);
        this.inFlight.delete(batch);
      },
      () => {
        // Device lost: the queue reports that; the launches settle as clean so no read waits forever.
        for (const c of batch.checks) c.settle(0, null);
        this.inFlight.delete(batch);
      },
    );
  }

  /**
   * Waits for the batches submitted so far and returns the first error that no read has
   * raised (marking it raised), or null: what `synchronize()` raises.
   */
  async takeUnraised(): Promise<TorchError | null> {
    if (this.inFlight.size > 0) await Promise.all([...this.inFlight].map((b) => b.done));
    const c = this.unraised;
    this.unraised = null;
    if (!c || c.raised) return null;
    c.raised = true;
    return c.error();
  }
}

/** The binding of the device-error record, for a kernel that may report an error (Note [Device-side errors]). */
export function deviceErrorBinding(q: { readonly deviceErrors: DeviceErrorRecord }): GPUBufferBinding {
  return q.deviceErrors.binding();
}
