/// <reference types="@webgpu/types" />
import { DTypeError, TensorImpl, type BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, kindOf, loadExpr, storeStmt, valueType, type Kind } from '../wgsl/kinds';
import { PRELUDE } from '../wgsl/prelude';
import { GROUP_ID, paramsDecl, rowBaseCode, rowParams, rowVariant, rowWords, type RowGeometry } from '../wgsl/rows';
import { bindingOf, grid } from './launch';
import { WORKGROUP } from '../wgsl/pointwise';

type ScanImpls = Pick<BackendImpls, 'cumsum' | 'cumprod' | 'cummax' | 'cummin'>;

/**
 * Note [WebGPU scans]
 * cumsum, cumprod, cummax and cummin are scans with an associative `comb(earlier, later)`
 * over a state type S. One workgroup of SCAN_WG invocations scans a row (Note [Row
 * kernels]) in chunks of SCAN_WG * SCAN_E elements: each invocation folds its SCAN_E
 * consecutive elements in registers, the workgroup scans the invocation totals in
 * workgroup memory (Hillis-Steele), each invocation then writes its elements combined with
 * the prefix before it, and the chunk's total is carried into the next chunk. Rows run in
 * parallel, one workgroup each. Many short rows (n <= SCAN_SERIAL) instead run one invocation
 * per row, in order. A few long rows are split into blocks of SCAN_BLOCK elements, one
 * workgroup each, in two passes: each block's total into a scratch, then each block scans
 * from the combined totals of the blocks before it (an ordered workgroup reduction of them).
 * The states:
 *  - float32 sum: a float-float pair (hi, lo) added with Knuth's TwoSum, so the running sum
 *    carries about 48 bits, as PyTorch's CPU kernel accumulates float32 in double; the
 *    stored element is hi + lo rounded once;
 *  - float32 product, and float16 sum/product: f32 (PyTorch's CPU accumulates half in float);
 *  - int32 / uint8 / bool: wrapping i32 / u32 arithmetic (uint8 modulo 256);
 *  - int64 (what integral cumsum/cumprod produce): (lo, hi) u32 words with carries, a 64-bit
 *    product from 16-bit limbs; exact modulo 2^64 as PyTorch's int64 wraps;
 *  - cummax/cummin: (value bits, index). An element replaces the running one when it is NaN,
 *    or when the running value is not NaN and the element is >= (<= for cummin): ties and
 *    NaNs move the index to the latest position (kernels-cpu's rule). Combining summaries
 *    of two segments by that rule is associative, which the parallel scan needs. The index
 *    0xffffffff marks the identity; int64 values carry both words, (lo, hi, index).
 */
const SCAN_WG = 256;
const SCAN_E = 4;

interface ScanSpec {
  /** WGSL type of the state. */
  readonly S: string;
  readonly ident: string;
  /** Body of `fn comb(a: S, b: S) -> S`. */
  readonly comb: string;
  /** The state of one element: `v` its loaded value (as `valueType(kind)` or a vec2<u32> for i64), `j` its position. */
  readonly load: (v: string, j: string) => string;
  /** The value to store from a state `s` (and the int64 high word). */
  readonly store: (s: string) => { v: string; hi?: string };
  readonly helpers?: string;
  /** The index (u32) of a cummax/cummin state. */
  readonly index?: (s: string) => string;
}

const I64_HELPERS = /* wgsl */ `
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let lo = a.x + b.x; return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x)); }
fn mul32x32(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let l = mul32x32(a.x, b.x); return vec2<u32>(l.x, l.y + a.x * b.y + a.y * b.x); }
`;

const FF_HELPERS = /* wgsl */ `
fn two_sum(a: f32, b: f32) -> vec2<f32> {
  let s = a + b;
  if (isinf_f(s) || isnan_f(s)) { return vec2<f32>(s, 0.0); }
  let bb = s - a;
  return vec2<f32>(s, (a - (s - bb)) + (b - bb));
}
fn ff_add(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  let s = two_sum(a.x, b.x);
  if (isinf_f(s.x) || isnan_f(s.x)) { return vec2<f32>(s.x, 0.0); }
  return two_sum(s.x, s.y + (a.y + b.y));
}
`;

function extremumSpec(k: Kind, isMax: boolean): ScanSpec {
  if (k === 'i64') {
    // (lo, hi, index); b replaces a when b >= a (<= for cummin) as signed 64-bit integers
    const rel = isMax ? '>' : '<';
    return {
      S: 'vec3<u32>',
      ident: 'vec3<u32>(0u, 0u, 0xffffffffu)',
      comb:
        'if (b.z == 0xffffffffu) { return a; } if (a.z == 0xffffffffu) { return b; } ' +
        `let ah = bitcast<i32>(a.y); let bh = bitcast<i32>(b.y); if (bh ${rel} ah || (bh == ah && b.x ${rel}= a.x)) { return b; } return a;`,
      load: (v, j) => `vec3<u32>(${v}, ${j})`,
      store: (s) => ({ v: `bitcast<i32>(${s}.x)`, hi: `bitcast<i32>(${s}.y)` }),
      index: (s) => `${s}.z`,
    };
  }
  const t = valueType(k);
  const op = isMax ? '>=' : '<=';
  const val = (x: string) => (t === 'f32' ? `bitcast<f32>(${x})` : t === 'i32' ? `bitcast<i32>(${x})` : x);
  const takeLater =
    t === 'f32' ? `isnan_f(bv) || (!isnan_f(av) && bv ${op} av)` : `bv ${op} av`;
  return {
    S: 'vec2<u32>',
    ident: 'vec2<u32>(0u, 0xffffffffu)',
    comb:
      `if (b.y == 0xffffffffu) { return a; } if (a.y == 0xffffffffu) { return b; } ` +
      `let av = ${val('a.x')}; let bv = ${val('b.x')}; if (${takeLater}) { return b; } return a;`,
    load: (v, j) => `vec2<u32>(${t === 'u32' ? v : `bitcast<u32>(${v})`}, ${j})`,
    store: (s) => ({ v: val(`${s}.x`) }),
    index: (s) => `${s}.y`,
  };
}

function sumProdSpec(op: 'cumsum' | 'cumprod', k: Kind, dtype: string): ScanSpec {
  const sum = op === 'cumsum';
  switch (k) {
    case 'f32':
      return sum
        ? { S: 'vec2<f32>', ident: 'vec2<f32>(0.0, 0.0)', comb: 'return ff_add(a, b);', load: (v) => `vec2<f32>(${v}, 0.0)`, store: (s) => ({ v: `(${s}.x + ${s}.y)` }), helpers: FF_HELPERS }
        : { S: 'f32', ident: '1.0', comb: 'return a * b;', load: (v) => v, store: (s) => ({ v: s }) };
    case 'f16':
    case 'bf16':
      // float16/bfloat16: PyTorch's CPU accumulates them in float and rounds each stored element
      return { S: 'f32', ident: sum ? '0.0' : '1.0', comb: sum ? 'return a + b;' : 'return a * b;', load: (v) => v, store: (s) => ({ v: s }) };
    case 'i32':
    case 'i8':
    case 'i16':
      // (int8/int16 wrap on store: Note [int8 and int16 on WebGPU])
      return { S: 'i32', ident: sum ? '0' : '1', comb: sum ? 'return a + b;' : 'return a * b;', load: (v) => v, store: (s) => ({ v: s }) };
    case 'u8':
      return { S: 'u32', ident: sum ? '0u' : '1u', comb: sum ? 'return (a + b) & 255u;' : 'return (a * b) & 255u;', load: (v) => v, store: (s) => ({ v: s }) };
    case 'i64':
      return {
        S: 'vec2<u32>',
        ident: sum ? 'vec2<u32>(0u, 0u)' : 'vec2<u32>(1u, 0u)',
        comb: sum ? 'return add64(a, b);' : 'return mul64(a, b);',
        load: (v) => v,
        store: (s) => ({ v: `bitcast<i32>(${s}.x)`, hi: `bitcast<i32>(${s}.y)` }),
        helpers: I64_HELPERS,
      };
    case 'bool':
      // (core rejects a bool result with elements but lets the in-place form of a 0-dim one through, as PyTorch)
      return { S: 'u32', ident: sum ? '0u' : '1u', comb: sum ? 'return a | b;' : 'return a & b;', load: (v) => v, store: (s) => ({ v: s }) };
    default:
      throw new DTypeError(`${op}: "${op}" not implemented for '${dtype}' on webgpu`);
  }
}

const sources = new Map<string, string>();

/** The state as four u32 words (the block totals of a multi-block scan live in a u32 scratch). */
function packFns(S: string): string {
  const [pack, unpack] =
    S === 'f32'
      ? ['vec4<u32>(bitcast<u32>(s), 0u, 0u, 0u)', 'bitcast<f32>(w.x)']
      : S === 'i32'
        ? ['vec4<u32>(bitcast<u32>(s), 0u, 0u, 0u)', 'bitcast<i32>(w.x)']
        : S === 'u32'
          ? ['vec4<u32>(s, 0u, 0u, 0u)', 'w.x']
          : S === 'vec2<f32>'
            ? ['vec4<u32>(bitcast<vec2<u32>>(s), 0u, 0u)', 'bitcast<vec2<f32>>(w.xy)']
            : S === 'vec2<u32>'
              ? ['vec4<u32>(s, 0u, 0u)', 'w.xy']
              : ['vec4<u32>(s, 0u)', 'w.xyz'];
  return `fn pack(s: S) -> vec4<u32> { return ${pack}; }\nfn unpack(w: vec4<u32>) -> S { return ${unpack}; }`;
}

/**
 * 'single': one workgroup scans a whole row. For long rows with few rows (Note [WebGPU
 * scans], multi-block): 'total' writes the total of each block of SCAN_BLOCK elements into the
 * scratch T; 'scan' scans each block starting from the combined totals of the blocks before it.
 */
type ScanMode = 'single' | 'total' | 'scan' | 'serial';

/**
 * The scan kernel. Operands: 0 the output (values), then (with indices) 1 the int64 indices,
 * then the input (absent when it is the output's own storage: in place), then T (multi-block).
 * Header: [n, rows, blockLen, nBlocks].
 */
function scanSource(spec: ScanSpec, kOut: Kind, kIn: Kind, withIndices: boolean, inPlace: boolean, outer: number, mode: ScanMode): string {
  const nOps = (withIndices ? 2 : 1) + 1;
  const g: RowGeometry = { header: 4, k: nOps, outer };
  const inOp = nOps - 1;
  const inBinding = inPlace ? 0 : nOps - 1;
  const tBinding = inPlace ? nOps - 1 : nOps;
  const multi = mode === 'total' || mode === 'scan';
  const nBindings = tBinding + (multi ? 1 : 0);
  const decls = [bindingDecl(0, kOut, true, false)];
  if (withIndices) decls.push(bindingDecl(1, 'i64', true, false));
  if (!inPlace) decls.push(bindingDecl(inBinding, kIn, false, false));
  if (multi) decls.push(`@group(0) @binding(${tBinding}) var<storage, read_write> T: array<u32>;`);
  const loadVal = (off: string) =>
    kIn === 'i64' ? `vec2<u32>(b${inBinding}[2u * (${off})], b${inBinding}[2u * (${off}) + 1u])` : loadExpr(inBinding, kIn, off, inPlace);
  const st = spec.store('r');
  const store = [`let r = comb(pre, loc[e]);`, storeStmt(0, kOut, `base0 + j * dstr0`, st.v, st.hi)];
  if (withIndices) store.push(storeStmt(1, 'i64', 'base1 + j * dstr1', `i32(${spec.index!('r')})`, '0i'));
  const W = SCAN_WG;
  if (mode === 'serial') {
    // short rows: one invocation scans a row in order (no workgroup steps to pay for)
    return [
      PRELUDE,
      spec.helpers ?? '',
      ...decls,
      paramsDecl(rowWords(g), nBindings),
      `alias S = ${spec.S};`,
      `fn ident() -> S { return ${spec.ident}; }`,
      `fn comb(a: S, b: S) -> S { ${spec.comb} }`,
      `@compute @workgroup_size(${WORKGROUP})`,
      'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
      `  let row = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
      '  let n = p(0u);',
      '  if (row >= p(1u)) { return; }',
      rowBaseCode(g, 'row'),
      '  var pre = ident();',
      '  for (var j = 0u; j < n; j++) {',
      `    let x = ${spec.load(loadVal(`base${inOp} + j * dstr${inOp}`), 'j')};`,
      '    let e = 0u;',
      '    var loc: array<S, 1>;',
      '    loc[0] = x;',
      `    ${store.join(' ')}`,
      '    pre = r;',
      '  }',
      '}',
    ].join('\n');
  }
  const carryIn =
    mode === 'scan'
      ? [
          '  if (blk > 0u) {',
          `    let seg = (blk + ${W - 1}u) / ${W}u;`,
          '    var acc = ident();',
          '    let q1 = min(blk, (lid + 1u) * seg);',
          '    for (var q = lid * seg; q < q1; q++) { let t = 4u * (row * nb + q); acc = comb(acc, unpack(vec4<u32>(T[t], T[t + 1u], T[t + 2u], T[t + 3u]))); }',
          '    sh[lid] = acc;',
          '    wgScan(lid);',
          `    carry = sh[${W - 1}u];`,
          '    workgroupBarrier();',
          '  }',
        ]
      : [];
  return [
    PRELUDE,
    spec.helpers ?? '',
    ...decls,
    paramsDecl(rowWords(g), nBindings),
    `alias S = ${spec.S};`,
    `fn ident() -> S { return ${spec.ident}; }`,
    `fn comb(a: S, b: S) -> S { ${spec.comb} }`,
    multi ? packFns(spec.S) : '',
    `var<workgroup> sh: array<S, ${W}>;`,
    '// inclusive scan of sh in order (Hillis-Steele); call from uniform control flow',
    'fn wgScan(lid: u32) {',
    '  workgroupBarrier();',
    `  for (var off = 1u; off < ${W}u; off = off << 1u) {`,
    '    var v = sh[lid];',
    '    if (lid >= off) { v = comb(sh[lid - off], v); }',
    '    workgroupBarrier();',
    '    sh[lid] = v;',
    '    workgroupBarrier();',
    '  }',
    '}',
    `@compute @workgroup_size(${W})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    `  let gi = ${GROUP_ID};`,
    '  let n = p(0u);',
    '  let nb = p(3u);',
    '  let row = gi / nb;',
    '  let blk = gi % nb;',
    '  if (row >= p(1u)) { return; }',
    '  let c1 = min(n, (blk + 1u) * p(2u));',
    rowBaseCode(g, 'row'),
    '  var carry = ident();',
    ...carryIn,
    `  for (var c0 = blk * p(2u); c0 < c1; c0 += ${W * SCAN_E}u) {`,
    `    var loc: array<S, ${SCAN_E}>;`,
    '    var acc = ident();',
    `    for (var e = 0u; e < ${SCAN_E}u; e++) {`,
    `      let j = c0 + lid * ${SCAN_E}u + e;`,
    `      if (j < c1) { acc = comb(acc, ${spec.load(loadVal(`base${inOp} + j * dstr${inOp}`), 'j')}); }`,
    '      loc[e] = acc;',
    '    }',
    '    sh[lid] = acc;',
    '    wgScan(lid);',
    ...(mode === 'total'
      ? []
      : [
          '    var pre = carry;',
          '    if (lid > 0u) { pre = comb(carry, sh[lid - 1u]); }',
          `    for (var e = 0u; e < ${SCAN_E}u; e++) {`,
          `      let j = c0 + lid * ${SCAN_E}u + e;`,
          `      if (j < c1) { ${store.join(' ')} }`,
          '    }',
        ]),
    `    carry = comb(carry, sh[${W - 1}u]);`,
    '    workgroupBarrier();',
    '  }',
    ...(mode === 'total'
      ? [
          '  if (lid == 0u) { let w = pack(carry); T[4u * gi] = w.x; T[4u * gi + 1u] = w.y; T[4u * gi + 2u] = w.z; T[4u * gi + 3u] = w.w; }',
          // (the outputs stay in the layout of this pass, unwritten)
          '  _ = arrayLength(&b0);',
          ...(withIndices ? ['  _ = arrayLength(&b1);'] : []),
        ]
      : []),
    '}',
  ].join('\n');
}

/** Elements per block of a multi-block scan. */
const SCAN_BLOCK = SCAN_WG * SCAN_E * 4;
/** Rows at most this long, when there are many, are scanned one invocation per row. */
const SCAN_SERIAL = 32;
/** Rows below which a long row is split into blocks (fewer rows leave the device idle). */
const SCAN_FEW_ROWS = 256;

function runScan(op: string, spec: ScanSpec, key: string, out: TensorImpl, indices: TensorImpl | null, self: TensorImpl, dim: number): void {
  if (out.numel === 0) return;
  const kOut = kindOf(op, out.dtype, true, true);
  const kIn = kindOf(op, self.dtype, true, true);
  const n = self.sizes[dim];
  const rows = out.numel / n;
  const inPlace = out.storage.data === self.storage.data;
  if (inPlace && kOut !== kIn) throw new DTypeError(`${op}: an in-place scan with a different dtype is not supported on webgpu`);
  if (indices && (indices.storage.data === self.storage.data || indices.storage.data === out.storage.data)) {
    throw new DTypeError(`${op}: outputs that share storage with the input are not supported on webgpu`);
  }
  const outer = out.sizes.length - 1;
  const source = (mode: ScanMode) => {
    const cacheKey = `${key}|${kOut}|${kIn}|${indices !== null}|${inPlace}|${rowVariant(outer)}|${mode}`;
    let src = sources.get(cacheKey);
    if (!src) sources.set(cacheKey, (src = scanSource(spec, kOut, kIn, indices !== null, inPlace, outer, mode)));
    return src;
  };
  const operands = indices ? [out, indices, self] : [out, self];
  const bound = (inPlace ? operands.slice(0, -1) : operands).map(bindingOf);
  const q = commandQueue(op);
  const nBlocks = Math.ceil(n / SCAN_BLOCK);
  if (n <= SCAN_SERIAL && rows >= SCAN_FEW_ROWS) {
    q.dispatch(source('serial'), bound, rowParams([n, rows, n, 1], operands, dim), grid(op, rows));
    return;
  }
  if (nBlocks < 2 || rows >= SCAN_FEW_ROWS) {
    q.dispatch(source('single'), bound, rowParams([n, rows, n, 1], operands, dim), grid(op, rows, 1));
    return;
  }
  const totals = TensorImpl.empty(op, [rows * nBlocks * 4], 'int32', out.device);
  try {
    const params = rowParams([n, rows, SCAN_BLOCK, nBlocks], operands, dim);
    const withT = [...bound, bindingOf(totals)];
    q.dispatch(source('total'), withT, params, grid(op, rows * nBlocks, 1));
    q.dispatch(source('scan'), withT, params, grid(op, rows * nBlocks, 1));
  } finally {
    totals.release();
  }
}

function sumProd(op: 'cumsum' | 'cumprod'): ScanImpls['cumsum'] {
  return (out, self, dim) => {
    const k = kindOf(op, out.dtype, true, true);
    runScan(op, sumProdSpec(op, k, out.dtype), `${op}:${k}`, out, null, self, dim);
  };
}

function extremum(op: 'cummax' | 'cummin'): ScanImpls['cummax'] {
  return (values, indices, self, dim) => {
    const k = kindOf(op, self.dtype, true, true);
    runScan(op, extremumSpec(k, op === 'cummax'), `${op}:${k}`, values, indices, self, dim);
  };
}

export const scanImpls: ScanImpls = {
  cumsum: sumProd('cumsum'),
  cumprod: sumProd('cumprod'),
  cummax: extremum('cummax'),
  cummin: extremum('cummin'),
};
