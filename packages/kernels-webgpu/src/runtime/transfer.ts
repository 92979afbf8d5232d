import { CPU, StorageImpl, TensorImpl, TorchError, VersionCounter, typeMeta, type Device, type HostRegion, type HostValues } from '@torch-ts/core';
import type { WebGPUBlock } from '../memory/webgpu-allocator';
import { BufferUsage, MapMode } from './flags';
import { commandQueue } from './queue';
import { raiseIfPoisoned } from './poison';
import { onDeviceLost } from './device';

/**
 * Note [Staging buffers]
 * Reads copy device memory into a MAP_READ staging buffer (recorded into the command
 * encoder, so after every op that wrote the tensor), submit, and map it. Staging buffers
 * are pooled by power-of-two size, up to `STAGING_POOL_BYTES` in all, so a training loop
 * that reads a loss every step creates none after the first step. A read copies the whole
 * range of storage the tensor spans (4-byte aligned, as buffer copies must be) and hands
 * back a CPU tensor with the same strides over that copy, so strided views read without a
 * device-side gather. A contiguous tensor's `data()` skips that CPU tensor: its elements
 * are sliced out of the mapped range straight into the array the user gets (`readValues`).
 */
const STAGING_POOL_BYTES = 64 << 20;
const MIN_STAGING = 256;
const stagingPool = new Map<number, GPUBuffer[]>();
let pooledBytes = 0;
let stagingDevice: GPUDevice | null = null;
onDeviceLost(() => {
  stagingPool.clear();
  pooledBytes = 0;
  stagingDevice = null;
});

function takeStaging(device: GPUDevice, nbytes: number): { buffer: GPUBuffer; size: number } {
  if (stagingDevice !== device) {
    stagingPool.clear();
    pooledBytes = 0;
    stagingDevice = device;
  }
  let size = MIN_STAGING;
  while (size < nbytes) size *= 2;
  const free = stagingPool.get(size);
  const pooled = free?.pop();
  if (pooled) {
    pooledBytes -= size;
    return { buffer: pooled, size };
  }
  return { buffer: device.createBuffer({ size, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST }), size };
}

function giveStaging(buffer: GPUBuffer, size: number): void {
  if (buffer.mapState !== 'unmapped' || pooledBytes + size > STAGING_POOL_BYTES) {
    buffer.destroy();
    return;
  }
  let free = stagingPool.get(size);
  if (!free) stagingPool.set(size, (free = []));
  free.push(buffer);
  pooledBytes += size;
}

/** Element span of a tensor in its storage: [lo, hi] inclusive, in elements. */
function span(impl: TensorImpl): { lo: number; hi: number } {
  let lo = impl.storageOffset;
  let hi = impl.storageOffset;
  for (let d = 0; d < impl.sizes.length; d++) {
    const ext = (impl.sizes[d] - 1) * impl.strides[d];
    if (ext < 0) lo += ext;
    else hi += ext;
  }
  return { lo, hi };
}

/**
 * Copies the bytes of storage `impl` spans (4-byte aligned) into a staging buffer after all
 * enqueued work, waits for it, and hands the mapped range to `take`, which must copy what
 * it keeps (the range is unmapped when it returns). Raises WebGPU errors, and the
 * device-side error that poisons `source` (Note [Poisoned storages]).
 * `take` gets the byte position of the span's first element within the mapped range.
 */
async function readSpan<T>(op: string, impl: TensorImpl, source: TensorImpl, take: (mapped: ArrayBuffer, lead: number, lo: number) => T): Promise<T> {
  const q = commandQueue(op);
  const item = impl.itemSize;
  const { lo, hi } = span(impl);
  const byteLo = lo * item;
  const alignedLo = Math.floor(byteLo / 4) * 4;
  const len = Math.ceil(((hi + 1) * item) / 4) * 4 - alignedLo;
  const block = impl.storage.data as WebGPUBlock;
  if (!block) throw new TorchError(`${op}: internal error: a non-empty webgpu tensor has no buffer`);
  const staging = takeStaging(q.device, len);
  q.copyBufferToBuffer(block.segment.buffer, block.offset + alignedLo, staging.buffer, 0, len);
  q.flush();
  try {
    await staging.buffer.mapAsync(MapMode.READ, 0, len);
    let result: T;
    try {
      result = take(staging.buffer.getMappedRange(0, len), byteLo - alignedLo, lo);
    } finally {
      staging.buffer.unmap();
    }
    await q.raiseErrors(op);
    await raiseIfPoisoned(source, () => q.flush());
    return result;
  } finally {
    giveStaging(staging.buffer, staging.size);
  }
}

/** Nothing to copy, but still a sync point for errors (Note [Poisoned storages]). */
async function syncOnly(op: string, source: TensorImpl): Promise<void> {
  const q = commandQueue(op);
  q.flush();
  await q.raiseErrors(op);
  await raiseIfPoisoned(source, () => q.flush());
}

/** The device reader's `toHost`: a CPU copy of a WebGPU tensor (same sizes, strides). */
export async function readToHost(impl: TensorImpl, op = 'data'): Promise<TensorImpl> {
  if (impl.numel === 0) {
    await syncOnly(op, impl);
    return TensorImpl.empty(op, impl.sizes, impl.dtype, CPU);
  }
  const item = impl.itemSize;
  // The geometry as the read was asked for: an in-place view op (`x.t_()`) may change impl's
  // before the copy lands (core Note [In-place view ops]), and the span read is this one's.
  const { sizes, strides, storageOffset } = impl;
  return readSpan(op, impl, impl, (mapped, lead, lo) => {
    const storage = StorageImpl.allocate(op, mapped.byteLength, CPU);
    try {
      const host = storage.host as HostRegion;
      new Uint8Array(host.buffer, host.byteOffset, mapped.byteLength).set(new Uint8Array(mapped));
      return new TensorImpl(storage, sizes, strides, lead / item + (storageOffset - lo), impl.dtype, CPU, new VersionCounter());
    } finally {
      storage.release(); // the TensorImpl holds its own reference
    }
  });
}

/**
 * The device reader's `values`, for a contiguous tensor: its elements in a new typed array
 * of the storage element type, copied once out of the mapped range (`ArrayBuffer.slice`
 * does not zero-fill first). `source`: the tensor whose device-side errors the read
 * raises, when `impl` is a copy of it made for the read.
 */
export async function readValues(impl: TensorImpl, op = 'data', source: TensorImpl = impl): Promise<HostValues> {
  const { ArrayType } = typeMeta(impl.dtype);
  const Ctor = ArrayType as unknown as { new (buffer: ArrayBuffer): HostValues; new (n: number): HostValues };
  if (impl.numel === 0) {
    await syncOnly(op, source);
    return new Ctor(0);
  }
  const nbytes = impl.numel * impl.itemSize;
  return readSpan(op, impl, source, (mapped, lead) => new Ctor(mapped.slice(lead, lead + nbytes)));
}

/** The device uploader registered with core: a contiguous WebGPU copy of a CPU tensor, via `queue.writeBuffer`. */
export function uploadFromHost(src: TensorImpl, device: Device): TensorImpl {
  const q = commandQueue('to');
  const out = TensorImpl.empty('to', src.sizes, src.dtype, device);
  if (out.numel === 0) return out;
  try {
    const bytes = contiguousBytes(src);
    // CPU storages are usually views of a SharedArrayBuffer (kernels-cpu Note [CPU storage in
    // WebAssembly memory]), which Dawn's Node binding refuses in writeBuffer: those go
    // through one copy into a plain ArrayBuffer, as do lengths that are not a multiple of 4.
    const padded = bytes.byteLength % 4 === 0 && bytes.buffer instanceof ArrayBuffer ? bytes : padTo4(bytes);
    const block = out.storage.data as WebGPUBlock;
    q.writeBuffer(block!.segment.buffer, block!.offset, padded);
    return out;
  } catch (e) {
    out.release();
    throw e;
  }
}

function padTo4(bytes: Uint8Array): Uint8Array {
  const p = new Uint8Array(Math.ceil(bytes.byteLength / 4) * 4);
  p.set(bytes);
  return p;
}

/** The logical elements of a CPU tensor, row-major, as raw bytes. */
function contiguousBytes(src: TensorImpl): Uint8Array {
  const item = src.itemSize;
  const host = src.storage.host;
  const all = new Uint8Array(host.buffer, host.byteOffset, host.byteLength);
  const n = src.numel;
  if (src.isContiguous) return all.subarray(src.storageOffset * item, (src.storageOffset + n) * item);
  const out = new Uint8Array(n * item);
  const nd = src.sizes.length;
  const idx = new Array<number>(nd).fill(0);
  let off = src.storageOffset;
  for (let i = 0; i < n; i++) {
    out.set(all.subarray(off * item, off * item + item), i * item);
    for (let d = nd - 1; d >= 0; d--) {
      idx[d]++;
      off += src.strides[d];
      if (idx[d] < src.sizes[d]) break;
      off -= src.strides[d] * src.sizes[d];
      idx[d] = 0;
    }
  }
  return out;
}

/**
 * The last element of an int32 scratch of counts (a prefix sum's total), as an unsigned
 * count: the 4-byte read behind the async data-dependent ops, which raises the
 * device-side error that poisons `source`, the tensor counted. Releases `scratch`.
 */
export async function readLastCount(op: string, scratch: TensorImpl, source: TensorImpl): Promise<number> {
  const total = scratch.view([1], [1], scratch.numel - 1);
  try {
    return ((await readValues(total, op, source)) as Int32Array)[0] >>> 0;
  } finally {
    total.release();
    scratch.release();
  }
}
