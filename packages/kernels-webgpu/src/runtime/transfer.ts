import { CPU, StorageImpl, TensorImpl, TorchError, VersionCounter, type Device, type HostRegion } from '@torch-ts/core';
import type { WebGPUBlock } from '../memory/webgpu-allocator';
import { BufferUsage, MapMode } from './flags';
import { commandQueue } from './queue';

/**
 * Note [Staging buffers]
 * Reads copy device memory into a MAP_READ staging buffer (recorded into the command
 * encoder, so after every op that wrote the tensor), submit, and map it. Staging buffers
 * are pooled by power-of-two size, up to `STAGING_POOL_BYTES` in all, so a training loop
 * that reads a loss every step creates none after the first step. A read copies the whole
 * range of storage the tensor spans (4-byte aligned, as buffer copies must be) and hands
 * back a CPU tensor with the same strides over that copy, so strided views read without a
 * device-side gather.
 */
const STAGING_POOL_BYTES = 64 << 20;
const MIN_STAGING = 256;
const stagingPool = new Map<number, GPUBuffer[]>();
let pooledBytes = 0;
let stagingDevice: GPUDevice | null = null;

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

/** The device reader registered with core: a CPU copy of a WebGPU tensor (same sizes, strides). */
export async function readToHost(impl: TensorImpl, op = 'data'): Promise<TensorImpl> {
  const q = commandQueue(op);
  if (impl.numel === 0) {
    // Nothing to copy, but still a sync point for errors (Note [Device-side errors]).
    q.flush();
    await q.raiseErrors(op);
    return TensorImpl.empty(op, impl.sizes, impl.dtype, CPU);
  }
  const item = impl.itemSize;
  const { lo, hi } = span(impl);
  const byteLo = lo * item;
  const byteHi = (hi + 1) * item;
  const alignedLo = Math.floor(byteLo / 4) * 4;
  const len = Math.ceil(byteHi / 4) * 4 - alignedLo;
  const block = impl.storage.data as WebGPUBlock;
  if (!block) throw new TorchError(`${op}: internal error: a non-empty webgpu tensor has no buffer`);
  const staging = takeStaging(q.device, len);
  q.copyBufferToBuffer(block.segment.buffer, block.offset + alignedLo, staging.buffer, 0, len);
  q.flush();
  const storage = StorageImpl.allocate(op, len, CPU);
  let result: TensorImpl | null = null;
  try {
    await staging.buffer.mapAsync(MapMode.READ, 0, len);
    const host = storage.host as HostRegion;
    new Uint8Array(host.buffer, host.byteOffset, len).set(new Uint8Array(staging.buffer.getMappedRange(0, len)));
    staging.buffer.unmap();
    await q.raiseErrors(op);
    result = new TensorImpl(storage, impl.sizes, impl.strides, (byteLo - alignedLo) / item + (impl.storageOffset - lo), impl.dtype, CPU, new VersionCounter());
    return result;
  } finally {
    storage.release(); // the TensorImpl holds its own reference
    giveStaging(staging.buffer, staging.size);
  }
}

/** The device uploader registered with core: a contiguous WebGPU copy of a CPU tensor, via `queue.writeBuffer`. */
export function uploadFromHost(src: TensorImpl, device: Device): TensorImpl {
  const q = commandQueue('to');
  const out = TensorImpl.empty('to', src.sizes, src.dtype, device);
  if (out.numel === 0) return out;
  try {
    const bytes = contiguousBytes(src);
    const padded = bytes.byteLength % 4 === 0 ? bytes : padTo4(bytes);
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
 * count: the 4-byte read behind the async data-dependent ops. Releases `scratch`.
 */
export async function readLastCount(op: string, scratch: TensorImpl): Promise<number> {
  const total = scratch.view([1], [1], scratch.numel - 1);
  try {
    const host = await readToHost(total, op);
    try {
      return host.storage.typed(Int32Array)[host.storageOffset] >>> 0;
    } finally {
      host.release();
    }
  } finally {
    total.release();
    scratch.release();
  }
}
