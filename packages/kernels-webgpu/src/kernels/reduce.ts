import { DTypeError, TensorImpl, type ArgReduceImpl, type ReduceImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, isFloatKind, isHalfKind, isI32Kind, kindOf, loadExpr, storeStmt, valueType, type Kind } from '../wgsl/kinds';
import { PRELUDE } from '../wgsl/prelude';
import { I64_HELPERS, load64, store64 } from '../wgsl/reduce64';
import { bindingOf, grid } from './launch';
import { hoistParams } from '../wgsl/pointwise';
import { kernelTuning } from '../runtime/tuning';
import { copy, fill } from './pointwise';

/**
 * Note [WebGPU reductions]
 * `sum prod amax amin`: one workgroup of RED_WG invocations per output element. Each
 * invocation folds a strided slice of the reduced elements (j = lid, lid + RED_WG, ...),
 * then the workgroup combines the partial results by a tree in workgroup memory, so a
 * reduction of n elements costs n / RED_WG sequential steps plus log2(RED_WG). Geometry is
 * data as in Note [Pointwise kernel layout]: kept dims (sizes, input and output strides) and
 * reduced dims (sizes, input strides) are uniform words, one pipeline per rank pair.
 * Short reductions (at most SHORT_RED elements per output) run one invocation per output
 * instead, and medium ones (at most MEDIUM_RED) workgroups of 64 (`lanesFor`), so a sum
 * over a dim of 3 or of 100 does not keep most invocations of each workgroup idle.
 * Several passes (`chunksFor`): when a few outputs have very many elements each (a sum of
 * 16M elements to a scalar), one workgroup per output would leave the GPU idle. Then the
 * reduced range of each output is dealt into `chunks` interleaved pieces (piece c takes
 * elements c, c + chunks, ... of each lane's stride, so neighbouring invocations read
 * neighbouring elements: coalesced on a GPU, one vector load on SIMD CPUs): pass 1 runs
 * nOut * chunks workgroups, each writing its piece's partial result into a scratch tensor
 * [nOut, chunks] (same dtype, so the combine is the same: sums of uint8 wrap as one sum
 * does); the next pass reduces the scratch's last dim the same way, until one piece is left.
 * All passes are recorded before the scratches are released (Note [Block reuse in
 * submission order]).
 * On a software adapter (Note [Kernel tuning per adapter]) no kernel uses a workgroup tree:
 * one invocation per output or piece, more pieces, and a pass more when needed.
 * int64 values are vec2<u32> with exact 64-bit arithmetic (Note [int64 in reductions]).
 * `argmax argmin max(dim) min(dim)`: the same shapes (one invocation per output for short
 * dims, else a workgroup tree, and two passes for few long dims) over (value, index) pairs.
 * The pair combine is order-free, so any tree gives PyTorch's CPU result: a NaN beats any
 * number, a strictly better value wins, and among equals (or NaNs) the smaller index wins,
 * i.e. the first extreme. Indices are written as int64 (low word, high word 0).
 */
const RED_WG = 256;
/** At most this many elements per output: one invocation per output (no tree). */
const SHORT_RED = 32;
const SHORT_WG = 64;
/** At most this many elements per output: workgroups of 64, so fewer invocations idle. */
const MEDIUM_RED = 2048;

/** Invocations per output or piece: 1 (a sequential fold), 64 or RED_WG (a workgroup tree). */
export function lanesFor(per: number): number {
  if (kernelTuning().barrierFree) return 1;
  return per <= SHORT_RED ? 1 : per <= MEDIUM_RED ? 64 : RED_WG;
}

type Letter = 'f' | 'i' | 'u' | 'b' | 'l';
interface ReduceRow {
  readonly identity: Partial<Record<Letter, string>>;
  readonly combine: Partial<Record<Letter, string>>;
}

const LETTER: Record<Kind, Letter> = { f32: 'f', i32: 'i', u8: 'u', bool: 'b', i64: 'l', u16: 'u', f16: 'f', bf16: 'f', i8: 'i', i16: 'i' };

const REDUCE_OPS: Record<'sum' | 'prod' | 'amax' | 'amin', ReduceRow> = {
  sum: {
    identity: { f: '0.0', i: '0', u: '0u', b: '0u', l: 'vec2<u32>(0u, 0u)' },
    combine: { f: 'a + b', i: 'a + b', u: '(a + b) & 255u', b: 'min(a + b, 1u)', l: 'rd_add64(a, b)' },
  },
  prod: {
    identity: { f: '1.0', i: '1', u: '1u', b: '1u', l: 'vec2<u32>(1u, 0u)' },
    combine: { f: 'a * b', i: 'a * b', u: '(a * b) & 255u', b: 'a & b', l: 'rd_mul64(a, b)' },
  },
  amax: {
    identity: { f: '-inf_f()', i: 'i32(-2147483648)', u: '0u', b: '0u', l: 'vec2<u32>(0u, 0x80000000u)' },
    combine: { f: 'max_nan(a, b)', i: 'max(a, b)', u: 'max(a, b)', b: 'max(a, b)', l: 'rd_max64(a, b)' },
  },
  amin: {
    identity: { f: 'inf_f()', i: '2147483647', u: '255u', b: '1u', l: 'vec2<u32>(0xffffffffu, 0x7fffffffu)' },
    combine: { f: 'min_nan(a, b)', i: 'min(a, b)', u: 'min(a, b)', b: 'min(a, b)', l: 'rd_min64(a, b)' },
  },
};

/** The WGSL type a reduction carries values of kind `k` in. */
function carryType(k: Kind): string {
  return k === 'i64' ? 'vec2<u32>' : valueType(k);
}

function loadValue(i: number, k: Kind, idx: string, atomic: boolean): string {
  return k === 'i64' ? load64(i, idx) : loadExpr(i, k, idx, atomic);
}

function storeValue(i: number, k: Kind, idx: string, v: string): string {
  return k === 'i64' ? store64(i, idx, v) : storeStmt(i, k, idx, v);
}

/**
 * How many pieces to deal each output's reduced range into (Note [WebGPU reductions]): about
 * `target` workgroups (invocations, without trees) in all, each piece at least `minPiece`
 * elements; 1 when the outputs alone give enough or the range is short.
 */
const GPU_SPLIT = { target: 1024, minPiece: 4096 };
const SOFTWARE_SPLIT = { target: 16384, minPiece: 256 };
export function chunksFor(nOut: number, nRed: number): number {
  const { target, minPiece } = kernelTuning().barrierFree ? SOFTWARE_SPLIT : GPU_SPLIT;
  if (nOut >= target / 2 || nRed < 2 * minPiece) return 1;
  return Math.max(1, Math.min(Math.ceil(target / nOut), Math.floor(nRed / minPiece)));
}

const sources = new Map<string, string>();

function cached(key: string, make: () => string): string {
  let src = sources.get(key);
  if (!src) sources.set(key, (src = make()));
  return src;
}

const HEAD_WORDS = 8;

/**
 * The entry point's opening, up to `w` (the output, or output piece, of this invocation or
 * workgroup): SHORT_WG invocations of one output each when `lanes` is 1, else one workgroup of
 * `lanes` per output with its workgroup arrays `shared`.
 */
function mainHeader(lanes: number, shared: readonly string[]): string[] {
  if (lanes === 1) {
    return [
      `@compute @workgroup_size(${SHORT_WG})`,
      'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
      `  let w = gid.x + gid.y * nwg.x * ${SHORT_WG}u;`,
    ];
  }
  return [
    ...shared,
    `@compute @workgroup_size(${lanes})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    '  let w = wid.x + wid.y * nwg.x;',
  ];
}

/**
 * The reduction kernel. Words: nOut, nRed, inBase, outOff, chunks, 0, chunkStride (output
 * elements between pieces), 0, then kept sizes, kept input strides,
 * kept output strides, reduced sizes, reduced input strides.
 */
function reduceSource(name: keyof typeof REDUCE_OPS, k: Kind, nk: number, nr: number, same: boolean, lanes: number, vec: boolean): string {
  const short = lanes === 1;
  const row = REDUCE_OPS[name];
  const L = LETTER[k];
  const t = carryType(k);
  const words = HEAD_WORDS + 3 * nk + 2 * nr;
  const inB = same ? 0 : 1;
  const lines = [
    PRELUDE,
    ...(k === 'i64' ? [I64_HELPERS] : []),
    bindingDecl(0, k, true, false),
    ...(same ? [] : [bindingDecl(1, k, false, vec)]),
    `struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`,
    `@group(0) @binding(${same ? 1 : 2}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    `fn combine(a: ${t}, b: ${t}) -> ${t} { return ${row.combine[L]}; }`,
  ];
  lines.push(...mainHeader(lanes, [`var<workgroup> part: array<${t}, ${lanes}>;`]));
  lines.push(
    '  let nOut = p(0u);',
    '  let chunks = p(4u);',
    '  let o = w / chunks;',
    '  let c = w % chunks;',
    '  let end = p(1u);',
    '  var inBase = p(2u);',
    `  var outOff = p(3u) + c * p(6u);`,
    '  var rem = o;',
  );
  const K = HEAD_WORDS;
  for (let d = nk - 1; d >= 0; d--) {
    lines.push(`  { let s = p(${K + d}u); let q = rem % s; rem = rem / s; inBase += q * p(${K + nk + d}u); outOff += q * p(${K + 2 * nk + d}u); }`);
  }
  const R = K + 3 * nk;
  lines.push(`  var acc: ${t} = ${row.identity[L]};`);
  const loopAt = lines.length;
  lines.push('  if (o < nOut) {');
  const loop = (n: string): string =>
    short ? `    for (var j = c; j < ${n}; j += chunks) {` : `    for (var j = c * ${lanes}u + lid; j < ${n}; j += chunks * ${lanes}u) {`;
  if (vec) {
    // whole vec4s of a unit-stride range (the host checked the alignment): one load, four combines
    lines.push(loop('end / 4u'));
    lines.push('      let v = b1[inBase / 4u + j];');
    lines.push('      acc = combine(combine(combine(combine(acc, v.x), v.y), v.z), v.w);');
  } else {
    lines.push(loop('end'));
    if (nr === 1) {
      lines.push(`      let off = inBase + j * p(${R + 1}u);`);
    } else {
      lines.push('      var r = j; var off = inBase;');
      for (let d = nr - 1; d >= 0; d--) {
        lines.push(`      { let s = p(${R + d}u); let q = r % s; r = r / s; off += q * p(${R + nr + d}u); }`);
      }
    }
    lines.push(`      acc = combine(acc, ${loadValue(inB, k, 'off', same)});`);
  }
  lines.push('    }');
  lines.push('  }');
  if (short) {
    lines.push(`  if (o < nOut) { ${storeValue(0, k, 'outOff', 'acc')} }`);
  } else {
    lines.push('  part[lid] = acc;');
    lines.push('  workgroupBarrier();');
    lines.push(`  for (var s = ${lanes / 2}u; s > 0u; s = s >> 1u) {`);
    lines.push('    if (lid < s) { part[lid] = combine(part[lid], part[lid + s]); }');
    lines.push('    workgroupBarrier();');
    lines.push('  }');
    lines.push(`  if (lid == 0u && o < nOut) { ${storeValue(0, k, 'outOff', 'part[0]')} }`);
  }
  lines.push('}');
  hoistParams(lines, loopAt);
  return lines.join('\n');
}

interface ReduceGeometry {
  readonly keptSizes: readonly number[];
  readonly inKept: readonly number[];
  readonly outKept: readonly number[];
  readonly redSizes: readonly number[];
  readonly redStrides: readonly number[];
  readonly inBase: number;
  readonly outOff: number;
}

function launchReduce(
  name: keyof typeof REDUCE_OPS,
  k: Kind,
  out: TensorImpl,
  input: TensorImpl,
  g: ReduceGeometry,
  nOut: number,
  chunks: number,
  chunkStride: number,
): void {
  const nRed = g.redSizes.reduce((n, s) => n * s, 1);
  const per = Math.ceil(nRed / chunks);
  const same = out.storage.data === input.storage.data;
  const nk = g.keptSizes.length;
  const nr = g.redSizes.length;
  const lanes = lanesFor(per);
  // vec4 loads: a unit-stride reduced range of 32-bit values whose every start is 16-byte aligned
  const vec =
    !same && (k === 'f32' || k === 'i32') && nr === 1 && g.redStrides[0] === 1 && nRed % 4 === 0 && g.inBase % 4 === 0 && g.inKept.every((st) => st % 4 === 0);
  const src = cached(`${name}|${k}|${nk}|${nr}|${same}|${lanes}|${vec}`, () => reduceSource(name, k, nk, nr, same, lanes, vec));
  const params = new Uint32Array(HEAD_WORDS + 3 * nk + 2 * nr);
  params.set([nOut, nRed, g.inBase, g.outOff, chunks, 0, chunkStride, 0]);
  params.set([...g.keptSizes, ...g.inKept, ...g.outKept, ...g.redSizes, ...g.redStrides], HEAD_WORDS);
  const bindings = same ? [bindingOf(out)] : [bindingOf(out), bindingOf(input)];
  const groups = lanes === 1 ? grid(name, nOut * chunks, SHORT_WG) : grid(name, nOut * chunks, 1);
  commandQueue(name).dispatch(src, bindings, params, groups);
}

/** Contiguous strides of `sizes`, each times `scale`. */
function scaledStrides(sizes: readonly number[], scale: number): number[] {
  const st = new Array<number>(sizes.length);
  let s = scale;
  for (let d = sizes.length - 1; d >= 0; d--) {
    st[d] = s;
    s *= sizes[d];
  }
  return st;
}

/**
 * Drops size-1 dims and merges neighbours that every operand walks as one (stride[d] ==
 * size[d + 1] * stride[d + 1]), so a bias gradient's sum over [0, 2, 3] decodes two dims per
 * element, not three. Keeps at least one dim when there was one.
 */
function coalesce(sizes: readonly number[], strides: readonly (readonly number[])[]): { sizes: number[]; strides: number[][] } {
  const outS: number[] = [];
  const outT: number[][] = strides.map(() => []);
  for (let d = 0; d < sizes.length; d++) {
    if (sizes[d] === 1) continue;
    const last = outS.length - 1;
    if (last >= 0 && strides.every((st, i) => outT[i][last] === sizes[d] * st[d])) {
      outS[last] *= sizes[d];
      strides.forEach((st, i) => (outT[i][last] = st[d]));
    } else {
      outS.push(sizes[d]);
      strides.forEach((st, i) => outT[i].push(st[d]));
    }
  }
  if (outS.length === 0 && sizes.length > 0) {
    outS.push(1);
    strides.forEach((_, i) => outT[i].push(0));
  }
  return { sizes: outS, strides: outT };
}

function reduce(name: keyof typeof REDUCE_OPS): ReduceImpl {
  return (out, self, dims) => {
    const k = kindOf(name, self.dtype, true, 'bf16');
    if (REDUCE_OPS[name].identity[LETTER[k]] === undefined) {
      throw new DTypeError(`${name}: "${name}" not implemented for '${self.dtype}' on webgpu`);
    }
    if (out.numel === 0) return;
    if (self.numel === 0) {
      // An empty reduction: every output is the identity (sum 0, prod 1; core rejects amax/amin).
      fill(out, name === 'prod' ? 1 : 0);
      return;
    }
    const kept: number[] = [];
    const red: number[] = [];
    for (let d = 0; d < self.sizes.length; d++) (dims.includes(d) ? red : kept).push(d);
    const k3 = coalesce(kept.map((d) => self.sizes[d]), [kept.map((d) => self.strides[d]), kept.map((d) => out.strides[d])]);
    const r1 = coalesce(red.map((d) => self.sizes[d]), [red.map((d) => self.strides[d])]);
    const keptSizes = k3.sizes;
    const redSizes = r1.sizes;
    const nRed = redSizes.reduce((n, s) => n * s, 1);
    const nOut = out.numel;
    const geom: ReduceGeometry = {
      keptSizes,
      inKept: k3.strides[0],
      outKept: k3.strides[1],
      redSizes,
      redStrides: r1.strides[0],
      inBase: self.storageOffset,
      outOff: out.storageOffset,
    };
    if (chunksFor(nOut, nRed) > 1 && isHalfKind(k)) {
      // float16/bfloat16 in several passes: the partial results must stay float32 (Note
      // [float16 on WebGPU]: accumulate in f32, round once), so the reduction runs on a float32 copy.
      const wide = TensorImpl.empty(name, self.sizes, 'float32', self.device);
      const wideOut = TensorImpl.empty(name, out.sizes, 'float32', out.device);
      try {
        copy(wide, self);
        reduce(name)(wideOut, wide, dims);
        copy(out, wideOut);
      } finally {
        wide.release();
        wideOut.release();
      }
      return;
    }
    // Passes of partial results into scratches [nOut, chunks] until one piece per output is left.
    const scratches: TensorImpl[] = [];
    try {
      let src = self;
      let g = geom;
      let n = nRed;
      for (let chunks = chunksFor(nOut, n); chunks > 1; chunks = chunksFor(nOut, n)) {
        const scratch = TensorImpl.empty(name, [nOut * chunks], out.dtype, out.device);
        scratches.push(scratch);
        launchReduce(name, k, scratch, src, { ...g, outKept: scaledStrides(keptSizes, chunks), outOff: scratch.storageOffset }, nOut, chunks, 1);
        g = { ...geom, inKept: scaledStrides(keptSizes, chunks), redSizes: [chunks], redStrides: [1], inBase: scratch.storageOffset };
        src = scratch;
        n = chunks;
      }
      launchReduce(name, k, out, src, g, nOut, 1, 0);
    } finally {
      for (const t of scratches) t.release();
    }
  };
}

export const reduceImpls = { sum: reduce('sum'), prod: reduce('prod'), amax: reduce('amax'), amin: reduce('amin') };

// ---- arg reductions ----

type ArgMode = 'direct' | 'partial' | 'final';

/** WGSL: whether candidate (bv, bi) replaces (av, ai) (Note [WebGPU reductions]). */
function argBetter(max: boolean, k: Kind, t: string): string {
  const none = 'if (bi == 0xffffffffu) { return false; } if (ai == 0xffffffffu) { return true; }';
  let body: string;
  if (isFloatKind(k)) {
    body =
      'let an = isnan_f(av); let bn = isnan_f(bv); if (an || bn) { if (an && bn) { return bi < ai; } return bn; } ' +
      `if (bv == av) { return bi < ai; } return bv ${max ? '>' : '<'} av;`;
  } else if (k === 'i64') {
    body = `if (all(bv == av)) { return bi < ai; } return ${max ? 'rd_lt64(av, bv)' : 'rd_lt64(bv, av)'};`;
  } else {
    body = `if (bv == av) { return bi < ai; } return bv ${max ? '>' : '<'} av;`;
  }
  return `fn better(av: ${t}, ai: u32, bv: ${t}, bi: u32) -> bool { ${none} ${body} }`;
}

/** Scratch words of a value: u32 bits (f32, i32, u32) or two words (int64). */
function encodeWord(k: Kind, v: string): string {
  return isFloatKind(k) || isI32Kind(k) ? `bitcast<u32>(${v})` : v;
}

function decodeWord(k: Kind, w: string): string {
  return isFloatKind(k) ? `bitcast<f32>(${w})` : isI32Kind(k) ? `bitcast<i32>(${w})` : w;
}

/**
 * The arg-reduction kernel. Words: nOut, n (dim size; pieces in 'final'), inOff, dimStride,
 * idxOff, valOff, chunks, per (elements per piece, to pick the lanes), then per dim: sizes, input strides, index strides, value strides.
 * Bindings: 'direct' indices, [values], self; 'partial' scratch values, scratch indices, self;
 * 'final' indices, [values], scratch values, scratch indices.
 */
function argSource(max: boolean, k: Kind, nd: number, withValues: boolean, mode: ArgMode, lanes: number): string {
  const short = lanes === 1;
  const t = carryType(k);
  const words = HEAD_WORDS + 4 * nd;
  const decls: string[] = [];
  let next = 0;
  let selfB = -1, sv = -1, si = -1, idxB = -1, valB = -1;
  if (mode === 'partial') {
    sv = next++;
    si = next++;
    selfB = next++;
  } else {
    idxB = next++;
    if (withValues) valB = next++;
    if (mode === 'direct') selfB = next++;
    else {
      sv = next++;
      si = next++;
    }
  }
  if (idxB >= 0) decls.push(bindingDecl(idxB, 'i64', true, false));
  if (valB >= 0) decls.push(bindingDecl(valB, k, true, false));
  if (selfB >= 0) decls.push(bindingDecl(selfB, k, false, false));
  for (const b of [sv, si]) if (b >= 0) decls.push(`@group(0) @binding(${b}) var<storage, read_write> b${b}: array<u32>;`);
  const load = (j: string): string =>
    mode === 'final'
      ? k === 'i64'
        ? load64(sv, `o * p(6u) + ${j}`)
        : decodeWord(k, `b${sv}[o * p(6u) + ${j}]`)
      : loadValue(selfB, k, `inOff + (${j}) * dimStride`, false);
  const index = (j: string): string => (mode === 'final' ? `b${si}[o * p(6u) + ${j}]` : j);
  const lines = [
    PRELUDE,
    ...(k === 'i64' ? [I64_HELPERS] : []),
    ...decls,
    `struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`,
    `@group(0) @binding(${next}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    argBetter(max, k, t),
  ];
  lines.push(...mainHeader(lanes, [`var<workgroup> pv: array<${t}, ${lanes}>;`, `var<workgroup> pi: array<u32, ${lanes}>;`]));
  const K = HEAD_WORDS;
  lines.push(
    '  let nOut = p(0u);',
    `  let chunks = ${mode === 'partial' ? 'p(6u)' : '1u'};`,
    '  let o = w / chunks;',
    '  let c = w % chunks;',
    '  let end = p(1u);',
    '  var inOff = p(2u);',
    '  let dimStride = p(3u);',
    '  var idxOff = p(4u);',
    '  var valOff = p(5u);',
    '  var rem = o;',
  );
  for (let d = nd - 1; d >= 0; d--) {
    lines.push(
      `  { let s = p(${K + d}u); let q = rem % s; rem = rem / s; inOff += q * p(${K + nd + d}u); idxOff += q * p(${K + 2 * nd + d}u); valOff += q * p(${K + 3 * nd + d}u); }`,
    );
  }
  lines.push(`  var best: ${t} = ${k === 'i64' ? 'vec2<u32>(0u, 0u)' : `${t}(0)`};`);
  lines.push('  var bi = 0xffffffffu;');
  const loopAt = lines.length;
  lines.push('  if (o < nOut) {');
  lines.push(short ? '    for (var j = c; j < end; j += chunks) {' : `    for (var j = c * ${lanes}u + lid; j < end; j += chunks * ${lanes}u) {`);
  lines.push(`      let v = ${load('j')}; let vi = ${index('j')};`);
  lines.push('      if (better(best, bi, v, vi)) { best = v; bi = vi; }');
  lines.push('    }');
  lines.push('  }');
  if (!short) {
    lines.push('  pv[lid] = best; pi[lid] = bi;');
    lines.push('  workgroupBarrier();');
    lines.push(`  for (var s = ${lanes / 2}u; s > 0u; s = s >> 1u) {`);
    lines.push('    if (lid < s && better(pv[lid], pi[lid], pv[lid + s], pi[lid + s])) { pv[lid] = pv[lid + s]; pi[lid] = pi[lid + s]; }');
    lines.push('    workgroupBarrier();');
    lines.push('  }');
    lines.push('  best = pv[0]; bi = pi[0];');
  }
  const guard = short ? 'o < nOut' : 'lid == 0u && o < nOut';
  if (mode === 'partial') {
    const store =
      k === 'i64'
        ? `b${sv}[2u * w] = best.x; b${sv}[2u * w + 1u] = best.y;`
        : `b${sv}[w] = ${encodeWord(k, 'best')};`;
    lines.push(`  if (${guard}) { ${store} b${si}[w] = bi; }`);
  } else {
    lines.push(`  if (${guard}) {`);
    lines.push(`    b${idxB}[2u * idxOff] = bi; b${idxB}[2u * idxOff + 1u] = 0u;`);
    if (valB >= 0) lines.push(`    ${storeValue(valB, k, 'valOff', 'best')}`);
    lines.push('  }');
  }
  lines.push('}');
  hoistParams(lines, loopAt);
  return lines.join('\n');
}

function argReduce(name: string, max: boolean): ArgReduceImpl {
  return (values, indices, self, dim) => {
    const k = kindOf(name, self.dtype, true, 'bf16');
    if (indices.numel === 0) return;
    if (self.sizes[dim] === 0) return;
    const operands: TensorImpl[] = values ? [indices, values, self] : [indices, self];
    const blocks = operands.map((t) => t.storage.data);
    if (new Set(blocks).size !== blocks.length) {
      throw new DTypeError(`${name}: outputs that share storage with the input are not supported on webgpu yet`);
    }
    const nd = self.sizes.length;
    const n = self.sizes[dim];
    const nOut = indices.numel;
    const geometry = new Uint32Array(4 * nd);
    for (let d = 0; d < nd; d++) {
      geometry[d] = d === dim ? 1 : self.sizes[d];
      geometry[nd + d] = d === dim ? 0 : self.strides[d];
      geometry[2 * nd + d] = d === dim ? 0 : indices.strides[d];
      geometry[3 * nd + d] = values && d !== dim ? values.strides[d] : 0;
    }
    const q = commandQueue(name);
    const run = (mode: ArgMode, bindings: TensorImpl[], head: number[], count: number, per: number): void => {
      const lanes = lanesFor(per);
      const src = cached(`arg|${max}|${k}|${nd}|${values !== null}|${mode}|${lanes}`, () => argSource(max, k, nd, values !== null, mode, lanes));
      const params = new Uint32Array(HEAD_WORDS + 4 * nd);
      params.set(head);
      params.set(geometry, HEAD_WORDS);
      q.dispatch(src, bindings.map(bindingOf), params, lanes === 1 ? grid(name, count, SHORT_WG) : grid(name, count, 1));
    };
    const valOff = values ? values.storageOffset : 0;
    const chunks = chunksFor(nOut, n);
    if (chunks === 1) {
      run('direct', operands, [nOut, n, self.storageOffset, self.strides[dim], indices.storageOffset, valOff, 1, n], nOut, n);
      return;
    }
    const per = Math.ceil(n / chunks);
    const sv = TensorImpl.empty(name, [nOut * chunks * (k === 'i64' ? 2 : 1)], 'int32', self.device);
    const si = TensorImpl.empty(name, [nOut * chunks], 'int32', self.device);
    try {
      run('partial', [sv, si, self], [nOut, n, self.storageOffset, self.strides[dim], 0, 0, chunks, per], nOut * chunks, per);
      const outs = values ? [indices, values] : [indices];
      run('final', [...outs, sv, si], [nOut, chunks, 0, 0, indices.storageOffset, valOff, chunks, chunks], nOut, chunks);
    } finally {
      sv.release();
      si.release();
    }
  };
}

export const argReduceImpls = {
  argmax: argReduce('argmax', true),
  argmin: argReduce('argmin', false),
  maxDim: argReduce('max', true),
  minDim: argReduce('min', false),
};
