import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { floatArray, words } from '../loops/arrays';

/**
 * Note [CPU LU, Cholesky and triangular solves]
 * The factorizations of core's LinalgImpls, one matrix at a time, in doubles: each matrix is
 * read into a Float64Array, factored or solved there (unblocked getrf / getrs / trsm /
 * potrf, the order of LAPACK's reference loops), and stored back once, rounded to the
 * tensor's dtype, so a float32 input loses nothing between steps. Core hands contiguous
 * tensors with a leading batch dim (core's Note [The linalg primitives]).
 */

function matrixDims(t: TensorImpl): [number, number, number] {
  const s = t.sizes;
  const m = s[s.length - 2];
  const n = s[s.length - 1];
  const batch = m * n === 0 ? 0 : t.numel / (m * n);
  return [batch, m, n];
}

function load(src: ArrayLike<number>, offset: number, count: number): Float64Array {
  const w = new Float64Array(count);
  for (let i = 0; i < count; i++) w[i] = src[offset + i];
  return w;
}

function storeInto(dst: Float32Array | Float64Array, offset: number, w: Float64Array): void {
  dst.set(w, offset);
}

/** getf2 on one m x n row-major matrix `a`: returns info (0, or the first zero pivot, 1-based). */
function getf2(a: Float64Array, m: number, n: number, piv: Int32Array, pOff: number): number {
  let info = 0;
  const k = Math.min(m, n);
  for (let j = 0; j < k; j++) {
    // the first row of largest magnitude (idamax); NaN is never larger, as in BLAS
    let p = j;
    let best = Math.abs(a[j * n + j]);
    for (let i = j + 1; i < m; i++) {
      const v = Math.abs(a[i * n + j]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[pOff + j] = p + 1;
    const pivot = a[p * n + j];
    if (pivot !== 0) {
      if (p !== j) {
        for (let c = 0; c < n; c++) {
          const t = a[j * n + c];
          a[j * n + c] = a[p * n + c];
          a[p * n + c] = t;
        }
      }
      for (let i = j + 1; i < m; i++) a[i * n + j] /= pivot;
    } else if (info === 0) {
      info = j + 1;
    }
    for (let i = j + 1; i < m; i++) {
      const l = a[i * n + j];
      if (l === 0) continue;
      for (let c = j + 1; c < n; c++) a[i * n + c] -= l * a[j * n + c];
    }
  }
  return info;
}

export const luFactor: BackendImpls['luFactor'] = (lu, pivots, info) => {
  const [batch, m, n] = matrixDims(lu);
  const a = floatArray(lu);
  const piv = words(pivots);
  const inf = words(info);
  const k = Math.min(m, n);
  for (let b = 0; b < batch; b++) {
    const off = lu.storageOffset + b * m * n;
    const w = load(a, off, m * n);
    inf[info.storageOffset + b] = getf2(w, m, n, piv, pivots.storageOffset + b * k);
    storeInto(a, off, w);
  }
};

/** Solves op(T) X = X in place, T the n x n triangle of `t` (row-major), X n x k. */
function trsm(t: Float64Array, n: number, x: Float64Array, k: number, upper: boolean, unit: boolean, transpose: boolean): void {
  // op(T) is lower triangular exactly when (lower and not transposed) or (upper and transposed)
  const lowerOp = upper === transpose;
  const at = (i: number, j: number) => (transpose ? t[j * n + i] : t[i * n + j]);
  if (lowerOp) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < i; j++) {
        const l = at(i, j);
        if (l === 0) continue;
        for (let c = 0; c < k; c++) x[i * k + c] -= l * x[j * k + c];
      }
      if (!unit) {
        const d = at(i, i);
        for (let c = 0; c < k; c++) x[i * k + c] /= d;
      }
    }
  } else {
    for (let i = n - 1; i >= 0; i--) {
      for (let j = i + 1; j < n; j++) {
        const u = at(i, j);
        if (u === 0) continue;
        for (let c = 0; c < k; c++) x[i * k + c] -= u * x[j * k + c];
      }
      if (!unit) {
        const d = at(i, i);
        for (let c = 0; c < k; c++) x[i * k + c] /= d;
      }
    }
  }
}

function swapRows(x: Float64Array, k: number, i: number, p: number): void {
  if (i === p) return;
  for (let c = 0; c < k; c++) {
    const t = x[i * k + c];
    x[i * k + c] = x[p * k + c];
    x[p * k + c] = t;
  }
}

export const luSolve: BackendImpls['luSolve'] = (x, lu, pivots, adjoint) => {
  const [batch, n, k] = matrixDims(x);
  const xs = floatArray(x);
  const a = floatArray(lu);
  const piv = words(pivots);
  for (let b = 0; b < batch; b++) {
    const xOff = x.storageOffset + b * n * k;
    const w = load(xs, xOff, n * k);
    const t = load(a, lu.storageOffset + b * n * n, n * n);
    const pOff = pivots.storageOffset + b * n;
    if (!adjoint) {
      // A = P L U: X = U^-1 L^-1 P^T B, P^T applied as getrf's swaps in order
      for (let i = 0; i < n; i++) swapRows(w, k, i, piv[pOff + i] - 1);
      trsm(t, n, w, k, false, true, false);
      trsm(t, n, w, k, true, false, false);
    } else {
      // A^T = U^T L^T P^T: X = P L^-T U^-T B, P applied as the swaps in reverse order
      trsm(t, n, w, k, true, false, true);
      trsm(t, n, w, k, false, true, true);
      for (let i = n - 1; i >= 0; i--) swapRows(w, k, i, piv[pOff + i] - 1);
    }
    storeInto(xs, xOff, w);
  }
};

export const solveTriangular: BackendImpls['solveTriangular'] = (x, a, upper, unitriangular) => {
  const [batch, n, k] = matrixDims(x);
  const xs = floatArray(x);
  const as = floatArray(a);
  for (let b = 0; b < batch; b++) {
    const xOff = x.storageOffset + b * n * k;
    const w = load(xs, xOff, n * k);
    trsm(load(as, a.storageOffset + b * n * n, n * n), n, w, k, upper, unitriangular, false);
    storeInto(xs, xOff, w);
  }
};

/** potf2 (lower) on one n x n row-major matrix: returns info. */
function potf2(a: Float64Array, n: number): number {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let c = 0; c < j; c++) d -= a[j * n + c] * a[j * n + c];
    if (!(d > 0)) {
      a[j * n + j] = d;
      return j + 1;
    }
    const ljj = Math.sqrt(d);
    a[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let c = 0; c < j; c++) s -= a[i * n + c] * a[j * n + c];
      a[i * n + j] = s / ljj;
    }
  }
  return 0;
}

export const cholesky: BackendImpls['cholesky'] = (l, info) => {
  const [batch, n] = matrixDims(l);
  const a = floatArray(l);
  const inf = words(info);
  for (let b = 0; b < batch; b++) {
    const off = l.storageOffset + b * n * n;
    const w = load(a, off, n * n);
    inf[info.storageOffset + b] = potf2(w, n);
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) w[i * n + j] = 0;
    storeInto(a, off, w);
  }
};
