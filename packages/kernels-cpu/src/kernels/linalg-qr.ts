import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { floatArray, words } from '../loops/arrays';

/**
 * Note [CPU QR, eigh, lstsq and matrix_exp]
 * The kernels of core's LinalgQrImpls, one matrix at a time in doubles, as the LU family's
 * (Note [CPU LU, Cholesky and triangular solves]): each matrix is read into a Float64Array,
 * worked on there and stored back once, rounded to the tensor's dtype.
 *  - geqrf / householderProduct: LAPACK's unblocked geqr2 / org2r with dlarfg's reflector
 *    (beta = -sign(alpha) * norm, tau = (beta - alpha) / beta, v[0] = 1), so Q and R are
 *    LAPACK's (PyTorch's CPU) up to rounding, signs included;
 *  - eigh: cyclic Jacobi (Rutishauser's rotations), which is accurate to full relative
 *    precision in the eigenvalues; eigenvalues sorted ascending as LAPACK's syevd, the
 *    eigenvectors' signs are the iteration's (LAPACK's are arbitrary too);
 *  - lstsq: gels (Householder QR; LQ through the QR of A^T when m < n) and gelsy (QR with
 *    column pivoting as geqp3, then the minimum-norm solution of the rank-r trapezoid);
 *    lstsqSvd (gelsd and gelss) from the SVD core computed;
 *  - matrixExp: ATen's mexp, the degree-optimised Taylor polynomials of Bader, Blanes and
 *    Casas (2019) chosen by the 1-norm against ATen's per-dtype thresholds, with scaling
 *    and squaring past the last one.
 */

function dims(t: TensorImpl): [number, number, number] {
  const s = t.sizes;
  const m = s[s.length - 2];
  const n = s[s.length - 1];
  return [m * n === 0 ? 0 : t.numel / (m * n), m, n];
}

function load(src: ArrayLike<number>, offset: number, count: number): Float64Array {
  const w = new Float64Array(count);
  for (let i = 0; i < count; i++) w[i] = src[offset + i];
  return w;
}

/**
 * dlarfg on the column `c` of row-major `a` (row stride `ld`) from row `r` down to `m`:
 * a[r, c] becomes beta, the rows below it v[1:]; returns tau.
 */
function larfg(a: Float64Array, ld: number, m: number, r: number, c: number): number {
  let xnorm = 0;
  // (scaled as dnrm2, so no square overflows)
  let scale = 0;
  let ssq = 1;
  for (let i = r + 1; i < m; i++) {
    const v = a[i * ld + c];
    if (v !== 0) {
      const av = Math.abs(v);
      if (scale < av) {
        ssq = 1 + ssq * (scale / av) * (scale / av);
        scale = av;
      } else ssq += (av / scale) * (av / scale);
    }
  }
  xnorm = scale * Math.sqrt(ssq);
  if (xnorm === 0) return 0;
  const alpha = a[r * ld + c];
  const beta = -(alpha >= 0 ? 1 : -1) * Math.hypot(alpha, xnorm);
  const tau = (beta - alpha) / beta;
  const s = 1 / (alpha - beta);
  for (let i = r + 1; i < m; i++) a[i * ld + c] *= s;
  a[r * ld + c] = beta;
  return tau;
}

/**
 * dlarf from the left: applies H = I - tau v v^T (v the column `vc` of `v` from row `r`, v[r]
 * taken as 1) to the rows r..m-1 of the columns c0..n-1 of `a`.
 */
function larfLeft(v: Float64Array, vld: number, vc: number, tau: number, a: Float64Array, ld: number, m: number, r: number, c0: number, n: number): void {
  if (tau === 0) return;
  for (let c = c0; c < n; c++) {
    let w = a[r * ld + c];
    for (let i = r + 1; i < m; i++) w += v[i * vld + vc] * a[i * ld + c];
    if (w === 0) continue;
    w *= tau;
    a[r * ld + c] -= w;
    for (let i = r + 1; i < m; i++) a[i * ld + c] -= v[i * vld + vc] * w;
  }
}

/** geqr2 on the m x n row-major `a` (row stride `ld`), the taus into tau[tOff..]. */
function geqr2(a: Float64Array, ld: number, m: number, n: number, tau: Float64Array): void {
  const k = Math.min(m, n);
  for (let i = 0; i < k; i++) {
    tau[i] = larfg(a, ld, m, i, i);
    if (i < n - 1) larfLeft(a, ld, i, tau[i], a, ld, m, i, i + 1, n);
  }
}

/** org2r: the m x n `a` holding k reflectors becomes the first n columns of H(0) ... H(k-1). */
function org2r(a: Float64Array, m: number, n: number, k: number, tau: ArrayLike<number>): void {
  for (let j = k; j < n; j++) {
    for (let i = 0; i < m; i++) a[i * n + j] = 0;
    if (j < m) a[j * n + j] = 1;
  }
  for (let i = k - 1; i >= 0; i--) {
    if (i < n - 1) {
      a[i * n + i] = 1;
      larfLeft(a, n, i, tau[i], a, n, m, i, i + 1, n);
    }
    for (let r = i + 1; r < m; r++) a[r * n + i] *= -tau[i];
    a[i * n + i] = 1 - tau[i];
    for (let r = 0; r < i; r++) a[r * n + i] = 0;
  }
}

export const geqrf: BackendImpls['geqrf'] = (a, tau) => {
  const [batch, m, n] = dims(a);
  const k = Math.min(m, n);
  const as = floatArray(a);
  const ts = floatArray(tau);
  const t = new Float64Array(k);
  for (let b = 0; b < batch; b++) {
    const off = a.storageOffset + b * m * n;
    const w = load(as, off, m * n);
    geqr2(w, n, m, n, t);
    as.set(w, off);
    ts.set(t, tau.storageOffset + b * k);
  }
};

export const householderProduct: BackendImpls['householderProduct'] = (q, tau) => {
  const [batch, m, n] = dims(q);
  const k = tau.sizes[tau.sizes.length - 1];
  const qs = floatArray(q);
  const ts = floatArray(tau);
  for (let b = 0; b < batch; b++) {
    const off = q.storageOffset + b * m * n;
    const w = load(qs, off, m * n);
    org2r(w, m, n, k, load(ts, tau.storageOffset + b * k, k));
    qs.set(w, off);
  }
};

// ---- eigh ----

/**
 * Cyclic Jacobi on the symmetric n x n `a` (both triangles): `a`'s diagonal becomes the
 * eigenvalues, `v` (n x n, row-major, starting as I) the eigenvectors in its columns.
 * Sweeps until every off-diagonal element is negligible against its diagonal pair (the
 * classic test |a_pq| <= eps * sqrt|a_pp a_qq|, which gives full relative accuracy for
 * the well-conditioned and graded matrices Jacobi is known for) or is exactly zero.
 */
function jacobi(a: Float64Array, v: Float64Array, n: number): void {
  const eps = Number.EPSILON / 2;
  for (let sweep = 0; sweep < 100; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (apq === 0) continue;
        const app = a[p * n + p];
        const aqq = a[q * n + q];
        if (Math.abs(apq) <= eps * Math.sqrt(Math.abs(app * aqq)) && !(app === 0 && aqq === 0)) {
          a[p * n + q] = 0;
          a[q * n + p] = 0;
          continue;
        }
        rotated = true;
        // t = tan(theta), the smaller root of t^2 + 2 zeta t - 1 = 0
        const zeta = (aqq - app) / (2 * apq);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.hypot(1, zeta));
        const c = 1 / Math.hypot(1, t);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        a[p * n + q] = 0;
        a[q * n + p] = 0;
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
    if (!rotated) return;
  }
}

export const eigh: BackendImpls['eigh'] = (a, w, upper) => {
  const [batch, n] = dims(a);
  const as = floatArray(a);
  const ws = floatArray(w);
  for (let b = 0; b < batch; b++) {
    const off = a.storageOffset + b * n * n;
    const m = load(as, off, n * n);
    // only the triangle UPLO names is read: mirror it
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        if (upper) m[j * n + i] = m[i * n + j];
        else m[i * n + j] = m[j * n + i];
      }
    }
    const v = new Float64Array(n * n);
    for (let i = 0; i < n; i++) v[i * n + i] = 1;
    jacobi(m, v, n);
    const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => m[x * n + x] - m[y * n + y] || x - y);
    const out = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      ws[w.storageOffset + b * n + j] = m[order[j] * n + order[j]];
      for (let i = 0; i < n; i++) out[i * n + j] = v[i * n + order[j]];
    }
    as.set(out, off);
  }
};

// ---- lstsq ----

/** Back substitution: x[0..r) (column c of the r x k block of `x`, row stride k) = R^-1 x, R the r x r upper triangle of `a` (row stride lda). */
function upperSolve(a: Float64Array, lda: number, r: number, x: Float64Array, k: number, c: number): void {
  for (let i = r - 1; i >= 0; i--) {
    let s = x[i * k + c];
    for (let j = i + 1; j < r; j++) s -= a[i * lda + j] * x[j * k + c];
    x[i * k + c] = s / a[i * lda + i];
  }
}

/** Applies Q^T (Q = H(0) ... H(r-1), reflectors in `a`'s columns) to the m x k `x` from the left. */
function applyQt(a: Float64Array, lda: number, m: number, r: number, tau: Float64Array, x: Float64Array, k: number): void {
  for (let i = 0; i < r; i++) larfLeft(a, lda, i, tau[i], x, k, m, i, 0, k);
}

/**
 * The minimum-norm solution of W y = c for the full-row-rank r x n W (row-major, row stride
 * lda) and the r x k `c` (rows of `x`, stride k): y (n x k) = Q R^-T c from W^T = Q R, into
 * the first n rows of `y`.
 */
function minNormSolve(W: Float64Array, lda: number, r: number, n: number, c: Float64Array, k: number, y: Float64Array): void {
  const wt = new Float64Array(n * r);
  for (let i = 0; i < r; i++) for (let j = 0; j < n; j++) wt[j * r + i] = W[i * lda + j];
  const tau = new Float64Array(r);
  geqr2(wt, r, n, r, tau);
  y.fill(0, 0, n * k);
  for (let col = 0; col < k; col++) {
    // R^T z = c (forward substitution), then y = Q [z; 0]
    for (let i = 0; i < r; i++) {
      let s = c[i * k + col];
      for (let j = 0; j < i; j++) s -= wt[j * r + i] * y[j * k + col];
      y[i * k + col] = s / wt[i * r + i];
    }
  }
  for (let i = r - 1; i >= 0; i--) larfLeft(wt, r, i, tau[i], y, k, n, i, 0, k);
}

/** geqp3's column pivoting: QR of the m x n `a` choosing at step i the remaining column of largest norm; jpvt[i] the original column at i. */
function geqp3(a: Float64Array, m: number, n: number, tau: Float64Array, jpvt: Int32Array): void {
  const k = Math.min(m, n);
  const norms = new Float64Array(n);
  const orig = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < m; i++) s = Math.hypot(s, a[i * n + j]);
    norms[j] = s;
    orig[j] = s;
    jpvt[j] = j;
  }
  const tol3z = Math.sqrt(Number.EPSILON / 2);
  for (let i = 0; i < k; i++) {
    let p = i;
    for (let j = i + 1; j < n; j++) if (norms[j] > norms[p]) p = j;
    if (p !== i) {
      for (let r = 0; r < m; r++) {
        const t = a[r * n + i];
        a[r * n + i] = a[r * n + p];
        a[r * n + p] = t;
      }
      [jpvt[i], jpvt[p]] = [jpvt[p], jpvt[i]];
      norms[p] = norms[i];
      orig[p] = orig[i];
    }
    tau[i] = larfg(a, n, m, i, i);
    if (i < n - 1) larfLeft(a, n, i, tau[i], a, n, m, i, i + 1, n);
    // downdate the partial column norms (dlaqp2), recomputing where cancellation sets in
    for (let j = i + 1; j < n; j++) {
      if (norms[j] === 0) continue;
      let temp = 1 - (Math.abs(a[i * n + j]) / norms[j]) ** 2;
      temp = Math.max(temp, 0);
      const temp2 = temp * (norms[j] / orig[j]) ** 2;
      if (temp2 <= tol3z) {
        let s = 0;
        for (let r = i + 1; r < m; r++) s = Math.hypot(s, a[r * n + j]);
        norms[j] = s;
        orig[j] = s;
      } else norms[j] *= Math.sqrt(temp);
    }
  }
}

export const lstsq: BackendImpls['lstsq'] = (a, x, rank, info, pivot, rcond) => {
  const [batch, m, n] = dims(a);
  const rows = Math.max(m, n);
  const k = x.sizes[x.sizes.length - 1];
  const as = floatArray(a);
  const xs = floatArray(x);
  const rk = words(rank);
  const inf = words(info);
  for (let b = 0; b < batch; b++) {
    const A = load(as, a.storageOffset + b * m * n, m * n);
    const xOff = x.storageOffset + b * rows * k;
    const X = load(xs, xOff, rows * k);
    const kk = Math.min(m, n);
    let r = kk;
    let bad = 0;
    if (!pivot) {
      if (m >= n) {
        const tau = new Float64Array(kk);
        geqr2(A, n, m, n, tau);
        for (let i = 0; i < n && bad === 0; i++) if (A[i * n + i] === 0) bad = i + 1;
        applyQt(A, n, m, n, tau, X, k);
        if (bad === 0) for (let c = 0; c < k; c++) upperSolve(A, n, n, X, k, c);
      } else {
        // A^T = Q R: the minimum-norm x = Q R^-T b
        const c = X.slice(0, m * k);
        const y = new Float64Array(rows * k);
        minNormSolve(A, n, m, n, c, k, y);
        const wt = new Float64Array(n * m);
        for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) wt[j * m + i] = A[i * n + j];
        const tau = new Float64Array(m);
        geqr2(wt, m, n, m, tau);
        for (let i = 0; i < m && bad === 0; i++) if (wt[i * m + i] === 0) bad = i + 1;
        X.set(y);
      }
    } else {
      const tau = new Float64Array(kk);
      const jpvt = new Int32Array(n);
      geqp3(A, m, n, tau, jpvt);
      applyQt(A, n, m, kk, tau, X, k);
      // the rank: the leading |R_ii| above rcond * |R_00| (R's diagonal decreases under pivoting)
      const r00 = kk > 0 ? Math.abs(A[0]) : 0;
      r = 0;
      while (r < kk && r00 > 0 && Math.abs(A[r * n + r]) > rcond * r00) r++;
      const y = new Float64Array(rows * k);
      // (R's upper trapezoid: the reflectors below its diagonal are not part of it)
      for (let i = 0; i < r; i++) for (let j = 0; j < i; j++) A[i * n + j] = 0;
      if (r > 0) minNormSolve(A, n, r, n, X, k, y);
      X.fill(0, 0, n * k);
      for (let j = 0; j < n; j++) for (let c = 0; c < k; c++) X[jpvt[j] * k + c] = y[j * k + c];
    }
    rk[rank.storageOffset + b] = r;
    inf[info.storageOffset + b] = bad;
    xs.set(X, xOff);
  }
};

/** gelsd / gelss from A's SVD (core's Note [lstsq by the SVD]): the kept singular values' solution, rank and residuals. */
export const lstsqSvd: BackendImpls['lstsqSvd'] = (u, s, vh, x, rank, rcond, floor) => {
  const [batch, m, kk] = dims(u);
  const n = vh.sizes[vh.sizes.length - 1];
  const rows = Math.max(m, n);
  const k = x.sizes[x.sizes.length - 1];
  const us = floatArray(u);
  const ss = floatArray(s);
  const vs = floatArray(vh);
  const xs = floatArray(x);
  const rk = words(rank);
  for (let b = 0; b < batch; b++) {
    const U = load(us, u.storageOffset + b * m * kk, m * kk);
    const S = load(ss, s.storageOffset + b * kk, kk);
    const V = load(vs, vh.storageOffset + b * kk * n, kk * n);
    const xOff = x.storageOffset + b * rows * k;
    const X = load(xs, xOff, rows * k);
    const thr = Math.max(rcond * S[0], floor);
    const keep = Array.from(S, (v) => v > thr);
    // c = U_kept^T B
    const c = new Float64Array(kk * k);
    for (let i = 0; i < kk; i++) {
      if (!keep[i]) continue;
      for (let j = 0; j < k; j++) {
        let t = 0;
        for (let r = 0; r < m; r++) t += U[r * kk + i] * X[r * k + j];
        c[i * k + j] = t;
      }
    }
    if (m > n) {
      for (let j = 0; j < k; j++) {
        let res = 0;
        for (let r = 0; r < m; r++) {
          let t = X[r * k + j];
          for (let i = 0; i < kk; i++) if (keep[i]) t -= U[r * kk + i] * c[i * k + j];
          res += t * t;
        }
        X[n * k + j] = res;
      }
    }
    for (let i = 0; i < kk; i++) for (let j = 0; j < k; j++) c[i * k + j] = keep[i] ? c[i * k + j] / S[i] : 0;
    for (let col = 0; col < n; col++) {
      for (let j = 0; j < k; j++) {
        let t = 0;
        for (let i = 0; i < kk; i++) t += V[i * n + col] * c[i * k + j];
        X[col * k + j] = t;
      }
    }
    rk[rank.storageOffset + b] = keep.filter(Boolean).length;
    xs.set(X, xOff);
  }
};

// ---- matrix_exp ----

/** ATen's thresholds on the 1-norm for the degrees 1, 2, 4, 8, 12 and 18 (float32, float64). */
const THETAS: Readonly<Record<'float32' | 'float64', readonly number[]>> = {
  float32: [1.192092800768788e-7, 5.978858893805233e-4, 5.116619363445086e-2, 5.800524627688768e-1, 1.461661507209034, 3.010066362817634],
  float64: [2.220446049250313e-16, 2.580956802971767e-8, 3.397168839976962e-4, 4.991228871115323e-2, 2.996158913811580e-1, 1.090863719290036],
};

const SQRT_177 = 0.1330413469565007072504e2;
const X3 = 2 / 3;
const T8 = {
  x1: X3 * ((1 + SQRT_177) / 88),
  x2: X3 * ((1 + SQRT_177) / 352),
  x4: (-271 + 29 * SQRT_177) / (315 * X3),
  x5: (-11 + 11 * SQRT_177) / (1260 * X3),
  x6: (-99 + 11 * SQRT_177) / (5040 * X3),
  x7: (89 - SQRT_177) / (5040 * X3),
  y2: (857 - 58 * SQRT_177) / 630,
};
const B12 = [
  [9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740],
  [5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989],
  [0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230],
  [-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359],
];
const B18 = [
  [0, -1.00365581030144618291e-1, -8.02924648241156932449e-3, -8.92138498045729985177e-4, 0],
  [0, 3.97849749499645077844e-1, 1.36783778460411720168, 4.98289622525382669416e-1, -6.37898194594723280150e-4],
  [-1.09676396052962061844e1, 1.68015813878906206114, 5.71779846478865511061e-2, -6.98210122488052056106e-3, 3.34975017086070470649e-5],
  [-9.04316832390810593223e-2, -6.76404519071381882256e-2, 6.75961301770459654925e-2, 2.95552570429315521194e-2, -1.39180257516060693404e-5],
  [0, 0, -9.23364619367118555360e-2, -1.69364939002081722752e-2, -1.40086798182036094347e-5],
];

function matmul(x: Float64Array, y: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let l = 0; l < n; l++) {
      const v = x[i * n + l];
      if (v === 0) continue;
      for (let j = 0; j < n; j++) out[i * n + j] += v * y[l * n + j];
    }
  }
  return out;
}

function identity(n: number): Float64Array {
  const I = new Float64Array(n * n);
  for (let i = 0; i < n; i++) I[i * n + i] = 1;
  return I;
}

/**
 * The matrices mexp works on: n x n, real (n * n doubles) or complex (2 * n * n, the parts
 * interleaved); their products and the identity. Every coefficient of the polynomials is
 * real, so their linear combinations are elementwise on either layout.
 */
export interface MexpAlgebra {
  readonly size: number;
  mm(x: Float64Array, y: Float64Array): Float64Array;
  eye(): Float64Array;
}

const realAlgebra = (n: number): MexpAlgebra => ({ size: n * n, mm: (x, y) => matmul(x, y, n), eye: () => identity(n) });

function combination(ms: readonly Float64Array[], coeffs: readonly number[], size: number): Float64Array {
  const out = new Float64Array(size);
  for (let t = 0; t < ms.length; t++) {
    const c = coeffs[t];
    if (c === 0) continue;
    for (let i = 0; i < size; i++) out[i] += c * ms[t][i];
  }
  return out;
}

/** The degree-`deg` approximation of exp(A) (ATen's compute_T<deg>). */
function taylor(A: Float64Array, deg: number, alg: MexpAlgebra): Float64Array {
  const n = alg.size;
  const mm = (x: Float64Array, y: Float64Array) => alg.mm(x, y);
  const I = alg.eye();
  if (deg === 1) return combination([I, A], [1, 1], n);
  const A2 = mm(A, A);
  if (deg === 2) return combination([I, A, A2], [1, 1, 0.5], n);
  if (deg === 4) return combination([I, A, mm(A2, combination([I, A, A2], [1 / 2, 1 / 6, 1 / 24], n))], [1, 1, 1], n);
  if (deg === 8) {
    const A4 = mm(A2, combination([A, A2], [T8.x1, T8.x2], n));
    const A8 = mm(combination([A2, A4], [X3, 1], n), combination([I, A, A2, A4], [T8.x4, T8.x5, T8.x6, T8.x7], n));
    return combination([I, A, A2, A8], [1, 1, T8.y2, 1], n);
  }
  const A3 = mm(A, A2);
  if (deg === 12) {
    const As = [I, A, A2, A3];
    const Bs = B12.map((row) => combination(As, row, n));
    const b2 = combination([Bs[2], mm(Bs[3], Bs[3])], [1, 1], n);
    return combination([Bs[0], mm(combination([Bs[1], b2], [1, 1], n), b2)], [1, 1], n);
  }
  const As = [I, A, A2, A3, mm(A3, A3)];
  const Bs = B18.map((row) => combination(As, row, n));
  const a9 = combination([Bs[3], mm(Bs[0], Bs[4])], [1, 1], n);
  return combination([Bs[1], mm(combination([Bs[2], a9], [1, 1], n), a9)], [1, 1], n);
}

/**
 * ATen's mexp for one matrix of 1-norm `norm` (real: sum |a_ij|; complex: sum of the
 * moduli, as ATen's operator_1_norm on complex) in `alg`, with the thresholds of `dtype`
 * (complex64 uses float32's, complex128 float64's, as ATen's by value type).
 */
export function mexp(A: Float64Array, norm: number, dtype: 'float32' | 'float64', alg: MexpAlgebra): Float64Array {
  const thetas = THETAS[dtype];
  const degrees = [1, 2, 4, 8, 12];
  for (let i = 0; i < degrees.length; i++) {
    const lower = i === 0 ? -1 : thetas[i - 1];
    if (lower < norm && norm <= thetas[i]) return taylor(A, degrees[i], alg);
  }
  if (!(norm >= thetas[4])) return new Float64Array(alg.size).fill(NaN);
  const s = Math.max(0, Math.ceil(Math.log2(norm / thetas[5])));
  const scale = 2 ** s;
  let e = taylor(A.map((v) => v / scale), 18, alg);
  for (let p = 0; p < s; p++) e = alg.mm(e, e);
  return e;
}

/** exp(A) for one n x n matrix, as ATen's mexp chooses for its 1-norm. */
export function matrixExpOf(A: Float64Array, n: number, dtype: 'float32' | 'float64'): Float64Array {
  if (n === 1) return Float64Array.of(Math.exp(A[0]));
  let norm = 0;
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += Math.abs(A[i * n + j]);
    // (NaN propagates: ATen's comparisons put a NaN norm in no interval, nor the scaled one)
    norm = s > norm || Number.isNaN(s) ? s : norm;
  }
  return mexp(A, norm, dtype, realAlgebra(n));
}

export const matrixExp: BackendImpls['matrixExp'] = (out, a) => {
  const [batch, n] = dims(a);
  const as = floatArray(a);
  const os = floatArray(out);
  const dtype = a.dtype === 'float32' ? 'float32' : 'float64';
  for (let b = 0; b < batch; b++) {
    os.set(matrixExpOf(load(as, a.storageOffset + b * n * n, n * n), n, dtype), out.storageOffset + b * n * n);
  }
};
