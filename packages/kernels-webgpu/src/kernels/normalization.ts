import { TensorImpl, TorchError, type BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { kindOf } from '../wgsl/kinds';
import { PRELUDE } from '../wgsl/prelude';
import { bindingOf, f32Word, grid } from './launch';
import { chunksFor } from './reduce';

/**
 * Note [WebGPU normalization kernels]
 * batch norm and layer norm (group norm is layer norm over [N * G, C / G * HxW] plus core's
 * affine) on contiguous float32 operands (Note [NN kernels take contiguous float32/float64
 * operands]); batch norm also on dense channels-last ones (Note [WebGPU channels-last batch
 * norm]). Statistics use trees in workgroup memory of NORM_WG invocations and the
 * two-pass variance of the CPU kernel (the mean first, then the squared deviations from it).
 *  - batch norm: pass 1 reduces each channel's n * s elements (strided by c * s between
 *    batches) in pieces, one workgroup per (channel, piece), each writing its (count, mean,
 *    M2) to a scratch; as many pieces as the reductions use (Note [WebGPU reductions]), so a
 *    few channels of many elements still fill the GPU. Pass 2, one invocation per channel,
 *    combines the pieces (Chan et al.), writes mean and invstd and, in training, updates the
 *    running stats exactly as PyTorch: running_mean = (1 - momentum) running_mean + momentum
 *    mean, running_var = (1 - momentum) running_var + momentum var * n / (n - 1). Pass 3 is
 *    pointwise over every element: y = x * alpha + beta. The backward has the same three
 *    passes: the pieces' sum(g) and sum(g * (x - mean)), their totals (and the weight and
 *    bias gradients) per channel, then the input gradient per element.
 *  - layer norm: one workgroup per row (mean, variance, then the row's outputs); the input
 *    gradient likewise; the weight and bias gradients are sums over rows, one workgroup per
 *    column (one invocation per column when there are few rows). Few long rows (group norm
 *    with few groups over large images) run batch norm's three passes instead, a row being a
 *    channel with n = 1, c = rows, s = k.
 * Optional operands (weight, bias, running stats, any of the gradients) are bound only when
 * present, one pipeline per combination, so a kernel never has more than 8 storage bindings.
 */
const NORM_WG = 256;
const SHORT = 32;
const SHORT_WG = 64;

/** The storage bindings of a kernel: the operands present, in order, numbered from 0. */
class Operands {
  readonly tensors: TensorImpl[] = [];
  readonly decls: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly vec4 = new Set<string>();

  /** An f32 operand (absent: not bound, and the generated source does without it). */
  add(name: string, t: TensorImpl | null, op: string): this {
    if (!t) return this;
    kindOf(op, t.dtype);
    return this.push(name, t, 'f32');
  }

  /** A float32 scratch bound as array<vec4<f32>> (its offset word counts vec4s). */
  addVec4(name: string, t: TensorImpl | null): this {
    if (!t) return this;
    this.vec4.add(name);
    return this.push(name, t, 'vec4<f32>');
  }

  private push(name: string, t: TensorImpl, elem: string): this {
    const i = this.tensors.length;
    this.index.set(name, i);
    this.tensors.push(t);
    // (read_write even for inputs: one suballocated GPUBuffer bound read-only and writable in
    // one dispatch is a usage conflict, even at disjoint ranges)
    this.decls.push(`@group(0) @binding(${i}) var<storage, read_write> ${name}: array<${elem}>;`);
    return this;
  }

  has(name: string): boolean {
    return this.index.has(name);
  }

  /** The key part naming which optional operands are bound. */
  get key(): string {
    return [...this.index.keys()].join(',');
  }

  /** `name[off + i]`-style access with the operand's storage offset word `o_<name>`. */
  get offsets(): string[] {
    return [...this.index.keys()].map((n, i) => `fn o_${n}() -> u32 { return p(${16 + i}u); }`);
  }

  /** WebGPU forbids overlapping bindings when one is writable, and every binding here is (a tensor binds its whole block). */
  check(op: string): void {
    const blocks = this.tensors.map((t) => t.storage.data);
    if (new Set(blocks).size !== blocks.length) throw new TorchError(`${op}: operands that share storage are not supported on webgpu`);
  }

  params(head: readonly number[]): Uint32Array {
    const w = new Uint32Array(16 + this.tensors.length);
    w.set(head);
    const names = [...this.index.keys()];
    this.tensors.forEach((t, i) => (w[16 + i] = this.vec4.has(names[i]) ? t.storageOffset / 4 : t.storageOffset));
    return w;
  }

  get uniform(): string {
    const words = 16 + this.tensors.length;
    return [
      `struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`,
      `@group(0) @binding(${this.tensors.length}) var<uniform> P: Params;`,
      'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
      'fn pf(i: u32) -> f32 { return bitcast<f32>(p(i)); }',
    ].join('\n');
  }
}

const sources = new Map<string, string>();

function run(op: string, key: string, ops: Operands, make: () => string, head: readonly number[], groups: [number, number, number]): void {
  ops.check(op);
  const k = `${key}|${ops.key}`;
  let src = sources.get(k);
  if (!src) sources.set(k, (src = [PRELUDE, ...ops.decls, ops.uniform, ...ops.offsets, make()].join('\n')));
  commandQueue(op).dispatch(src, ops.tensors.map(bindingOf), ops.params(head), groups);
}

/** WGSL: a tree over `buf` (array<T, NORM_WG>) combining with `+`, leaving the total in buf[0]. */
function tree(buf: string): string {
  return [
    `  workgroupBarrier();`,
    `  for (var h = ${NORM_WG / 2}u; h > 0u; h = h >> 1u) {`,
    `    if (lid < h) { ${buf}[lid] = ${buf}[lid] + ${buf}[lid + h]; }`,
    '    workgroupBarrier();',
    '  }',
  ].join('\n');
}

/** The head of a kernel with one invocation per item, the item index named `name`. */
function shortMain(name: string): string {
  return [
    `@compute @workgroup_size(${SHORT_WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let ${name} = gid.x + gid.y * nwg.x * ${SHORT_WG}u;`,
  ].join('\n');
}

const MAIN_WG = [
  `@compute @workgroup_size(${NORM_WG})`,
  'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
  '  let g = wid.x + wid.y * nwg.x;',
].join('\n');

// ---- batch norm ----
// Words: 0 n, 1 c, 2 s, 3 momentum, 4 eps, 5 chunks, 6 per (elements of a channel per piece).
// Element e of channel ch (e < n * s): (e / s) * c * s + ch * s + e % s; in dense channels-last
// memory (`cl`, Note [WebGPU channels-last batch norm]) e * c + ch.

/**
 * Note [WebGPU channels-last batch norm]
 * The channels-last hooks (Note [Channels-last pooling impls] in core) run the same three
 * passes on dense channels-last operands [N, C, H, W] (memory order n, h, w, c) in source
 * variants (`|cl` keys): element e of channel ch is at e * c + ch. The reducing passes
 * (statistics, the backward's sums) run one invocation per (piece, channel), channel
 * fastest, each walking its piece of e (bnStatsClSource: its mean, then the squared
 * deviations from it), so neighbouring invocations read neighbouring words: a workgroup per
 * (channel, piece) as in the NCHW passes would read with stride c, which made these passes
 * 8x slower on SwiftShader ([8, 64, 56, 56] train forward + backward: 4.0 s, now 0.5 s).
 * Their results go where the NCHW passes put theirs, so the combining passes are shared. In
 * the pointwise passes (apply, input gradient), which walk memory in order, element i is of
 * channel i % c. Every operand that the pointwise passes index by i is dense in that same
 * order, so one index serves all of them, as in the NCHW passes. float32 only, as the NCHW
 * kernels (core hands the hooks the compute dtype; anything else is declined).
 */
function bnElem(): string {
  return 'fn elem(ch: u32, e: u32) -> u32 { let s = p(2u); return (e / s) * p(1u) * s + ch * s + e % s; }';
}

/** WGSL: the channel of element i of a pointwise pass, NCHW or dense channels-last. */
const chOf = (cl: boolean) => (cl ? '  let ch = i % p(1u);' : '  let ch = (i / p(2u)) % p(1u);');

/** The head of a kernel with one workgroup per (channel, piece): `ch`, `piece`, `live`, `start`, `end`. */
const BN_PIECE = [
  MAIN_WG,
  '  let ch = g / p(5u);',
  '  let piece = g % p(5u);',
  '  let live = ch < p(1u);',
  '  let start = piece * p(6u);',
  '  let end = min(p(0u) * p(2u), start + p(6u));',
].join('\n');

/** Pass 1 (training): each piece's (count, mean, M2) by two passes over it, into scratch `st`. */
function bnStatsSource(): string {
  return [
    bnElem(),
    `var<workgroup> part: array<f32, ${NORM_WG}>;`,
    BN_PIECE,
    '  var acc = 0.0;',
    `  if (live) { for (var e = start + lid; e < end; e += ${NORM_WG}u) { acc += x[o_x() + elem(ch, e)]; } }`,
    '  part[lid] = acc;',
    tree('part'),
    '  let cnt = f32(max(end, start) - start);',
    '  let mu = select(0.0, part[0] / cnt, cnt > 0.0);',
    '  workgroupBarrier();',
    '  acc = 0.0;',
    `  if (live) { for (var e = start + lid; e < end; e += ${NORM_WG}u) { let d = x[o_x() + elem(ch, e)] - mu; acc += d * d; } }`,
    '  part[lid] = acc;',
    tree('part'),
    '  if (lid == 0u && live) { st[o_st() + g] = vec4<f32>(cnt, mu, part[0], 0.0); }',
    '}',
  ].join('\n');
}

/**
 * Channels-last pass 1 and backward pass 1 (Note [WebGPU channels-last batch norm]): one
 * invocation per (piece, channel), channel fastest, so neighbouring invocations read
 * neighbouring words of each position's run of C channels; each writes what the workgroup
 * per piece of the NCHW passes writes, at the same place (st[ch * pieces + piece]).
 */
function bnClPieceHead(): string {
  return [
    shortMain('i'),
    '  let c = p(1u);',
    '  if (i >= c * p(5u)) { return; }',
    '  let ch = i % c; let piece = i / c;',
    '  let start = piece * p(6u);',
    '  let end = min(p(0u) * p(2u), start + p(6u));',
  ].join('\n');
}

function bnStatsClSource(): string {
  return [
    bnClPieceHead(),
    '  var acc = 0.0;',
    '  for (var e = start; e < end; e++) { acc += x[o_x() + e * c + ch]; }',
    '  let cnt = f32(max(end, start) - start);',
    '  let mu = select(0.0, acc / cnt, cnt > 0.0);',
    '  var m2 = 0.0;',
    '  for (var e = start; e < end; e++) { let d = x[o_x() + e * c + ch] - mu; m2 += d * d; }',
    '  st[o_st() + ch * p(5u) + piece] = vec4<f32>(cnt, mu, m2, 0.0);',
    '}',
  ].join('\n');
}

function bnBackwardSumsClSource(): string {
  return [
    bnClPieceHead(),
    '  let mu = mean[o_mean() + ch];',
    '  var acc = vec2<f32>(0.0);',
    '  for (var e = start; e < end; e++) { let at = e * c + ch; let gv = gy[o_gy() + at]; acc += vec2<f32>(gv, gv * (x[o_x() + at] - mu)); }',
    '  st[o_st() + ch * p(5u) + piece] = vec4<f32>(acc, 0.0, 0.0);',
    '}',
  ].join('\n');
}

/** Pieces of the channels-last passes: enough (piece, channel) invocations to fill a GPU, at least 64 elements each. */
const clPieces = (c: number, count: number) => Math.max(1, Math.min(Math.ceil(16384 / c), Math.floor(count / 64)));

/** Pass 2: per channel, the pieces combined (Chan et al.), the statistics and running stats written. */
function bnFinalizeSource(ops: Operands, training: boolean): string {
  const lines = [
    shortMain('ch'),
    '  if (ch >= p(1u)) { return; }',
  ];
  if (training) {
    lines.push(
      '  var a = st[o_st() + ch * p(5u)];',
      '  for (var j = 1u; j < p(5u); j++) {',
      '    let b = st[o_st() + ch * p(5u) + j];',
      '    if (b.x > 0.0) { let t = a.x + b.x; let d = b.y - a.y; a = vec4<f32>(t, a.y + d * (b.x / t), a.z + b.z + d * d * (a.x * (b.x / t)), 0.0); }',
      '  }',
      '  let mu = a.y;',
      '  let inv = 1.0 / sqrt(a.z / a.x + pf(4u));',
      ...(ops.has('rm') ? ['  rm[o_rm() + ch] = pf(3u) * mu + (1.0 - pf(3u)) * rm[o_rm() + ch];'] : []),
      ...(ops.has('rv') ? ['  rv[o_rv() + ch] = pf(3u) * (a.z / (a.x - 1.0)) + (1.0 - pf(3u)) * rv[o_rv() + ch];'] : []),
    );
  } else {
    lines.push('  let mu = rm[o_rm() + ch];', '  let inv = 1.0 / sqrt(rv[o_rv() + ch] + pf(4u));');
  }
  lines.push('  mean[o_mean() + ch] = mu;', '  invstd[o_invstd() + ch] = inv;', '}');
  return lines.join('\n');
}

/** Pass 3: y = x * alpha + beta per element, alpha = invstd * w, beta = b - mean * alpha (all channels at once). */
function bnApplySource(ops: Operands, cl = false): string {
  const w = ops.has('w') ? ' * w[o_w() + ch]' : '';
  const b = ops.has('b') ? 'b[o_b() + ch]' : '0.0';
  return [
    shortMain('i'),
    '  if (i >= p(0u) * p(1u) * p(2u)) { return; }',
    chOf(cl),
    `  let alpha = invstd[o_invstd() + ch]${w};`,
    `  let beta = ${b} - mean[o_mean() + ch] * alpha;`,
    '  out[o_out() + i] = x[o_x() + i] * alpha + beta;',
    '}',
  ].join('\n');
}

/** Backward pass 1: each piece's (sum g, sum g (x - mean)) into scratch `st`. */
function bnBackwardSumsSource(): string {
  return [
    bnElem(),
    `var<workgroup> part: array<vec2<f32>, ${NORM_WG}>;`,
    BN_PIECE,
    '  var mu = 0.0;',
    '  if (live) { mu = mean[o_mean() + ch]; }',
    '  var acc = vec2<f32>(0.0);',
    `  if (live) { for (var e = start + lid; e < end; e += ${NORM_WG}u) { let i = elem(ch, e); let gv = gy[o_gy() + i]; acc += vec2<f32>(gv, gv * (x[o_x() + i] - mu)); } }`,
    '  part[lid] = acc;',
    tree('part'),
    '  if (lid == 0u && live) { st[o_st() + g] = vec4<f32>(part[0], 0.0, 0.0); }',
    '}',
  ].join('\n');
}

/** Backward pass 2: per channel, the pieces' sums added; gw = dot * invstd, gb = sum g; totals left in the channel's first slot. */
function bnBackwardTotalsSource(ops: Operands): string {
  return [
    shortMain('ch'),
    '  if (ch >= p(1u)) { return; }',
    '  var t = vec4<f32>(0.0);',
    '  for (var j = 0u; j < p(5u); j++) { t += st[o_st() + ch * p(5u) + j]; }',
    '  st[o_st() + ch * p(5u)] = t;',
    ...(ops.has('gw') ? ['  gw[o_gw() + ch] = t.y * invstd[o_invstd() + ch];'] : []),
    ...(ops.has('gb') ? ['  gb[o_gb() + ch] = t.x;'] : []),
    '}',
  ].join('\n');
}

/** Backward pass 3: the input gradient per element. */
function bnBackwardInputSource(ops: Operands, training: boolean, cl = false): string {
  const w = ops.has('w') ? 'w[o_w() + ch]' : '1.0';
  return [
    shortMain('i'),
    '  if (i >= p(0u) * p(1u) * p(2u)) { return; }',
    chOf(cl),
    '  let inv = invstd[o_invstd() + ch];',
    `  let scale = ${w} * inv;`,
    ...(training
      ? [
          '  let count = f32(p(0u) * p(2u));',
          '  let t = st[o_st() + ch * p(5u)];',
          '  gi[o_gi() + i] = (gy[o_gy() + i] - t.x / count - (x[o_x() + i] - mean[o_mean() + ch]) * (t.y * inv * inv / count)) * scale;',
        ]
      : ['  gi[o_gi() + i] = gy[o_gy() + i] * scale;']),
    '}',
  ].join('\n');
}

// ---- layer norm ----
// words: 0 rows, 1 k, 4 eps

function layerNormSource(ops: Operands): string {
  const w = ops.has('w') ? ' * w[o_w() + j]' : '';
  const b = ops.has('b') ? ' + b[o_b() + j]' : '';
  return [
    `var<workgroup> part: array<f32, ${NORM_WG}>;`,
    `var<workgroup> stat: vec2<f32>;`,
    MAIN_WG,
    '  let r = g;',
    '  let live = r < p(0u);',
    '  let k = p(1u);',
    '  let base = r * k;',
    '  var acc = 0.0;',
    `  if (live) { for (var j = lid; j < k; j += ${NORM_WG}u) { acc += x[o_x() + base + j]; } }`,
    '  part[lid] = acc;',
    tree('part'),
    '  let mu = part[0] / f32(k);',
    '  workgroupBarrier();',
    '  acc = 0.0;',
    `  if (live) { for (var j = lid; j < k; j += ${NORM_WG}u) { let d = x[o_x() + base + j] - mu; acc += d * d; } }`,
    '  part[lid] = acc;',
    tree('part'),
    '  if (lid == 0u && live) {',
    '    let inv = 1.0 / sqrt(part[0] / f32(k) + pf(4u));',
    '    stat = vec2<f32>(mu, inv);',
    '    mean[o_mean() + r] = mu; rstd[o_rstd() + r] = inv;',
    '  }',
    '  workgroupBarrier();',
    '  let inv = stat.y;',
    `  if (live) { for (var j = lid; j < k; j += ${NORM_WG}u) { out[o_out() + base + j] = (x[o_x() + base + j] - mu) * inv${w}${b}; } }`,
    '}',
  ].join('\n');
}

/**
 * Long rows in pieces (few rows of many elements): a row is a batch-norm channel with n = 1,
 * c = rows, s = k, so pass 1 and 2 are batch norm's (bnStatsSource, bnFinalizeSource with
 * mean and rstd bound as `mean` and `invstd`); pass 3 applies the per-column affine.
 */
function layerNormApplySource(ops: Operands): string {
  const w = ops.has('w') ? ' * w[o_w() + i % p(2u)]' : '';
  const b = ops.has('b') ? ' + b[o_b() + i % p(2u)]' : '';
  return [
    shortMain('i'),
    '  if (i >= p(1u) * p(2u)) { return; }',
    '  let r = i / p(2u);',
    `  out[o_out() + i] = (x[o_x() + i] - mean[o_mean() + r]) * invstd[o_invstd() + r]${w}${b};`,
    '}',
  ].join('\n');
}

/** Long rows, backward pass 1: each piece's (sum g w, sum g w xhat) into scratch `st`. */
function layerNormBackwardSumsSource(ops: Operands): string {
  const w = ops.has('w') ? ' * w[o_w() + e]' : '';
  return [
    `var<workgroup> part: array<vec2<f32>, ${NORM_WG}>;`,
    BN_PIECE,
    '  var mu = 0.0; var inv = 0.0;',
    '  if (live) { mu = mean[o_mean() + ch]; inv = rstd[o_rstd() + ch]; }',
    '  var acc = vec2<f32>(0.0);',
    `  if (live) { for (var e = start + lid; e < end; e += ${NORM_WG}u) { let i = ch * p(2u) + e; let gv = gy[o_gy() + i]${w}; acc += vec2<f32>(gv, gv * (x[o_x() + i] - mu) * inv); } }`,
    '  part[lid] = acc;',
    tree('part'),
    '  if (lid == 0u && live) { st[o_st() + g] = vec4<f32>(part[0], 0.0, 0.0); }',
    '}',
  ].join('\n');
}

/** Long rows, backward pass 3: the input gradient per element from the row totals. */
function layerNormBackwardApplySource(ops: Operands): string {
  const w = ops.has('w') ? ' * w[o_w() + i % k]' : '';
  return [
    shortMain('i'),
    '  let k = p(2u);',
    '  if (i >= p(1u) * k) { return; }',
    '  let r = i / k;',
    '  let inv = rstd[o_rstd() + r];',
    '  let t = st[o_st() + r * p(5u)] / f32(k);',
    `  let gv = gy[o_gy() + i]${w};`,
    '  gi[o_gi() + i] = inv * (gv - t.x - (x[o_x() + i] - mean[o_mean() + r]) * inv * t.y);',
    '}',
  ].join('\n');
}

function layerNormBackwardInputSource(ops: Operands): string {
  const w = ops.has('w') ? ' * w[o_w() + j]' : '';
  return [
    `var<workgroup> part: array<vec2<f32>, ${NORM_WG}>;`,
    MAIN_WG,
    '  let r = g;',
    '  let live = r < p(0u);',
    '  let k = p(1u);',
    '  let base = r * k;',
    '  var mu = 0.0; var inv = 0.0;',
    '  if (live) { mu = mean[o_mean() + r]; inv = rstd[o_rstd() + r]; }',
    '  var acc = vec2<f32>(0.0);',
    `  if (live) { for (var j = lid; j < k; j += ${NORM_WG}u) { let gv = gy[o_gy() + base + j]${w}; acc += vec2<f32>(gv, gv * (x[o_x() + base + j] - mu) * inv); } }`,
    '  part[lid] = acc;',
    tree('part'),
    '  let m = part[0] / f32(k);',
    `  if (live) { for (var j = lid; j < k; j += ${NORM_WG}u) {`,
    `    let gv = gy[o_gy() + base + j]${w};`,
    '    let xhat = (x[o_x() + base + j] - mu) * inv;',
    '    gi[o_gi() + base + j] = inv * (gv - m.x - xhat * m.y);',
    '  } }',
    '}',
  ].join('\n');
}

/** gw[j] = sum_r g * xhat, gb[j] = sum_r g: one workgroup per column, or one invocation per column when rows <= SHORT. */
function layerNormBackwardParamsSource(ops: Operands, short: boolean): string {
  const body = [
    '  let gv = gy[o_gy() + r * k + j];',
    '  acc += vec2<f32>(gv * (x[o_x() + r * k + j] - mean[o_mean() + r]) * rstd[o_rstd() + r], gv);',
  ].join('\n');
  const store = [...(ops.has('gw') ? ['gw[o_gw() + j] = tot.x;'] : []), ...(ops.has('gb') ? ['gb[o_gb() + j] = tot.y;'] : [])].join(' ');
  if (short) {
    return [
      shortMain('j'),
      '  let k = p(1u);',
      '  if (j >= k) { return; }',
      '  var acc = vec2<f32>(0.0);',
      '  for (var r = 0u; r < p(0u); r++) {',
      body,
      '  }',
      '  let tot = acc;',
      `  ${store}`,
      '}',
    ].join('\n');
  }
  return [
    `var<workgroup> part: array<vec2<f32>, ${NORM_WG}>;`,
    MAIN_WG,
    '  let j = g;',
    '  let k = p(1u);',
    '  let live = j < k;',
    '  var acc = vec2<f32>(0.0);',
    `  if (live) { for (var r = lid; r < p(0u); r += ${NORM_WG}u) {`,
    body,
    '  } }',
    '  part[lid] = acc;',
    tree('part'),
    '  let tot = part[0];',
    `  if (lid == 0u && live) { ${store} }`,
    '}',
  ].join('\n');
}

/** Batch norm's three passes (Note [WebGPU normalization kernels]); `cl`: dense channels-last operands. */
function batchNormRun(
  out: TensorImpl,
  mean: TensorImpl,
  invstd: TensorImpl,
  self: TensorImpl,
  weight: TensorImpl | null,
  bias: TensorImpl | null,
  runningMean: TensorImpl | null,
  runningVar: TensorImpl | null,
  n: number,
  c: number,
  s: number,
  training: boolean,
  momentum: number,
  eps: number,
  cl: boolean,
): void {
  const op = 'native_batch_norm';
  if (c === 0) return;
  if (!training && (!runningMean || !runningVar)) throw new TorchError(`${op}: running_mean and running_var must be defined in evaluation mode`);
  const count = n * s;
  const chunks = !training ? 1 : cl ? clPieces(c, count) : chunksFor(c, count);
  const head = [n, c, s, f32Word(momentum), f32Word(eps), chunks, Math.ceil(count / chunks)];
  const v = cl ? '|cl' : '';
  const st = training ? TensorImpl.empty(op, [c * chunks * 4], 'float32', self.device) : null;
  try {
    if (st && cl) run(op, 'bn-stats|cl', new Operands().add('x', self, op).addVec4('st', st), bnStatsClSource, head, grid(op, c * chunks, SHORT_WG));
    else if (st) run(op, 'bn-stats', new Operands().add('x', self, op).addVec4('st', st), () => bnStatsSource(), head, grid(op, c * chunks, 1));
    const fin = new Operands().addVec4('st', st).add('mean', mean, op).add('invstd', invstd, op).add('rm', runningMean, op).add('rv', runningVar, op);
    run(op, `bn-final|${training}`, fin, () => bnFinalizeSource(fin, training), head, grid(op, c, SHORT_WG));
    if (count === 0) return;
    const app = new Operands().add('out', out, op).add('x', self, op).add('mean', mean, op).add('invstd', invstd, op).add('w', weight, op).add('b', bias, op);
    run(op, `bn-apply${v}`, app, () => bnApplySource(app, cl), head, grid(op, out.numel, SHORT_WG));
  } finally {
    st?.release();
  }
}

function batchNormBackwardRun(
  gradInput: TensorImpl | null,
  gradWeight: TensorImpl | null,
  gradBias: TensorImpl | null,
  grad: TensorImpl,
  self: TensorImpl,
  weight: TensorImpl | null,
  mean: TensorImpl,
  invstd: TensorImpl,
  n: number,
  c: number,
  s: number,
  training: boolean,
  cl: boolean,
): void {
  const op = 'native_batch_norm_backward';
  if (c === 0) return;
  const count = n * s;
  const needSums = gradWeight !== null || gradBias !== null || (gradInput !== null && training);
  const chunks = cl ? clPieces(c, count) : chunksFor(c, count);
  const head = [n, c, s, 0, 0, chunks, Math.ceil(count / chunks)];
  const v = cl ? '|cl' : '';
  const st = needSums ? TensorImpl.empty(op, [c * chunks * 4], 'float32', self.device) : null;
  try {
    if (st) {
      const sums = new Operands().add('gy', grad, op).add('x', self, op).add('mean', mean, op).addVec4('st', st);
      if (cl) run(op, 'bnb-sums|cl', sums, bnBackwardSumsClSource, head, grid(op, c * chunks, SHORT_WG));
      else run(op, 'bnb-sums', sums, () => bnBackwardSumsSource(), head, grid(op, c * chunks, 1));
      const tot = new Operands().addVec4('st', st).add('gw', gradWeight, op).add('gb', gradBias, op).add('invstd', invstd, op);
      run(op, 'bnb-totals', tot, () => bnBackwardTotalsSource(tot), head, grid(op, c, SHORT_WG));
    }
    if (gradInput && count > 0) {
      const gi = new Operands()
        .add('gi', gradInput, op)
        .add('gy', grad, op)
        .add('x', training ? self : null, op)
        .add('mean', training ? mean : null, op)
        .add('invstd', invstd, op)
        .add('w', weight, op)
        .addVec4('st', training ? st : null);
      run(op, `bnb-input|${training}${v}`, gi, () => bnBackwardInputSource(gi, training, cl), head, grid(op, gradInput.numel, SHORT_WG));
    }
  } finally {
    st?.release();
  }
}

// ---- group norm on dense channels-last operands ----

/**
 * Note [WebGPU channels-last group norm]
 * The channels-last hooks (Note [Channels-last pooling impls] in core) read NHWC memory with
 * neighbouring invocations on neighbouring channels (one contiguous run per position), which
 * is what makes them faster than copying to NCHW planes: a group's C / G channels at one
 * position are too short a run to spread a row's reduction over. So every reduction first
 * makes per-(n, piece of positions, channel) partial sums (`gnPartialSource`, the invocation
 * index c-fastest), then adds them per row r = n * G + g or per channel, in a fixed order:
 *  - forward: the partial sums of x give each row's mean; the partial sums of (x - mean)^2
 *    its variance (the two-pass variance of the other norms), rstd = 1 / sqrt(var + eps);
 *    then out = (x - mean) rstd w + b in memory order, the affine of channel i % C fused;
 *  - backward: one partial pass of (g, g (x - mean)) serves all three gradients: per row
 *    A = sum w g and B = rstd sum w g (x - mean) give the input gradient rstd (w g - A / k -
 *    xhat B / k), written *contiguous* (NCHW order, as PyTorch 1.13's) from the NHWC element
 *    it reads; per channel, gw = sum_n rstd sum g (x - mean) and gb = sum g.
 * float32 only (other dtypes decline). Words: 0 N, 1 C, 2 HW, 3 G, 4 cpg, 5 pieces, 6
 * positions per piece, 7 eps, 8 numel.
 */
const GN_WORDS = '  let N = p(0u); let C = p(1u); let HW = p(2u); let G = p(3u); let cpg = p(4u); let pieces = p(5u); let per = p(6u);';

type GnPartial = 'sum' | 'm2' | 'grad';

/** Partial sums per (n, piece, c) into vec4 scratch `st` at ((n * pieces + piece) * C + c). */
function gnPartialSource(kind: GnPartial): string {
  const term = {
    sum: '    acc.x += x[o_x() + at];',
    m2: '    let d = x[o_x() + at] - mu; acc.x += d * d;',
    grad: '    let gv = gy[o_gy() + at]; acc += vec2<f32>(gv, gv * (x[o_x() + at] - mu));',
  }[kind];
  return [
    shortMain('i'),
    GN_WORDS,
    '  if (i >= N * pieces * C) { return; }',
    '  let c = i % C; let q = i / C; let piece = q % pieces; let nb = q / pieces;',
    ...(kind === 'sum' ? [] : ['  let mu = mean[o_mean() + nb * G + c / cpg];']),
    '  let p0 = piece * per; let p1 = min(HW, p0 + per);',
    '  var acc = vec2<f32>(0.0);',
    '  for (var pos = p0; pos < p1; pos++) {',
    '    let at = (nb * HW + pos) * C + c;',
    term,
    '  }',
    '  st[o_st() + i] = vec4<f32>(acc, 0.0, 0.0);',
    '}',
  ].join('\n');
}

type GnRow = 'mean' | 'rstd' | 'grad';

/** Per row r = (n, g): its channels' partials added (channel-major, pieces in order). */
function gnRowSource(kind: GnRow, ops: Operands): string {
  const w = ops.has('w') ? 'w[o_w() + c]' : '1.0';
  const add = kind === 'grad' ? `      let v = st[o_st() + (nb * pieces + piece) * C + c].xy; acc += vec2<f32>(${w} * v.x, ${w} * v.y);` : '      acc.x += st[o_st() + (nb * pieces + piece) * C + c].x;';
  const store = {
    mean: '  mean[o_mean() + r] = acc.x / k;',
    rstd: '  invstd[o_invstd() + r] = 1.0 / sqrt(acc.x / k + pf(7u));',
    grad: '  rows[o_rows() + r] = vec4<f32>(acc.x, acc.y * rstd[o_rstd() + r], 0.0, 0.0);',
  }[kind];
  return [
    shortMain('r'),
    GN_WORDS,
    '  if (r >= N * G) { return; }',
    '  let nb = r / G; let c0 = (r % G) * cpg;',
    '  let k = f32(cpg * HW);',
    '  var acc = vec2<f32>(0.0);',
    '  for (var c = c0; c < c0 + cpg; c++) {',
    '    for (var piece = 0u; piece < pieces; piece++) {',
    add,
    '    }',
    '  }',
    store,
    '}',
  ].join('\n');
}

/** Apply: out = (x - mean) * rstd * w + b per element, in memory order (channel i % C). */
function gnApplySource(ops: Operands): string {
  const w = ops.has('w') ? ' * w[o_w() + ch]' : '';
  const b = ops.has('b') ? ' + b[o_b() + ch]' : '';
  return [
    shortMain('i'),
    GN_WORDS,
    '  if (i >= p(8u)) { return; }',
    '  let ch = i % C;',
    '  let r = (i / (HW * C)) * G + ch / cpg;',
    `  out[o_out() + i] = (x[o_x() + i] - mean[o_mean() + r]) * invstd[o_invstd() + r]${w}${b};`,
    '}',
  ].join('\n');
}

/** The contiguous input gradient; element i (NCHW order) reads the NHWC element `src`. */
function gnBackwardInputSource(ops: Operands): string {
  const w = ops.has('w') ? ' * w[o_w() + ch]' : '';
  return [
    shortMain('i'),
    GN_WORDS,
    '  if (i >= p(8u)) { return; }',
    '  let hw = i % HW; let q = i / HW; let ch = q % C; let nb = q / C;',
    '  let r = nb * G + ch / cpg;',
    '  let src = (nb * HW + hw) * C + ch;',
    '  let inv = rstd[o_rstd() + r];',
    '  let t = rows[o_rows() + r].xy / f32(cpg * HW);',
    `  let gv = gy[o_gy() + src]${w};`,
    '  gi[o_gi() + i] = inv * (gv - t.x - (x[o_x() + src] - mean[o_mean() + r]) * inv * t.y);',
    '}',
  ].join('\n');
}

/** Per channel: gw = sum_n rstd * sum g (x - mean), gb = sum g (n in order, each n's pieces first). */
function gnParamSource(ops: Operands): string {
  return [
    shortMain('c'),
    GN_WORDS,
    '  if (c >= C) { return; }',
    '  var tw = 0.0; var tb = 0.0;',
    '  for (var nb = 0u; nb < N; nb++) {',
    '    var v = vec2<f32>(0.0);',
    '    for (var piece = 0u; piece < pieces; piece++) { v += st[o_st() + (nb * pieces + piece) * C + c].xy; }',
    '    tw += v.y * rstd[o_rstd() + nb * G + c / cpg];',
    '    tb += v.x;',
    '  }',
    ...(ops.has('gw') ? ['  gw[o_gw() + c] = tw;'] : []),
    ...(ops.has('gb') ? ['  gb[o_gb() + c] = tb;'] : []),
    '}',
  ].join('\n');
}

/** Words and scratch size of group norm on self [N, C, H, W] (Note [WebGPU channels-last group norm]). */
function gnHead(self: TensorImpl, groups: number, eps: number): { head: number[]; partials: number } {
  const [N, C, H, W] = self.sizes;
  const pieces = chunksFor(N * C, H * W);
  return { head: [N, C, H * W, groups, C / groups, pieces, Math.ceil((H * W) / pieces), f32Word(eps), N * C * H * W], partials: N * pieces * C };
}

function groupNormRun(out: TensorImpl, mean: TensorImpl, rstd: TensorImpl, self: TensorImpl, weight: TensorImpl | null, bias: TensorImpl | null, groups: number, eps: number): void {
  const op = 'native_group_norm';
  const rows = self.sizes[0] * groups;
  const { head, partials } = gnHead(self, groups, eps);
  const st = TensorImpl.empty(op, [partials * 4], 'float32', self.device);
  try {
    run(op, 'gn-sum', new Operands().add('x', self, op).addVec4('st', st), () => gnPartialSource('sum'), head, grid(op, partials, SHORT_WG));
    const m = new Operands().addVec4('st', st).add('mean', mean, op);
    run(op, 'gn-mean', m, () => gnRowSource('mean', m), head, grid(op, rows, SHORT_WG));
    run(op, 'gn-m2', new Operands().add('x', self, op).add('mean', mean, op).addVec4('st', st), () => gnPartialSource('m2'), head, grid(op, partials, SHORT_WG));
    const v = new Operands().addVec4('st', st).add('invstd', rstd, op);
    run(op, 'gn-rstd', v, () => gnRowSource('rstd', v), head, grid(op, rows, SHORT_WG));
    const app = new Operands().add('out', out, op).add('x', self, op).add('mean', mean, op).add('invstd', rstd, op).add('w', weight, op).add('b', bias, op);
    run(op, 'gn-apply', app, () => gnApplySource(app), head, grid(op, out.numel, SHORT_WG));
  } finally {
    st.release();
  }
}

function groupNormBackwardRun(
  gradInput: TensorImpl | null,
  gradWeight: TensorImpl | null,
  gradBias: TensorImpl | null,
  grad: TensorImpl,
  self: TensorImpl,
  mean: TensorImpl,
  rstd: TensorImpl,
  weight: TensorImpl | null,
  groups: number,
): void {
  const op = 'native_group_norm_backward';
  const rows = self.sizes[0] * groups;
  const { head, partials } = gnHead(self, groups, 0);
  const st = TensorImpl.empty(op, [partials * 4], 'float32', self.device);
  const rowTotals = gradInput ? TensorImpl.empty(op, [rows * 4], 'float32', self.device) : null;
  try {
    run(op, 'gn-grad', new Operands().add('gy', grad, op).add('x', self, op).add('mean', mean, op).addVec4('st', st), () => gnPartialSource('grad'), head, grid(op, partials, SHORT_WG));
    if (gradInput && rowTotals) {
      const r = new Operands().addVec4('st', st).add('rstd', rstd, op).add('w', weight, op).addVec4('rows', rowTotals);
      run(op, 'gnb-rows', r, () => gnRowSource('grad', r), head, grid(op, rows, SHORT_WG));
      const app = new Operands().add('gi', gradInput, op).add('gy', grad, op).add('x', self, op).add('mean', mean, op).add('rstd', rstd, op).add('w', weight, op).addVec4('rows', rowTotals);
      run(op, 'gnb-input', app, () => gnBackwardInputSource(app), head, grid(op, gradInput.numel, SHORT_WG));
    }
    if (gradWeight || gradBias) {
      const pr = new Operands().addVec4('st', st).add('rstd', rstd, op).add('gw', gradWeight, op).add('gb', gradBias, op);
      run(op, 'gnb-params', pr, () => gnParamSource(pr), head, grid(op, self.sizes[1], SHORT_WG));
    }
  } finally {
    st.release();
    rowTotals?.release();
  }
}

/** [n, c, s] of a 4-d [N, C, H, W] operand. */
const ncs = (t: TensorImpl): [number, number, number] => [t.sizes[0], t.sizes[1], t.sizes[2] * t.sizes[3]];
const f32s = (...ts: (TensorImpl | null)[]) => ts.every((t) => !t || t.dtype === 'float32');

export const normalizationImpls: Pick<
  BackendImpls,
  | 'batchNorm'
  | 'batchNormBackward'
  | 'batchNormChannelsLast'
  | 'batchNormBackwardChannelsLast'
  | 'groupNormChannelsLast'
  | 'groupNormBackwardChannelsLast'
  | 'layerNorm'
  | 'layerNormBackward'
> = {
  batchNorm: (out, mean, invstd, self, weight, bias, runningMean, runningVar, n, c, s, training, momentum, eps) =>
    batchNormRun(out, mean, invstd, self, weight, bias, runningMean, runningVar, n, c, s, training, momentum, eps, false),
  batchNormBackward: (gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, n, c, s, training) =>
    batchNormBackwardRun(gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, n, c, s, training, false),
  // Note [WebGPU channels-last batch norm]
  batchNormChannelsLast: (out, mean, invstd, self, weight, bias, runningMean, runningVar, training, momentum, eps) => {
    if (!f32s(out, mean, invstd, self, weight, bias, runningMean, runningVar)) return false;
    batchNormRun(out, mean, invstd, self, weight, bias, runningMean, runningVar, ...ncs(self), training, momentum, eps, true);
  },
  batchNormBackwardChannelsLast: (gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, training) => {
    if (!f32s(gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd)) return false;
    batchNormBackwardRun(gradInput, gradWeight, gradBias, grad, self, weight, mean, invstd, ...ncs(self), training, true);
  },
  // Note [WebGPU channels-last group norm]
  groupNormChannelsLast: (out, mean, rstd, self, weight, bias, groups, eps) => {
    if (!f32s(out, mean, rstd, self, weight, bias)) return false;
    groupNormRun(out, mean, rstd, self, weight, bias, groups, eps);
  },
  groupNormBackwardChannelsLast: (gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight, groups) => {
    if (!f32s(gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight)) return false;
    groupNormBackwardRun(gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight, groups);
  },
  layerNorm: (out, mean, rstd, self, weight, bias, rows, k, eps) => {
    const op = 'native_layer_norm';
    if (rows === 0) return;
    const chunks = chunksFor(rows, k);
    if (chunks === 1) {
      const ops = new Operands().add('out', out, op).add('mean', mean, op).add('rstd', rstd, op).add('x', self, op).add('w', weight, op).add('b', bias, op);
      run(op, 'ln', ops, () => layerNormSource(ops), [rows, k, 0, 0, f32Word(eps)], grid(op, rows, 1));
      return;
    }
    // few long rows: batch norm's passes with n = 1, c = rows, s = k (layerNormApplySource)
    const head = [1, rows, k, 0, f32Word(eps), chunks, Math.ceil(k / chunks)];
    const st = TensorImpl.empty(op, [rows * chunks * 4], 'float32', self.device);
    try {
      run(op, 'bn-stats', new Operands().add('x', self, op).addVec4('st', st), bnStatsSource, head, grid(op, rows * chunks, 1));
      const fin = new Operands().addVec4('st', st).add('mean', mean, op).add('invstd', rstd, op);
      run(op, 'bn-final|true', fin, () => bnFinalizeSource(fin, true), head, grid(op, rows, SHORT_WG));
      const app = new Operands().add('out', out, op).add('x', self, op).add('mean', mean, op).add('invstd', rstd, op).add('w', weight, op).add('b', bias, op);
      run(op, 'ln-apply', app, () => layerNormApplySource(app), head, grid(op, rows * k, SHORT_WG));
    } finally {
      st.release();
    }
  },
  layerNormBackward: (gradInput, gradWeight, gradBias, grad, self, mean, rstd, weight, rows, k) => {
    const op = 'native_layer_norm_backward';
    if (k === 0) return;
    const chunks = chunksFor(rows, k);
    if (gradInput && rows > 0 && chunks === 1) {
      const ops = new Operands().add('gi', gradInput, op).add('gy', grad, op).add('x', self, op).add('mean', mean, op).add('rstd', rstd, op).add('w', weight, op);
      run(op, 'lnbi', ops, () => layerNormBackwardInputSource(ops), [rows, k], grid(op, rows, 1));
    } else if (gradInput && rows > 0) {
      // few long rows: the row sums in pieces, their totals (batch norm's pass), then per element
      const head = [1, rows, k, 0, 0, chunks, Math.ceil(k / chunks)];
      const st = TensorImpl.empty(op, [rows * chunks * 4], 'float32', self.device);
      try {
        const sums = new Operands().add('gy', grad, op).add('x', self, op).add('mean', mean, op).add('rstd', rstd, op).add('w', weight, op).addVec4('st', st);
        run(op, 'lnb-sums', sums, () => layerNormBackwardSumsSource(sums), head, grid(op, rows * chunks, 1));
        const tot = new Operands().addVec4('st', st);
        run(op, 'bnb-totals', tot, () => bnBackwardTotalsSource(tot), head, grid(op, rows, SHORT_WG));
        const app = new Operands().add('gi', gradInput, op).add('gy', grad, op).add('x', self, op).add('mean', mean, op).add('rstd', rstd, op).add('w', weight, op).addVec4('st', st);
        run(op, 'lnb-apply', app, () => layerNormBackwardApplySource(app), head, grid(op, rows * k, SHORT_WG));
      } finally {
        st.release();
      }
    }
    if (gradWeight || gradBias) {
      const ops = new Operands().add('gw', gradWeight, op).add('gb', gradBias, op).add('gy', grad, op).add('x', self, op).add('mean', mean, op).add('rstd', rstd, op);
      const short = rows <= SHORT;
      run(op, `lnbp|${short}`, ops, () => layerNormBackwardParamsSource(ops, short), [rows, k], short ? grid(op, k, SHORT_WG) : grid(op, k, 1));
    }
  },
};
