import type { BackendImpls } from '@torch-ts/core';
import { floatArray } from '../loops/arrays';

/**
 * Note [CPU complex SVD: one-sided Jacobi with complex rotations]
 * core's svdComplex (Note [Complex SVD]) by the method of the real kernel (Note [CPU SVD:
 * one-sided Jacobi]) on complex columns, in doubles, stored interleaved (re, im) as the other
 * complex kernels' (element (i, j) of an m x n matrix at 2 (i n + j)). W is A's columns (A^H's
 * for a wide A, so that W is tall, p x q), V starts as I_q, and W = A V holds throughout. For
 * a pair (w_i, w_j) with gamma = w_i^H w_j = g e^{i phi} (g = |gamma|), the column w_j (and
 * v_j) is first multiplied by e^{-i phi}, which keeps W = A V and makes w_i^H w_j real (= g);
 * then the real rotation of the real kernel, with zeta = (beta - alpha) / (2 g), makes the
 * pair orthogonal. A pair is left alone when g <= TOL sqrt(alpha beta) (Demmel & Veselic's
 * relative criterion, so small singular values keep high relative accuracy). At the end
 * W = U' diag(S) (S the column norms, sorted descending, stably), so A = U' S V^H for a tall
 * A (U = U', Vh = V^H) and A = V S U'^H for a wide one (U = V, Vh = U'^H). Columns of U' past
 * q (full_matrices) and those of an exactly zero singular value are completed to an
 * orthonormal basis of C^p by Gram-Schmidt (complex inner products) on the standard basis,
 * as the real kernel's. The phase of each pair is then fixed (Note [Complex SVD phase
 * convention]), so that the WebGPU kernel, whose rotations run in another order, agrees.
 *
 * Note [Complex SVD phase convention]
 * A pair (u_i, v_i) is unique only up to a common unit phase, and the Jacobi rotations' order
 * decides which one a kernel leaves, so the CPU's cyclic sweeps and WebGPU's round-robin
 * tournament (kernels-webgpu's Note [WebGPU complex SVD: complex rotations, a workgroup per
 * matrix]) would hand back different phases. Both normalize it after the sort: the first
 * entry of v_i (Jacobi's V: the right singular vector of a tall or square A, the left one,
 * U's column, of a wide A) whose magnitude is at least (1 - 1/64) times the largest of v_i
 * is made real and positive (w_i, hence the other vector of the pair, turned by the same
 * phase, which keeps W = A V). The slack
 * keeps float32 rounding from choosing another entry than float64 where two magnitudes
 * (nearly) tie; only a tie at the slack's edge itself can still pick differently.
 */

const MAX_SWEEPS = 60;
const TOL = 1e-15;

/** ||x||^2 of an interleaved complex vector. */
function norm2(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i] * x[i];
  return s;
}

/** x^H y of interleaved complex vectors: [re, im]. */
function cdot(x: Float64Array, y: Float64Array): [number, number] {
  let re = 0;
  let im = 0;
  for (let i = 0; i < x.length; i += 2) {
    re += x[i] * y[i] + x[i + 1] * y[i + 1];
    im += x[i] * y[i + 1] - x[i + 1] * y[i];
  }
  return [re, im];
}

/** y := e^{-i phi} y for the unit phase (cr, ci) = e^{i phi}, then the real rotation (x, y) := (c x - s y, s x + c y). */
function rotate(x: Float64Array, y: Float64Array, cr: number, ci: number, c: number, s: number): void {
  for (let r = 0; r < x.length; r += 2) {
    const yr = y[r] * cr + y[r + 1] * ci;
    const yi = y[r + 1] * cr - y[r] * ci;
    const xr = x[r];
    const xi = x[r + 1];
    x[r] = c * xr - s * yr;
    x[r + 1] = c * xi - s * yi;
    y[r] = s * xr + c * yr;
    y[r + 1] = s * xi + c * yi;
  }
}

function jacobi(w: Float64Array[], v: Float64Array[] | null): void {
  const q = w.length;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let rotated = false;
    for (let i = 0; i < q - 1; i++) {
      for (let j = i + 1; j < q; j++) {
        const ci = w[i];
        const cj = w[j];
        const alpha = norm2(ci);
        const beta = norm2(cj);
        const [gr, gi] = cdot(ci, cj);
        const g = Math.hypot(gr, gi);
        if (alpha === 0 || beta === 0 || !(g > TOL * Math.sqrt(alpha) * Math.sqrt(beta))) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * g);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.hypot(1, zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        rotate(ci, cj, gr / g, gi / g, c, s);
        if (v) rotate(v[i], v[j], gr / g, gi / g, c, s);
      }
    }
    if (!rotated) return;
  }
}

/** Turns v (and w with it) by the unit phase that makes v's first entry within 1/64 of its largest magnitude real and positive (Note [Complex SVD phase convention]). */
function fixPhase(v: Float64Array, w: Float64Array): void {
  let big = 0;
  for (let k = 0; k < v.length; k += 2) big = Math.max(big, Math.hypot(v[k], v[k + 1]));
  let zr = 1;
  let zi = 0;
  for (let k = 0; k < v.length; k += 2) {
    const l = Math.hypot(v[k], v[k + 1]);
    if (l > 0 && l >= big * (1 - 1 / 64)) {
      zr = v[k] / l;
      zi = -v[k + 1] / l;
      break;
    }
  }
  for (const x of [v, w]) {
    for (let k = 0; k < x.length; k += 2) {
      const re = x[k] * zr - x[k + 1] * zi;
      x[k + 1] = x[k] * zi + x[k + 1] * zr;
      x[k] = re;
    }
  }
}

/** Fills the null entries of `cols` (complex vectors of length p) with unit vectors orthogonal to every other entry. */
function complete(cols: (Float64Array | null)[], p: number): Float64Array[] {
  const basis = cols.filter((c): c is Float64Array => c !== null);
  const project = (x: Float64Array) => {
    for (let pass = 0; pass < 2; pass++) {
      for (const b of basis) {
        const [dr, di] = cdot(b, x);
        for (let r = 0; r < 2 * p; r += 2) {
          x[r] -= dr * b[r] - di * b[r + 1];
          x[r + 1] -= dr * b[r + 1] + di * b[r];
        }
      }
    }
  };
  return cols.map((c) => {
    if (c !== null) return c;
    let best: Float64Array | null = null;
    let bestNorm = -1;
    for (let e = 0; e < p; e++) {
      const x = new Float64Array(2 * p);
      x[2 * e] = 1;
      project(x);
      const nrm = Math.sqrt(norm2(x));
      if (nrm > bestNorm) {
        best = x;
        bestNorm = nrm;
      }
    }
    const x = best!;
    for (let r = 0; r < 2 * p; r++) x[r] /= bestNorm;
    basis.push(x);
    return x;
  });
}

export const svdComplex: BackendImpls['svdComplex'] = (a, s, u, vh) => {
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
  const full = u !== null && vh !== null && (tall ? u.sizes[2] === m : vh.sizes[1] === n) && p > q;
  for (let b = 0; b < batch; b++) {
    const off = a.storageOffset + 2 * b * m * n;
    // W's columns: A's (tall), or A^H's, the conjugated rows of A (wide)
    const w: Float64Array[] = [];
    for (let j = 0; j < q; j++) {
      const col = new Float64Array(2 * p);
      for (let r = 0; r < p; r++) {
        const at = off + 2 * (tall ? r * n + j : j * n + r);
        col[2 * r] = src[at];
        col[2 * r + 1] = tall ? src[at + 1] : -src[at + 1];
      }
      w.push(col);
    }
    const v: Float64Array[] | null = u
      ? Array.from({ length: q }, (_, j) => {
          const e = new Float64Array(2 * q);
          e[2 * j] = 1;
          return e;
        })
      : null;
    jacobi(w, v);
    const norms = w.map((c) => Math.sqrt(norm2(c)));
    const order = [...norms.keys()].sort((x, y) => norms[y] - norms[x] || x - y);
    for (let i = 0; i < q; i++) sOut[s.storageOffset + b * q + i] = norms[order[i]];
    if (!uOut || !vhOut || !u || !vh || !v) continue;
    for (let j = 0; j < q; j++) fixPhase(v[j], w[j]);
    const uCols: (Float64Array | null)[] = order.map((j) => {
      const nrm = norms[j];
      if (!(nrm > 0)) return null;
      const c = w[j];
      for (let r = 0; r < 2 * p; r++) c[r] /= nrm;
      return c;
    });
    while (full && uCols.length < p) uCols.push(null);
    const U1 = complete(uCols, p);
    const V1 = order.map((j) => v[j]);
    if (tall) {
      // A = U' S V^H: U = U' ([m, m or k]), Vh = V^H
      const uc = u.sizes[2];
      const uo = u.storageOffset + 2 * b * m * uc;
      for (let r = 0; r < m; r++) {
        for (let c = 0; c < uc; c++) {
          uOut[uo + 2 * (r * uc + c)] = U1[c][2 * r];
          uOut[uo + 2 * (r * uc + c) + 1] = U1[c][2 * r + 1];
        }
      }
      const vo = vh.storageOffset + 2 * b * q * q;
      for (let r = 0; r < q; r++) {
        for (let c = 0; c < q; c++) {
          vhOut[vo + 2 * (r * q + c)] = V1[r][2 * c];
          vhOut[vo + 2 * (r * q + c) + 1] = -V1[r][2 * c + 1];
        }
      }
    } else {
      // A = V S U'^H: U = V ([m, m]), Vh = U'^H ([k or n, n])
      const uo = u.storageOffset + 2 * b * q * q;
      for (let r = 0; r < q; r++) {
        for (let c = 0; c < q; c++) {
          uOut[uo + 2 * (r * q + c)] = V1[c][2 * r];
          uOut[uo + 2 * (r * q + c) + 1] = V1[c][2 * r + 1];
        }
      }
      const vr = vh.sizes[1];
      const vo = vh.storageOffset + 2 * b * vr * n;
      for (let r = 0; r < vr; r++) {
        for (let c = 0; c < n; c++) {
          vhOut[vo + 2 * (r * n + c)] = U1[r][2 * c];
          vhOut[vo + 2 * (r * n + c) + 1] = -U1[r][2 * c + 1];
        }
      }
    }
  }
};
