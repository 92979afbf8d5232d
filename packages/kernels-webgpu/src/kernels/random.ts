import { DTypeError, TensorImpl, TorchError, type DeviceStream, type RandomFill, type RandomImpls } from '@torch-ts/core';
import { deviceErrorBinding, deviceErrorWgsl, messageErrorCode } from '../runtime/device-errors';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, isHalfKind, kindOf, loadExpr, storeStmt, type Kind } from '../wgsl/kinds';
import { PHILOX_WGSL, U64_WGSL } from '../wgsl/philox';
import { WORKGROUP } from '../wgsl/pointwise';
import { PRELUDE } from '../wgsl/prelude';
import { bindingOf, f32Word, grid } from './launch';

/**
 * Note [WebGPU random kernels]
 * The random impls of Note [Counter-based random streams] (core): every value is made on
 * the device from Philox4x32-10 (Note [Philox4x32-10 in WGSL]) and written straight into
 * the output, with no host draws and no upload.
 *  - `randomFill` / `bernoulliTensor`: one invocation per Philox block, i.e. per 4
 *    consecutive logical elements (2 for 64-bit randint draws); it maps each element's
 *    row-major index to its storage offset from the size and stride words (so any strided
 *    or broadcast view is written in place) and stores it in the output's kind. Normals
 *    are Box-Muller on the block's two word pairs: r = sqrt(-2 log u1) with u1 in (0, 1),
 *    theta = 2 pi u2, giving r cos theta and r sin theta for each pair.
 *  - `multinomial`: with replacement, a first pass writes each row's running sum into a
 *    scratch buffer (one workgroup per row, a workgroup scan per chunk plus a carry; one
 *    invocation per row for rows of at most SHORT_CATS categories), then one invocation
 *    per sample binary-searches its row at a uniform draw (the first category whose
 *    normalised running sum exceeds the draw, so a zero weight is never drawn). Without
 *    replacement the keys p / q, q = -log u ~ Exp(1), go into the scratch buffer, and the
 *    top numSamples are taken by as many argmax rounds (workgroup trees, or sequential
 *    scans for short rows), each over the keys that come after the previous winner in the
 *    order (key descending, index ascending): the Gumbel-max trick PyTorch uses, ties to
 *    the lower index as CPU's sort gives them.
 * Bad data (a probability outside [0, 1], a negative, NaN or infinite weight, a row of
 * zeros) is reported to the device-error record with CPU's message, raised at the next
 * read (Note [Device-side errors]); the kernel goes on, counting a bad weight as 0.
 */

const sources = new Map<string, string>();

function cached(key: string, make: () => string): string {
  let s = sources.get(key);
  if (!s) sources.set(key, (s = make()));
  return s;
}

/** Uniform words of a kernel: `p(i)` reads word i. */
function paramsDecl(binding: number, words: number): string[] {
  return [
    `struct Params { w: array<vec4<u32>, ${Math.max(1, Math.ceil(words / 4))}> };`,
    `@group(0) @binding(${binding}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
  ];
}

const HEAD = 12;

/** The uniform of a 16-bit float output: as many random bits as its significand holds. */
const UNIFORM_BITS: Partial<Record<Kind, string>> = { f16: 'f32(r[j] & 0x7ffu) * 4.8828125e-4', bf16: 'f32(r[j] & 0xffu) * 3.90625e-3' };

/**
 * The data-dependent errors of the random kernels, with CPU's messages: reported on the
 * device and raised at the next read (Note [Device-side errors]), as CUDA's device asserts.
 */
const BERNOULLI_P_ERROR = () => messageErrorCode('bernoulli_:p', () => new TorchError('bernoulli_: Expected p_in >= 0 && p_in <= 1 to be true, but got false.'));
const MULTINOMIAL_ERRORS = () => ({
  negative: messageErrorCode('multinomial:negative', () => new TorchError('multinomial: invalid multinomial distribution (encountering probability entry < 0)')),
  infinite: messageErrorCode('multinomial:infinite', () => new TorchError('multinomial: invalid multinomial distribution (encountering probability entry = infinity or NaN)')),
  invalid: messageErrorCode('multinomial:invalid', () => new TorchError('multinomial: probability tensor contains either `inf`, `nan` or element < 0')),
  zeroSum: messageErrorCode('multinomial:sum', () => new TorchError('multinomial: invalid multinomial distribution (sum of probabilities <= 0)')),
});

type Draw = RandomFill['kind'] | 'bernoulliTensor';

/** WGSL statements storing `val` (f32 for uniform/normal, vec2<u32> (lo, hi) for integer draws) at element offset `o`. */
function storeValue(k: Kind, integer: boolean): string {
  if (!integer) return storeStmt(0, k, 'o', 'val');
  if (isHalfKind(k)) return storeStmt(0, k, 'o', 'select(f32(bitcast<i32>(val.y)) * 4294967296.0 + f32(val.x), f32(bitcast<i32>(val.x)), bitcast<i32>(val.y) == (bitcast<i32>(val.x) >> 31u))');
  switch (k) {
    case 'f32':
      // (one rounding when the value fits in an i32, as the int64 -> float32 cast)
      return 'b0[o] = select(f32(bitcast<i32>(val.y)) * 4294967296.0 + f32(val.x), f32(bitcast<i32>(val.x)), bitcast<i32>(val.y) == (bitcast<i32>(val.x) >> 31u));';
    case 'i32':
      return 'b0[o] = bitcast<i32>(val.x);';
    case 'i64':
      return 'b0[2u * o] = val.x; b0[2u * o + 1u] = val.y;';
    default:
      return storeStmt(0, k, 'o', 'val.x');
  }
}

/**
 * The fill kernel. Words: numel, out offset, seed lo, seed hi, offset lo, offset hi, four
 * fill words (a b c d), p's offset, 0, then sizes, out strides, and p strides.
 */
function fillSource(draw: Draw, k: Kind, pk: Kind | null, nd: number, wide: boolean): string {
  const hasP = draw === 'bernoulliTensor';
  const integer = draw === 'randint' || draw === 'bernoulli' || hasP;
  const words = HEAD + nd * (hasP ? 3 : 2);
  const per = wide ? 2 : 4;
  const lines = [
    ...(isHalfKind(k) || (pk !== null && isHalfKind(pk)) ? [PRELUDE] : []),
    PHILOX_WGSL,
    ...(draw === 'randint' ? [U64_WGSL] : []),
    bindingDecl(0, k, true, false),
    ...(hasP ? [bindingDecl(1, pk!, false, false), deviceErrorWgsl(2)] : []),
    ...paramsDecl(hasP ? 3 : 1, words),
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let blk = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    `  let first = blk * ${per}u;`,
    '  if (first >= p(0u)) { return; }',
    '  var r = philox4x32(vec4<u32>(blk, 0u, p(4u), p(5u)), vec2<u32>(p(2u), p(3u)));',
  ];
  if (draw === 'normal') {
    lines.push(
      '  let rad0 = sqrt(-2.0 * log(ph_open(r.x)));',
      '  let th0 = 6.283185307179586 * ph_uniform(r.y);',
      '  let rad1 = sqrt(-2.0 * log(ph_open(r.z)));',
      '  let th1 = 6.283185307179586 * ph_uniform(r.w);',
      '  var z = vec4<f32>(rad0 * cos(th0), rad0 * sin(th0), rad1 * cos(th1), rad1 * sin(th1));',
    );
  }
  lines.push(`  for (var j = 0u; j < ${per}u; j++) {`, '    let i = first + j;', '    if (i >= p(0u)) { break; }');
  lines.push('    var rem = i;', '    var o = p(1u);', ...(hasP ? ['    var op = p(10u);'] : []));
  for (let d = nd - 1; d >= 0; d--) {
    const size = `p(${HEAD + d}u)`;
    lines.push(`    { let c = ${d === 0 ? 'rem' : `rem % ${size}`};${d === 0 ? '' : ` rem = rem / ${size};`}`);
    lines.push(`      o += c * p(${HEAD + nd + d}u);`);
    if (hasP) lines.push(`      op += c * p(${HEAD + 2 * nd + d}u);`);
    lines.push('    }');
  }
  switch (draw) {
    case 'uniform':
      // (float16 keeps 11 bits and bfloat16 8, as CPU's uniform: values in [0, 1) stay below 1 once rounded)
      lines.push(`    let val = ${UNIFORM_BITS[k] ?? 'ph_uniform(r[j])'} * bitcast<f32>(p(7u)) + bitcast<f32>(p(6u));`);
      break;
    case 'normal':
      lines.push('    let val = z[j] * bitcast<f32>(p(7u)) + bitcast<f32>(p(6u));');
      break;
    case 'bernoulli':
      lines.push('    let val = vec2<u32>(select(0u, 1u, ph_uniform(r[j]) < bitcast<f32>(p(6u))), 0u);');
      break;
    case 'bernoulliTensor':
      lines.push(
        `    let pv = ${loadExpr(1, pk!, 'op')};`,
        '    let pu = bitcast<u32>(pv);',
        // (NaN tested on the bits: a compiler may fold NaN comparisons)
        `    if (((pu & 0x7f800000u) == 0x7f800000u && (pu & 0x7fffffu) != 0u) || pv < 0.0 || pv > 1.0) { report_error(${BERNOULLI_P_ERROR()}u, 0u, 0u, 0u, 0u); }`,
        '    let val = vec2<u32>(select(0u, 1u, ph_uniform(r[j]) < pv), 0u);',
      );
      break;
    case 'randint':
      lines.push(
        wide
          ? '    let draw = u64_mod(vec2<u32>(r[2u * j], r[2u * j + 1u]), vec2<u32>(p(8u), p(9u)));'
          : '    let draw = vec2<u32>(r[j] % p(8u), 0u);',
        '    let val = u64_add(vec2<u32>(p(6u), p(7u)), draw);',
      );
      break;
  }
  lines.push(`    ${storeValue(k, integer)}`, '  }', '}');
  return lines.join('\n');
}

/** Geometry of the fill: one dim when every operand is contiguous, else out's dims. */
function geometry(out: TensorImpl, pIn: TensorImpl | null): { sizes: readonly number[]; strides: (readonly number[])[] } {
  if (out.isContiguous && (!pIn || pIn.isContiguous)) return { sizes: [out.numel], strides: [[1], ...(pIn ? [[1]] : [])] };
  return { sizes: out.sizes, strides: [out.strides, ...(pIn ? [pIn.strides] : [])] };
}

const u32 = (v: bigint): number => Number(BigInt.asUintN(32, v));
const hi32 = (v: bigint): number => Number(BigInt.asUintN(32, v >> 32n));

function run(op: string, draw: Draw, out: TensorImpl, pIn: TensorImpl | null, fillWords: readonly number[], stream: DeviceStream, wide = false): void {
  const k = kindOf(op, out.dtype, true, 'bf16');
  if ((draw === 'uniform' || draw === 'normal') && k !== 'f32' && !isHalfKind(k)) {
    throw new DTypeError(`${op}: "${op}" not implemented for '${out.dtype}' on webgpu`);
  }
  const pk = pIn ? kindOf(op, pIn.dtype, false, 'bf16') : null;
  if (pk !== null && pk !== 'f32' && !isHalfKind(pk)) throw new DTypeError(`${op}: "${op}" not implemented for p of dtype '${pIn!.dtype}' on webgpu`);
  if (out.numel === 0) return;
  const { sizes, strides } = geometry(out, pIn);
  const nd = sizes.length;
  const source = cached(`${draw}|${k}|${pk}|${nd}|${wide}`, () => fillSource(draw, k, pk, nd, wide));
  const params = new Uint32Array(HEAD + nd * (1 + strides.length));
  params[0] = out.numel;
  params[1] = out.storageOffset;
  params[2] = u32(stream.seed);
  params[3] = hi32(stream.seed);
  params[4] = u32(stream.offset);
  params[5] = hi32(stream.offset);
  fillWords.forEach((w, i) => (params[6 + i] = w));
  params[10] = pIn ? pIn.storageOffset : 0;
  for (let d = 0; d < nd; d++) {
    params[HEAD + d] = sizes[d];
    strides.forEach((s, j) => (params[HEAD + (j + 1) * nd + d] = s[d]));
  }
  const q = commandQueue(op);
  const bindings = pIn ? [bindingOf(out), bindingOf(pIn), deviceErrorBinding(q)] : [bindingOf(out)];
  q.dispatch(source, bindings, params, grid(op, Math.ceil(out.numel / (wide ? 2 : 4))));
}

function randomFill(out: TensorImpl, fill: RandomFill, stream: DeviceStream): void {
  switch (fill.kind) {
    case 'uniform': {
      const from = Math.fround(fill.from);
      return run('uniform_', 'uniform', out, null, [f32Word(from), f32Word(Math.fround(fill.to) - from)], stream);
    }
    case 'normal':
      return run('normal_', 'normal', out, null, [f32Word(fill.mean), f32Word(fill.std)], stream);
    case 'bernoulli':
      return run('bernoulli_', 'bernoulli', out, null, [f32Word(fill.p)], stream);
    case 'randint': {
      const from = BigInt.asUintN(64, fill.from);
      const wide = fill.range >= 2n ** 32n;
      return run('random_', 'randint', out, null, [u32(from), hi32(from), u32(fill.range), hi32(fill.range)], stream, wide);
    }
  }
}

function bernoulliTensor(out: TensorImpl, p: TensorImpl, stream: DeviceStream): void {
  run('bernoulli_', 'bernoulliTensor', out, p, [], stream);
}

/** Rows of at most this many categories take one invocation each (no workgroup tree). */
const SHORT_CATS = 64;
const SHORT_WG = 64;

type MultinomialPass = 'cumsum' | 'cumsum-short' | 'sample' | 'topk' | 'topk-short';

/** The bindings (0 out, 1 probs, 2 scratch, 3 the device-error record) each pass uses. */
const USED_BINDINGS: Record<MultinomialPass, readonly number[]> = {
  cumsum: [1, 2, 3],
  'cumsum-short': [1, 2, 3],
  sample: [0, 2],
  topk: [0, 1, 2, 3],
  'topk-short': [0, 1, 2, 3],
};

/**
 * The multinomial kernels (Note [WebGPU random kernels]). Words: rows, nCat, numSamples,
 * probs offset, row stride, category stride, seed lo, seed hi, offset lo, offset hi, out
 * offset. Bindings: out (int64 words), probs, scratch (rows * nCat f32), params.
 *   cumsum        one workgroup per row: running sums into the scratch, chunk by chunk;
 *   cumsum-short  one invocation per row: the same, sequentially;
 *   sample        one invocation per sample: a binary search of its row's running sums;
 *   topk          one workgroup per row: keys into the scratch, then one argmax round per sample;
 *   topk-short    one invocation per row: the same, sequentially.
 */
/**
 * `weight(row, j)`: the weight of category j, reporting a negative, NaN or infinite one with
 * CPU's message for the path (tested on the bits: a compiler may fold NaN comparisons);
 * it then counts as 0.
 */
function weightFn(topk: boolean): string {
  const e = MULTINOMIAL_ERRORS();
  const check = topk
    ? `if (neg || nan || inf) { report_error(${e.invalid}u, 0u, 0u, 0u, 0u); }`
    : `if (neg || nan) { report_error(${e.negative}u, 0u, 0u, 0u, 0u); } else if (inf) { report_error(${e.infinite}u, 0u, 0u, 0u, 0u); }`;
  return [
    'fn weight(row: u32, j: u32) -> f32 {',
    '  let x = b1[p(3u) + row * p(4u) + j * p(5u)];',
    '  let u = bitcast<u32>(x);',
    '  let nan = (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0u;',
    '  let inf = u == 0x7f800000u;',
    '  let neg = (u >> 31u) == 1u && (u & 0x7fffffffu) != 0u;',
    `  ${check}`,
    '  return select(x, 0.0, neg || nan);',
    '}',
  ].join('\n');
}

function multinomialSource(pass: MultinomialPass): string {
  const zeroSum = MULTINOMIAL_ERRORS().zeroSum;
  const short = pass === 'cumsum-short' || pass === 'topk-short' || pass === 'sample';
  const wg = short ? SHORT_WG : WORKGROUP;
  const used = USED_BINDINGS[pass];
  const decls = [bindingDecl(0, 'i64', true, false), bindingDecl(1, 'f32', false, false), bindingDecl(2, 'f32', true, false)];
  const lines = [
    PHILOX_WGSL,
    // (an 'auto' layout keeps only the bindings a kernel uses, numbered in order here)
    ...used.map((b, i) => (b === 3 ? deviceErrorWgsl(i) : decls[b].replace(`@binding(${b})`, `@binding(${i})`))),
    ...paramsDecl(used.length, 11),
    'fn word(i: u32) -> u32 { var r = philox4x32(vec4<u32>(i / 4u, 0u, p(8u), p(9u)), vec2<u32>(p(6u), p(7u))); return r[i % 4u]; }',
    ...(used.includes(1) ? [weightFn(pass === 'topk' || pass === 'topk-short')] : []),
    ...(used.includes(0) ? ['fn store(row: u32, s: u32, k: u32) { let o = p(10u) + row * p(2u) + s; b0[2u * o] = k; b0[2u * o + 1u] = 0u; }'] : []),
    // (key, index) comes after (prevK, prevI) in the order key descending, index ascending
    'fn after(k: f32, j: u32, prevK: f32, prevI: u32, first: bool) -> bool { return first || k < prevK || (k == prevK && j > prevI); }',
    'fn better(k: f32, j: u32, bestK: f32, bestI: u32) -> bool { return k > bestK || (k == bestK && j < bestI); }',
  ];
  if (pass === 'cumsum' || pass === 'topk') {
    lines.push(
      ...(pass === 'cumsum' ? [`var<workgroup> sh: array<f32, ${wg}>;`] : [`var<workgroup> bk: array<f32, ${wg}>;`, `var<workgroup> bi: array<u32, ${wg}>;`]),
      `@compute @workgroup_size(${wg})`,
      'fn main(@builtin(local_invocation_id) lid3: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
      '  let row = wid.x + wid.y * nwg.x;',
      '  if (row >= p(0u)) { return; }',
      '  let lid = lid3.x;',
      '  let nCat = p(1u);',
      '  let base = row * nCat;',
    );
  } else {
    lines.push(
      `@compute @workgroup_size(${wg})`,
      'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
      `  let idx = gid.x + gid.y * nwg.x * ${wg}u;`,
      '  let nCat = p(1u);',
    );
  }
  switch (pass) {
    case 'cumsum':
      lines.push(
        '  var carry = 0.0;',
        `  for (var c0 = 0u; c0 < nCat; c0 += ${wg}u) {`,
        '    let j = c0 + lid;',
        '    var v = 0.0;',
        '    if (j < nCat) { v = weight(row, j); }',
        '    sh[lid] = v;',
        '    workgroupBarrier();',
        `    for (var s = 1u; s < ${wg}u; s = s << 1u) {`,
        '      var t = 0.0;',
        '      if (lid >= s) { t = sh[lid - s]; }',
        '      workgroupBarrier();',
        '      sh[lid] = sh[lid] + t;',
        '      workgroupBarrier();',
        '    }',
        '    if (j < nCat) { b2[base + j] = carry + sh[lid]; }',
        `    carry = carry + sh[${wg - 1}u];`,
        '    workgroupBarrier();',
        '  }',
        `  if (lid == 0u && !(carry > 0.0)) { report_error(${zeroSum}u, 0u, 0u, 0u, 0u); }`,
      );
      break;
    case 'cumsum-short':
      lines.push(
        '  if (idx >= p(0u)) { return; }',
        '  let base = idx * nCat;',
        '  var c = 0.0;',
        '  for (var j = 0u; j < nCat; j++) { c = c + weight(idx, j); b2[base + j] = c; }',
        `  if (!(c > 0.0)) { report_error(${zeroSum}u, 0u, 0u, 0u, 0u); }`,
      );
      break;
    case 'sample':
      // the first category whose normalised running sum exceeds the draw: never a zero weight
      lines.push(
        '  if (idx >= p(0u) * p(2u)) { return; }',
        '  let row = idx / p(2u);',
        '  let base = row * nCat;',
        '  let total = b2[base + nCat - 1u];',
        '  let u = ph_uniform(word(idx));',
        '  var lo = 0u;',
        '  var hi = nCat;',
        '  while (lo < hi) {',
        '    let mid = (lo + hi) / 2u;',
        '    if (b2[base + mid] / total <= u) { lo = mid + 1u; } else { hi = mid; }',
        '  }',
        '  store(row, idx % p(2u), min(lo, nCat - 1u));',
      );
      break;
    case 'topk':
      lines.push(
        `  for (var j = lid; j < nCat; j += ${wg}u) { b2[base + j] = weight(row, j) / -log(ph_open(word(base + j))); }`,
        '  storageBarrier();',
        '  var prevK = 0.0;',
        '  var prevI = 0u;',
        '  for (var r = 0u; r < p(2u); r++) {',
        '    var bestK = -1.0;',
        '    var bestI = 0xffffffffu;',
        `    for (var j = lid; j < nCat; j += ${wg}u) {`,
        '      let k = b2[base + j];',
        '      if (after(k, j, prevK, prevI, r == 0u) && better(k, j, bestK, bestI)) { bestK = k; bestI = j; }',
        '    }',
        '    bk[lid] = bestK;',
        '    bi[lid] = bestI;',
        '    workgroupBarrier();',
        `    for (var s = ${wg / 2}u; s > 0u; s = s >> 1u) {`,
        '      if (lid < s && better(bk[lid + s], bi[lid + s], bk[lid], bi[lid])) { bk[lid] = bk[lid + s]; bi[lid] = bi[lid + s]; }',
        '      workgroupBarrier();',
        '    }',
        '    prevK = bk[0];',
        '    prevI = bi[0];',
        `    if (lid == 0u && r == 0u && !(prevK > 0.0)) { report_error(${zeroSum}u, 0u, 0u, 0u, 0u); }`,
        '    if (lid == 0u) { store(row, r, prevI); }',
        '    workgroupBarrier();',
        '  }',
      );
      break;
    case 'topk-short':
      lines.push(
        '  if (idx >= p(0u)) { return; }',
        '  let base = idx * nCat;',
        '  for (var j = 0u; j < nCat; j++) { b2[base + j] = weight(idx, j) / -log(ph_open(word(base + j))); }',
        '  var prevK = 0.0;',
        '  var prevI = 0u;',
        '  for (var r = 0u; r < p(2u); r++) {',
        '    var bestK = -1.0;',
        '    var bestI = 0xffffffffu;',
        '    for (var j = 0u; j < nCat; j++) {',
        '      let k = b2[base + j];',
        '      if (after(k, j, prevK, prevI, r == 0u) && better(k, j, bestK, bestI)) { bestK = k; bestI = j; }',
        '    }',
        `    if (r == 0u && !(bestK > 0.0)) { report_error(${zeroSum}u, 0u, 0u, 0u, 0u); }`,
        '    prevK = bestK;',
        '    prevI = bestI;',
        '    store(idx, r, bestI);',
        '  }',
      );
      break;
  }
  lines.push('}');
  return lines.join('\n');
}

function multinomial(out: TensorImpl, probs: TensorImpl, replacement: boolean, stream: DeviceStream): void {
  const op = 'multinomial';
  if (kindOf(op, probs.dtype) !== 'f32') throw new DTypeError(`multinomial: "multinomial" not implemented for '${probs.dtype}' on webgpu`);
  const two = probs.sizes.length === 2;
  const rows = two ? probs.sizes[0] : 1;
  const nCat = probs.sizes[probs.sizes.length - 1];
  const numSamples = out.sizes[out.sizes.length - 1];
  if (rows === 0 || numSamples === 0) return;
  if (nCat === 0) throw new TorchError('multinomial: invalid multinomial distribution (sum of probabilities <= 0)');
  const scratch = TensorImpl.empty(op, [rows * nCat], 'float32', out.device);
  try {
    const params = Uint32Array.of(
      rows,
      nCat,
      numSamples,
      probs.storageOffset,
      two ? probs.strides[0] : 0,
      probs.strides[probs.sizes.length - 1],
      u32(stream.seed),
      hi32(stream.seed),
      u32(stream.offset),
      hi32(stream.offset),
      out.storageOffset,
    );
    const q = commandQueue(op);
    const all = [bindingOf(out), bindingOf(probs), bindingOf(scratch), deviceErrorBinding(q)];
    const short = nCat <= SHORT_CATS;
    const pass = (name: MultinomialPass, workgroups: [number, number, number]) =>
      q.dispatch(cached(`multinomial|${name}`, () => multinomialSource(name)), USED_BINDINGS[name].map((b) => all[b]), params, workgroups);
    if (replacement) {
      pass(short ? 'cumsum-short' : 'cumsum', short ? grid(op, rows, SHORT_WG) : grid(op, rows, 1));
      pass('sample', grid(op, rows * numSamples, SHORT_WG));
    } else {
      pass(short ? 'topk-short' : 'topk', short ? grid(op, rows, SHORT_WG) : grid(op, rows, 1));
    }
  } finally {
    // Safe before the kernels run: Note [Block reuse in submission order].
    scratch.release();
  }
}

export const randomImpls: Pick<RandomImpls, 'randomFill' | 'bernoulliTensor' | 'multinomial'> = { randomFill, bernoulliTensor, multinomial };
