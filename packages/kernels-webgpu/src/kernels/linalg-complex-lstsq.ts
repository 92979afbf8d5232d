/// <reference types="@webgpu/types" />
import { TensorImpl, type BackendImpls } from '@torch-ts/core';
import { MAIN, header } from './linalg';
import { COMPLEX, access, dims, launch, requireComplex64 } from './linalg-complex';
import { ZHOUSEHOLDER } from './linalg-complex-qr';
import { MEXP_BRANCHES } from './linalg-qr';
import { PRELUDE } from '../wgsl/prelude';

/**
 * Note [WebGPU complex lstsq and matrix_exp]
 * lstsqComplex / lstsqSvdComplex / matrixExpComplex (core's ComplexLinalgImpls) in complex64:
 * the CPU's algorithms (kernels-cpu Note [CPU complex lstsq and matrix_exp]) on the (real,
 * imaginary) float32 parts, laid out and launched as the other complex kernels (Note [WebGPU
 * complex LU, Cholesky, triangular solves and eigh]): one invocation per matrix, 64 matrices
 * to a workgroup, every decision (gels' info, gelsy's pivots and rank, the SVD drivers' kept
 * values, matrix_exp's degree and squarings) made on the device, no host round trip.
 *  - gels, m >= n: zgeqr2 on A in place (zlarfg as Note [WebGPU complex QR]'s), each H^H
 *    applied to B's columns in `x` too; X = R^-1 (Q^H B)[:n]. For m > n the residuals are
 *    LAPACK's, |(Q^H B)[n:]|^2 per column (the squared misfit of the least-squares solution),
 *    written into the real part of row n of `x` (imaginary part zero), where core reads them.
 *    m < n: the minimum-norm X = Q R^-H B from A^H = Q R. info: R's first zero diagonal entry;
 *  - gelsy: the same QR with the column of largest remaining norm first (recomputed each step,
 *    as the CPU's), the rank the leading |R_ii| above rcond |R_00|, X the minimum-norm solution
 *    of the rank-r trapezoid, un-pivoted;
 *  - gelsd / gelss (lstsqSvdComplex): V diag(1/s_kept) U^H B from core's SVD; for m > n row n's
 *    real part is |B - U_kept U_kept^H B|^2 per column;
 *  - matrixExpComplex: the real kernel's mexp (Note [WebGPU QR, eigh, lstsq and matrix_exp]:
 *    MEXP_BRANCHES, float32's thresholds, all coefficients real) on slots of complex matrices,
 *    the 1-norm the largest column sum of moduli; 1 x 1 is exp(re) (cos im, sin im) by the
 *    prelude's functions (WGSL's sin and cos are only 2^-11 accurate).
 * The scratch each needs (taus, pivots, A^H's factor, matrix_exp's ten powers) is allocated by
 * the impl and released once the dispatch is recorded (Note [Block reuse in submission order]).
 * complex128 is a DTypeError (no f64 in WGSL).
 *
 * Words: 0 batch, then the sizes, offsets (in floats) and flags each source lists.
 */

/** zlarfg on column `c` of buffer `buf` (row stride ld complex elements, rows r..m-1). */
function zlarfgOn(buf: string): string[] {
  return ZHOUSEHOLDER.slice(0, ZHOUSEHOLDER.indexOf('}') + 1).map((l) =>
    l.replace('fn zlarfg(', `fn zlarfg_${buf}(`).replaceAll('a_get(', `${buf}_get(`).replaceAll('a_set(', `${buf}_set(`).replaceAll('abs(a[', `abs(${buf}[`),
  );
}

/** (I - tau v v^H) C from the left: v column vc of `vb` (rows r..m-1, v[r] = 1), C columns c0..n-1 of `db`. */
function zlarfOn(vbuf: string, dbuf: string): string[] {
  return [
    `fn zlarf_${vbuf}_${dbuf}(vb: u32, vld: u32, vc: u32, tau: vec2<f32>, db: u32, dld: u32, m: u32, r: u32, c0: u32, n: u32) {`,
    '  if (tau.x == 0.0 && tau.y == 0.0) { return; }',
    '  for (var c = c0; c < n; c++) {',
    `    var s = ${dbuf}_get(ix(db, dld, r, c));`,
    `    for (var i = r + 1u; i < m; i++) { s = s + cmul(cconj(${vbuf}_get(ix(vb, vld, i, vc))), ${dbuf}_get(ix(db, dld, i, c))); }`,
    '    if (s.x != 0.0 || s.y != 0.0) {',
    '      let w = cmul(tau, s);',
    `      ${dbuf}_set(ix(db, dld, r, c), ${dbuf}_get(ix(db, dld, r, c)) - w);`,
    `      for (var i = r + 1u; i < m; i++) { ${dbuf}_set(ix(db, dld, i, c), ${dbuf}_get(ix(db, dld, i, c)) - cmul(${vbuf}_get(ix(vb, vld, i, vc)), w)); }`,
    '    }',
    '  }',
    '}',
  ];
}

/** |z| without overflow or underflow of the squares (the largest part factored out). */
const CABS = [
  'fn cabs(z: vec2<f32>) -> f32 {',
  '  let s = max(abs(z.x), abs(z.y));',
  '  if (s == 0.0 || s > 3.4028234e38) { return s; }',
  '  return s * length(z / s);',
  '}',
];

const LSTSQ_WORDS = 12;

/** Scratch floats per matrix of LSTSQ: tau [kk], jpvt [n], W^H [n, kk], tau2 [kk], y [n, k] (complex but jpvt). */
const lstsqScratch = (m: number, n: number, k: number): number => {
  const kk = Math.min(m, n);
  return 4 * kk + n + 2 * n * kk + 2 * n * k;
};

/**
 * words: 1 m, 2 n, 3 k, 4 a offset, 5 x offset, 6 rank offset, 7 info offset, 8 work offset, 9
 * pivot, 10 rcond (f32 bits).
 */
const LSTSQ = [
  ...header(['a: array<f32>', 'x: array<f32>', 'rk: array<i32>', 'info: array<i32>', 'wk: array<f32>'], LSTSQ_WORDS),
  ...COMPLEX,
  ...CABS,
  ...access('a'),
  ...access('x'),
  ...access('wk'),
  ...zlarfgOn('a'),
  ...zlarfgOn('wk'),
  ...zlarfOn('a', 'a'),
  ...zlarfOn('a', 'x'),
  ...zlarfOn('wk', 'wk'),
  // the 2-norm of column j of `a` over rows r..m-1 (scaled sum of squares, as dznrm2)
  'fn colnorm(ab: u32, n: u32, m: u32, r: u32, j: u32) -> f32 {',
  '  var scale = 0.0;',
  '  var ssq = 1.0;',
  '  for (var i = r; i < m; i++) {',
  '    for (var q = 0u; q < 2u; q++) {',
  '      let v = abs(a[ix(ab, n, i, j) + q]);',
  '      if (v != 0.0) {',
  '        if (scale < v) { ssq = 1.0 + ssq * (scale / v) * (scale / v); scale = v; } else { ssq = ssq + (v / scale) * (v / scale); }',
  '      }',
  '    }',
  '  }',
  '  return scale * sqrt(ssq);',
  '}',
  // the minimum-norm solution of W y = c (W the r x n rows of `a` from ab, c the first r rows
  // of x): y = Q R^-H c from W^H = Q R; returns R's first zero diagonal entry (1-based) or 0
  'fn min_norm(ab: u32, r: u32, n: u32, k: u32, xb: u32, wt: u32, t2: u32, yb: u32) -> i32 {',
  '  for (var i = 0u; i < r; i++) { for (var j = 0u; j < n; j++) { wk_set(ix(wt, r, j, i), cconj(a_get(ix(ab, n, i, j)))); } }',
  '  for (var i = 0u; i < r; i++) {',
  '    let t = zlarfg_wk(wt, r, n, i, i);',
  '    wk_set(t2 + 2u * i, t);',
  '    if (i + 1u < r) { zlarf_wk_wk(wt, r, i, cconj(t), wt, r, n, i, i + 1u, r); }',
  '  }',
  '  var bad = 0;',
  '  for (var i = 0u; i < r; i++) {',
  '    let d = wk_get(ix(wt, r, i, i));',
  '    if (bad == 0 && d.x == 0.0 && d.y == 0.0) { bad = i32(i + 1u); }',
  '  }',
  '  for (var i = 0u; i < 2u * n * k; i++) { wk[yb + i] = 0.0; }',
  // R^H z = c, forward
  '  for (var c = 0u; c < k; c++) {',
  '    for (var i = 0u; i < r; i++) {',
  '      var s = x_get(ix(xb, k, i, c));',
  '      for (var j = 0u; j < i; j++) { s = s - cmul(cconj(wk_get(ix(wt, r, j, i))), wk_get(ix(yb, k, j, c))); }',
  '      wk_set(ix(yb, k, i, c), cdiv(s, cconj(wk_get(ix(wt, r, i, i)))));',
  '    }',
  '  }',
  // y = H(0) ... H(r-1) [z; 0]
  '  for (var ii = 0u; ii < r; ii++) { let i = r - 1u - ii; zlarf_wk_wk(wt, r, i, wk_get(t2 + 2u * i), yb, k, n, i, 0u, k); }',
  '  return bad;',
  '}',
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = p(3u);',
  '  let kk = min(m, n);',
  '  let rows = max(m, n);',
  '  let ab = p(4u) + b * 2u * m * n;',
  '  let xb = p(5u) + b * 2u * rows * k;',
  '  let tb = p(8u) + b * (4u * kk + n + 2u * n * kk + 2u * n * k);',
  '  let jb = tb + 2u * kk;',
  '  let wt = jb + n;',
  '  let t2 = wt + 2u * n * kk;',
  '  let yb = t2 + 2u * kk;',
  '  var r = kk;',
  '  var bad = 0;',
  '  if (p(9u) == 0u && m < n) {',
  '    bad = min_norm(ab, m, n, k, xb, wt, t2, yb);',
  '    for (var i = 0u; i < 2u * n * k; i++) { x[xb + i] = wk[yb + i]; }',
  '  } else {',
  '    let pivot = p(9u) != 0u;',
  '    for (var j = 0u; j < n; j++) { wk[jb + j] = f32(j); }',
  '    for (var i = 0u; i < kk; i++) {',
  '      if (pivot) {',
  '        var pv = i;',
  '        var best = colnorm(ab, n, m, i, i);',
  '        for (var j = i + 1u; j < n; j++) {',
  '          let v = colnorm(ab, n, m, i, j);',
  '          if (v > best) { best = v; pv = j; }',
  '        }',
  '        if (pv != i) {',
  '          for (var rr = 0u; rr < m; rr++) {',
  '            let t = a_get(ix(ab, n, rr, i));',
  '            a_set(ix(ab, n, rr, i), a_get(ix(ab, n, rr, pv)));',
  '            a_set(ix(ab, n, rr, pv), t);',
  '          }',
  '          let tj = wk[jb + i];',
  '          wk[jb + i] = wk[jb + pv];',
  '          wk[jb + pv] = tj;',
  '        }',
  '      }',
  '      let t = zlarfg_a(ab, n, m, i, i);',
  '      wk_set(tb + 2u * i, t);',
  '      if (i + 1u < n) { zlarf_a_a(ab, n, i, cconj(t), ab, n, m, i, i + 1u, n); }',
  '    }',
  '    for (var i = 0u; i < kk; i++) { zlarf_a_x(ab, n, i, cconj(wk_get(tb + 2u * i)), xb, k, m, i, 0u, k); }',
  '    if (!pivot) {',
  '      for (var i = 0u; i < n; i++) {',
  '        let d = a_get(ix(ab, n, i, i));',
  '        if (bad == 0 && d.x == 0.0 && d.y == 0.0) { bad = i32(i + 1u); }',
  '      }',
  '      if (bad == 0) {',
  // the residuals first (rows n..m-1 of Q^H B), then R X = (Q^H B)[:n] backward
  '        if (m > n) {',
  '          for (var c = 0u; c < k; c++) {',
  '            var scale = 0.0;',
  '            var ssq = 1.0;',
  '            for (var i = n; i < m; i++) {',
  '              for (var q = 0u; q < 2u; q++) {',
  '                let v = abs(x[ix(xb, k, i, c) + q]);',
  '                if (v != 0.0) {',
  '                  if (scale < v) { ssq = 1.0 + ssq * (scale / v) * (scale / v); scale = v; } else { ssq = ssq + (v / scale) * (v / scale); }',
  '                }',
  '              }',
  '            }',
  '            x_set(ix(xb, k, n, c), vec2<f32>(scale * scale * ssq, 0.0));',
  '          }',
  '        }',
  '        for (var c = 0u; c < k; c++) {',
  '          for (var ii = 0u; ii < n; ii++) {',
  '            let i = n - 1u - ii;',
  '            var s = x_get(ix(xb, k, i, c));',
  '            for (var j = i + 1u; j < n; j++) { s = s - cmul(a_get(ix(ab, n, i, j)), x_get(ix(xb, k, j, c))); }',
  '            x_set(ix(xb, k, i, c), cdiv(s, a_get(ix(ab, n, i, i))));',
  '          }',
  '        }',
  '      }',
  '    } else {',
  '      let rcond = bitcast<f32>(p(10u));',
  '      var r00 = 0.0;',
  '      if (kk > 0u) { r00 = cabs(a_get(ab)); }',
  '      r = 0u;',
  '      loop {',
  '        if (r >= kk || !(r00 > 0.0) || !(cabs(a_get(ix(ab, n, r, r))) > rcond * r00)) { break; }',
  '        r = r + 1u;',
  '      }',
  // (R's rank-r trapezoid: the reflectors below its diagonal cleared)
  '      for (var i = 0u; i < r; i++) { for (var j = 0u; j < i; j++) { a_set(ix(ab, n, i, j), vec2<f32>(0.0, 0.0)); } }',
  '      if (r > 0u) { _ = min_norm(ab, r, n, k, xb, wt, t2, yb); } else { for (var i = 0u; i < 2u * n * k; i++) { wk[yb + i] = 0.0; } }',
  '      for (var j = 0u; j < n; j++) {',
  '        let dst = u32(wk[jb + j]);',
  '        for (var c = 0u; c < k; c++) { x_set(ix(xb, k, dst, c), wk_get(ix(yb, k, j, c))); }',
  '      }',
  '    }',
  '  }',
  '  rk[p(6u) + b] = i32(r);',
  '  info[p(7u) + b] = bad;',
  '}',
].join('\n');

const LSTSQ_SVD_WORDS = 16;

/**
 * words: 1 m, 2 n, 3 k, 4 kk, 5 u offset, 6 s offset, 7 vh offset, 8 x offset, 9 rank offset,
 * 10 work offset, 11 rcond, 12 floor (f32 bits). work per matrix: c = U_kept^H B [kk, k], complex.
 */
const LSTSQ_SVD = [
  ...header(['u: array<f32>', 's: array<f32>', 'vh: array<f32>', 'x: array<f32>', 'rk: array<i32>', 'wk: array<f32>'], LSTSQ_SVD_WORDS),
  ...COMPLEX,
  ...access('u'),
  ...access('vh'),
  ...access('x'),
  ...access('wk'),
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = p(3u);',
  '  let kk = p(4u);',
  '  let rows = max(m, n);',
  '  let ub = p(5u) + b * 2u * m * kk;',
  '  let sb = p(6u) + b * kk;',
  '  let vb = p(7u) + b * 2u * kk * n;',
  '  let xb = p(8u) + b * 2u * rows * k;',
  '  let wb = p(10u) + b * 2u * kk * k;',
  '  let thr = max(bitcast<f32>(p(11u)) * s[sb], bitcast<f32>(p(12u)));',
  '  let zero = vec2<f32>(0.0, 0.0);',
  '  var r = 0;',
  '  for (var i = 0u; i < kk; i++) {',
  '    let keep = s[sb + i] > thr;',
  '    if (keep) { r = r + 1; }',
  '    for (var j = 0u; j < k; j++) {',
  '      var t = zero;',
  '      if (keep) { for (var q = 0u; q < m; q++) { t = t + cmul(cconj(u_get(ix(ub, kk, q, i))), x_get(ix(xb, k, q, j))); } }',
  '      wk_set(ix(wb, k, i, j), t);',
  '    }',
  '  }',
  '  if (m > n) {',
  '    for (var j = 0u; j < k; j++) {',
  '      var res = 0.0;',
  '      for (var q = 0u; q < m; q++) {',
  '        var t = x_get(ix(xb, k, q, j));',
  // (a dropped value's c is 0: its column of U takes nothing away)
  '        for (var i = 0u; i < kk; i++) { t = t - cmul(u_get(ix(ub, kk, q, i)), wk_get(ix(wb, k, i, j))); }',
  '        res = res + dot(t, t);',
  '      }',
  '      x_set(ix(xb, k, n, j), vec2<f32>(res, 0.0));',
  '    }',
  '  }',
  '  for (var i = 0u; i < kk; i++) {',
  '    let si = s[sb + i];',
  '    for (var j = 0u; j < k; j++) { if (si > thr) { wk_set(ix(wb, k, i, j), wk_get(ix(wb, k, i, j)) / si); } }',
  '  }',
  // X = V c = Vh^H c
  '  for (var c = 0u; c < n; c++) {',
  '    for (var j = 0u; j < k; j++) {',
  '      var t = zero;',
  '      for (var i = 0u; i < kk; i++) { t = t + cmul(cconj(vh_get(ix(vb, n, i, c))), wk_get(ix(wb, k, i, j))); }',
  '      x_set(ix(xb, k, c, j), t);',
  '    }',
  '  }',
  '  rk[p(9u) + b] = r;',
  '}',
].join('\n');

/**
 * Slots of the scratch (n x n complex each), as the real kernel's: 0 A, 1 A^2, 2 A^3 (or A^4),
 * 3 A^6 (or A^8), 4..8 the B's, 9 a product's destination. `comb` takes real coefficients
 * (mexp's are all real): each part is combined alone, cI added to the diagonal's real parts.
 * words: 1 n, 2 out offset, 3 a offset, 4 work offset.
 */
const MATRIX_EXP = [
  ...header(['o: array<f32>', 'x: array<f32>', 'W: array<f32>']),
  PRELUDE,
  ...COMPLEX,
  ...CABS,
  'var<private> gn: u32;',
  'var<private> gsize: u32;',
  'var<private> gbase: u32;',
  'fn at(s: u32, i: u32) -> u32 { return gbase + s * gsize + i; }',
  'fn wget(s: u32, e: u32) -> vec2<f32> { return vec2<f32>(W[at(s, 2u * e)], W[at(s, 2u * e + 1u)]); }',
  'fn mm(d: u32, l: u32, r: u32) {',
  '  let n = gn;',
  '  for (var i = 0u; i < n; i++) {',
  '    for (var j = 0u; j < n; j++) {',
  '      var s = vec2<f32>(0.0, 0.0);',
  '      for (var k = 0u; k < n; k++) { s = s + cmul(wget(l, i * n + k), wget(r, k * n + j)); }',
  '      W[at(d, 2u * (i * n + j))] = s.x;',
  '      W[at(d, 2u * (i * n + j) + 1u)] = s.y;',
  '    }',
  '  }',
  '}',
  'fn comb(d: u32, cI: f32, c0: array<f32, 5>, s0: array<u32, 5>, count: u32) {',
  '  let n = gn;',
  '  var c = c0;',
  '  var s = s0;',
  '  for (var i = 0u; i < gsize; i++) {',
  '    var v = select(0.0, cI, i % 2u == 0u && (i / 2u) % (n + 1u) == 0u);',
  '    for (var k = 0u; k < count; k++) { v = v + c[k] * W[at(s[k], i)]; }',
  '    W[at(d, i)] = v;',
  '  }',
  '}',
  ...MAIN,
  '  let n = p(1u);',
  '  gn = n;',
  '  gsize = 2u * n * n;',
  '  gbase = p(4u) + b * 10u * gsize;',
  '  let ib = p(3u) + b * gsize;',
  '  let ob = p(2u) + b * gsize;',
  '  for (var i = 0u; i < gsize; i++) { W[at(0u, i)] = x[ib + i]; }',
  '  if (n == 1u) {',
  // (the prelude's exp, sin and cos: WGSL's builtins are only 2^-11 accurate in sin and cos)
  '    let e = exp_f(x[ib]);',
  '    o[ob] = e * cos_f(x[ib + 1u]);',
  '    o[ob + 1u] = e * sin_f(x[ib + 1u]);',
  '    return;',
  '  }',
  '  var norm = 0.0;',
  '  var nan = false;',
  '  for (var j = 0u; j < n; j++) {',
  '    var s = 0.0;',
  '    for (var i = 0u; i < n; i++) { s = s + cabs(wget(0u, i * n + j)); }',
  '    if (isnan_f(s)) { nan = true; }',
  '    norm = max(norm, s);',
  '  }',
  ...MEXP_BRANCHES,
  '  for (var i = 0u; i < gsize; i++) { o[ob + i] = W[at(9u, i)]; }',
  '}',
].join('\n');

const f32Bits = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0];

/** Runs `record` with a fresh float32 scratch of `floats`, released once the dispatch is recorded. */
function withScratch(op: string, floats: number, like: TensorImpl, record: (w: TensorImpl) => void): void {
  const w = TensorImpl.empty(op, [Math.max(1, floats)], 'float32', like.device);
  try {
    record(w);
  } finally {
    w.release(); // (Note [Block reuse in submission order])
  }
}

export const linalgComplexLstsqImpls: Pick<BackendImpls, 'lstsqComplex' | 'lstsqSvdComplex' | 'matrixExpComplex'> = {
  lstsqComplex: (a, x, rank, info, pivot, rcond) => {
    requireComplex64('linalg_lstsq', a);
    const [batch, m, n] = dims(a);
    const k = x.sizes[x.sizes.length - 2];
    if (batch === 0) return;
    withScratch('linalg_lstsq', batch * lstsqScratch(m, n, k), a, (w) => {
      const words = [batch, m, n, k, a.storageOffset, x.storageOffset, rank.storageOffset, info.storageOffset, w.storageOffset, pivot ? 1 : 0, f32Bits(rcond)];
      launch('linalg_lstsq', LSTSQ, [a, x, rank, info, w], words, batch, LSTSQ_WORDS);
    });
  },
  lstsqSvdComplex: (u, s, vh, x, rank, rcond, floor) => {
    requireComplex64('linalg_lstsq', u);
    const [batch, m, kk] = dims(u);
    const n = vh.sizes[vh.sizes.length - 2];
    const k = x.sizes[x.sizes.length - 2];
    if (batch === 0) return;
    withScratch('linalg_lstsq', batch * 2 * kk * k, u, (w) => {
      const words = [batch, m, n, k, kk, u.storageOffset, s.storageOffset, vh.storageOffset, x.storageOffset, rank.storageOffset, w.storageOffset, f32Bits(rcond), f32Bits(floor)];
      launch('linalg_lstsq', LSTSQ_SVD, [u, s, vh, x, rank, w], words, batch, LSTSQ_SVD_WORDS);
    });
  },
  matrixExpComplex: (out, a) => {
    requireComplex64('linalg_matrix_exp', a);
    const [batch, n] = dims(a);
    if (batch === 0) return;
    withScratch('linalg_matrix_exp', batch * 10 * 2 * n * n, a, (w) => {
      launch('linalg_matrix_exp', MATRIX_EXP, [out, a, w], [batch, n, out.storageOffset, a.storageOffset, w.storageOffset], batch);
    });
  },
};
