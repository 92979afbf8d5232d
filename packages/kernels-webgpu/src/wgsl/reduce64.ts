/**
 * Note [int64 in reductions]
 * An int64 element is two u32 words (lo, hi) (Note [WebGPU dtypes]); the reduction kernels
 * carry it as a `vec2<u32>` and do real 64-bit arithmetic: an add with carry, a product
 * modulo 2^64 (the low words' full 64-bit product from 16-bit halves, plus the cross terms
 * in the high word), and signed comparisons on (hi as i32, lo as u32). So `sum` of an int32
 * or bool tensor (whose result is int64, as PyTorch's) is exact, and wraps as PyTorch's does.
 * The helpers are prefixed `rd_` and included only by the kernels that use them (they are
 * not part of PRELUDE, which every kernel compiles).
 */
export const I64_HELPERS = /* wgsl */ `
fn rd_add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn rd_mul32x32(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  let lo = (p00 & 0xffffu) | (mid << 16u);
  let hi = p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
  return vec2<u32>(lo, hi);
}
fn rd_mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let p = rd_mul32x32(a.x, b.x);
  return vec2<u32>(p.x, p.y + a.x * b.y + a.y * b.x);
}
fn rd_lt64(a: vec2<u32>, b: vec2<u32>) -> bool {
  if (a.y != b.y) { return bitcast<i32>(a.y) < bitcast<i32>(b.y); }
  return a.x < b.x;
}
fn rd_max64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { return select(a, b, rd_lt64(a, b)); }
fn rd_min64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { return select(a, b, rd_lt64(b, a)); }
`;

/** A WGSL expression loading int64 element `idx` of binding `i` (an array<u32>) as vec2<u32>. */
export function load64(i: number, idx: string): string {
  return `vec2<u32>(b${i}[2u * (${idx})], b${i}[2u * (${idx}) + 1u])`;
}

/** WGSL statements storing the vec2<u32> `v` as int64 element `idx` of binding `i`. */
export function store64(i: number, idx: string, v: string): string {
  return `{ let v64 = ${v}; b${i}[2u * (${idx})] = v64.x; b${i}[2u * (${idx}) + 1u] = v64.y; }`;
}
