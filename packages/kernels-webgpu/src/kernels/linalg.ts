/// <reference types="@webgpu/types" />
import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { commandQueue } from '../runtime/queue';
import { bindingOf, grid } from './launch';
import { requireF32 } from './softmax';

/**
 * Note [WebGPU LU, Cholesky and triangular solves]
 * The factorizations of core's LinalgImpls in float32 (WGSL has no 64-bit float: float64 is
 * a DTypeError here as everywhere on WebGPU), one invocation per matrix of the batch, 64
 * matrices to a workgroup: each invocation runs the same unblocked loops as the CPU kernels
 * (getrf with partial pivoting, getrs, trsm, potrf; Note [CPU LU, Cholesky and triangular
 * solves]) on its matrix in place, so results match the CPU's up to float32 rounding and no
 * step needs a barrier or a host round trip. Batches of small and medium matrices, what
 * these ops are mostly used for, fill the device; a single large matrix runs on one
 * invocation (a workgroup-cooperative form, rows of the update split across invocations,
 * is future work). Core hands fresh contiguous tensors (core's Note [The linalg
 * primitives]); offsets travel in the parameters. Info is written on the device, never read
 * back here (core's Note [Checking info without a device read]).
 *
 * Words: 0 batch, then the op's sizes, offsets and flags as each source lists them.
 */

const WG = 64;
/** The parameter words, padded to the size of `Params` (a uniform binding must cover the whole struct). */
const PARAM_WORDS = 8;

/** The storage bindings, then the parameter words (`p(i)`), of a linalg kernel. */
export function header(bindings: readonly string[], words = PARAM_WORDS): string[] {
  return [
    ...bindings.map((b, i) => `@group(0) @binding(${i}) var<storage, read_write> ${b};`),
    `struct Params { w: array<vec4<u32>, ${words / 4}> };`,
    `@group(0) @binding(${bindings.length}) var<uniform> P: Params;`,
    'fn p(i: u32) -> u32 { return P.w[i / 4u][i % 4u]; }',
  ];
}

/** One matrix per invocation: `b` is the batch element; word 0 the batch size. */
export const MAIN = [
  `@compute @workgroup_size(${WG})`,
  'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {',
  `  let b = gid.x + gid.y * nwg.x * ${WG}u;`,
  '  if (b >= p(0u)) { return; }',
];

// words: 1 m, 2 n, 3 a offset, 4 pivots offset, 5 info offset
const LU_FACTOR = [
  ...header(['a: array<f32>', 'piv: array<i32>', 'info: array<i32>']),
  ...MAIN,
  '  let m = p(1u);',
  '  let n = p(2u);',
  '  let k = min(m, n);',
  '  let base = p(3u) + b * m * n;',
  '  let pb = p(4u) + b * k;',
  '  var bad = 0;',
  '  for (var j = 0u; j < k; j++) {',
  '    var pr = j;',
  '    var best = abs(a[base + j * n + j]);',
  '    for (var i = j + 1u; i < m; i++) {',
  '      let v = abs(a[base + i * n + j]);',
  '      if (v > best) { best = v; pr = i; }',
  '    }',
  '    piv[pb + j] = i32(pr + 1u);',
  '    let pivot = a[base + pr * n + j];',
  '    if (pivot != 0.0) {',
  '      if (pr != j) {',
  '        for (var c = 0u; c < n; c++) {',
  '          let t = a[base + j * n + c];',
  '          a[base + j * n + c] = a[base + pr * n + c];',
  '          a[base + pr * n + c] = t;',
  '        }',
  '      }',
  '      for (var i = j + 1u; i < m; i++) { a[base + i * n + j] = a[base + i * n + j] / pivot; }',
  '    } else if (bad == 0) {',
  '      bad = i32(j + 1u);',
  '    }',
  '    for (var i = j + 1u; i < m; i++) {',
  '      let l = a[base + i * n + j];',
  '      if (l != 0.0) {',
  '        for (var c = j + 1u; c < n; c++) { a[base + i * n + c] = a[base + i * n + c] - l * a[base + j * n + c]; }',
  '      }',
  '    }',
  '  }',
  '  info[p(5u) + b] = bad;',
  '}',
].join('\n');

/** op(T) X = X in place on x[xb..] (n x k), T = t[tb..] (n x n): module-scope buffers `x` and `t`. */
const TRSM = [
  'fn tget(tb: u32, n: u32, i: u32, j: u32, tr: bool) -> f32 {',
  '  if (tr) { return t[tb + j * n + i]; }',
  '  return t[tb + i * n + j];',
  '}',
  'fn trsm(xb: u32, tb: u32, n: u32, k: u32, upper: bool, unit: bool, tr: bool) {',
  '  if (upper == tr) {',
  '    for (var i = 0u; i < n; i++) {',
  '      for (var j = 0u; j < i; j++) {',
  '        let l = tget(tb, n, i, j, tr);',
  '        if (l != 0.0) { for (var c = 0u; c < k; c++) { x[xb + i * k + c] = x[xb + i * k + c] - l * x[xb + j * k + c]; } }',
  '      }',
  '      if (!unit) { let d = tget(tb, n, i, i, tr); for (var c = 0u; c < k; c++) { x[xb + i * k + c] = x[xb + i * k + c] / d; } }',
  '    }',
  '  } else {',
  '    for (var ii = 0u; ii < n; ii++) {',
  '      let i = n - 1u - ii;',
  '      for (var j = i + 1u; j < n; j++) {',
  '        let u = tget(tb, n, i, j, tr);',
  '        if (u != 0.0) { for (var c = 0u; c < k; c++) { x[xb + i * k + c] = x[xb + i * k + c] - u * x[xb + j * k + c]; } }',
  '      }',
  '      if (!unit) { let d = tget(tb, n, i, i, tr); for (var c = 0u; c < k; c++) { x[xb + i * k + c] = x[xb + i * k + c] / d; } }',
  '    }',
  '  }',
  '}',
  'fn swap_rows(xb: u32, k: u32, i: u32, r: u32) {',
  '  if (i == r) { return; }',
  '  for (var c = 0u; c < k; c++) {',
  '    let v = x[xb + i * k + c];',
  '    x[xb + i * k + c] = x[xb + r * k + c];',
  '    x[xb + r * k + c] = v;',
  '  }',
  '}',
];

// words: 1 n, 2 k, 3 x offset, 4 lu offset, 5 pivots offset, 6 adjoint
/**
 * The LU solve (zgetrs / getrs) and triangular solve drivers, shared by the real and complex
 * kernels: `trsm` is the file's triangular-solve helper and `lanes` the floats per element
 * (1 real, 2 complex), which scales each matrix's stride in the batch.
 */
// words: 1 n, 2 k, 3 x offset, 4 lu offset, 5 pivots offset, 6 adjoint
export function luSolveSource(trsm: readonly string[], lanes: 1 | 2): string {
  const s = lanes === 1 ? '' : '2u * ';
  return [
    ...header(['x: array<f32>', 't: array<f32>', 'piv: array<i32>']),
    ...trsm,
    ...MAIN,
    '  let n = p(1u);',
    '  let k = p(2u);',
    `  let xb = p(3u) + b * ${s}n * k;`,
    `  let tb = p(4u) + b * ${s}n * n;`,
    '  let pb = p(5u) + b * n;',
    '  if (p(6u) == 0u) {',
    '    for (var i = 0u; i < n; i++) { swap_rows(xb, k, i, u32(piv[pb + i] - 1)); }',
    '    trsm(xb, tb, n, k, false, true, false);',
    '    trsm(xb, tb, n, k, true, false, false);',
    '  } else {',
    // A^H = U^H L^H P^T: X = P L^-H U^-H B
    '    trsm(xb, tb, n, k, true, false, true);',
    '    trsm(xb, tb, n, k, false, true, true);',
    '    for (var ii = 0u; ii < n; ii++) { let i = n - 1u - ii; swap_rows(xb, k, i, u32(piv[pb + i] - 1)); }',
    '  }',
    '}',
  ].join('\n');
}

// words: 1 n, 2 k, 3 x offset, 4 a offset, 5 upper, 6 unitriangular
export function solveTriangularSource(trsm: readonly string[], lanes: 1 | 2): string {
  const s = lanes === 1 ? '' : '2u * ';
  return [
    ...header(['x: array<f32>', 't: array<f32>']),
    ...trsm,
    ...MAIN,
    '  let n = p(1u);',
    '  let k = p(2u);',
    `  trsm(p(3u) + b * ${s}n * k, p(4u) + b * ${s}n * n, n, k, p(5u) != 0u, p(6u) != 0u, false);`,
    '}',
  ].join('\n');
}

const LU_SOLVE = luSolveSource(TRSM, 1);
const SOLVE_TRIANGULAR = solveTriangularSource(TRSM, 1);

// words: 1 n, 2 l offset, 3 info offset
const CHOLESKY = [
  ...header(['a: array<f32>', 'info: array<i32>']),
  ...MAIN,
  '  let n = p(1u);',
  '  let base = p(2u) + b * n * n;',
  '  var bad = 0;',
  '  for (var j = 0u; j < n; j++) {',
  '    var d = a[base + j * n + j];',
  '    for (var c = 0u; c < j; c++) { d = d - a[base + j * n + c] * a[base + j * n + c]; }',
  '    if (!(d > 0.0)) { a[base + j * n + j] = d; bad = i32(j + 1u); break; }',
  '    let ljj = sqrt(d);',
  '    a[base + j * n + j] = ljj;',
  '    for (var i = j + 1u; i < n; i++) {',
  '      var s = a[base + i * n + j];',
  '      for (var c = 0u; c < j; c++) { s = s - a[base + i * n + c] * a[base + j * n + c]; }',
  '      a[base + i * n + j] = s / ljj;',
  '    }',
  '  }',
  '  for (var i = 0u; i < n; i++) { for (var j = i + 1u; j < n; j++) { a[base + i * n + j] = 0.0; } }',
  '  info[p(3u) + b] = bad;',
  '}',
].join('\n');

function dims(t: TensorImpl): [number, number, number] {
  const s = t.sizes;
  const m = s[s.length - 2];
  const n = s[s.length - 1];
  return [m * n === 0 ? 0 : t.numel / (m * n), m, n];
}

function launch(op: string, source: string, tensors: readonly TensorImpl[], words: readonly number[], batch: number): void {
  if (batch === 0) return;
  const params = new Uint32Array(PARAM_WORDS);
  params.set(words);
  commandQueue(op).dispatch(source, tensors.map(bindingOf), params, grid(op, batch, WG));
}

/** The kernels and shape/dtype rules of one element type: real float32, or complex64 as pairs. */
export interface LuCholeskySources {
  readonly luFactor: string;
  readonly luSolve: string;
  readonly solveTriangular: string;
  readonly cholesky: string;
  /** [batch, m, n] of a batch of matrices. */
  dims(t: TensorImpl): [number, number, number];
  /** Refuses a dtype the kernels cannot run. */
  check(op: string, t: TensorImpl): void;
}

type LuCholeskyImpls = Pick<BackendImpls, 'luFactor' | 'luSolve' | 'solveTriangular' | 'cholesky'>;

/** The LU, LU-solve, triangular-solve and Cholesky impls over `k`'s kernels (the real and complex tables share them). */
export function luCholeskyImpls(k: LuCholeskySources): LuCholeskyImpls {
  return {
    luFactor: (lu, pivots, info) => {
      k.check('linalg_lu_factor_ex', lu);
      const [batch, m, n] = k.dims(lu);
      launch('linalg_lu_factor_ex', k.luFactor, [lu, pivots, info], [batch, m, n, lu.storageOffset, pivots.storageOffset, info.storageOffset], batch);
    },
    luSolve: (x, lu, pivots, adjoint) => {
      k.check('linalg_lu_solve', x);
      const [batch, n, kk] = k.dims(x);
      launch('linalg_lu_solve', k.luSolve, [x, lu, pivots], [batch, n, kk, x.storageOffset, lu.storageOffset, pivots.storageOffset, adjoint ? 1 : 0], batch);
    },
    solveTriangular: (x, a, upper, unitriangular) => {
      k.check('linalg_solve_triangular', x);
      const [batch, n, kk] = k.dims(x);
      launch('linalg_solve_triangular', k.solveTriangular, [x, a], [batch, n, kk, x.storageOffset, a.storageOffset, upper ? 1 : 0, unitriangular ? 1 : 0], batch);
    },
    cholesky: (l, info) => {
      k.check('linalg_cholesky_ex', l);
      const [batch, n] = k.dims(l);
      launch('linalg_cholesky_ex', k.cholesky, [l, info], [batch, n, l.storageOffset, info.storageOffset], batch);
    },
  };
}

export const linalgImpls: LuCholeskyImpls = luCholeskyImpls({ luFactor: LU_FACTOR, luSolve: LU_SOLVE, solveTriangular: SOLVE_TRIANGULAR, cholesky: CHOLESKY, dims, check: requireF32 });
