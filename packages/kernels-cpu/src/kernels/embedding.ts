import { IndexError, type BackendImpls, type TensorImpl } from '@torch-ts/core';
import { floatArray, raw1, raw2, raw4 } from '../loops/arrays';

/**
 * Embedding lookups move rows as raw element bits (any dtype; 8-byte elements as two int32
 * words, Note [Monomorphic loops]); the backward adds gradient rows in the compute dtype.
 * Operands are contiguous (Note [NN kernels take contiguous float32/float64 operands]).
 */

function checkIndex(op: string, k: bigint, v: number): number {
  if (k < 0n || k >= BigInt(v)) throw new IndexError(`${op}: index out of range in self`);
  return Number(k);
}

function copyRows(
  dst: Uint8Array | Uint16Array | Int32Array,
  src: Uint8Array | Uint16Array | Int32Array,
  dOff: number,
  sOff: number,
  ids: BigInt64Array,
  iOff: number,
  n: number,
  v: number,
  row: number,
): void {
  for (let i = 0; i < n; i++) {
    const k = checkIndex('embedding', ids[iOff + i], v);
    dst.set(src.subarray(sOff + k * row, sOff + (k + 1) * row), dOff + i * row);
  }
}

export const embedding: BackendImpls['embedding'] = (out, weight, indices, n, v, d) => {
  const ids = indices.storage.typed(BigInt64Array);
  const width = weight.itemSize;
  const arrays = (t: TensorImpl) => (width === 1 ? raw1(t) : width === 2 ? raw2(t) : raw4(t));
  const scale = width === 8 ? 2 : 1;
  copyRows(arrays(out), arrays(weight), out.storageOffset * scale, weight.storageOffset * scale, ids, indices.storageOffset, n, v, d * scale);
};

export const embeddingBackward: BackendImpls['embeddingBackward'] = (gradWeight, grad, indices, n, v, d, paddingIdx) => {
  const gw = floatArray(gradWeight);
  const gwo = gradWeight.storageOffset;
  gw.fill(0, gwo, gwo + v * d);
  const g = floatArray(grad);
  const go = grad.storageOffset;
  const ids = indices.storage.typed(BigInt64Array);
  const io = indices.storageOffset;
  for (let i = 0; i < n; i++) {
    const k = checkIndex('embedding_dense_backward', ids[io + i], v);
    if (k === paddingIdx) continue;
    const dst = gwo + k * d;
    const src = go + i * d;
    for (let j = 0; j < d; j++) gw[dst + j] += g[src + j];
  }
};
