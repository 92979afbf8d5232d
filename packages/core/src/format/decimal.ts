/**
 * Exact decimal rendering of doubles, as Python's `'{:.Nf}'` and `'{:.Ne}'` do it.
 *
 * Note [Round half to even on the exact binary value]
 * PyTorch formats elements with Python's `format`, which rounds the exact binary value of
 * the double and breaks ties to even: `'{:.4f}'.format(0.03125) == '0.0312'`. JavaScript's
 * `toFixed` / `toExponential` break ties away from zero (`'0.0313'`), and `toFixed` gives up
 * past 1e21, so neither can be used. We write `|x|` as the fraction `num / den` with BigInt
 * (exact for every finite double) and round that fraction ourselves.
 *
 * Both functions keep the sign of negative zero (`-0.0000`) and of negative values that
 * round to zero, and print non-finite values as Python does (`nan`, `inf`, `-inf`).
 */

const SCRATCH = new DataView(new ArrayBuffer(8));

/** `|x| = num / den` exactly, for finite `x`. */
function exactFraction(x: number): { num: bigint; den: bigint } {
  SCRATCH.setFloat64(0, Math.abs(x));
  const bits = SCRATCH.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  return exponent >= 0
    ? { num: mantissa << BigInt(exponent), den: 1n }
    : { num: mantissa, den: 1n << BigInt(-exponent) };
}

/** `num / den` rounded to an integer, ties to even. */
function roundHalfEven(num: bigint, den: bigint): bigint {
  const q = num / den;
  const twiceRest = (num % den) * 2n;
  if (twiceRest > den || (twiceRest === den && (q & 1n) === 1n)) return q + 1n;
  return q;
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function nonFinite(x: number): string | null {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return null;
}

function signOf(x: number): string {
  return x < 0 || Object.is(x, -0) ? '-' : '';
}

/** Python's `'{:.<digits>f}'.format(x)`. */
export function formatFixed(x: number, digits: number): string {
  const special = nonFinite(x);
  if (special !== null) return special;
  const { num, den } = exactFraction(x);
  const scaled = roundHalfEven(num * pow10(digits), den).toString();
  if (digits === 0) return signOf(x) + scaled;
  const padded = scaled.padStart(digits + 1, '0');
  const cut = padded.length - digits;
  return `${signOf(x)}${padded.slice(0, cut)}.${padded.slice(cut)}`;
}

/** Python's `'{:.<digits>e}'.format(x)`: `1.2346e+03`, at least two exponent digits. */
export function formatExponential(x: number, digits: number): string {
  const special = nonFinite(x);
  if (special !== null) return special;
  let mantissa: string;
  let exponent = 0;
  if (x === 0) {
    mantissa = '0'.repeat(digits + 1);
  } else {
    const { num, den } = exactFraction(x);
    // Math.log10 may be off by one near powers of ten; the exact checks below settle it.
    exponent = Math.floor(Math.log10(Math.abs(x)));
    while (!atLeastPow10(num, den, exponent)) exponent -= 1;
    while (atLeastPow10(num, den, exponent + 1)) exponent += 1;
    const shift = digits - exponent;
    let rounded =
      shift >= 0 ? roundHalfEven(num * pow10(shift), den) : roundHalfEven(num, den * pow10(-shift));
    // Rounding 9.99995 up gives 10.0000: renormalise to 1.0000 and bump the exponent.
    if (rounded === pow10(digits + 1)) {
      rounded = pow10(digits);
      exponent += 1;
    }
    mantissa = rounded.toString();
  }
  const head = digits === 0 ? mantissa : `${mantissa[0]}.${mantissa.slice(1)}`;
  const expSign = exponent < 0 ? '-' : '+';
  return `${signOf(x)}${head}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** Whether `num / den >= 10^k`. */
function atLeastPow10(num: bigint, den: bigint, k: number): boolean {
  return k >= 0 ? num >= den * pow10(k) : num * pow10(-k) >= den;
}
