// Note [Comparison and where kernels]
// float32 comparisons into bool (one byte, 0 or 1) and `where` on 32-bit elements, one plane
// per call (Note [Pointwise planes]), SIMD where every operand steps by 0 or 1 along the row,
// element by element otherwise. IEEE semantics are PyTorch's: every comparison with NaN is
// false except NE; -0 equals 0. `where` moves raw 32-bit words (float32 or int32 alike), so
// no value is converted; any non-zero condition byte selects `a`.

export const EQ = 0;
export const NE = 1;
export const LT = 2;
export const LE = 3;
export const GT = 4;
export const GE = 5;

// @ts-ignore: decorator
@inline function cmp4(op: i32, x: v128, y: v128): v128 {
  if (op == EQ) return f32x4.eq(x, y);
  if (op == NE) return f32x4.ne(x, y);
  if (op == LT) return f32x4.lt(x, y);
  if (op == LE) return f32x4.le(x, y);
  if (op == GT) return f32x4.gt(x, y);
  return f32x4.ge(x, y);
}

// @ts-ignore: decorator
@inline function cmp1(op: i32, x: f32, y: f32): u8 {
  if (op == EQ) return <u8>(x == y);
  if (op == NE) return <u8>(x != y);
  if (op == LT) return <u8>(x < y);
  if (op == LE) return <u8>(x <= y);
  if (op == GT) return <u8>(x > y);
  return <u8>(x >= y);
}

/** One row of n with o and a unit-stride, b stepping by bs (0 or 1). */
// @ts-ignore: decorator
@inline function cmpRow(op: i32, n: i32, o: usize, a: usize, b: usize, bs: i32): void {
  const one = i8x16.splat(1);
  let i = 0;
  const ys = v128.load32_splat(b);
  for (; i + 16 <= n; i += 16) {
    const p = a + (<usize>i << 2);
    const q = b + (<usize>(i * bs) << 2);
    const m0 = cmp4(op, v128.load(p), bs == 0 ? ys : v128.load(q));
    const m1 = cmp4(op, v128.load(p, 16), bs == 0 ? ys : v128.load(q, 16));
    const m2 = cmp4(op, v128.load(p, 32), bs == 0 ? ys : v128.load(q, 32));
    const m3 = cmp4(op, v128.load(p, 48), bs == 0 ? ys : v128.load(q, 48));
    const bytes = i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(m0, m1), i16x8.narrow_i32x4_s(m2, m3));
    v128.store(o + <usize>i, v128.and(bytes, one));
  }
  for (; i < n; i++) store<u8>(o + <usize>i, cmp1(op, load<f32>(a + (<usize>i << 2)), load<f32>(b + (<usize>(i * bs) << 2))));
}

function comparePlane(op: i32, n0: i32, n1: i32, o: usize, os0: i32, os1: i32, a: usize, as0: i32, as1: i32, b: usize, bs0: i32, bs1: i32): void {
  for (let r = 0; r < n1; r++) {
    const po = o + <usize>(r * os1);
    const pa = a + (<usize>(r * as1) << 2);
    const pb = b + (<usize>(r * bs1) << 2);
    if (os0 == 1 && as0 == 1 && (bs0 == 0 || bs0 == 1)) {
      cmpRow(op, n0, po, pa, pb, bs0);
    } else {
      for (let i = 0; i < n0; i++) store<u8>(po + <usize>(i * os0), cmp1(op, load<f32>(pa + (<usize>(i * as0) << 2)), load<f32>(pb + (<usize>(i * bs0) << 2))));
    }
  }
}

/** bool out = a op b for float32 a, b on one plane (Note [Comparison and where kernels]). */
export function compareF32(op: i32, n0: i32, n1: i32, o: usize, os0: i32, os1: i32, a: usize, as0: i32, as1: i32, b: usize, bs0: i32, bs1: i32, scratch: usize): void {
  if (op == EQ) comparePlane(EQ, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1);
  else if (op == NE) comparePlane(NE, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1);
  else if (op == LT) comparePlane(LT, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1);
  else if (op == LE) comparePlane(LE, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1);
  else if (op == GT) comparePlane(GT, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1);
  else comparePlane(GE, n0, n1, o, os0, os1, a, as0, as1, b, bs0, bs1);
}

/** 32-bit out = c ? a : b on one plane; c is bool (Note [Comparison and where kernels]). */
export function where32(n0: i32, n1: i32, o: usize, os0: i32, os1: i32, c: usize, cs0: i32, cs1: i32, a: usize, as0: i32, as1: i32, b: usize, bs0: i32, bs1: i32, scratch: usize): void {
  const zero = i32x4.splat(0);
  for (let r = 0; r < n1; r++) {
    const po = o + (<usize>(r * os1) << 2);
    const pc = c + <usize>(r * cs1);
    const pa = a + (<usize>(r * as1) << 2);
    const pb = b + (<usize>(r * bs1) << 2);
    let i = 0;
    if (os0 == 1 && cs0 == 1 && (as0 == 0 || as0 == 1) && (bs0 == 0 || bs0 == 1)) {
      const xa = v128.load32_splat(pa);
      const xb = v128.load32_splat(pb);
      for (; i + 4 <= n0; i += 4) {
        const m = i32x4.ne(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(pc + <usize>i))), zero);
        const va = as0 == 0 ? xa : v128.load(pa + (<usize>i << 2));
        const vb = bs0 == 0 ? xb : v128.load(pb + (<usize>i << 2));
        v128.store(po + (<usize>i << 2), v128.bitselect(va, vb, m));
      }
    }
    for (; i < n0; i++) {
      const v = load<u8>(pc + <usize>(i * cs0)) != 0 ? load<u32>(pa + (<usize>(i * as0) << 2)) : load<u32>(pb + (<usize>(i * bs0) << 2));
      store<u32>(po + (<usize>(i * os0) << 2), v);
    }
  }
}
