/**
 * Note [CPU complex eig: LAPACK's zgeev]
 * The eigendecomposition of one complex n x n matrix as LAPACK's zgeev computes it (PyTorch's
 * CPU linalg.eig of a complex matrix calls it), step by step as geev.ts ports dgeev (Note
 * [CPU eig: LAPACK's dgeev]), so that the eigenvalues come out in zgeev's order and the
 * eigenvectors with its normalisation:
 *  1. zgebal('B'): the permutations isolating eigenvalues, then scaling by powers of 2;
 *  2. zgehd2 + zunghr: complex Householder reduction (zlarfg: beta real, H = I - tau v v^H,
 *     applied as A H from the right and H^H A from the left) to upper Hessenberg form, the
 *     reflectors accumulated into Q;
 *  3. zhseqr -> zlahqr (n < 75): the subdiagonal made real by diagonal unit scalings, then
 *     single-shift complex QR with Wilkinson's shift (exceptional shifts after 10 and 20
 *     iterations without a deflation), Ahues and Kressner's deflation test, 2 x 2 reflectors
 *     chasing the bulge, Q updated; the result is upper triangular (the complex Schur form);
 *  4. ztrevc('R', 'B'): for each eigenvalue from the last, back substitution through the
 *     triangular T with x[k] = 1, near-singular diagonals raised to smin = max(ulp |t_kk|,
 *     smlnum); then Q x, scaled so that its largest |re| + |im| is 1;
 *  5. zgebak: the scaling and the permutations undone on the rows of the vectors;
 *  6. zgeev's normalisation: unit 2-norm, then each column multiplied by conj(v_k) / |v_k|
 *     for its first component k of largest modulus, which so becomes real.
 * zlatrs's overflow scaling in step 4 is left out (it changes nothing but rounding below
 * overflow). Complex values are interleaved (re, im) in Float64Arrays, row-major.
 */

const EPS = Number.EPSILON / 2; // dlamch('P')
const SAFMIN = 2.2250738585072014e-308; // dlamch('S')

export interface ZgeevResult {
  /** the eigenvalues, interleaved (re, im), length 2n */
  w: Float64Array;
  /** n x n row-major interleaved: column j the eigenvector of w[j] */
  vr: Float64Array | null;
  /** 0, or the 1-based index (zlahqr's) of the eigenvalue where the QR iteration failed. */
  info: number;
}

type C = [number, number];

const cabs1 = (re: number, im: number): number => Math.abs(re) + Math.abs(im);

/** (ar + i ai) / (br + i bi), scaled (no overflow of |b|^2), as zladiv. */
function cdiv(ar: number, ai: number, br: number, bi: number): C {
  if (Math.abs(bi) <= Math.abs(br)) {
    const r = bi / br;
    const d = br + bi * r;
    return [(ar + ai * r) / d, (ai - ar * r) / d];
  }
  const r = br / bi;
  const d = bi + br * r;
  return [(ar * r + ai) / d, (ai * r - ar) / d];
}

/** The principal square root of a complex number (Fortran's SQRT). */
function csqrt(re: number, im: number): C {
  if (re === 0 && im === 0) return [0, im];
  const m = Math.hypot(re, im);
  const t = Math.sqrt((m + Math.abs(re)) / 2);
  if (re >= 0) return [t, im / (2 * t)];
  return [Math.abs(im) / (2 * t), im >= 0 ? t : -t];
}

/** dznrm2 of `count` complex elements from element `off` with element stride `inc` (scaled). */
function znrm2(x: Float64Array, off: number, count: number, inc: number): number {
  let scale = 0;
  let ssq = 1;
  for (let i = 0; i < count; i++) {
    for (let p = 0; p < 2; p++) {
      const v = x[2 * (off + i * inc) + p];
      if (v !== 0) {
        const av = Math.abs(v);
        if (scale < av) {
          ssq = 1 + ssq * (scale / av) * (scale / av);
          scale = av;
        } else ssq += (av / scale) * (av / scale);
      }
    }
  }
  return scale * Math.sqrt(ssq);
}

/** zlarfg on the complex v[0..nr): v[0] becomes beta (real), v[1..] the reflector's tail; returns tau. */
function zlarfg(v: Float64Array, nr: number): C {
  if (nr <= 0) return [0, 0];
  const xnorm = nr > 1 ? znrm2(v, 1, nr - 1, 1) : 0;
  const alphr = v[0];
  const alphi = v[1];
  if (xnorm === 0 && alphi === 0) return [0, 0];
  const mag = Math.hypot(alphr, alphi, xnorm);
  const beta = alphr >= 0 ? -mag : mag;
  const tau: C = [(beta - alphr) / beta, -alphi / beta];
  const [sr, si] = cdiv(1, 0, alphr - beta, alphi);
  for (let i = 1; i < nr; i++) {
    const xr = v[2 * i];
    const xi = v[2 * i + 1];
    v[2 * i] = xr * sr - xi * si;
    v[2 * i + 1] = xr * si + xi * sr;
  }
  v[0] = beta;
  v[1] = 0;
  return tau;
}

function swapRows(a: Float64Array, n: number, i: number, j: number, c0: number, c1: number): void {
  for (let c = c0; c < c1; c++) {
    for (let p = 0; p < 2; p++) {
      const t = a[2 * (i * n + c) + p];
      a[2 * (i * n + c) + p] = a[2 * (j * n + c) + p];
      a[2 * (j * n + c) + p] = t;
    }
  }
}

function swapCols(a: Float64Array, n: number, i: number, j: number, r0: number, r1: number): void {
  for (let r = r0; r < r1; r++) {
    for (let p = 0; p < 2; p++) {
      const t = a[2 * (r * n + i) + p];
      a[2 * (r * n + i) + p] = a[2 * (r * n + j) + p];
      a[2 * (r * n + j) + p] = t;
    }
  }
}

const nonzero = (a: Float64Array, e: number): boolean => a[2 * e] !== 0 || a[2 * e + 1] !== 0;

/** The modulus of the element of largest |re| + |im| (izamax, then abs) among `count` from `off`, stride `inc`. */
function amaxModulus(a: Float64Array, off: number, count: number, inc: number): number {
  let best = -1;
  let at = off;
  for (let i = 0; i < count; i++) {
    const e = off + i * inc;
    const m = cabs1(a[2 * e], a[2 * e + 1]);
    if (m > best) {
      best = m;
      at = e;
    }
  }
  return Math.hypot(a[2 * at], a[2 * at + 1]);
}

/** zgebal('B'): returns [ilo, ihi] (0-based, inclusive) and fills `scale` as LAPACK. */
function zgebal(a: Float64Array, n: number, scale: Float64Array): [number, number] {
  let k = 0;
  let l = n - 1;
  rows: for (;;) {
    for (let j = l; j >= 0; j--) {
      let isolated = true;
      for (let i = 0; i <= l; i++) {
        if (i !== j && nonzero(a, j * n + i)) {
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
  cols: for (;;) {
    for (let j = k; j <= l; j++) {
      let isolated = true;
      for (let i = k; i <= l; i++) {
        if (i !== j && nonzero(a, i * n + j)) {
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
      let c = znrm2(a, k * n + i, l - k + 1, n);
      let r = znrm2(a, i * n + k, l - k + 1, 1);
      let ca = amaxModulus(a, i, l + 1, n);
      let ra = amaxModulus(a, i * n + k, n - k, 1);
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
      for (let x = k; x < n; x++) {
        a[2 * (i * n + x)] *= gi;
        a[2 * (i * n + x) + 1] *= gi;
      }
      for (let x = 0; x <= l; x++) {
        a[2 * (x * n + i)] *= f;
        a[2 * (x * n + i) + 1] *= f;
      }
    }
  }
  return [k, l];
}

/** zgehd2 + zunghr: `a` (rows / columns ilo..ihi) becomes Hessenberg, `q` (starting as I) the accumulated reflectors. */
function zgehrd(a: Float64Array, n: number, ilo: number, ihi: number, q: Float64Array | null): void {
  const v = new Float64Array(2 * n);
  for (let i = ilo; i < ihi; i++) {
    const nr = ihi - i;
    for (let r = 0; r < nr; r++) {
      v[2 * r] = a[2 * ((i + 1 + r) * n + i)];
      v[2 * r + 1] = a[2 * ((i + 1 + r) * n + i) + 1];
    }
    const [tr, ti] = zlarfg(v, nr);
    const beta = v[0];
    v[0] = 1;
    v[1] = 0;
    if (tr !== 0 || ti !== 0) {
      // from the right, M := M - tau (M v) v^H, on rows 0..ihi of a and all of q
      const right = (m: Float64Array, r0: number, r1: number): void => {
        for (let r = r0; r <= r1; r++) {
          let wr = 0;
          let wi = 0;
          for (let x = 0; x < nr; x++) {
            const e = 2 * (r * n + i + 1 + x);
            wr += m[e] * v[2 * x] - m[e + 1] * v[2 * x + 1];
            wi += m[e] * v[2 * x + 1] + m[e + 1] * v[2 * x];
          }
          const sr = tr * wr - ti * wi;
          const si = tr * wi + ti * wr;
          for (let x = 0; x < nr; x++) {
            const e = 2 * (r * n + i + 1 + x);
            // s * conj(v_x)
            m[e] -= sr * v[2 * x] + si * v[2 * x + 1];
            m[e + 1] -= si * v[2 * x] - sr * v[2 * x + 1];
          }
        }
      };
      right(a, 0, ihi);
      // from the left with H^H: A := A - conj(tau) v (v^H A), rows i+1..ihi, columns i+1..n-1
      for (let c = i + 1; c < n; c++) {
        let wr = 0;
        let wi = 0;
        for (let x = 0; x < nr; x++) {
          const e = 2 * ((i + 1 + x) * n + c);
          // conj(v_x) * a
          wr += v[2 * x] * a[e] + v[2 * x + 1] * a[e + 1];
          wi += v[2 * x] * a[e + 1] - v[2 * x + 1] * a[e];
        }
        const sr = tr * wr + ti * wi;
        const si = tr * wi - ti * wr;
        for (let x = 0; x < nr; x++) {
          const e = 2 * ((i + 1 + x) * n + c);
          a[e] -= v[2 * x] * sr - v[2 * x + 1] * si;
          a[e + 1] -= v[2 * x] * si + v[2 * x + 1] * sr;
        }
      }
      if (q) right(q, 0, n - 1);
    }
    a[2 * ((i + 1) * n + i)] = beta;
    a[2 * ((i + 1) * n + i) + 1] = 0;
    for (let r = 1; r < nr; r++) {
      a[2 * ((i + 1 + r) * n + i)] = 0;
      a[2 * ((i + 1 + r) * n + i) + 1] = 0;
    }
  }
}

/** Multiplies `count` elements from element `off` (stride `inc`) by the complex s. */
function zscal(x: Float64Array, off: number, count: number, inc: number, sr: number, si: number): void {
  for (let i = 0; i < count; i++) {
    const e = 2 * (off + i * inc);
    const re = x[e];
    const im = x[e + 1];
    x[e] = re * sr - im * si;
    x[e + 1] = re * si + im * sr;
  }
}

/**
 * zlahqr on rows / columns ilo..ihi of the Hessenberg `h`: its eigenvalues into `w`, `h`
 * made upper triangular (the whole of it where `z` is given: WANTT = WANTZ), `z` updated.
 * Returns 0 or the 1-based index of the eigenvalue that did not converge.
 */
function zlahqr(h: Float64Array, n: number, ilo: number, ihi: number, w: Float64Array, z: Float64Array | null): number {
  const H = (r: number, c: number): number => 2 * (r * n + c);
  const wantt = z !== null;
  if (ilo === ihi) {
    w[2 * ilo] = h[H(ilo, ilo)];
    w[2 * ilo + 1] = h[H(ilo, ilo) + 1];
    return 0;
  }
  for (let j = ilo; j <= ihi - 3; j++) {
    h[H(j + 2, j)] = h[H(j + 2, j) + 1] = 0;
    h[H(j + 3, j)] = h[H(j + 3, j) + 1] = 0;
  }
  if (ilo <= ihi - 2) h[H(ihi, ihi - 2)] = h[H(ihi, ihi - 2) + 1] = 0;
  const jlo = wantt ? 0 : ilo;
  const jhi = wantt ? n - 1 : ihi;
  // the subdiagonal made real
  for (let i = ilo + 1; i <= ihi; i++) {
    const e = H(i, i - 1);
    if (h[e + 1] !== 0) {
      const c1 = cabs1(h[e], h[e + 1]);
      let scr = h[e] / c1;
      let sci = h[e + 1] / c1;
      const m = Math.hypot(scr, sci);
      scr = scr / m;
      sci = -sci / m;
      const ab = Math.hypot(h[e], h[e + 1]);
      h[e] = ab;
      h[e + 1] = 0;
      zscal(h, i * n + i, jhi - i + 1, 1, scr, sci);
      zscal(h, jlo * n + i, Math.min(jhi, i + 1) - jlo + 1, n, scr, -sci);
      if (z) zscal(z, i, n, n, scr, -sci);
    }
  }
  const nh = ihi - ilo + 1;
  const ulp = EPS;
  const smlnum = SAFMIN * (nh / ulp);
  let i1 = 0;
  let i2 = n - 1;
  const itmax = 30 * Math.max(10, nh);
  let kdefl = 0;
  const v = new Float64Array(4);
  let i = ihi;
  while (i >= ilo) {
    let l = ilo;
    let converged = false;
    for (let its = 0; its <= itmax; its++) {
      let k: number;
      for (k = i; k > l; k--) {
        const kk1 = H(k, k - 1);
        if (cabs1(h[kk1], h[kk1 + 1]) <= smlnum) break;
        const k1k1 = H(k - 1, k - 1);
        const kkk = H(k, k);
        let tst = cabs1(h[k1k1], h[k1k1 + 1]) + cabs1(h[kkk], h[kkk + 1]);
        if (tst === 0) {
          if (k - 2 >= ilo) tst += Math.abs(h[H(k - 1, k - 2)]);
          if (k + 1 <= ihi) tst += Math.abs(h[H(k + 1, k)]);
        }
        if (Math.abs(h[kk1]) <= ulp * tst) {
          const k1k = H(k - 1, k);
          const ab = Math.max(cabs1(h[kk1], h[kk1 + 1]), cabs1(h[k1k], h[k1k + 1]));
          const ba = Math.min(cabs1(h[kk1], h[kk1 + 1]), cabs1(h[k1k], h[k1k + 1]));
          const dr = h[k1k1] - h[kkk];
          const di = h[k1k1 + 1] - h[kkk + 1];
          const aa = Math.max(cabs1(h[kkk], h[kkk + 1]), cabs1(dr, di));
          const bb = Math.min(cabs1(h[kkk], h[kkk + 1]), cabs1(dr, di));
          const s = aa + ab;
          if (ba * (ab / s) <= Math.max(smlnum, ulp * (bb * (aa / s)))) break;
        }
      }
      l = k;
      if (l > ilo) h[H(l, l - 1)] = h[H(l, l - 1) + 1] = 0;
      if (l >= i) {
        converged = true;
        break;
      }
      kdefl++;
      if (!wantt) {
        i1 = l;
        i2 = i;
      }
      // the shift t
      let tr: number;
      let ti: number;
      if (kdefl % 20 === 0) {
        const s = 0.75 * Math.abs(h[H(i, i - 1)]);
        tr = s + h[H(i, i)];
        ti = h[H(i, i) + 1];
      } else if (kdefl % 10 === 0) {
        const s = 0.75 * Math.abs(h[H(l + 1, l)]);
        tr = s + h[H(l, l)];
        ti = h[H(l, l) + 1];
      } else {
        tr = h[H(i, i)];
        ti = h[H(i, i) + 1];
        const [ar, ai] = csqrt(h[H(i - 1, i)], h[H(i - 1, i) + 1]);
        const [br, bi] = csqrt(h[H(i, i - 1)], h[H(i, i - 1) + 1]);
        const ur = ar * br - ai * bi;
        const ui = ar * bi + ai * br;
        let s = cabs1(ur, ui);
        if (s !== 0) {
          const xr = 0.5 * (h[H(i - 1, i - 1)] - tr);
          const xi = 0.5 * (h[H(i - 1, i - 1) + 1] - ti);
          const sx = cabs1(xr, xi);
          s = Math.max(s, sx);
          const xsr = xr / s;
          const xsi = xi / s;
          const usr = ur / s;
          const usi = ui / s;
          const [qr, qi] = csqrt(xsr * xsr - xsi * xsi + usr * usr - usi * usi, 2 * xsr * xsi + 2 * usr * usi);
          let yr = s * qr;
          let yi = s * qi;
          if (sx > 0 && (xr / sx) * yr + (xi / sx) * yi < 0) {
            yr = -yr;
            yi = -yi;
          }
          const [dr, di] = cdiv(ur, ui, xr + yr, xi + yi);
          tr -= ur * dr - ui * di;
          ti -= ur * di + ui * dr;
        }
      }
      // two consecutive small subdiagonals
      let m: number;
      for (m = i - 1; m > l; m--) {
        const h11r = h[H(m, m)];
        const h11i = h[H(m, m) + 1];
        const h22 = H(m + 1, m + 1);
        let h11sr = h11r - tr;
        let h11si = h11i - ti;
        let h21 = h[H(m + 1, m)];
        const s = cabs1(h11sr, h11si) + Math.abs(h21);
        h11sr /= s;
        h11si /= s;
        h21 /= s;
        v[0] = h11sr;
        v[1] = h11si;
        v[2] = h21;
        v[3] = 0;
        const h10 = h[H(m, m - 1)];
        if (Math.abs(h10) * Math.abs(h21) <= ulp * (cabs1(h11sr, h11si) * (cabs1(h11r, h11i) + cabs1(h[h22], h[h22 + 1])))) break;
      }
      if (m === l) {
        let h11sr = h[H(l, l)] - tr;
        let h11si = h[H(l, l) + 1] - ti;
        let h21 = h[H(l + 1, l)];
        const s = cabs1(h11sr, h11si) + Math.abs(h21);
        h11sr /= s;
        h11si /= s;
        h21 /= s;
        v[0] = h11sr;
        v[1] = h11si;
        v[2] = h21;
        v[3] = 0;
      }
      // the single-shift QR step
      for (let k2 = m; k2 <= i - 1; k2++) {
        if (k2 > m) {
          v[0] = h[H(k2, k2 - 1)];
          v[1] = h[H(k2, k2 - 1) + 1];
          v[2] = h[H(k2 + 1, k2 - 1)];
          v[3] = h[H(k2 + 1, k2 - 1) + 1];
        }
        const [t1r, t1i] = zlarfg(v, 2);
        if (k2 > m) {
          h[H(k2, k2 - 1)] = v[0];
          h[H(k2, k2 - 1) + 1] = v[1];
          h[H(k2 + 1, k2 - 1)] = h[H(k2 + 1, k2 - 1) + 1] = 0;
        }
        const v2r = v[2];
        const v2i = v[3];
        const t2 = t1r * v2r - t1i * v2i;
        for (let j = k2; j <= i2; j++) {
          const a = H(k2, j);
          const b = H(k2 + 1, j);
          // sum = conj(t1) h(k, j) + t2 h(k+1, j)
          const sr = t1r * h[a] + t1i * h[a + 1] + t2 * h[b];
          const si = t1r * h[a + 1] - t1i * h[a] + t2 * h[b + 1];
          h[a] -= sr;
          h[a + 1] -= si;
          h[b] -= sr * v2r - si * v2i;
          h[b + 1] -= sr * v2i + si * v2r;
        }
        const applyRight = (mat: Float64Array, r0: number, r1: number): void => {
          for (let j = r0; j <= r1; j++) {
            const a = 2 * (j * n + k2);
            const b = a + 2;
            // sum = t1 m(j, k) + t2 m(j, k+1)
            const sr = t1r * mat[a] - t1i * mat[a + 1] + t2 * mat[b];
            const si = t1r * mat[a + 1] + t1i * mat[a] + t2 * mat[b + 1];
            mat[a] -= sr;
            mat[a + 1] -= si;
            // sum * conj(v2)
            mat[b] -= sr * v2r + si * v2i;
            mat[b + 1] -= si * v2r - sr * v2i;
          }
        };
        applyRight(h, i1, Math.min(k2 + 2, i));
        if (z) applyRight(z, 0, n - 1);
        if (k2 === m && m > l) {
          // keep H(m, m-1) real: scale by temp = (1 - t1) / |1 - t1|
          let tmr = 1 - t1r;
          let tmi = -t1i;
          const am = Math.hypot(tmr, tmi);
          tmr /= am;
          tmi /= am;
          zscal(h, (m + 1) * n + m, 1, 1, tmr, -tmi);
          if (m + 2 <= i) zscal(h, (m + 2) * n + m + 1, 1, 1, tmr, tmi);
          for (let j = m; j <= i; j++) {
            if (j === m + 1) continue;
            if (i2 > j) zscal(h, j * n + j + 1, i2 - j, 1, tmr, tmi);
            zscal(h, i1 * n + j, j - i1, n, tmr, -tmi);
            if (z) zscal(z, j, n, n, tmr, -tmi);
          }
        }
      }
      // H(i, i-1) made real
      const e = H(i, i - 1);
      if (h[e + 1] !== 0) {
        const rt = Math.hypot(h[e], h[e + 1]);
        const tmr = h[e] / rt;
        const tmi = h[e + 1] / rt;
        h[e] = rt;
        h[e + 1] = 0;
        if (i2 > i) zscal(h, i * n + i + 1, i2 - i, 1, tmr, -tmi);
        zscal(h, i1 * n + i, i - i1, n, tmr, tmi);
        if (z) zscal(z, i, n, n, tmr, tmi);
      }
    }
    if (!converged) return i + 1;
    w[2 * i] = h[H(i, i)];
    w[2 * i + 1] = h[H(i, i) + 1];
    kdefl = 0;
    i = l - 1;
  }
  return 0;
}

/** ztrevc('R', 'B'): the right eigenvectors of the upper triangular `t`, back-transformed by `q` (overwritten with them), each scaled to max |re| + |im| of 1. */
function ztrevc(t: Float64Array, n: number, q: Float64Array): void {
  const T = (r: number, c: number): number => 2 * (r * n + c);
  const smlnum = SAFMIN * (n / EPS);
  const x = new Float64Array(2 * n);
  const diag = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    diag[2 * k] = t[T(k, k)];
    diag[2 * k + 1] = t[T(k, k) + 1];
  }
  for (let ki = n - 1; ki >= 0; ki--) {
    const lr = diag[2 * ki];
    const li = diag[2 * ki + 1];
    const smin = Math.max(EPS * cabs1(lr, li), smlnum);
    // (T[0:ki, 0:ki] - lambda) x = -T[0:ki, ki], by back substitution
    for (let k = 0; k < ki; k++) {
      x[2 * k] = -t[T(k, ki)];
      x[2 * k + 1] = -t[T(k, ki) + 1];
    }
    for (let k = ki - 1; k >= 0; k--) {
      let dr = diag[2 * k] - lr;
      let di = diag[2 * k + 1] - li;
      if (cabs1(dr, di) < smin) {
        dr = smin;
        di = 0;
      }
      const [xr, xi] = cdiv(x[2 * k], x[2 * k + 1], dr, di);
      x[2 * k] = xr;
      x[2 * k + 1] = xi;
      for (let r = 0; r < k; r++) {
        const a = T(r, k);
        x[2 * r] -= t[a] * xr - t[a + 1] * xi;
        x[2 * r + 1] -= t[a] * xi + t[a + 1] * xr;
      }
    }
    // column ki of q becomes Q[:, 0:ki] x + Q[:, ki]
    let best = -1;
    for (let r = 0; r < n; r++) {
      let sr = q[T(r, ki)];
      let si = q[T(r, ki) + 1];
      for (let k = 0; k < ki; k++) {
        const a = T(r, k);
        sr += q[a] * x[2 * k] - q[a + 1] * x[2 * k + 1];
        si += q[a] * x[2 * k + 1] + q[a + 1] * x[2 * k];
      }
      q[T(r, ki)] = sr;
      q[T(r, ki) + 1] = si;
      best = Math.max(best, cabs1(sr, si));
    }
    // (izamax's first maximum: its value is all the scaling reads)
    const remax = 1 / best;
    for (let r = 0; r < n; r++) {
      q[T(r, ki)] *= remax;
      q[T(r, ki) + 1] *= remax;
    }
  }
}

/** The eigenvalues (and right eigenvectors) of the row-major interleaved complex n x n `a` (overwritten), as zgeev('N', wantV ? 'V' : 'N'). */
export function zgeev(a: Float64Array, n: number, wantV: boolean): ZgeevResult {
  const w = new Float64Array(2 * n);
  if (n === 0) return { w, vr: wantV ? new Float64Array(0) : null, info: 0 };
  const scale = new Float64Array(n);
  const [ilo, ihi] = zgebal(a, n, scale);
  let q: Float64Array | null = null;
  if (wantV) {
    q = new Float64Array(2 * n * n);
    for (let i = 0; i < n; i++) q[2 * (i * n + i)] = 1;
  }
  zgehrd(a, n, ilo, ihi, q);
  // zhseqr: the eigenvalues isolated by the balancing, then zlahqr on ilo..ihi
  for (let i = 0; i < n; i++) {
    if (i >= ilo && i <= ihi) continue;
    w[2 * i] = a[2 * (i * n + i)];
    w[2 * i + 1] = a[2 * (i * n + i) + 1];
  }
  const info = zlahqr(a, n, ilo, ihi, w, q);
  if (info > 0 || !q) return { w, vr: null, info };
  for (let r = 1; r < n; r++) for (let c = 0; c < r; c++) a[2 * (r * n + c)] = a[2 * (r * n + c) + 1] = 0;
  ztrevc(a, n, q);
  const vr = q;
  // zgebak: undo the scaling (none where ilo = ihi), then the permutations
  for (let i = ilo; i <= ihi && ilo !== ihi; i++) {
    const s = scale[i];
    for (let c = 0; c < 2 * n; c++) vr[2 * i * n + c] *= s;
  }
  for (let ii = 0; ii < n; ii++) {
    let i = ii;
    if (i >= ilo && i <= ihi) continue;
    if (i < ilo) i = ilo - 1 - ii;
    const k = scale[i];
    if (k !== i) swapRows(vr, n, i, k, 0, n);
  }
  // zgeev's normalisation
  for (let c = 0; c < n; c++) {
    const s = 1 / znrm2(vr, c, n, n);
    let k = 0;
    let best = -1;
    for (let r = 0; r < n; r++) {
      const e = 2 * (r * n + c);
      vr[e] *= s;
      vr[e + 1] *= s;
      const m2 = vr[e] * vr[e] + vr[e + 1] * vr[e + 1];
      if (m2 > best) {
        best = m2;
        k = r;
      }
    }
    const ek = 2 * (k * n + c);
    const sq = Math.sqrt(best);
    zscal(vr, c, n, n, vr[ek] / sq, -vr[ek + 1] / sq);
    vr[ek + 1] = 0;
  }
  return { w, vr, info: 0 };
}
