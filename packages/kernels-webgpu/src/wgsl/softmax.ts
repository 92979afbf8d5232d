import { PRELUDE } from './prelude';

/**
 * Note [WebGPU softmax kernels]
 * Softmax, log-softmax and their backward over contiguous float32 operands viewed as
 * [outer, size, inner] (Note [NN kernels take contiguous float32/float64 operands] in core).
 * A row (an (outer, inner) pair, whose `size` elements lie `inner` apart) is reduced by a
 * segment of T invocations of a 256-wide workgroup, T a power of two chosen from the row
 * length (up to 256: one workgroup per long row; down to 1 for rows of a few elements, so a
 * workgroup then serves 256 / T rows instead of idling). Each invocation folds a strided
 * slice of its row (j = t, t + T, ...), the segment combines the slices by a tree in
 * workgroup memory, and the row is then written by the same invocations. Forward is three
 * sweeps over the row (max, sum of exp(x - max), write), as the CPU kernel: the max is
 * subtracted first so nothing overflows; a row of only -inf uses max 0 (sum 0, result NaN
 * as PyTorch), a NaN max makes the row NaN. Backward is one tree sum (sum(g * y) for
 * softmax, sum(g) for log-softmax) and a write. Workgroups past the x limit of a dispatch
 * continue on y (`grid`). Geometry and T are uniform words (the tree's loop bound is
 * uniform, so its barriers are in uniform control flow): one pipeline per op serves every
 * shape.
 *
 * Rows of the last dim (inner 1) whose length and offsets are multiples of 4 run the vec4
 * form of the same kernel: the words then count vec4s, and each load covers 4 elements.
 *
 * Words: 0 rows, 1 size, 2 inner, 3 T, 4 out offset, 5 and 6 input offsets (elements, or
 * vec4s).
 */
export const SOFTMAX_WG = 256;

export function softmaxSource(log: boolean, backward: boolean, alias: readonly number[], vec4: boolean): string {
  const wg = SOFTMAX_WG;
  const ty = vec4 ? 'vec4<f32>' : 'f32';
  // per-element expressions: horizontal max/sum of a loaded value, exp, a scalar as a value
  const hmax = (v: string) => (vec4 ? `max_nan(max_nan(${v}.x, ${v}.y), max_nan(${v}.z, ${v}.w))` : v);
  const hsum = (v: string) => (vec4 ? `((${v}.x + ${v}.y) + (${v}.z + ${v}.w))` : v);
  const exp = vec4 ? 'exp4' : 'exp_f';
  const splat = (x: string) => (vec4 ? `vec4<f32>(${x})` : x);
  const operands = backward
    ? [{ name: 'in_x', elem: ty }, { name: 'in_y', elem: ty }]
    : [{ name: 'in_x', elem: ty }];
  const { decls, rename } = storageDecls(operands, alias, 1);
  const tree = (name: string, combine: string) => [
    `fn ${name}(lid: u32, seg: u32, v: f32) -> f32 {`,
    '  part[lid] = v;',
    '  workgroupBarrier();',
    '  let t = lid - seg;',
    '  for (var s = p(3u) >> 1u; s > 0u; s = s >> 1u) {',
    `    if (t < s) { part[lid] = ${combine}; }`,
    '    workgroupBarrier();',
    '  }',
    '  let r = part[seg];',
    '  workgroupBarrier();',
    '  return r;',
    '}',
  ];
  const lines = [
    `@group(0) @binding(0) var<storage, read_write> b0: array<${ty}>;`,
    ...decls,
    'struct Params { w: array<vec4<u32>, 2> };',
    `@group(0) @binding(${1 + decls.length}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    `var<workgroup> part: array<f32, ${wg}>;`,
    ...tree('sm_tree_sum', 'part[lid] + part[lid + s]'),
  ];
  if (!backward) {
    lines.push(
      ...tree('sm_tree_max', 'max_nan(part[lid], part[lid + s])'),
      // log of a sum that is >= 1 when finite: log1p of the exact s - 1 near 1 (WGSL's log
      // has only an absolute error bound there).
      'fn sm_log_sum(s: f32) -> f32 {',
      '  if (isnan_f(s)) { return s; }',
      '  if (s < 2.0) { return log1p_f(s - 1.0); }',
      '  return log(s);',
      '}',
    );
  }
  lines.push(
    `@compute @workgroup_size(${wg})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    '  let T = p(3u);',
    '  let t = lid % T;',
    '  let seg = lid - t;',
    `  let row = (wid.x + wid.y * nwg.x) * (${wg}u / T) + lid / T;`,
    '  let valid = row < p(0u);',
    '  let size = p(1u);',
    '  let inner = p(2u);',
    '  let rel = (row / inner) * size * inner + row % inner;',
    '  let ob = p(4u) + rel;',
    '  let xb = p(5u) + rel;',
  );
  const loop = (body: string) => `for (var j = t; j < size; j += T) { ${body} }`;
  if (!backward) {
    lines.push(
      '  var m = -inf_f();',
      `  if (valid) { ${loop(`let v = in_x[xb + j * inner]; m = max_nan(m, ${hmax('v')});`)} }`,
      '  m = sm_tree_max(lid, seg, m);',
      '  if (isinf_f(m) && m < 0.0) { m = 0.0; }',
      '  var s = 0.0;',
      `  if (valid) { ${loop(`let e = ${exp}(in_x[xb + j * inner] - ${splat('m')}); s += ${hsum('e')};`)} }`,
      '  s = sm_tree_sum(lid, seg, s);',
      '  if (valid) {',
      log
        ? `    let shift = m + sm_log_sum(s); ${loop(`b0[ob + j * inner] = in_x[xb + j * inner] - ${splat('shift')};`)}`
        : `    ${loop(`b0[ob + j * inner] = ${exp}(in_x[xb + j * inner] - ${splat('m')}) / ${splat('s')};`)}`,
      '  }',
    );
  } else {
    // in_x grad, in_y output; word 6 is the output's offset
    lines.push(
      '  let yb = p(6u) + rel;',
      '  var a = 0.0;',
      `  if (valid) { ${loop(log ? `let g = in_x[xb + j * inner]; a += ${hsum('g')};` : `let gy = in_x[xb + j * inner] * in_y[yb + j * inner]; a += ${hsum('gy')};`)} }`,
      '  a = sm_tree_sum(lid, seg, a);',
      '  if (valid) {',
      `    ${loop(
        log
          ? `b0[ob + j * inner] = in_x[xb + j * inner] - ${exp}(in_y[yb + j * inner]) * ${splat('a')};`
          : `let y = in_y[yb + j * inner]; b0[ob + j * inner] = y * (in_x[xb + j * inner] - ${splat('a')});`,
      )}`,
      '  }',
    );
  }
  lines.push('}');
  return `${PRELUDE}\n${rename(lines.join('\n'))}`;
}

/**
 * Storage declarations of a kernel's operands from binding `first`, all read_write (WebGPU
 * tracks usage per buffer, and tensors are sub-ranges of shared buffers, so a read-only
 * binding next to a writable one of the same buffer would be invalid). Operands that share
 * a block (`alias[i]`: the first operand with operand i's block) are declared once, and
 * `rename` points the later names at the first.
 */
export function storageDecls(
  operands: readonly { name: string; elem: string }[],
  alias: readonly number[],
  first: number,
): { decls: string[]; rename: (src: string) => string } {
  const decls: string[] = [];
  let b = first;
  operands.forEach((o, i) => {
    if (alias[i] === i) decls.push(`@group(0) @binding(${b++}) var<storage, read_write> ${o.name}: array<${o.elem}>;`);
  });
  const renames = operands.flatMap((o, i) => (alias[i] === i ? [] : [[new RegExp(`\\b${o.name}\\b`, 'g'), operands[alias[i]].name] as const]));
  return { decls, rename: (src) => renames.reduce((s, [re, to]) => s.replace(re, to), src) };
}
