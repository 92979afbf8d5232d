import type { BackendImpls } from '@torch-ts/core';
import { floatArray, words } from '../loops/arrays';
import { dims, load, zlarfLeft, zlarfg } from './linalg-complex-qr';
import { mexp, type MexpAlgebra } from './linalg-qr';

/**
 * Note [CPU complex lstsq and matrix_exp]
 * lstsqComplex / lstsqSvdComplex / matrixExpComplex (core's ComplexLinalgImpls) are the real
 * kernels' algorithms (Note [CPU QR, eigh, lstsq and matrix_exp]) in complex arithmetic, on
 * the parts laid out as the other complex kernels' (element (i, j) at 2 (i n + j)), every
 * transpose a conjugate transpose:
 *  - gels: zgeqr2's reflectors (zlarfg, Note [CPU complex QR]) run over [A | B], so that the
 *    columns of B receive Q^H B as A's trailing columns do; X = R^-1 (Q^H B)[:n]. For m < n
 *    the minimum-norm X = Q R^-H B from A^H = Q R;
 *  - gelsy: the same with geqp3's column pivoting (largest remaining column norm), the rank
 *    the leading |R_ii| above rcond |R_00|, X the minimum-norm solution of the rank-r
 *    trapezoid, un-pivoted;
 *  - gelsd / gelss: V diag(1/s_kept) U^H B from core's SVD.
 * For m > n each writes the residuals sum_i |(B - A X)_i|^2 of each column into the real part
 * of row n of `x` (the imaginary part zero): core reads them from there.
 *  - matrixExpComplex: ATen's mexp (the real kernel's degrees and coefficients, all real) on
 *    the complex matrix, its 1-norm the largest column sum of moduli, the thresholds of the
 *    parts' dtype.
 */

/** Complex division (a / b) into [re, im]. */
function cdiv(ar: number, ai: number, br: number, bi: number): [number, number] {
  const d = br * br + bi * bi;
  return [(ar * br + ai * bi) / d, (ai * br - ar * bi) / d];
}

/**
 * The augmented w = [M | C] (rows x (cols + k), complex) of the rows x cols M and the rows x k C.
 */
function augment(M: Float64Array, rows: number, cols: number, ldm: number, C: Float64Array, k: number, ldc: number): Float64Array {
  const w = new Float64Array(2 * rows * (cols + k));
  const ld = cols + k;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      w[2 * (i * ld + j)] = M[2 * (i * ldm + j)];
      w[2 * (i * ld + j) + 1] = M[2 * (i * ldm + j) + 1];
    }
    for (let j = 0; j < k; j++) {
      w[2 * (i * ld + cols + j)] = C[2 * (i * ldc + j)];
      w[2 * (i * ld + cols + j) + 1] = C[2 * (i * ldc + j) + 1];
    }
  }
  return w;
}

/** The 2-norm of column j of w (ld columns) over rows r..m-1. */
function colNorm(w: Float64Array, ld: number, m: number, r: number, j: number): number {
  let s = 0;
  for (let i = r; i < m; i++) s = Math.hypot(s, w[2 * (i * ld + j)], w[2 * (i * ld + j) + 1]);
  return s;
}

/**
 * Householder QR of the first `cols` columns of w (m rows, ld columns), optionally pivoting
 * (jpvt the original column at each position), the reflectors' H^H applied to every column
 * past each step's (B's columns included). Returns the taus (2 per reflector).
 */
function augmentedQr(w: Float64Array, m: number, cols: number, ld: number, jpvt: Int32Array | null): Float64Array {
  const kk = Math.min(m, cols);
  const t = new Float64Array(2 * kk);
  for (let i = 0; i < kk; i++) {
    if (jpvt) {
      let p = i;
      let best = colNorm(w, ld, m, i, i);
      for (let j = i + 1; j < cols; j++) {
        const v = colNorm(w, ld, m, i, j);
        if (v > best) {
          best = v;
          p = j;
        }
      }
      if (p !== i) {
        for (let r = 0; r < m; r++) {
          for (let q = 0; q < 2; q++) {
            const tmp = w[2 * (r * ld + i) + q];
            w[2 * (r * ld + i) + q] = w[2 * (r * ld + p) + q];
            w[2 * (r * ld + p) + q] = tmp;
          }
        }
        [jpvt[i], jpvt[p]] = [jpvt[p], jpvt[i]];
      }
    }
    zlarfg(w, ld, m, i, i, t, i);
    if (i < ld - 1) zlarfLeft(w, ld, m, i, i, t[2 * i], -t[2 * i + 1], i + 1);
  }
  return t;
}

/**
 * The minimum-norm solution (n x k) of W y = c for the full-row-rank r x n W (row stride ldw)
 * and the r x k c (row stride ldc): W^H = Q R, y = Q R^-H c.
 */
function minNormSolve(W: Float64Array, r: number, n: number, ldw: number, c: Float64Array, k: number, ldc: number): Float64Array {
  // [W^H | 0]: n x (r + k)
  const ld = r + k;
  const w = new Float64Array(2 * n * ld);
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < n; j++) {
      w[2 * (j * ld + i)] = W[2 * (i * ldw + j)];
      w[2 * (j * ld + i) + 1] = -W[2 * (i * ldw + j) + 1];
    }
  }
  const t = augmentedQr(w, n, r, ld, null);
  // R^H z = c (forward substitution) into the first r rows of the trailing k columns (zeros below)
  for (let col = 0; col < k; col++) {
    for (let i = 0; i < n; i++) w[2 * (i * ld + r + col)] = w[2 * (i * ld + r + col) + 1] = 0;
    for (let i = 0; i < r; i++) {
      let sr = c[2 * (i * ldc + col)];
      let si = c[2 * (i * ldc + col) + 1];
      for (let j = 0; j < i; j++) {
        // conj(R_ji) z_j
        const rr = w[2 * (j * ld + i)];
        const ri = -w[2 * (j * ld + i) + 1];
        const zr = w[2 * (j * ld + r + col)];
        const zi = w[2 * (j * ld + r + col) + 1];
        sr -= rr * zr - ri * zi;
        si -= rr * zi + ri * zr;
      }
      const [qr, qi] = cdiv(sr, si, w[2 * (i * ld + i)], -w[2 * (i * ld + i) + 1]);
      w[2 * (i * ld + r + col)] = qr;
      w[2 * (i * ld + r + col) + 1] = qi;
    }
  }
  // y = H(0) ... H(r-1) [z; 0]
  for (let i = r - 1; i >= 0; i--) zlarfLeft(w, ld, n, i, i, t[2 * i], t[2 * i + 1], r);
  const y = new Float64Array(2 * n * k);
  for (let i = 0; i < n; i++) for (let col = 0; col < k; col++) for (let q = 0; q < 2; q++) y[2 * (i * k + col) + q] = w[2 * (i * ld + r + col) + q];
  return y;
}

/** sum_i |B_i - (A X)_i|^2 per column into the real part of row n of X (rows x k), for m > n. */
function writeResiduals(A: Float64Array, B: Float64Array, X: Float64Array, m: number, n: number, k: number): void {
  for (let col = 0; col < k; col++) {
    let res = 0;
    for (let i = 0; i < m; i++) {
      let rr = B[2 * (i * k + col)];
      let ri = B[2 * (i * k + col) + 1];
      for (let j = 0; j < n; j++) {
        const ar = A[2 * (i * n + j)];
        const ai = A[2 * (i * n + j) + 1];
        const xr = X[2 * (j * k + col)];
        const xi = X[2 * (j * k + col) + 1];
        rr -= ar * xr - ai * xi;
        ri -= ar * xi + ai * xr;
      }
      res += rr * rr + ri * ri;
    }
    X[2 * (n * k + col)] = res;
    X[2 * (n * k + col) + 1] = 0;
  }
}

export const lstsqComplex: BackendImpls['lstsqComplex'] = (a, x, rank, info, pivot, rcond) => {
  const [batch, m, n] = dims(a);
  const rows = Math.max(m, n);
  const k = x.sizes[x.sizes.length - 2];
  const as = floatArray(a);
  const xs = floatArray(x);
  const rk = words(rank);
  const inf = words(info);
  for (let b = 0; b < batch; b++) {
    const A = load(as, a.storageOffset + 2 * b * m * n, 2 * m * n);
    const xOff = x.storageOffset + 2 * b * rows * k;
    const X = load(xs, xOff, 2 * rows * k);
    const B = X.slice(0, 2 * m * k);
    const kk = Math.min(m, n);
    let r = kk;
    let bad = 0;
    const ld = n + k;
    if (!pivot && m < n) {
      const T = new Float64Array(2 * n * m);
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          T[2 * (j * m + i)] = A[2 * (i * n + j)];
          T[2 * (j * m + i) + 1] = -A[2 * (i * n + j) + 1];
        }
      }
      // (A^H's R, for gels' full-rank check: a zero on its diagonal is LAPACK's info)
      augmentedQr(T, n, m, m, null);
      for (let i = 0; i < m && bad === 0; i++) if (T[2 * (i * m + i)] === 0 && T[2 * (i * m + i) + 1] === 0) bad = i + 1;
      X.fill(0);
      if (bad === 0) X.set(minNormSolve(A, m, n, n, B, k, k));
    } else {
      const w = augment(A, m, n, n, B, k, k);
      const jpvt = pivot ? Int32Array.from({ length: n }, (_, j) => j) : null;
      augmentedQr(w, m, n, ld, jpvt);
      X.fill(0);
      if (!pivot) {
        for (let i = 0; i < n && bad === 0; i++) if (w[2 * (i * ld + i)] === 0 && w[2 * (i * ld + i) + 1] === 0) bad = i + 1;
        if (bad === 0) {
          for (let col = 0; col < k; col++) {
            for (let i = n - 1; i >= 0; i--) {
              let sr = w[2 * (i * ld + n + col)];
              let si = w[2 * (i * ld + n + col) + 1];
              for (let j = i + 1; j < n; j++) {
                const rr = w[2 * (i * ld + j)];
                const ri = w[2 * (i * ld + j) + 1];
                sr -= rr * X[2 * (j * k + col)] - ri * X[2 * (j * k + col) + 1];
                si -= rr * X[2 * (j * k + col) + 1] + ri * X[2 * (j * k + col)];
              }
              [X[2 * (i * k + col)], X[2 * (i * k + col) + 1]] = cdiv(sr, si, w[2 * (i * ld + i)], w[2 * (i * ld + i) + 1]);
            }
          }
        }
      } else {
        const r00 = kk > 0 ? Math.hypot(w[0], w[1]) : 0;
        r = 0;
        while (r < kk && r00 > 0 && Math.hypot(w[2 * (r * ld + r)], w[2 * (r * ld + r) + 1]) > rcond * r00) r++;
        if (r > 0) {
          // R's rank-r upper trapezoid and (Q^H B)[:r]
          const R = new Float64Array(2 * r * n);
          const c = new Float64Array(2 * r * k);
          for (let i = 0; i < r; i++) {
            for (let j = i; j < n; j++) for (let q = 0; q < 2; q++) R[2 * (i * n + j) + q] = w[2 * (i * ld + j) + q];
            for (let j = 0; j < k; j++) for (let q = 0; q < 2; q++) c[2 * (i * k + j) + q] = w[2 * (i * ld + n + j) + q];
          }
          const y = minNormSolve(R, r, n, n, c, k, k);
          for (let j = 0; j < n; j++) for (let col = 0; col < k; col++) for (let q = 0; q < 2; q++) X[2 * (jpvt![j] * k + col) + q] = y[2 * (j * k + col) + q];
        }
      }
    }
    if (m > n && bad === 0) writeResiduals(A, B, X, m, n, k);
    rk[rank.storageOffset + b] = r;
    inf[info.storageOffset + b] = bad;
    xs.set(X, xOff);
  }
};

export const lstsqSvdComplex: BackendImpls['lstsqSvdComplex'] = (u, s, vh, x, rank, rcond, floor) => {
  const [batch, m, kk] = dims(u);
  const n = vh.sizes[vh.sizes.length - 2];
  const rows = Math.max(m, n);
  const k = x.sizes[x.sizes.length - 2];
  const us = floatArray(u);
  const ss = floatArray(s);
  const vs = floatArray(vh);
  const xs = floatArray(x);
  const rk = words(rank);
  for (let b = 0; b < batch; b++) {
    const U = load(us, u.storageOffset + 2 * b * m * kk, 2 * m * kk);
    const S = load(ss, s.storageOffset + b * kk, kk);
    const V = load(vs, vh.storageOffset + 2 * b * kk * n, 2 * kk * n);
    const xOff = x.storageOffset + 2 * b * rows * k;
    const X = load(xs, xOff, 2 * rows * k);
    const thr = Math.max(rcond * S[0], floor);
    const keep = Array.from(S, (v) => v > thr);
    // c = U_kept^H B
    const c = new Float64Array(2 * kk * k);
    for (let i = 0; i < kk; i++) {
      if (!keep[i]) continue;
      for (let j = 0; j < k; j++) {
        let tr = 0;
        let ti = 0;
        for (let r = 0; r < m; r++) {
          const ur = U[2 * (r * kk + i)];
          const ui = -U[2 * (r * kk + i) + 1];
          const br = X[2 * (r * k + j)];
          const bi = X[2 * (r * k + j) + 1];
          tr += ur * br - ui * bi;
          ti += ur * bi + ui * br;
        }
        c[2 * (i * k + j)] = tr;
        c[2 * (i * k + j) + 1] = ti;
      }
    }
    if (m > n) {
      for (let j = 0; j < k; j++) {
        let res = 0;
        for (let r = 0; r < m; r++) {
          let tr = X[2 * (r * k + j)];
          let ti = X[2 * (r * k + j) + 1];
          for (let i = 0; i < kk; i++) {
            if (!keep[i]) continue;
            const ur = U[2 * (r * kk + i)];
            const ui = U[2 * (r * kk + i) + 1];
            tr -= ur * c[2 * (i * k + j)] - ui * c[2 * (i * k + j) + 1];
            ti -= ur * c[2 * (i * k + j) + 1] + ui * c[2 * (i * k + j)];
          }
          res += tr * tr + ti * ti;
        }
        X[2 * (n * k + j)] = res;
        X[2 * (n * k + j) + 1] = 0;
      }
    }
    for (let i = 0; i < 2 * kk * k; i++) c[i] = keep[Math.floor(i / (2 * k))] ? c[i] / S[Math.floor(i / (2 * k))] : 0;
    // X = V c = Vh^H c
    for (let col = 0; col < n; col++) {
      for (let j = 0; j < k; j++) {
        let tr = 0;
        let ti = 0;
        for (let i = 0; i < kk; i++) {
          const vr = V[2 * (i * n + col)];
          const vi = -V[2 * (i * n + col) + 1];
          tr += vr * c[2 * (i * k + j)] - vi * c[2 * (i * k + j) + 1];
          ti += vr * c[2 * (i * k + j) + 1] + vi * c[2 * (i * k + j)];
        }
        X[2 * (col * k + j)] = tr;
        X[2 * (col * k + j) + 1] = ti;
      }
    }
    rk[rank.storageOffset + b] = keep.filter(Boolean).length;
    xs.set(X, xOff);
  }
};

/** Complex n x n products in the interleaved layout. */
function complexAlgebra(n: number): MexpAlgebra {
  return {
    size: 2 * n * n,
    mm: (x, y) => {
      const out = new Float64Array(2 * n * n);
      for (let i = 0; i < n; i++) {
        for (let l = 0; l < n; l++) {
          const xr = x[2 * (i * n + l)];
          const xi = x[2 * (i * n + l) + 1];
          if (xr === 0 && xi === 0) continue;
          for (let j = 0; j < n; j++) {
            const yr = y[2 * (l * n + j)];
            const yi = y[2 * (l * n + j) + 1];
            out[2 * (i * n + j)] += xr * yr - xi * yi;
            out[2 * (i * n + j) + 1] += xr * yi + xi * yr;
          }
        }
      }
      return out;
    },
    eye: () => {
      const I = new Float64Array(2 * n * n);
      for (let i = 0; i < n; i++) I[2 * (i * n + i)] = 1;
      return I;
    },
  };
}

/** exp(A) of one complex n x n matrix (interleaved parts). */
export function matrixExpComplexOf(A: Float64Array, n: number, dtype: 'float32' | 'float64'): Float64Array {
  if (n === 1) {
    const e = Math.exp(A[0]);
    return Float64Array.of(e * Math.cos(A[1]), e * Math.sin(A[1]));
  }
  let norm = 0;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.hypot(A[2 * (i * n + j)], A[2 * (i * n + j) + 1]);
    norm = s > norm || Number.isNaN(s) ? s : norm;
  }
  return mexp(A, norm, dtype, complexAlgebra(n));
}

export const matrixExpComplex: BackendImpls['matrixExpComplex'] = (out, a) => {
  const [batch, n] = dims(a);
  const as = floatArray(a);
  const os = floatArray(out);
  const dtype = a.dtype === 'float32' ? 'float32' : 'float64';
  for (let b = 0; b < batch; b++) {
    os.set(matrixExpComplexOf(load(as, a.storageOffset + 2 * b * n * n, 2 * n * n), n, dtype), out.storageOffset + 2 * b * n * n);
  }
};
