import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { floatArray, words } from '../loops/arrays';

/**
 * Note [CPU complex LU, Cholesky, triangular solves and eigh]
 * The complex factorizations of core's ComplexLinalgImpls (core's Note [Complex linalg
 * primitives]), on the (real, imaginary) parts of complex matrices: core hands each impl
 * contiguous float32 / float64 tensors with a trailing dim of 2, so element (i, j) of an
 * m x n matrix is at 2 (i n + j) and 2 (i n + j) + 1. As the real kernels (Note [CPU LU,
 * Cholesky and triangular solves]) each matrix is computed in doubles and stored back once.
 * The loops are LAPACK's reference ones with complex arithmetic: zgetf2 (the pivot is the
 * first element of largest |re| + |im|, BLAS's izamax), zgetrs / ztrsm (the adjoint is the
 * conjugate transpose), zpotf2 (lower; the diagonal is real and a leading minor that is not
 * positive-definite stops it, as potrf's info), and for the Hermitian eigenproblem the cyclic
 * Jacobi method with complex rotations: each step multiplies the pivot column by the phase
 * that makes a_pq real and then applies the real symmetric rotation that zeroes it, so the
 * computed eigenvectors are unitary to rounding and the eigenvalues real; they are sorted
 * ascending, as zheevd's. Eigenvectors are unique only up to a unit phase per column (and
 * not at all within a repeated eigenvalue), so they need not equal LAPACK's column for column.
 */

function dims(t: TensorImpl): [number, number, number] {
  const s = t.sizes;
  const m = s[s.length - 3];
  const n = s[s.length - 2];
  const batch = m * n === 0 ? 0 : t.numel / (2 * m * n);
  return [batch, m, n];
}

function load(src: ArrayLike<number>, offset: number, count: number): Float64Array {
  const w = new Float64Array(count);
  for (let i = 0; i < count; i++) w[i] = src[offset + i];
  return w;
}

/** zgetf2 on one m x n row-major complex matrix: info (0, or the first zero pivot, 1-based). */
function zgetf2(a: Float64Array, m: number, n: number, piv: Int32Array, pOff: number): number {
  let info = 0;
  const k = Math.min(m, n);
  for (let j = 0; j < k; j++) {
    let p = j;
    let best = Math.abs(a[2 * (j * n + j)]) + Math.abs(a[2 * (j * n + j) + 1]);
    for (let i = j + 1; i < m; i++) {
      const v = Math.abs(a[2 * (i * n + j)]) + Math.abs(a[2 * (i * n + j) + 1]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    piv[pOff + j] = p + 1;
    const pr = a[2 * (p * n + j)];
    const pi = a[2 * (p * n + j) + 1];
    if (pr !== 0 || pi !== 0) {
      if (p !== j) {
        for (let c = 0; c < 2 * n; c++) {
          const t = a[2 * j * n + c];
          a[2 * j * n + c] = a[2 * p * n + c];
          a[2 * p * n + c] = t;
        }
      }
      // 1 / pivot, then a scaling of the column (zgetf2's zscal by the reciprocal)
      const den = pr * pr + pi * pi;
      const rr = pr / den;
      const ri = -pi / den;
      for (let i = j + 1; i < m; i++) {
        const x = a[2 * (i * n + j)];
        const y = a[2 * (i * n + j) + 1];
        a[2 * (i * n + j)] = x * rr - y * ri;
        a[2 * (i * n + j) + 1] = x * ri + y * rr;
      }
    } else if (info === 0) {
      info = j + 1;
    }
    for (let i = j + 1; i < m; i++) {
      const lr = a[2 * (i * n + j)];
      const li = a[2 * (i * n + j) + 1];
      if (lr === 0 && li === 0) continue;
      for (let c = j + 1; c < n; c++) {
        const ur = a[2 * (j * n + c)];
        const ui = a[2 * (j * n + c) + 1];
        a[2 * (i * n + c)] -= lr * ur - li * ui;
        a[2 * (i * n + c) + 1] -= lr * ui + li * ur;
      }
    }
  }
  return info;
}

export const luFactorComplex: BackendImpls['luFactorComplex'] = (lu, pivots, info) => {
  const [batch, m, n] = dims(lu);
  const a = floatArray(lu);
  const piv = words(pivots);
  const inf = words(info);
  const k = Math.min(m, n);
  for (let b = 0; b < batch; b++) {
    const off = lu.storageOffset + 2 * b * m * n;
    const w = load(a, off, 2 * m * n);
    inf[info.storageOffset + b] = zgetf2(w, m, n, piv, pivots.storageOffset + b * k);
    a.set(w, off);
  }
};

/** Solves op(T) X = X in place (op: none, or the conjugate transpose), T the n x n triangle of `t`, X n x k, all complex. */
function ztrsm(t: Float64Array, n: number, x: Float64Array, k: number, upper: boolean, unit: boolean, adjoint: boolean): void {
  const lowerOp = upper === adjoint;
  const s = adjoint ? -1 : 1;
  const re = (i: number, j: number) => (adjoint ? t[2 * (j * n + i)] : t[2 * (i * n + j)]);
  const im = (i: number, j: number) => s * (adjoint ? t[2 * (j * n + i) + 1] : t[2 * (i * n + j) + 1]);
  const row = (i: number) => {
    const from = lowerOp ? 0 : i + 1;
    const to = lowerOp ? i : n;
    for (let j = from; j < to; j++) {
      const lr = re(i, j);
      const li = im(i, j);
      if (lr === 0 && li === 0) continue;
      for (let c = 0; c < k; c++) {
        const xr = x[2 * (j * k + c)];
        const xi = x[2 * (j * k + c) + 1];
        x[2 * (i * k + c)] -= lr * xr - li * xi;
        x[2 * (i * k + c) + 1] -= lr * xi + li * xr;
      }
    }
    if (unit) return;
    const dr = re(i, i);
    const di = im(i, i);
    const den = dr * dr + di * di;
    for (let c = 0; c < k; c++) {
      const xr = x[2 * (i * k + c)];
      const xi = x[2 * (i * k + c) + 1];
      x[2 * (i * k + c)] = (xr * dr + xi * di) / den;
      x[2 * (i * k + c) + 1] = (xi * dr - xr * di) / den;
    }
  };
  if (lowerOp) for (let i = 0; i < n; i++) row(i);
  else for (let i = n - 1; i >= 0; i--) row(i);
}

function swapRows(x: Float64Array, k: number, i: number, p: number): void {
  if (i === p) return;
  for (let c = 0; c < 2 * k; c++) {
    const t = x[2 * i * k + c];
    x[2 * i * k + c] = x[2 * p * k + c];
    x[2 * p * k + c] = t;
  }
}

export const luSolveComplex: BackendImpls['luSolveComplex'] = (x, lu, pivots, adjoint) => {
  const [batch, n, k] = dims(x);
  const xs = floatArray(x);
  const a = floatArray(lu);
  const piv = words(pivots);
  for (let b = 0; b < batch; b++) {
    const xOff = x.storageOffset + 2 * b * n * k;
    const w = load(xs, xOff, 2 * n * k);
    const t = load(a, lu.storageOffset + 2 * b * n * n, 2 * n * n);
    const pOff = pivots.storageOffset + b * n;
    if (!adjoint) {
      for (let i = 0; i < n; i++) swapRows(w, k, i, piv[pOff + i] - 1);
      ztrsm(t, n, w, k, false, true, false);
      ztrsm(t, n, w, k, true, false, false);
    } else {
      // A^H = U^H L^H P^T: X = P L^-H U^-H B
      ztrsm(t, n, w, k, true, false, true);
      ztrsm(t, n, w, k, false, true, true);
      for (let i = n - 1; i >= 0; i--) swapRows(w, k, i, piv[pOff + i] - 1);
    }
    xs.set(w, xOff);
  }
};

export const solveTriangularComplex: BackendImpls['solveTriangularComplex'] = (x, a, upper, unitriangular) => {
  const [batch, n, k] = dims(x);
  const xs = floatArray(x);
  const as = floatArray(a);
  for (let b = 0; b < batch; b++) {
    const xOff = x.storageOffset + 2 * b * n * k;
    const w = load(xs, xOff, 2 * n * k);
    ztrsm(load(as, a.storageOffset + 2 * b * n * n, 2 * n * n), n, w, k, upper, unitriangular, false);
    xs.set(w, xOff);
  }
};

/** zpotf2 (lower) on one n x n complex matrix: info. */
function zpotf2(a: Float64Array, n: number): number {
  for (let j = 0; j < n; j++) {
    let d = a[2 * (j * n + j)];
    for (let c = 0; c < j; c++) d -= a[2 * (j * n + c)] ** 2 + a[2 * (j * n + c) + 1] ** 2;
    if (!(d > 0)) {
      a[2 * (j * n + j)] = d;
      a[2 * (j * n + j) + 1] = 0;
      return j + 1;
    }
    const ljj = Math.sqrt(d);
    a[2 * (j * n + j)] = ljj;
    a[2 * (j * n + j) + 1] = 0;
    for (let i = j + 1; i < n; i++) {
      let sr = a[2 * (i * n + j)];
      let si = a[2 * (i * n + j) + 1];
      // s -= L[i][c] conj(L[j][c])
      for (let c = 0; c < j; c++) {
        const xr = a[2 * (i * n + c)];
        const xi = a[2 * (i * n + c) + 1];
        const yr = a[2 * (j * n + c)];
        const yi = a[2 * (j * n + c) + 1];
        sr -= xr * yr + xi * yi;
        si -= xi * yr - xr * yi;
      }
      a[2 * (i * n + j)] = sr / ljj;
      a[2 * (i * n + j) + 1] = si / ljj;
    }
  }
  return 0;
}

export const choleskyComplex: BackendImpls['choleskyComplex'] = (l, info) => {
  const [batch, n] = dims(l);
  const a = floatArray(l);
  const inf = words(info);
  for (let b = 0; b < batch; b++) {
    const off = l.storageOffset + 2 * b * n * n;
    const w = load(a, off, 2 * n * n);
    inf[info.storageOffset + b] = zpotf2(w, n);
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) w[2 * (i * n + j)] = w[2 * (i * n + j) + 1] = 0;
    a.set(w, off);
  }
};

/** The Hermitian n x n matrix whose `upper` (else lower) triangle `a` holds, its diagonal's imaginary parts dropped (as zheevd's). */
function hermitianFrom(a: Float64Array, n: number, upper: boolean): Float64Array {
  const h = new Float64Array(2 * n * n);
  for (let i = 0; i < n; i++) {
    h[2 * (i * n + i)] = a[2 * (i * n + i)];
    for (let j = 0; j < i; j++) {
      // (i, j) below the diagonal: from the lower triangle, or the conjugate of (j, i) above
      const [r, im] = upper ? [a[2 * (j * n + i)], -a[2 * (j * n + i) + 1]] : [a[2 * (i * n + j)], a[2 * (i * n + j) + 1]];
      h[2 * (i * n + j)] = r;
      h[2 * (i * n + j) + 1] = im;
      h[2 * (j * n + i)] = r;
      h[2 * (j * n + i) + 1] = -im;
    }
  }
  return h;
}

/** Cyclic complex Jacobi on the Hermitian `h` (overwritten): the eigenvalues into `w`, the eigenvectors (columns) into `v`. */
function zjacobi(h: Float64Array, n: number, w: Float64Array, v: Float64Array): void {
  v.fill(0);
  for (let i = 0; i < n; i++) v[2 * (i * n + i)] = 1;
  let norm = 0;
  for (let i = 0; i < 2 * n * n; i++) norm += h[i] * h[i];
  const tol = (Number.EPSILON * Number.EPSILON * norm) / 4;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += h[2 * (p * n + q)] ** 2 + h[2 * (p * n + q) + 1] ** 2;
    if (!(off > tol)) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const ar = h[2 * (p * n + q)];
        const ai = h[2 * (p * n + q) + 1];
        const g = Math.hypot(ar, ai);
        if (g === 0) continue;
        // e = a_pq / |a_pq|; U = diag(1, conj(e)) J: U_pp = c, U_pq = s, U_qp = -s conj(e), U_qq = c conj(e)
        const er = ar / g;
        const ei = ai / g;
        const app = h[2 * (p * n + p)];
        const aqq = h[2 * (q * n + q)];
        const theta = (aqq - app) / (2 * g);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        const upp = [c, 0];
        const upq = [s, 0];
        const uqp = [-s * er, s * ei];
        const uqq = [c * er, -c * ei];
        // columns: A <- A U, V <- V U
        for (const [m, rows] of [
          [h, n],
          [v, n],
        ] as const) {
          for (let k = 0; k < rows; k++) {
            const xr = m[2 * (k * n + p)];
            const xi = m[2 * (k * n + p) + 1];
            const yr = m[2 * (k * n + q)];
            const yi = m[2 * (k * n + q) + 1];
            m[2 * (k * n + p)] = xr * upp[0] - xi * upp[1] + yr * uqp[0] - yi * uqp[1];
            m[2 * (k * n + p) + 1] = xr * upp[1] + xi * upp[0] + yr * uqp[1] + yi * uqp[0];
            m[2 * (k * n + q)] = xr * upq[0] - xi * upq[1] + yr * uqq[0] - yi * uqq[1];
            m[2 * (k * n + q) + 1] = xr * upq[1] + xi * upq[0] + yr * uqq[1] + yi * uqq[0];
          }
        }
        // rows: A <- U^H A
        for (let k = 0; k < n; k++) {
          const xr = h[2 * (p * n + k)];
          const xi = h[2 * (p * n + k) + 1];
          const yr = h[2 * (q * n + k)];
          const yi = h[2 * (q * n + k) + 1];
          // conj(U_pp) x + conj(U_qp) y, conj(U_pq) x + conj(U_qq) y
          h[2 * (p * n + k)] = xr * upp[0] + xi * upp[1] + yr * uqp[0] + yi * uqp[1];
          h[2 * (p * n + k) + 1] = xi * upp[0] - xr * upp[1] + yi * uqp[0] - yr * uqp[1];
          h[2 * (q * n + k)] = xr * upq[0] + xi * upq[1] + yr * uqq[0] + yi * uqq[1];
          h[2 * (q * n + k) + 1] = xi * upq[0] - xr * upq[1] + yi * uqq[0] - yr * uqq[1];
        }
        h[2 * (p * n + q)] = h[2 * (p * n + q) + 1] = h[2 * (q * n + p)] = h[2 * (q * n + p) + 1] = 0;
        h[2 * (p * n + p) + 1] = h[2 * (q * n + q) + 1] = 0;
      }
    }
  }
  for (let i = 0; i < n; i++) w[i] = h[2 * (i * n + i)];
}

export const eighComplex: BackendImpls['eighComplex'] = (a, w, upper) => {
  const [batch, n] = dims(a);
  const as = floatArray(a);
  const ws = floatArray(w);
  const wd = new Float64Array(n);
  const vd = new Float64Array(2 * n * n);
  const order = new Array<number>(n);
  for (let b = 0; b < batch; b++) {
    const off = a.storageOffset + 2 * b * n * n;
    zjacobi(hermitianFrom(load(as, off, 2 * n * n), n, upper), n, wd, vd);
    for (let i = 0; i < n; i++) order[i] = i;
    // ascending, NaN last; ties keep their order
    order.sort((x, y) => (wd[x] < wd[y] ? -1 : wd[x] > wd[y] ? 1 : Number.isNaN(wd[x]) ? (Number.isNaN(wd[y]) ? x - y : 1) : Number.isNaN(wd[y]) ? -1 : x - y));
    for (let j = 0; j < n; j++) {
      const src = order[j];
      ws[w.storageOffset + b * n + j] = wd[src];
      for (let i = 0; i < n; i++) {
        as[off + 2 * (i * n + j)] = vd[2 * (i * n + src)];
        as[off + 2 * (i * n + j) + 1] = vd[2 * (i * n + src) + 1];
      }
    }
  }
};
