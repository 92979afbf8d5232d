import type { BackendImpls, TensorImpl } from '@torch-ts/core';
import { floatArray } from '../loops/arrays';

/**
 * Note [CPU complex QR]
 * geqrfComplex / householderProductComplex (core's ComplexLinalgImpls) are LAPACK's
 * reference zgeqr2 / zung2r on the (real, imaginary) parts of complex matrices, laid out as
 * the other complex kernels' (Note [CPU complex LU, Cholesky, triangular solves and eigh]):
 * element (i, j) of an m x n matrix at 2 (i n + j). The reflector is zlarfg's: for alpha =
 * a_rr and x the column below it, beta = -sign(Re alpha) * |(alpha, x)| (real), tau =
 * ((beta - Re alpha) / beta, -Im alpha / beta), v = x / (alpha - beta), so H = I - tau v
 * v^H has H^H (alpha; x) = (beta; 0) and R's diagonal is real, as LAPACK's (PyTorch's CPU).
 * tau = 0 (H = I) only where x = 0 and alpha is real. geqr2 applies H(i)^H (tau conjugated,
 * zlarf with conjg(tau)) to the trailing columns; ung2r forms H(0) ... H(k-1) with tau
 * itself. Each matrix is computed in doubles and stored back once.
 */

/** (batch, m, n) of a complex (..., m, n, 2) parts tensor. */
export function dims(t: TensorImpl): [number, number, number] {
  const s = t.sizes;
  const m = s[s.length - 3];
  const n = s[s.length - 2];
  return [m * n === 0 ? 0 : t.numel / (2 * m * n), m, n];
}

/** `count` parts from `offset`, as doubles to compute in. */
export function load(src: ArrayLike<number>, offset: number, count: number): Float64Array {
  const w = new Float64Array(count);
  for (let i = 0; i < count; i++) w[i] = src[offset + i];
  return w;
}

/** The 2-norm of the complex column `c` of `a` (n columns) over rows r+1..m-1, scaled as dznrm2. */
function belowNorm(a: Float64Array, n: number, m: number, r: number, c: number): number {
  let scale = 0;
  let ssq = 1;
  for (let i = r + 1; i < m; i++) {
    for (let p = 0; p < 2; p++) {
      const v = a[2 * (i * n + c) + p];
      if (v === 0) continue;
      const av = Math.abs(v);
      if (scale < av) {
        ssq = 1 + ssq * (scale / av) * (scale / av);
        scale = av;
      } else ssq += (av / scale) * (av / scale);
    }
  }
  return scale * Math.sqrt(ssq);
}

/** zlarfg on column `c` from row `r`: a[r, c] becomes beta, the rows below v[1:]; tau into t[2 ti], t[2 ti + 1]. */
export function zlarfg(a: Float64Array, n: number, m: number, r: number, c: number, t: Float64Array, ti: number): void {
  const xnorm = belowNorm(a, n, m, r, c);
  const ar = a[2 * (r * n + c)];
  const ai = a[2 * (r * n + c) + 1];
  if (xnorm === 0 && ai === 0) {
    t[2 * ti] = 0;
    t[2 * ti + 1] = 0;
    return;
  }
  const beta = -(ar >= 0 ? 1 : -1) * Math.hypot(ar, ai, xnorm);
  t[2 * ti] = (beta - ar) / beta;
  t[2 * ti + 1] = -ai / beta;
  // 1 / (alpha - beta) (zladiv's quotient), then x scaled by it
  const dr = ar - beta;
  const den = dr * dr + ai * ai;
  const sr = dr / den;
  const si = -ai / den;
  for (let i = r + 1; i < m; i++) {
    const xr = a[2 * (i * n + c)];
    const xi = a[2 * (i * n + c) + 1];
    a[2 * (i * n + c)] = xr * sr - xi * si;
    a[2 * (i * n + c) + 1] = xr * si + xi * sr;
  }
  a[2 * (r * n + c)] = beta;
  a[2 * (r * n + c) + 1] = 0;
}

/**
 * zlarf from the left: C := (I - tau v v^H) C for C the rows r..m-1 of columns c0..n-1 of
 * `a` and v the column `vc` of `a` from row r (v[r] taken as 1).
 */
export function zlarfLeft(a: Float64Array, n: number, m: number, r: number, vc: number, tr: number, ti: number, c0: number): void {
  if (tr === 0 && ti === 0) return;
  for (let c = c0; c < n; c++) {
    // s = v^H C_c
    let sr = a[2 * (r * n + c)];
    let si = a[2 * (r * n + c) + 1];
    for (let i = r + 1; i < m; i++) {
      const vr = a[2 * (i * n + vc)];
      const vi = a[2 * (i * n + vc) + 1];
      const xr = a[2 * (i * n + c)];
      const xi = a[2 * (i * n + c) + 1];
      sr += vr * xr + vi * xi;
      si += vr * xi - vi * xr;
    }
    if (sr === 0 && si === 0) continue;
    // w = tau s; C_c -= v w
    const wr = tr * sr - ti * si;
    const wi = tr * si + ti * sr;
    a[2 * (r * n + c)] -= wr;
    a[2 * (r * n + c) + 1] -= wi;
    for (let i = r + 1; i < m; i++) {
      const vr = a[2 * (i * n + vc)];
      const vi = a[2 * (i * n + vc) + 1];
      a[2 * (i * n + c)] -= vr * wr - vi * wi;
      a[2 * (i * n + c) + 1] -= vr * wi + vi * wr;
    }
  }
}

function zgeqr2(a: Float64Array, m: number, n: number, t: Float64Array): void {
  const k = Math.min(m, n);
  for (let i = 0; i < k; i++) {
    zlarfg(a, n, m, i, i, t, i);
    // H(i)^H: tau conjugated
    if (i < n - 1) zlarfLeft(a, n, m, i, i, t[2 * i], -t[2 * i + 1], i + 1);
  }
}

function zung2r(a: Float64Array, m: number, n: number, k: number, t: ArrayLike<number>): void {
  for (let j = k; j < n; j++) {
    for (let i = 0; i < m; i++) a[2 * (i * n + j)] = a[2 * (i * n + j) + 1] = 0;
    if (j < m) a[2 * (j * n + j)] = 1;
  }
  for (let i = k - 1; i >= 0; i--) {
    const tr = t[2 * i];
    const ti = t[2 * i + 1];
    if (i < n - 1) {
      a[2 * (i * n + i)] = 1;
      a[2 * (i * n + i) + 1] = 0;
      zlarfLeft(a, n, m, i, i, tr, ti, i + 1);
    }
    for (let r = i + 1; r < m; r++) {
      const xr = a[2 * (r * n + i)];
      const xi = a[2 * (r * n + i) + 1];
      a[2 * (r * n + i)] = -(tr * xr - ti * xi);
      a[2 * (r * n + i) + 1] = -(tr * xi + ti * xr);
    }
    a[2 * (i * n + i)] = 1 - tr;
    a[2 * (i * n + i) + 1] = -ti;
    for (let r = 0; r < i; r++) a[2 * (r * n + i)] = a[2 * (r * n + i) + 1] = 0;
  }
}

export const geqrfComplex: BackendImpls['geqrfComplex'] = (a, tau) => {
  const [batch, m, n] = dims(a);
  const k = Math.min(m, n);
  const as = floatArray(a);
  const ts = floatArray(tau);
  const t = new Float64Array(2 * k);
  for (let b = 0; b < batch; b++) {
    const off = a.storageOffset + 2 * b * m * n;
    const w = load(as, off, 2 * m * n);
    zgeqr2(w, m, n, t);
    as.set(w, off);
    ts.set(t, tau.storageOffset + 2 * b * k);
  }
};

export const householderProductComplex: BackendImpls['householderProductComplex'] = (q, tau) => {
  const [batch, m, n] = dims(q);
  const k = tau.sizes[tau.sizes.length - 2];
  const qs = floatArray(q);
  const ts = floatArray(tau);
  for (let b = 0; b < batch; b++) {
    const off = q.storageOffset + 2 * b * m * n;
    const w = load(qs, off, 2 * m * n);
    zung2r(w, m, n, k, load(ts, tau.storageOffset + 2 * b * k, 2 * k));
    qs.set(w, off);
  }
};
