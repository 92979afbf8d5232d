/**
 * Note [Fused multiply-add in PyTorch's CPU kernels]
 * The kernels in aten/src/ATen/native/cpu are compiled once per CPU capability; the AVX2
 * build has -mfma, and GCC contracts `a * b + c` into one fused multiply-add (a single
 * rounding). So on an AVX2 machine `uniform_(from, to)` is fma(x, to - from, from) and a
 * normal is fma(z, std, mean). JS has no fma; these reproduce it exactly.
 */
const f32 = Math.fround;

/** a + b = s + e exactly (Knuth's TwoSum). */
function twoSumErr(a: number, b: number, s: number): number {
  const bb = s - a;
  return a - (s - bb) + (b - bb);
}

/** fma for float32 operands, rounded once to float32. */
export function fma32(a: number, b: number, c: number): number {
  const p = a * b; // exact: 24 + 24 significant bits fit a double
  const s = p + c;
  const r = f32(s);
  const e = twoSumErr(p, c, s);
  if (e === 0 || r === s || !Number.isFinite(s)) return r;
  // Rounding s to float32 is only wrong when s sits exactly between two floats: then the
  // dropped error e decides the direction.
  const other = f32(r < s ? nextUp32(r) : nextDown32(r));
  if (s - r !== other - s) return r;
  return (e > 0) === (other > r) ? other : r;
}

const buf = new DataView(new ArrayBuffer(8));
function nextUp32(x: number): number {
  buf.setFloat32(0, x);
  const bits = buf.getUint32(0);
  buf.setUint32(0, x === 0 ? 1 : x > 0 ? bits + 1 : bits - 1);
  return buf.getFloat32(0);
}
function nextDown32(x: number): number {
  return -nextUp32(-x);
}

/** Splits a finite double into an integer mantissa and a power of two. */
function decompose(x: number): [bigint, number] {
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) mant |= 1n << 52n;
  const e = (exp === 0 ? 1 : exp) - 1075;
  return [x < 0 ? -mant : mant, e];
}

const SPLIT = 134217729; // 2^27 + 1 (Dekker)

/** fma for doubles, rounded once (results in the subnormal range may round twice). */
export function fma64(a: number, b: number, c: number): number {
  const p = a * b;
  // Exact product check (Dekker's TwoProduct): when a*b is exact, p + c rounds once.
  const ah = a * SPLIT - (a * SPLIT - a);
  const al = a - ah;
  const bh = b * SPLIT - (b * SPLIT - b);
  const bl = b - bh;
  const err = al * bl - (p - ah * bh - al * bh - ah * bl);
  if (err === 0 || !Number.isFinite(p) || !Number.isFinite(c)) return p + c;
  const [ma, ea] = decompose(a);
  const [mb, eb] = decompose(b);
  const [mc, ec] = decompose(c);
  const ep = ea + eb;
  const e = Math.min(ep, ec);
  const sum = ((ma * mb) << BigInt(ep - e)) + (mc << BigInt(ec - e));
  // Keep Number() in range: drop low bits beyond 960, folding them into a sticky bit.
  const neg = sum < 0n;
  let mag = neg ? -sum : sum;
  let shift = mag.toString(2).length - 960;
  if (shift > 0) {
    const kept = mag >> BigInt(shift);
    mag = (kept << BigInt(shift)) === mag ? kept : kept | 1n;
  } else shift = 0;
  // Number(bigint) rounds to nearest-even once; scaling by 2^e is exact for normal results.
  const m = Number(mag) * (neg ? -1 : 1);
  const k = e + shift;
  const h = Math.trunc(k / 2); // 2 ** k alone may overflow or underflow
  return m * 2 ** h * 2 ** (k - h);
}
