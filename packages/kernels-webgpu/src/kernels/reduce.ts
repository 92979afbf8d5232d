import { DTypeError, type ArgReduceImpl, type ReduceImpl, type TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, kindOf, loadExpr, storeStmt, valueType, type Kind } from '../wgsl/kinds';
import { PRELUDE } from '../wgsl/prelude';
import { bindingOf, grid } from './launch';
import { fill } from './pointwise';

/**
 * Note [WebGPU reductions]
 * `sum prod amax amin`: one workgroup of RED_WG invocations per output element. Each
 * invocation folds a strided slice of the reduced elements (j = lid, lid + RED_WG, ...),
 * then the workgroup combines the partial results by a tree in workgroup memory, so a
 * reduction of n elements costs n / RED_WG sequential steps plus log2(RED_WG). Geometry is
 * data as in Note [Pointwise kernel layout]: kept dims (sizes, input and output strides) and
 * reduced dims (sizes, input strides) are uniform words, one pipeline per rank pair.
 * (A second pass over workgroups, for a few outputs of very many elements each, is left
 * for later: today such a reduction uses as many workgroups as outputs.)
 * `argmax argmin max(dim) min(dim)`: one invocation per output walks the dim in order, so
 * the first extreme wins ties and the first NaN wins over numbers, as PyTorch's CPU kernels;
 * indices are written as int64 (low word, high word 0).
 */
const RED_WG = 256;

type Letter = 'f' | 'i' | 'u' | 'b';
interface ReduceRow {
  readonly identity: Partial<Record<Letter, string>>;
  readonly combine: Partial<Record<Letter, string>>;
}

const LETTER: Record<Kind, Letter> = { f32: 'f', i32: 'i', u8: 'u', bool: 'b', i64: 'i', u16: 'u' };

const REDUCE_OPS: Record<'sum' | 'prod' | 'amax' | 'amin', ReduceRow> = {
  sum: { identity: { f: '0.0', i: '0', u: '0u', b: '0u' }, combine: { f: 'a + b', i: 'a + b', u: '(a + b) & 255u', b: 'min(a + b, 1u)' } },
  prod: { identity: { f: '1.0', i: '1', u: '1u', b: '1u' }, combine: { f: 'a * b', i: 'a * b', u: '(a * b) & 255u', b: 'a & b' } },
  amax: {
    identity: { f: '-inf_f()', i: 'i32(-2147483648)', u: '0u', b: '0u' },
    combine: { f: 'max_nan(a, b)', i: 'max(a, b)', u: 'max(a, b)', b: 'max(a, b)' },
  },
  amin: {
    identity: { f: 'inf_f()', i: '2147483647', u: '255u', b: '1u' },
    combine: { f: 'min_nan(a, b)', i: 'min(a, b)', u: 'min(a, b)', b: 'min(a, b)' },
  },
};

const sources = new Map<string, string>();

function reduceSource(name: keyof typeof REDUCE_OPS, k: Kind, nk: number, nr: number, same: boolean): string {
  const row = REDUCE_OPS[name];
  const L = LETTER[k];
  const t = valueType(k);
  const words = 4 + 3 * nk + 2 * nr;
  const lines = [
    PRELUDE,
    bindingDecl(0, k, true, false),
    ...(same ? [] : [bindingDecl(1, k, false, false)]),
    `struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`,
    `@group(0) @binding(${same ? 1 : 2}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    `var<workgroup> part: array<${t}, ${RED_WG}>;`,
    `fn combine(a: ${t}, b: ${t}) -> ${t} { return ${row.combine[L]}; }`,
    `@compute @workgroup_size(${RED_WG})`,
    'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
    '  let o = wid.x + wid.y * nwg.x;',
    '  let nOut = p(0u);',
    '  let nRed = p(1u);',
    '  var inBase = p(2u);',
    '  var outOff = p(3u);',
    '  var rem = o;',
  ];
  for (let d = nk - 1; d >= 0; d--) {
    lines.push(`  { let s = p(${4 + d}u); let c = rem % s; rem = rem / s; inBase += c * p(${4 + nk + d}u); outOff += c * p(${4 + 2 * nk + d}u); }`);
  }
  lines.push(`  var acc: ${t} = ${row.identity[L]};`);
  lines.push('  if (o < nOut) {');
  lines.push(`    for (var j = lid; j < nRed; j += ${RED_WG}u) {`);
  lines.push('      var r = j; var off = inBase;');
  for (let d = nr - 1; d >= 0; d--) {
    lines.push(`      { let s = p(${4 + 3 * nk + d}u); let c = r % s; r = r / s; off += c * p(${4 + 3 * nk + nr + d}u); }`);
  }
  lines.push(`      acc = combine(acc, ${loadExpr(same ? 0 : 1, k, 'off', same)});`);
  lines.push('    }');
  lines.push('  }');
  lines.push('  part[lid] = acc;');
  lines.push('  workgroupBarrier();');
  lines.push(`  for (var s = ${RED_WG / 2}u; s > 0u; s = s >> 1u) {`);
  lines.push('    if (lid < s) { part[lid] = combine(part[lid], part[lid + s]); }');
  lines.push('    workgroupBarrier();');
  lines.push('  }');
  lines.push(`  if (lid == 0u && o < nOut) { ${storeStmt(0, k, 'outOff', 'part[0]')} }`);
  lines.push('}');
  return lines.join('\n');
}

function reduce(name: keyof typeof REDUCE_OPS): ReduceImpl {
  return (out, self, dims) => {
    const k = kindOf(name, self.dtype);
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
    const nRed = red.reduce((n, d) => n * self.sizes[d], 1);
    const same = out.storage.data === self.storage.data;
    const key = `${name}|${k}|${kept.length}|${red.length}|${same}`;
    let src = sources.get(key);
    if (!src) sources.set(key, (src = reduceSource(name, k, kept.length, red.length, same)));
    const params = new Uint32Array(4 + 3 * kept.length + 2 * red.length);
    let w = 0;
    params[w++] = out.numel;
    params[w++] = nRed;
    params[w++] = self.storageOffset;
    params[w++] = out.storageOffset;
    for (const d of kept) params[w++] = self.sizes[d];
    for (const d of kept) params[w++] = self.strides[d];
    for (const d of kept) params[w++] = out.strides[d];
    for (const d of red) params[w++] = self.sizes[d];
    for (const d of red) params[w++] = self.strides[d];
    const bindings = same ? [bindingOf(out)] : [bindingOf(out), bindingOf(self)];
    commandQueue(name).dispatch(src, bindings, params, grid(name, out.numel, 1));
  };
}

export const reduceImpls = { sum: reduce('sum'), prod: reduce('prod'), amax: reduce('amax'), amin: reduce('amin') };

// ---- arg reductions ----

function argSource(max: boolean, k: Kind, nd: number, withValues: boolean): string {
  const t = valueType(k);
  const words = 7 + 4 * nd;
  // bindings: 0 indices (int64 words), 1 values (if any), then self
  const selfB = withValues ? 2 : 1;
  const better = k === 'f32' ? `(isnan_f(v) && !isnan_f(best)) || (!isnan_f(best) && v ${max ? '>' : '<'} best)` : `v ${max ? '>' : '<'} best`;
  const lines = [
    PRELUDE,
    bindingDecl(0, 'i64', true, false),
    ...(withValues ? [bindingDecl(1, k, true, false)] : []),
    bindingDecl(selfB, k, false, false),
    `struct Params { w: array<vec4<u32>, ${Math.ceil(words / 4)}> };`,
    `@group(0) @binding(${selfB + 1}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    '@compute @workgroup_size(64)',
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    '  let o = gid.x + gid.y * nwg.x * 64u;',
    '  if (o >= p(0u)) { return; }',
    '  let n = p(1u);',
    '  var inOff = p(2u);',
    '  let dimStride = p(3u);',
    '  var idxOff = p(4u);',
    '  var valOff = p(5u);',
    '  var rem = o;',
  ];
  for (let d = nd - 1; d >= 0; d--) {
    lines.push(`  { let s = p(${7 + d}u); let c = rem % s; rem = rem / s; inOff += c * p(${7 + nd + d}u); idxOff += c * p(${7 + 2 * nd + d}u); valOff += c * p(${7 + 3 * nd + d}u); }`);
  }
  lines.push(`  var best: ${t} = ${loadExpr(selfB, k, 'inOff')};`);
  lines.push('  var bi = 0u;');
  lines.push('  for (var j = 1u; j < n; j++) {');
  lines.push(`    let v = ${loadExpr(selfB, k, 'inOff + j * dimStride')};`);
  lines.push(`    if (${better}) { best = v; bi = j; }`);
  lines.push('  }');
  lines.push(`  ${storeStmt(0, 'i64', 'idxOff', 'i32(bi)')}`);
  if (withValues) lines.push(`  ${storeStmt(1, k, 'valOff', 'best')}`);
  lines.push('}');
  return lines.join('\n');
}

function argReduce(name: string, max: boolean): ArgReduceImpl {
  return (values, indices, self, dim) => {
    const k = kindOf(name, self.dtype);
    if (indices.numel === 0) return;
    if (self.sizes[dim] === 0) return;
    const nd = self.sizes.length;
    const key = `arg|${max}|${k}|${nd}|${values !== null}`;
    let src = sources.get(key);
    if (!src) sources.set(key, (src = argSource(max, k, nd, values !== null)));
    const params = new Uint32Array(7 + 4 * nd);
    params[0] = indices.numel;
    params[1] = self.sizes[dim];
    params[2] = self.storageOffset;
    params[3] = self.strides[dim];
    params[4] = indices.storageOffset;
    params[5] = values ? values.storageOffset : 0;
    for (let d = 0; d < nd; d++) {
      const size = d === dim ? 1 : self.sizes[d];
      params[7 + d] = size;
      params[7 + nd + d] = d === dim ? 0 : self.strides[d];
      params[7 + 2 * nd + d] = d === dim ? 0 : indices.strides[d];
      params[7 + 3 * nd + d] = values && d !== dim ? values.strides[d] : 0;
    }
    const operands: TensorImpl[] = values ? [indices, values, self] : [indices, self];
    const blocks = operands.map((t) => t.storage.data);
    if (new Set(blocks).size !== blocks.length) {
      throw new DTypeError(`${name}: outputs that share storage with the input are not supported on webgpu yet`);
    }
    commandQueue(name).dispatch(src, operands.map(bindingOf), params, grid(name, indices.numel, 64));
  };
}

export const argReduceImpls = {
  argmax: argReduce('argmax', true),
  argmin: argReduce('argmin', false),
  maxDim: argReduce('max', true),
  minDim: argReduce('min', false),
};
