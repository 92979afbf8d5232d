/// <reference types="@webgpu/types" />
import { TorchError } from '@torch-ts/core';
import { gpu, onDeviceLost, type GpuContext } from './device';
import { BufferUsage } from './flags';
import { withDivision } from '../wgsl/division';
import { pruneWgsl } from '../wgsl/prune';

/** GPUShaderStage.COMPUTE (fixed by the spec; see flags.ts for why not the global). */
const COMPUTE_STAGE = 0x4;
import { DeviceErrorRecord, ERROR_SLOTS } from './device-errors';

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
 * Cached bind groups (Note [Bind group cache]) change nothing here: a bind group names
 * buffer ranges, not tensors, and the commands that use it still run in queue order; the
 * allocator drops a segment's bind groups before it destroys the segment.
 * `test/webgpu-allocator.test.ts` checks this: a freed block reused by the next op,
 * uploads into reused blocks, all before any sync point, read back with the right values.
 *
 * Note [Command batching]
 * Ops record dispatches into one GPUCommandEncoder and return at once; the encoder is
 * submitted at a sync point (a read, `synchronize()`, an upload) or when it holds
 * `MAX_BATCH` dispatches or the parameter ring is full. Validation and out-of-memory
 * errors of each batch are caught with error scopes and raised as a TorchError at the next
 * sync point (`synchronize()` or a read), so a failed kernel is never silently zeros.
 *
 * Note [Bind group cache]
 * Small ops are dominated by host work per dispatch, so a dispatch allocates nothing and
 * creates no WebGPU object in the steady state:
 *  - Every pipeline has an explicit layout: storage bindings 0..n-1 (`var<storage,
 *    read_write>`: a kernel must declare every storage binding so), then the uniform
 *    parameters (`var<uniform>`) at binding n with a DYNAMIC offset into the parameter
 *    ring. So a bind group depends only on n, the storage
 *    ranges (buffer, offset, size) and the parameter size, not on where in the ring this
 *    dispatch's parameters are: it is cached under those numbers (a hash of them, checked
 *    word by word). The caching allocator hands the same blocks back step after step of a
 *    training loop, so after the first steps every bind group is a cache hit. The layout
 *    of n bindings is shared by all pipelines, so kernels that bind the same tensors share
 *    bind groups too.
 *  - The cache holds at most `maxBindGroups` entries (`MAX_BIND_GROUPS`); past that the
 *    least recently used half is dropped. Entries that bind a buffer are dropped when the allocator destroys the
 *    buffer (`forgetBuffer`, from `emptyCache()`); a destroyed buffer's entries could never
 *    hit anyway (a new buffer gets a new id), this only frees them.
 *  - Pipelines are found by their WGSL source in a Map. Kernel files cache their sources, so
 *    the string handed in is the same string object each time and V8 reuses its hash; a
 *    source rebuilt per call would be flattened and hashed on every dispatch: cache
 *    generated sources.
 *  - Consecutive dispatches of one pipeline set it once per compute pass.
 *  - The parameters are copied into one preallocated staging array (uploaded once per batch).
 * `test/bind-group-cache.test.ts` checks hits, per-dispatch parameters under one cached
 * bind group, the bound, and emptyCache.
 */

const MAX_BATCH = 256;
/** Bytes of uniform parameters a batch may use before it is submitted. */
const PARAM_RING_BYTES = 1 << 20;
/** Bind groups kept by the cache (Note [Bind group cache]). */
export const MAX_BIND_GROUPS = 4096;

/** A cached bind group and the numbers it was made for. */
interface BindEntry {
  /** [n, paramBytes, (buffer id, offset, size) x n] */
  readonly key: Float64Array;
  readonly group: GPUBindGroup;
  lastUse: number;
  /** The next entry with the same hash. */
  next: BindEntry | null;
}

/** Pipelines of one WGSL source, by the number of storage bindings (one in practice). */
interface Kernel {
  readonly source: string;
  readonly byBindings: (GPUComputePipeline | undefined)[];
}

export class CommandQueue {
  private encoder: GPUCommandEncoder | null = null;
  private pass: GPUComputePassEncoder | null = null;
  private dispatches = 0;
  private paramRing: GPUBuffer | null = null;
  private paramCursor = 0;
  private readonly paramStaging = new Uint8Array(PARAM_RING_BYTES);
  private readonly paramStaging32 = new Uint32Array(this.paramStaging.buffer);
  private paramDirtyEnd = 0;
  private readonly errors: Promise<string | null>[] = [];
  private readonly kernels = new Map<string, Kernel>();
  private pipelinesCount = 0;
  /** Bind group layouts by the number of storage bindings (Note [Bind group cache]). */
  private readonly groupLayouts: GPUBindGroupLayout[] = [];
  private readonly pipelineLayouts: GPUPipelineLayout[] = [];
  private readonly bindGroups = new Map<number, BindEntry>();
  private bindGroupCount = 0;
  private useClock = 0;
  private readonly bufferIds = new WeakMap<GPUBuffer, number>();
  private nextBufferId = 1;
  private keyScratch = new Float64Array(2 + 3 * 8);
  /** (a plain array: Dawn's node binding takes it faster than a typed array) */
  private readonly dynamicOffset = [0];
  /** The pipeline set in the open compute pass. */
  private passPipeline: GPUComputePipeline | null = null;
  /** The bind group cache's bound (settable for tests). */
  maxBindGroups = MAX_BIND_GROUPS;
  /** Counters, for tests and the benchmark. */
  readonly counters = { submits: 0, dispatches: 0, pipelinesCompiled: 0, bindGroupsCreated: 0, bindGroupHits: 0 };
  /** Data-dependent errors found by kernels (Note [Device-side errors]). */
  readonly deviceErrors: DeviceErrorRecord;

  constructor(readonly ctx: GpuContext) {
    this.deviceErrors = new DeviceErrorRecord(ctx.device, ctx.limits.minStorageBufferOffsetAlignment);
  }

  get device(): GPUDevice {
    return this.ctx.device;
  }

  /**
   * The compute pipeline of a WGSL source (entry point `main`) whose storage bindings are
   * 0..bindings-1 and uniform parameters binding `bindings`, compiled once per source.
   */
  pipeline(source: string, bindings: number): GPUComputePipeline {
    let k = this.kernels.get(source);
    if (k === undefined) {
      k = { source, byBindings: [] };
      this.kernels.set(source, k);
    }
    return k.byBindings[bindings] ?? this.compile(k, bindings);
  }

  private compile(k: Kernel, bindings: number): GPUComputePipeline {
    const source = k.source;
    this.device.pushErrorScope('validation');
    // Note [Only the helpers a kernel calls are compiled]
    const code = pruneWgsl(withDivision(source, this.ctx.division));
    const module = this.device.createShaderModule({ code });
    const p = this.device.createComputePipeline({ layout: this.pipelineLayout(bindings), compute: { module, entryPoint: 'main' } });
    this.errors.push(
      this.device.popErrorScope().then((e) => (e ? `compiling a generated kernel failed: ${e.message}\n--- kernel source ---\n${code}` : null)),
    );
    k.byBindings[bindings] = p;
    this.pipelinesCount++;
    this.counters.pipelinesCompiled++;
    return p;
  }

  /** Storage bindings 0..n-1, then the uniform parameters at n with a dynamic offset. */
  private groupLayout(n: number): GPUBindGroupLayout {
    let l = this.groupLayouts[n];
    if (l === undefined) {
      const entries: GPUBindGroupLayoutEntry[] = [];
      for (let i = 0; i < n; i++) entries.push({ binding: i, visibility: COMPUTE_STAGE, buffer: { type: 'storage' } });
      entries.push({ binding: n, visibility: COMPUTE_STAGE, buffer: { type: 'uniform', hasDynamicOffset: true } });
      l = this.device.createBindGroupLayout({ entries });
      this.groupLayouts[n] = l;
    }
    return l;
  }

  private pipelineLayout(n: number): GPUPipelineLayout {
    return (this.pipelineLayouts[n] ??= this.device.createPipelineLayout({ bindGroupLayouts: [this.groupLayout(n)] }));
  }

  get pipelineCount(): number {
    return this.pipelinesCount;
  }

  /** Bind groups held by the cache (Note [Bind group cache]). */
  get bindGroupCacheSize(): number {
    return this.bindGroupCount;
  }

  private bufferId(b: GPUBuffer): number {
    let id = this.bufferIds.get(b);
    if (id === undefined) {
      id = this.nextBufferId++;
      this.bufferIds.set(b, id);
    }
    return id;
  }

  /** The bind group of storage ranges `buffers` and a uniform of `paramBytes` in the ring (cached). */
  private bindGroup(buffers: readonly GPUBufferBinding[], ring: GPUBuffer, paramBytes: number): GPUBindGroup {
    const n = buffers.length;
    const len = 2 + 3 * n;
    if (this.keyScratch.length < len) this.keyScratch = new Float64Array(len);
    const key = this.keyScratch;
    key[0] = n;
    key[1] = paramBytes;
    let h = Math.imul(n + 1, 0x9e3779b1) ^ paramBytes;
    for (let i = 0; i < n; i++) {
      const b = buffers[i];
      const id = this.bufferId(b.buffer);
      const off = b.offset ?? 0;
      const size = b.size ?? b.buffer.size - off;
      key[2 + 3 * i] = id;
      key[3 + 3 * i] = off;
      key[4 + 3 * i] = size;
      h = Math.imul(h ^ id, 0x85ebca6b);
      h = Math.imul(h ^ off, 0xc2b2ae35);
      h = Math.imul(h ^ size, 0x27d4eb2f);
      h ^= h >>> 15;
    }
    const stamp = ++this.useClock;
    for (let e: BindEntry | null = this.bindGroups.get(h) ?? null; e !== null; e = e.next) {
      const k = e.key;
      if (k.length !== len) continue;
      let same = true;
      for (let j = 0; j < len; j++) {
        if (k[j] !== key[j]) {
          same = false;
          break;
        }
      }
      if (same) {
        e.lastUse = stamp;
        this.counters.bindGroupHits++;
        return e.group;
      }
    }
    const entries: GPUBindGroupEntry[] = [];
    for (let i = 0; i < n; i++) entries.push({ binding: i, resource: buffers[i] });
    entries.push({ binding: n, resource: { buffer: ring, offset: 0, size: paramBytes } });
    const group = this.device.createBindGroup({ layout: this.groupLayout(n), entries });
    this.counters.bindGroupsCreated++;
    if (this.bindGroupCount >= this.maxBindGroups) this.evictBindGroups();
    const entry: BindEntry = { key: key.slice(0, len), group, lastUse: stamp, next: this.bindGroups.get(h) ?? null };
    this.bindGroups.set(h, entry);
    this.bindGroupCount++;
    return group;
  }

  /**
   * Keeps the most recently used half of the bound: the least recently used half of a full
   * cache, or more where the bound was lowered below what the cache holds.
   */
  private evictBindGroups(): void {
    const stamps: number[] = [];
    for (let e of this.bindGroups.values()) for (let x: BindEntry | null = e; x; x = x.next) stamps.push(x.lastUse);
    const keep = this.maxBindGroups >> 1;
    if (stamps.length <= keep) return;
    stamps.sort((a, b) => a - b);
    const cut = stamps[stamps.length - keep - 1];
    this.dropBindGroups((e) => e.lastUse <= cut);
  }

  private dropBindGroups(drop: (e: BindEntry) => boolean): void {
    for (const [h, head] of this.bindGroups) {
      let first: BindEntry | null = head;
      while (first && drop(first)) {
        first = first.next;
        this.bindGroupCount--;
      }
      for (let e = first; e && e.next; ) {
        if (drop(e.next)) {
          e.next = e.next.next;
          this.bindGroupCount--;
        } else e = e.next;
      }
      if (first === null) this.bindGroups.delete(h);
      else if (first !== head) this.bindGroups.set(h, first);
    }
  }

  /** Forgets the cached bind groups of a buffer about to be destroyed (Note [Bind group cache]). */
  forgetBuffer(buffer: GPUBuffer): void {
    const id = this.bufferIds.get(buffer);
    if (id === undefined) return;
    this.bufferIds.delete(buffer);
    this.dropBindGroups((e) => {
      const k = e.key;
      for (let j = 2; j < k.length; j += 3) if (k[j] === id) return true;
      return false;
    });
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
    if (this.paramCursor + paramBytes > PARAM_RING_BYTES || this.dispatches >= MAX_BATCH || this.deviceErrors.slotsUsed >= ERROR_SLOTS) this.flush();
    // After the flush decision: the launch's error slot is one of the batch it is recorded in.
    for (let i = 0; i < buffers.length; i++) if (this.deviceErrors.owns(buffers[i])) this.deviceErrors.claim(buffers[i]);
    const pipeline = this.pipeline(source, buffers.length);
    this.begin();
    const ring = (this.paramRing ??= this.device.createBuffer({
      size: PARAM_RING_BYTES,
      usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST,
    }));
    const offset = this.paramCursor;
    // (offset is a multiple of the uniform alignment, so of 4)
    this.paramStaging32.set(params, offset >>> 2);
    this.paramStaging.fill(0, offset + params.byteLength, offset + paramBytes);
    this.paramCursor = Math.ceil((offset + paramBytes) / align) * align;
    this.paramDirtyEnd = offset + paramBytes;
    const bindGroup = this.bindGroup(buffers, ring, paramBytes);
    this.pass ??= this.encoder!.beginComputePass();
    if (this.passPipeline !== pipeline) {
      this.pass.setPipeline(pipeline);
      this.passPipeline = pipeline;
    }
    this.dynamicOffset[0] = offset;
    this.pass.setBindGroup(0, bindGroup, this.dynamicOffset);
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
      this.passPipeline = null;
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
    this.deviceErrors.beforeSubmit(this.encoder);
    const cmd = this.encoder.finish();
    this.encoder = null;
    this.device.queue.submit([cmd]);
    this.deviceErrors.afterSubmit();
    this.errors.push(...[this.device.popErrorScope(), this.device.popErrorScope()].map((p) => p.then((e) => e?.message ?? null)));
    this.dispatches = 0;
    this.paramCursor = 0;
    this.paramDirtyEnd = 0;
    this.counters.submits++;
  }

  /**
   * Submits, waits until the queue is idle, and raises the first error of the batches since
   * the last sync: a validation or out-of-memory error, else a data-dependent error that no
   * read has raised (Note [Device-side errors]).
   */
  async synchronize(op = 'webgpu.synchronize'): Promise<void> {
    this.flush();
    await this.device.queue.onSubmittedWorkDone();
    await this.raiseErrors(op);
    const deviceError = await this.deviceErrors.takeUnraised();
    if (deviceError) throw deviceError;
  }

  /**
   * Raises (once) the first validation or out-of-memory error recorded since the last check.
   * Data-dependent errors are the business of the tensors they poison (Note [Poisoned storages]).
   */
  async raiseErrors(op: string): Promise<void> {
    const all = this.errors.splice(0);
    const errs = (await Promise.all(all)).filter((e): e is string => e !== null);
    if (errs.length) throw new TorchError(`${op}: a WebGPU command failed: ${errs[0]}`);
  }
}

let queue: CommandQueue | null = null;
// A lost or released device's queue (its encoder, pipelines, bind groups) is dropped.
onDeviceLost(() => {
  queue = null;
});

/** The command queue of the initialised device. */
export function commandQueue(op: string): CommandQueue {
  const ctx = gpu(op);
  if (!queue || queue.ctx !== ctx) queue = new CommandQueue(ctx);
  return queue;
}

export function commandQueueOrNull(): CommandQueue | null {
  return queue;
}
