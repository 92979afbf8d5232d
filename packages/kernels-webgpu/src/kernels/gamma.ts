/// <reference types="@webgpu/types" />
import type { BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { WORKGROUP } from '../wgsl/pointwise';
import { PRELUDE } from '../wgsl/prelude';
import { bindingOf, grid } from './launch';
import { requireF32 } from './softmax';
import { SPECIAL_WGSL } from './special-wgsl';

/**
 * Note [The derivative of a Gamma sample in WGSL]
 * kernels-cpu's standardGammaGrad (its Note [The derivative of a Gamma sample]) in float32,
 * one invocation per element: d x / d alpha = -(dP/dalpha) / density, by P's series below
 * alpha + 1 and by Legendre's continued fraction for Q above. The CPU takes d log CF /
 * d alpha by a Richardson-extrapolated central difference, which float32 cannot afford (its
 * rounding over a step of 1e-3 alpha); here Lentz's recurrences carry their derivative in
 * alpha alongside (forward mode), which is exact for the truncated fraction (iterated until
 * the derivative converges too: at an integer alpha the fraction itself ends). The series and
 * the fraction stop at float32's precision, so the results agree with the CPU's to about
 * 1e-4 relative (the sums' rounding), well inside PyTorch's own approximation (2e-3).
 */
export const GAMMA_GRAD_WGSL = /* wgsl */ `
fn gamma_cf_d(a: f32, x: f32) -> vec2<f32> {
  let tiny = 1e-30;
  var b = x + 1.0 - a;
  var c = 1.0 / tiny;
  var dc = 0.0;
  var d = 1.0 / b;
  var dd = d * d;
  var h = d;
  var dh = dd;
  for (var i = 1u; i < 100000u; i++) {
    let fi = f32(i);
    let an = -fi * (fi - a);
    b = b + 2.0;
    var nd = an * d + b;
    var ndd = fi * d + an * dd - 1.0;
    if (abs(nd) < tiny) { nd = tiny; ndd = 0.0; }
    var nc = b + an / c;
    var ndc = -1.0 + fi / c - (an / c) * (dc / c);
    if (abs(nc) < tiny) { nc = tiny; ndc = 0.0; }
    d = 1.0 / nd;
    dd = -ndd * d * d;
    c = nc;
    dc = ndc;
    let delta = d * c;
    let ddelta = dd * c + d * dc;
    dh = dh * delta + h * ddelta;
    h = h * delta;
    // (both converged: at an integer a the fraction ends (an = 0) but its derivative goes on)
    if (abs(delta - 1.0) < 1e-7 && abs(ddelta) < 1e-7 * abs(dh / h) + 1e-12) { break; }
  }
  return vec2<f32>(h, dh);
}
fn standard_gamma_grad_f(alpha: f32, x: f32) -> f32 {
  if (!(x > 0.0) || !(alpha > 0.0) || isinf_f(x) || isinf_f(alpha)) { return select(nan_f(), 0.0, x == 0.0); }
  let lx = log_f(x);
  if (x < alpha + 1.0) {
    var sum = 0.0;
    var r = 1.0;
    var psi = digamma_f(alpha + 1.0);
    for (var n = 0u; n < 1000000u; n++) {
      sum = sum + r * (lx - psi);
      let k = alpha + f32(n) + 1.0;
      r = r * (x / k);
      psi = psi + 1.0 / k;
      if (f32(n) + 1.0 > x - alpha && abs(r) < 1e-8 * abs(sum) + 1e-37) { break; }
    }
    return -(x / alpha) * sum;
  }
  let cf = gamma_cf_d(alpha, x);
  return x * (cf.x * (lx - digamma_f(alpha)) + cf.y);
}
`;

const SOURCE = [
  PRELUDE,
  SPECIAL_WGSL,
  GAMMA_GRAD_WGSL,
  '@group(0) @binding(0) var<storage, read_write> o: array<f32>;',
  '@group(0) @binding(1) var<storage, read_write> al: array<f32>;',
  '@group(0) @binding(2) var<storage, read_write> xs: array<f32>;',
  'struct Params { w: vec4<u32> };',
  '@group(0) @binding(3) var<uniform> P: Params;',
  `@compute @workgroup_size(${WORKGROUP})`,
  'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
  `  let i = gid.x + gid.y * nwg.x * ${WORKGROUP}u;`,
  '  if (i >= P.w.x) { return; }',
  '  o[P.w.y + i] = standard_gamma_grad_f(al[P.w.z + i], xs[P.w.w + i]);',
  '}',
].join('\n');

export const gammaImpls: Pick<BackendImpls, 'standardGammaGrad'> = {
  standardGammaGrad: (out, alpha, x, n) => {
    requireF32('_standard_gamma_grad', out);
    if (n === 0) return;
    const params = new Uint32Array([n, out.storageOffset, alpha.storageOffset, x.storageOffset]);
    commandQueue('_standard_gamma_grad').dispatch(SOURCE, [out, alpha, x].map(bindingOf), params, grid('_standard_gamma_grad', n));
  },
};
