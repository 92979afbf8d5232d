/// <reference types="@webgpu/types" />
import { TensorImpl, type BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { deviceErrorBinding, deviceErrorCode, deviceErrorWgsl } from '../runtime/device-errors';
import { WORKGROUP } from '../wgsl/pointwise';
import { runAccess } from './gather-scatter';
import { countPasses, nonzeroExpr, stridedPrelude } from './indexing';
import { bindingOf, grid } from './launch';

/**
 * Note [masked_scatter without a count]
 * masked_scatter_ writes source[k] at the k-th true position of the mask (row-major): the
 * result's size never depends on the data, so WebGPU runs it with no host sync (core Note
 * [Data-dependent sizes on async-read backends]), in four dispatches:
 *   1-2. the count passes of Note [nonzero on WebGPU] over the (broadcast, strided) mask:
 *        each block's exclusive offset, and the total last;
 *   3.   the rank pass: each element gets, in a contiguous int64 tensor at self's sizes, its
 *        rank among the true elements (block offset + its inclusive scan in the block - 1),
 *        or -1 when it is false; a rank past the source reports the op's device-side error
 *        (Note [Device-side errors]; payload: the total count) and stays -1; with `exact`
 *        (indexPut_ with a mask: the values' count must equal the mask's) invocation 0 also
 *        reports a total that differs from the source's numel;
 *   4.   one access gather (Note [Indexed access kernels]): self[p] = source[rank[p]],
 *        skipping -1 (the access kernel's `skip`), so false positions keep their values.
 * As on CUDA, the error surfaces at the next read, after the in-range elements were written.
 */

const rankSources = new Map<string, string>();

/** Params: [n, srcNumel, maskOff, sizes[nd], strides[nd], blocks, errCode, exact]. */
function rankSource(nd: number, width: number): string {
  const key = `${nd}|${width}`;
  let s = rankSources.get(key);
  if (s) return s;
  const words = 6 + 2 * nd;
  const B = 3 + 2 * nd;
  s = [
    '@group(0) @binding(0) var<storage, read_write> b0: array<u32>;',
    '@group(0) @binding(1) var<storage, read_write> cnt: array<u32>;',
    '@group(0) @binding(2) var<storage, read_write> rk: array<u32>;',
    deviceErrorWgsl(3),
    `struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`,
    '@group(0) @binding(4) var<uniform> P: Params;',
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    `var<workgroup> sh: array<u32, ${WORKGROUP}>;`,
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    '  let wid = wg.x + wg.y * nwg.x;',
    `  let idx = wid * ${WORKGROUP}u + lid;`,
    `  let total = cnt[p(${B}u)];`,
    '  var flag = 0u;',
    '  if (idx < p(0u)) {',
    stridedPrelude(nd, 2),
    `    flag = select(0u, 1u, ${nonzeroExpr(width, false)});`,
    '  }',
    '  sh[lid] = flag;',
    '  workgroupBarrier();',
    `  for (var o = 1u; o < ${WORKGROUP}u; o = o << 1u) {`,
    '    let t = select(0u, sh[max(lid, o) - o], lid >= o);',
    '    workgroupBarrier();',
    '    sh[lid] = sh[lid] + t;',
    '    workgroupBarrier();',
    '  }',
    '  if (idx < p(0u)) {',
    '    var lo = 0xffffffffu;',
    '    var hi = 0xffffffffu;',
    '    if (flag == 1u) {',
    '      let r = cnt[wid] + sh[lid] - 1u;',
    `      if (r < p(1u)) { lo = r; hi = 0u; } else { report_error(p(${B + 1}u), total, 0u, 0u, 0u); }`,
    '    }',
    '    rk[2u * idx] = lo;',
    '    rk[2u * idx + 1u] = hi;',
    '  }',
    `  if (idx == 0u && p(${B + 2}u) == 1u && total != p(1u)) { report_error(p(${B + 1}u), total, 0u, 0u, 0u); }`,
    '}',
  ].join('\n');
  rankSources.set(key, s);
  return s;
}

export const maskedScatterOrdered: BackendImpls['maskedScatterOrdered'] = (op, self, mask, source, exact, errorKey, error) => {
  const n = self.numel;
  if (n === 0) return;
  const q = commandQueue(op);
  const code = deviceErrorCode(`masked-scatter:${errorKey}`, (p) => error(p[0]));
  const nd = mask.sizes.length;
  const { scratch } = countPasses(op, mask, 0);
  const ranks = TensorImpl.empty(op, self.sizes.slice(), 'int64', self.device);
  try {
    const params = new Uint32Array(6 + 2 * nd);
    params[0] = n;
    params[1] = source.numel;
    params[2] = mask.storageOffset;
    for (let d = 0; d < nd; d++) {
      params[3 + d] = mask.sizes[d];
      params[3 + nd + d] = mask.strides[d];
    }
    params[3 + 2 * nd] = Math.ceil(n / WORKGROUP);
    params[4 + 2 * nd] = code;
    params[5 + 2 * nd] = exact ? 1 : 0;
    const bindings = [bindingOf(mask), bindingOf(scratch), bindingOf(ranks), deviceErrorBinding(q)];
    q.dispatch(rankSource(nd, mask.itemSize), bindings, params, grid(op, n));
    if (source.numel === 0) return; // (every true element, if any, reported the error)
    const data = source.view(self.sizes.slice(), self.sizes.map(() => 0), source.storageOffset);
    try {
      runAccess(op, 'gather', { data, indices: [ranks], strides: [1], sizes: [source.numel], dims: [0] }, self, { wrap: true, errCode: code, skip: -1 });
    } finally {
      data.release();
    }
  } finally {
    ranks.release(); // the dispatches are recorded (Note [Block reuse in submission order])
    scratch.release();
  }
};
