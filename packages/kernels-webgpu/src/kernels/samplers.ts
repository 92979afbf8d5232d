/// <reference types="@webgpu/types" />
import type { DeviceStream, RandomImpls, TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { PHILOX_WGSL } from '../wgsl/philox';
import { WORKGROUP } from '../wgsl/pointwise';
import { PRELUDE } from '../wgsl/prelude';
import { bindingOf, grid } from './launch';
import { requireF32 } from './softmax';

/**
 * Note [WebGPU samplers]
 * The draws whose count depends on the values drawn (Marsaglia and Tsang's rejection for
 * `_standard_gamma`, and `_sample_dirichlet` built on it), in float32, one invocation per
 * element (per row for Dirichlet). Each element reads its own Philox4x32-10 stream (Note
 * [Counter-based random streams] in core): counter (element, block, offset lo, offset hi),
 * the element its row-major index and `block` counting the 4-word blocks it has used, so
 * the values do not depend on how many draws the other elements' rejections took. A
 * normal is Box-Muller on two words (r cos theta), a uniform a 24-bit word in [0, 1).
 * The algorithm is PyTorch's sample_gamma: alpha < 1 is boosted to alpha + 1 and the draw
 * scaled by u^(1/alpha); the result is kept at or above the smallest normal float, as
 * PyTorch's. A negative or NaN alpha gives NaN (the CPU's loop, as PyTorch's, would not
 * end). Dirichlet normalises each row's Gamma draws, made in float32 where PyTorch's CPU
 * draws them in double (a tiny concentration's draws are clamped to the smallest normal
 * instead), and keeps them in [smallest normal, the largest float below 1].
 */

const STREAM_WGSL = /* wgsl */ `
var<private> st_c: vec4<u32>;
var<private> st_buf: vec4<u32>;
var<private> st_k: u32;
fn st_init(e: u32) { st_c = vec4<u32>(e, 0u, p(4u), p(5u)); st_k = 4u; }
fn st_word() -> u32 {
  if (st_k >= 4u) {
    st_buf = philox4x32(st_c, vec2<u32>(p(2u), p(3u)));
    st_c.y = st_c.y + 1u;
    st_k = 0u;
  }
  var w = st_buf.w;
  if (st_k == 0u) { w = st_buf.x; } else if (st_k == 1u) { w = st_buf.y; } else if (st_k == 2u) { w = st_buf.z; }
  st_k = st_k + 1u;
  return w;
}
fn st_uniform() -> f32 { return ph_uniform(st_word()); }
fn st_normal() -> f32 {
  let r = sqrt(-2.0 * log_f(ph_open(st_word())));
  return r * cos(6.283185307179586 * ph_uniform(st_word()));
}
fn sample_gamma(alpha0: f32) -> f32 {
  if (!(alpha0 >= 0.0)) { return nan_f(); }
  if (alpha0 == 0.0) { return 0.0; }
  var alpha = alpha0;
  var scale = 1.0;
  if (alpha < 1.0) {
    scale = pow_f(1.0 - st_uniform(), 1.0 / alpha);
    alpha = alpha + 1.0;
  }
  let d = alpha - 0.33333334;
  let c = 1.0 / sqrt(9.0 * d);
  loop {
    var x = 0.0;
    var y = 0.0;
    loop {
      x = st_normal();
      y = 1.0 + c * x;
      if (y > 0.0) { break; }
    }
    let v = y * y * y;
    let u = 1.0 - st_uniform();
    let xx = x * x;
    if (u < 1.0 - 0.0331 * xx * xx || log_f(u) < 0.5 * xx + d * (1.0 - v + log_f(v))) { return max(1.1754944e-38, scale * d * v); }
  }
  return 0.0;
}
`;

/** Words: 0 count (elements or rows), 1 out offset, 2 seed lo, 3 seed hi, 4 offset lo, 5 offset hi, 6 alpha offset, 7 row length. */
function source(body: readonly string[]): string {
  return [
    PRELUDE,
    PHILOX_WGSL,
    '@group(0) @binding(0) var<storage, read_write> o: array<f32>;',
    '@group(0) @binding(1) var<storage, read_write> a: array<f32>;',
    'struct Params { w: array<vec4<u32>, 2> };',
    '@group(0) @binding(2) var<uniform> P: Params;',
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    STREAM_WGSL,
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let i = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  if (i >= p(0u)) { return; }',
    ...body,
    '}',
  ].join('\n');
}

const GAMMA = source(['  st_init(i);', '  o[p(1u) + i] = sample_gamma(a[p(6u) + i]);']);

const DIRICHLET = source([
  '  let k = p(7u);',
  '  var sum = 0.0;',
  '  for (var j = 0u; j < k; j++) {',
  '    st_init(i * k + j);',
  '    let g = sample_gamma(a[p(6u) + i * k + j]);',
  '    o[p(1u) + i * k + j] = g;',
  '    sum = sum + g;',
  '  }',
  // (the largest float below 1: 1 - 2^-24)
  '  for (var j = 0u; j < k; j++) { o[p(1u) + i * k + j] = min(0.99999994, max(1.1754944e-38, o[p(1u) + i * k + j] / sum)); }',
]);

const u32 = (v: bigint): number => Number(BigInt.asUintN(32, v));
const hi32 = (v: bigint): number => Number(BigInt.asUintN(32, v >> 32n));

function launch(op: string, src: string, out: TensorImpl, alpha: TensorImpl, count: number, rowLength: number, stream: DeviceStream): void {
  requireF32(op, out);
  if (count === 0) return;
  const params = new Uint32Array(8);
  params.set([count, out.storageOffset, u32(stream.seed), hi32(stream.seed), u32(stream.offset), hi32(stream.offset), alpha.storageOffset, rowLength]);
  commandQueue(op).dispatch(src, [bindingOf(out), bindingOf(alpha)], params, grid(op, count));
}

export const samplerImpls: Pick<RandomImpls, 'standardGamma' | 'sampleDirichlet'> = {
  standardGamma: (out, alpha, stream) => launch('_standard_gamma', GAMMA, out, alpha, out.numel, 1, stream),
  sampleDirichlet: (out, alpha, stream) => {
    const k = out.dim === 0 ? 1 : out.sizes[out.dim - 1];
    launch('_sample_dirichlet', DIRICHLET, out, alpha, k === 0 ? 0 : out.numel / k, k, stream);
  },
};
