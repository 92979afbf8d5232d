/**
 * Note [Correctly rounded log, sin and cos]
 * PyTorch's float64 normals call glibc's log, sin and cos, which round correctly in all but
 * vanishingly rare cases; V8's Math.log / Math.sin / Math.cos (fdlibm) are off by one ulp in
 * a few percent of cases, which would change float64 `randn` values. These evaluate in
 * double-double arithmetic (about 100 bits) and round once, so they agree with glibc
 * wherever glibc is correctly rounded. Slow (series, not tables); only the float64 normal
 * samplers use them.
 */

/** A double-double: the unevaluated sum hi + lo, |lo| <= ulp(hi) / 2. */
interface DD {
  hi: number;
  lo: number;
}

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return { hi: s, lo: a - (s - bb) + (b - bb) };
}

function quickTwoSum(a: number, b: number): DD {
  const s = a + b;
  return { hi: s, lo: b - (s - a) };
}

const SPLIT = 134217729; // 2^27 + 1
function twoProd(a: number, b: number): DD {
  const p = a * b;
  const t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  const u = SPLIT * b;
  const bh = u - (u - b);
  const bl = b - bh;
  return { hi: p, lo: ah * bh - p + ah * bl + al * bh + al * bl };
}

function add(a: DD, b: DD): DD {
  const s = twoSum(a.hi, b.hi);
  const t = twoSum(a.lo, b.lo);
  const u = quickTwoSum(s.hi, s.lo + t.hi);
  return quickTwoSum(u.hi, u.lo + t.lo);
}

function mul(a: DD, b: DD): DD {
  const p = twoProd(a.hi, b.hi);
  return quickTwoSum(p.hi, p.lo + (a.hi * b.lo + a.lo * b.hi));
}

function mulD(a: DD, b: number): DD {
  const p = twoProd(a.hi, b);
  return quickTwoSum(p.hi, p.lo + a.lo * b);
}

function div(a: DD, b: DD): DD {
  const q1 = a.hi / b.hi;
  const r = add(a, neg(mul(b, { hi: q1, lo: 0 })));
  const q2 = r.hi / b.hi;
  const r2 = add(r, neg(mul(b, { hi: q2, lo: 0 })));
  const q3 = r2.hi / b.hi;
  const q = quickTwoSum(q1, q2);
  return add(q, { hi: q3, lo: 0 });
}

const neg = (a: DD): DD => ({ hi: -a.hi, lo: -a.lo });
const dd = (x: number): DD => ({ hi: x, lo: 0 });

const LN2: DD = { hi: 0.6931471805599453, lo: 2.3190468138462996e-17 };
const EPS = 2 ** -112;

/** Natural log, correctly rounded (for positive finite x; special values via Math.log). */
export function log(x: number): number {
  if (!(x > 0) || x === Infinity) return Math.log(x);
  if (x === 1) return 0;
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); both steps are exact.
  let e = Math.floor(Math.log2(x));
  let m = x / 2 ** e;
  if (m >= 2) {
    m /= 2;
    e += 1;
  } else if (m < 1) {
    m *= 2;
    e -= 1;
  }
  if (m > Math.SQRT2) {
    m /= 2;
    e += 1;
  }
  // log m = 2 atanh(s), s = (m - 1) / (m + 1); m - 1 is exact (Sterbenz).
  const s = div(dd(m - 1), twoSum(m, 1));
  const s2 = mul(s, s);
  let term = s;
  let sum = s;
  for (let k = 3; Math.abs(term.hi) > EPS * Math.abs(sum.hi); k += 2) {
    term = mul(term, s2);
    sum = add(sum, div(term, dd(k)));
  }
  const r = add(mulD(LN2, e), mulD(sum, 2));
  return r.hi + r.lo;
}

// pi / 2 as three doubles.
const PIO2_1 = 1.5707963267948966;
const PIO2_2 = 6.123233995736766e-17;
const PIO2_3 = -1.4973849048591698e-33;

/** sin and cos of r in double-double, |r| <= pi / 4 (Taylor series). */
function sincosReduced(r: DD): [DD, DD] {
  const r2 = mul(r, r);
  let ts = r;
  let s = r;
  let tc = dd(1);
  let c = dd(1);
  for (let n = 1; n < 40; n++) {
    tc = neg(div(mul(tc, r2), dd((2 * n - 1) * (2 * n))));
    c = add(c, tc);
    ts = neg(div(mul(ts, r2), dd(2 * n * (2 * n + 1))));
    s = add(s, ts);
    if (Math.abs(ts.hi) <= EPS * Math.abs(s.hi) && Math.abs(tc.hi) <= EPS) break;
  }
  return [s, c];
}

/**
 * [sin x, cos x], each correctly rounded, for |x| up to about 2^20 (the normal samplers
 * pass angles in [0, 2 pi)); larger arguments fall back to Math.sin / Math.cos.
 */
export function sincos(x: number): [number, number] {
  if (!Number.isFinite(x) || Math.abs(x) > 2 ** 20) return [Math.sin(x), Math.cos(x)];
  if (x === 0) return [x, 1];
  const k = Math.round(x / PIO2_1);
  // r = x - k pi/2, kept to double-double accuracy.
  let r = add(dd(x), neg(twoProd(k, PIO2_1)));
  r = add(r, neg(twoProd(k, PIO2_2)));
  r = add(r, dd(-k * PIO2_3));
  const [s, c] = sincosReduced(r);
  const sv = s.hi + s.lo;
  const cv = c.hi + c.lo;
  switch (((k % 4) + 4) % 4) {
    case 0:
      return [sv, cv];
    case 1:
      return [cv, -sv];
    case 2:
      return [-sv, -cv];
    default:
      return [-cv, sv];
  }
}
