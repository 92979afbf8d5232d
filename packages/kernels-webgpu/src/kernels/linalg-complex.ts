/// <reference types="@webgpu/types" />
import { DTypeError, TensorImpl, type BackendImpls } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingOf, grid } from './launch';
import { MAIN, header, luCholeskyImpls, luSolveSource, solveTriangularSource } from './linalg';

/**
 * Note [WebGPU complex LU, Cholesky, triangular solves and eigh]
 * The complex64 kernels of core's ComplexLinalgImpls (core's Note [Complex linalg
 * primitives]): core hands each one contiguous float32 tensors of the matrices' (real,
 * imaginary) parts, [..., m, n, 2], so element (i, j) of a matrix starting at float `base`
 * is the pair at base + 2 (i n + j), read and written as a vec2<f32>. As the real kernels
 * (Note [WebGPU LU, Cholesky and triangular solves]), one invocation per matrix of the
 * batch, 64 matrices to a workgroup, runs the CPU's complex loops (Note [CPU complex LU,
 * Cholesky, triangular solves and eigh]) on its matrix in place: zgetf2 (the pivot is the
 * first element of largest |re| + |im|, izamax's), zgetrs / ztrsm (the adjoint is the
 * conjugate transpose), zpotf2 (lower, real diagonal; a leading minor that is not positive
 * definite stops it, as potrf's info), and cyclic Jacobi with complex rotations for eigh
 * (each rotation multiplies the pivot column by the phase that makes a_pq real, then applies
 * the real rotation that zeroes it; float32's threshold as the real eigh kernel's). So the
 * results equal the CPU's up to float32 rounding (eigenvectors up to a unit phase per
 * column), info is written on the device and never read back (core's Note [Checking info
 * without a device read]), and nothing waits on a host round trip. Complex division scales
 * by the larger part of the divisor first, so |d|^2 cannot overflow float32 where d can be
 * represented. complex128 has float64 parts, which WGSL lacks: a DTypeError, as float64's.
 * eigh's eigenvectors are accumulated in a scratch of the matrices' size that the impl
 * allocates and releases once the dispatch is recorded (Note [Block reuse in submission
 * order]).
 *
 * Words: 0 batch, then the op's sizes, offsets (in floats) and flags as each source lists them.
 */

const WG = 64;
const PARAM_WORDS = 8;

/** Complex arithmetic on vec2<f32> (re, im). */
export const COMPLEX = [
  'fn cmul(x: vec2<f32>, y: vec2<f32>) -> vec2<f32> { return vec2<f32>(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x); }',
  'fn cconj(x: vec2<f32>) -> vec2<f32> { return vec2<f32>(x.x, -x.y); }',
  // x / y with y scaled by its larger part (|y|^2 of a large y would overflow float32)
  'fn cdiv(x: vec2<f32>, y: vec2<f32>) -> vec2<f32> {',
  '  let s = max(abs(y.x), abs(y.y));',
  '  let z = y / s;',
  '  return cmul(x / s, cconj(z)) / dot(z, z);',
  '}',
  'fn ix(base: u32, n: u32, i: u32, j: u32) -> u32 { return base + 2u * (i * n + j); }',
];

/** Loads and stores of complex elements of the module-scope buffer `name`. */
export function access(name: string): string[] {
  return [
    `fn ${name}_get(k: u32) -> vec2<f32> { return vec2<f32>(${name}[k], ${name}[k + 1u]); }`,
    `fn ${name}_set(k: u32, z: vec2<f32>) { ${name}[k] = z.x; ${name}[k + 1u] = z.y; }`,
  ];
}

// words: 1 m, 2 n, 3 a offset, 4 pivots offset, 5 info offset
const LU_FACTOR = [
  ...header(['a: array<f32>', 'piv: array<i32>', 'info: array<i32>']),
  ...COMPLEX,
  ...access('a'),
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = min(m, n);',
  '  let base = p(3u) + b * 2u * m * n;',
  '  let pb = p(4u) + b * k;',
  '  var bad = 0;',
  '  for (var j = 0u; j < k; j++) {',
  '    var pr = j;',
  '    let z = a_get(ix(base, n, j, j));',
  '    var best = abs(z.x) + abs(z.y);',
  '    for (var i = j + 1u; i < m; i++) {',
  '      let y = a_get(ix(base, n, i, j));',
  '      let v = abs(y.x) + abs(y.y);',
  '      if (v > best) { best = v; pr = i; }',
  '    }',
  '    piv[pb + j] = i32(pr + 1u);',
  '    let pivot = a_get(ix(base, n, pr, j));',
  '    if (pivot.x != 0.0 || pivot.y != 0.0) {',
  '      if (pr != j) {',
  '        for (var c = 0u; c < n; c++) {',
  '          let t = a_get(ix(base, n, j, c));',
  '          a_set(ix(base, n, j, c), a_get(ix(base, n, pr, c)));',
  '          a_set(ix(base, n, pr, c), t);',
  '        }',
  '      }',
  '      for (var i = j + 1u; i < m; i++) { a_set(ix(base, n, i, j), cdiv(a_get(ix(base, n, i, j)), pivot)); }',
  '    } else if (bad == 0) {',
  '      bad = i32(j + 1u);',
  '    }',
  '    for (var i = j + 1u; i < m; i++) {',
  '      let l = a_get(ix(base, n, i, j));',
  '      if (l.x != 0.0 || l.y != 0.0) {',
  '        for (var c = j + 1u; c < n; c++) { a_set(ix(base, n, i, c), a_get(ix(base, n, i, c)) - cmul(l, a_get(ix(base, n, j, c)))); }',
  '      }',
  '    }',
  '  }',
  '  info[p(5u) + b] = bad;',
  '}',
].join('\n');

/** op(T) X = X in place on x (n x k from float xb), T = t (n x n from float tb); op: none or ^H. */
const TRSM = [
  ...COMPLEX,
  ...access('x'),
  ...access('t'),
  'fn tget(tb: u32, n: u32, i: u32, j: u32, adj: bool) -> vec2<f32> {',
  '  if (adj) { return cconj(t_get(ix(tb, n, j, i))); }',
  '  return t_get(ix(tb, n, i, j));',
  '}',
  'fn trsm_row(xb: u32, tb: u32, n: u32, k: u32, i: u32, lo: u32, hi: u32, unit: bool, adj: bool) {',
  '  for (var j = lo; j < hi; j++) {',
  '    let l = tget(tb, n, i, j, adj);',
  '    if (l.x != 0.0 || l.y != 0.0) {',
  '      for (var c = 0u; c < k; c++) { x_set(ix(xb, k, i, c), x_get(ix(xb, k, i, c)) - cmul(l, x_get(ix(xb, k, j, c)))); }',
  '    }',
  '  }',
  '  if (!unit) {',
  '    let d = tget(tb, n, i, i, adj);',
  '    for (var c = 0u; c < k; c++) { x_set(ix(xb, k, i, c), cdiv(x_get(ix(xb, k, i, c)), d)); }',
  '  }',
  '}',
  'fn trsm(xb: u32, tb: u32, n: u32, k: u32, upper: bool, unit: bool, adj: bool) {',
  '  if (upper == adj) {',
  '    for (var i = 0u; i < n; i++) { trsm_row(xb, tb, n, k, i, 0u, i, unit, adj); }',
  '  } else {',
  '    for (var ii = 0u; ii < n; ii++) { let i = n - 1u - ii; trsm_row(xb, tb, n, k, i, i + 1u, n, unit, adj); }',
  '  }',
  '}',
  'fn swap_rows(xb: u32, k: u32, i: u32, r: u32) {',
  '  if (i == r) { return; }',
  '  for (var c = 0u; c < k; c++) {',
  '    let v = x_get(ix(xb, k, i, c));',
  '    x_set(ix(xb, k, i, c), x_get(ix(xb, k, r, c)));',
  '    x_set(ix(xb, k, r, c), v);',
  '  }',
  '}',
];

const LU_SOLVE = luSolveSource(TRSM, 2);
const SOLVE_TRIANGULAR = solveTriangularSource(TRSM, 2);

// words: 1 n, 2 l offset, 3 info offset
const CHOLESKY = [
  ...header(['a: array<f32>', 'info: array<i32>']),
  ...COMPLEX,
  ...access('a'),
  ...MAIN,
  '  let n = p(1u);',
  '  let base = p(2u) + b * 2u * n * n;',
  '  var bad = 0;',
  '  for (var j = 0u; j < n; j++) {',
  '    var d = a[ix(base, n, j, j)];',
  '    for (var c = 0u; c < j; c++) { let z = a_get(ix(base, n, j, c)); d = d - dot(z, z); }',
  '    if (!(d > 0.0)) { a_set(ix(base, n, j, j), vec2<f32>(d, 0.0)); bad = i32(j + 1u); break; }',
  '    let ljj = sqrt(d);',
  '    a_set(ix(base, n, j, j), vec2<f32>(ljj, 0.0));',
  '    for (var i = j + 1u; i < n; i++) {',
  // s = a_ij - sum_c L_ic conj(L_jc)
  '      var s = a_get(ix(base, n, i, j));',
  '      for (var c = 0u; c < j; c++) { s = s - cmul(a_get(ix(base, n, i, c)), cconj(a_get(ix(base, n, j, c)))); }',
  '      a_set(ix(base, n, i, j), s / ljj);',
  '    }',
  '  }',
  '  for (var i = 0u; i < n; i++) { for (var j = i + 1u; j < n; j++) { a_set(ix(base, n, i, j), vec2<f32>(0.0, 0.0)); } }',
  '  info[p(3u) + b] = bad;',
  '}',
].join('\n');

// words: 1 n, 2 a offset, 3 w offset, 4 v offset, 5 upper
const EIGH = [
  ...header(['a: array<f32>', 'w: array<f32>', 'v: array<f32>']),
  ...COMPLEX,
  ...access('a'),
  ...access('v'),
  ...MAIN,
  '  let n = p(1u);',
  '  let base = p(2u) + b * 2u * n * n;',
  '  let vb = p(4u) + b * 2u * n * n;',
  '  let upper = p(5u) != 0u;',
  // the Hermitian matrix from the named triangle, its diagonal real; V = I
  '  for (var i = 0u; i < n; i++) {',
  '    a_set(ix(base, n, i, i), vec2<f32>(a[ix(base, n, i, i)], 0.0));',
  '    for (var j = i + 1u; j < n; j++) {',
  '      if (upper) { a_set(ix(base, n, j, i), cconj(a_get(ix(base, n, i, j)))); } else { a_set(ix(base, n, i, j), cconj(a_get(ix(base, n, j, i)))); }',
  '    }',
  '    for (var j = 0u; j < n; j++) { v_set(ix(vb, n, i, j), vec2<f32>(select(0.0, 1.0, i == j), 0.0)); }',
  '  }',
  // cyclic Jacobi: float32 converges in a handful of sweeps; 60 bounds a pathological input
  '  for (var sweep = 0u; sweep < 60u; sweep++) {',
  '    var rotated = false;',
  '    for (var pp = 0u; pp + 1u < n; pp++) {',
  '      for (var q = pp + 1u; q < n; q++) {',
  '        let apq = a_get(ix(base, n, pp, q));',
  '        if (apq.x == 0.0 && apq.y == 0.0) { continue; }',
  '        let app = a[ix(base, n, pp, pp)];',
  '        let aqq = a[ix(base, n, q, q)];',
  '        let g = length(apq);',
  '        if (g <= 5.9604645e-8 * sqrt(abs(app * aqq))) {',
  '          a_set(ix(base, n, pp, q), vec2<f32>(0.0, 0.0));',
  '          a_set(ix(base, n, q, pp), vec2<f32>(0.0, 0.0));',
  '          continue;',
  '        }',
  '        rotated = true;',
  '        let e = apq / g;',
  '        let zeta = (aqq - app) / (2.0 * g);',
  '        var sg = 1.0;',
  '        if (zeta < 0.0) { sg = -1.0; }',
  '        let az = abs(zeta);',
  // (hypot(1, zeta) without overflow for a huge zeta)
  '        var hz = az * sqrt(1.0 + (1.0 / az) * (1.0 / az));',
  '        if (az <= 1.0) { hz = sqrt(1.0 + az * az); }',
  '        let tt = sg / (az + hz);',
  '        let c = 1.0 / sqrt(1.0 + tt * tt);',
  '        let s = tt * c;',
  // U = diag(1, conj(e)) J: U_pp = c, U_pq = s, U_qp = -s conj(e), U_qq = c conj(e)
  '        let upp = vec2<f32>(c, 0.0);',
  '        let upq = vec2<f32>(s, 0.0);',
  '        let uqp = -s * cconj(e);',
  '        let uqq = c * cconj(e);',
  // columns: A <- A U, V <- V U
  '        for (var k = 0u; k < n; k++) {',
  '          let x = a_get(ix(base, n, k, pp));',
  '          let y = a_get(ix(base, n, k, q));',
  '          a_set(ix(base, n, k, pp), cmul(x, upp) + cmul(y, uqp));',
  '          a_set(ix(base, n, k, q), cmul(x, upq) + cmul(y, uqq));',
  '          let vx = v_get(ix(vb, n, k, pp));',
  '          let vy = v_get(ix(vb, n, k, q));',
  '          v_set(ix(vb, n, k, pp), cmul(vx, upp) + cmul(vy, uqp));',
  '          v_set(ix(vb, n, k, q), cmul(vx, upq) + cmul(vy, uqq));',
  '        }',
  // rows: A <- U^H A
  '        for (var k = 0u; k < n; k++) {',
  '          let x = a_get(ix(base, n, pp, k));',
  '          let y = a_get(ix(base, n, q, k));',
  '          a_set(ix(base, n, pp, k), cmul(cconj(upp), x) + cmul(cconj(uqp), y));',
  '          a_set(ix(base, n, q, k), cmul(cconj(upq), x) + cmul(cconj(uqq), y));',
  '        }',
  '        a_set(ix(base, n, pp, q), vec2<f32>(0.0, 0.0));',
  '        a_set(ix(base, n, q, pp), vec2<f32>(0.0, 0.0));',
  '        a[ix(base, n, pp, pp) + 1u] = 0.0;',
  '        a[ix(base, n, q, q) + 1u] = 0.0;',
  '      }',
  '    }',
  '    if (!rotated) { break; }',
  '  }',
  // eigenvalues ascending (selection sort, the first of equal ones first), their columns with them
  '  let wb = p(3u) + b * n;',
  '  for (var i = 0u; i < n; i++) { w[wb + i] = a[ix(base, n, i, i)]; }',
  '  for (var i = 0u; i < n; i++) {',
  '    var best = i;',
  '    for (var j = i + 1u; j < n; j++) { if (w[wb + j] < w[wb + best]) { best = j; } }',
  '    if (best != i) {',
  '      let t = w[wb + i];',
  '      w[wb + i] = w[wb + best];',
  '      w[wb + best] = t;',
  '      for (var k = 0u; k < n; k++) {',
  '        let x = v_get(ix(vb, n, k, i));',
  '        v_set(ix(vb, n, k, i), v_get(ix(vb, n, k, best)));',
  '        v_set(ix(vb, n, k, best), x);',
  '      }',
  '    }',
  '  }',
  '  for (var i = 0u; i < 2u * n * n; i++) { a[base + i] = v[vb + i]; }',
  '}',
].join('\n');

/** [batch, m, n] of a parts tensor [..., m, n, 2]. */
export function dims(t: TensorImpl): [number, number, number] {
  const s = t.sizes;
  const m = s[s.length - 3];
  const n = s[s.length - 2];
  return [m * n === 0 ? 0 : t.numel / (2 * m * n), m, n];
}

/** complex64 only: the parts of a complex128 matrix are float64, which WGSL lacks. */
export function requireComplex64(op: string, t: TensorImpl): void {
  if (t.dtype !== 'float32') throw new DTypeError(`${op}: "${op}" not implemented for '${t.dtype === 'float64' ? 'complex128' : t.dtype}' on webgpu`);
}

export function launch(op: string, source: string, tensors: readonly TensorImpl[], words: readonly number[], batch: number, paramWords = PARAM_WORDS): void {
  if (batch === 0) return;
  const params = new Uint32Array(paramWords);
  params.set(words);
  commandQueue(op).dispatch(source, tensors.map(bindingOf), params, grid(op, batch, WG));
}

const shared = luCholeskyImpls({ luFactor: LU_FACTOR, luSolve: LU_SOLVE, solveTriangular: SOLVE_TRIANGULAR, cholesky: CHOLESKY, dims, check: requireComplex64 });

export const linalgComplexImpls: Pick<BackendImpls, 'luFactorComplex' | 'luSolveComplex' | 'solveTriangularComplex' | 'choleskyComplex' | 'eighComplex'> = {
  luFactorComplex: shared.luFactor,
  luSolveComplex: shared.luSolve,
  solveTriangularComplex: shared.solveTriangular,
  choleskyComplex: shared.cholesky,
  eighComplex: (a, w, upper) => {
    requireComplex64('_linalg_eigh', a);
    const [batch, n] = dims(a);
    if (batch === 0) return;
    const v = TensorImpl.empty('_linalg_eigh', [batch, n, n, 2], 'float32', a.device);
    try {
      launch('_linalg_eigh', EIGH, [a, w, v], [batch, n, a.storageOffset, w.storageOffset, v.storageOffset, upper ? 1 : 0], batch);
    } finally {
      v.release(); // the dispatch is recorded (Note [Block reuse in submission order])
    }
  },
};
