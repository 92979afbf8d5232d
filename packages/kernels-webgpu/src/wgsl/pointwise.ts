import { bindingDecl, loadExpr, loadInt64AsF32, loadInt64Expr, storeInt64Stmt, storeStmt, valueType, type Kind } from './kinds';
import { PRELUDE } from './prelude';
import { deviceErrorWgsl } from '../runtime/device-errors';

export const WORKGROUP = 256;
/**
 * Elements (vec4s in the vec4 variant) per invocation, in a grid-stride loop: a software
 * adapter pays per invocation (8 measured 1.6x faster than 1 for a 4M add on SwiftShader),
 * and on a GPU neighbouring invocations stay on neighbouring elements at every step.
 */
export const PER_INVOCATION = 8;

/**
 * Note [Pointwise kernel layout]
 * One generated WGSL kernel per (expression, operand kinds, rank, vec4): invocation `idx`
 * computes element `idx` of the iteration that core's TensorIterator coalesced (fastest
 * dim first). Operand geometry is data, not source: a uniform block of u32 words holds
 *   [numel, offset_0 .. offset_{k-1}, size_0 .. size_{nd-1}, stride_{0,0} .. stride_{k-1,nd-1}, scalars...]
 * (offsets and strides in elements), so every strided or broadcast view runs in place, with
 * no copies, and one pipeline serves all shapes of a rank. Each invocation takes
 * PER_INVOCATION elements in a grid-stride loop (idx, idx + invocations, ...). A call whose
 * operands are all 32-bit and whose expression is written for vectors runs the `vec4`
 * variant, 4 elements per invocation, when every operand's fastest dim has stride 1 and a
 * size that is a multiple of 4, and its other strides and its offset are multiples of 4
 * (Note [Pointwise vec4 layout]).
 * Expressions use `$1..$n` for the inputs, `$p0..` for the scalars (as `T`), `$u0..` for
 * the raw scalar words, and `T` for the value type (f32, or vec4<f32> in the vec4 variant).
 *
 * Note [Pointwise vec4 layout]
 * In the vec4 variant the geometry words are in vec4 units (the host divides them by 4): the
 * numel word stays in elements, size_0 is the fastest dim's size / 4, the offsets and the
 * other strides of the vec4 operands are / 4 (their fastest stride, 1, is one vec4). A fully contiguous call (ndim 1, no splat) indexes by `idx`
 * with no decode (the common case); any other runs the strided decode over the vec4 grid
 * (a bias add `[N,C] + [C]` has a stride-0 outer dim). A "splat" input has stride 0 in the
 * fastest dim (a per-row scalar, `[N,C] + [N,1]`): its words stay in elements, and the
 * kernel loads its one scalar and splats it to the 4 lanes. `exp_f(`, `exp2_f(`,
 * `sigmoid_f(`, `tanh_f(` and `isnan_f(` in a vec4 expression call their vec4 twins (prelude.ts).
 */
export interface PointwiseExpr {
  /** WGSL expression of the output value (of the output's value type; see kinds.ts). */
  readonly expr: string;
  /** Whether `expr` is valid with vec4 operands (component-wise builtins only, `T(...)` for constants). */
  readonly vec4?: boolean;
  /** Extra WGSL helpers the expression calls. */
  readonly helpers?: string;
  /** For an int64 output: the high word (an i32 expression); default: the sign of the low word. */
  readonly hi64?: string;
  /** Load int64 inputs as f32 (both words) instead of their low word as i32. */
  readonly int64AsFloat?: boolean;
  /**
   * int64 operands are vec2<u32> values (lo, hi; Note [int64 on WebGPU]): inputs load both
   * words, and an int64 output stores the expression's vec2<u32> (`hi64` is not used).
   */
  readonly int64?: boolean;
  /**
   * A data-dependent error (integer division by zero): where `errorIf` (a WGSL bool over the
   * loaded inputs) holds, the kernel reports `errorCode` to the device-error record (Note
   * [Device-side errors]), bound after the operands, and still stores `expr`'s value.
   */
  readonly errorIf?: string;
  readonly errorCode?: number;
}

/**
 * Note [One pointwise source for every rank]
 * The geometry words hold PW_NDIM_MAX dim slots whatever the call's rank (TensorIterator's
 * coalesced ndim) up to that bound, and the rank itself in the last word, so one source
 * serves ranks 1 to PW_NDIM_MAX: the decode walks the dims in a loop whose bound is that word.
 * The OpInfo table runs most ops on contiguous inputs (rank 1) and on strided ones (rank 2 or
 * 3), and one source per rank was about 850 more pipelines to compile, 27 s of SwiftShader's
 * CPU. The arithmetic per element is the unrolled decode's: the outermost dim takes the
 * remainder undivided, so a rank-1 call divides nothing, and its strides are loaded before the
 * grid-stride loop; the inner dims' sizes and strides are uniform loads in the loop. Past the
 * bound the decode is unrolled for the exact rank (slots = rank).
 */
export const PW_NDIM_MAX = 6;

/** Dim slots of a call's geometry words. */
function pwSlots(ndim: number): number {
  return Math.max(ndim, PW_NDIM_MAX);
}

/** What a pointwise source depends on of the call's rank (a cache key), Note [One pointwise source for every rank]. */
export function pointwiseRankKey(ndim: number, vec4: boolean, splat: readonly boolean[]): string {
  if (vec4 && ndim === 1 && !splat.some((x) => x)) return 'flat';
  return ndim <= PW_NDIM_MAX ? 'any' : String(ndim);
}

/** Where a call's parameter words go: sizes from 1 + k, strides from stridesAt, scalars from scalarsAt, the rank last. */
export function pointwiseLayout(k: number, ndim: number, nscalars: number): { slots: number; stridesAt: number; scalarsAt: number; rankAt: number; words: number } {
  const slots = pwSlots(ndim);
  const stridesAt = 1 + k + slots;
  const scalarsAt = stridesAt + k * slots;
  const rankAt = scalarsAt + nscalars;
  return { slots, stridesAt, scalarsAt, rankAt, words: rankAt + 1 };
}

/**
 * `alias[i]`: the operand whose binding operand i reads (itself, or an earlier operand with
 * the same storage block: WebGPU forbids two writable bindings of overlapping ranges).
 */
export function pointwiseSource(
  e: PointwiseExpr,
  kinds: readonly Kind[],
  ndim: number,
  nscalars: number,
  vec4: boolean,
  alias: readonly number[],
  splat: readonly boolean[] = [],
): string {
  const k = kinds.length;
  const layout = pointwiseLayout(k, ndim, nscalars);
  const words = layout.words;
  const nvec = Math.max(1, Math.ceil(words / 4));
  const lines: string[] = [];
  lines.push(PRELUDE);
  if (e.helpers) lines.push(e.helpers);
  const nb = alias.filter((a, i) => a === i).length;
  for (let i = 0; i < k; i++) if (alias[i] === i) lines.push(bindingDecl(i, kinds[i], i === 0, vec4).replace(`@binding(${i})`, `@binding(${bindingIndex(alias, i)})`));
  const reports = e.errorIf !== undefined && e.errorCode !== undefined && !vec4;
  if (reports) lines.push(deviceErrorWgsl(nb));
  lines.push(`struct Params { w: array<vec4<u32>, ${nvec}> };`);
  lines.push(`@group(0) @binding(${reports ? nb + 1 : nb}) var<uniform> P: Params;`);
  lines.push('fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }');
  // T: the compute type, that of the last input (the inputs other than a `where` condition share it).
  const ct = valueType(kinds[k > 1 ? k - 1 : 0]);
  const vt = vec4 ? `vec4<${ct}>` : ct;
  lines.push(`@compute @workgroup_size(${WORKGROUP})`);
  lines.push('fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {');
  lines.push(`  let first = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`);
  lines.push(`  let step = nwg.x * nwg.y * ${WORKGROUP}u;`);
  const flat = vec4 && ndim === 1 && !splat.some((x) => x);
  if (!flat && ndim <= PW_NDIM_MAX) {
    // (the rank and the outermost dim's strides, loaded once: Note [One pointwise source for every rank])
    lines.push(`  let nd = p(${layout.rankAt}u);`);
    for (let i = 0; i < k; i++) lines.push(`  let outer${i} = p(${layout.stridesAt + i * layout.slots}u + nd - 1u);`);
  }
  const loopAt = lines.length;
  lines.push(`  for (var idx = first; idx < p(0u)${vec4 ? ' / 4u' : ''}; idx += step) {`);
  const scalarBase = layout.scalarsAt;
  const scal = (x: string): string => {
    for (let s = nscalars - 1; s >= 0; s--) {
      // $p: the scalar as the compute type (bitcast from its word); $u: the raw word.
      const word = `p(${scalarBase + s}u)`;
      const asT = ct === 'f32' ? `bitcast<f32>(${word})` : ct === 'i32' ? `bitcast<i32>(${word})` : word;
      x = x.replaceAll(`$p${s}`, vec4 ? `${vt}(${asT})` : asT).replaceAll(`$u${s}`, word);
    }
    return x;
  };
  let body = scal(e.expr);
  if (vec4) {
    const vecSubst = (x: string) =>
      x.replaceAll('T(', `${vt}(`).replaceAll('isnan_f(', 'isnan4(').replaceAll('exp_f(', 'exp_f4(').replaceAll('exp2_f(', 'exp2_f4(').replaceAll('sigmoid_f(', 'sigmoid_f4(').replaceAll('tanh_f(', 'tanh_f4(').replaceAll('div_f(', 'div_f4(');
    if (flat) {
      for (let i = 1; i < k; i++) body = body.replaceAll(`$${i}`, `b${alias[i]}[p(${1 + i}u) + idx]`);
      lines.push(`  b0[p(1u) + idx] = ${vecSubst(body)};`);
    } else {
      // (Note [Pointwise vec4 layout]: the decode over vec4 units; splat inputs in elements)
      decode(lines, k, ndim, layout);
      for (let i = 1; i < k; i++) {
        const j = alias[i];
        lines.push(`  let v${i} = ${splat[i] ? `${vt}(b${j}[o${i} / 4u][o${i} % 4u])` : `b${j}[o${i}]`};`);
        body = body.replaceAll(`$${i}`, `v${i}`);
      }
      lines.push(`  b0[o0] = ${vecSubst(body)};`);
    }
  } else {
    decode(lines, k, ndim, layout);
    const subst = (x: string) => {
      for (let i = 1; i < k; i++) x = x.replaceAll(`$${i}`, `v${i}`);
      return x.replaceAll('T(', `${ct}(`).replaceAll('b1[2u * o1 + 1u]', `b${alias[1] ?? 1}[2u * o1 + 1u]`);
    };
    for (let i = 1; i < k; i++) {
      const j = alias[i];
      const load =
        kinds[i] === 'i64' && e.int64 ? loadInt64Expr(j, `o${i}`) : kinds[i] === 'i64' && e.int64AsFloat ? loadInt64AsF32(j, `o${i}`) : loadExpr(j, kinds[i], `o${i}`, j === 0);
      lines.push(`  let v${i} = ${load};`);
    }
    if (reports) lines.push(`  if (${subst(scal(e.errorIf!))}) { report_error(${e.errorCode}u, 0u, 0u, 0u, 0u); }`);
    if (kinds[0] === 'i64' && e.int64) lines.push(`  ${storeInt64Stmt(0, 'o0', `(${subst(body)})`)}`);
    else lines.push(`  ${storeStmt(0, kinds[0], 'o0', `(${subst(body)})`, e.hi64 === undefined ? undefined : subst(scal(e.hi64)))}`);
  }
  lines.push('  }');
  lines.push('}');
  hoistParams(lines, loopAt);
  return lines.join('\n');
}

/**
 * Loads the uniform words the loop reads once, before it: a shader compiler may not hoist
 * them itself past the loop's stores (a CPU implementation such as SwiftShader cannot prove
 * that a storage write leaves uniform memory alone), and the loop runs PER_INVOCATION times.
 */
export function hoistParams(lines: string[], loopAt: number): void {
  const used = new Set<number>();
  for (let i = loopAt; i < lines.length; i++) {
    lines[i] = lines[i].replace(/\bp\((\d+)u\)/g, (_, n: string) => {
      used.add(Number(n));
      return `q${n}`;
    });
  }
  const decls = [...used].sort((a, b) => a - b).map((n) => `  let q${n} = p(${n}u);`);
  lines.splice(loopAt, 0, ...decls);
}

/**
 * Emits the decode of `idx` into the offsets `o0..o{k-1}` (Note [Pointwise kernel layout]):
 * a loop over the rank word up to PW_NDIM_MAX (Note [One pointwise source for every rank]),
 * unrolled past it.
 */
function decode(lines: string[], k: number, ndim: number, layout: { slots: number; stridesAt: number }): void {
  lines.push('  var rem = idx;');
  for (let i = 0; i < k; i++) lines.push(`  var o${i} = p(${1 + i}u);`);
  if (ndim <= PW_NDIM_MAX) {
    lines.push('  for (var d = 0u; d + 1u < nd; d++) {');
    lines.push(`    let s = p(${1 + k}u + d); let c = rem % s; rem = rem / s;`);
    for (let i = 0; i < k; i++) lines.push(`    o${i} += c * p(${layout.stridesAt + i * layout.slots}u + d);`);
    lines.push('  }');
    for (let i = 0; i < k; i++) lines.push(`  o${i} += rem * outer${i};`);
    return;
  }
  for (let d = 0; d < ndim; d++) {
    const size = `p(${1 + k + d}u)`;
    const last = d === ndim - 1;
    lines.push(`  { let c = ${last ? 'rem' : `rem % ${size}`};${last ? '' : ` rem = rem / ${size};`}`);
    for (let i = 0; i < k; i++) lines.push(`    o${i} += c * p(${layout.stridesAt + i * layout.slots + d}u);`);
    lines.push('  }');
  }
}

/** The binding number of unique operand `i`: its rank among the operands that own a binding. */
export function bindingIndex(alias: readonly number[], i: number): number {
  let n = 0;
  for (let j = 0; j < i; j++) if (alias[j] === j) n++;
  return n;
}
