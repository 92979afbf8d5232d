import { TorchError, type TensorImpl } from '@torch-ts/core';
import { bindingOf, grid } from '../kernels/launch';
import { commandQueue } from '../runtime/queue';
import { bindingDecl, loadExpr, storeStmt, type Kind } from './kinds';
import { WORKGROUP } from './pointwise';
import { PRELUDE } from './prelude';

/**
 * Note [WebGPU spatial kernels]
 * The kernels behind convolution (Note [WebGPU direct convolution]; im2col / col2im),
 * pooling, interpolation and padding (Note [Spatial impls] in core) are gathers: one invocation per OUTPUT element reads the
 * input elements it depends on, so no two invocations write the same element and no float
 * atomics are needed. Backward kernels are gathers too, by inverting the forward's index
 * map per input element: col2im loops over the kernel taps that hit its pixel, avg pooling
 * over the windows that contain it (max pooling over those whose index names it),
 * interpolation and padding over the (contiguous, found by a short walk) output ranges that
 * read it.
 * Geometry (sizes, strides, storage offsets, kernel, stride, padding, dilation) travels as
 * uniform words, so views run without copies and one pipeline serves every shape.
 */

export interface SpatialOperand {
  readonly t: TensorImpl;
  readonly kind: Kind;
  /** Written by the kernel (byte kinds get atomic words). */
  readonly output?: boolean;
}

const sources = new Map<string, string>();

/**
 * One dispatch of a spatial kernel: `body` runs once per index `idx` in [0, n) (word 0 of
 * the params is n; `p(i)` reads word i). Operands are bound as `b0`, `b1`, ... in order; a
 * float32, float16 or bfloat16 operand i is also read as f32 by `ld<i>(index)` (an input) or written
 * from f32 by `st<i>(index, v)` (an output, rounded once for the 16-bit floats).
 */
export function runSpatial(op: string, key: string, operands: readonly SpatialOperand[], words: readonly number[], n: number, body: string, helpers = ''): void {
  if (n === 0) return;
  const blocks = operands.map((o) => o.t.storage.data);
  operands.forEach((o, i) => {
    if (o.output && blocks.some((b, j) => j !== i && b === blocks[i])) throw new TorchError(`${op}: the output shares storage with an input on webgpu`);
  });
  const nvec = Math.max(1, Math.ceil((words.length + 1) / 4));
  const cacheKey = `${key}|${operands.map((o) => `${o.kind}${o.output ? 'o' : ''}`).join(',')}|${nvec}`;
  let source = sources.get(cacheKey);
  if (!source) {
    const decls = operands.map((o, i) => bindingDecl(i, o.kind, o.output === true, false));
    // ld<i> / st<i>: f32 access to float operands of either storage (Note [float16 on WebGPU])
    operands.forEach((o, i) => {
      if (o.kind !== 'f32' && o.kind !== 'f16' && o.kind !== 'bf16') return;
      decls.push(o.output ? `fn st${i}(q: u32, v: f32) { ${storeStmt(i, o.kind, 'q', 'v')} }` : `fn ld${i}(q: u32) -> f32 { return ${loadExpr(i, o.kind, 'q')}; }`);
    });
    source = [
      PRELUDE,
      ...decls,
      `struct Params { w: array<vec4<u32>, ${nvec}> };`,
      `@group(0) @binding(${operands.length}) var<uniform> P: Params;`,
      'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
      'fn pi(i: u32) -> i32 { return bitcast<i32>(P.w[i / 4u][i % 4u]); }',
      'fn pf(i: u32) -> f32 { return bitcast<f32>(P.w[i / 4u][i % 4u]); }',
      helpers,
      `@compute @workgroup_size(${WORKGROUP})`,
      'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
      `  let idx = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
      '  if (idx >= p(0u)) { return; }',
      body,
      '}',
    ].join('\n');
    sources.set(cacheKey, source);
  }
  const params = new Uint32Array(1 + words.length);
  params[0] = n;
  for (let i = 0; i < words.length; i++) params[i + 1] = words[i] >>> 0;
  commandQueue(op).dispatch(source, operands.map((o) => bindingOf(o.t)), params, grid(op, n));
}

/** WGSL `let` lines binding each name to its param word as i32 (word 1 onwards, in order). */
export function paramLets(names: readonly string[]): string {
  return names.map((n, i) => `  let ${n} = pi(${i + 1}u);`).join('\n');
}

/** Offset and strides of a 3-d [planes, h, w] (or 2-d) tensor, as words. */
export function geom(t: TensorImpl): number[] {
  return [t.storageOffset, ...t.strides];
}

/** Offset and (n, c, h, w) strides of a [P, H, W] plane stack (c unused: C = 1) or a 4-d [N, C, H, W] tensor. */
export function geom4(t: TensorImpl): number[] {
  const s = t.strides;
  return t.dim === 4 ? [t.storageOffset, s[0], s[1], s[2], s[3]] : [t.storageOffset, s[0], 0, s[1], s[2]];
}
/** The param names of an operand's geom4 words, prefixed. */
export const G = (x: string) => [`${x}Off`, `${x}sN`, `${x}sC`, `${x}sH`, `${x}sW`];
/** WGSL: the element index of operand `x` at plane (nb, c), row `h`, column `w`. */
export const elemAt = (x: string, h: string, w: string) => `u32(${x}Off + nb * ${x}sN + c * ${x}sC + ${h} * ${x}sH + ${w} * ${x}sW)`;
/** The channel count the decode uses: C of a 4-d operand, 1 for planes. */
export const chans = (t: TensorImpl) => (t.dim === 4 ? t.sizes[1] : 1);
/** Splits the flat output index into (c, ow, oh, nb), c fastest (Note [WebGPU channels-last pooling]). */
export const OUT_INDEX = '  let c = i32(idx) % C; let q0 = i32(idx) / C; let ow = q0 % oW; let q1 = q0 / oW; let oh = q1 % oH; let nb = q1 / oH;';
export const IN_INDEX = '  let c = i32(idx) % C; let q0 = i32(idx) / C; let w = q0 % W; let q1 = q0 / W; let h = q1 % H; let nb = q1 / H;';
