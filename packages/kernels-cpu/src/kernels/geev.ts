/**
 * Note [CPU eig: LAPACK's dgeev]
 * The eigendecomposition of one real n x n matrix as LAPACK's dgeev computes it (PyTorch's
 * CPU linalg.eig calls geev), step by step, so that the eigenvalues come out in geev's
 * order and the eigenvectors with geev's normalisation:
 *  1. dgebal('B'): permutations that isolate eigenvalues (rows, then columns, pushed to the
 *     bottom / left), then diagonal scaling by powers of 2 of rows ilo..ihi;
 *  2. dgehd2: Householder reduction of rows / columns ilo..ihi to upper Hessenberg form, the
 *     reflectors accumulated into Q (dorghr);
 *  3. dhseqr -> dlahqr (n < 75, as in LAPACK): Francis double-shift QR with Ahues and
 *     Tisseur's deflation test and the exceptional shifts every 6 iterations without a
 *     deflation, each converged 2 x 2 block standardised by dlanv2 (complex pair: equal
 *     diagonal, off-diagonals of opposite sign, wr +- i wi with wi > 0 first), Q updated;
 *  4. dtrevc (right vectors, back-transformed): for each eigenvalue from the last, back
 *     substitution through the quasi-triangular T (x[k] = 1 for a real eigenvalue; the
 *     standard start of the pair's vector for a complex one), near-singular diagonals
 *     perturbed to smin = max(ulp (|wr| + |wi|), smlnum); then Q x, scaled to max-norm 1;
 *  5. dgebak: the scaling and the permutations undone on the rows of the vectors;
 *  6. geev's normalisation: unit 2-norm, and for a complex pair the vector rotated (dlartg,
 *     r with the sign of f) so that its component of largest modulus is real.
 * The 1 x 1 and 2 x 2 solves of step 4 are done in complex arithmetic directly rather than
 * by dlaln2 with its overflow scaling, which changes nothing but rounding below overflow.
 * Everything runs in doubles (float32 inputs too, rounded once on store), so float32
 * results are sgeev's up to float32 rounding, not bit for bit.
 */

const EPS = Number.EPSILON / 2; // dlamch('P')
const SAFMIN = 2.2250738585072014e-308; // dlamch('S')

export interface GeevResult {
  wr: Float64Array;
  wi: Float64Array;
  /** n x n row-major: column j is the eigenvector of a real eigenvalue, or columns j, j+1 the real and imaginary parts of a complex pair's first vector. */
  vr: Float64Array | null;
  /** 0, or the 1-based index (dlahqr's) of the eigenvalue where the QR iteration failed. */
  info: number;
}

/** dnrm2 of `count` elements from `off` with stride `inc` (scaled: no overflow). */
function nrm2(x: Float64Array, off: number, count: number, inc: number): number {
  let scale = 0;
  let ssq = 1;
  for (let i = 0; i < count; i++) {
    const v = x[off + i * inc];
    if (v !== 0) {
      const av = Math.abs(v);
      if (scale < av) {
        ssq = 1 + ssq * (scale / av) * (scale / av);
        scale = av;
      } else ssq += (av / scale) * (av / scale);
    }
  }
  return scale * Math.sqrt(ssq);
}

/** dlarfg on v[0..nr): v[0] becomes beta, v[1..] the reflector's tail; returns tau. */
function larfg(v: Float64Array, nr: number): number {
  if (nr <= 1) return 0;
  const xnorm = nrm2(v, 1, nr - 1, 1);
  if (xnorm === 0) return 0;
  const alpha = v[0];
  const beta = -(alpha >= 0 ? 1 : -1) * Math.hypot(alpha, xnorm);
  const tau = (beta - alpha) / beta;
  const s = 1 / (alpha - beta);
  for (let i = 1; i < nr; i++) v[i] *= s;
  v[0] = beta;
  return tau;
}

function swapRows(a: Float64Array, n: number, i: number, j: number, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    const t = a[i * n + c];
    a[i * n + c] = a[j * n + c];
    a[j * n + c] = t;
  }
}

function swapCols(a: Float64Array, n: number, i: number, j: number, r0: number, r1: number): void {
  for (let r = r0; r < r1; r++) {
    const t = a[r * n + i];
    a[r * n + i] = a[r * n + j];
    a[r * n + j] = t;
  }
}

/** dgebal('B') on the row-major `a`: returns [ilo, ihi] (0-based, inclusive) and fills `scale` as LAPACK (permutation indices 0-based outside ilo..ihi, factors inside). */
function gebal(a: Float64Array, n: number, scale: Float64Array): [number, number] {
  let k = 0;
  let l = n - 1;
  // rows isolating an eigenvalue: pushed down
  rows: for (;;) {
    for (let j = l; j >= 0; j--) {
      let isolated = true;
      for (let i = 0; i <= l; i++) {
        if (i !== j && a[j * n + i] !== 0) {
          isolated = false;
          break;
        }
      }
      if (!isolated) continue;
      scale[l] = j;
      if (j !== l) {
        swapCols(a, n, j, l, 0, l + 1);
        swapRows(a, n, j, l, k, n);
      }
      if (l === 0) return [0, 0];
      l--;
      continue rows;
    }
    break;
  }
  // columns isolating an eigenvalue: pushed left
  cols: for (;;) {
    for (let j = k; j <= l; j++) {
      let isolated = true;
      for (let i = k; i <= l; i++) {
        if (i !== j && a[i * n + j] !== 0) {
          isolated = false;
          break;
        }
      }
      if (!isolated) continue;
      scale[k] = j;
      if (j !== k) {
        swapCols(a, n, j, k, 0, l + 1);
        swapRows(a, n, j, k, k, n);
      }
      k++;
      continue cols;
    }
    break;
  }
  for (let i = k; i <= l; i++) scale[i] = 1;
  // scaling of rows / columns k..l by powers of 2 until their norms are balanced
  const SCLFAC = 2;
  const FACTOR = 0.95;
  const sfmin1 = SAFMIN / EPS;
  const sfmax1 = 1 / sfmin1;
  const sfmin2 = sfmin1 * SCLFAC;
  const sfmax2 = 1 / sfmin2;
  let noconv = true;
  while (noconv) {
    noconv = false;
    for (let i = k; i <= l; i++) {
      let c = nrm2(a, k * n + i, l - k + 1, n);
      let r = nrm2(a, i * n + k, l - k + 1, 1);
      let ca = 0;
      for (let x = 0; x <= l; x++) ca = Math.max(ca, Math.abs(a[x * n + i]));
      let ra = 0;
      for (let x = k; x < n; x++) ra = Math.max(ra, Math.abs(a[i * n + x]));
      if (c === 0 || r === 0) continue;
      let g = r / SCLFAC;
      let f = 1;
      const s = c + r;
      while (!(c >= g || Math.max(f, c, ca) >= sfmax2 || Math.min(r, g, ra) <= sfmin2)) {
        f *= SCLFAC;
        c *= SCLFAC;
        ca *= SCLFAC;
        r /= SCLFAC;
        g /= SCLFAC;
        ra /= SCLFAC;
      }
      g = c / SCLFAC;
      while (!(g < r || Math.max(r, ra) >= sfmax2 || Math.min(f, c, g, ca) <= sfmin2)) {
        f /= SCLFAC;
        c /= SCLFAC;
        g /= SCLFAC;
        ca /= SCLFAC;
        r *= SCLFAC;
        ra *= SCLFAC;
      }
      if (c + r >= FACTOR * s) continue;
      if (f < 1 && scale[i] < 1 && f * scale[i] <= sfmin1) continue;
      if (f > 1 && scale[i] > 1 && scale[i] >= sfmax1 / f) continue;
      scale[i] *= f;
      noconv = true;
      const gi = 1 / f;
      for (let x = k; x < n; x++) a[i * n + x] *= gi;
      for (let x = 0; x <= l; x++) a[x * n + i] *= f;
    }
  }
  return [k, l];
}

/** dgehd2 + dorghr: `a` (rows / columns ilo..ihi) becomes Hessenberg, `q` (starting as I) the accumulated reflectors. */
function gehrd(a: Float64Array, n: number, ilo: number, ihi: number, q: Float64Array | null): void {
  const v = new Float64Array(n);
  for (let i = ilo; i < ihi; i++) {
    const nr = ihi - i;
    for (let r = 0; r < nr; r++) v[r] = a[(i + 1 + r) * n + i];
    const tau = larfg(v, nr);
    const beta = v[0];
    v[0] = 1;
    if (tau !== 0) {
      // from the right on rows 0..ihi, columns i+1..ihi
      for (let r = 0; r <= ihi; r++) {
        let w = 0;
        for (let x = 0; x < nr; x++) w += a[r * n + i + 1 + x] * v[x];
        w *= tau;
        for (let x = 0; x < nr; x++) a[r * n + i + 1 + x] -= w * v[x];
      }
      // from the left on rows i+1..ihi, columns i+1..n-1
      for (let c = i + 1; c < n; c++) {
        let w = 0;
        for (let x = 0; x < nr; x++) w += a[(i + 1 + x) * n + c] * v[x];
        w *= tau;
        for (let x = 0; x < nr; x++) a[(i + 1 + x) * n + c] -= w * v[x];
      }
      if (q) {
        for (let r = 0; r < n; r++) {
          let w = 0;
          for (let x = 0; x < nr; x++) w += q[r * n + i + 1 + x] * v[x];
          w *= tau;
          for (let x = 0; x < nr; x++) q[r * n + i + 1 + x] -= w * v[x];
        }
      }
    }
    a[(i + 1) * n + i] = beta;
    for (let r = 1; r < nr; r++) a[(i + 1 + r) * n + i] = 0;
  }
}

/** dlanv2: the standardised 2 x 2 block [a b; c d], its eigenvalues and the rotation (cs, sn). */
function lanv2(A: number, B: number, C: number, D: number): { a: number; b: number; c: number; d: number; rt1r: number; rt1i: number; rt2r: number; rt2i: number; cs: number; sn: number } {
  const MULTPL = 4;
  const safmn2 = 2 ** Math.trunc(Math.log(SAFMIN / EPS) / Math.log(2) / 2);
  const safmx2 = 1 / safmn2;
  const sign = (x: number, y: number): number => (y >= 0 || Object.is(y, 0) ? Math.abs(x) : -Math.abs(x));
  let [a, b, c, d] = [A, B, C, D];
  let cs: number;
  let sn: number;
  if (c === 0) {
    cs = 1;
    sn = 0;
  } else if (b === 0) {
    cs = 0;
    sn = 1;
    const t = d;
    d = a;
    a = t;
    b = -c;
    c = 0;
  } else if (a - d === 0 && sign(1, b) !== sign(1, c)) {
    cs = 1;
    sn = 0;
  } else {
    let temp = a - d;
    let p = 0.5 * temp;
    const bcmax = Math.max(Math.abs(b), Math.abs(c));
    const bcmis = Math.min(Math.abs(b), Math.abs(c)) * sign(1, b) * sign(1, c);
    let scale = Math.max(Math.abs(p), bcmax);
    let z = (p / scale) * p + (bcmax / scale) * bcmis;
    if (z >= MULTPL * EPS) {
      // real eigenvalues
      z = p + sign(Math.sqrt(scale) * Math.sqrt(z), p);
      a = d + z;
      d = d - (bcmax / z) * bcmis;
      const tau = Math.hypot(c, z);
      cs = z / tau;
      sn = c / tau;
      b = b - c;
      c = 0;
    } else {
      // complex or almost equal real eigenvalues: make the diagonal equal
      let sigma = b + c;
      for (let count = 1; count <= 20; count++) {
        scale = Math.max(Math.abs(temp), Math.abs(sigma));
        if (scale >= safmx2) {
          sigma *= safmn2;
          temp *= safmn2;
          continue;
        }
        if (scale <= safmn2) {
          sigma *= safmx2;
          temp *= safmx2;
          continue;
        }
        break;
      }
      p = 0.5 * temp;
      let tau = Math.hypot(sigma, temp);
      cs = Math.sqrt(0.5 * (1 + Math.abs(sigma) / tau));
      sn = -(p / (tau * cs)) * sign(1, sigma);
      const aa = a * cs + b * sn;
      const bb = -a * sn + b * cs;
      const cc = c * cs + d * sn;
      const dd = -c * sn + d * cs;
      a = aa * cs + cc * sn;
      b = bb * cs + dd * sn;
      c = -aa * sn + cc * cs;
      d = -bb * sn + dd * cs;
      temp = 0.5 * (a + d);
      a = temp;
      d = temp;
      if (c !== 0) {
        if (b !== 0) {
          if (sign(1, b) === sign(1, c)) {
            // real eigenvalues: reduce to upper triangular
            const sab = Math.sqrt(Math.abs(b));
            const sac = Math.sqrt(Math.abs(c));
            p = sign(sab * sac, c);
            tau = 1 / Math.sqrt(Math.abs(b + c));
            a = temp + p;
            d = temp - p;
            b = b - c;
            c = 0;
            const cs1 = sab * tau;
            const sn1 = sac * tau;
            const t = cs * cs1 - sn * sn1;
            sn = cs * sn1 + sn * cs1;
            cs = t;
          }
        } else {
          b = -c;
          c = 0;
          const t = cs;
          cs = -sn;
          sn = t;
        }
      }
    }
  }
  const rt1r = a;
  const rt2r = d;
  let rt1i = 0;
  let rt2i = 0;
  if (c !== 0) {
    rt1i = Math.sqrt(Math.abs(b)) * Math.sqrt(Math.abs(c));
    rt2i = -rt1i;
  }
  return { a, b, c, d, rt1r, rt1i, rt2r, rt2i, cs, sn };
}

/** drot on rows (or columns) of row-major `x`: p' = cs p + sn q, q' = cs q - sn p. */
function rot(x: Float64Array, p0: number, q0: number, inc: number, count: number, cs: number, sn: number): void {
  for (let i = 0; i < count; i++) {
    const p = x[p0 + i * inc];
    const q = x[q0 + i * inc];
    x[p0 + i * inc] = cs * p + sn * q;
    x[q0 + i * inc] = cs * q - sn * p;
  }
}

/**
 * dlahqr with wantt = true (the full Schur form T in `h`) and wantz = !!z (Z's rows iloz..ihiz =
 * ilo..ihi updated). Returns info: 0, or the 1-based index of the unconverged eigenvalue.
 */
function lahqr(h: Float64Array, n: number, ilo: number, ihi: number, wr: Float64Array, wi: Float64Array, z: Float64Array | null): number {
  const H = (r: number, c: number): number => h[r * n + c];
  if (ilo === ihi) {
    wr[ilo] = H(ilo, ilo);
    wi[ilo] = 0;
    return 0;
  }
  for (let j = ilo; j <= ihi - 3; j++) {
    h[(j + 2) * n + j] = 0;
    h[(j + 3) * n + j] = 0;
  }
  if (ilo <= ihi - 2) h[ihi * n + ihi - 2] = 0;
  const nh = ihi - ilo + 1;
  const ulp = EPS;
  const smlnum = SAFMIN * (nh / ulp);
  const i1 = 0;
  const i2 = n - 1;
  const itmax = 30 * Math.max(10, nh);
  let kdefl = 0;
  const v = new Float64Array(3);
  let i = ihi;
  while (i >= ilo) {
    let l = ilo;
    let converged = false;
    for (let its = 0; its <= itmax; its++) {
      // a single small subdiagonal element
      let k: number;
      for (k = i; k > l; k--) {
        if (Math.abs(H(k, k - 1)) <= smlnum) break;
        let tst = Math.abs(H(k - 1, k - 1)) + Math.abs(H(k, k));
        if (tst === 0) {
          if (k - 2 >= ilo) tst += Math.abs(H(k - 1, k - 2));
          if (k + 1 <= ihi) tst += Math.abs(H(k + 1, k));
        }
        if (Math.abs(H(k, k - 1)) <= ulp * tst) {
          const ab = Math.max(Math.abs(H(k, k - 1)), Math.abs(H(k - 1, k)));
          const ba = Math.min(Math.abs(H(k, k - 1)), Math.abs(H(k - 1, k)));
          const aa = Math.max(Math.abs(H(k, k)), Math.abs(H(k - 1, k - 1) - H(k, k)));
          const bb = Math.min(Math.abs(H(k, k)), Math.abs(H(k - 1, k - 1) - H(k, k)));
          const s = aa + ab;
          if (ba * (ab / s) <= Math.max(smlnum, ulp * (bb * (aa / s)))) break;
        }
      }
      l = k;
      if (l > ilo) h[l * n + l - 1] = 0;
      if (l >= i - 1) {
        converged = true;
        break;
      }
      kdefl++;
      let h11: number;
      let h12: number;
      let h21: number;
      let h22: number;
      if (kdefl % 12 === 0) {
        const s = Math.abs(H(i, i - 1)) + Math.abs(H(i - 1, i - 2));
        h11 = 0.75 * s + H(i, i);
        h12 = -0.4375 * s;
        h21 = s;
        h22 = h11;
      } else if (kdefl % 6 === 0) {
        const s = Math.abs(H(l + 1, l)) + Math.abs(H(l + 2, l + 1));
        h11 = 0.75 * s + H(l, l);
        h12 = -0.4375 * s;
        h21 = s;
        h22 = h11;
      } else {
        h11 = H(i - 1, i - 1);
        h21 = H(i, i - 1);
        h12 = H(i - 1, i);
        h22 = H(i, i);
      }
      let s = Math.abs(h11) + Math.abs(h12) + Math.abs(h21) + Math.abs(h22);
      let rt1r = 0;
      let rt1i = 0;
      let rt2r = 0;
      let rt2i = 0;
      if (s !== 0) {
        h11 /= s;
        h21 /= s;
        h12 /= s;
        h22 /= s;
        const tr = (h11 + h22) / 2;
        const det = (h11 - tr) * (h22 - tr) - h12 * h21;
        const rtdisc = Math.sqrt(Math.abs(det));
        if (det >= 0) {
          rt1r = tr * s;
          rt2r = rt1r;
          rt1i = rtdisc * s;
          rt2i = -rt1i;
        } else {
          rt1r = tr + rtdisc;
          rt2r = tr - rtdisc;
          if (Math.abs(rt1r - h22) <= Math.abs(rt2r - h22)) {
            rt1r *= s;
            rt2r = rt1r;
          } else {
            rt2r *= s;
            rt1r = rt2r;
          }
        }
      }
      // two consecutive small subdiagonal elements
      let m: number;
      for (m = i - 2; m >= l; m--) {
        let h21s = H(m + 1, m);
        s = Math.abs(H(m, m) - rt2r) + Math.abs(rt2i) + Math.abs(h21s);
        h21s = H(m + 1, m) / s;
        v[0] = h21s * H(m, m + 1) + (H(m, m) - rt1r) * ((H(m, m) - rt2r) / s) - rt1i * (rt2i / s);
        v[1] = h21s * (H(m, m) + H(m + 1, m + 1) - rt1r - rt2r);
        v[2] = h21s * H(m + 2, m + 1);
        s = Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2]);
        v[0] /= s;
        v[1] /= s;
        v[2] /= s;
        if (m === l) break;
        const h00 = Math.abs(H(m - 1, m - 1));
        if (Math.abs(H(m, m - 1)) * (Math.abs(v[1]) + Math.abs(v[2])) <= ulp * Math.abs(v[0]) * (h00 + Math.abs(H(m, m)) + Math.abs(H(m + 1, m + 1)))) break;
      }
      // the double-shift QR step
      for (let k2 = m; k2 <= i - 1; k2++) {
        const nr = Math.min(3, i - k2 + 1);
        if (k2 > m) for (let x = 0; x < nr; x++) v[x] = H(k2 + x, k2 - 1);
        const t1 = larfg(v, nr);
        if (k2 > m) {
          h[k2 * n + k2 - 1] = v[0];
          h[(k2 + 1) * n + k2 - 1] = 0;
          if (k2 < i - 1) h[(k2 + 2) * n + k2 - 1] = 0;
        } else if (m > l) {
          h[k2 * n + k2 - 1] *= 1 - t1;
        }
        const v2 = v[1];
        const t2 = t1 * v2;
        if (nr === 3) {
          const v3 = v[2];
          const t3 = t1 * v3;
          for (let j = k2; j <= i2; j++) {
            const sum = H(k2, j) + v2 * H(k2 + 1, j) + v3 * H(k2 + 2, j);
            h[k2 * n + j] -= sum * t1;
            h[(k2 + 1) * n + j] -= sum * t2;
            h[(k2 + 2) * n + j] -= sum * t3;
          }
          for (let j = i1; j <= Math.min(k2 + 3, i); j++) {
            const sum = H(j, k2) + v2 * H(j, k2 + 1) + v3 * H(j, k2 + 2);
            h[j * n + k2] -= sum * t1;
            h[j * n + k2 + 1] -= sum * t2;
            h[j * n + k2 + 2] -= sum * t3;
          }
          if (z) {
            for (let j = ilo; j <= ihi; j++) {
              const sum = z[j * n + k2] + v2 * z[j * n + k2 + 1] + v3 * z[j * n + k2 + 2];
              z[j * n + k2] -= sum * t1;
              z[j * n + k2 + 1] -= sum * t2;
              z[j * n + k2 + 2] -= sum * t3;
            }
          }
        } else if (nr === 2) {
          for (let j = k2; j <= i2; j++) {
            const sum = H(k2, j) + v2 * H(k2 + 1, j);
            h[k2 * n + j] -= sum * t1;
            h[(k2 + 1) * n + j] -= sum * t2;
          }
          for (let j = i1; j <= i; j++) {
            const sum = H(j, k2) + v2 * H(j, k2 + 1);
            h[j * n + k2] -= sum * t1;
            h[j * n + k2 + 1] -= sum * t2;
          }
          if (z) {
            for (let j = ilo; j <= ihi; j++) {
              const sum = z[j * n + k2] + v2 * z[j * n + k2 + 1];
              z[j * n + k2] -= sum * t1;
              z[j * n + k2 + 1] -= sum * t2;
            }
          }
        }
      }
    }
    if (!converged) return i + 1;
    if (l === i) {
      wr[i] = H(i, i);
      wi[i] = 0;
    } else {
      // a 2 x 2 block: standard Schur form
      const r = lanv2(H(i - 1, i - 1), H(i - 1, i), H(i, i - 1), H(i, i));
      h[(i - 1) * n + i - 1] = r.a;
      h[(i - 1) * n + i] = r.b;
      h[i * n + i - 1] = r.c;
      h[i * n + i] = r.d;
      wr[i - 1] = r.rt1r;
      wi[i - 1] = r.rt1i;
      wr[i] = r.rt2r;
      wi[i] = r.rt2i;
      if (i2 > i) rot(h, (i - 1) * n + i + 1, i * n + i + 1, 1, i2 - i, r.cs, r.sn);
      rot(h, i1 * n + i - 1, i1 * n + i, n, i - i1 - 1, r.cs, r.sn);
      if (z) rot(z, ilo * n + i - 1, ilo * n + i, n, ihi - ilo + 1, r.cs, r.sn);
    }
    kdefl = 0;
    i = l - 1;
  }
  return 0;
}

/** (ar + i ai) / (br + i bi), scaled (no overflow of |b|^2). */
function cdiv(ar: number, ai: number, br: number, bi: number): [number, number] {
  if (Math.abs(bi) <= Math.abs(br)) {
    const r = bi / br;
    const d = br + bi * r;
    return [(ar + ai * r) / d, (ai - ar * r) / d];
  }
  const r = br / bi;
  const d = bi + br * r;
  return [(ar * r + ai) / d, (ai * r - ar) / d];
}

/**
 * dtrevc('R', 'B'): the right eigenvectors of the quasi-triangular `t`, back-transformed by
 * `q` (n x n): vr's columns as dgeev's (a complex pair's real and imaginary parts in two
 * columns), each scaled to max-norm 1.
 */
function trevc(t: Float64Array, n: number, q: Float64Array, vr: Float64Array): void {
  const T = (r: number, c: number): number => t[r * n + c];
  const ulp = EPS;
  const smlnum = SAFMIN * (n / ulp);
  const xr = new Float64Array(n);
  const xi = new Float64Array(n);
  for (let ki = n - 1; ki >= 0; ki--) {
    const pair = ki > 0 && T(ki, ki - 1) !== 0;
    const wr = T(ki, ki);
    const wi = pair ? Math.sqrt(Math.abs(T(ki, ki - 1))) * Math.sqrt(Math.abs(T(ki - 1, ki))) : 0;
    const smin = Math.max(ulp * (Math.abs(wr) + Math.abs(wi)), smlnum);
    xr.fill(0);
    xi.fill(0);
    let top: number; // the rows above the eigenvalue's block, solved by back substitution
    if (!pair) {
      xr[ki] = 1;
      for (let k = 0; k < ki; k++) xr[k] = -T(k, ki);
      top = ki;
    } else {
      // the vector of wr + i wi: [1, i wi / t(ki-1, ki)] or [-wi / t(ki, ki-1), i] on the block
      if (Math.abs(T(ki - 1, ki)) >= Math.abs(T(ki, ki - 1))) {
        xr[ki - 1] = 1;
        xi[ki] = wi / T(ki - 1, ki);
      } else {
        xr[ki - 1] = -wi / T(ki, ki - 1);
        xi[ki] = 1;
      }
      for (let k = 0; k < ki - 1; k++) {
        xr[k] = -xr[ki - 1] * T(k, ki - 1);
        xi[k] = -xi[ki] * T(k, ki);
      }
      top = ki - 1;
    }
    // solve (T[0:top, 0:top] - (wr + i wi)) x = rhs, block by block from the bottom
    let j = top - 1;
    while (j >= 0) {
      if (j > 0 && T(j, j - 1) !== 0) {
        // a 2 x 2 diagonal block (rows j-1, j): Gaussian elimination with partial pivoting in complex
        const j0 = j - 1;
        let a11r = T(j0, j0) - wr;
        const a11i = -wi;
        const a12 = T(j0, j);
        const a21 = T(j, j0);
        let a22r = T(j, j) - wr;
        const a22i = -wi;
        // (dlaln2: a block whose largest element is below smin is replaced by smin I)
        const cmax = Math.max(Math.abs(a11r) + Math.abs(a11i), Math.abs(a12), Math.abs(a21), Math.abs(a22r) + Math.abs(a22i));
        let m12 = a12;
        let m21 = a21;
        if (cmax < smin) {
          a11r = smin;
          a22r = smin;
          m12 = 0;
          m21 = 0;
        }
        const [x1, x2] = solve2(cmax < smin ? smin : a11r, cmax < smin ? 0 : a11i, m12, m21, cmax < smin ? smin : a22r, cmax < smin ? 0 : a22i, xr[j0], xi[j0], xr[j], xi[j], smin);
        xr[j0] = x1[0];
        xi[j0] = x1[1];
        xr[j] = x2[0];
        xi[j] = x2[1];
        for (let k = 0; k < j0; k++) {
          xr[k] -= xr[j0] * T(k, j0) + xr[j] * T(k, j);
          xi[k] -= xi[j0] * T(k, j0) + xi[j] * T(k, j);
        }
        j -= 2;
      } else {
        let dr = T(j, j) - wr;
        let di = -wi;
        if (Math.abs(dr) + Math.abs(di) < smin) {
          dr = smin;
          di = 0;
        }
        const [pr, pi] = cdiv(xr[j], xi[j], dr, di);
        xr[j] = pr;
        xi[j] = pi;
        for (let k = 0; k < j; k++) {
          xr[k] -= pr * T(k, j);
          xi[k] -= pi * T(k, j);
        }
        j -= 1;
      }
    }
    // back-transform: Q x, then scale to max-norm 1 (dtrevc's normalisation)
    const last = pair ? ki : ki;
    const colR = pair ? ki - 1 : ki;
    let emax = 0;
    for (let r = 0; r < n; r++) {
      let sr = 0;
      let si = 0;
      for (let k = 0; k <= last; k++) {
        sr += q[r * n + k] * xr[k];
        if (pair) si += q[r * n + k] * xi[k];
      }
      vr[r * n + colR] = sr;
      if (pair) vr[r * n + ki] = si;
      emax = Math.max(emax, Math.abs(sr) + Math.abs(si));
    }
    const remax = 1 / emax;
    for (let r = 0; r < n; r++) {
      vr[r * n + colR] *= remax;
      if (pair) vr[r * n + ki] *= remax;
    }
    if (pair) ki--;
  }
}

/** The 2 x 2 complex system [a11 a12; a21 a22] x = b (a12, a21 real), partial pivoting; a pivot below smin is perturbed to smin. */
function solve2(
  a11r: number,
  a11i: number,
  a12: number,
  a21: number,
  a22r: number,
  a22i: number,
  b1r: number,
  b1i: number,
  b2r: number,
  b2i: number,
  smin: number,
): [[number, number], [number, number]] {
  const m1 = Math.abs(a11r) + Math.abs(a11i);
  const m2 = Math.abs(a21);
  if (m1 >= m2) {
    // eliminate row 2 with row 1
    const [lr, li] = cdiv(a21, 0, a11r, a11i);
    let ur = a22r - lr * a12;
    let ui = a22i - li * a12;
    if (Math.abs(ur) + Math.abs(ui) < smin) {
      ur = smin;
      ui = 0;
    }
    const c2r = b2r - (lr * b1r - li * b1i);
    const c2i = b2i - (lr * b1i + li * b1r);
    const x2 = cdiv(c2r, c2i, ur, ui);
    const x1 = cdiv(b1r - a12 * x2[0], b1i - a12 * x2[1], a11r, a11i);
    return [x1, x2];
  }
  // swap rows: [a21 a22; a11 a12]
  const [lr, li] = cdiv(a11r, a11i, a21, 0);
  let ur = a12 - (lr * a22r - li * a22i);
  let ui = -(lr * a22i + li * a22r);
  if (Math.abs(ur) + Math.abs(ui) < smin) {
    ur = smin;
    ui = 0;
  }
  const c2r = b1r - (lr * b2r - li * b2i);
  const c2i = b1i - (lr * b2i + li * b2r);
  const x2 = cdiv(c2r, c2i, ur, ui);
  const x1 = cdiv(b2r - a22r * x2[0] + a22i * x2[1], b2i - a22r * x2[1] - a22i * x2[0], a21, 0);
  return [x1, x2];
}

/** The eigenvalues (and right eigenvectors) of the row-major n x n `a` (overwritten), as dgeev('N', wantV ? 'V' : 'N'). */
export function geev(a: Float64Array, n: number, wantV: boolean): GeevResult {
  const wr = new Float64Array(n);
  const wi = new Float64Array(n);
  if (n === 0) return { wr, wi, vr: wantV ? new Float64Array(0) : null, info: 0 };
  const scale = new Float64Array(n);
  const [ilo, ihi] = gebal(a, n, scale);
  let q: Float64Array | null = null;
  if (wantV) {
    q = new Float64Array(n * n);
    for (let i = 0; i < n; i++) q[i * n + i] = 1;
  }
  gehrd(a, n, ilo, ihi, q);
  // dhseqr: the eigenvalues isolated by the balancing, then dlahqr on ilo..ihi
  for (let i = 0; i < ilo; i++) {
    wr[i] = a[i * n + i];
    wi[i] = 0;
  }
  for (let i = ihi + 1; i < n; i++) {
    wr[i] = a[i * n + i];
    wi[i] = 0;
  }
  const info = lahqr(a, n, ilo, ihi, wr, wi, q);
  if (info > 0 || !q) return { wr, wi, vr: null, info };
  for (let r = 2; r < n; r++) for (let c = 0; c < r - 1; c++) a[r * n + c] = 0;
  const vr = new Float64Array(n * n);
  trevc(a, n, q, vr);
  // dgebak: undo the scaling (none where ilo = ihi: scale[ilo] is then a permutation), then the permutations
  for (let i = ilo; i <= ihi && ilo !== ihi; i++) {
    const s = scale[i];
    for (let c = 0; c < n; c++) vr[i * n + c] *= s;
  }
  for (let ii = 0; ii < n; ii++) {
    let i = ii;
    if (i >= ilo && i <= ihi) continue;
    if (i < ilo) i = ilo - 1 - ii;
    const k = scale[i];
    if (k !== i) swapRows(vr, n, i, k, 0, n);
  }
  // geev's normalisation
  for (let i = 0; i < n; i++) {
    if (wi[i] === 0) {
      const s = 1 / nrm2(vr, i, n, n);
      for (let r = 0; r < n; r++) vr[r * n + i] *= s;
    } else if (wi[i] > 0) {
      const s = 1 / Math.hypot(nrm2(vr, i, n, n), nrm2(vr, i + 1, n, n));
      let k = 0;
      let best = -1;
      for (let r = 0; r < n; r++) {
        vr[r * n + i] *= s;
        vr[r * n + i + 1] *= s;
        const m = vr[r * n + i] ** 2 + vr[r * n + i + 1] ** 2;
        if (m > best) {
          best = m;
          k = r;
        }
      }
      // dlartg(f, g): r with the sign of f, cs = |f| / d, sn = g / r
      const f = vr[k * n + i];
      const g = vr[k * n + i + 1];
      let cs: number;
      let sn: number;
      if (g === 0) {
        cs = 1;
        sn = 0;
      } else if (f === 0) {
        cs = 0;
        sn = g >= 0 ? 1 : -1;
      } else {
        const d = Math.hypot(f, g);
        const r = f >= 0 ? d : -d;
        cs = Math.abs(f) / d;
        sn = g / r;
      }
      rot(vr, i, i + 1, n, n, cs, sn);
      vr[k * n + i + 1] = 0;
    }
  }
  return { wr, wi, vr, info: 0 };
}
