/**
 * Note [int64 as two words]
 * An int64 element is read and written as its two little-endian Int32 words (low word at
 * element index * 2) wherever that avoids BigInt, whose every read allocates: casts,
 * comparisons, raw moves and sums. `lo >>> 0` is the low word unsigned. The value is
 * `hi * 2^32 + (lo >>> 0)`: computed in doubles that is ONE rounding of the exact value, so
 * int64 -> float64 is exact to the last bit; the low word alone is the value modulo 2^32,
 * which is what every narrowing integer cast keeps.
 */

const TWO_32 = 4294967296;
const TWO_63 = 9223372036854775808;
const INT32_MIN = -2147483648;

/** int64 words -> the nearest double (round to nearest even, one rounding). */
export function wordsToF64(lo: number, hi: number): number {
  return hi * TWO_32 + (lo >>> 0);
}

/**
 * int64 words -> the nearest float32, rounded ONCE from the exact 64-bit value as x86's
 * `cvtsi2ss` does (PyTorch's int64 -> float32 cast). Going through a double would round
 * twice: 2^60 + 2^36 + 1 becomes the float32 tie 2^60 + 2^36 and then 2^60, not 2^60 + 2^37.
 * Above 2^53 the magnitude is cut to 33 significant bits with the cut bits folded into the
 * lowest kept bit ("round to odd"), which a later rounding to 24 bits cannot get wrong.
 */
export function wordsToF32(lo: number, hi: number): number {
  if (hi >= -2097152 && hi < 2097152) return Math.fround(hi * TWO_32 + (lo >>> 0));
  let h: number;
  let l: number;
  const negative = hi < 0;
  if (negative) {
    l = -(lo >>> 0) >>> 0;
    h = (~hi >>> 0) + (l === 0 ? 1 : 0);
  } else {
    l = lo >>> 0;
    h = hi;
  }
  let q = h * 2048 + (l >>> 21);
  if ((l & 0x1fffff) !== 0 && q % 2 === 0) q += 1;
  const m = q * 2097152;
  return Math.fround(negative ? -m : m);
}

/**
 * A double -> int64 words, by PyTorch's x86 float -> int64 cast (`cvttsd2si`): truncation
 * toward zero, and the "integer indefinite" 0x8000000000000000 for NaN and for anything
 * outside [-2^63, 2^63). Writes the low word to `w[at]` and the high word to `w[at + 1]`.
 */
export function storeF64AsInt64(w: Int32Array, at: number, x: number): void {
  if (!(x >= -TWO_63 && x < TWO_63)) {
    w[at] = 0;
    w[at + 1] = INT32_MIN;
    return;
  }
  const t = Math.trunc(x);
  const hi = Math.floor(t / TWO_32);
  w[at] = t - hi * TWO_32;
  w[at + 1] = hi;
}

/** A bigint -> int64 words, wrapping modulo 2^64. */
export function bigintWords(v: bigint): [lo: number, hi: number] {
  const u = BigInt.asUintN(64, v);
  return [Number(u & 0xffffffffn) | 0, Number(u >> 32n) | 0];
}
