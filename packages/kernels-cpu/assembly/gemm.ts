// Note [GEMM as the BLAS libraries build it]
// C[m, n] (+)= A[m, k] @ B[k, n] for float32 and float64, in the layout of Goto and van de
// Geijn's GEMM: B is packed KC x NC at a time into NR-column micro-panels (k-major), A into
// MR-row micro-panels MC x KC at a time, and a register-blocked micro-kernel computes one
// MR x NR tile of C from one A and one B micro-panel. KC x NR of B (12 KiB) stays in L1,
// MC x KC of A (96 KiB) in L2, and the packed B block streams from L3. Packing reads any
// strides (row and column stride of each operand), so transposed and batched operands need
// no copies; C is row-major with row stride ldc. float32 accumulates in float32 as
// PyTorch's sgemm does.
// The micro-kernel is 3 x 12 float32 (3 x 6 float64): 9 accumulators, 3 B vectors and one
// broadcast A value are 13 v128 values, within the 16 that V8 keeps in x64 registers (a
// 4 x 16 tile spills). Where relaxed SIMD is on, each step is one fused multiply-add;
// without it the k-loop is unrolled by two, which measured 40 against 26 GFLOP/s in cache.
// The accumulators start from C when accumulating (a later KC block, or C given), so each C
// element adds its products in k order. Edge tiles (fewer than MR rows or NR columns) run
// the same kernel on a scratch tile and copy the valid part in and out.
import { madd, madd64 } from './simd';

export const MR = 3;
/** Bytes of one k-step of a B micro-panel: 12 float32 or 6 float64. */
export const PANEL_BYTES = 48;
export const KC = 256;
export const MC = 96;
const NC = 2040;

/** Bytes of scratch one gemm call needs (packed B block, packed A block, edge tile). */
export function gemmScratchBytes(): i32 {
  return KC * NC * 4 + MC * KC * 8 + MR * PANEL_BYTES + 64;
}

export function kernel32(kc: i32, a: usize, b: usize, c: usize, ldc: usize, accumulate: bool): void {
  const r1 = c + ldc, r2 = r1 + ldc;
  let c00 = f32x4.splat(0), c01 = f32x4.splat(0), c02 = f32x4.splat(0);
  let c10 = f32x4.splat(0), c11 = f32x4.splat(0), c12 = f32x4.splat(0);
  let c20 = f32x4.splat(0), c21 = f32x4.splat(0), c22 = f32x4.splat(0);
  if (accumulate) {
    c00 = v128.load(c); c01 = v128.load(c, 16); c02 = v128.load(c, 32);
    c10 = v128.load(r1); c11 = v128.load(r1, 16); c12 = v128.load(r1, 32);
    c20 = v128.load(r2); c21 = v128.load(r2, 16); c22 = v128.load(r2, 32);
  }
  let k = 0;
  if (!ASC_FEATURE_RELAXED_SIMD) {
    for (; k + 1 < kc; k += 2) {
      let b0 = v128.load(b), b1 = v128.load(b, 16), b2 = v128.load(b, 32);
      let av = v128.load32_splat(a);
      c00 = madd(av, b0, c00); c01 = madd(av, b1, c01); c02 = madd(av, b2, c02);
      av = v128.load32_splat(a, 4);
      c10 = madd(av, b0, c10); c11 = madd(av, b1, c11); c12 = madd(av, b2, c12);
      av = v128.load32_splat(a, 8);
      c20 = madd(av, b0, c20); c21 = madd(av, b1, c21); c22 = madd(av, b2, c22);
      b0 = v128.load(b, 48); b1 = v128.load(b, 64); b2 = v128.load(b, 80);
      av = v128.load32_splat(a, 12);
      c00 = madd(av, b0, c00); c01 = madd(av, b1, c01); c02 = madd(av, b2, c02);
      av = v128.load32_splat(a, 16);
      c10 = madd(av, b0, c10); c11 = madd(av, b1, c11); c12 = madd(av, b2, c12);
      av = v128.load32_splat(a, 20);
      c20 = madd(av, b0, c20); c21 = madd(av, b1, c21); c22 = madd(av, b2, c22);
      a += 24;
      b += 96;
    }
  }
  for (; k < kc; k++) {
    const b0 = v128.load(b), b1 = v128.load(b, 16), b2 = v128.load(b, 32);
    let av = v128.load32_splat(a);
    c00 = madd(av, b0, c00); c01 = madd(av, b1, c01); c02 = madd(av, b2, c02);
    av = v128.load32_splat(a, 4);
    c10 = madd(av, b0, c10); c11 = madd(av, b1, c11); c12 = madd(av, b2, c12);
    av = v128.load32_splat(a, 8);
    c20 = madd(av, b0, c20); c21 = madd(av, b1, c21); c22 = madd(av, b2, c22);
    a += 12;
    b += 48;
  }
  v128.store(c, c00); v128.store(c, c01, 16); v128.store(c, c02, 32);
  v128.store(r1, c10); v128.store(r1, c11, 16); v128.store(r1, c12, 32);
  v128.store(r2, c20); v128.store(r2, c21, 16); v128.store(r2, c22, 32);
}

export function kernel64(kc: i32, a: usize, b: usize, c: usize, ldc: usize, accumulate: bool): void {
  const r1 = c + ldc, r2 = r1 + ldc;
  let c00 = f64x2.splat(0), c01 = f64x2.splat(0), c02 = f64x2.splat(0);
  let c10 = f64x2.splat(0), c11 = f64x2.splat(0), c12 = f64x2.splat(0);
  let c20 = f64x2.splat(0), c21 = f64x2.splat(0), c22 = f64x2.splat(0);
  if (accumulate) {
    c00 = v128.load(c); c01 = v128.load(c, 16); c02 = v128.load(c, 32);
    c10 = v128.load(r1); c11 = v128.load(r1, 16); c12 = v128.load(r1, 32);
    c20 = v128.load(r2); c21 = v128.load(r2, 16); c22 = v128.load(r2, 32);
  }
  for (let k = 0; k < kc; k++) {
    const b0 = v128.load(b), b1 = v128.load(b, 16), b2 = v128.load(b, 32);
    let av = v128.load64_splat(a);
    c00 = madd64(av, b0, c00); c01 = madd64(av, b1, c01); c02 = madd64(av, b2, c02);
    av = v128.load64_splat(a, 8);
    c10 = madd64(av, b0, c10); c11 = madd64(av, b1, c11); c12 = madd64(av, b2, c12);
    av = v128.load64_splat(a, 16);
    c20 = madd64(av, b0, c20); c21 = madd64(av, b1, c21); c22 = madd64(av, b2, c22);
    a += 24;
    b += 48;
  }
  v128.store(c, c00); v128.store(c, c01, 16); v128.store(c, c02, 32);
  v128.store(r1, c10); v128.store(r1, c11, 16); v128.store(r1, c12, 32);
  v128.store(r2, c20); v128.store(r2, c21, 16); v128.store(r2, c22, 32);
}

/** MR-row micro-panels of A (rows past `mc` are zeros): element (i, k) at ((i / MR) * kc + k) * MR + i % MR. */
function packA<T>(mc: i32, kc: i32, a: usize, rs: i32, cs: i32, dst: usize): void {
  const size = sizeof<T>();
  for (let i = 0; i < mc; i += MR) {
    const rows = min(MR, mc - i);
    const src = a + <usize>(i * rs) * size;
    if (rows == MR) {
      const s1 = src + <usize>rs * size, s2 = s1 + <usize>rs * size;
      for (let k = 0; k < kc; k++) {
        const off = <usize>(k * cs) * size;
        store<T>(dst, load<T>(src + off));
        store<T>(dst + size, load<T>(s1 + off));
        store<T>(dst + 2 * size, load<T>(s2 + off));
        dst += <usize>MR * size;
      }
    } else {
      for (let k = 0; k < kc; k++) {
        for (let r = 0; r < MR; r++) {
          store<T>(dst, r < rows ? load<T>(src + <usize>(r * rs + k * cs) * size) : <T>0);
          dst += size;
        }
      }
    }
  }
}

/** NR-column micro-panels of B (columns past `nc` are zeros), k-major. */
function packB<T>(kc: i32, nc: i32, b: usize, rs: i32, cs: i32, dst: usize): void {
  const size = sizeof<T>();
  const nr = PANEL_BYTES / <i32>size;
  for (let j = 0; j < nc; j += nr) {
    const cols = min(nr, nc - j);
    let src = b + <usize>(j * cs) * size;
    if (cols == nr && cs == 1) {
      for (let k = 0; k < kc; k++) {
        v128.store(dst, v128.load(src));
        v128.store(dst, v128.load(src, 16), 16);
        v128.store(dst, v128.load(src, 32), 32);
        src += <usize>rs * size;
        dst += PANEL_BYTES;
      }
    } else if (cols == nr) {
      // a full panel across rows of B (B transposed, or a convolution's columns read by
      // position): the 12 (or 6) source columns are cs apart, gathered one k at a time
      const step = <usize>cs * size;
      for (let k = 0; k < kc; k++) {
        let s = src;
        for (let q = 0; q < nr; q++, s += step) store<T>(dst + <usize>q * size, load<T>(s));
        src += <usize>rs * size;
        dst += PANEL_BYTES;
      }
    } else {
      for (let k = 0; k < kc; k++) {
        for (let q = 0; q < nr; q++) store<T>(dst + <usize>q * size, q < cols ? load<T>(src + <usize>(q * cs) * size) : <T>0);
        src += <usize>rs * size;
        dst += PANEL_BYTES;
      }
    }
  }
}

/** MR-row panels of all of A [m, k] (`packA` with kc = k), for `gemmPackedA`: element (i, k) at ((i / MR) * k + k) * MR + i % MR. */
export function packAll<T>(m: i32, k: i32, a: usize, rsa: i32, csa: i32, dst: usize): void {
  packA<T>(m, k, a, rsa, csa, dst);
}

/** Bytes `packAll` writes. */
export function packedAllBytes(m: i32, k: i32, size: i32): i32 {
  return (m + MR - 1) / MR * MR * k * size;
}

/**
 * `gemm` with A packed beforehand by `packAll`, so that a caller multiplying one A by many
 * B (a convolution's weights by its windows of columns) packs it once.
 */
export function gemmPackedA<T>(m: i32, n: i32, k: i32, packed: usize, b: usize, rsb: i32, csb: i32, c: usize, ldc: i32, accumulate: bool, scratch: usize): void {
  run<T>(m, n, k, 0, 0, 0, packed, b, rsb, csb, 0, c, ldc, accumulate, scratch);
}

export function gemm<T>(
  m: i32, n: i32, k: i32,
  a: usize, rsa: i32, csa: i32,
  b: usize, rsb: i32, csb: i32,
  c: usize, ldc: i32, accumulate: bool, scratch: usize,
): void {
  run<T>(m, n, k, a, rsa, csa, 0, b, rsb, csb, 0, c, ldc, accumulate, scratch);
}

// Note [Small GEMMs on the pool]
// A GEMM whose B is one packed block (k <= KC and n at most NC float32 columns' bytes) can
// be split over rows of A with B packed once: `gemmPackB` packs it (into memory the caller
// owns), and each pool task (`sgemmPackedB`, `dgemmPackedB`) packs only its own rows of A
// and runs the micro-kernels on the shared panels. Splitting by rows or columns the usual
// way makes every task pack all of the other operand, which for a 128^3 product costs what
// the second thread saves. Each element of C is computed by the same kernel steps (one
// fused multiply-add per k, in k order, in a register tile or the edge tile) however the
// rows are split, so the result is the one-thread result bit for bit.

/** Whether B [k, n] of element size `size` packs into one block (Note [Small GEMMs on the pool]). */
export function gemmFitsOneBlock(k: i32, n: i32, size: i32): bool {
  return k <= KC && n <= NC * 4 / size;
}

/** Bytes `gemmPackB` writes for B [k, n] of element size `size`. */
export function gemmPackedBBytes(k: i32, n: i32, size: i32): i32 {
  const nr = PANEL_BYTES / size;
  return (n + nr - 1) / nr * nr * k * size;
}

/** Packs B [k, n] (k <= KC, n within one block) into `dst` for `gemmPackedB`. */
export function gemmPackB<T>(k: i32, n: i32, b: usize, rsb: i32, csb: i32, dst: usize): void {
  packB<T>(k, n, b, rsb, csb, dst);
}

/** `gemm` of rows of A against B packed by `gemmPackB` (Note [Small GEMMs on the pool]). */
export function gemmPackedB<T>(m: i32, n: i32, k: i32, a: usize, rsa: i32, csa: i32, packed: usize, c: usize, ldc: i32, accumulate: bool, scratch: usize): void {
  run<T>(m, n, k, a, rsa, csa, 0, 0, 0, 0, packed, c, ldc, accumulate, scratch);
}

/**
 * The loops of Note [GEMM as the BLAS libraries build it]; A comes packed by `packAll` when
 * `packedAll` is not 0, B by `gemmPackB` when `packedBAll` is not 0 (then B is one block).
 */
function run<T>(
  m: i32, n: i32, k: i32,
  a: usize, rsa: i32, csa: i32, packedAll: usize,
  b: usize, rsb: i32, csb: i32, packedBAll: usize,
  c: usize, ldc: i32, accumulate: bool, scratch: usize,
): void {
  const size = sizeof<T>();
  const nr = PANEL_BYTES / <i32>size;
  const packedB = packedBAll != 0 ? packedBAll : (scratch + 15) & ~15;
  const packedA = ((scratch + 15) & ~15) + KC * NC * 4;
  const tile = packedA + MC * KC * 8;
  const ldcBytes = <usize>ldc * size;
  // The packed B block is NC float32 columns wide in bytes: half as many float64 columns.
  const ncMax = NC * 4 / <i32>size;
  for (let jc = 0; jc < n; jc += ncMax) {
    const nc = min(ncMax, n - jc);
    for (let pc = 0; pc < k; pc += KC) {
      const kc = min(KC, k - pc);
      const add = accumulate || pc > 0;
      if (packedBAll == 0) packB<T>(kc, nc, b + <usize>(pc * rsb + jc * csb) * size, rsb, csb, packedB);
      for (let ic = 0; ic < m; ic += MC) {
        const mc = min(MC, m - ic);
        if (packedAll == 0) packA<T>(mc, kc, a + <usize>(ic * rsa + pc * csa) * size, rsa, csa, packedA);
        for (let jr = 0; jr < nc; jr += nr) {
          const cols = min(nr, nc - jr);
          const bp = packedB + <usize>(jr * kc) * size;
          for (let ir = 0; ir < mc; ir += MR) {
            const rows = min(MR, mc - ir);
            const ap = packedAll == 0 ? packedA + <usize>(ir * kc) * size : packedAll + (<usize>((ic + ir) / MR) * k + pc) * MR * size;
            const cp = c + (<usize>(ic + ir) * ldc + jc + jr) * size;
            if (rows == MR && cols == nr) {
              if (size == 4) kernel32(kc, ap, bp, cp, ldcBytes, add);
              else kernel64(kc, ap, bp, cp, ldcBytes, add);
            } else {
              if (add) {
                for (let r = 0; r < rows; r++) {
                  for (let q = 0; q < cols; q++) store<T>(tile + <usize>(r * nr + q) * size, load<T>(cp + (<usize>r * ldc + q) * size));
                }
              }
              if (size == 4) kernel32(kc, ap, bp, tile, PANEL_BYTES, add);
              else kernel64(kc, ap, bp, tile, PANEL_BYTES, add);
              for (let r = 0; r < rows; r++) {
                for (let q = 0; q < cols; q++) store<T>(cp + (<usize>r * ldc + q) * size, load<T>(tile + <usize>(r * nr + q) * size));
              }
            }
          }
        }
      }
    }
  }
}

/**
 * float32 C[m, n] (+)= A @ B; A's element (i, k) at a + 4 * (i * rsa + k * csa), B's
 * (k, j) at b + 4 * (k * rsb + j * csb), C row-major with row stride ldc (elements).
 * `accumulate`: add to C (which holds beta * bias, say) instead of overwriting it.
 */
export function sgemm(m: i32, n: i32, k: i32, a: usize, rsa: i32, csa: i32, b: usize, rsb: i32, csb: i32, c: usize, ldc: i32, accumulate: bool, scratch: usize): void {
  gemm<f32>(m, n, k, a, rsa, csa, b, rsb, csb, c, ldc, accumulate, scratch);
}

/** float64 `sgemm`. */
export function dgemm(m: i32, n: i32, k: i32, a: usize, rsa: i32, csa: i32, b: usize, rsb: i32, csb: i32, c: usize, ldc: i32, accumulate: bool, scratch: usize): void {
  gemm<f64>(m, n, k, a, rsa, csa, b, rsb, csb, c, ldc, accumulate, scratch);
}

/** float32 B packed for `sgemmPackedB` (Note [Small GEMMs on the pool]). */
export function sgemmPackB(k: i32, n: i32, b: usize, rsb: i32, csb: i32, dst: usize): void {
  gemmPackB<f32>(k, n, b, rsb, csb, dst);
}

/** float64 `sgemmPackB`. */
export function dgemmPackB(k: i32, n: i32, b: usize, rsb: i32, csb: i32, dst: usize): void {
  gemmPackB<f64>(k, n, b, rsb, csb, dst);
}

/** float32 C[m, n] (+)= A @ B for B packed by `sgemmPackB`: a pool task over rows of A and C. */
export function sgemmPackedB(m: i32, n: i32, k: i32, a: usize, rsa: i32, csa: i32, packed: usize, c: usize, ldc: i32, accumulate: bool, scratch: usize): void {
  gemmPackedB<f32>(m, n, k, a, rsa, csa, packed, c, ldc, accumulate, scratch);
}

/** float64 `sgemmPackedB`. */
export function dgemmPackedB(m: i32, n: i32, k: i32, a: usize, rsa: i32, csa: i32, packed: usize, c: usize, ldc: i32, accumulate: bool, scratch: usize): void {
  gemmPackedB<f64>(m, n, k, a, rsa, csa, packed, c, ldc, accumulate, scratch);
}
