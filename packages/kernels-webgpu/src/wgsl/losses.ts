import type { PointwiseLossKind } from '@torch-ts/core';
import { PRELUDE } from './prelude';
import { storageDecls } from './softmax';
import { deviceErrorWgsl } from '../runtime/device-errors';

/**
 * Note [WebGPU loss kernels]
 * nll_loss and the pointwise losses (mse, smooth_l1, bce, bce-with-logits) on contiguous
 * float32 operands (Note [NN kernels take contiguous float32/float64 operands]; nll's targets
 * are int64, read as their low word, a high word that is not the low word's sign extension
 * making the target out of range). Each loss is an element function `ls_elem(k)` returning
 * (loss, weight) of element k (nll: the target's weight, added up as total_weight), compiled
 * into one of these kernels:
 *  - 'none':    one invocation per element writes out[k] (reduction 'none');
 *  - 'direct':  one workgroup folds every element (invocation i takes k = i, i + WG, ...),
 *               combines the (sum, weight) pairs by a tree in workgroup memory and writes
 *               the reduced loss and total_weight: used when the elements fit in a few
 *               sweeps of one workgroup (a training batch);
 *  - 'partial' + 'final': for more elements, G workgroups write their (sum, weight) pairs
 *               to a scratch tensor, and one workgroup combines them in a fixed order.
 * Both reductions are deterministic. The reduced value is written by `mode` (word 10):
 * 0 nothing (reduction 'none': nll still writes total_weight), 1 mean (nll: divided by the
 * total weight, 0 / 0 = NaN when every target is ignored; the others by the element count),
 * 2 sum. An nll target outside [0, c) that is not ignore_index, and a bce input outside
 * [0, 1], are reported to the device-error record (Note [Device-side errors]), raised at the
 * next read as the CPU kernel raises them at once; the faulty nll element reads nothing and
 * counts as NaN.
 *
 * Words: 0 N, then nll: 1 c, 2 s, 3 self, 4 target, 5 weight offsets, 6-7 ignore_index
 * (lo, hi); pointwise: 1 self, 2 target, 3 weight, 4 pos_weight offsets, 5 0.5 / beta,
 * 6 0.5 * beta, 7 beta; then 8 out offset, 9 total_weight offset, 10 mode, 11 G.
 */
export type LossKind = 'nll' | PointwiseLossKind;
export type LossStage = 'none' | 'direct' | 'partial' | 'final';
export const LOSS_WORDS = 12;

const HEADER = ['struct Params { w: array<vec4<u32>, 3> };', 'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }', 'fn ls_pf(i: u32) -> f32 { return bitcast<f32>(p(i)); }'];

/**
 * Whether a loss's element function reports data-dependent errors (Note [Device-side
 * errors]): an nll target out of range, a bce input outside [0, 1] (or NaN), which PyTorch
 * raises. The record is bound after the inputs.
 */
export function reportsErrors(kind: LossKind): boolean {
  return kind === 'nll' || kind === 'bce';
}

/** The inputs of a loss's element function, in binding order. */
export function lossInputs(kind: LossKind, hasW: boolean, hasPw: boolean): { name: string; elem: string }[] {
  const out = [{ name: 'in_x', elem: 'f32' }, { name: 'in_t', elem: kind === 'nll' ? 'u32' : 'f32' }];
  if (hasW) out.push({ name: 'in_w', elem: 'f32' });
  if (hasPw) out.push({ name: 'in_pw', elem: 'f32' });
  return out;
}

function elemFn(kind: LossKind, hasW: boolean, hasPw: boolean, errorCode: number): string[] {
  const lines: string[] = [];
  switch (kind) {
    case 'nll':
      lines.push(
        // the class of target k: -1 ignored, -2 out of range
        'fn ls_class_of(k: u32) -> i32 {',
        '  let lo = in_t[2u * (p(4u) + k)];',
        '  let hi = in_t[2u * (p(4u) + k) + 1u];',
        '  if (lo == p(6u) && hi == p(7u)) { return -1; }',
        '  if (hi != 0u || lo >= p(1u)) { return -2; }',
        '  return i32(lo);',
        '}',
        'fn ls_elem(k: u32) -> vec2<f32> {',
        '  let cls = ls_class_of(k);',
        '  if (cls == -1) { return vec2<f32>(0.0, 0.0); }',
        '  if (cls < 0) {',
        `    report_error(${errorCode}u, in_t[2u * (p(4u) + k)], in_t[2u * (p(4u) + k) + 1u], 0u, 0u);`,
        '    return vec2<f32>(nan_f(), 0.0);',
        '  }',
        '  let c = u32(cls);',
        `  let wt = ${hasW ? 'in_w[p(5u) + c]' : '1.0'};`,
        '  let s = p(2u);',
        '  let b = k / s;',
        '  return vec2<f32>(-wt * in_x[p(3u) + (b * p(1u) + c) * s + k % s], wt);',
        '}',
      );
      return lines;
    case 'mse':
      lines.push('fn ls_loss(x: f32, t: f32, k: u32) -> f32 { let d = x - t; return d * d; }');
      break;
    case 'smoothL1':
      lines.push('fn ls_loss(x: f32, t: f32, k: u32) -> f32 { let d = abs(x - t); if (d < ls_pf(7u)) { return d * d * ls_pf(5u); } return d - ls_pf(6u); }');
      break;
    case 'bce':
      lines.push(
        // log(p) and log(1 - p), each clamped at -100 as PyTorch (a NaN stays NaN)
        'fn ls_clamp_log(v: f32) -> f32 { if (isnan_f(v)) { return v; } return max(v, -100.0); }',
        'fn ls_bce_log(x: f32) -> f32 { if (x == 0.0) { return -inf_f(); } if (isnan_f(x) || x < 0.0) { return nan_f(); } if (isinf_f(x)) { return x; } return log(x); }',
        'fn ls_loss(x: f32, t: f32, k: u32) -> f32 {',
        `  if (isnan_f(x) || x < 0.0 || x > 1.0) { report_error(${errorCode}u, 0u, 0u, 0u, 0u); }`,
        '  let lp = ls_clamp_log(ls_bce_log(x));',
        '  let l1p = ls_clamp_log(log1p_f(-x));',
        `  return ((t - 1.0) * l1p - t * lp)${hasW ? ' * in_w[p(3u) + k]' : ''};`,
        '}',
      );
      break;
    case 'bcewl':
      lines.push(
        'fn ls_loss(x: f32, t: f32, k: u32) -> f32 {',
        // log(sigmoid(x)) = min(x, 0) - log1p(exp(-|x|)), stable for every x
        '  let ls = min_nan(x, 0.0) - log1p_f(exp_f(-abs(x)));',
        `  let lw = ${hasPw ? '1.0 + (in_pw[p(4u) + k] - 1.0) * t' : '1.0'};`,
        `  return ((1.0 - t) * x - lw * ls)${hasW ? ' * in_w[p(3u) + k]' : ''};`,
        '}',
      );
      break;
  }
  lines.push('fn ls_elem(k: u32) -> vec2<f32> { return vec2<f32>(ls_loss(in_x[p(1u) + k], in_t[p(2u) + k], k), 0.0); }');
  return lines;
}

function treeFn(wg: number): string[] {
  return [
    `var<workgroup> part: array<vec2<f32>, ${wg}>;`,
    'fn ls_tree(lid: u32, v: vec2<f32>) -> vec2<f32> {',
    '  part[lid] = v;',
    '  workgroupBarrier();',
    `  for (var s = ${wg / 2}u; s > 0u; s = s >> 1u) {`,
    '    if (lid < s) { part[lid] = part[lid] + part[lid + s]; }',
    '    workgroupBarrier();',
    '  }',
    '  return part[0];',
    '}',
  ];
}

function finishFn(nll: boolean): string[] {
  return [
    'fn ls_finish(a: vec2<f32>) {',
    '  let mode = p(10u);',
    `  if (mode == 1u) { OUT[p(8u)] = a.x / ${nll ? 'a.y' : 'f32(p(0u))'}; }`,
    '  if (mode == 2u) { OUT[p(8u)] = a.x; }',
    ...(nll ? ['  TOTAL[p(9u)] = a.y;'] : []),
    '}',
  ];
}

/** The WGSL of one stage of a loss (Note [WebGPU loss kernels]); `alias` as storageDecls' (unused by 'final'). */
export function lossSource(
  kind: LossKind,
  stage: LossStage,
  hasW: boolean,
  hasPw: boolean,
  wg: number,
  alias: readonly number[],
  errorCode: number,
): string {
  const nll = kind === 'nll';
  const lines: string[] = [];
  let next = 0;
  let rename = (src: string) => src;
  if (stage === 'partial') lines.push(`@group(0) @binding(${next++}) var<storage, read_write> PART: array<vec2<f32>>;`);
  else lines.push(`@group(0) @binding(${next++}) var<storage, read_write> OUT: array<f32>;`);
  if (nll && (stage === 'direct' || stage === 'final')) lines.push(`@group(0) @binding(${next++}) var<storage, read_write> TOTAL: array<f32>;`);
  if (stage === 'final') lines.push(`@group(0) @binding(${next++}) var<storage, read_write> PART: array<vec2<f32>>;`);
  else {
    const d = storageDecls(lossInputs(kind, hasW, hasPw), alias, next);
    next += d.decls.length;
    lines.push(...d.decls);
    rename = d.rename;
    if (reportsErrors(kind)) lines.push(deviceErrorWgsl(next++));
  }
  lines.push(`@group(0) @binding(${next}) var<uniform> P: Params;`, ...HEADER);
  if (stage !== 'final') lines.push(...elemFn(kind, hasW, hasPw, errorCode));
  if (stage === 'none') {
    lines.push(
      '@compute @workgroup_size(64)',
      'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
      '  let k = gid.x + gid.y * nwg.x * 64u;',
      '  if (k < p(0u)) { OUT[p(8u) + k] = ls_elem(k).x; }',
      '}',
    );
    return `${PRELUDE}\n${rename(lines.join('\n'))}`;
  }
  lines.push(...treeFn(wg));
  if (stage !== 'partial') lines.push(...finishFn(nll));
  lines.push(
    `@compute @workgroup_size(${wg})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    '  var a = vec2<f32>(0.0, 0.0);',
  );
  if (stage === 'final') {
    lines.push(`  for (var i = lid; i < p(11u); i += ${wg}u) { a += PART[i]; }`);
  } else if (stage === 'direct') {
    lines.push(`  for (var k = lid; k < p(0u); k += ${wg}u) { a += ls_elem(k); }`);
  } else {
    lines.push(`  let stride = p(11u) * ${wg}u;`, `  for (var k = wid.x * ${wg}u + lid; k < p(0u); k += stride) { a += ls_elem(k); }`);
  }
  lines.push('  a = ls_tree(lid, a);');
  lines.push(stage === 'partial' ? '  if (lid == 0u) { PART[wid.x] = a; }' : '  if (lid == 0u) { ls_finish(a); }');
  lines.push('}');
  return `${PRELUDE}\n${rename(lines.join('\n'))}`;
}

/**
 * nll_loss's input gradient, one invocation per element (b, c, p) of [n, c, s]: -w[c] times
 * the output gradient (per element for reduction 'none'; grad / total_weight for 'mean')
 * where c is element (b, p)'s target, else 0. Ignored and out-of-range targets get 0 (an
 * out-of-range one is reported by the invocation of class 0: Note [Device-side errors]).
 * Words: 0 numel, 1 c, 2 s, 3 gradInput, 4 grad, 5 target, 6 weight, 7 total_weight
 * offsets, 8-9 ignore_index (lo, hi), 10 reduction.
 */
export function nllBackwardSource(hasW: boolean, alias: readonly number[], errorCode: number): string {
  const inputs = [
    { name: 'in_g', elem: 'f32' },
    { name: 'in_t', elem: 'u32' },
    { name: 'in_tw', elem: 'f32' },
    ...(hasW ? [{ name: 'in_w', elem: 'f32' }] : []),
  ];
  const { decls, rename } = storageDecls(inputs, alias, 1);
  const body = [
    '@group(0) @binding(0) var<storage, read_write> GI: array<f32>;',
    ...decls,
    deviceErrorWgsl(1 + decls.length),
    `@group(0) @binding(${2 + decls.length}) var<uniform> P: Params;`,
    ...HEADER,
    '@compute @workgroup_size(64)',
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    '  let i = gid.x + gid.y * nwg.x * 64u;',
    '  if (i >= p(0u)) { return; }',
    '  let c = p(1u);',
    '  let s = p(2u);',
    '  let sp = i % s;',
    '  let b = i / (c * s);',
    '  let cls = (i / s) % c;',
    '  let k = b * s + sp;',
    '  let lo = in_t[2u * (p(5u) + k)];',
    '  let hi = in_t[2u * (p(5u) + k) + 1u];',
    '  var v = 0.0;',
    '  let ignored = lo == p(8u) && hi == p(9u);',
    `  if (cls == 0u && !ignored && (hi != 0u || lo >= c)) { report_error(${errorCode}u, lo, hi, 0u, 0u); }`,
    '  if (lo == cls && hi == 0u && !ignored) {',
    `    let wt = ${hasW ? 'in_w[p(6u) + cls]' : '1.0'};`,
    '    let r = p(10u);',
    '    if (r == 0u) { v = -wt * in_g[p(4u) + k]; }',
    '    else if (r == 1u) { v = -wt * (in_g[p(4u)] / in_tw[p(7u)]); }',
    '    else { v = -wt * in_g[p(4u)]; }',
    '  }',
    '  GI[p(3u) + i] = v;',
    '}',
  ];
  return `${PRELUDE}\n${rename(body.join('\n'))}`;
}
