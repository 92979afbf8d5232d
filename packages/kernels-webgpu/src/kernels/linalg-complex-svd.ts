/// <reference types="@webgpu/types" />
import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingOf, grid } from './launch';
import { COMPLEX, access, requireComplex64 } from './linalg-complex';
import { MAX_SWEEPS, PARAM_WORDS, TOL, WG } from './linalg-svd';

/**
 * Note [WebGPU complex SVD: complex rotations, a workgroup per matrix]
 * core's svdComplex (Note [Complex SVD]) in complex64, laid out as the other complex kernels
 * (Note [WebGPU complex LU, Cholesky, triangular solves and eigh]: the (real, imaginary)
 * float32 parts, element (i, j) at base + 2 (i n + j)) and scheduled as the real WebGPU SVD
 * (Note [WebGPU SVD: one-sided Jacobi, a workgroup per matrix]): one workgroup per matrix,
 * each sweep the q - 1 rounds of a round-robin tournament over W's q columns, one invocation
 * per disjoint pair, a barrier between rounds, a workgroup flag ending the sweeps once one
 * rotates nothing. Each rotation is the CPU kernel's (Note [CPU complex SVD: one-sided Jacobi
 * with complex rotations]): for gamma = w_i^H w_j = g e^{i phi}, w_j (and v_j) is multiplied
 * by e^{-i phi}, then the real rotation with zeta = (beta - alpha) / (2 g). W is A (tall) or
 * A^H (wide), read and written in place through a conjugating accessor; V accumulates in the
 * output that holds it (Vh = V^H for a tall A, U = V for a wide one), U' (W's normalized
 * columns, completed by complex Gram-Schmidt on the standard basis by invocation 0) in the
 * other (U for a tall A, Vh = U'^H for a wide one). Singular values descending, as the CPU's.
 *
 * The phase: a pair (u_i, v_i) is unique up to a common unit phase, and the rotations' order
 * decides it, so after sorting both backends normalize it the same way (Note [Complex SVD
 * phase convention] in kernels-cpu's linalg-complex-svd.ts): the first entry of V's column
 * v_i (Vh's row conjugated for a tall A, U's column for a wide one) whose magnitude is within
 * a factor (1 - 1/64) of the column's largest is made real and positive (W's column, hence
 * the pair's other vector, turned by the same phase). The slack keeps float32 rounding from picking
 * another entry than float64 does where two magnitudes tie. No host round trip.
 *
 * Words: 0 batch, 1 m, 2 n, 3 a offset, 4 s offset, 5 u offset, 6 vh offset (in floats),
 * 7 U's columns, 8 Vh's rows.
 */

function source(vectors: boolean): string {
  const bindings = ['a: array<f32>', 's: array<f32>', ...(vectors ? ['u: array<f32>', 'vh: array<f32>'] : [])];
  return [
    ...bindings.map((b, i) => `@group(0) @binding(${i}) var<storage, read_write> ${b};`),
    `struct Params { w: array<vec4<u32>, ${PARAM_WORDS / 4}> };`,
    `@group(0) @binding(${bindings.length}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
    ...COMPLEX,
    ...access('a'),
    'var<workgroup> rotated: atomic<u32>;',
    'var<workgroup> flag: u32;',
    'var<workgroup> sel: u32;',
    'var<private> base: u32;',
    'var<private> tall: bool;',
    'var<private> n: u32;',
    // W (p x q) in place in a: a tall A itself, or a wide A's conjugate transpose
    'fn wget(i: u32, j: u32) -> vec2<f32> { if (tall) { return a_get(ix(base, n, i, j)); } return cconj(a_get(ix(base, n, j, i))); }',
    'fn wset(i: u32, j: u32, z: vec2<f32>) { if (tall) { a_set(ix(base, n, i, j), z); } else { a_set(ix(base, n, j, i), cconj(z)); } }',
    ...(vectors
      ? [
          ...access('u'),
          ...access('vh'),
          'var<private> ub: u32;',
          'var<private> vb: u32;',
          'var<private> q: u32;',
          'var<private> uc: u32;',
          // V (q x q), where the output holds it: Vh = V^H (tall), U = V (wide)
          'fn getv(r: u32, c: u32) -> vec2<f32> { if (tall) { return cconj(vh_get(ix(vb, q, c, r))); } return u_get(ix(ub, q, r, c)); }',
          'fn setv(r: u32, c: u32, z: vec2<f32>) { if (tall) { vh_set(ix(vb, q, c, r), cconj(z)); } else { u_set(ix(ub, q, r, c), z); } }',
          // U' (p x cols): U (tall), Vh^H (wide)
          'fn geto(r: u32, c: u32) -> vec2<f32> { if (tall) { return u_get(ix(ub, uc, r, c)); } return cconj(vh_get(ix(vb, n, c, r))); }',
          'fn seto(r: u32, c: u32, z: vec2<f32>) { if (tall) { u_set(ix(ub, uc, r, c), z); } else { vh_set(ix(vb, n, c, r), cconj(z)); } }',
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
    '  base = p(3u) + b * 2u * m * p(2u);',
    '  let sb = p(4u) + b * qc;',
    ...(vectors
      ? [
          '  q = qc;',
          '  uc = p(7u);',
          '  ub = p(5u) + b * 2u * m * p(7u);',
          '  vb = p(6u) + b * 2u * p(8u) * p(2u);',
          '  for (var e = lid; e < qc * qc; e += ' + WG + 'u) { setv(e / qc, e % qc, vec2<f32>(select(0.0, 1.0, e / qc == e % qc), 0.0)); }',
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
    '        var gamma = vec2<f32>(0.0, 0.0);',
    '        for (var k = 0u; k < pr; k++) {',
    '          let x = wget(k, i);',
    '          let y = wget(k, j);',
    '          alpha += dot(x, x);',
    '          beta += dot(y, y);',
    '          gamma += cmul(cconj(x), y);',
    '        }',
    '        let g = length(gamma);',
    `        if (alpha == 0.0 || beta == 0.0 || !(g > ${TOL} * sqrt(alpha) * sqrt(beta))) { continue; }`,
    '        atomicStore(&rotated, 1u);',
    '        let zeta = (beta - alpha) / (2.0 * g);',
    '        let tt = select(-1.0, 1.0, zeta >= 0.0) / (abs(zeta) + sqrt(1.0 + zeta * zeta));',
    '        let c = 1.0 / sqrt(1.0 + tt * tt);',
    '        let sn = c * tt;',
    // e^{-i phi}
    '        let ph = cconj(gamma / g);',
    '        for (var k = 0u; k < pr; k++) {',
    '          let x = wget(k, i);',
    '          let y = cmul(wget(k, j), ph);',
    '          wset(k, i, c * x - sn * y);',
    '          wset(k, j, sn * x + c * y);',
    '        }',
    ...(vectors
      ? [
          '        for (var k = 0u; k < qc; k++) {',
          '          let x = getv(k, i);',
          '          let y = cmul(getv(k, j), ph);',
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
    '    for (var k = 0u; k < pr; k++) { let x = wget(k, j); ss += dot(x, x); }',
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
    `      for (var k = lid; k < pr; k += ${WG}u) { let x = wget(k, i); wset(k, i, wget(k, j)); wset(k, j, x); }`,
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
          // the phase (Note [Complex SVD phase convention]): v_i's first entry within 1/64 of its
          // largest magnitude real and positive, W's column turned with it
          `  for (var j = lid; j < qc; j += ${WG}u) {`,
          '    var big = 0.0;',
          '    for (var k = 0u; k < qc; k++) { big = max(big, length(getv(k, j))); }',
          '    var z = vec2<f32>(1.0, 0.0);',
          '    for (var k = 0u; k < qc; k++) {',
          '      let y = getv(k, j);',
          '      let l = length(y);',
          '      if (l > 0.0 && l >= big * (1.0 - 1.0 / 64.0)) { z = cconj(y / l); break; }',
          '    }',
          '    for (var k = 0u; k < qc; k++) { setv(k, j, cmul(getv(k, j), z)); }',
          '    for (var k = 0u; k < pr; k++) { wset(k, j, cmul(wget(k, j), z)); }',
          '  }',
          '  storageBarrier();',
          '  workgroupBarrier();',
          // U': the normalized columns (zero where the value is), then the completion
          '  let cols = select(qc, pr, select(p(8u), p(7u), tall) == pr);',
          `  for (var e = lid; e < pr * cols; e += ${WG}u) {`,
          '    let r = e / cols;',
          '    let c = e % cols;',
          '    var x = vec2<f32>(0.0, 0.0);',
          '    if (c < qc && s[sb + c] > 0.0) { x = wget(r, c) / s[sb + c]; }',
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
          '      for (var r = 0u; r < pr; r++) { seto(r, j, vec2<f32>(select(0.0, 1.0, r == e), 0.0)); }',
          '      for (var twice = 0u; twice < 2u; twice++) {',
          '        for (var c = 0u; c < cols; c++) {',
          '          if (c == j || (c > j && !(c < qc && s[sb + c] > 0.0))) { continue; }',
          '          var d = vec2<f32>(0.0, 0.0);',
          '          for (var r = 0u; r < pr; r++) { d += cmul(cconj(geto(r, c)), geto(r, j)); }',
          '          for (var r = 0u; r < pr; r++) { seto(r, j, geto(r, j) - cmul(d, geto(r, c))); }',
          '        }',
          '      }',
          '      var nrm = 0.0;',
          '      for (var r = 0u; r < pr; r++) { let x = geto(r, j); nrm += dot(x, x); }',
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

export const svdComplexImpls: Pick<BackendImpls, 'svdComplex'> = {
  svdComplex: (a: TensorImpl, s: TensorImpl, u: TensorImpl | null, vh: TensorImpl | null) => {
    const op = '_linalg_svd';
    requireComplex64(op, a);
    const [batch, m, n] = a.sizes;
    if (batch === 0 || m * n === 0) return;
    const params = new Uint32Array(PARAM_WORDS);
    params.set([batch, m, n, a.storageOffset, s.storageOffset, u?.storageOffset ?? 0, vh?.storageOffset ?? 0, u?.sizes[2] ?? 0, vh?.sizes[1] ?? 0]);
    const tensors = u && vh ? [a, s, u, vh] : [a, s];
    commandQueue(op).dispatch(u && vh ? SVD_VECTORS : SVD_VALUES, tensors.map(bindingOf), params, grid(op, batch * WG, WG));
  },
};
