import type { BackendImpls } from '@torch-ts/core';
import { floatArray } from '../loops/arrays';

/**
 * Note [CPU SVD: one-sided Jacobi]
 * core's SvdImpls, one matrix at a time, in doubles (a float32 input is rounded once, at the
 * end), by Hestenes' one-sided Jacobi: the columns of W (A, or A^T for a wide A, so that W
 * is tall, p x q, q = min(m, n)) are rotated in pairs until every pair is orthogonal to
 * working precision relative to their norms (Demmel & Veselic's criterion), the rotations
 * accumulated in V. Then W = U' diag(S) with S the column norms, and W = U' S V^T: A = U' S
 * V^T for a tall A, A = V S U'^T for a wide one. The relative criterion gives small singular
 * values to high relative accuracy, better than bidiagonalization (LAPACK's gesdd, which
 * PyTorch calls), so the values agree with PyTorch's to its accuracy. The values are sorted
 * descending (a stable sort: ties keep the column order); the pairs' signs are whatever the
 * rotations leave (core's Note [The SVD primitive]). Columns of U' past q (full_matrices)
 * and those of an exactly zero singular value are completed to an orthonormal basis by
 * Gram-Schmidt on the standard basis, taking at each step the basis vector least in the span
 * so far (twice orthogonalized), as LAPACK's output is orthonormal whatever the rank.
 */

/** Sweeps after which Jacobi stops even if a rounding cycle keeps some rotation above the threshold (it converges quadratically: ~10 sweeps in practice). */
const MAX_SWEEPS = 60;
/** The relative orthogonality at which a pair is left alone. */
const TOL = 1e-15;

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** One-sided Jacobi on the columns `w` (q columns of length p, p >= q), rotations into `v` (q x q columns) when given. */
function jacobi(w: Float64Array[], v: Float64Array[] | null): void {
  const q = w.length;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let rotated = false;
    for (let i = 0; i < q - 1; i++) {
      for (let j = i + 1; j < q; j++) {
        const ci = w[i];
        const cj = w[j];
        const alpha = dot(ci, ci);
        const beta = dot(cj, cj);
        const gamma = dot(ci, cj);
        if (alpha === 0 || beta === 0 || !(Math.abs(gamma) > TOL * Math.sqrt(alpha) * Math.sqrt(beta))) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.hypot(1, zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        rotate(ci, cj, c, s);
        if (v) rotate(v[i], v[j], c, s);
      }
    }
    if (!rotated) return;
  }
}

function rotate(x: Float64Array, y: Float64Array, c: number, s: number): void {
  for (let r = 0; r < x.length; r++) {
    const a = x[r];
    const b = y[r];
    x[r] = c * a - s * b;
    y[r] = s * a + c * b;
  }
}

/** Fills the null entries of `cols` (vectors of length p) with unit vectors orthogonal to every other entry. */
function complete(cols: (Float64Array | null)[], p: number): Float64Array[] {
  const basis = cols.filter((c): c is Float64Array => c !== null);
  const project = (x: Float64Array) => {
    for (let pass = 0; pass < 2; pass++) {
      for (const b of basis) {
        const d = dot(b, x);
        for (let r = 0; r < p; r++) x[r] -= d * b[r];
      }
    }
  };
  return cols.map((c) => {
    if (c !== null) return c;
    let best: Float64Array | null = null;
    let bestNorm = -1;
    for (let e = 0; e < p; e++) {
      const x = new Float64Array(p);
      x[e] = 1;
      project(x);
      const nrm = Math.sqrt(dot(x, x));
      if (nrm > bestNorm) {
        best = x;
        bestNorm = nrm;
      }
    }
    const x = best!;
    for (let r = 0; r < p; r++) x[r] /= bestNorm;
    basis.push(x);
    return x;
  });
}

export const svd: BackendImpls['svd'] = (a, s, u, vh) => {
  const batch = a.sizes[0];
  const m = a.sizes[1];
  const n = a.sizes[2];
  const tall = m >= n;
  const p = tall ? m : n;
  const q = tall ? n : m;
  const src = floatArray(a);
  const sOut = floatArray(s);
  const uOut = u ? floatArray(u) : null;
  const vhOut = vh ? floatArray(vh) : null;
  // U' (the normalized columns of W) has this many columns: the full basis of R^p where the tall side is full
  const full = u !== null && vh !== null && (tall ? u.sizes[2] === m : vh.sizes[1] === n) && p > q;
  for (let b = 0; b < batch; b++) {
    const off = a.storageOffset + b * m * n;
    const w: Float64Array[] = [];
    for (let j = 0; j < q; j++) {
      const col = new Float64Array(p);
      for (let r = 0; r < p; r++) col[r] = tall ? src[off + r * n + j] : src[off + j * n + r];
      w.push(col);
    }
    const v: Float64Array[] | null = u
      ? Array.from({ length: q }, (_, j) => {
          const e = new Float64Array(q);
          e[j] = 1;
          return e;
        })
      : null;
    jacobi(w, v);
    const norms = w.map((c) => Math.sqrt(dot(c, c)));
    const order = [...norms.keys()].sort((x, y) => norms[y] - norms[x] || x - y);
    for (let i = 0; i < q; i++) sOut[s.storageOffset + b * q + i] = norms[order[i]];
    if (!uOut || !vhOut || !u || !vh || !v) continue;
    const uCols: (Float64Array | null)[] = order.map((j) => {
      const nrm = norms[j];
      if (!(nrm > 0)) return null;
      const c = w[j];
      for (let r = 0; r < p; r++) c[r] /= nrm;
      return c;
    });
    while (full && uCols.length < p) uCols.push(null);
    const U1 = complete(uCols, p);
    const V1 = order.map((j) => v[j]);
    if (tall) {
      // A = U' S V^T: U = U' ([m, m or k]), Vh = V^T
      const uc = u.sizes[2];
      const uo = u.storageOffset + b * m * uc;
      for (let r = 0; r < m; r++) for (let c = 0; c < uc; c++) uOut[uo + r * uc + c] = U1[c][r];
      const vo = vh.storageOffset + b * q * q;
      for (let r = 0; r < q; r++) for (let c = 0; c < q; c++) vhOut[vo + r * q + c] = V1[r][c];
    } else {
      // A = V S U'^T: U = V ([m, m]), Vh = U'^T ([k or n, n])
      const uo = u.storageOffset + b * q * q;
      for (let r = 0; r < q; r++) for (let c = 0; c < q; c++) uOut[uo + r * q + c] = V1[c][r];
      const vr = vh.sizes[1];
      const vo = vh.storageOffset + b * vr * n;
      for (let r = 0; r < vr; r++) for (let c = 0; c < n; c++) vhOut[vo + r * n + c] = U1[r][c];
    }
  }
};
