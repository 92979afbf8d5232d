/// <reference types="@webgpu/types" />
import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingOf, grid } from './launch';
import { requireF32 } from './softmax';
import { MAIN, header } from './linalg';

/**
 * Note [WebGPU QR, eigh, lstsq and matrix_exp]
 * The kernels of core's LinalgQrImpls in float32, one invocation per matrix of the batch, 64
 * matrices to a workgroup, as the LU family's (Note [WebGPU LU, Cholesky and triangular
 * solves]): each invocation runs the CPU kernels' loops (Note [CPU QR, eigh, lstsq and
 * matrix_exp]) on its matrix, in the buffers core hands it (`work` for eigh's rotations and
 * matrix_exp's powers), so nothing waits on a barrier or a host round trip, and the degree
 * and the number of squarings of matrix_exp are chosen on the device per matrix (ATen reads
 * the norms on the host). Batches of small and medium matrices fill the device; a single
 * large matrix runs on one invocation (a workgroup-cooperative form is future work, as the
 * LU family's). lstsq's gelsy decides the rank on the device too, as do gelsd and gelss
 * (lstsqSvd) from the SVD core computed.
 *
 * Words: 0 batch, then the op's sizes, offsets and flags as each source lists them.
 */

const WG = 64;
const PARAM_WORDS = 8;


/** dlarfg and dlarf (from the left) on the module-scope buffer `a`, row stride `ld`. */
const HOUSEHOLDER = [
  // the column c below row r (rows r+1..m-1) scaled as dnrm2, then the reflector
  'fn larfg(base: u32, ld: u32, m: u32, r: u32, c: u32) -> f32 {',
  '  var scale = 0.0;',
  '  var ssq = 1.0;',
  '  for (var i = r + 1u; i < m; i++) {',
  '    let v = abs(a[base + i * ld + c]);',
  '    if (v != 0.0) {',
  '      if (scale < v) { ssq = 1.0 + ssq * (scale / v) * (scale / v); scale = v; } else { ssq = ssq + (v / scale) * (v / scale); }',
  '    }',
  '  }',
  '  let xnorm = scale * sqrt(ssq);',
  '  if (xnorm == 0.0) { return 0.0; }',
  '  let alpha = a[base + r * ld + c];',
  '  let big = max(abs(alpha), xnorm);',
  '  let small = min(abs(alpha), xnorm);',
  '  let h = big * sqrt(1.0 + (small / big) * (small / big));',
  '  var beta = -h;',
  '  if (alpha < 0.0) { beta = h; }',
  '  let tau = (beta - alpha) / beta;',
  '  let s = 1.0 / (alpha - beta);',
  '  for (var i = r + 1u; i < m; i++) { a[base + i * ld + c] = a[base + i * ld + c] * s; }',
  '  a[base + r * ld + c] = beta;',
  '  return tau;',
  '}',
  // H = I - tau v v^T (v: column vc from row r, v[r] = 1) on rows r..m-1 of columns c0..n-1
  'fn larf(base: u32, ld: u32, vc: u32, tau: f32, m: u32, r: u32, c0: u32, n: u32) {',
  '  if (tau == 0.0) { return; }',
  '  for (var c = c0; c < n; c++) {',
  '    var w = a[base + r * ld + c];',
  '    for (var i = r + 1u; i < m; i++) { w = w + a[base + i * ld + vc] * a[base + i * ld + c]; }',
  '    if (w != 0.0) {',
  '      w = w * tau;',
  '      a[base + r * ld + c] = a[base + r * ld + c] - w;',
  '      for (var i = r + 1u; i < m; i++) { a[base + i * ld + c] = a[base + i * ld + c] - a[base + i * ld + vc] * w; }',
  '    }',
  '  }',
  '}',
];

// words: 1 m, 2 n, 3 a offset, 4 tau offset
const GEQRF = [
  ...header(['a: array<f32>', 'tau: array<f32>']),
  ...HOUSEHOLDER,
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = min(m, n);',
  '  let base = p(3u) + b * m * n;',
  '  for (var i = 0u; i < k; i++) {',
  '    let t = larfg(base, n, m, i, i);',
  '    tau[p(4u) + b * k + i] = t;',
  '    if (i + 1u < n) { larf(base, n, i, t, m, i, i + 1u, n); }',
  '  }',
  '}',
].join('\n');

// words: 1 m, 2 n, 3 k, 4 q offset, 5 tau offset
const ORGQR = [
  ...header(['a: array<f32>', 'tau: array<f32>']),
  ...HOUSEHOLDER,
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = p(3u);',
  '  let base = p(4u) + b * m * n;',
  '  let tb = p(5u) + b * k;',
  '  for (var j = k; j < n; j++) {',
  '    for (var i = 0u; i < m; i++) { a[base + i * n + j] = 0.0; }',
  '    if (j < m) { a[base + j * n + j] = 1.0; }',
  '  }',
  '  for (var ii = 0u; ii < k; ii++) {',
  '    let i = k - 1u - ii;',
  '    let t = tau[tb + i];',
  '    if (i + 1u < n) {',
  '      a[base + i * n + i] = 1.0;',
  '      larf(base, n, i, t, m, i, i + 1u, n);',
  '    }',
  '    for (var r = i + 1u; r < m; r++) { a[base + r * n + i] = a[base + r * n + i] * -t; }',
  '    a[base + i * n + i] = 1.0 - t;',
  '    for (var r = 0u; r < i; r++) { a[base + r * n + i] = 0.0; }',
  '  }',
  '}',
].join('\n');

// words: 1 n, 2 a offset, 3 w offset, 4 work offset, 5 upper
const EIGH = [
  ...header(['a: array<f32>', 'w: array<f32>', 'v: array<f32>']),
  ...MAIN,
  '  let n = p(1u);',
  '  let base = p(2u) + b * n * n;',
  '  let vb = p(4u) + b * n * n;',
  '  let upper = p(5u) != 0u;',
  '  for (var i = 0u; i < n; i++) {',
  '    for (var j = i + 1u; j < n; j++) {',
  '      if (upper) { a[base + j * n + i] = a[base + i * n + j]; } else { a[base + i * n + j] = a[base + j * n + i]; }',
  '    }',
  '    for (var j = 0u; j < n; j++) { v[vb + i * n + j] = select(0.0, 1.0, i == j); }',
  '  }',
  // cyclic Jacobi: float32 converges in a handful of sweeps; 60 bounds a pathological input
  '  for (var sweep = 0u; sweep < 60u; sweep++) {',
  '    var rotated = false;',
  '    for (var pp = 0u; pp + 1u < n; pp++) {',
  '      for (var q = pp + 1u; q < n; q++) {',
  '        let apq = a[base + pp * n + q];',
  '        if (apq == 0.0) { continue; }',
  '        let app = a[base + pp * n + pp];',
  '        let aqq = a[base + q * n + q];',
  '        if (abs(apq) <= 5.9604645e-8 * sqrt(abs(app * aqq))) {',
  '          a[base + pp * n + q] = 0.0;',
  '          a[base + q * n + pp] = 0.0;',
  '          continue;',
  '        }',
  '        rotated = true;',
  '        let zeta = (aqq - app) / (2.0 * apq);',
  '        var sg = 1.0;',
  '        if (zeta < 0.0) { sg = -1.0; }',
  '        let az = abs(zeta);',
  // (hypot(1, zeta) without overflow for a huge zeta)
  '        var hz = az * sqrt(1.0 + (1.0 / az) * (1.0 / az));',
  '        if (az <= 1.0) { hz = sqrt(1.0 + az * az); }',
  '        let t = sg / (az + hz);',
  '        let c = 1.0 / sqrt(1.0 + t * t);',
  '        let s = t * c;',
  '        for (var k = 0u; k < n; k++) {',
  '          let akp = a[base + k * n + pp];',
  '          let akq = a[base + k * n + q];',
  '          a[base + k * n + pp] = c * akp - s * akq;',
  '          a[base + k * n + q] = s * akp + c * akq;',
  '        }',
  '        for (var k = 0u; k < n; k++) {',
  '          let apk = a[base + pp * n + k];',
  '          let aqk = a[base + q * n + k];',
  '          a[base + pp * n + k] = c * apk - s * aqk;',
  '          a[base + q * n + k] = s * apk + c * aqk;',
  '        }',
  '        a[base + pp * n + q] = 0.0;',
  '        a[base + q * n + pp] = 0.0;',
  '        for (var k = 0u; k < n; k++) {',
  '          let vkp = v[vb + k * n + pp];',
  '          let vkq = v[vb + k * n + q];',
  '          v[vb + k * n + pp] = c * vkp - s * vkq;',
  '          v[vb + k * n + q] = s * vkp + c * vkq;',
  '        }',
  '      }',
  '    }',
  '    if (!rotated) { break; }',
  '  }',
  // eigenvalues ascending (selection sort, the first of equal ones first), their columns with them
  '  let wb = p(3u) + b * n;',
  '  for (var i = 0u; i < n; i++) { w[wb + i] = a[base + i * n + i]; }',
  '  for (var i = 0u; i < n; i++) {',
  '    var best = i;',
  '    for (var j = i + 1u; j < n; j++) { if (w[wb + j] < w[wb + best]) { best = j; } }',
  '    if (best != i) {',
  '      let t = w[wb + i];',
  '      w[wb + i] = w[wb + best];',
  '      w[wb + best] = t;',
  '      for (var k = 0u; k < n; k++) {',
  '        let x = v[vb + k * n + i];',
  '        v[vb + k * n + i] = v[vb + k * n + best];',
  '        v[vb + k * n + best] = x;',
  '      }',
  '    }',
  '  }',
  '  for (var i = 0u; i < n * n; i++) { a[base + i] = v[vb + i]; }',
  '}',
].join('\n');

// ATen's mexp constants (float32 thresholds: WebGPU computes float32 only)
export const THETAS = [1.192092800768788e-7, 5.978858893805233e-4, 5.116619363445086e-2, 5.800524627688768e-1, 1.461661507209034, 3.010066362817634];
export const SQRT_177 = 0.1330413469565007072504e2;
export const X3 = 2 / 3;
export const T8 = [
  X3 * ((1 + SQRT_177) / 88),
  X3 * ((1 + SQRT_177) / 352),
  (-271 + 29 * SQRT_177) / (315 * X3),
  (-11 + 11 * SQRT_177) / (1260 * X3),
  (-99 + 11 * SQRT_177) / (5040 * X3),
  (89 - SQRT_177) / (5040 * X3),
  (857 - 58 * SQRT_177) / 630,
];
export const B12 = [
  [9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.0462394613406307174],
  [5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989],
  [0.18188869982170434744, 0.0550279843992539907, 0.09351590770535414968, 0.0061070052889805823],
  [-2.086132e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359],
];
export const B18 = [
  [0, -1.00365581030144618291e-1, -8.02924648241156932449e-3, -8.92138498045729985177e-4, 0],
  [0, 3.97849749499645077844e-1, 1.36783778460411720168, 4.98289622525382669416e-1, -6.3789819459472328015e-4],
  [-1.09676396052962061844e1, 1.68015813878906206114, 5.71779846478865511061e-2, -6.98210122488052056106e-3, 3.34975017086070470649e-5],
  [-9.04316832390810593223e-2, -6.76404519071381882256e-2, 6.75961301770459654925e-2, 2.95552570429315521194e-2, -1.39180257516060693404e-5],
  [0, 0, -9.2336461936711855536e-2, -1.69364939002081722752e-2, -1.40086798182036094347e-5],
];
/** A float32 WGSL literal of x. */
export const f = (x: number): string => {
  const s = Math.fround(x).toExponential(9);
  return s.includes('e') ? s.replace('e+', 'e') : s;
};

/**
 * ATen's mexp after the 1-norm `norm` (and `nan`) is known, on the slots of MATRIX_EXP's
 * `work`: the degree from the norm, the polynomial by `mm(d, l, r)` and `comb`, scaling and
 * squaring; the result in slot 9. Element-type free: the caller's `mm`, `comb` and `at`
 * define the arithmetic (real here, complex in linalg-complex-lstsq.ts) and `gsize` is the
 * floats of one slot; a NaN norm fills `o` from `ob` with NaN and returns.
 */
export const MEXP_BRANCHES = [
  '  var squarings = 0u;',
  '  if (nan) {',
  // (a NaN made at run time: a constant one is a shader-creation error)
  '    for (var i = 0u; i < gsize; i++) { o[ob + i] = bitcast<f32>(p(7u) | 0x7fc00000u); }',
  '    return;',
  `  } else if (norm <= ${f(THETAS[0])}) {`,
  '    comb(9u, 1.0, array<f32, 5>(1.0, 0.0, 0.0, 0.0, 0.0), array<u32, 5>(0u, 0u, 0u, 0u, 0u), 1u);',
  `  } else if (norm <= ${f(THETAS[1])}) {`,
  '    mm(1u, 0u, 0u);',
  '    comb(9u, 1.0, array<f32, 5>(1.0, 0.5, 0.0, 0.0, 0.0), array<u32, 5>(0u, 1u, 0u, 0u, 0u), 2u);',
  `  } else if (norm <= ${f(THETAS[2])}) {`,
  '    mm(1u, 0u, 0u);',
  `    comb(4u, 0.5, array<f32, 5>(${f(1 / 6)}, ${f(1 / 24)}, 0.0, 0.0, 0.0), array<u32, 5>(0u, 1u, 0u, 0u, 0u), 2u);`,
  '    mm(2u, 1u, 4u);',
  '    comb(9u, 1.0, array<f32, 5>(1.0, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(0u, 2u, 0u, 0u, 0u), 2u);',
  `  } else if (norm <= ${f(THETAS[3])}) {`,
  '    mm(1u, 0u, 0u);',
  `    comb(4u, 0.0, array<f32, 5>(${f(T8[0])}, ${f(T8[1])}, 0.0, 0.0, 0.0), array<u32, 5>(0u, 1u, 0u, 0u, 0u), 2u);`,
  '    mm(2u, 1u, 4u);',
  `    comb(4u, 0.0, array<f32, 5>(${f(X3)}, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(1u, 2u, 0u, 0u, 0u), 2u);`,
  `    comb(5u, ${f(T8[2])}, array<f32, 5>(${f(T8[3])}, ${f(T8[4])}, ${f(T8[5])}, 0.0, 0.0), array<u32, 5>(0u, 1u, 2u, 0u, 0u), 3u);`,
  '    mm(3u, 4u, 5u);',
  `    comb(9u, 1.0, array<f32, 5>(1.0, ${f(T8[6])}, 1.0, 0.0, 0.0), array<u32, 5>(0u, 1u, 3u, 0u, 0u), 3u);`,
  `  } else if (norm <= ${f(THETAS[4])}) {`,
  '    mm(1u, 0u, 0u);',
  '    mm(2u, 0u, 1u);',
  ...B12.map((row, j) => `    comb(${4 + j}u, ${f(row[0])}, array<f32, 5>(${f(row[1])}, ${f(row[2])}, ${f(row[3])}, 0.0, 0.0), array<u32, 5>(0u, 1u, 2u, 0u, 0u), 3u);`),
  '    mm(9u, 7u, 7u);',
  '    comb(6u, 0.0, array<f32, 5>(1.0, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(6u, 9u, 0u, 0u, 0u), 2u);',
  '    comb(5u, 0.0, array<f32, 5>(1.0, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(5u, 6u, 0u, 0u, 0u), 2u);',
  '    mm(9u, 5u, 6u);',
  '    comb(9u, 0.0, array<f32, 5>(1.0, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(4u, 9u, 0u, 0u, 0u), 2u);',
  '  } else {',
  `    squarings = u32(max(0.0, ceil(log2(norm / ${f(THETAS[5])}))));`,
  // (2^-s exactly, in steps that never underflow a normal scale)
  '    var scale = 1.0;',
  '    for (var k = 0u; k < squarings; k++) { scale = scale * 0.5; }',
  '    for (var i = 0u; i < gsize; i++) { W[at(0u, i)] = W[at(0u, i)] * scale; }',
  '    mm(1u, 0u, 0u);',
  '    mm(2u, 0u, 1u);',
  '    mm(3u, 2u, 2u);',
  ...B18.map((row, j) => `    comb(${4 + j}u, ${f(row[0])}, array<f32, 5>(${f(row[1])}, ${f(row[2])}, ${f(row[3])}, ${f(row[4])}, 0.0), array<u32, 5>(0u, 1u, 2u, 3u, 0u), 4u);`),
  '    mm(9u, 4u, 8u);',
  '    comb(7u, 0.0, array<f32, 5>(1.0, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(7u, 9u, 0u, 0u, 0u), 2u);',
  '    comb(4u, 0.0, array<f32, 5>(1.0, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(6u, 7u, 0u, 0u, 0u), 2u);',
  '    mm(9u, 4u, 7u);',
  '    comb(9u, 0.0, array<f32, 5>(1.0, 1.0, 0.0, 0.0, 0.0), array<u32, 5>(5u, 9u, 0u, 0u, 0u), 2u);',
  '    for (var k = 0u; k < squarings; k++) {',
  '      mm(0u, 9u, 9u);',
  '      comb(9u, 0.0, array<f32, 5>(1.0, 0.0, 0.0, 0.0, 0.0), array<u32, 5>(0u, 0u, 0u, 0u, 0u), 1u);',
  '    }',
  '  }',
];

/**
 * Slots of `work` (n x n each): 0 A, 1 A^2, 2 A^3 (or A^4), 3 A^6 (or A^8), 4..8 the B's
 * (degree 8: its factors), 9 a product's destination. `comb(d, cI, c, s)` writes cI I + the
 * sum of c[k] * slot s[k] into slot d element by element (d may be among the s).
 */
const MATRIX_EXP = [
  ...header(['o: array<f32>', 'x: array<f32>', 'W: array<f32>']),
  'var<private> gn: u32;',
  'var<private> gsize: u32;',
  'var<private> gbase: u32;',
  'fn at(s: u32, i: u32) -> u32 { return gbase + s * gsize + i; }',
  'fn mm(d: u32, l: u32, r: u32) {',
  '  let n = gn;',
  '  for (var i = 0u; i < n; i++) {',
  '    for (var j = 0u; j < n; j++) {',
  '      var s = 0.0;',
  '      for (var k = 0u; k < n; k++) { s = s + W[at(l, i * n + k)] * W[at(r, k * n + j)]; }',
  '      W[at(d, i * n + j)] = s;',
  '    }',
  '  }',
  '}',
  'fn comb(d: u32, cI: f32, c0: array<f32, 5>, s0: array<u32, 5>, count: u32) {',
  '  let n = gn;',
  '  var c = c0;',
  '  var s = s0;',
  '  for (var i = 0u; i < n * n; i++) {',
  '    var v = select(0.0, cI, i % (n + 1u) == 0u);',
  '    for (var k = 0u; k < count; k++) { v = v + c[k] * W[at(s[k], i)]; }',
  '    W[at(d, i)] = v;',
  '  }',
  '}',
  ...MAIN,
  '  let n = p(1u);',
  '  gn = n;',
  '  gsize = n * n;',
  `  gbase = p(4u) + b * 10u * n * n;`,
  '  let ib = p(3u) + b * n * n;',
  '  let ob = p(2u) + b * n * n;',
  '  for (var i = 0u; i < n * n; i++) { W[at(0u, i)] = x[ib + i]; }',
  '  if (n == 1u) { o[ob] = exp(W[at(0u, 0u)]); return; }',
  '  var norm = 0.0;',
  '  var nan = false;',
  '  for (var j = 0u; j < n; j++) {',
  '    var s = 0.0;',
  '    for (var i = 0u; i < n; i++) { s = s + abs(W[at(0u, i * n + j)]); }',
  '    if (s != s) { nan = true; }',
  '    norm = max(norm, s);',
  '  }',
  ...MEXP_BRANCHES,
  '  for (var i = 0u; i < n * n; i++) { o[ob + i] = W[at(9u, i)]; }',
  '}',
].join('\n');

/** dlarfg on column `c` of buffer `buf` (row stride ld, from row r to m), as larfg above. */
function larfgOn(buf: string): string[] {
  return HOUSEHOLDER.slice(0, HOUSEHOLDER.indexOf('}') + 1).map((l) => l.replace('fn larfg(', `fn larfg_${buf}(`).replaceAll('a[', `${buf}[`));
}

/** dlarf from the left: v = column vc of `vbuf` (base vb, stride vld, rows r..m-1, v[r] = 1), applied to columns c0..n-1 of `dbuf` (base db, stride dld). */
function larfOn(vbuf: string, dbuf: string): string[] {
  return [
    `fn larf_${vbuf}_${dbuf}(vb: u32, vld: u32, vc: u32, tau: f32, db: u32, dld: u32, m: u32, r: u32, c0: u32, n: u32) {`,
    '  if (tau == 0.0) { return; }',
    '  for (var c = c0; c < n; c++) {',
    `    var w = ${dbuf}[db + r * dld + c];`,
    `    for (var i = r + 1u; i < m; i++) { w = w + ${vbuf}[vb + i * vld + vc] * ${dbuf}[db + i * dld + c]; }`,
    '    if (w != 0.0) {',
    '      w = w * tau;',
    `      ${dbuf}[db + r * dld + c] = ${dbuf}[db + r * dld + c] - w;`,
    `      for (var i = r + 1u; i < m; i++) { ${dbuf}[db + i * dld + c] = ${dbuf}[db + i * dld + c] - ${vbuf}[vb + i * vld + vc] * w; }`,
    '    }',
    '  }',
    '}',
  ];
}

const LSTSQ_WORDS = 12;

/**
 * words: 1 m, 2 n, 3 k, 4 a offset, 5 x offset, 6 rank offset, 7 info offset, 8 work offset,
 * 9 pivot, 10 rcond (f32 bits). work per matrix: tau [kk], jpvt [n] (exact small integers),
 * norms [n], orig [n], W^T [n * kk], tau2 [kk], y [max(m, n) * k].
 */
const LSTSQ = [
  ...header(['a: array<f32>', 'x: array<f32>', 'rk: array<i32>', 'info: array<i32>', 'wk: array<f32>'], LSTSQ_WORDS),
  ...larfgOn('a'),
  ...larfgOn('wk'),
  ...larfOn('a', 'a'),
  ...larfOn('a', 'x'),
  ...larfOn('wk', 'wk'),
  // the minimum-norm solution of W y = c (W the r x n rows of `a` from ab, c the first r rows of x): y = Q R^-T c from W^T = Q R; returns the first zero diagonal of R (1-based) or 0
  'fn min_norm(ab: u32, r: u32, n: u32, k: u32, xb: u32, wt: u32, t2: u32, yb: u32) -> i32 {',
  '  for (var i = 0u; i < r; i++) { for (var j = 0u; j < n; j++) { wk[wt + j * r + i] = a[ab + i * n + j]; } }',
  '  for (var i = 0u; i < r; i++) {',
  '    let t = larfg_wk(wt, r, n, i, i);',
  '    wk[t2 + i] = t;',
  '    if (i + 1u < r) { larf_wk_wk(wt, r, i, t, wt, r, n, i, i + 1u, r); }',
  '  }',
  '  var bad = 0;',
  '  for (var i = 0u; i < r; i++) { if (bad == 0 && wk[wt + i * r + i] == 0.0) { bad = i32(i + 1u); } }',
  '  for (var i = 0u; i < n * k; i++) { wk[yb + i] = 0.0; }',
  '  for (var c = 0u; c < k; c++) {',
  '    for (var i = 0u; i < r; i++) {',
  '      var s = x[xb + i * k + c];',
  '      for (var j = 0u; j < i; j++) { s = s - wk[wt + j * r + i] * wk[yb + j * k + c]; }',
  '      wk[yb + i * k + c] = s / wk[wt + i * r + i];',
  '    }',
  '  }',
  '  for (var ii = 0u; ii < r; ii++) { let i = r - 1u - ii; larf_wk_wk(wt, r, i, wk[t2 + i], yb, k, n, i, 0u, k); }',
  '  return bad;',
  '}',
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = p(3u);',
  '  let kk = min(m, n);',
  '  let rows = max(m, n);',
  '  let ab = p(4u) + b * m * n;',
  '  let xb = p(5u) + b * rows * k;',
  '  let wb = p(8u) + b * (2u * kk + 3u * n + n * kk + rows * k);',
  '  let tb = wb;',
  '  let jb = tb + kk;',
  '  let nb = jb + n;',
  '  let ob = nb + n;',
  '  let wt = ob + n;',
  '  let t2 = wt + n * kk;',
  '  let yb = t2 + kk;',
  '  var r = kk;',
  '  var bad = 0;',
  '  if (p(9u) == 0u) {',
  '    if (m >= n) {',
  '      for (var i = 0u; i < n; i++) {',
  '        let t = larfg_a(ab, n, m, i, i);',
  '        wk[tb + i] = t;',
  '        if (i + 1u < n) { larf_a_a(ab, n, i, t, ab, n, m, i, i + 1u, n); }',
  '      }',
  '      for (var i = 0u; i < n; i++) { if (bad == 0 && a[ab + i * n + i] == 0.0) { bad = i32(i + 1u); } }',
  '      for (var i = 0u; i < n; i++) { larf_a_x(ab, n, i, wk[tb + i], xb, k, m, i, 0u, k); }',
  '      if (bad == 0) {',
  '        for (var c = 0u; c < k; c++) {',
  '          for (var ii = 0u; ii < n; ii++) {',
  '            let i = n - 1u - ii;',
  '            var s = x[xb + i * k + c];',
  '            for (var j = i + 1u; j < n; j++) { s = s - a[ab + i * n + j] * x[xb + j * k + c]; }',
  '            x[xb + i * k + c] = s / a[ab + i * n + i];',
  '          }',
  '        }',
  '      }',
  '    } else {',
  '      bad = min_norm(ab, m, n, k, xb, wt, t2, yb);',
  '      for (var i = 0u; i < n * k; i++) { x[xb + i] = wk[yb + i]; }',
  '    }',
  '  } else {',
  // geqp3: the remaining column of largest partial norm first, the norms downdated as dlaqp2
  '    for (var j = 0u; j < n; j++) {',
  '      var s = 0.0;',
  '      for (var i = 0u; i < m; i++) { s = s + a[ab + i * n + j] * a[ab + i * n + j]; }',
  '      wk[nb + j] = sqrt(s);',
  '      wk[ob + j] = sqrt(s);',
  '      wk[jb + j] = f32(j);',
  '    }',
  '    for (var i = 0u; i < kk; i++) {',
  '      var pv = i;',
  '      for (var j = i + 1u; j < n; j++) { if (wk[nb + j] > wk[nb + pv]) { pv = j; } }',
  '      if (pv != i) {',
  '        for (var rr = 0u; rr < m; rr++) {',
  '          let t = a[ab + rr * n + i];',
  '          a[ab + rr * n + i] = a[ab + rr * n + pv];',
  '          a[ab + rr * n + pv] = t;',
  '        }',
  '        let tj = wk[jb + i];',
  '        wk[jb + i] = wk[jb + pv];',
  '        wk[jb + pv] = tj;',
  '        wk[nb + pv] = wk[nb + i];',
  '        wk[ob + pv] = wk[ob + i];',
  '      }',
  '      let t = larfg_a(ab, n, m, i, i);',
  '      wk[tb + i] = t;',
  '      if (i + 1u < n) { larf_a_a(ab, n, i, t, ab, n, m, i, i + 1u, n); }',
  '      for (var j = i + 1u; j < n; j++) {',
  '        let nj = wk[nb + j];',
  '        if (nj == 0.0) { continue; }',
  '        let q = abs(a[ab + i * n + j]) / nj;',
  '        let temp = max(1.0 - q * q, 0.0);',
  '        let ratio = nj / wk[ob + j];',
  // (tol3z = sqrt(eps32))
  '        if (temp * ratio * ratio <= 3.4526698e-4) {',
  '          var s = 0.0;',
  '          for (var rr = i + 1u; rr < m; rr++) { s = s + a[ab + rr * n + j] * a[ab + rr * n + j]; }',
  '          wk[nb + j] = sqrt(s);',
  '          wk[ob + j] = sqrt(s);',
  '        } else { wk[nb + j] = nj * sqrt(temp); }',
  '      }',
  '    }',
  '    for (var i = 0u; i < kk; i++) { larf_a_x(ab, n, i, wk[tb + i], xb, k, m, i, 0u, k); }',
  '    let rcond = bitcast<f32>(p(10u));',
  '    var r00 = 0.0;',
  '    if (kk > 0u) { r00 = abs(a[ab]); }',
  '    r = 0u;',
  '    loop {',
  '      if (r >= kk || !(r00 > 0.0) || !(abs(a[ab + r * n + r]) > rcond * r00)) { break; }',
  '      r = r + 1u;',
  '    }',
  '    for (var i = 0u; i < r; i++) { for (var j = 0u; j < i; j++) { a[ab + i * n + j] = 0.0; } }',
  '    if (r > 0u) { _ = min_norm(ab, r, n, k, xb, wt, t2, yb); } else { for (var i = 0u; i < n * k; i++) { wk[yb + i] = 0.0; } }',
  '    for (var j = 0u; j < n; j++) {',
  '      let dst = u32(wk[jb + j]);',
  '      for (var c = 0u; c < k; c++) { x[xb + dst * k + c] = wk[yb + j * k + c]; }',
  '    }',
  '  }',
  '  rk[p(6u) + b] = i32(r);',
  '  info[p(7u) + b] = bad;',
  '}',
].join('\n');


const LSTSQ_SVD_WORDS = 16;

/**
 * lstsqSvd (gelsd, gelss; core's Note [lstsq by the SVD]), the CPU kernel's loops. words: 1
 * m, 2 n, 3 k, 4 kk, 5 u offset, 6 s offset, 7 vh offset, 8 x offset, 9 rank offset, 10 work
 * offset, 11 rcond, 12 floor (f32 bits). work per matrix: c = U_kept^T B [kk, k].
 */
const LSTSQ_SVD = [
  ...header(['u: array<f32>', 's: array<f32>', 'vh: array<f32>', 'x: array<f32>', 'rk: array<i32>', 'wk: array<f32>'], LSTSQ_SVD_WORDS),
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = p(3u);',
  '  let kk = p(4u);',
  '  let rows = max(m, n);',
  '  let ub = p(5u) + b * m * kk;',
  '  let sb = p(6u) + b * kk;',
  '  let vb = p(7u) + b * kk * n;',
  '  let xb = p(8u) + b * rows * k;',
  '  let wb = p(10u) + b * kk * k;',
  '  let thr = max(bitcast<f32>(p(11u)) * s[sb], bitcast<f32>(p(12u)));',
  '  var r = 0;',
  '  for (var i = 0u; i < kk; i++) {',
  '    let keep = s[sb + i] > thr;',
  '    if (keep) { r = r + 1; }',
  '    for (var j = 0u; j < k; j++) {',
  '      var t = 0.0;',
  '      if (keep) { for (var q = 0u; q < m; q++) { t = t + u[ub + q * kk + i] * x[xb + q * k + j]; } }',
  '      wk[wb + i * k + j] = t;',
  '    }',
  '  }',
  '  if (m > n) {',
  '    for (var j = 0u; j < k; j++) {',
  '      var res = 0.0;',
  '      for (var q = 0u; q < m; q++) {',
  '        var t = x[xb + q * k + j];',
  // (a dropped value's c is 0: its column of U takes nothing away)
  '        for (var i = 0u; i < kk; i++) { t = t - u[ub + q * kk + i] * wk[wb + i * k + j]; }',
  '        res = res + t * t;',
  '      }',
  '      x[xb + n * k + j] = res;',
  '    }',
  '  }',
  '  for (var i = 0u; i < kk; i++) {',
  '    let si = s[sb + i];',
  '    for (var j = 0u; j < k; j++) { if (si > thr) { wk[wb + i * k + j] = wk[wb + i * k + j] / si; } }',
  '  }',
  '  for (var c = 0u; c < n; c++) {',
  '    for (var j = 0u; j < k; j++) {',
  '      var t = 0.0;',
  '      for (var i = 0u; i < kk; i++) { t = t + vh[vb + i * n + c] * wk[wb + i * k + j]; }',
  '      x[xb + c * k + j] = t;',
  '    }',
  '  }',
  '  rk[p(9u) + b] = r;',
  '}',
].join('\n');


function dims(t: TensorImpl): [number, number, number] {
  const s = t.sizes;
  const m = s[s.length - 2];
  const n = s[s.length - 1];
  return [m * n === 0 ? 0 : t.numel / (m * n), m, n];
}

function launch(op: string, source: string, tensors: readonly TensorImpl[], words: readonly number[], batch: number, paramWords = PARAM_WORDS): void {
  if (batch === 0) return;
  const params = new Uint32Array(paramWords);
  params.set(words);
  commandQueue(op).dispatch(source, tensors.map(bindingOf), params, grid(op, batch, WG));
}

const f32Bits = (v: number): number => new Uint32Array(new Float32Array([v]).buffer)[0];

export const linalgQrImpls: Pick<BackendImpls, 'geqrf' | 'householderProduct' | 'eigh' | 'lstsq' | 'lstsqSvd' | 'matrixExp'> = {
  lstsqSvd: (u, s, vh, x, rank, rcond, floor, work) => {
    requireF32('linalg_lstsq', u);
    const [batch, m, kk] = dims(u);
    const n = vh.sizes[vh.sizes.length - 1];
    const k = x.sizes[x.sizes.length - 1];
    const words = [batch, m, n, k, kk, u.storageOffset, s.storageOffset, vh.storageOffset, x.storageOffset, rank.storageOffset, work.storageOffset, f32Bits(rcond), f32Bits(floor)];
    launch('linalg_lstsq', LSTSQ_SVD, [u, s, vh, x, rank, work], words, batch, LSTSQ_SVD_WORDS);
  },
  lstsq: (a, x, rank, info, pivot, rcond, work) => {
    requireF32('linalg_lstsq', a);
    const [batch, m, n] = dims(a);
    const k = x.sizes[x.sizes.length - 1];
    const rc = new Float32Array([rcond]);
    const words = [batch, m, n, k, a.storageOffset, x.storageOffset, rank.storageOffset, info.storageOffset, work.storageOffset, pivot ? 1 : 0, new Uint32Array(rc.buffer)[0]];
    launch('linalg_lstsq', LSTSQ, [a, x, rank, info, work], words, batch, LSTSQ_WORDS);
  },
  geqrf: (a, tau) => {
    requireF32('geqrf', a);
    const [batch, m, n] = dims(a);
    launch('geqrf', GEQRF, [a, tau], [batch, m, n, a.storageOffset, tau.storageOffset], batch);
  },
  householderProduct: (q, tau) => {
    requireF32('linalg_householder_product', q);
    const [batch, m, n] = dims(q);
    const k = tau.sizes[tau.sizes.length - 1];
    launch('linalg_householder_product', ORGQR, [q, tau], [batch, m, n, k, q.storageOffset, tau.storageOffset], batch);
  },
  eigh: (a, w, upper, work) => {
    requireF32('_linalg_eigh', a);
    const [batch, n] = dims(a);
    launch('_linalg_eigh', EIGH, [a, w, work], [batch, n, a.storageOffset, w.storageOffset, work.storageOffset, upper ? 1 : 0], batch);
  },
  matrixExp: (out, a, work) => {
    requireF32('linalg_matrix_exp', a);
    const [batch, n] = dims(a);
    launch('linalg_matrix_exp', MATRIX_EXP, [out, a, work], [batch, n, out.storageOffset, a.storageOffset, work.storageOffset], batch);
  },
};
