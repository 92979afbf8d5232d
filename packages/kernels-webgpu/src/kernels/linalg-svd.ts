/// <reference types="@webgpu/types" />
import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingOf, grid } from './launch';
import { requireF32 } from './softmax';

/**
 * Note [WebGPU SVD: one-sided Jacobi, a workgroup per matrix]
 * core's SvdImpls in float32, by the one-sided Jacobi of the CPU kernel (Note [CPU SVD:
 * one-sided Jacobi]) with the pairs in parallel: one workgroup per matrix of the batch,
 * each sweep split into the q - 1 rounds of a round-robin tournament over the q columns of
 * W (A, or A^T for a wide A, read in place through its strides), each round rotating q / 2
 * disjoint pairs, one invocation per pair, with a barrier between rounds. A workgroup flag
 * ends the sweeps once a sweep rotates nothing (or after MAX_SWEEPS: in float32 a pair's
 * rounding can keep it just above the threshold). Then, with barriers between the steps, the
 * column norms are the singular values, a selection sort (the workgroup swapping the rows of
 * the chosen columns) orders them descending, the columns are normalized into U' (U, or Vh^T
 * for a wide A) and invocation 0 completes U' by Gram-Schmidt as the CPU kernel does. The
 * rotations accumulate directly in the output that holds V (Vh for a tall A, U for a wide
 * one). Everything stays on the device: no host round trip, whatever the batch. Core never
 * hands an empty matrix (it fills those results itself).
 *
 * Words: 0 batch, 1 m, 2 n, 3 a offset, 4 s offset, 5 u offset, 6 vh offset, 7 U's columns,
 * 8 Vh's rows.
 */

export const WG = 64;
export const PARAM_WORDS = 12;
export const MAX_SWEEPS = 30;
/** The relative orthogonality at which a pair is left alone (twice float32's epsilon). */
export const TOL = 2.4e-7;

function source(vectors: boolean): string {
  const bindings = ['a: array<f32>', 's: array<f32>', ...(vectors ? ['u: array<f32>', 'vh: array<f32>'] : [])];
  return [
    ...bindings.map((b, i) => `@group(0) @binding(${i}) var<storage, read_write> ${b};`),
    `struct Params { w: array<vec4<u32>, ${PARAM_WORDS / 4}> };`,
    `@group(0) @binding(${bindings.length}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    'var<workgroup> rotated: atomic<u32>;',
    'var<workgroup> flag: u32;',
    'var<workgroup> sel: u32;',
    'var<private> base: u32;',
    'var<private> tall: bool;',
    'var<private> n: u32;',
    // W (p x q) in place in a: a tall A itself, or a wide A's transpose
    'fn wi(i: u32, j: u32) -> u32 { if (tall) { return base + i * n + j; } return base + j * n + i; }',
    ...(vectors
      ? [
          'var<private> ub: u32;',
          'var<private> vb: u32;',
          'var<private> q: u32;',
          // V (q x q), where the output holds it: Vh = V^T (tall), U = V (wide)
          'fn vi(r: u32, c: u32) -> u32 { if (tall) { return vb + c * q + r; } return ub + r * q + c; }',
          'fn getv(r: u32, c: u32) -> f32 { if (tall) { return vh[vi(r, c)]; } return u[vi(r, c)]; }',
          'fn setv(r: u32, c: u32, x: f32) { if (tall) { vh[vi(r, c)] = x; } else { u[vi(r, c)] = x; } }',
          // U' (p x cols): U (tall), Vh^T (wide)
          'fn oi(r: u32, c: u32) -> u32 { if (tall) { return ub + r * p(7u) + c; } return vb + c * n + r; }',
          'fn geto(r: u32, c: u32) -> f32 { if (tall) { return u[oi(r, c)]; } return vh[oi(r, c)]; }',
          'fn seto(r: u32, c: u32, x: f32) { if (tall) { u[oi(r, c)] = x; } else { vh[oi(r, c)] = x; } }',
        ]
      : []),
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
    '  let b = wg.x + wg.y * nwg.x;',
    '  if (b >= p(0u)) { return; }',
    '  let m = p(1u);',
    '  n = p(2u);',
    '  tall = m >= n;',
    // (from the uniform words, not the private copies: the barriers need uniform bounds)
    '  let pr = max(m, p(2u));',
    '  let qc = min(m, p(2u));',
    '  base = p(3u) + b * m * p(2u);',
    '  let sb = p(4u) + b * qc;',
    ...(vectors
      ? [
          '  q = qc;',
          '  ub = p(5u) + b * m * p(7u);',
          '  vb = p(6u) + b * p(8u) * p(2u);',
          '  for (var e = lid; e < qc * qc; e += ' + WG + 'u) { setv(e / qc, e % qc, select(0.0, 1.0, e / qc == e % qc)); }',
        ]
      : []),
    '  storageBarrier();',
    '  workgroupBarrier();',
    '  let nn = qc + (qc & 1u);',
    `  for (var sweep = 0u; sweep < ${MAX_SWEEPS}u; sweep++) {`,
    '    if (lid == 0u) { atomicStore(&rotated, 0u); }',
    '    workgroupBarrier();',
    '    for (var r = 0u; r + 1u < nn; r++) {',
    `      for (var t = lid; t < nn / 2u; t += ${WG}u) {`,
    '        var i = 0u;',
    '        if (t > 0u) { i = ((t - 1u + r) % (nn - 1u)) + 1u; }',
    '        var j = ((nn - 2u - t + r) % (nn - 1u)) + 1u;',
    '        if (i > j) { let x = i; i = j; j = x; }',
    '        if (j >= qc) { continue; }',
    '        var alpha = 0.0;',
    '        var beta = 0.0;',
    '        var gamma = 0.0;',
    '        for (var k = 0u; k < pr; k++) {',
    '          let x = a[wi(k, i)];',
    '          let y = a[wi(k, j)];',
    '          alpha += x * x;',
    '          beta += y * y;',
    '          gamma += x * y;',
    '        }',
    `        if (alpha == 0.0 || beta == 0.0 || !(abs(gamma) > ${TOL} * sqrt(alpha) * sqrt(beta))) { continue; }`,
    '        atomicStore(&rotated, 1u);',
    '        let zeta = (beta - alpha) / (2.0 * gamma);',
    '        let tt = select(-1.0, 1.0, zeta >= 0.0) / (abs(zeta) + sqrt(1.0 + zeta * zeta));',
    '        let c = 1.0 / sqrt(1.0 + tt * tt);',
    '        let sn = c * tt;',
    '        for (var k = 0u; k < pr; k++) {',
    '          let x = a[wi(k, i)];',
    '          let y = a[wi(k, j)];',
    '          a[wi(k, i)] = c * x - sn * y;',
    '          a[wi(k, j)] = sn * x + c * y;',
    '        }',
    ...(vectors
      ? [
          '        for (var k = 0u; k < qc; k++) {',
          '          let x = getv(k, i);',
          '          let y = getv(k, j);',
          '          setv(k, i, c * x - sn * y);',
          '          setv(k, j, sn * x + c * y);',
          '        }',
        ]
      : []),
    '      }',
    '      storageBarrier();',
    '      workgroupBarrier();',
    '    }',
    '    if (lid == 0u) { flag = atomicLoad(&rotated); }',
    '    if (workgroupUniformLoad(&flag) == 0u) { break; }',
    '  }',
    // the singular values: the column norms
    `  for (var j = lid; j < qc; j += ${WG}u) {`,
    '    var ss = 0.0;',
    '    for (var k = 0u; k < pr; k++) { let x = a[wi(k, j)]; ss += x * x; }',
    '    s[sb + j] = sqrt(ss);',
    '  }',
    '  storageBarrier();',
    '  workgroupBarrier();',
    // descending: a selection sort, the workgroup swapping the chosen columns' rows
    '  for (var i = 0u; i < qc; i++) {',
    '    if (lid == 0u) {',
    '      var best = i;',
    '      for (var j = i + 1u; j < qc; j++) { if (s[sb + j] > s[sb + best]) { best = j; } }',
    '      sel = best;',
    '    }',
    '    let j = workgroupUniformLoad(&sel);',
    '    if (j != i) {',
    `      for (var k = lid; k < pr; k += ${WG}u) { let x = a[wi(k, i)]; a[wi(k, i)] = a[wi(k, j)]; a[wi(k, j)] = x; }`,
    ...(vectors ? [`      for (var k = lid; k < qc; k += ${WG}u) { let x = getv(k, i); setv(k, i, getv(k, j)); setv(k, j, x); }`] : []),
    '      storageBarrier();',
    '      workgroupBarrier();',
    '      if (lid == 0u) { let x = s[sb + i]; s[sb + i] = s[sb + j]; s[sb + j] = x; }',
    '    }',
    '    storageBarrier();',
    '    workgroupBarrier();',
    '  }',
    ...(vectors
      ? [
          // U': the normalized columns (zero where the value is), then the completion
          '  let cols = select(qc, pr, select(p(8u), p(7u), tall) == pr);',
          `  for (var e = lid; e < pr * cols; e += ${WG}u) {`,
          '    let r = e / cols;',
          '    let c = e % cols;',
          '    var x = 0.0;',
          '    if (c < qc && s[sb + c] > 0.0) { x = a[wi(r, c)] / s[sb + c]; }',
          '    seto(r, c, x);',
          '  }',
          '  storageBarrier();',
          '  workgroupBarrier();',
          '  if (lid != 0u) { return; }',
          '  for (var j = 0u; j < cols; j++) {',
          '    if (j < qc && s[sb + j] > 0.0) { continue; }',
          '    var bestE = 0u;',
          '    var bestN = -1.0;',
          '    for (var ps = 0u; ps < pr + 1u; ps++) {',
          '      let e = select(ps, bestE, ps == pr);',
          '      for (var r = 0u; r < pr; r++) { seto(r, j, select(0.0, 1.0, r == e)); }',
          '      for (var twice = 0u; twice < 2u; twice++) {',
          '        for (var c = 0u; c < cols; c++) {',
          '          if (c == j || (c > j && !(c < qc && s[sb + c] > 0.0))) { continue; }',
          '          var d = 0.0;',
          '          for (var r = 0u; r < pr; r++) { d += geto(r, c) * geto(r, j); }',
          '          for (var r = 0u; r < pr; r++) { seto(r, j, geto(r, j) - d * geto(r, c)); }',
          '        }',
          '      }',
          '      var nrm = 0.0;',
          '      for (var r = 0u; r < pr; r++) { nrm += geto(r, j) * geto(r, j); }',
          '      nrm = sqrt(nrm);',
          '      if (ps == pr) {',
          '        for (var r = 0u; r < pr; r++) { seto(r, j, geto(r, j) / nrm); }',
          '      } else if (nrm > bestN) { bestN = nrm; bestE = e; }',
          '    }',
          '  }',
        ]
      : []),
    '}',
  ].join('\n');
}

const SVD_VALUES = source(false);
const SVD_VECTORS = source(true);

export const svdImpls: Pick<BackendImpls, 'svd'> = {
  svd: (a: TensorImpl, s: TensorImpl, u: TensorImpl | null, vh: TensorImpl | null) => {
    const op = '_linalg_svd';
    requireF32(op, a);
    const [batch, m, n] = a.sizes;
    if (batch === 0 || m * n === 0) return;
    const params = new Uint32Array(PARAM_WORDS);
    params.set([batch, m, n, a.storageOffset, s.storageOffset, u?.storageOffset ?? 0, vh?.storageOffset ?? 0, u?.sizes[2] ?? 0, vh?.sizes[1] ?? 0]);
    const tensors = u && vh ? [a, s, u, vh] : [a, s];
    commandQueue(op).dispatch(u && vh ? SVD_VECTORS : SVD_VALUES, tensors.map(bindingOf), params, grid(op, batch * WG, WG));
  },
};
