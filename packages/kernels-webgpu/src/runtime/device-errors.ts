/// <reference types="@webgpu/types" />
import { IndexError, TorchError, type IndexErrorStyle } from '@torch-ts/core';
import { BufferUsage, MapMode } from './flags';

/**
 * Note [Device-side errors]
 * Errors that depend on the data (an index out of range, an integer division by zero) are
 * found by the kernels, on the device, long after the op returned. As on CUDA (a device-side
 * assert surfaces at the next synchronizing call), they surface at the next sync point, a
 * read to the host or `synchronize()` (docs/api.md: "on WebGPU they surface at the next read of
 * the result at the latest").
 *
 * The record is one small storage buffer per device, `DEVICE_ERROR_WORDS` u32 words:
 *   [code, p0, p1, p2, p3]     code 0: no error; else the code of the first error, and
 *                              four payload words that the error's formatter reads.
 * The first invocation that reports wins (atomicCompareExchangeWeak of word 0 from 0), so
 * the record holds ONE error, the first the device saw, until the host reads and clears it.
 * Within one dispatch, which of several faulty elements wins is unspecified (as on CUDA;
 * CPU reports the first in row-major order), so the message may name another bad index.
 * A kernel that may fail skips the faulty element (never writes out of bounds) and goes on.
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
 *      `deviceErrorBinding(queue)` as the buffer of binding `b` in `queue.dispatch`.
 *      `deviceErrorBinding` also marks the current batch so that the queue copies the
 *      record out when it submits the batch.
 *   3. Nothing else: `CommandQueue.flush()` copies the record into a small MAP_READ
 *      buffer after each batch that bound it, and `raiseErrors` (run by every read and by
 *      `synchronize()`) maps those copies and throws the first error found, then clears
 *      the record (a `writeBuffer` of zeros, ordered after every batch already submitted).
 *      Copies from batches submitted before the clear may still show the cleared error;
 *      they are ignored, so one error is raised once.
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

interface Check {
  readonly submit: number;
  words: Promise<Uint32Array | null>;
  /** Set once the copy is read and shows no error: the check can be dropped. */
  clean: boolean;
}

/** The record of one device and the copies of it in flight (owned by the CommandQueue). */
export class DeviceErrorRecord {
  private buffer: GPUBuffer | null = null;
  private armed = false;
  private pendingCopy: GPUBuffer | null = null;
  private pendingSubmit = 0;
  private readonly checks: Check[] = [];
  private readonly free: GPUBuffer[] = [];
  /** Copies made by batches with a smaller submit number predate the last clear. */
  private clearedBefore = 0;

  constructor(private readonly device: GPUDevice) {}

  /** The record's binding; marks the batch being recorded as one to check. */
  binding(): GPUBufferBinding {
    // (WebGPU zero-initialises new buffers.)
    this.buffer ??= this.device.createBuffer({ size: RECORD_BYTES, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST });
    this.armed = true;
    return { buffer: this.buffer, offset: 0, size: RECORD_BYTES };
  }

  /** Called by the queue with the batch's encoder, before it is finished: copies the record out. */
  beforeSubmit(encoder: GPUCommandEncoder, submit: number): void {
    if (!this.armed || !this.buffer) return;
    this.armed = false;
    const staging = this.free.pop() ?? this.device.createBuffer({ size: RECORD_BYTES, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    encoder.copyBufferToBuffer(this.buffer, 0, staging, 0, RECORD_BYTES);
    this.pendingCopy = staging;
    this.pendingSubmit = submit;
  }

  /** Called by the queue after the batch was submitted: maps the copy (resolves once the batch is done). */
  afterSubmit(): void {
    const staging = this.pendingCopy;
    if (!staging) return;
    this.pendingCopy = null;
    // Clean copies already read are dropped, so a program that never syncs keeps few checks.
    for (let i = this.checks.length - 1; i >= 0; i--) if (this.checks[i].clean) this.checks.splice(i, 1);
    const check: Check = { submit: this.pendingSubmit, words: Promise.resolve(null), clean: false };
    check.words = staging.mapAsync(MapMode.READ, 0, RECORD_BYTES).then(
      () => {
        const w = new Uint32Array(staging.getMappedRange(0, RECORD_BYTES).slice(0));
        staging.unmap();
        this.free.push(staging);
        check.clean = w[0] === 0;
        return w;
      },
      () => null, // device lost: the queue reports that
    );
    this.checks.push(check);
  }

  /**
   * Waits for the copies of the batches submitted so far and returns the first error they
   * hold (and clears the record), or null. `submitted()`: the number of batches submitted.
   */
  async take(submitted: () => number): Promise<TorchError | null> {
    if (this.checks.length === 0) return null;
    const all = this.checks.splice(0);
    const words = await Promise.all(all.map((c) => c.words));
    for (let i = 0; i < all.length; i++) {
      const w = words[i];
      if (!w || w[0] === 0 || all[i].submit < this.clearedBefore) continue;
      this.clear(submitted());
      const format = formatters[w[0]];
      return format ? format(w.subarray(1, 5)) : new TorchError(`webgpu: a kernel reported an unknown device error (code ${w[0]})`);
    }
    return null;
  }

  private clear(submitted: number): void {
    if (!this.buffer) return;
    this.clearedBefore = submitted;
    this.device.queue.writeBuffer(this.buffer, 0, new Uint32Array(DEVICE_ERROR_WORDS));
  }
}

/** The binding of the device-error record, for a kernel that may report an error (Note [Device-side errors]). */
export function deviceErrorBinding(q: { readonly deviceErrors: DeviceErrorRecord }): GPUBufferBinding {
  return q.deviceErrors.binding();
}
