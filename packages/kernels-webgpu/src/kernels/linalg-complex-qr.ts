/// <reference types="@webgpu/types" />
import type { BackendImpls } from '@torch-ts/core';
import { MAIN, header } from './linalg';
import { COMPLEX, access, dims, launch, requireComplex64 } from './linalg-complex';

/**
 * Note [WebGPU complex QR]
 * geqrfComplex / householderProductComplex (core's ComplexLinalgImpls) in complex64: the
 * CPU's zgeqr2 / zung2r (Note [CPU complex QR]) on the (real, imaginary) float32 parts,
 * laid out and launched as the other complex kernels (Note [WebGPU complex LU, Cholesky,
 * triangular solves and eigh]): one invocation per matrix, 64 matrices to a workgroup,
 * in place, no host round trip. The reflector is zlarfg's, so tau and R's (real) diagonal
 * follow LAPACK's conventions as the CPU's do: beta = -sign(Re alpha) |(alpha, x)|, tau =
 * ((beta - Re alpha) / beta, -Im alpha / beta), v = x / (alpha - beta); geqr2 applies
 * H(i)^H (tau conjugated), ung2r forms H(0) ... H(k-1) with tau itself. The norms are
 * scaled (dznrm2's sum of squares, a hypot by the largest part) so float32 does not
 * overflow where the entries are representable. complex128 is a DTypeError (no f64 in WGSL).
 *
 * Words: 0 batch, then the sizes and offsets (in floats) each source lists.
 */

/** zlarfg and zlarf (from the left) on the module-scope buffer `a`, n columns. */
export const ZHOUSEHOLDER = [
  // tau of the column c from row r (a[r, c] becomes beta, the rows below v[1:])
  'fn zlarfg(base: u32, n: u32, m: u32, r: u32, c: u32) -> vec2<f32> {',
  '  var scale = 0.0;',
  '  var ssq = 1.0;',
  '  for (var i = r + 1u; i < m; i++) {',
  '    for (var q = 0u; q < 2u; q++) {',
  '      let v = abs(a[ix(base, n, i, c) + q]);',
  '      if (v != 0.0) {',
  '        if (scale < v) { ssq = 1.0 + ssq * (scale / v) * (scale / v); scale = v; } else { ssq = ssq + (v / scale) * (v / scale); }',
  '      }',
  '    }',
  '  }',
  '  let xnorm = scale * sqrt(ssq);',
  '  let alpha = a_get(ix(base, n, r, c));',
  '  if (xnorm == 0.0 && alpha.y == 0.0) { return vec2<f32>(0.0, 0.0); }',
  // hypot(Re alpha, Im alpha, xnorm) scaled by its largest part
  '  let big = max(max(abs(alpha.x), abs(alpha.y)), xnorm);',
  '  let h = big * sqrt((alpha.x / big) * (alpha.x / big) + (alpha.y / big) * (alpha.y / big) + (xnorm / big) * (xnorm / big));',
  '  var beta = -h;',
  '  if (alpha.x < 0.0) { beta = h; }',
  '  let tau = vec2<f32>((beta - alpha.x) / beta, -alpha.y / beta);',
  '  let s = cdiv(vec2<f32>(1.0, 0.0), alpha - vec2<f32>(beta, 0.0));',
  '  for (var i = r + 1u; i < m; i++) { a_set(ix(base, n, i, c), cmul(a_get(ix(base, n, i, c)), s)); }',
  '  a_set(ix(base, n, r, c), vec2<f32>(beta, 0.0));',
  '  return tau;',
  '}',
  // C := (I - tau v v^H) C on rows r..m-1 of columns c0..n-1, v the column vc from row r (v[r] = 1)
  'fn zlarf(base: u32, n: u32, m: u32, r: u32, vc: u32, tau: vec2<f32>, c0: u32) {',
  '  if (tau.x == 0.0 && tau.y == 0.0) { return; }',
  '  for (var c = c0; c < n; c++) {',
  '    var s = a_get(ix(base, n, r, c));',
  '    for (var i = r + 1u; i < m; i++) { s = s + cmul(cconj(a_get(ix(base, n, i, vc))), a_get(ix(base, n, i, c))); }',
  '    if (s.x != 0.0 || s.y != 0.0) {',
  '      let w = cmul(tau, s);',
  '      a_set(ix(base, n, r, c), a_get(ix(base, n, r, c)) - w);',
  '      for (var i = r + 1u; i < m; i++) { a_set(ix(base, n, i, c), a_get(ix(base, n, i, c)) - cmul(a_get(ix(base, n, i, vc)), w)); }',
  '    }',
  '  }',
  '}',
];

// words: 1 m, 2 n, 3 a offset, 4 tau offset
const GEQRF = [
  ...header(['a: array<f32>', 'tau: array<f32>']),
  ...COMPLEX,
  ...access('a'),
  ...access('tau'),
  ...ZHOUSEHOLDER,
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = min(m, n);',
  '  let base = p(3u) + b * 2u * m * n;',
  '  for (var i = 0u; i < k; i++) {',
  '    let t = zlarfg(base, n, m, i, i);',
  '    tau_set(p(4u) + 2u * (b * k + i), t);',
  '    if (i + 1u < n) { zlarf(base, n, m, i, i, cconj(t), i + 1u); }',
  '  }',
  '}',
].join('\n');

// words: 1 m, 2 n, 3 k, 4 q offset, 5 tau offset
const UNG2R = [
  ...header(['a: array<f32>', 'tau: array<f32>']),
  ...COMPLEX,
  ...access('a'),
  ...access('tau'),
  ...ZHOUSEHOLDER,
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = p(3u);',
  '  let base = p(4u) + b * 2u * m * n;',
  '  let zero = vec2<f32>(0.0, 0.0);',
  '  for (var j = k; j < n; j++) {',
  '    for (var i = 0u; i < m; i++) { a_set(ix(base, n, i, j), zero); }',
  '    if (j < m) { a_set(ix(base, n, j, j), vec2<f32>(1.0, 0.0)); }',
  '  }',
  '  for (var ii = 0u; ii < k; ii++) {',
  '    let i = k - 1u - ii;',
  '    let t = tau_get(p(5u) + 2u * (b * k + i));',
  '    if (i + 1u < n) {',
  '      a_set(ix(base, n, i, i), vec2<f32>(1.0, 0.0));',
  '      zlarf(base, n, m, i, i, t, i + 1u);',
  '    }',
  '    for (var r = i + 1u; r < m; r++) { a_set(ix(base, n, r, i), -cmul(t, a_get(ix(base, n, r, i)))); }',
  '    a_set(ix(base, n, i, i), vec2<f32>(1.0 - t.x, -t.y));',
  '    for (var r = 0u; r < i; r++) { a_set(ix(base, n, r, i), zero); }',
  '  }',
  '}',
].join('\n');

export const linalgComplexQrImpls: Pick<BackendImpls, 'geqrfComplex' | 'householderProductComplex'> = {
  geqrfComplex: (a, tau) => {
    requireComplex64('geqrf', a);
    const [batch, m, n] = dims(a);
    launch('geqrf', GEQRF, [a, tau], [batch, m, n, a.storageOffset, tau.storageOffset], batch);
  },
  householderProductComplex: (q, tau) => {
    requireComplex64('linalg_householder_product', q);
    const [batch, m, n] = dims(q);
    const k = tau.sizes[tau.sizes.length - 2];
    launch('linalg_householder_product', UNG2R, [q, tau], [batch, m, n, k, q.storageOffset, tau.storageOffset], batch);
  },
};
