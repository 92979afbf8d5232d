/// <reference types="@webgpu/types" />
import type { JoinImpls, ReorderImpls, TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, storeStmt, type Kind } from '../wgsl/kinds';
import { WORKGROUP } from '../wgsl/pointwise';
import { paramsDecl } from '../wgsl/rows';
import { bindingOf, grid, i32Word } from './launch';
import { copy } from './pointwise';

/**
 * Note [WebGPU joins and reorders]
 * cat writes each part into the slice of `out` it covers along `dim`: a strided view of
 * `out` and one `copy` per part (a buffer copy when both are contiguous, else one copy
 * kernel, converting dtypes as `to` does; same-dtype copies move raw bits, so every dtype,
 * int64 included, joins). stack/hstack/vstack reach cat through core. flip is a copy of
 * the view core hands over with negative strides (the copy kernel's u32 offsets wrap
 * correctly). triu/tril zero in place, one invocation per element, raw by element size.
 */
export const joinImpls: JoinImpls = {
  cat: (out, parts, dim) => {
    let at = 0;
    for (const part of parts) {
      const len = part.sizes[dim];
      if (len === 0 || part.numel === 0) {
        at += len;
        continue;
      }
      const sizes = out.sizes.map((s, d) => (d === dim ? len : s));
      const slice = out.view(sizes, out.strides, out.storageOffset + at * out.strides[dim]);
      try {
        copy(slice, part);
      } finally {
        slice.release();
      }
      at += len;
    }
  },
};

const RAW: Record<number, Kind> = { 1: 'u8', 2: 'u16', 4: 'i32', 8: 'i64' };
const triSources = new Map<string, string>();

function triSource(k: Kind, nd: number): string {
  const words = 4 + 2 * nd;
  const zero = k === 'i32' || k === 'i64' ? '0i' : '0u';
  const lines = [
    bindingDecl(0, k, true, false),
    paramsDecl(words, 1),
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let idx = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  if (idx >= p(0u)) { return; }',
    '  var rem = idx;',
    '  var off = p(1u);',
    '  var row = 0i; var col = 0i;',
  ];
  for (let d = nd - 1; d >= 0; d--) {
    lines.push(`  { let s = p(${4 + d}u); let c = rem % s; rem = rem / s; off += c * p(${4 + nd + d}u);` +
      (d === nd - 1 ? ' col = i32(c);' : d === nd - 2 ? ' row = i32(c);' : '') + ' }');
  }
  lines.push('  let diag = bitcast<i32>(p(2u));');
  lines.push('  let upper = p(3u) == 1u;');
  lines.push('  if ((upper && col - row < diag) || (!upper && col - row > diag)) {');
  lines.push(`    ${storeStmt(0, k, 'off', zero, k === 'i64' ? '0i' : undefined)}`);
  lines.push('  }');
  lines.push('}');
  return lines.join('\n');
}

function triZero(t: TensorImpl, upper: boolean, diag: number): void {
  if (t.numel === 0) return;
  const k = RAW[t.itemSize];
  const nd = t.sizes.length;
  const key = `${k}|${nd}`;
  let src = triSources.get(key);
  if (!src) triSources.set(key, (src = triSource(k, nd)));
  // (a diagonal beyond the i32 range zeroes everything or nothing, as one just past the sizes does)
  const cols = t.sizes[nd - 1];
  const rows = t.sizes[nd - 2];
  const d = Math.max(-rows - 1, Math.min(cols + 1, diag));
  const params = new Uint32Array(4 + 2 * nd);
  params[0] = t.numel;
  params[1] = t.storageOffset;
  params[2] = i32Word(d);
  params[3] = upper ? 1 : 0;
  for (let i = 0; i < nd; i++) {
    params[4 + i] = t.sizes[i];
    params[4 + nd + i] = t.strides[i] >>> 0;
  }
  commandQueue(upper ? 'triu' : 'tril').dispatch(src, [bindingOf(t)], params, grid(upper ? 'triu' : 'tril', t.numel));
}

export const reorderImpls: ReorderImpls = {
  triZero,
  flip: (out, _self, _dims, flipped) => copy(out, flipped),
};
