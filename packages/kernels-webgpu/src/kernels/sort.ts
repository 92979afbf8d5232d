/// <reference types="@webgpu/types" />
import { DTypeError, TensorImpl, TorchError, type BackendImpls, type SortingImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, isFloatKind, isI32Kind, kindOf, loadExpr, loadInt64Expr, storeInt64Stmt, storeStmt, type Kind } from '../wgsl/kinds';
import { WORKGROUP } from '../wgsl/pointwise';
import { PRELUDE } from '../wgsl/prelude';
import { GROUP_ID, paramsDecl, rowBaseCode, rowParams, rowVariant, rowWords, type RowGeometry } from '../wgsl/rows';
import { bindingOf, grid } from './launch';
import { fill } from './pointwise';
import { countPasses } from './indexing';
import { readLastCount } from '../runtime/transfer';

type StatsImpls = Pick<BackendImpls, 'medianDim' | 'modeDim'>;

/**
 * Note [WebGPU sort]
 * Every row (Note [Row kernels]) is sorted as (key, index) pairs by a bitonic network. The
 * key is a u32 whose unsigned order is the value order PyTorch sorts by: float32 bits with
 * the sign handled (-0 taken as +0, as a comparison sort sees them equal), NaN the largest
 * key (float16 is widened to f32 exactly first); int32 with the sign bit flipped; uint8/bool
 * as they are; int64 a (high word with the sign flipped, low word) pair; descending sorts
 * complement the key. Ties compare by index, so the network (not stable by itself) gives the stable
 * order: equal values keep their index order, NaN last (first when descending). A row is
 * padded to P, the next power of two, with (0xffffffff, 0xffffffff) pairs that sort after
 * every element. Three kinds of pass, over a scratch of rows * P (key, index) pairs:
 *  - keys: one invocation per scratch entry reads the input through its strides and writes
 *    the entry's key and index (or the padding pair);
 *  - local: blocks of L = min(P, SORT_LOCAL) are sorted in workgroup memory (several short
 *    blocks share one workgroup, each with its own threads), each in the direction the
 *    global network gives it; a row of P <= SORT_LOCAL is then sorted. Each merge stage
 *    k > SORT_LOCAL of a longer row runs its steps j >= SORT_LOCAL as global
 *    compare-exchange dispatches and the steps below with the local kernel again;
 *  - outputs: values read back from the input at the sorted index (so they are bit-exact:
 *    -0, NaN payloads) and int64 indices, the first k of each row (sort, topk); median and
 *    mode read the sorted row: the lower median at rank (n - 1) / 2, or the first NaN by
 *    index when there is one; the mode is the longest run of equal keys (the first, i.e.
 *    smallest, on ties) and its last index (NaNs are never equal; an all-NaN row gives the
 *    last index, as kernels-cpu).
 * Only the keys and outputs passes depend on the dtype and the rank; the network itself
 * sees u32 or vec2<u32> keys and takes L from its parameters, so there are two local and
 * two global kernels in all. That matters more than the extra pass: the local kernel
 * (barriers in loops) costs SwiftShader about 0.7 s of CPU to compile, and one per dtype,
 * rank and row length was a hundred of them in the OpInfo table.
 */
const SORT_LOCAL = 1024;
const SORT_WG = 256;
const PAD = '0xffffffffu';

/** KT (u32, or vec2<u32> for int64's `wide` keys) and its order: `kless`, `keq`, `kpad()` (above every element's key). */
function keyOrderDefs(wide: boolean): string {
  return wide
    ? [
        'alias KT = vec2<u32>;',
        'fn kless(a: KT, b: KT) -> bool { return a.x < b.x || (a.x == b.x && a.y < b.y); }',
        'fn keq(a: KT, b: KT) -> bool { return a.x == b.x && a.y == b.y; }',
        'fn kpad() -> KT { return vec2<u32>(0xffffffffu, 0xffffffffu); }',
        'fn kxor(a: KT, m: u32) -> KT { return a ^ vec2<u32>(m, m); }',
      ].join('\n')
    : [
        'alias KT = u32;',
        'fn kless(a: KT, b: KT) -> bool { return a < b; }',
        'fn keq(a: KT, b: KT) -> bool { return a == b; }',
        'fn kpad() -> KT { return 0xffffffffu; }',
        'fn kxor(a: KT, m: u32) -> KT { return a ^ m; }',
      ].join('\n');
}

/**
 * The key type KT of a kind and its helpers: `key(value)` and keyOrderDefs's. int64 keys
 * are vec2<u32> (high word with the sign flipped, low word), compared word by word.
 */
function keyDefs(k: Kind): string {
  const key =
    k === 'i64'
      ? 'fn key(v: vec2<u32>) -> KT { return vec2<u32>(v.y ^ 0x80000000u, v.x); }'
      : isFloatKind(k)
        ? 'fn key(v: f32) -> KT { if (isnan_f(v)) { return 0xffffffffu; } var u = bitcast<u32>(v); ' +
          'if (u == 0x80000000u) { u = 0u; } return select(u | 0x80000000u, ~u, (u >> 31u) == 1u); }'
        : isI32Kind(k)
          ? 'fn key(v: i32) -> KT { return bitcast<u32>(v) ^ 0x80000000u; }'
          : 'fn key(v: u32) -> KT { return v; }';
  return `${keyOrderDefs(k === 'i64')}\n${key}`;
}

/** Words per key in the scratch. */
function keyWords(k: Kind): number {
  return k === 'i64' ? 2 : 1;
}

/** The scratch K (keys) and I (indices) with `kget`/`kset`. */
function scratchDecl(wide: boolean, kb: number, ib: number): string {
  const io = wide
    ? 'fn kget(i: u32) -> KT { return vec2<u32>(K[2u * i], K[2u * i + 1u]); }\nfn kset(i: u32, v: KT) { K[2u * i] = v.x; K[2u * i + 1u] = v.y; }'
    : 'fn kget(i: u32) -> KT { return K[i]; }\nfn kset(i: u32, v: KT) { K[i] = v; }';
  return `@group(0) @binding(${kb}) var<storage, read_write> K: array<u32>;\n@group(0) @binding(${ib}) var<storage, read_write> I: array<u32>;\n${io}`;
}

const BEFORE = 'fn before(ka: KT, ia: u32, kb: KT, ib: u32) -> bool { return kless(ka, kb) || (keq(ka, kb) && ia < ib); }';

/** A value of operand `b` at `off` (int64: vec2<u32>). */
function loadVal(k: Kind, b: number, off: string): string {
  return k === 'i64' ? loadInt64Expr(b, off) : loadExpr(b, k, off);
}

/** Stores value `v` (as loadVal gives it) into operand `b` at `off`. */
function storeVal(k: Kind, b: number, off: string, v: string): string {
  return k === 'i64' ? storeInt64Stmt(b, off, v) : storeStmt(b, k, off, v);
}

function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

const sources = new Map<string, string>();
function cached(key: string, make: () => string): string {
  let s = sources.get(key);
  if (!s) sources.set(key, (s = make()));
  return s;
}

/** The keys pass: entry (row, g) of the scratch from the input, or padding for g >= n. Header: [n, rows, P, descMask]. */
function keysSource(k: Kind, outer: number): string {
  const g: RowGeometry = { header: 4, k: 1, outer };
  return [
    PRELUDE,
    keyDefs(k),
    scratchDecl(k === 'i64', 0, 1),
    bindingDecl(2, k, false, false),
    paramsDecl(rowWords(g), 3),
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let e = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  let n = p(0u); let P = p(2u);',
    '  if (e >= p(1u) * P) { return; }',
    '  let row = e / P; let g = e % P;',
    rowBaseCode(g, 'row'),
    `  var kk = kpad(); var ii = ${PAD};`,
    `  if (g < n) { kk = kxor(key(${loadVal(k, 2, 'base0 + g * dstr0')}), p(3u)); ii = g; }`,
    '  kset(e, kk); I[e] = ii;',
    '}',
  ].join('\n');
}

/**
 * The workgroup-memory bitonic kernel: sorts blocks of L (a power of two <= SORT_LOCAL, from
 * the parameters) of the scratch in place, merge stages kLo..kHi. Header: [rows, P, L, kLo, kHi].
 */
function localSource(wide: boolean): string {
  return [
    keyOrderDefs(wide),
    scratchDecl(wide, 0, 1),
    paramsDecl(5, 2),
    `var<workgroup> sk: array<KT, ${SORT_LOCAL}>;`,
    `var<workgroup> si: array<u32, ${SORT_LOCAL}>;`,
    BEFORE,
    `@compute @workgroup_size(${SORT_WG})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    '  let rows = p(0u); let P = p(1u); let L = p(2u);',
    // (localShape's numbers: threads per block, blocks per workgroup)
    `  let tpr = min(${SORT_WG}u, L >> 1u); let rpg = max(1u, min(${SORT_WG}u / tpr, ${SORT_LOCAL}u / L));`,
    '  let perRow = P / L;',
    `  let first = (${GROUP_ID}) * rpg;`,
    '  if (first >= rows * perRow) { return; }',
    '  let sub = lid / tpr; let tt = lid % tpr;',
    '  let off = sub * L;',
    '  let blk = first + sub;',
    '  let live = blk < rows * perRow;',
    '  let at = blk * L;',
    '  let start = (blk % perRow) * L;',
    '  for (var i = tt; i < L; i += tpr) {',
    `    var kk = kpad(); var ii = ${PAD};`,
    '    if (live) { kk = kget(at + i); ii = I[at + i]; }',
    '    sk[off + i] = kk; si[off + i] = ii;',
    '  }',
    '  workgroupBarrier();',
    '  var kst = p(3u);',
    '  loop {',
    '    if (kst > p(4u)) { break; }',
    '    var j = min(kst >> 1u, L >> 1u);',
    '    loop {',
    '      if (j == 0u) { break; }',
    '      for (var t = tt; t < (L >> 1u); t += tpr) {',
    '        let i = (t / j) * 2u * j + (t % j);',
    '        let l = i + j;',
    '        let asc = ((start + i) & kst) == 0u;',
    '        let a = sk[off + i]; let ai = si[off + i]; let b = sk[off + l]; let bi = si[off + l];',
    '        if (select(before(a, ai, b, bi), before(b, bi, a, ai), asc)) { sk[off + i] = b; si[off + i] = bi; sk[off + l] = a; si[off + l] = ai; }',
    '      }',
    '      workgroupBarrier();',
    '      j = j >> 1u;',
    '    }',
    '    kst = kst << 1u;',
    '  }',
    '  if (live) { for (var i = tt; i < L; i += tpr) { kset(at + i, sk[off + i]); I[at + i] = si[off + i]; } }',
    '}',
  ].join('\n');
}

/**
 * Threads per block of L (one per compare-exchange pair, at most SORT_WG) and blocks per
 * workgroup: short rows share a workgroup (up to SORT_LOCAL elements of workgroup memory),
 * so a batch of tiny rows still runs full workgroups (SORT_WG threads for every L).
 */
function localShape(L: number): { tpr: number; rpg: number } {
  const tpr = Math.min(SORT_WG, L / 2);
  return { tpr, rpg: Math.max(1, Math.min(SORT_WG / tpr, SORT_LOCAL / L)) };
}

/** One global compare-exchange step (k, j) of the network over every row. Header: [rows, P, k, j]. */
function globalStepSource(wide: boolean): string {
  return [
    keyOrderDefs(wide),
    scratchDecl(wide, 0, 1),
    paramsDecl(4, 2),
    BEFORE,
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let t = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  let P = p(1u); let kst = p(2u); let j = p(3u);',
    '  let half = P >> 1u;',
    '  if (t >= p(0u) * half) { return; }',
    '  let row = t / half; let tt = t % half;',
    '  let i = (tt / j) * 2u * j + (tt % j);',
    '  let asc = (i & kst) == 0u;',
    '  let x = row * P + i; let y = x + j;',
    '  let a = kget(x); let ai = I[x]; let b = kget(y); let bi = I[y];',
    '  if (select(before(a, ai, b, bi), before(b, bi, a, ai), asc)) { kset(x, b); I[x] = bi; kset(y, a); I[y] = ai; }',
    '}',
  ].join('\n');
}

/** Writes the first kOut sorted entries of each row: values from `self`, int64 indices. Header: [kOut, rows, P]. */
function writeSource(k: Kind, outer: number): string {
  const g: RowGeometry = { header: 3, k: 3, outer };
  return [
    PRELUDE,
    bindingDecl(0, k, true, false),
    bindingDecl(1, 'i64', true, false),
    bindingDecl(2, k, false, false),
    '@group(0) @binding(3) var<storage, read_write> I: array<u32>;',
    paramsDecl(rowWords(g), 4),
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let e = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  let kOut = p(0u);',
    '  if (e >= kOut * p(1u)) { return; }',
    '  let row = e / kOut; let q = e % kOut;',
    rowBaseCode(g, 'row'),
    '  let ix = I[row * p(2u) + q];',
    `  ${storeVal(k, 0, 'base0 + q * dstr0', loadVal(k, 2, 'base2 + ix * dstr2'))}`,
    `  ${storeStmt(1, 'i64', 'base1 + q * dstr1', 'i32(ix)', '0i')}`,
    '}',
  ].join('\n');
}

/** median/mode of each sorted row: one invocation per row. Header: [n, rows, P]. */
function selectSource(k: Kind, which: 'median' | 'mode', withIndices: boolean, outer: number): string {
  const ops = withIndices ? 3 : 2;
  const selfOp = ops - 1;
  const g: RowGeometry = { header: 3, k: ops, outer };
  const decls = [bindingDecl(0, k, true, false)];
  if (withIndices) decls.push(bindingDecl(1, 'i64', true, false));
  decls.push(bindingDecl(selfOp, k, false, false), scratchDecl(k === 'i64', ops, ops + 1));
  const nan = isFloatKind(k);
  const body =
    which === 'median'
      ? [
          '  var q = (n - 1u) / 2u;',
          ...(nan
            ? [
                '  if (keq(kget(rb + n - 1u), kpad())) {',
                '    var lo = 0u; var hi = n - 1u;',
                '    loop { if (lo >= hi) { break; } let mid = (lo + hi) / 2u; if (keq(kget(rb + mid), kpad())) { hi = mid; } else { lo = mid + 1u; } }',
                '    q = lo;',
                '  }',
              ]
            : []),
          '  let ix = I[rb + q];',
          '  _ = kget(rb);',
        ]
      : [
          '  var best = 0u; var bestLen = 0u; var run = 0u;',
          '  for (var q = 0u; q < n; q++) {',
          '    run++;',
          '    let kq = kget(rb + q);',
          `    var end = q == n - 1u;`,
          `    if (!end) { end = !keq(kget(rb + q + 1u), kq)${nan ? ' || keq(kq, kpad())' : ''}; }`,
          '    if (end) { if (run > bestLen) { bestLen = run; best = q; } run = 0u; }',
          '  }',
          '  var ix = I[rb + best];',
          ...(nan ? ['  if (keq(kget(rb), kpad())) { ix = n - 1u; }'] : []),
        ];
  return [
    PRELUDE,
    keyDefs(k),
    ...decls,
    paramsDecl(rowWords(g), ops + 2),
    `@compute @workgroup_size(64)`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    '  let row = gid.x + gid.y * nwg.x * 64u;',
    '  let n = p(0u);',
    '  if (row >= p(1u)) { return; }',
    rowBaseCode(g, 'row'),
    '  let rb = row * p(2u);',
    ...body,
    `  ${storeVal(k, 0, 'base0', loadVal(k, selfOp, `base${selfOp} + ix * dstr${selfOp}`))}`,
    ...(withIndices ? [`  ${storeStmt(1, 'i64', 'base1', 'i32(ix)', '0i')}`] : []),
    '}',
  ].join('\n');
}

function checkDistinct(op: string, outs: readonly (TensorImpl | null)[], self: TensorImpl): void {
  for (const o of outs) {
    if (o && o.storage.data === self.storage.data) throw new DTypeError(`${op}: outputs that share storage with the input are not supported on webgpu`);
  }
}

/**
 * Sorts every row of `self` along `dim` into a scratch of (key, index) pairs (keys:
 * rows * P * keyWords u32 words; indices: rows * P), Note [WebGPU sort]. The caller releases both.
 */
function sortRows(op: string, self: TensorImpl, dim: number, descending: boolean): { K: TensorImpl; I: TensorImpl; P: number; rows: number } {
  const k = kindOf(op, self.dtype, true, true);
  const wide = k === 'i64';
  const q = commandQueue(op);
  const n = self.sizes[dim];
  const rows = self.numel / n;
  // (at least 2: a one-element row gets one padding pair)
  const P = Math.max(2, nextPow2(n));
  const outer = self.sizes.length - 1;
  const K = TensorImpl.empty(op, [rows * P * keyWords(k)], 'int32', self.device);
  const I = TensorImpl.empty(op, [rows * P], 'int32', self.device);
  try {
    const scratch = [bindingOf(K), bindingOf(I)];
    const keys = cached(`keys|${k}|${rowVariant(outer)}`, () => keysSource(k, outer));
    q.dispatch(keys, [...scratch, bindingOf(self)], rowParams([n, rows, P, descending ? 0xffffffff : 0], [self], dim), grid(op, rows * P));
    const L = Math.min(P, SORT_LOCAL);
    const groups = Math.ceil((rows * (P / L)) / localShape(L).rpg);
    const local = cached(`local|${wide}`, () => localSource(wide));
    q.dispatch(local, scratch, new Uint32Array([rows, P, L, 2, L]), grid(op, groups, 1));
    if (P > L) {
      const step = cached(`global-step|${wide}`, () => globalStepSource(wide));
      for (let kst = 2 * L; kst <= P; kst *= 2) {
        for (let j = kst / 2; j >= L; j /= 2) {
          q.dispatch(step, scratch, new Uint32Array([rows, P, kst, j]), grid(op, (rows * P) / 2));
        }
        q.dispatch(local, scratch, new Uint32Array([rows, P, L, kst, kst]), grid(op, groups, 1));
      }
    }
    return { K, I, P, rows };
  } catch (e) {
    K.release();
    I.release();
    throw e;
  }
}

function sortInto(op: string, values: TensorImpl, indices: TensorImpl, self: TensorImpl, dim: number, descending: boolean, kOut: number): void {
  if (kOut === 0 || self.numel === 0) return;
  checkDistinct(op, [values, indices], self);
  const k = kindOf(op, self.dtype, true, true);
  const s = sortRows(op, self, dim, descending);
  try {
    const src = cached(`write|${k}|${rowVariant(self.sizes.length - 1)}`, () => writeSource(k, self.sizes.length - 1));
    const params = rowParams([kOut, s.rows, s.P], [values, indices, self], dim);
    commandQueue(op).dispatch(src, [values, indices, self, s.I].map(bindingOf), params, grid(op, s.rows * kOut));
  } finally {
    s.K.release();
    s.I.release();
  }
}

function select(which: 'median' | 'mode'): StatsImpls['medianDim'] {
  return (values, indices, self, dim) => {
    const op = which;
    if (values.numel === 0) return;
    checkDistinct(op, [values, indices], self);
    const k = kindOf(op, self.dtype, true, true);
    const s = sortRows(op, self, dim, false);
    try {
      const outer = self.sizes.length - 1;
      const src = cached(`${which}|${k}|${indices !== null}|${rowVariant(outer)}`, () => selectSource(k, which, indices !== null, outer));
      const ops = indices ? [values, indices, self] : [values, self];
      const params = rowParams([self.sizes[dim], s.rows, s.P], ops, dim);
      commandQueue(op).dispatch(src, [...ops, s.K, s.I].map(bindingOf), params, grid(op, s.rows, 64));
    } finally {
      s.K.release();
      s.I.release();
    }
  };
}

// ---- searchsorted / bucketize ----

/** Header: [total, K, M, shared, right, offOut, offB, offS, offSorter]. */
function searchSource(k: Kind, outKind: Kind, withSorter: boolean, selfAlias: boolean): string {
  const selfB = selfAlias ? 1 : 2;
  const sorterB = selfAlias ? 2 : 3;
  // (!(b >= x) and !(b > x) as C computes them: a NaN compares false; integers by key order)
  const cmp = (rel: string) =>
    isFloatKind(k) ? `isnan_f(b) || isnan_f(x) || !(b ${rel} x)` : rel === '>' ? '!kless(key(x), key(b))' : 'kless(key(b), key(x))';
  return [
    PRELUDE,
    keyDefs(k),
    bindingDecl(0, outKind, true, false),
    bindingDecl(1, k, false, false),
    ...(selfAlias ? [] : [bindingDecl(2, k, false, false)]),
    ...(withSorter ? [bindingDecl(sorterB, 'i64', false, false)] : []),
    paramsDecl(9, sorterB + (withSorter ? 1 : 0)),
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let e = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  if (e >= p(0u)) { return; }',
    '  let M = p(2u);',
    '  let rowOff = select(e / p(1u) * M, 0u, p(3u) == 1u);',
    '  let right = p(4u) == 1u;',
    `  let x = ${loadVal(k, selfB, 'p(7u) + e')};`,
    '  var lo = 0u; var hi = M;',
    '  loop {',
    '    if (lo >= hi) { break; }',
    '    let mid = (lo + hi) / 2u;',
    withSorter ? `    let at = p(6u) + rowOff + u32(b${sorterB}[2u * (p(8u) + rowOff + mid)]);` : '    let at = p(6u) + rowOff + mid;',
    `    let b = ${loadVal(k, 1, 'at')};`,
    `    let before = select(${cmp('>=')}, ${cmp('>')}, right);`,
    '    if (before) { lo = mid + 1u; } else { hi = mid; }',
    '  }',
    `  ${storeStmt(0, outKind, 'p(5u) + e', 'i32(lo)', outKind === 'i64' ? '0i' : undefined)}`,
    '}',
  ].join('\n');
}

const searchsorted: SortingImpls['searchsorted'] = (out, boundaries, self, right, sorter) => {
  const op = 'searchsorted';
  if (out.numel === 0) return;
  const k = kindOf(op, self.dtype, true, true);
  // no boundaries: every insertion point is 0
  if (boundaries.numel === 0) return fill(out, 0);
  const outKind = kindOf(op, out.dtype, true);
  const selfAlias = self.storage.data === boundaries.storage.data;
  const src = cached(`search|${k}|${outKind}|${sorter !== null}|${selfAlias}`, () => searchSource(k, outKind, sorter !== null, selfAlias));
  const params = new Uint32Array([
    out.numel,
    self.sizes[1],
    boundaries.sizes[1],
    boundaries.sizes[0] === 1 ? 1 : 0,
    right ? 1 : 0,
    out.storageOffset,
    boundaries.storageOffset,
    self.storageOffset,
    sorter ? sorter.storageOffset : 0,
  ]);
  const ops = [out, boundaries, ...(selfAlias ? [] : [self]), ...(sorter ? [sorter] : [])];
  if (ops.slice(1).some((t) => t.storage.data === out.storage.data) || (sorter && ops.slice(1, -1).some((t) => t.storage.data === sorter.storage.data))) {
    throw new DTypeError(`${op}: operands that share storage are not supported on webgpu`);
  }
  commandQueue(op).dispatch(src, ops.map(bindingOf), params, grid(op, out.numel));
};

// ---- unique ----

/**
 * Note [unique on WebGPU]
 * unique's output size is the number of distinct rows (core Note [unique's outputs]): CUDA
 * copies it to the host; WebGPU has no synchronous read, so this table implements
 * `uniqueCountAsync` and core refuses the sync `unique` there, naming `torch.uniqueAsync`,
 * which awaits that count and then runs `unique` with it known (core Note [Data-dependent
 * sizes on async-read backends]). The count's 4-byte read is the only host sync (where CUDA
 * syncs too). The rows ([n, m], contiguous) are handled as:
 *  1. sort the row indices: m = 1 by the bitonic sort above (Note [WebGPU sort]: keys, ties
 *     by index); m > 1 by a bitonic network of global compare-exchange steps over the row
 *     indices, comparing rows lexicographically by the same keys (ties by index). Either way
 *     equal rows keep their index order and NaN sorts last, as CPU's stable sort;
 *  2. flags: 1 where a sorted row differs from the one before (the first row, and every row
 *     with a NaN: NaN equals nothing; -0 equals +0, as CPU's comparison);
 *  3. the flags' block offsets and total (nonzero's count passes, indexing.ts `countPasses`):
 *     `uniqueCountAsync` reads the total and stops here;
 *  4. with the count u known: each sorted position's group (block offset plus its rank in
 *     a workgroup scan) goes to `inverse` at its original row, and each group's first
 *     sorted position to a scratch `start`; then values (the first row of each group, read
 *     from the input) and counts (start[g + 1] - start[g]) for g < u.
 * If the data changed since the count was read, no group at or past u is written and every
 * read is clamped into the rows.
 */

/** [n, P] -> J[i] = i, or the padding index past n. */
const UNIQUE_INIT = `
@group(0) @binding(0) var<storage, read_write> J: array<u32>;
${paramsDecl(2, 1)}
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * ${WORKGROUP}u;
  if (i >= p(1u)) { return; }
  J[i] = select(${PAD}, i, i < p(0u));
}`;

/** `rowKey(r, c)`: the sort key of element c of row r of binding b0 (self). Params start [n, m, selfOff]. */
function rowKeyDefs(k: Kind): string {
  return `fn rowKey(r: u32, c: u32) -> KT { return key(${loadVal(k, 0, 'p(2u) + r * p(1u) + c')}); }`;
}

/** One global step (kst, j) of the row network. Header: [n, m, selfOff, P, kst, j]. */
function uniqueStepSource(k: Kind): string {
  return [
    PRELUDE,
    keyDefs(k),
    bindingDecl(0, k, false, false),
    '@group(0) @binding(1) var<storage, read_write> J: array<u32>;',
    paramsDecl(6, 2),
    rowKeyDefs(k),
    'fn rowBefore(a: u32, b: u32) -> bool {',
    `  if (b == ${PAD}) { return a != ${PAD}; }`,
    `  if (a == ${PAD}) { return false; }`,
    '  for (var c = 0u; c < p(1u); c++) {',
    '    let ka = rowKey(a, c); let kb = rowKey(b, c);',
    '    if (kless(ka, kb)) { return true; }',
    '    if (kless(kb, ka)) { return false; }',
    '  }',
    '  return a < b;',
    '}',
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let t = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  let P = p(3u); let kst = p(4u); let j = p(5u);',
    '  if (t >= (P >> 1u)) { return; }',
    '  let i = (t / j) * 2u * j + (t % j);',
    '  let l = i + j;',
    '  let asc = (i & kst) == 0u;',
    '  let a = J[i]; let b = J[l];',
    '  if (select(rowBefore(a, b), rowBefore(b, a), asc)) { J[i] = b; J[l] = a; }',
    '}',
  ].join('\n');
}

/** F[i] = whether sorted row S[i] differs from S[i - 1] (NaN equals nothing). Header: [n, m, selfOff]. */
function uniqueFlagsSource(k: Kind): string {
  const nan = isFloatKind(k) ? ' || keq(ka, kpad())' : '';
  return [
    PRELUDE,
    keyDefs(k),
    bindingDecl(0, k, false, false),
    '@group(0) @binding(1) var<storage, read_write> S: array<u32>;',
    '@group(0) @binding(2) var<storage, read_write> F: array<u32>;',
    paramsDecl(3, 3),
    rowKeyDefs(k),
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let i = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  let n = p(0u);',
    '  if (i >= n) { return; }',
    '  var f = 1u;',
    '  if (i > 0u) {',
    '    f = 0u;',
    '    let a = min(S[i - 1u], n - 1u); let b = min(S[i], n - 1u);',
    '    for (var c = 0u; c < p(1u); c++) {',
    '      let ka = rowKey(a, c); let kb = rowKey(b, c);',
    `      if (!keq(ka, kb)${nan}) { f = 1u; break; }`,
    '    }',
    '  }',
    '  F[i] = f;',
    '}',
  ].join('\n');
}

/** inverse[S[i]] = group of sorted position i; start[g] = first sorted position of group g < u. Header: [n, u, invOff]. */
const UNIQUE_GROUPS = `
@group(0) @binding(0) var<storage, read_write> F: array<u32>;
@group(0) @binding(1) var<storage, read_write> cnt: array<u32>;
@group(0) @binding(2) var<storage, read_write> S: array<u32>;
@group(0) @binding(3) var<storage, read_write> inv: array<u32>;
@group(0) @binding(4) var<storage, read_write> start: array<u32>;
${paramsDecl(3, 5)}
var<workgroup> sh: array<u32, ${WORKGROUP}>;
@compute @workgroup_size(${WORKGROUP})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let wid = wg.x + wg.y * nwg.x;
  let i = wid * ${WORKGROUP}u + lid;
  let n = p(0u);
  var flag = 0u;
  if (i < n) { flag = select(0u, 1u, F[i] != 0u); }
  sh[lid] = flag;
  workgroupBarrier();
  for (var o = 1u; o < ${WORKGROUP}u; o = o << 1u) {
    let t = select(0u, sh[max(lid, o) - o], lid >= o);
    workgroupBarrier();
    sh[lid] = sh[lid] + t;
    workgroupBarrier();
  }
  if (i >= n) { return; }
  let g = cnt[wid] + sh[lid] - 1u;
  let r = S[i];
  if (r < n) { inv[2u * (p(2u) + r)] = g; inv[2u * (p(2u) + r) + 1u] = 0u; }
  if (flag == 1u && g < p(1u)) { start[g] = i; }
}`;

/** values[g] = the row S[start[g]]; counts[g] = start[g + 1] - start[g]. Header: [u, m, n, valOff, selfOff, cntOff]. */
function uniqueValuesSource(k: Kind): string {
  return [
    PRELUDE,
    bindingDecl(0, k, true, false),
    bindingDecl(1, k, false, false),
    '@group(0) @binding(2) var<storage, read_write> S: array<u32>;',
    '@group(0) @binding(3) var<storage, read_write> start: array<u32>;',
    '@group(0) @binding(4) var<storage, read_write> cw: array<u32>;',
    paramsDecl(6, 5),
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let e = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  let u = p(0u); let m = p(1u); let n = p(2u);',
    '  if (e >= u * m) { return; }',
    '  let g = e / m; let c = e % m;',
    '  let s = min(start[g], n - 1u);',
    '  let r = min(S[s], n - 1u);',
    `  ${storeVal(k, 0, 'p(3u) + e', loadVal(k, 1, 'p(4u) + r * m + c'))}`,
    '  if (c == 0u) {',
    '    var end = n;',
    '    if (g + 1u < u) { end = min(start[g + 1u], n); }',
    '    cw[2u * (p(5u) + g)] = max(end, s) - s; cw[2u * (p(5u) + g) + 1u] = 0u;',
    '  }',
    '}',
  ].join('\n');
}

/**
 * Steps 1-3 of Note [unique on WebGPU] over `self` ([n, m], contiguous, n > 0): the sorted
 * row indices S (int32 [>= n]), the flags F ([n]) and their block offsets and total (`scratch`).
 * The caller releases the three.
 */
function uniquePasses(op: string, self: TensorImpl): { S: TensorImpl; F: TensorImpl; scratch: TensorImpl } {
  const k = kindOf(op, self.dtype, true, true);
  const q = commandQueue(op);
  const [n, m] = self.sizes;
  let S: TensorImpl;
  if (m === 1) {
    const sorted = sortRows(op, self, 0, false);
    sorted.K.release(); // (the dispatches are recorded: Note [Block reuse in submission order])
    S = sorted.I;
  } else {
    const P = Math.max(2, nextPow2(n));
    S = TensorImpl.empty(op, [P], 'int32', self.device);
    try {
      q.dispatch(UNIQUE_INIT, [bindingOf(S)], new Uint32Array([n, P]), grid(op, P));
      const step = cached(`unique-step|${k}`, () => uniqueStepSource(k));
      const bind = [bindingOf(self), bindingOf(S)];
      for (let kst = 2; kst <= P; kst *= 2) {
        for (let j = kst / 2; j >= 1; j /= 2) q.dispatch(step, bind, new Uint32Array([n, m, self.storageOffset, P, kst, j]), grid(op, P / 2));
      }
    } catch (e) {
      S.release();
      throw e;
    }
  }
  const F = TensorImpl.empty(op, [n], 'int32', self.device);
  try {
    const flags = cached(`unique-flags|${k}`, () => uniqueFlagsSource(k));
    q.dispatch(flags, [self, S, F].map(bindingOf), new Uint32Array([n, m, self.storageOffset]), grid(op, n));
    const { scratch } = countPasses(op, F, 0);
    return { S, F, scratch };
  } catch (e) {
    S.release();
    F.release();
    throw e;
  }
}

/** The number of distinct rows of `self` (unique's rows): steps 1-3 and one 4-byte read (Note [unique on WebGPU]). */
export async function uniqueCountAsync(self: TensorImpl): Promise<number> {
  const op = 'unique';
  if (self.sizes[0] === 0) return 0;
  const { S, F, scratch } = uniquePasses(op, self);
  S.release();
  F.release();
  return readLastCount(op, scratch, self);
}

/** Fills values/inverse/counts given the count core awaited (uniqueAsync); refuses without it (Note [unique on WebGPU]). */
const unique: SortingImpls['unique'] = (values, inverse, counts, self, count) => {
  const op = 'unique';
  if (count === null) {
    throw new TorchError(
      'unique: the number of distinct values depends on the data, and webgpu tensors cannot be read synchronously; use `await torch.uniqueAsync(x, options)`',
    );
  }
  const [n, m] = self.sizes;
  if (n === 0) return 0;
  checkDistinct(op, [values, inverse, counts], self);
  const k = kindOf(op, self.dtype, true, true);
  const u = Math.min(count, n);
  const q = commandQueue(op);
  const { S, F, scratch } = uniquePasses(op, self);
  const start = TensorImpl.empty(op, [Math.max(1, u)], 'int32', self.device);
  try {
    q.dispatch(UNIQUE_GROUPS, [F, scratch, S, inverse, start].map(bindingOf), new Uint32Array([n, u, inverse.storageOffset]), grid(op, n));
    if (u > 0) {
      const src = cached(`unique-values|${k}`, () => uniqueValuesSource(k));
      const params = new Uint32Array([u, m, n, values.storageOffset, self.storageOffset, counts.storageOffset]);
      q.dispatch(src, [values, self, S, start, counts].map(bindingOf), params, grid(op, u * m));
    }
  } finally {
    for (const t of [S, F, scratch, start]) t.release();
  }
  return u;
};

export const sortImpls: Pick<SortingImpls, 'sort' | 'topk' | 'searchsorted' | 'unique' | 'uniqueCountAsync'> = {
  unique,
  uniqueCountAsync,
  sort: (values, indices, self, dim, descending) => sortInto('sort', values, indices, self, dim, descending, self.sizes[dim]),
  topk: (values, indices, self, k, dim, largest) => sortInto('topk', values, indices, self, dim, largest, k),
  searchsorted,
};

export const selectImpls: Pick<StatsImpls, 'medianDim' | 'modeDim'> = {
  medianDim: select('median'),
  modeDim: select('mode'),
};
