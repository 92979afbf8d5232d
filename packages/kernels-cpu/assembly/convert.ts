// Note [Copy and cast kernels]
// out = a converted to out's dtype, on one plane (Note [Pointwise planes]): the wasm side of
// `copy` (copy_, contiguous(), to, casts). Within one dtype, raw bytes move (RAW1..RAW8: NaN
// payloads and int64 bit patterns survive): rows that step by 1 in both operands are one
// memory.copy each, a strided source is transposed tile by tile straight into the output
// rows (packTile) and a strided output is scattered from the source rows (unpackTile), so a
// transposed copy reads and writes whole cache lines. Casts run between float32 and float64,
// int32, int64, float16, bfloat16, uint8 and bool, with the exact results of Note [Casting
// rules of copy] (PyTorch on x86-64): SIMD where the instruction set has the conversion,
// scalar wasm otherwise (int64, float16); a strided operand goes through a tile in scratch.
import { packTile, TC, TILE_BYTES, TR, unpackTile } from './tile';

export const F32 = 0;
export const F64 = 1;
export const I32 = 2;
export const I64 = 3;
export const F16 = 4;
export const BF16 = 5;
export const U8 = 6;
export const BOOL = 7;
export const RAW1 = 8;
export const RAW2 = 9;
export const RAW4 = 10;
export const RAW8 = 11;

function sizeOf(code: i32): i32 {
  if (code == F64 || code == I64 || code == RAW8) return 8;
  if (code == F16 || code == BF16 || code == RAW2) return 2;
  if (code == U8 || code == BOOL || code == RAW1) return 1;
  return 4;
}

// ---- scalar conversions, the reference the SIMD loops agree with ----

// @ts-ignore: decorator
@inline function f32ToI32(x: f32): i32 {
  // cvttss2si: NaN, ±inf and anything outside int32 give INT32_MIN.
  return x >= -2147483648.0 && x < 2147483648.0 ? <i32>x : i32.MIN_VALUE;
}

// @ts-ignore: decorator
@inline function f32ToI64(x: f32): i64 {
  return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? <i64>x : i64.MIN_VALUE;
}

// @ts-ignore: decorator
@inline function f32ToU8(x: f32): u8 {
  // Through int64, modulo 256: a float32 of magnitude >= 2^31 is a multiple of 256, so only
  // the int32 range has a nonzero low byte; NaN and ±inf give 0.
  return x > -2147483648.0 && x < 2147483648.0 ? <u8><i32>x : 0;
}

/** float32 bits to bfloat16 bits, round to nearest even; every NaN is 0x7fc0 (c10's). */
// @ts-ignore: decorator
@inline function bitsToBf16(u: u32): u16 {
  if ((u & 0x7fffffff) > 0x7f800000) return 0x7fc0;
  return <u16>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

/** float32 bits to float16 bits, round to nearest even (as core's f32BitsToF16Bits). */
function bitsToF16(bits: u32): u16 {
  const sign = (bits >> 16) & 0x8000;
  const abs = bits & 0x7fffffff;
  if (abs >= 0x7f800000) return <u16>(abs > 0x7f800000 ? sign | 0x7e00 : sign | 0x7c00);
  if (abs >= 0x477ff000) return <u16>(sign | 0x7c00);
  if (abs >= 0x38800000) {
    const h = (abs - 0x38000000) >> 13;
    const rest = abs & 0x1fff;
    return <u16>(sign | (rest > 0x1000 || (rest == 0x1000 && (h & 1) == 1) ? h + 1 : h));
  }
  if (abs <= 0x33000000) return <u16>sign;
  const exp = abs >> 23;
  const mant = (abs & 0x7fffff) | 0x800000;
  const shift = 126 - exp;
  const h = mant >> shift;
  const rest = mant & ((1 << shift) - 1);
  const half = <u32>1 << (shift - 1);
  return <u16>(sign | (rest > half || (rest == half && (h & 1) == 1) ? h + 1 : h));
}

function f16ToF32(h: u32): f32 {
  const sign = (h & 0x8000) << 16;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp == 0x1f) return reinterpret<f32>(sign | 0x7f800000 | (mant << 13));
  if (exp != 0) return reinterpret<f32>(sign | ((exp + 112) << 23) | (mant << 13));
  const v = <f32>mant * 5.9604644775390625e-8; // mant * 2^-24, exact
  return sign != 0 ? -v : v;
}

// ---- rows: n elements, both operands stepping by 1 ----

function rowFromF32(dst: i32, n: i32, o: usize, a: usize): void {
  let i = 0;
  if (dst == F64) {
    for (; i + 4 <= n; i += 4) {
      const v = v128.load(a + (<usize>i << 2));
      v128.store(o + (<usize>i << 3), f64x2.promote_low_f32x4(v));
      v128.store(o + (<usize>i << 3), f64x2.promote_low_f32x4(v128.shuffle<i32>(v, v, 2, 3, 0, 1)), 16);
    }
    for (; i < n; i++) store<f64>(o + (<usize>i << 3), <f64>load<f32>(a + (<usize>i << 2)));
  } else if (dst == I32) {
    const lo = f32x4.splat(-2147483648.0);
    const hi = f32x4.splat(2147483648.0);
    const indefinite = i32x4.splat(i32.MIN_VALUE);
    for (; i + 4 <= n; i += 4) {
      const v = v128.load(a + (<usize>i << 2));
      const inRange = v128.and(f32x4.ge(v, lo), f32x4.lt(v, hi));
      v128.store(o + (<usize>i << 2), v128.bitselect(i32x4.trunc_sat_f32x4_s(v), indefinite, inRange));
    }
    for (; i < n; i++) store<i32>(o + (<usize>i << 2), f32ToI32(load<f32>(a + (<usize>i << 2))));
  } else if (dst == I64) {
    for (; i < n; i++) store<i64>(o + (<usize>i << 3), f32ToI64(load<f32>(a + (<usize>i << 2))));
  } else if (dst == BF16) {
    const nanBits = i32x4.splat(0x7f800000);
    const abs = i32x4.splat(0x7fffffff);
    const quiet = i32x4.splat(0x7fc0);
    const one = i32x4.splat(1);
    const bias = i32x4.splat(0x7fff);
    for (; i + 8 <= n; i += 8) {
      const p = a + (<usize>i << 2);
      v128.store(o + (<usize>i << 1), i16x8.narrow_i32x4_u(bf16x4(v128.load(p), nanBits, abs, quiet, one, bias), bf16x4(v128.load(p, 16), nanBits, abs, quiet, one, bias)));
    }
    for (; i < n; i++) store<u16>(o + (<usize>i << 1), bitsToBf16(load<u32>(a + (<usize>i << 2))));
  } else if (dst == F16) {
    for (; i < n; i++) store<u16>(o + (<usize>i << 1), bitsToF16(load<u32>(a + (<usize>i << 2))));
  } else if (dst == U8) {
    const lo = f32x4.splat(-2147483648.0);
    const hi = f32x4.splat(2147483648.0);
    const byte = i32x4.splat(0xff);
    for (; i + 16 <= n; i += 16) {
      const p = a + (<usize>i << 2);
      const w0 = i16x8.narrow_i32x4_u(u8x4(v128.load(p), lo, hi, byte), u8x4(v128.load(p, 16), lo, hi, byte));
      const w1 = i16x8.narrow_i32x4_u(u8x4(v128.load(p, 32), lo, hi, byte), u8x4(v128.load(p, 48), lo, hi, byte));
      v128.store(o + <usize>i, i8x16.narrow_i16x8_u(w0, w1));
    }
    for (; i < n; i++) store<u8>(o + <usize>i, f32ToU8(load<f32>(a + (<usize>i << 2))));
  } else {
    // bool: x != 0, so NaN is true
    const z = f32x4.splat(0);
    const one = i32x4.splat(1);
    for (; i + 16 <= n; i += 16) {
      const p = a + (<usize>i << 2);
      const w0 = i16x8.narrow_i32x4_u(v128.and(f32x4.ne(v128.load(p), z), one), v128.and(f32x4.ne(v128.load(p, 16), z), one));
      const w1 = i16x8.narrow_i32x4_u(v128.and(f32x4.ne(v128.load(p, 32), z), one), v128.and(f32x4.ne(v128.load(p, 48), z), one));
      v128.store(o + <usize>i, i8x16.narrow_i16x8_u(w0, w1));
    }
    for (; i < n; i++) store<u8>(o + <usize>i, load<f32>(a + (<usize>i << 2)) != 0 ? 1 : 0);
  }
}

// @ts-ignore: decorator
@inline function bf16x4(v: v128, nanBits: v128, abs: v128, quiet: v128, one: v128, bias: v128): v128 {
  const isNan = i32x4.gt_u(v128.and(v, abs), nanBits);
  const r = i32x4.shr_u(i32x4.add(v, i32x4.add(bias, v128.and(i32x4.shr_u(v, 16), one))), 16);
  return v128.bitselect(quiet, r, isNan);
}

// @ts-ignore: decorator
@inline function u8x4(v: v128, lo: v128, hi: v128, byte: v128): v128 {
  const inRange = v128.and(f32x4.gt(v, lo), f32x4.lt(v, hi));
  return v128.and(v128.and(i32x4.trunc_sat_f32x4_s(v), inRange), byte);
}

function rowToF32(src: i32, n: i32, o: usize, a: usize): void {
  let i = 0;
  if (src == F64) {
    for (; i + 4 <= n; i += 4) {
      const p = a + (<usize>i << 3);
      const lo = f32x4.demote_f64x2_zero(v128.load(p));
      const hi = f32x4.demote_f64x2_zero(v128.load(p, 16));
      v128.store(o + (<usize>i << 2), v128.shuffle<i64>(lo, hi, 0, 2));
    }
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), <f32>load<f64>(a + (<usize>i << 3)));
  } else if (src == I32) {
    for (; i + 4 <= n; i += 4) v128.store(o + (<usize>i << 2), f32x4.convert_i32x4_s(v128.load(a + (<usize>i << 2))));
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), <f32>load<i32>(a + (<usize>i << 2)));
  } else if (src == I64) {
    // f32.convert_i64_s rounds once from the 64-bit value, as the JS reader's 'float32' mode.
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), <f32>load<i64>(a + (<usize>i << 3)));
  } else if (src == BF16) {
    for (; i + 8 <= n; i += 8) {
      const v = v128.load(a + (<usize>i << 1));
      v128.store(o + (<usize>i << 2), i32x4.shl(i32x4.extend_low_i16x8_u(v), 16));
      v128.store(o + (<usize>i << 2), i32x4.shl(i32x4.extend_high_i16x8_u(v), 16), 16);
    }
    for (; i < n; i++) store<u32>(o + (<usize>i << 2), <u32>load<u16>(a + (<usize>i << 1)) << 16);
  } else if (src == F16) {
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), f16ToF32(load<u16>(a + (<usize>i << 1))));
  } else {
    // uint8, and bool (stored as 0 or 1)
    for (; i + 16 <= n; i += 16) {
      const v = v128.load(a + <usize>i);
      const lo = i16x8.extend_low_i8x16_u(v);
      const hi = i16x8.extend_high_i8x16_u(v);
      const q = o + (<usize>i << 2);
      v128.store(q, f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(lo)));
      v128.store(q, f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_u(lo)), 16);
      v128.store(q, f32x4.convert_i32x4_s(i32x4.extend_low_i16x8_u(hi)), 32);
      v128.store(q, f32x4.convert_i32x4_s(i32x4.extend_high_i16x8_u(hi)), 48);
    }
    for (; i < n; i++) store<f32>(o + (<usize>i << 2), <f32>load<u8>(a + <usize>i));
  }
}

function row(src: i32, dst: i32, n: i32, o: usize, a: usize): void {
  if (src == dst) memory.copy(o, a, <usize>n * sizeOf(src));
  else if (src == F32) rowFromF32(dst, n, o, a);
  else rowToF32(src, n, o, a);
}

// ---- tiles ----

function pack(size: i32, src: usize, s0: i32, s1: i32, rows: i32, cols: i32, dst: usize, ld: i32): void {
  if (size == 4) packTile<u32>(src, s0, s1, rows, cols, dst, ld);
  else if (size == 8) packTile<u64>(src, s0, s1, rows, cols, dst, ld);
  else if (size == 2) packTile<u16>(src, s0, s1, rows, cols, dst, ld);
  else packTile<u8>(src, s0, s1, rows, cols, dst, ld);
}

function unpack(size: i32, src: usize, dst: usize, s0: i32, s1: i32, rows: i32, cols: i32, ld: i32): void {
  if (size == 4) unpackTile<u32>(src, dst, s0, s1, rows, cols, ld);
  else if (size == 8) unpackTile<u64>(src, dst, s0, s1, rows, cols, ld);
  else if (size == 2) unpackTile<u16>(src, dst, s0, s1, rows, cols, ld);
  else unpackTile<u8>(src, dst, s0, s1, rows, cols, ld);
}

/**
 * out (dtype code `dst`) = a (code `src`) on one plane; src == dst (a RAW code) is a copy of
 * raw elements, otherwise one side is F32 (Note [Copy and cast kernels]).
 */
export function convertPlane(
  src: i32, dst: i32, n0: i32, n1: i32,
  o: usize, os0: i32, os1: i32,
  a: usize, as0: i32, as1: i32,
  scratch: usize,
): void {
  const ss = sizeOf(src);
  const ds = sizeOf(dst);
  if (os0 == 1 && as0 == 1) {
    for (let r = 0; r < n1; r++) row(src, dst, n0, o + <usize>(r * os1) * ds, a + <usize>(r * as1) * ss);
    return;
  }
  const ta = (scratch + 15) & ~15;
  const tout = ta + TILE_BYTES;
  for (let r0 = 0; r0 < n1; r0 += TR) {
    const rows = min(TR, n1 - r0);
    for (let c0 = 0; c0 < n0; c0 += TC) {
      const cols = min(TC, n0 - c0);
      const pa = a + <usize>(r0 * as1 + c0 * as0) * ss;
      const po = o + <usize>(r0 * os1 + c0 * os0) * ds;
      if (src == dst) {
        // Raw elements go straight between the operands: no tile.
        if (os0 == 1) pack(ss, pa, as0, as1, rows, cols, po, os1);
        else if (as0 == 1) unpack(ss, pa, po, os0, os1, rows, cols, as1);
        else {
          pack(ss, pa, as0, as1, rows, cols, ta, TC);
          unpack(ss, ta, po, os0, os1, rows, cols, TC);
        }
        continue;
      }
      let pr = pa;
      let prs = as1;
      if (as0 != 1) {
        pack(ss, pa, as0, as1, rows, cols, ta, TC);
        pr = ta;
        prs = TC;
      }
      const direct = os0 == 1;
      const d = direct ? po : tout;
      const drs = direct ? os1 : TC;
      for (let r = 0; r < rows; r++) row(src, dst, cols, d + <usize>(r * drs) * ds, pr + <usize>(r * prs) * ss);
      if (!direct) unpack(ds, tout, po, os0, os1, rows, cols, TC);
    }
  }
}
