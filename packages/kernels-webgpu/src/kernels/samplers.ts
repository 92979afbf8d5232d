/// <reference types="@webgpu/types" />
import { TorchError, type DeviceStream, type RandomImpls, type TensorImpl } from '@torch-ts/core';
import { deviceErrorBinding, deviceErrorWgsl, messageErrorCode } from '../runtime/device-errors';
import { commandQueue } from '../runtime/queue';
import { PHILOX_WGSL } from '../wgsl/philox';
import { WORKGROUP } from '../wgsl/pointwise';
import { PRELUDE } from '../wgsl/prelude';
import { bindingOf, grid } from './launch';
import { requireF32 } from './softmax';

/**
 * Note [WebGPU samplers]
 * The draws whose count depends on the values drawn (Marsaglia and Tsang's rejection for
 * `_standard_gamma`, and `_sample_dirichlet` built on it; `poisson` and `binomial`, below),
 * in float32, one invocation per element (per row for Dirichlet). Each element reads its own Philox4x32-10 stream (Note
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

/**
 * Words: 0 count (elements or rows), 1 out offset, 2 seed lo, 3 seed hi, 4 offset lo, 5
 * offset hi, 6 first input's offset, 7 row length (Dirichlet) or the second input's offset
 * (binomial), 8 the error code (poisson).
 */
function source(body: readonly string[], extra: 'none' | 'errors' | 'second' = 'none', helpers = ''): string {
  return [
    PRELUDE,
    PHILOX_WGSL,
    '@group(0) @binding(0) var<storage, read_write> o: array<f32>;',
    '@group(0) @binding(1) var<storage, read_write> a: array<f32>;',
    ...(extra === 'second' ? ['@group(0) @binding(2) var<storage, read_write> b2: array<f32>;'] : []),
    ...(extra === 'errors' ? [deviceErrorWgsl(2)] : []),
    'struct Params { w: array<vec4<u32>, 3> };',
    `@group(0) @binding(${extra === 'none' ? 2 : 3}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    STREAM_WGSL,
    helpers,
    `@compute @workgroup_size(${WORKGROUP})`,
    'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    `  let i = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
    '  if (i >= p(0u)) { return; }',
    ...body,
    '}',
  ].join('\n');
}

/** log(k!) minus Stirling's (k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2: core's table below 10, the series above. */
const STIRLING_WGSL = /* wgsl */ `
fn stirling_tail(k: f32) -> f32 {
  if (k <= 9.0) {
    var t = array<f32, 10>(0.08106146679532726, 0.0413406959554093, 0.02767792568499834, 0.020790672103765093, 0.016644691189821193,
      0.013876128823070748, 0.01189670994589177, 0.010411265261972096, 0.009255462182712733, 0.00833056343336287);
    return t[u32(k)];
  }
  let kp1 = k + 1.0;
  let kp1sq = kp1 * kp1;
  return (0.083333333 - (0.0027777778 - 0.00079365079 / kp1sq) / kp1sq) / kp1;
}
`;

/**
 * PyTorch's sample_poisson: Knuth's product of uniforms below rate 10, Hörmann's
 * transformed rejection (PTRS) from 10 on. Its acceptance test -rate + k log(rate) - log k!
 * is rearranged for float32 so that no two large terms cancel: with t = (k + 1 - rate) /
 * rate and log k! by Stirling plus its tail, it is (k + 1 - rate) - k log1p(t) - log(k +
 * 1) / 2 - log(2 pi) / 2 - tail(k). A negative or NaN rate reports CPU's error.
 */
const POISSON_WGSL = STIRLING_WGSL + /* wgsl */ `
fn sample_poisson(lambda: f32) -> f32 {
  if (!(lambda >= 0.0)) {
    report_error(p(8u), 0u, 0u, 0u, 0u);
    return nan_f();
  }
  if (lambda == 0.0) { return 0.0; }
  if (lambda < 10.0) {
    let enlam = exp(-lambda);
    var x = 0.0;
    var prod = 1.0;
    loop {
      prod = prod * st_uniform();
      if (!(prod > enlam)) { return x; }
      x = x + 1.0;
    }
  }
  let slam = sqrt(lambda);
  let b = 0.931 + 2.53 * slam;
  let a = -0.059 + 0.02483 * b;
  let invalpha = 1.1239 + 1.1328 / (b - 3.4);
  let vr = 0.9277 - 3.6224 / (b - 2.0);
  loop {
    let u = st_uniform() - 0.5;
    let v = st_uniform();
    let us = 0.5 - abs(u);
    let k = floor((2.0 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vr) { return k; }
    if (k < 0.0 || (us < 0.013 && v > us)) { continue; }
    let d = k + 1.0 - lambda;
    let rhs = d - k * log1p_f(d / lambda) - 0.5 * log_f(k + 1.0) - 0.91893853320467274 - stirling_tail(k);
    if (log_f(v) + log_f(invalpha) - log_f(a / (us * us) + b) <= rhs) { return k; }
  }
  return 0.0;
}
`;

/**
 * PyTorch's sample_binomial (core's sampleBinomial): 0 for a count or probability of 0 or
 * less, the count for a probability of 1 or more; else the draw for min(p, 1 - p) (mirrored),
 * by inversion of geometric waiting times while count * p < 10 and by Hörmann's BTRS from 10
 * on, its bound made of Stirling tails; float32 arithmetic, as PyTorch's CUDA kernel's.
 */
const BINOMIAL_WGSL = STIRLING_WGSL + /* wgsl */ `
fn binomial_inversion(count: f32, prob: f32) -> f32 {
  var geom = 0.0;
  var num = 0.0;
  let logprob = log1p_f(-prob);
  loop {
    geom = geom + ceil(log_f(st_uniform()) / logprob);
    if (geom > count) { return num; }
    num = num + 1.0;
  }
  return 0.0;
}
fn binomial_btrs(n: f32, p: f32) -> f32 {
  let q = 1.0 - p;
  let spq = sqrt(n * p * q);
  let b = 1.15 + 2.53 * spq;
  let a = -0.0873 + 0.0248 * b + 0.01 * p;
  let c = n * p + 0.5;
  let alpha = (2.83 + 5.1 / b) * spq;
  let vr = 0.92 - 4.2 / b;
  let r = p / q;
  let m = floor((n + 1.0) * p);
  loop {
    let u = st_uniform() - 0.5;
    var v = st_uniform();
    let us = 0.5 - abs(u);
    let k = floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > n) { continue; }
    if (us >= 0.07 && v <= vr) { return k; }
    v = log_f(v * alpha / (a / (us * us) + b));
    let bound = (m + 0.5) * log_f((m + 1.0) / (r * (n - m + 1.0))) + (n + 1.0) * log_f((n - m + 1.0) / (n - k + 1.0))
      + (k + 0.5) * log_f(r * (n - k + 1.0) / (k + 1.0)) + stirling_tail(m) + stirling_tail(n - m) - stirling_tail(k) - stirling_tail(n - k);
    if (v <= bound) { return k; }
  }
  return 0.0;
}
fn sample_binomial(count: f32, prob: f32) -> f32 {
  if (count <= 0.0 || prob <= 0.0) { return 0.0; }
  if (prob >= 1.0) { return count; }
  if (prob <= 0.5) {
    if (count * prob >= 10.0) { return binomial_btrs(count, prob); }
    return binomial_inversion(count, prob);
  }
  let q = 1.0 - prob;
  if (count * q >= 10.0) { return count - binomial_btrs(count, q); }
  return count - binomial_inversion(count, q);
}
`;

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

const POISSON = source(['  st_init(i);', '  o[p(1u) + i] = sample_poisson(a[p(6u) + i]);'], 'errors', POISSON_WGSL);

const BINOMIAL = source(['  st_init(i);', '  o[p(1u) + i] = sample_binomial(a[p(6u) + i], b2[p(7u) + i]);'], 'second', BINOMIAL_WGSL);

const POISSON_RATE_ERROR = () => messageErrorCode('poisson:rate', () => new TorchError('poisson: invalid Poisson rate, expected rate to be non-negative'));

const u32 = (v: bigint): number => Number(BigInt.asUintN(32, v));
const hi32 = (v: bigint): number => Number(BigInt.asUintN(32, v >> 32n));

function launch(op: string, src: string, out: TensorImpl, inputs: readonly TensorImpl[], count: number, word7: number, stream: DeviceStream, errors = false): void {
  requireF32(op, out);
  if (count === 0) return;
  const params = new Uint32Array(12);
  const q = commandQueue(op);
  params.set([count, out.storageOffset, u32(stream.seed), hi32(stream.seed), u32(stream.offset), hi32(stream.offset), inputs[0].storageOffset, word7, errors ? POISSON_RATE_ERROR() : 0]);
  const bindings = [bindingOf(out), ...inputs.map(bindingOf), ...(errors ? [deviceErrorBinding(q)] : [])];
  q.dispatch(src, bindings, params, grid(op, count));
}

export const samplerImpls: Pick<RandomImpls, 'standardGamma' | 'sampleDirichlet' | 'poisson' | 'binomial'> = {
  standardGamma: (out, alpha, stream) => launch('_standard_gamma', GAMMA, out, [alpha], out.numel, 0, stream),
  sampleDirichlet: (out, alpha, stream) => {
    const k = out.dim === 0 ? 1 : out.sizes[out.dim - 1];
    launch('_sample_dirichlet', DIRICHLET, out, [alpha], k === 0 ? 0 : out.numel / k, k, stream);
  },
  poisson: (out, rate, stream) => launch('poisson', POISSON, out, [rate], out.numel, 0, stream, true),
  binomial: (out, count, prob, stream) => launch('binomial', BINOMIAL, out, [count, prob], out.numel, prob.storageOffset, stream),
};
