/**
 * Note [CPU FFT plans]
 * The CPU's `fft` impl (core Note [torch.fft on one complex-to-complex impl]) transforms one
 * line of n complex values at a time, in doubles, with a plan made once per n and cached:
 *  - smooth n (every prime factor <= MAX_DIRECT_RADIX): a recursive mixed-radix
 *    decimation in time (kissfft's structure): n = p * m, the p sub-transforms of length m
 *    on the inputs of stride p, then m butterflies of radix p. Radices 4, 2, 3 and 5 have
 *    their own butterflies, any other small odd radix (7 .. MAX_DIRECT_RADIX) the generic
 *    one (O(p^2) per butterfly, which is cheap for such p);
 *  - otherwise Bluestein's chirp z: jk = (j^2 + k^2 - (k - j)^2) / 2 turns the DFT into a
 *    circular convolution with the chirp exp(i pi t^2 / n), done by power-of-two FFTs of
 *    size M >= 2n - 1 (whose plans are smooth, so this never recurses further).
 * Accuracy: every twiddle is cos / sin of an exactly reduced angle. A root exp(2 pi i t / n)
 * is computed from t mod n, folded into the first octant with integer arithmetic (so the
 * angle given to Math.cos / Math.sin is at most pi / 4 and carries one rounding), and the
 * chirp's angle pi t^2 / n uses t^2 mod 2n, also in integers; no twiddle is made by
 * repeated multiplication, whose error grows with n. The result is within a few ulps times
 * log n of the exact DFT, relative to max |X| (pocketfft's, PyTorch's CPU library, is too).
 */

/** Largest prime factor handled by a direct butterfly; above it, Bluestein. */
const MAX_DIRECT_RADIX = 23;

/** exp(2 pi i t / n) for an integer t, as [cos, sin], from the octant of t mod n. */
export function rootOfUnity(t: number, n: number): [number, number] {
  // angle = (pi / 4) * x / n with x = 8 (t mod n) in [0, 8n)
  let x = 8 * (((t % n) + n) % n);
  let negSin = false;
  let negCos = false;
  let swap = false;
  if (x > 4 * n) {
    x = 8 * n - x; // angle -> 2 pi - angle: sin changes sign
    negSin = true;
  }
  if (x > 2 * n) {
    x = 4 * n - x; // angle -> pi - angle: cos changes sign
    negCos = true;
  }
  if (x > n) {
    x = 2 * n - x; // angle -> pi / 2 - angle: cos and sin swap
    swap = true;
  }
  const a = (Math.PI / 4) * (x / n);
  let c = Math.cos(a);
  let s = Math.sin(a);
  if (swap) [c, s] = [s, c];
  if (negCos) c = -c;
  if (negSin) s = -s;
  return [c, s];
}

function factorize(n: number): number[] {
  const f: number[] = [];
  let m = n;
  while (m % 4 === 0) {
    f.push(4);
    m /= 4;
  }
  if (m % 2 === 0) {
    f.push(2);
    m /= 2;
  }
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      f.push(p);
      m /= p;
    }
  }
  if (m > 1) f.push(m);
  return f;
}

/** One forward (exp(-2 pi i jk / n)) transform of a strided line into a contiguous one. */
export interface FftPlan {
  readonly n: number;
  /** out[0 .. 2n) (re, im interleaved) = DFT of inp[off + j * stride * 2 + (0|1)], j < n. */
  forward(inp: Float64Array, off: number, stride: number, out: Float64Array): void;
}

/** Mixed radix for smooth n: twiddles w[t] = exp(-2 pi i t / n), t < n. */
class MixedRadixPlan implements FftPlan {
  readonly n: number;
  private readonly factors: number[];
  private readonly tw: Float64Array;
  private readonly scratch: Float64Array;

  constructor(n: number) {
    this.n = n;
    this.factors = factorize(n);
    this.tw = new Float64Array(2 * n);
    for (let t = 0; t < n; t++) {
      const [c, s] = rootOfUnity(t, n);
      this.tw[2 * t] = c;
      this.tw[2 * t + 1] = -s;
    }
    this.scratch = new Float64Array(2 * Math.max(...this.factors, 1));
  }

  forward(inp: Float64Array, off: number, stride: number, out: Float64Array): void {
    if (this.n === 1) {
      out[0] = inp[off];
      out[1] = inp[off + 1];
      return;
    }
    this.work(out, 0, inp, off, stride, 1, 0);
  }

  /** kissfft's kf_work: out[o ..] gets the DFT of the n / fstride-point line of stride `fstride * stride`. */
  private work(out: Float64Array, o: number, inp: Float64Array, io: number, stride: number, fstride: number, level: number): void {
    const p = this.factors[level];
    const m = this.n / (fstride * p);
    if (m === 1) {
      for (let q = 0; q < p; q++) {
        const src = io + 2 * q * fstride * stride;
        out[o + 2 * q] = inp[src];
        out[o + 2 * q + 1] = inp[src + 1];
      }
    } else {
      for (let q = 0; q < p; q++) this.work(out, o + 2 * q * m, inp, io + 2 * q * fstride * stride, stride, fstride * p, level + 1);
    }
    if (p === 4) this.radix4(out, o, fstride, m);
    else if (p === 2) this.radix2(out, o, fstride, m);
    else if (p === 3) this.radix3(out, o, fstride, m);
    else if (p === 5) this.radix5(out, o, fstride, m);
    else this.generic(out, o, fstride, m, p);
  }

  private radix2(f: Float64Array, o: number, fstride: number, m: number): void {
    const tw = this.tw;
    for (let k = 0; k < m; k++) {
      const a = o + 2 * k;
      const b = a + 2 * m;
      const wr = tw[2 * k * fstride];
      const wi = tw[2 * k * fstride + 1];
      const tr = f[b] * wr - f[b + 1] * wi;
      const ti = f[b] * wi + f[b + 1] * wr;
      f[b] = f[a] - tr;
      f[b + 1] = f[a + 1] - ti;
      f[a] += tr;
      f[a + 1] += ti;
    }
  }

  private radix4(f: Float64Array, o: number, fstride: number, m: number): void {
    const tw = this.tw;
    for (let k = 0; k < m; k++) {
      const i0 = o + 2 * k;
      const i1 = i0 + 2 * m;
      const i2 = i1 + 2 * m;
      const i3 = i2 + 2 * m;
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const t3 = 3 * t1;
      // (the twiddle indices stay below n: k * fstride * 3 < 3n / 4)
      const ar = f[i1] * tw[t1] - f[i1 + 1] * tw[t1 + 1];
      const ai = f[i1] * tw[t1 + 1] + f[i1 + 1] * tw[t1];
      const br = f[i2] * tw[t2] - f[i2 + 1] * tw[t2 + 1];
      const bi = f[i2] * tw[t2 + 1] + f[i2 + 1] * tw[t2];
      const cr = f[i3] * tw[t3] - f[i3 + 1] * tw[t3 + 1];
      const ci = f[i3] * tw[t3 + 1] + f[i3 + 1] * tw[t3];
      const s0r = f[i0] + br;
      const s0i = f[i0 + 1] + bi;
      const s1r = f[i0] - br;
      const s1i = f[i0 + 1] - bi;
      const s2r = ar + cr;
      const s2i = ai + ci;
      const s3r = ar - cr;
      const s3i = ai - ci;
      f[i0] = s0r + s2r;
      f[i0 + 1] = s0i + s2i;
      f[i2] = s0r - s2r;
      f[i2 + 1] = s0i - s2i;
      // forward: X1 = s1 - i s3, X3 = s1 + i s3
      f[i1] = s1r + s3i;
      f[i1 + 1] = s1i - s3r;
      f[i3] = s1r - s3i;
      f[i3 + 1] = s1i + s3r;
    }
  }

  /** x1, x2 twiddled: X0 = x0 + s, X1,2 = x0 - s / 2 -+ i (sqrt(3) / 2) d (s, d the sum and difference). */
  private radix3(f: Float64Array, o: number, fstride: number, m: number): void {
    const tw = this.tw;
    const h = Math.sqrt(3) / 2;
    for (let k = 0; k < m; k++) {
      const i0 = o + 2 * k;
      const i1 = i0 + 2 * m;
      const i2 = i1 + 2 * m;
      const t1 = 2 * k * fstride;
      const t2 = 2 * t1;
      const ar = f[i1] * tw[t1] - f[i1 + 1] * tw[t1 + 1];
      const ai = f[i1] * tw[t1 + 1] + f[i1 + 1] * tw[t1];
      const br = f[i2] * tw[t2] - f[i2 + 1] * tw[t2 + 1];
      const bi = f[i2] * tw[t2 + 1] + f[i2 + 1] * tw[t2];
      const sr = ar + br;
      const si = ai + bi;
      const dr = h * (ar - br);
      const di = h * (ai - bi);
      const mr = f[i0] - sr / 2;
      const mi = f[i0 + 1] - si / 2;
      f[i0] += sr;
      f[i0 + 1] += si;
      f[i1] = mr + di;
      f[i1 + 1] = mi - dr;
      f[i2] = mr - di;
      f[i2 + 1] = mi + dr;
    }
  }

  /** Radix 5 from the sums and differences of x1 +- x4 and x2 +- x3 (twiddled), with cos / sin of 2 pi / 5 and 4 pi / 5. */
  private radix5(f: Float64Array, o: number, fstride: number, m: number): void {
    const tw = this.tw;
    const [c1, s1] = rootOfUnity(1, 5);
    const [c2, s2] = rootOfUnity(2, 5);
    const a = this.scratch; // (2 * 5 doubles at least: 5 is a factor)
    for (let k = 0; k < m; k++) {
      const i0 = o + 2 * k;
      for (let q = 1; q < 5; q++) {
        const i = i0 + 2 * q * m;
        const t = 2 * q * k * fstride;
        a[2 * q] = f[i] * tw[t] - f[i + 1] * tw[t + 1];
        a[2 * q + 1] = f[i] * tw[t + 1] + f[i + 1] * tw[t];
      }
      const s7r = a[2] + a[8];
      const s7i = a[3] + a[9];
      const s10r = a[2] - a[8];
      const s10i = a[3] - a[9];
      const s8r = a[4] + a[6];
      const s8i = a[5] + a[7];
      const s9r = a[4] - a[6];
      const s9i = a[5] - a[7];
      const x0r = f[i0];
      const x0i = f[i0 + 1];
      // X1,4 = x0 + c1 s7 + c2 s8 -+ i (s1 s10 + s2 s9); X2,3 = x0 + c2 s7 + c1 s8 -+ i (s2 s10 - s1 s9)
      const p1r = x0r + c1 * s7r + c2 * s8r;
      const p1i = x0i + c1 * s7i + c2 * s8i;
      const q1r = s1 * s10r + s2 * s9r;
      const q1i = s1 * s10i + s2 * s9i;
      const p2r = x0r + c2 * s7r + c1 * s8r;
      const p2i = x0i + c2 * s7i + c1 * s8i;
      const q2r = s2 * s10r - s1 * s9r;
      const q2i = s2 * s10i - s1 * s9i;
      f[i0] = x0r + s7r + s8r;
      f[i0 + 1] = x0i + s7i + s8i;
      const [j1, j2, j3, j4] = [i0 + 2 * m, i0 + 4 * m, i0 + 6 * m, i0 + 8 * m];
      f[j1] = p1r + q1i;
      f[j1 + 1] = p1i - q1r;
      f[j4] = p1r - q1i;
      f[j4 + 1] = p1i + q1r;
      f[j2] = p2r + q2i;
      f[j2 + 1] = p2i - q2r;
      f[j3] = p2r - q2i;
      f[j3 + 1] = p2i + q2r;
    }
  }

  /** Any radix p: out[k + u m] = sum_q f[k + q m] w^(q (k + u m) fstride), indices reduced mod n. */
  private generic(f: Float64Array, o: number, fstride: number, m: number, p: number): void {
    const tw = this.tw;
    const n = this.n;
    const s = this.scratch;
    for (let k = 0; k < m; k++) {
      for (let q = 0; q < p; q++) {
        s[2 * q] = f[o + 2 * (k + q * m)];
        s[2 * q + 1] = f[o + 2 * (k + q * m) + 1];
      }
      for (let u = 0; u < p; u++) {
        const k2 = k + u * m;
        const step = (fstride * k2) % n;
        let idx = 0;
        let re = s[0];
        let im = s[1];
        for (let q = 1; q < p; q++) {
          idx += step;
          if (idx >= n) idx -= n;
          const wr = tw[2 * idx];
          const wi = tw[2 * idx + 1];
          re += s[2 * q] * wr - s[2 * q + 1] * wi;
          im += s[2 * q] * wi + s[2 * q + 1] * wr;
        }
        f[o + 2 * k2] = re;
        f[o + 2 * k2 + 1] = im;
      }
    }
  }
}

/** Bluestein's chirp z for n with a large prime factor (Note [CPU FFT plans]). */
class BluesteinPlan implements FftPlan {
  readonly n: number;
  /** exp(i pi t^2 / n), t < n. */
  private readonly chirp: Float64Array;
  /** FFT of the chirp's circular kernel, divided by M (so the inverse needs no scaling). */
  private readonly kernel: Float64Array;
  private readonly inner: FftPlan;
  private readonly a: Float64Array;
  private readonly b: Float64Array;

  constructor(n: number) {
    this.n = n;
    let M = 1;
    while (M < 2 * n - 1) M *= 2;
    this.inner = planFor(M);
    this.chirp = new Float64Array(2 * n);
    for (let t = 0; t < n; t++) {
      // (t^2 mod 2n in integers: t < 2^26 keeps t * t exact in a double)
      const [c, s] = rootOfUnity((t * t) % (2 * n), 2 * n);
      this.chirp[2 * t] = c;
      this.chirp[2 * t + 1] = s;
    }
    const k = new Float64Array(2 * M);
    for (let t = 0; t < n; t++) {
      k[2 * t] = this.chirp[2 * t];
      k[2 * t + 1] = this.chirp[2 * t + 1];
      if (t > 0) {
        k[2 * (M - t)] = this.chirp[2 * t];
        k[2 * (M - t) + 1] = this.chirp[2 * t + 1];
      }
    }
    this.kernel = new Float64Array(2 * M);
    this.inner.forward(k, 0, 1, this.kernel);
    for (let i = 0; i < 2 * M; i++) this.kernel[i] /= M;
    this.a = new Float64Array(2 * M);
    this.b = new Float64Array(2 * M);
  }

  forward(inp: Float64Array, off: number, stride: number, out: Float64Array): void {
    const { n, chirp, kernel, a, b } = this;
    const M = a.length / 2;
    a.fill(0);
    // a_j = x_j conj(chirp_j)
    for (let j = 0; j < n; j++) {
      const xr = inp[off + 2 * j * stride];
      const xi = inp[off + 2 * j * stride + 1];
      const cr = chirp[2 * j];
      const ci = chirp[2 * j + 1];
      a[2 * j] = xr * cr + xi * ci;
      a[2 * j + 1] = xi * cr - xr * ci;
    }
    this.inner.forward(a, 0, 1, b);
    // pointwise product, then the inverse transform as conj(FFT(conj(.)))
    for (let i = 0; i < M; i++) {
      const br = b[2 * i];
      const bi = b[2 * i + 1];
      const kr = kernel[2 * i];
      const ki = kernel[2 * i + 1];
      a[2 * i] = br * kr - bi * ki;
      a[2 * i + 1] = -(br * ki + bi * kr);
    }
    this.inner.forward(a, 0, 1, b);
    // X_k = conj(chirp_k) conv_k, conv_k = conj(b_k)
    for (let k = 0; k < n; k++) {
      const vr = b[2 * k];
      const vi = -b[2 * k + 1];
      const cr = chirp[2 * k];
      const ci = chirp[2 * k + 1];
      out[2 * k] = vr * cr + vi * ci;
      out[2 * k + 1] = vi * cr - vr * ci;
    }
  }
}

function largestPrimeFactor(n: number): number {
  const f = factorize(n);
  let p = 1;
  for (const x of f) if (x !== 4 && x > p) p = x;
  return f.includes(4) ? Math.max(p, 2) : p;
}

const PLANS = new Map<number, FftPlan>();

/** The cached plan of length n (n >= 1). */
export function planFor(n: number): FftPlan {
  let plan = PLANS.get(n);
  if (plan === undefined) {
    plan = largestPrimeFactor(n) <= MAX_DIRECT_RADIX ? new MixedRadixPlan(n) : new BluesteinPlan(n);
    PLANS.set(n, plan);
  }
  return plan;
}
