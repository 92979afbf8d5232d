/**
 * Test support for @torch-ts/kernels-webgpu. The package may import only core (the boundary
 * lint), so tests bring a minimal host allocator of their own for the CPU side of uploads
 * and reads, and move data with the backend's uploader and reader directly.
 */
import {
  CPU,
  Device,
  Tensor,
  TensorImpl,
  emptyStats,
  hasAllocator,
  registerAllocator,
  typeMeta,
  type Allocator,
  type DType,
} from '@torch-ts/core';
import { init, unavailableReason } from '../src';
import { readToHost, uploadFromHost } from '../src/runtime/transfer';

if (!hasAllocator('cpu')) {
  const host: Allocator = {
    deviceType: 'cpu',
    allocate: (nbytes, device) => ({ data: { buffer: new ArrayBuffer(nbytes), byteOffset: 0, byteLength: nbytes }, context: null, deleter: null, device }),
    stats: emptyStats,
    resetPeakStats: () => {},
  };
  registerAllocator(host);
}

export const WEBGPU = Device.of('webgpu', 0);

/** Whether WebGPU tests run here; when not, a notice says why (TORCH_TS_REQUIRE_WEBGPU=1 makes init throw instead). */
export const webgpuReady: boolean = await init();
if (!webgpuReady) {
  console.warn(`[kernels-webgpu] WebGPU tests SKIPPED: ${unavailableReason()} (set TORCH_TS_REQUIRE_WEBGPU=1 to fail instead)`);
}

/** A WebGPU tensor of `dtype` with `values` (row-major) and shape `sizes`. */
export function gpuTensor(values: readonly number[], dtype: DType = 'float32', sizes: readonly number[] = [values.length]): Tensor {
  const host = TensorImpl.empty('test', sizes, dtype, CPU);
  const meta = typeMeta(dtype);
  const arr = host.storage.typed(meta.ArrayType as never) as unknown as { [i: number]: number | bigint };
  values.forEach((v, i) => {
    arr[i] = dtype === 'int64' ? BigInt(v) : v;
  });
  try {
    return new Tensor(uploadFromHost(host, WEBGPU));
  } finally {
    host.release();
  }
}

/** The logical elements of a WebGPU tensor, row-major, as numbers. */
export async function readValues(t: Tensor): Promise<number[]> {
  const host = await readToHost(t.impl);
  try {
    const meta = typeMeta(host.dtype);
    const arr = host.storage.typed(meta.ArrayType as never) as unknown as ArrayLike<number | bigint>;
    const out: number[] = [];
    const nd = host.sizes.length;
    const idx = new Array<number>(nd).fill(0);
    for (let i = 0; i < host.numel; i++) {
      let off = host.storageOffset;
      for (let d = 0; d < nd; d++) off += idx[d] * host.strides[d];
      out.push(Number(arr[off]));
      for (let d = nd - 1; d >= 0; d--) {
        if (++idx[d] < host.sizes[d]) break;
        idx[d] = 0;
      }
    }
    return out;
  } finally {
    host.release();
  }
}

/** A deterministic pseudo-random sequence in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` values of rng(seed): float32 in [-1, 1), or integers in [-3, 3] with `ints`. */
export function randoms(n: number, seed: number, ints = false): number[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => (ints ? Math.floor(r() * 7) - 3 : Math.fround(r() * 2 - 1)));
}
