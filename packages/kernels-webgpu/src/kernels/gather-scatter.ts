/// <reference types="@webgpu/types" />
import { TensorImpl, type IndexedAccess, type IndexErrorStyle, type IndexingImpls, type ScatterMode } from '@torch-ts/core';
import type { WebGPUBlock } from '../memory/webgpu-allocator';
import { commandQueue } from '../runtime/queue';
import { deviceErrorBinding, indexErrorCode } from '../runtime/device-errors';
import { gpu } from '../runtime/device';
import { kindOf } from '../wgsl/kinds';
import { accessSource, accessWords, type AccessMode, type CombineKind } from '../wgsl/indexing';
import { bindingOf, grid, int64Value, scalarWord } from './launch';
import { copy } from './pointwise';

/**
 * The gather and scatter impls of core's IndexedAccess (Note [Indexed access], Note
 * [Indexed access kernels]): every indexing op of the family (advanced indexing, index_put_,
 * gather, scatter*, index_select, index_add, index_fill, take, masked_*, embedding) is one
 * dispatch of the generated access kernel.
 */

const sourceCache = new Map<string, string>();

export interface AccessOptions {
  /** Values outside [-size, size) are errors ('wrap'), or outside [0, size). */
  readonly wrap: boolean;
  /** The device error code of a bad index (Note [Device-side errors]). */
  readonly errCode: number;
  /** Skip positions whose first index equals this value (embedding's padding_idx). */
  readonly skip?: number | null;
  /** The arithmetic modes' alpha word (in the kind's representation), and its high word for int64. */
  readonly alphaWord?: number;
  readonly alphaHi?: number;
  readonly kind?: CombineKind | null;
}

/**
 * Runs the access kernel: mode 'gather' copies T[positions] into `other` (out); the others
 * combine `other` (src) into T[positions].
 */
export function runAccess(op: string, mode: AccessMode, access: IndexedAccess, other: TensorImpl, opts: AccessOptions): void {
  const n = other.numel;
  if (n === 0) return;
  if (access.indices.length === 0 && (mode === 'gather' || mode === 'set')) {
    // no index (masked_select of a 0-dim tensor): a strided copy, and the access kernel
    // would not bind its unused error record
    if (mode === 'gather') copy(other, access.data);
    else copy(access.data, other);
    return;
  }
  const q = commandQueue(op);
  let indices = access.indices;
  let stacked: TensorImpl | null = null;
  const maxBuffers = gpu(op).limits.maxStorageBuffersPerShaderStage;
  if (uniqueBlocks([access.data, other, ...indices]) + 1 > maxBuffers) {
    // More storage blocks than bindings: the indices are copied into one int64 tensor.
    stacked = TensorImpl.empty(op, [indices.length, ...other.sizes], 'int64', other.device);
    indices = indices.map((ix, k) => {
      const v = stacked!.view(other.sizes, stacked!.strides.slice(1), k * stacked!.strides[0]);
      copy(v, ix);
      return v;
    });
  }
  try {
    const operands = [access.data, other, ...indices];
    const blocks = operands.map((t) => t.storage.data as WebGPUBlock);
    const firstOf = blocks.map((b) => blocks.indexOf(b));
    const binding: number[] = [];
    const owners: TensorImpl[] = [];
    firstOf.forEach((f, i) => {
      if (f === i) {
        binding.push(owners.length);
        owners.push(operands[i]);
      } else binding.push(binding[f]);
    });
    const nd = other.sizes.length;
    const K = indices.length;
    const width = access.data.itemSize as 1 | 2 | 4 | 8;
    const kind = opts.kind ?? null;
    const skip = opts.skip !== undefined && opts.skip !== null;
    const key = `${mode}|${width}|${kind}|${nd}|${K}|${opts.wrap}|${skip}|${binding.join(',')}`;
    let source = sourceCache.get(key);
    if (!source) {
      source = accessSource({ mode, width, kind, ndim: nd, nidx: K, wrap: opts.wrap, skip, binding });
      sourceCache.set(key, source);
    }
    const params = new Uint32Array(accessWords(nd, K));
    let w = 0;
    params[w++] = n;
    params[w++] = access.data.storageOffset;
    params[w++] = other.storageOffset;
    for (const ix of indices) params[w++] = ix.storageOffset;
    for (let d = 0; d < nd; d++) params[w++] = other.sizes[d];
    for (let d = 0; d < nd; d++) params[w++] = access.data.strides[d];
    for (let d = 0; d < nd; d++) params[w++] = other.strides[d];
    for (const ix of indices) for (let d = 0; d < nd; d++) params[w++] = ix.strides[d];
    for (let k = 0; k < K; k++) params[w++] = access.sizes[k];
    for (let k = 0; k < K; k++) params[w++] = access.strides[k];
    for (let k = 0; k < K; k++) params[w++] = access.dims[k];
    params[w++] = opts.alphaWord ?? 0;
    params[w++] = skip ? opts.skip! >>> 0 : 0;
    params[w++] = opts.errCode;
    params[w++] = opts.alphaHi ?? 0;
    const bindings = [...owners.map(bindingOf), deviceErrorBinding(q)];
    q.dispatch(source, bindings, params, grid(op, n));
  } finally {
    if (stacked) {
      for (const ix of indices) ix.release();
      stacked.release();
    }
  }
}

function uniqueBlocks(ts: readonly TensorImpl[]): number {
  return new Set(ts.map((t) => t.storage.data)).size;
}

export const indexGather: IndexingImpls['indexGather'] = (op: string, out: TensorImpl, access: IndexedAccess, style: IndexErrorStyle) => {
  runAccess(op, 'gather', access, out, { wrap: style !== 'nowrap', errCode: indexErrorCode(op, style) });
};

export const indexScatter: IndexingImpls['indexScatter'] = (
  op: string,
  access: IndexedAccess,
  src: TensorImpl,
  mode: ScatterMode,
  alpha: number | bigint,
  style: IndexErrorStyle,
) => {
  const opts = { wrap: style !== 'nowrap', errCode: indexErrorCode(op, style) };
  if (mode === 'set') return runAccess(op, 'set', access, src, opts);
  // int64 has 'add' only (Note [Indexed access kernels])
  const kind = kindOf(op, access.data.dtype, mode === 'add') as CombineKind;
  if (kind === 'i64') {
    const a = BigInt.asUintN(64, int64Value(alpha));
    runAccess(op, mode, access, src, { ...opts, kind, alphaWord: Number(a & 0xffffffffn), alphaHi: Number(a >> 32n) });
    return;
  }
  runAccess(op, mode, access, src, { ...opts, kind, alphaWord: scalarWord(kind, alpha) });
};
