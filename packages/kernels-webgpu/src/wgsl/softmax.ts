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

/**
 * The log of a sum that is >= 1 when finite: log1p of the exact s - 1 near 1 (WGSL's log has
 * only an absolute error bound there).
 */
const SM_LOG_SUM = [
  'fn sm_log_sum(s: f32) -> f32 {',
  '  if (isnan_f(s)) { return s; }',
  '  if (s < 2.0) { return log1p_f(s - 1.0); }',
  '  return log(s);',
  '}',
].join('\n');

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
      SM_LOG_SUM,
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
 * Note [WebGPU barrier-free softmax]
 * On a software adapter (`kernelTuning().barrierFree`, Note [Kernel tuning per adapter]) a
 * workgroup barrier costs about 1 ms per workgroup, more than the arithmetic of a row of a
 * few thousand elements, so there a row is one invocation, with no workgroup memory:
 * invocation `row` sweeps its row (elements `inner` apart; vec4s when the row is contiguous
 * and its length and offsets are multiples of 4) as the tree kernel's slices do, and
 * adjacent invocations take adjacent rows (for an inner dim, adjacent addresses). A software
 * adapter runs invocations as SIMD lanes, so lanes of one batch run the same loop trip counts.
 * Forward softmax is max sweep, a sweep that writes e = exp(x - max) and sums it, and a
 * sweep that divides the output in place by the sum: one exp per element (the output has
 * its own block: `inputAliases`). Log-softmax: max, sum of exp, write x - (max + log sum).
 * The max is a plain `max` (NaN-ness is not needed there): a NaN in the row makes its exp,
 * hence the sum, hence every result NaN, as the tree kernel's max_nan does; a row of -inf
 * uses max 0 as there. Backward: one sum sweep and one write sweep. The workgroup size is
 * a pipeline constant chosen from the row count (`wg`) so that few rows still spread over
 * several workgroups (CPU threads).
 *
 * Layouts (`RowLayout`): 'scalar'; 'vec4', a contiguous row (inner 1) whose length and
 * offsets are multiples of 4, loaded 4 elements at a time and reduced horizontally at the
 * end; 'vec4cols', an inner dim whose length and offsets are multiples of 4: an invocation
 * takes 4 adjacent rows (adjacent inner indices, contiguous in memory) as the lanes of a
 * vec4, reduced per lane (rows and inner then count groups of 4).
 *
 * Words: 0 rows, 1 size, 2 inner, 3 unused, 4 out offset, 5 and 6 input offsets.
 */
export type RowLayout = 'scalar' | 'vec4' | 'vec4cols';

export function softmaxRowSource(log: boolean, backward: boolean, alias: readonly number[], layout: RowLayout, wg: number): string {
  const vec4 = layout !== 'scalar';
  const cols = layout === 'vec4cols';
  const ty = vec4 ? 'vec4<f32>' : 'f32';
  // a vec4 of 4 elements of one row: reduced horizontally; of 4 rows (cols): per lane
  const hmax = (v: string) => (layout === 'vec4' ? `max(max(${v}.x, ${v}.y), max(${v}.z, ${v}.w))` : v);
  const hsum = (v: string) => (layout === 'vec4' ? `((${v}.x + ${v}.y) + (${v}.z + ${v}.w))` : v);
  const exp = vec4 ? 'exp4' : 'exp_f';
  const splat = (x: string) => (layout === 'vec4' ? `vec4<f32>(${x})` : x);
  const zero = vec4 ? 'vec4<f32>(0.0)' : '0.0';
  const operands = backward
    ? [{ name: 'in_x', elem: ty }, { name: 'in_y', elem: ty }]
    : [{ name: 'in_x', elem: ty }];
  const { decls, rename } = storageDecls(operands, alias, 1);
  // one sweep over the row: `j` the element's offset from the row's start
  const loop = (body: string) => `  for (var j = 0u; j < end; j += inner) { ${body} }`;
  const lines = [
    `@group(0) @binding(0) var<storage, read_write> b0: array<${ty}>;`,
    ...decls,
    'struct Params { w: array<vec4<u32>, 2> };',
    `@group(0) @binding(${1 + decls.length}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
  ];
  if (!backward && log) {
    lines.push(
      SM_LOG_SUM,
    );
  }
  lines.push(
    `@compute @workgroup_size(${wg})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    `  let row = (wid.x + wid.y * nwg.x) * ${wg}u + lid;`,
    '  if (row >= p(0u)) { return; }',
    '  let inner = p(2u);',
    '  let end = p(1u) * inner;',
    '  let rel = (row / inner) * end + row % inner;',
    '  let ob = p(4u) + rel;',
    '  let xb = p(5u) + rel;',
  );
  if (!backward) {
    lines.push(
      `  var m4 = ${vec4 ? 'vec4<f32>(-inf_f())' : '-inf_f()'};`,
      loop('m4 = max(m4, in_x[xb + j]);'),
      `  var m = ${hmax('m4')};`,
      cols ? '  m = select(m, vec4<f32>(0.0), m == vec4<f32>(-inf_f()));' : '  if (isinf_f(m) && m < 0.0) { m = 0.0; }',
      `  let mv = ${splat('m')};`,
      `  var s4 = ${zero};`,
    );
    if (log) {
      lines.push(
        loop(`s4 += ${exp}(in_x[xb + j] - mv);`),
        cols
          ? '  let shift = m + vec4<f32>(sm_log_sum(s4.x), sm_log_sum(s4.y), sm_log_sum(s4.z), sm_log_sum(s4.w));'
          : `  let shift = ${splat(`m + sm_log_sum(${hsum('s4')})`)};`,
        loop('b0[ob + j] = in_x[xb + j] - shift;'),
      );
    } else {
      lines.push(
        loop(`let e = ${exp}(in_x[xb + j] - mv); b0[ob + j] = e; s4 += e;`),
        `  let s = ${splat(hsum('s4'))};`,
        loop('b0[ob + j] = b0[ob + j] / s;'),
      );
    }
  } else {
    // in_x grad, in_y output
    lines.push('  let yb = p(6u) + rel;', `  var a4 = ${zero};`);
    if (log) {
      lines.push(
        loop('a4 += in_x[xb + j];'),
        `  let a = ${splat(hsum('a4'))};`,
        loop(`b0[ob + j] = in_x[xb + j] - ${exp}(in_y[yb + j]) * a;`),
      );
    } else {
      lines.push(
        loop('a4 += in_x[xb + j] * in_y[yb + j];'),
        `  let a = ${splat(hsum('a4'))};`,
        loop('let y = in_y[yb + j]; b0[ob + j] = y * (in_x[xb + j] - a);'),
      );
    }
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
