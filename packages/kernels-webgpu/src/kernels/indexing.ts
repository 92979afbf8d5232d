/// <reference types="@webgpu/types" />
import { DTypeError, IndexError, TensorImpl, TorchError, isFloatingType, type BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { readLastCount } from '../runtime/transfer';
import { messageErrorCode } from '../runtime/device-errors';
import { kindOf } from '../wgsl/kinds';
import { WORKGROUP } from '../wgsl/pointwise';
import { indexGather, indexScatter, runAccess } from './gather-scatter';
import { bindingOf, f32Word, grid } from './launch';
import { fill } from './pointwise';
import { maskedScatterOrdered } from './masked-scatter';

/**
 * The indexing family on WebGPU: the IndexedAccess gather/scatter (gather-scatter.ts),
 * nonzero's compaction, and embedding with its backward (both one access kernel).
 *
 * Note [nonzero on WebGPU]
 * nonzero's output size depends on the data. CUDA syncs there (it copies the count to the
 * host); WebGPU has no synchronous read at all (mapAsync only). This table implements
 * `nonzeroCountAsync` (passes 1 and 2 below and one 4-byte read), which tells core to refuse
 * the synchronous forms (nonzero, masked_select, `x.index(mask)`) with a TorchError naming
 * their async forms (`torch.nonzeroAsync`, `torch.maskedSelectAsync`, `x.indexAsync`), which
 * await this count and then run the same kernels (core Note [Data-dependent sizes on
 * async-read backends]; that read is the only host sync of the family, where CUDA syncs too).
 * masked_scatter_ and `indexPut_` with one bool mask need no count: `maskedScatterOrdered`
 * (masked-scatter.ts) ranks the true elements on the device with the same passes.
 * Everything after the count is on the device:
 * `nonzeroFill` is a three-pass stream compaction over the row-major elements:
 *   1. one workgroup per WORKGROUP elements counts its nonzero elements (NaN counts, -0 does
 *      not: the raw bits without the sign bit of a float) into a scratch [blocks];
 *   2. one workgroup scans the block counts into exclusive offsets (chunks of WORKGROUP
 *      with a carry, a Hillis-Steele scan in workgroup memory per chunk);
 *   3. each workgroup scans its flags again and writes the int64 coordinates of each
 *      nonzero element at its block's offset plus its rank in the block (never past the
 *      rows `out` was allocated with: the data may have changed since the count was read).
 * The order is row-major, as CPU's and CUDA's.
 */

export function stridedPrelude(nd: number, base: number): string {
  // `off`: the element offset of flat row-major position `idx` of the strided input.
  const lines = ['  var rem = idx;', `  var off = p(${base}u);`];
  for (let d = nd - 1; d >= 0; d--) {
    lines.push(`  { let c = rem % p(${base + 1 + d}u); rem = rem / p(${base + 1 + d}u); off += c * p(${base + 1 + nd + d}u); }`);
  }
  return lines.join('\n');
}

/** A WGSL expression: whether element `off` of binding b0 (raw words, `width` bytes) is nonzero. */
export function nonzeroExpr(width: number, float: boolean): string {
  switch (width) {
    case 1:
      return '((b0[off >> 2u] >> ((off & 3u) * 8u)) & 255u) != 0u';
    case 2:
      return `((b0[off >> 1u] >> ((off & 1u) * 16u)) & ${float ? '32767u' : '65535u'}) != 0u`;
    case 4:
      return float ? '(b0[off] & 0x7fffffffu) != 0u' : 'b0[off] != 0u';
    default:
      return float ? '((b0[2u * off + 1u] & 0x7fffffffu) | b0[2u * off]) != 0u' : '(b0[2u * off + 1u] | b0[2u * off]) != 0u';
  }
}

/** Params: [n, outOff, selfOff, sizes[nd], strides[nd], rows]. */
function nonzeroSource(pass: 'count' | 'write', nd: number, width: number, float: boolean): string {
  const words = 4 + 2 * nd;
  const L: string[] = [
    '@group(0) @binding(0) var<storage, read_write> b0: array<u32>;',
    '@group(0) @binding(1) var<storage, read_write> cnt: array<u32>;',
  ];
  let nb = 2;
  if (pass === 'write') L.push(`@group(0) @binding(${nb++}) var<storage, read_write> outw: array<u32>;`);
  L.push(`struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`);
  L.push(`@group(0) @binding(${nb}) var<uniform> P: Params;`);
  L.push('fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }');
  L.push(`var<workgroup> sh: array<u32, ${WORKGROUP}>;`);
  L.push(`@compute @workgroup_size(${WORKGROUP})`);
  L.push('fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {');
  L.push('  let wid = wg.x + wg.y * nwg.x;');
  L.push(`  let idx = wid * ${WORKGROUP}u + lid;`);
  L.push('  var flag = 0u;');
  L.push('  if (idx < p(0u)) {');
  L.push(stridedPrelude(nd, 2));
  L.push(`    flag = select(0u, 1u, ${nonzeroExpr(width, float)});`);
  L.push('  }');
  L.push('  sh[lid] = flag;');
  L.push('  workgroupBarrier();');
  // inclusive Hillis-Steele scan of the flags
  L.push(`  for (var o = 1u; o < ${WORKGROUP}u; o = o << 1u) {`);
  L.push('    let t = select(0u, sh[max(lid, o) - o], lid >= o);');
  L.push('    workgroupBarrier();');
  L.push('    sh[lid] = sh[lid] + t;');
  L.push('    workgroupBarrier();');
  L.push('  }');
  if (pass === 'count') {
    L.push(`  if (lid == 0u && wid * ${WORKGROUP}u < p(0u)) { cnt[wid] = sh[${WORKGROUP - 1}u]; }`);
  } else {
    L.push('  if (flag == 1u) {');
    L.push('    let pos = cnt[wid] + sh[lid] - 1u;');
    // (the rows counted by an earlier read: data changed since then never writes past them)
    L.push(`    if (pos >= p(${3 + 2 * nd}u)) { return; }`);
    L.push(`    let base = 2u * (p(1u) + pos * ${nd}u);`);
    L.push('    var r = idx;');
    for (let d = nd - 1; d >= 0; d--) {
      L.push(`    { let c = r % p(${3 + d}u); r = r / p(${3 + d}u); outw[base + ${2 * d}u] = c; outw[base + ${2 * d + 1}u] = 0u; }`);
    }
    L.push('  }');
  }
  L.push('}');
  return L.join('\n');
}

/** Exclusive scan of `cnt[0..p0)` in place, by one workgroup; the total goes to `cnt[p0]`. */
const SCAN_SOURCE = `
@group(0) @binding(0) var<storage, read_write> cnt: array<u32>;
struct Params { w: vec4<u32> };
@group(0) @binding(1) var<uniform> P: Params;
var<workgroup> sh: array<u32, ${WORKGROUP}>;
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(local_invocation_index) lid: u32) {
  let nb = P.w.x;
  var carry = 0u;
  for (var start = 0u; start < nb; start = start + ${WORKGROUP}u) {
    let i = start + lid;
    var v = 0u;
    if (i < nb) { v = cnt[i]; }
    sh[lid] = v;
    workgroupBarrier();
    for (var o = 1u; o < ${WORKGROUP}u; o = o << 1u) {
      let t = select(0u, sh[max(lid, o) - o], lid >= o);
      workgroupBarrier();
      sh[lid] = sh[lid] + t;
      workgroupBarrier();
    }
    if (i < nb) { cnt[i] = carry + sh[lid] - v; }
    carry = carry + sh[${WORKGROUP - 1}u];
    workgroupBarrier();
  }
  if (lid == 0u) { cnt[nb] = carry; }
}`;

const nonzeroSources = new Map<string, string>();

function nonzeroKernel(pass: 'count' | 'write', nd: number, width: number, float: boolean): string {
  const key = `${pass}|${nd}|${width}|${float}`;
  let s = nonzeroSources.get(key);
  if (!s) nonzeroSources.set(key, (s = nonzeroSource(pass, nd, width, float)));
  return s;
}

export const nonzeroCount: BackendImpls['nonzeroCount'] = () => {
  throw new TorchError(
    'nonzero: the number of nonzero elements depends on the data, which cannot be read synchronously on webgpu ' +
      '(Note [nonzero on WebGPU]); use `await torch.nonzeroAsync(x)`',
  );
};

/**
 * Passes 1 and 2 of Note [nonzero on WebGPU]: a new int32 tensor [blocks + 1] holding each
 * block's exclusive offset and, last, the total count; and the params of the passes.
 */
export function countPasses(op: string, self: TensorImpl, outOffset: number): { scratch: TensorImpl; params: Uint32Array } {
  const q = commandQueue(op);
  const n = self.numel;
  const nd = self.sizes.length;
  const blocks = Math.ceil(n / WORKGROUP);
  const scratch = TensorImpl.empty(op, [blocks + 1], 'int32', self.device);
  const params = new Uint32Array(4 + 2 * nd);
  params[0] = n;
  params[1] = outOffset;
  params[2] = self.storageOffset;
  for (let d = 0; d < nd; d++) {
    params[3 + d] = self.sizes[d];
    params[3 + nd + d] = self.strides[d];
  }
  const cb = bindingOf(scratch);
  q.dispatch(nonzeroKernel('count', nd, self.itemSize, isFloatingType(self.dtype)), [bindingOf(self), cb], params, grid(op, n));
  q.dispatch(SCAN_SOURCE, [cb], new Uint32Array([blocks, 0, 0, 0]), [1, 1, 1]);
  return { scratch, params };
}

/**
 * The number of nonzero elements of a WebGPU tensor, read asynchronously: the count pass on
 * the device and one 4-byte read, the sync CUDA's nonzero makes too (Note [nonzero on
 * WebGPU]). For an asynchronous nonzero / masked_select entry point in core.
 */
export async function nonzeroCountAsync(self: TensorImpl): Promise<number> {
  const op = 'nonzero';
  if (self.numel === 0) return 0;
  const { scratch } = countPasses(op, self, 0);
  return readLastCount(op, scratch, self);
}

export const nonzeroFill: BackendImpls['nonzeroFill'] = (out, self) => {
  const op = 'nonzero';
  const n = self.numel;
  if (n === 0 || out.numel === 0) return;
  const { scratch, params } = countPasses(op, self, out.storageOffset);
  params[3 + 2 * self.sizes.length] = out.sizes[0];
  try {
    const nd = self.sizes.length;
    const source = nonzeroKernel('write', nd, self.itemSize, isFloatingType(self.dtype));
    commandQueue(op).dispatch(source, [bindingOf(self), bindingOf(scratch), bindingOf(out)], params, grid(op, n));
  } finally {
    scratch.release(); // the dispatches are recorded (Note [Block reuse in submission order])
  }
};

/** `out` [n, d] = rows of `weight` [v, d] at `indices` [n] (all contiguous): one access kernel. */
export const embedding: BackendImpls['embedding'] = (out, weight, indices, n, v, d) => {
  if (n * d === 0) return;
  const data = weight.view([n, d], [0, 1], weight.storageOffset);
  const ix = indices.view([n, d], [1, 0], indices.storageOffset);
  const o = out.view([n, d], [d, 1], out.storageOffset);
  try {
    const errCode = messageErrorCode('embedding', () => new IndexError('embedding: index out of range in self'));
    runAccess('embedding', 'gather', { data, indices: [ix], strides: [d], sizes: [v], dims: [0] }, o, { wrap: false, errCode });
  } finally {
    data.release();
    ix.release();
    o.release();
  }
};

/** `gradWeight` [v, d] = 0, then += rows of `grad` [n, d] at `indices`, skipping `paddingIdx`: float atomics. */
export const embeddingBackward: BackendImpls['embeddingBackward'] = (gradWeight, grad, indices, n, v, d, paddingIdx) => {
  const op = 'embedding_dense_backward';
  if (kindOf(op, gradWeight.dtype) !== 'f32') throw new DTypeError(`${op}: expected a float32 grad on webgpu, got ${gradWeight.dtype}`);
  fill(gradWeight, 0);
  if (n * d === 0) return;
  const data = gradWeight.view([n, d], [0, 1], gradWeight.storageOffset);
  const ix = indices.view([n, d], [1, 0], indices.storageOffset);
  const g = grad.view([n, d], [d, 1], grad.storageOffset);
  try {
    const errCode = messageErrorCode(op, () => new IndexError(`${op}: index out of range in self`));
    runAccess(op, 'add', { data, indices: [ix], strides: [d], sizes: [v], dims: [0] }, g, {
      wrap: false,
      errCode,
      kind: 'f32',
      alphaWord: f32Word(1),
      skip: paddingIdx >= 0 ? paddingIdx : null,
    });
  } finally {
    data.release();
    ix.release();
    g.release();
  }
};

export const indexingImpls: Pick<
  BackendImpls,
  'indexGather' | 'indexScatter' | 'nonzeroCount' | 'nonzeroCountAsync' | 'nonzeroFill' | 'maskedScatterOrdered' | 'embedding' | 'embeddingBackward'
> = {
  indexGather,
  indexScatter,
  nonzeroCount,
  nonzeroCountAsync,
  nonzeroFill,
  maskedScatterOrdered,
  embedding,
  embeddingBackward,
};
