/// <reference types="@webgpu/types" />
import { TorchError } from '@torch-ts/core';
import { gpu, type GpuContext } from './device';
import { BufferUsage } from './flags';

/**
 * Note [Block reuse in submission order]
 * Every GPU access to tensor memory goes through ONE GPUQueue, in the order ops were
 * called: dispatches and buffer copies are recorded into one command encoder (Note
 * [Command batching]) and submitted in order, and WebGPU runs the commands of a queue as
 * if one after another (each dispatch sees the writes of the dispatches before it). So
 * when a tensor is freed while dispatches that read it are still recorded or in flight, the
 * caching allocator may hand its block to the next op at once: that op's commands come
 * later in the same queue and cannot overtake the earlier reads. This is why the WebGPU
 * allocator, unlike CUDA's, needs no per-stream "in use" events.
 * The one thing that does not follow the encoder's order is `queue.writeBuffer` (and
 * `GPUBuffer.destroy`): they take effect at the point of the queue timeline where they are
 * called, i.e. BEFORE the commands still sitting in the unsubmitted encoder. So
 *  - `writeBuffer` into tensor memory first submits the pending encoder (`flush()`), so an
 *    upload into a reused block lands after every earlier command that read the block;
 *  - `emptyCache()` flushes before destroying segments (a destroyed buffer may not be used
 *    by a later submit; commands already submitted complete first, by the spec);
 *  - the uniform data of a batch goes into a region of the parameter ring that no other
 *    command of the same batch uses (the ring is rewound only after a submit).
 * `test/webgpu-allocator.test.ts` checks this: a freed block reused by the next op,
 * uploads into reused blocks, all before any sync point, read back with the right values.
 *
 * Note [Command batching]
 * Ops record dispatches into one GPUCommandEncoder and return at once; the encoder is
 * submitted at a sync point (a read, `synchronize()`, an upload) or when it holds
 * `MAX_BATCH` dispatches or the parameter ring is full. Validation and out-of-memory
 * errors of each batch are caught with error scopes and raised as a TorchError at the next
 * sync point (`synchronize()` or a read), so a failed kernel is never silently zeros.
 */

const MAX_BATCH = 256;
/** Bytes of uniform parameters a batch may use before it is submitted. */
const PARAM_RING_BYTES = 1 << 20;

export class CommandQueue {
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private dispatches = 0;
  private paramRing: GPUBuffer | null = null;
  private paramCursor = 0;
  private readonly paramStaging = new Uint8Array(PARAM_RING_BYTES);
  private paramDirtyEnd = 0;
  private readonly errors: Promise<string | null>[] = [];
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  /** Counters, for tests and the benchmark. */
  readonly counters = { submits: 0, dispatches: 0, pipelinesCompiled: 0 };

  constructor(readonly ctx: GpuContext) {}

  get device(): GPUDevice {
    return this.ctx.device;
  }

  /** The compute pipeline of a WGSL source (entry point `main`), compiled once per source. */
  pipeline(source: string): GPUComputePipeline {
    let p = this.pipelines.get(source);
    if (!p) {
      this.device.pushErrorScope('validation');
      const module = this.device.createShaderModule({ code: source });
      p = this.device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
      this.errors.push(
        this.device.popErrorScope().then((e) => (e ? `compiling a generated kernel failed: ${e.message}\n--- kernel source ---\n${source}` : null)),
      );
      this.pipelines.set(source, p);
      this.counters.pipelinesCompiled++;
    }
    return p;
  }

  get pipelineCount(): number {
    return this.pipelines.size;
  }

  private begin(): GPUCommandEncoder {
    if (!this.encoder) {
      this.device.pushErrorScope('out-of-memory');
      this.device.pushErrorScope('validation');
      this.encoder = this.device.createCommandEncoder();
    }
    return this.encoder;
  }

  /**
   * Records one dispatch: `buffers` are (buffer, offset, size) storage bindings 0..n-1, then
   * `params` (u32 words) as a uniform binding n. `workgroups` as for dispatchWorkgroups.
   */
  dispatch(source: string, buffers: readonly GPUBufferBinding[], params: Uint32Array, workgroups: readonly [number, number, number]): void {
    if (workgroups[0] === 0 || workgroups[1] === 0 || workgroups[2] === 0) return;
    const paramBytes = Math.max(16, Math.ceil((params.length * 4) / 16) * 16);
    const align = this.ctx.limits.minUniformBufferOffsetAlignment;
    if (this.paramCursor + paramBytes > PARAM_RING_BYTES || this.dispatches >= MAX_BATCH) this.flush();
    const pipeline = this.pipeline(source);
    this.begin();
    const ring = (this.paramRing ??= this.device.createBuffer({
      size: PARAM_RING_BYTES,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    }));
    const offset = this.paramCursor;
    this.paramStaging.set(new Uint8Array(params.buffer, params.byteOffset, params.byteLength), offset);
    this.paramStaging.fill(0, offset + params.byteLength, offset + paramBytes);
    this.paramCursor = Math.ceil((offset + paramBytes) / align) * align;
    this.paramDirtyEnd = offset + paramBytes;
    const entries: GPUBindGroupEntry[] = buffers.map((b, i) => ({ binding: i, resource: b }));
    entries.push({ binding: buffers.length, resource: { buffer: ring, offset, size: paramBytes } });
    const bindGroup = this.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
    this.pass ??= this.encoder!.beginComputePass();
    this.pass.setPipeline(pipeline);
    this.pass.setBindGroup(0, bindGroup);
    this.pass.dispatchWorkgroups(workgroups[0], workgroups[1], workgroups[2]);
    this.dispatches++;
    this.counters.dispatches++;
  }

  /** Records a buffer-to-buffer copy (offsets and size multiples of 4). */
  copyBufferToBuffer(src: GPUBuffer, srcOffset: number, dst: GPUBuffer, dstOffset: number, size: number): void {
    if (size === 0) return;
    const enc = this.begin();
    this.endPass();
    enc.copyBufferToBuffer(src, srcOffset, dst, dstOffset, size);
    this.dispatches++;
  }

  /** Writes host bytes into a buffer after every command recorded so far (Note [Block reuse in submission order]). */
  writeBuffer(dst: GPUBuffer, dstOffset: number, data: Uint8Array): void {
    this.flush();
    this.device.queue.writeBuffer(dst, dstOffset, data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
  }

  private endPass(): void {
    if (this.pass) {
      this.pass.end();
      this.pass = null;
    }
  }

  /** Submits the recorded commands, if any. */
  flush(): void {
    if (!this.encoder) return;
    this.endPass();
    if (this.paramDirtyEnd > 0 && this.paramRing) {
      // One upload of the batch's parameters, ahead of the batch on the queue timeline.
      this.device.queue.writeBuffer(this.paramRing, 0, this.paramStaging.buffer, 0, this.paramDirtyEnd);
    }
    const cmd = this.encoder.finish();
    this.encoder = null;
    this.device.queue.submit([cmd]);
    this.errors.push(...[this.device.popErrorScope(), this.device.popErrorScope()].map((p) => p.then((e) => e?.message ?? null)));
    this.dispatches = 0;
    this.paramCursor = 0;
    this.paramDirtyEnd = 0;
    this.counters.submits++;
  }

  /** Submits, waits until the queue is idle, and raises the first error of the batches since the last sync. */
  async synchronize(op = 'webgpu.synchronize'): Promise<void> {
    this.flush();
    await this.device.queue.onSubmittedWorkDone();
    await this.raiseErrors(op);
  }

  /** Raises (once) the first validation or out-of-memory error recorded since the last check. */
  async raiseErrors(op: string): Promise<void> {
    if (this.errors.length === 0) return;
    const all = this.errors.splice(0);
    const errs = (await Promise.all(all)).filter((e): e is string => e !== null);
    if (errs.length) throw new TorchError(`${op}: a WebGPU command failed: ${errs[0]}`);
  }
}

let queue: CommandQueue | null = null;

/** The command queue of the initialised device. */
export function commandQueue(op: string): CommandQueue {
  const ctx = gpu(op);
  if (!queue || queue.ctx !== ctx) queue = new CommandQueue(ctx);
  return queue;
}

export function commandQueueOrNull(): CommandQueue | null {
  return queue;
}
