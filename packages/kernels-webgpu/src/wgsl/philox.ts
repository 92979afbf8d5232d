/**
 * Note [Philox4x32-10 in WGSL]
 * The counter-based generator of Salmon et al. (Random123), which PyTorch's CUDA backend
 * draws from through curand: 10 rounds over a 128-bit counter (4 u32 words) with a 64-bit
 * key bumped by the Weyl constants between rounds; each round multiplies two counter words
 * by the Philox constants, keeping both halves of the 64-bit product. WGSL has no
 * `mulhi`, so the high half comes from four 16 x 16-bit products. Each output block is a
 * pure function of (counter, key): any invocation can make any block, in any order, which
 * is what lets every element of a tensor draw its own value (Note [Counter-based random
 * streams] in core). `philox4x32` below is the same function on the host, checked against
 * Random123's known-answer vectors in test/random.test.ts and used there to check the
 * device bit for bit.
 */
export const PHILOX_WGSL = /* wgsl */ `
fn ph_mulhilo(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>(a * b, p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
fn philox4x32(counter: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
  var c = counter;
  var k = key;
  for (var r = 0u; r < 10u; r++) {
    if (r > 0u) { k = k + vec2<u32>(0x9E3779B9u, 0xBB67AE85u); }
    let p0 = ph_mulhilo(0xD2511F53u, c.x);
    let p1 = ph_mulhilo(0xCD9E8D57u, c.z);
    c = vec4<u32>(p1.y ^ c.y ^ k.x, p1.x, p0.y ^ c.w ^ k.y, p0.x);
  }
  return c;
}
// A uniform float in [0, 1) from the low 24 bits of a word (as PyTorch's uniform_real for float).
fn ph_uniform(w: u32) -> f32 { return f32(w & 0xffffffu) * 5.9604644775390625e-8; }
// A uniform float in (0, 1), never 0 or 1: for logarithms.
fn ph_open(w: u32) -> f32 { return (f32(w >> 8u) + 0.5) * 5.9604644775390625e-8; }
`;

/** 64-bit unsigned helpers (lo, hi) for randint's 64-bit draws. */
export const U64_WGSL = /* wgsl */ `
fn u64_ge(a: vec2<u32>, b: vec2<u32>) -> bool { return a.y > b.y || (a.y == b.y && a.x >= b.x); }
fn u64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x)); }
fn u64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { let lo = a.x + b.x; return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x)); }
// a mod m (m > 0) by binary long division; a remainder past 2^64 wraps, which the subtraction undoes.
fn u64_mod(a: vec2<u32>, m: vec2<u32>) -> vec2<u32> {
  var r = vec2<u32>(0u, 0u);
  for (var i = 63i; i >= 0i; i--) {
    let bit = select((a.x >> u32(i)) & 1u, (a.y >> u32(i - 32i)) & 1u, i >= 32i);
    let carry = r.y >> 31u;
    r = vec2<u32>((r.x << 1u) | bit, (r.y << 1u) | (r.x >> 31u));
    if (carry == 1u || u64_ge(r, m)) { r = u64_sub(r, m); }
  }
  return r;
}
`;

const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;
const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;

/** The high 32 bits of a * b (u32 operands). */
function mulhi(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return (p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16)) >>> 0;
}

/** Philox4x32-10 on the host: the block of `counter` (4 u32) under `key` (2 u32). */
export function philox4x32(counter: readonly number[], key: readonly number[]): Uint32Array {
  let [c0, c1, c2, c3] = counter.map((x) => x >>> 0);
  let [k0, k1] = key.map((x) => x >>> 0);
  for (let r = 0; r < 10; r++) {
    if (r > 0) {
      k0 = (k0 + W0) >>> 0;
      k1 = (k1 + W1) >>> 0;
    }
    const hi0 = mulhi(M0, c0);
    const lo0 = Math.imul(M0, c0) >>> 0;
    const hi1 = mulhi(M1, c2);
    const lo1 = Math.imul(M1, c2) >>> 0;
    [c0, c1, c2, c3] = [(hi1 ^ c1 ^ k0) >>> 0, lo1, (hi0 ^ c3 ^ k1) >>> 0, lo0];
  }
  return Uint32Array.of(c0, c1, c2, c3);
}
