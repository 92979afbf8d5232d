/**
 * Note [erf, erfc and erfinv in doubles]
 * V8 has no Math.erf. PyTorch's CPU kernels call the C library (glibc's erf/erfc, which are
 * Sun's fdlibm `s_erf.c`) for float64 and SLEEF for float32, so torch-ts ports fdlibm: the
 * same rational approximations on the same intervals (|x| < 0.84375, < 1.25, < 1/0.35,
 * < 6 or 28), accurate to under an ulp in double, so float64 results agree with glibc's to
 * an ulp or two. The tail uses `exp(-z*z - 0.5625) * exp((z-x)*(z+x) + R/S)` with `z` the
 * input with its low 32 bits cleared, so that `z*z` is exact and the exponential of the
 * large square loses no bits.
 * erfinv is PyTorch's own `calc_erfinv`: a rational first guess (central range |y| <= 0.7,
 * else in sqrt(-log((1-|y|)/2))) refined by two Newton steps on erf, which take the guess's
 * ~1e-9 relative error to the last bit; ±1 give ±inf and |y| > 1 gives nan.
 */

const ERX = 8.45062911510467529297e-1;
const EFX = 1.28379167095512586316e-1;
const PP0 = 1.28379167095512558561e-1;
const PP1 = -3.25042107247001499370e-1;
const PP2 = -2.84817495755985104766e-2;
const PP3 = -5.77027029648944159157e-3;
const PP4 = -2.37630166566501626084e-5;
const QQ1 = 3.97917223959155352819e-1;
const QQ2 = 6.50222499887672944485e-2;
const QQ3 = 5.08130628187576562776e-3;
const QQ4 = 1.32494738004321644526e-4;
const QQ5 = -3.96022827877536812320e-6;
const PA0 = -2.36211856075265944077e-3;
const PA1 = 4.14856118683748331666e-1;
const PA2 = -3.72207876035701323847e-1;
const PA3 = 3.18346619901161753674e-1;
const PA4 = -1.10894694282396677476e-1;
const PA5 = 3.54783043256182359371e-2;
const PA6 = -2.16637559486879084300e-3;
const QA1 = 1.06420880400844228286e-1;
const QA2 = 5.40397917702171048937e-1;
const QA3 = 7.18286544141962662868e-2;
const QA4 = 1.26171219808761642112e-1;
const QA5 = 1.36370839120290507362e-2;
const QA6 = 1.19844998467991074170e-2;
const RA0 = -9.86494403484714822705e-3;
const RA1 = -6.93858572707181764372e-1;
const RA2 = -1.05586262253232909814e1;
const RA3 = -6.23753324503260060396e1;
const RA4 = -1.62396669462573470355e2;
const RA5 = -1.84605092906711035994e2;
const RA6 = -8.12874355063065934246e1;
const RA7 = -9.81432934416914548592;
const SA1 = 1.96512716674392571292e1;
const SA2 = 1.37657754143519042600e2;
const SA3 = 4.34565877475229228821e2;
const SA4 = 6.45387271733267880336e2;
const SA5 = 4.29008140027567833386e2;
const SA6 = 1.08635005541779435134e2;
const SA7 = 6.57024977031928170135;
const SA8 = -6.04244152148580987438e-2;
const RB0 = -9.86494292470009928597e-3;
const RB1 = -7.99283237680523006574e-1;
const RB2 = -1.77579549177547519889e1;
const RB3 = -1.60636384855821916062e2;
const RB4 = -6.37566443368389627722e2;
const RB5 = -1.02509513161107724954e3;
const RB6 = -4.83519191608651397019e2;
const SB1 = 3.03380607434824582924e1;
const SB2 = 3.25792512996573918826e2;
const SB3 = 1.53672958608443695994e3;
const SB4 = 3.19985821950859553908e3;
const SB5 = 2.55305040643316442583e3;
const SB6 = 4.74528541206955367215e2;
const SB7 = -2.24409524465858183362e1;

const WORDS = new Float64Array(1);
const HALVES = new Uint32Array(WORDS.buffer);
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1; // little-endian: word 0 is low

/** `x` with the low 32 bits of its significand cleared. */
function highWord(x: number): number {
  WORDS[0] = x;
  HALVES[LOW] = 0;
  return WORDS[0];
}

/** P/Q of erf(x) = x + x * P(x^2) / Q(x^2), for |x| < 0.84375. */
function erfSmallRatio(x: number): number {
  const z = x * x;
  const r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
  const s = 1 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
  return r / s;
}

/** P/Q of erf(1 + s) - erx, for 0.84375 <= |x| < 1.25 (s = |x| - 1). */
function erfNearOne(ax: number): number {
  const s = ax - 1;
  const p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
  const q = 1 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
  return p / q;
}

/** erfc(ax) * ax for 1.25 <= ax < 28: exp(-ax^2 - 0.5625 + R/S). */
function erfcTail(ax: number): number {
  const s = 1 / (ax * ax);
  let r: number;
  let q: number;
  if (ax < 1 / 0.35) {
    r = RA0 + s * (RA1 + s * (RA2 + s * (RA3 + s * (RA4 + s * (RA5 + s * (RA6 + s * RA7))))));
    q = 1 + s * (SA1 + s * (SA2 + s * (SA3 + s * (SA4 + s * (SA5 + s * (SA6 + s * (SA7 + s * SA8)))))));
  } else {
    r = RB0 + s * (RB1 + s * (RB2 + s * (RB3 + s * (RB4 + s * (RB5 + s * RB6)))));
    q = 1 + s * (SB1 + s * (SB2 + s * (SB3 + s * (SB4 + s * (SB5 + s * (SB6 + s * SB7))))));
  }
  const z = highWord(ax);
  return Math.exp(-z * z - 0.5625) * Math.exp((z - ax) * (z + ax) + r / q);
}

export function erf(x: number): number {
  if (x !== x) return x;
  const ax = Math.abs(x);
  if (ax < 0.84375) {
    if (ax < 2 ** -28) return x + EFX * x;
    return x + x * erfSmallRatio(x);
  }
  if (ax < 1.25) {
    const e = ERX + erfNearOne(ax);
    return x > 0 ? e : -e;
  }
  if (ax >= 6) return x > 0 ? 1 : -1;
  const r = erfcTail(ax) / ax;
  return x > 0 ? 1 - r : r - 1;
}

export function erfc(x: number): number {
  if (x !== x) return x;
  const ax = Math.abs(x);
  if (ax < 0.84375) {
    if (ax < 2 ** -56) return 1 - x;
    const y = erfSmallRatio(x);
    if (x < 0.25) return 1 - (x + x * y);
    return 0.5 - (x * y + (x - 0.5));
  }
  if (ax < 1.25) {
    const pq = erfNearOne(ax);
    return x > 0 ? 1 - ERX - pq : 1 + (ERX + pq);
  }
  if (ax < 28) {
    if (x < 0 && ax >= 6) return 2;
    const r = erfcTail(ax) / ax;
    return x > 0 ? r : 2 - r;
  }
  return x > 0 ? 0 : 2;
}

const IA = [0.886226899, -1.645349621, 0.914624893, -0.140543331] as const;
const IB = [-2.118377725, 1.442710462, -0.329097515, 0.012229801] as const;
const IC = [-1.970840454, -1.624906493, 3.429567803, 1.641345311] as const;
const ID = [3.5438892, 1.6370678] as const;
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

export function erfinv(y: number): number {
  const ay = Math.abs(y);
  if (!(ay <= 1)) return NaN;
  if (ay === 1) return y > 0 ? Infinity : -Infinity;
  let x: number;
  if (ay <= 0.7) {
    const z = y * y;
    const num = ((IA[3] * z + IA[2]) * z + IA[1]) * z + IA[0];
    const dem = (((IB[3] * z + IB[2]) * z + IB[1]) * z + IB[0]) * z + 1;
    x = (y * num) / dem;
  } else {
    const z = Math.sqrt(-Math.log((1 - ay) / 2));
    const num = ((IC[3] * z + IC[2]) * z + IC[1]) * z + IC[0];
    const dem = (ID[1] * z + ID[0]) * z + 1;
    x = (y < 0 ? -num : num) / dem;
  }
  x = x - (erf(x) - y) / (TWO_OVER_SQRT_PI * Math.exp(-x * x));
  x = x - (erf(x) - y) / (TWO_OVER_SQRT_PI * Math.exp(-x * x));
  return x;
}
