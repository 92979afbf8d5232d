import { TensorImpl, type BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, isFloatKind, kindOf, loadExpr, storeStmt, type Kind } from '../wgsl/kinds';
import { PRELUDE } from '../wgsl/prelude';
import { bindingOf, f32Word, grid } from './launch';
import { fill } from './pointwise';
import { chunksFor, lanesFor } from './reduce';

/**
 * Note [WebGPU row statistics]
 * var/std (with their means), logsumexp, the vector norms, all and any reduce the rows of a
 * contiguous input (Note [Row reductions] in core). One workgroup per row, of 64 or 256
 * invocations by the row's length (one invocation per row for short rows: `lanesFor` in
 * reduce.ts), in up to two phases:
 *   - a pre-phase reduces the row to one number every invocation then reads: the row's mean
 *     for var (so the squares are of deviations from the mean: the two-pass variance, as
 *     stable as the CPU kernel's), the row's max for logsumexp (so exp never overflows);
 *   - the main phase folds each element into a vec4 state, combined by a tree.
 * float32 rows whose length is a multiple of 4 (and start on a 16-byte boundary) are read
 * as vec4s, four elements per load.
 * Long rows with few of them are cut into pieces as the plain reductions are (Note [WebGPU
 * reductions]): pass 1 writes each piece's state (var: count, mean, M2; logsumexp: max, sum
 * of exp(x - max); the others: the folded value) into a float32 scratch, pass 2 combines a
 * row's pieces (Chan's formula for var, a rescale to the larger max for logsumexp) and
 * finishes. Everything is float32 (WebGPU has no float64), so results match the CPU kernel's
 * float64 ones to float32's tolerance.
 */
const SHORT_WG = 64;

type StatOp = 'var' | 'lse' | 'all' | 'any' | 'norm0' | 'norm1' | 'norm2' | 'normInf' | 'normNegInf' | 'normP';

interface StatRow {
  /** Pre-phase: identity and combine of f32 values, then its finish from (value, count). */
  readonly pre?: { readonly init: string; readonly comb: string; readonly finish: string };
  /** The main phase: state identity, fold of element x (with the pre value `pre`), combine within a piece. */
  readonly init: string;
  readonly fold: string;
  readonly wcomb: string;
  /** A piece's state from its folded state `s`, pre value and count `n`. */
  readonly piece: string;
  /** The combine of pieces' states, and the result (out, mean) of a row's state. */
  readonly ccomb: string;
  readonly finish: string;
}

const SUM_ROW = { init: 'vec4<f32>(0.0)', wcomb: 'a + b', piece: 's', ccomb: 'a + b' };

const STAT_OPS: Record<StatOp, StatRow> = {
  var: {
    pre: { init: '0.0', comb: 'a + b', finish: 'select(0.0, a / n, n > 0.0)' },
    init: 'vec4<f32>(0.0)',
    fold: 'let d = x - pre; return s + vec4<f32>(0.0, 0.0, d * d, 0.0);',
    wcomb: 'a + b',
    piece: 'vec4<f32>(n, pre, s.z, 0.0)',
    ccomb:
      'if (a.x == 0.0) { return b; } if (b.x == 0.0) { return a; } let n = a.x + b.x; let d = b.y - a.y; ' +
      'return vec4<f32>(n, a.y + d * (b.x / n), a.z + b.z + d * d * (a.x * (b.x / n)), 0.0);',
    // divisor max(n - correction, 0); x / 0 as IEEE (inf, or NaN for 0 / 0)
    finish:
      'let dv = max(s.x - corr(), 0.0); var v: f32; ' +
      'if (dv > 0.0) { v = s.z / dv; } else if (isnan_f(s.z) || s.z == 0.0) { v = nan_f(); } else { v = inf_f(); } ' +
      'if (takeSqrt()) { v = sqrt_f(v); } return vec2<f32>(v, s.y);',
  },
  lse: {
    pre: { init: '-inf_f()', comb: 'max_nan(a, b)', finish: 'a' },
    init: 'vec4<f32>(0.0)',
    fold: 'return s + vec4<f32>(0.0, exp_f(x - pre), 0.0, 0.0);',
    wcomb: 'a + b',
    // a piece whose max is infinite has no finite sum (exp(-inf - -inf) is NaN): 0, which the combine ignores
    piece: 'vec4<f32>(pre, select(s.y, 0.0, isinf_f(pre)), 0.0, 0.0)',
    ccomb:
      'if (isnan_f(a.x) || isnan_f(b.x)) { return vec4<f32>(nan_f(), 0.0, 0.0, 0.0); } let m = max(a.x, b.x); ' +
      'if (isinf_f(m)) { return vec4<f32>(m, 0.0, 0.0, 0.0); } ' +
      'return vec4<f32>(m, a.y * exp_f(a.x - m) + b.y * exp_f(b.x - m), 0.0, 0.0);',
    finish: 'if (isnan_f(s.x) || isinf_f(s.x)) { return vec2<f32>(s.x, 0.0); } return vec2<f32>(s.x + log_f(s.y), 0.0);',
  },
  all: { init: 'vec4<f32>(1.0)', fold: 'return min(s, vec4<f32>(select(0.0, 1.0, x != 0.0)));', wcomb: 'min(a, b)', piece: 's', ccomb: 'min(a, b)', finish: 'return s.xy;' },
  any: { init: 'vec4<f32>(0.0)', fold: 'return max(s, vec4<f32>(select(0.0, 1.0, x != 0.0)));', wcomb: 'max(a, b)', piece: 's', ccomb: 'max(a, b)', finish: 'return s.xy;' },
  norm0: { ...SUM_ROW, fold: 'return s + vec4<f32>(select(1.0, 0.0, x == 0.0));', finish: 'return s.xy;' },
  norm1: { ...SUM_ROW, fold: 'return s + vec4<f32>(abs(x));', finish: 'return s.xy;' },
  norm2: { ...SUM_ROW, fold: 'return s + vec4<f32>(x * x);', finish: 'return vec2<f32>(sqrt_f(s.x), 0.0);' },
  normP: { ...SUM_ROW, fold: 'return s + vec4<f32>(pow_f(abs(x), ord()));', finish: 'return vec2<f32>(pow_f(s.x, 1.0 / ord()), 0.0);' },
  normInf: {
    init: 'vec4<f32>(0.0)',
    fold: 'return vec4<f32>(max_nan(s.x, abs(x)));',
    wcomb: 'vec4<f32>(max_nan(a.x, b.x))',
    piece: 's',
    ccomb: 'vec4<f32>(max_nan(a.x, b.x))',
    finish: 'return s.xy;',
  },
  normNegInf: {
    init: 'vec4<f32>(inf_f())',
    fold: 'return vec4<f32>(min_nan(s.x, abs(x)));',
    wcomb: 'vec4<f32>(min_nan(a.x, b.x))',
    piece: 's',
    ccomb: 'vec4<f32>(min_nan(a.x, b.x))',
    finish: 'return s.xy;',
  },
};

type Mode = 'direct' | 'partial' | 'final';

const sources = new Map<string, string>();

/**
 * Words: rows, rowLength, inOff, outOff, meanOff, chunks, per, f32 word (correction or ord),
 * takeSqrt. Bindings: out, [mean], then self ('direct', 'partial') and/or scratch
 * ('partial' writes it, 'final' reads it); 'partial' has no out.
 */
function statSource(op: StatOp, inKind: Kind, outKind: Kind, meanKind: Kind | null, mode: Mode, lanes: number, vec4: boolean): string {
  const short = lanes === 1;
  const row = STAT_OPS[op];
  let next = 0;
  const decls: string[] = [];
  let outB = -1, meanB = -1, selfB = -1, scrB = -1;
  if (mode !== 'partial') {
    outB = next++;
    decls.push(bindingDecl(outB, outKind, true, false));
    if (meanKind) {
      meanB = next++;
      decls.push(bindingDecl(meanB, meanKind, true, false));
    }
  }
  if (mode !== 'final') {
    selfB = next++;
    decls.push(bindingDecl(selfB, inKind, false, vec4));
  }
  if (mode !== 'direct') {
    scrB = next++;
    decls.push(`@group(0) @binding(${scrB}) var<storage, read_write> b${scrB}: array<vec4<f32>>;`);
  }
  const x = inKind === 'f32' ? loadExpr(selfB, inKind, 'base + j') : `f32(${loadExpr(selfB, inKind, 'base + j')})`;
  const lines = [
    PRELUDE,
    ...decls,
    'struct Params { w: array<vec4<u32>, 3> };',
    `@group(0) @binding(${next}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    'fn corr() -> f32 { return bitcast<f32>(p(7u)); }',
    'fn ord() -> f32 { return bitcast<f32>(p(7u)); }',
    'fn takeSqrt() -> bool { return p(8u) != 0u; }',
    `fn fold(s: vec4<f32>, x: f32, pre: f32) -> vec4<f32> { ${row.fold} }`,
    `fn wcomb(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return ${row.wcomb}; }`,
    `fn piece(s: vec4<f32>, pre: f32, n: f32) -> vec4<f32> { return ${row.piece}; }`,
    `fn ccomb(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { ${row.ccomb.includes('return') ? row.ccomb : `return ${row.ccomb};`} }`,
    `fn finish(s: vec4<f32>) -> vec2<f32> { ${row.finish} }`,
  ];
  if (row.pre) lines.push(`fn precomb(a: f32, b: f32) -> f32 { return ${row.pre.comb}; }`, `fn prefinish(a: f32, n: f32) -> f32 { return ${row.pre.finish}; }`);
  if (short) {
    lines.push(
      `@compute @workgroup_size(${SHORT_WG})`,
      'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
      `  let w = gid.x + gid.y * nwg.x * ${SHORT_WG}u;`,
      '  let lid = 0u;',
    );
  } else {
    lines.push(
      `var<workgroup> ps: array<vec4<f32>, ${lanes}>;`,
      ...(row.pre && mode !== 'final' ? [`var<workgroup> pa: array<f32, ${lanes}>;`] : []),
      `@compute @workgroup_size(${lanes})`,
      'fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {',
      '  let w = wid.x + wid.y * nwg.x;',
    );
  }
  const step = `${lanes}u`;
  lines.push(
    '  let rows = p(0u);',
    `  let chunks = ${mode === 'partial' ? 'p(5u)' : '1u'};`,
    '  let o = w / chunks;',
    '  let c = w % chunks;',
    '  let live = o < rows;',
    `  var s: vec4<f32> = ${mode === 'final' ? 'vec4<f32>(0.0)' : row.init};`,
  );
  if (mode === 'final') {
    // the identity of ccomb: an empty piece (count 0, max -inf, ...) from the first piece's kind
    lines.push(`  var have = false;`);
    lines.push(`  if (live) { for (var j = lid; j < p(5u); j += ${step}) { let v = b${scrB}[o * p(5u) + j]; if (have) { s = ccomb(s, v); } else { s = v; have = true; } } }`);
    if (!short) {
      lines.push('  ps[lid] = s;');
      lines.push('  workgroupBarrier();');
      lines.push(`  for (var h = ${lanes / 2}u; h > 0u; h = h >> 1u) {`);
      lines.push('    if (lid < h && lid + h < p(5u)) { ps[lid] = ccomb(ps[lid], ps[lid + h]); }');
      lines.push('    workgroupBarrier();');
      lines.push('  }');
      lines.push('  s = ps[0];');
    }
  } else {
    lines.push(
      `  let start = ${mode === 'partial' ? 'c * p(6u)' : '0u'};`,
      `  let end = ${mode === 'partial' ? 'max(start, min(p(1u), start + p(6u)))' : 'p(1u)'};`,
      '  let base = p(2u) + o * p(1u);',
      '  let n = f32(end - start);',
      '  var pre = 0.0;',
    );
    if (row.pre) {
      lines.push(`  var a: f32 = ${row.pre.init};`);
      lines.push(vec4 ? `  if (live) { for (var j = start / 4u + lid; j < end / 4u; j += ${step}) { let v = b${selfB}[base / 4u + j]; a = precomb(precomb(precomb(precomb(a, v.x), v.y), v.z), v.w); } }` : `  if (live) { for (var j = start + lid; j < end; j += ${step}) { a = precomb(a, ${x}); } }`);
      if (!short) {
        lines.push('  pa[lid] = a;');
        lines.push('  workgroupBarrier();');
        lines.push(`  for (var h = ${lanes / 2}u; h > 0u; h = h >> 1u) {`);
        lines.push('    if (lid < h) { pa[lid] = precomb(pa[lid], pa[lid + h]); }');
        lines.push('    workgroupBarrier();');
        lines.push('  }');
        lines.push('  a = pa[0];');
      }
      lines.push('  pre = prefinish(a, n);');
    }
    lines.push(vec4 ? `  if (live) { for (var j = start / 4u + lid; j < end / 4u; j += ${step}) { let v = b${selfB}[base / 4u + j]; s = fold(fold(fold(fold(s, v.x, pre), v.y, pre), v.z, pre), v.w, pre); } }` : `  if (live) { for (var j = start + lid; j < end; j += ${step}) { s = fold(s, ${x}, pre); } }`);
    if (!short) {
      lines.push('  ps[lid] = s;');
      lines.push('  workgroupBarrier();');
      lines.push(`  for (var h = ${lanes / 2}u; h > 0u; h = h >> 1u) {`);
      lines.push('    if (lid < h) { ps[lid] = wcomb(ps[lid], ps[lid + h]); }');
      lines.push('    workgroupBarrier();');
      lines.push('  }');
      lines.push('  s = ps[0];');
    }
    lines.push('  s = piece(s, pre, n);');
  }
  lines.push('  if (lid == 0u && live) {');
  if (mode === 'partial') {
    lines.push(`    b${scrB}[w] = s;`);
  } else {
    lines.push('    let r = finish(s);');
    const v = isFloatKind(outKind) ? 'r.x' : 'u32(r.x)';
    lines.push(`    ${storeStmt(outB, outKind, 'p(3u) + o', v)}`);
    if (meanB >= 0 && meanKind) lines.push(`    ${storeStmt(meanB, meanKind, 'p(4u) + o', 'r.y')}`);
  }
  lines.push('  }');
  lines.push('}');
  return lines.join('\n');
}

function runStat(op: StatOp, name: string, out: TensorImpl, mean: TensorImpl | null, self: TensorImpl, rowLength: number, word: number, takeSqrt: boolean): void {
  const inKind = kindOf(name, self.dtype);
  // float16/bfloat16 results (of such inputs, which core widens to float32) are rounded once on store
  const outKind = kindOf(name, out.dtype, false, true);
  const meanKind = mean ? kindOf(name, mean.dtype, false, true) : null;
  const rows = out.numel;
  if (rows === 0) return;
  const q = commandQueue(name);
  const run = (mode: Mode, bindings: TensorImpl[], chunks: number, per: number, count: number): void => {
    const lanes = lanesFor(mode === 'final' ? chunks : per);
    // vec4 loads: float32 rows (and pieces) that start on a 16-byte boundary
    const vec4 = mode !== 'final' && lanes > 1 && inKind === 'f32' && rowLength % 4 === 0 && per % 4 === 0 && self.storageOffset % 4 === 0;
    const key = `${op}|${inKind}|${outKind}|${meanKind}|${mode}|${lanes}|${vec4}`;
    let src = sources.get(key);
    if (!src) sources.set(key, (src = statSource(op, inKind, outKind, meanKind, mode, lanes, vec4)));
    const params = new Uint32Array([rows, rowLength, self.storageOffset, out.storageOffset, mean ? mean.storageOffset : 0, chunks, per, word, takeSqrt ? 1 : 0]);
    q.dispatch(src, bindings.map(bindingOf), params, lanes === 1 ? grid(name, count, SHORT_WG) : grid(name, count, 1));
  };
  const outs = mean ? [out, mean] : [out];
  const chunks = chunksFor(rows, rowLength);
  if (chunks === 1) {
    run('direct', [...outs, self], 1, rowLength, rows);
    return;
  }
  const scratch = TensorImpl.empty(name, [rows * chunks * 4], 'float32', self.device);
  try {
    // pieces of a multiple of 4 elements when rows are, for the vec4 loads
    const per = rowLength % 4 === 0 ? Math.ceil(rowLength / chunks / 4) * 4 : Math.ceil(rowLength / chunks);
    run('partial', [self, scratch], chunks, per, rows * chunks);
    run('final', [...outs, scratch], chunks, chunks, rows);
  } finally {
    scratch.release();
  }
}

function normOp(ord: number): StatOp {
  if (ord === 0) return 'norm0';
  if (ord === 1) return 'norm1';
  if (ord === 2) return 'norm2';
  if (ord === Infinity) return 'normInf';
  if (ord === -Infinity) return 'normNegInf';
  return 'normP';
}

/** The value of an empty row (rowLength 0), as the CPU kernels give it. */
function emptyRows(out: TensorImpl, mean: TensorImpl | null, value: number): void {
  if (out.numel > 0) fill(out, value);
  if (mean && mean.numel > 0) fill(mean, NaN);
}

export const statsImpls: Pick<BackendImpls, 'varMean' | 'logsumexp' | 'vectorNorm' | 'all' | 'any'> = {
  varMean: (out, mean, self, rowLength, correction, takeSqrt) => {
    kindOf('var', self.dtype);
    if (rowLength === 0) return emptyRows(out, mean, NaN);
    runStat('var', 'var', out, mean, self, rowLength, f32Word(correction), takeSqrt);
  },
  logsumexp: (out, self, rowLength) => {
    kindOf('logsumexp', self.dtype);
    if (rowLength === 0) return emptyRows(out, null, -Infinity);
    runStat('lse', 'logsumexp', out, null, self, rowLength, 0, false);
  },
  vectorNorm: (out, self, rowLength, ord) => {
    kindOf('linalg.vector_norm', self.dtype);
    if (rowLength === 0) return emptyRows(out, null, 0);
    runStat(normOp(ord), 'linalg.vector_norm', out, null, self, rowLength, f32Word(ord), false);
  },
  all: (out, self, rowLength) => {
    if (rowLength === 0) return emptyRows(out, null, 1);
    runStat('all', 'all', out, null, self, rowLength, 0, false);
  },
  any: (out, self, rowLength) => {
    if (rowLength === 0) return emptyRows(out, null, 0);
    runStat('any', 'any', out, null, self, rowLength, 0, false);
  },
};
