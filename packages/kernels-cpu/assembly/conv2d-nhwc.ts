// Note [Channels-last convolution as an implicit GEMM]
// In channels-last (NHWC) memory a convolution's output is row-major [positions, Cout]:
// position p = (n * outH + oh) * outW + ow, its Cout channels contiguous. So the forward is
// one GEMM per group with the positions as rows:
//   out[p, g * cog + o] (+)= sum over k of A[p, k] * B[k, o]
// with k = tap * cig + c (tap t = i * kW + j, tap-major, channel-minor), A[p, k] the pixel
// (n, oh sH - pH + i dH, ow sW - pW + j dW, g * cig + c) of the NHWC image (0 in the padding),
// and B[k, o] = weight[g * cog + o, c, i, j]. A row of A is kH * kW runs of cig contiguous
// channels, so A is never materialised (no im2col): packing A's MR-row micro-panels (Note
// [GEMM as the BLAS libraries build it], gemm.ts) gathers them straight from the image, three
// runs interleaved four channels at a time with SIMD shuffles, a run in the padding read from a
// block of zeros. B (the weights, tap-major) is packed once per task for all groups and KC
// blocks. The micro-kernels are gemm.ts's, writing C rows Cout apart: the NHWC output itself.
// A 1x1 stride-1 convolution is the plain GEMM [N H W, C] x [C, Cout] the same way.
// Work unit: a block of MC positions (all groups); a position's outputs are computed by one
// unit in k order whatever the split, so results do not depend on the thread count. The
// bias, when given, is written into the output first and the GEMM accumulates onto it.
import { KC, MC, MR, PANEL_BYTES, kernel32, kernel64 } from './gemm';
import { Geometry } from './geometry';
import { madd } from './simd';

// Note [Narrow edge panels]
// Output channels come in 12-column panels; a group's last panel of 4 or 8 columns (64
// channels: 5 panels and 4 columns) would run the 3 x 12 kernel on a scratch tile, two
// thirds or one third of it wasted: a sixth of all the work for 64 channels. For float32
// these panels run a 6 x 4 or 6 x 8 kernel instead, over two adjacent 3-row micro-panels
// of A, writing C directly (6 or 12 accumulators: independent chains, as the 3 x 12's 9).
// Each element still adds its products in k order with one multiply-add per step.

/** C[6, 4] (+)= two 3-row A micro-panels by the first 4 columns of a 12-column B panel. */
export function kernel32n4(kc: i32, a0: usize, a1: usize, b: usize, c: usize, ldc: usize, accumulate: bool): void {
  const r1 = c + ldc, r2 = r1 + ldc, r3 = r2 + ldc, r4 = r3 + ldc, r5 = r4 + ldc;
  let c0 = f32x4.splat(0), c1 = f32x4.splat(0), c2 = f32x4.splat(0), c3 = f32x4.splat(0), c4 = f32x4.splat(0), c5 = f32x4.splat(0);
  if (accumulate) {
    c0 = v128.load(c); c1 = v128.load(r1); c2 = v128.load(r2); c3 = v128.load(r3); c4 = v128.load(r4); c5 = v128.load(r5);
  }
  for (let k = 0; k < kc; k++) {
    const bv = v128.load(b);
    c0 = madd(v128.load32_splat(a0), bv, c0);
    c1 = madd(v128.load32_splat(a0, 4), bv, c1);
    c2 = madd(v128.load32_splat(a0, 8), bv, c2);
    c3 = madd(v128.load32_splat(a1), bv, c3);
    c4 = madd(v128.load32_splat(a1, 4), bv, c4);
    c5 = madd(v128.load32_splat(a1, 8), bv, c5);
    a0 += 12;
    a1 += 12;
    b += PANEL_BYTES;
  }
  v128.store(c, c0); v128.store(r1, c1); v128.store(r2, c2); v128.store(r3, c3); v128.store(r4, c4); v128.store(r5, c5);
}

/** C[6, 8] (+)= two 3-row A micro-panels by the first 8 columns of a 12-column B panel. */
export function kernel32n8(kc: i32, a0: usize, a1: usize, b: usize, c: usize, ldc: usize, accumulate: bool): void {
  const r1 = c + ldc, r2 = r1 + ldc, r3 = r2 + ldc, r4 = r3 + ldc, r5 = r4 + ldc;
  let c00 = f32x4.splat(0), c10 = f32x4.splat(0), c20 = f32x4.splat(0), c30 = f32x4.splat(0), c40 = f32x4.splat(0), c50 = f32x4.splat(0);
  let c01 = f32x4.splat(0), c11 = f32x4.splat(0), c21 = f32x4.splat(0), c31 = f32x4.splat(0), c41 = f32x4.splat(0), c51 = f32x4.splat(0);
  if (accumulate) {
    c00 = v128.load(c); c10 = v128.load(r1); c20 = v128.load(r2); c30 = v128.load(r3); c40 = v128.load(r4); c50 = v128.load(r5);
    c01 = v128.load(c, 16); c11 = v128.load(r1, 16); c21 = v128.load(r2, 16); c31 = v128.load(r3, 16); c41 = v128.load(r4, 16); c51 = v128.load(r5, 16);
  }
  for (let k = 0; k < kc; k++) {
    const b0 = v128.load(b), b1 = v128.load(b, 16);
    let av = v128.load32_splat(a0);
    c00 = madd(av, b0, c00); c01 = madd(av, b1, c01);
    av = v128.load32_splat(a0, 4);
    c10 = madd(av, b0, c10); c11 = madd(av, b1, c11);
    av = v128.load32_splat(a0, 8);
    c20 = madd(av, b0, c20); c21 = madd(av, b1, c21);
    av = v128.load32_splat(a1);
    c30 = madd(av, b0, c30); c31 = madd(av, b1, c31);
    av = v128.load32_splat(a1, 4);
    c40 = madd(av, b0, c40); c41 = madd(av, b1, c41);
    av = v128.load32_splat(a1, 8);
    c50 = madd(av, b0, c50); c51 = madd(av, b1, c51);
    a0 += 12;
    a1 += 12;
    b += PANEL_BYTES;
  }
  v128.store(c, c00); v128.store(r1, c10); v128.store(r2, c20); v128.store(r3, c30); v128.store(r4, c40); v128.store(r5, c50);
  v128.store(c, c01, 16); v128.store(r1, c11, 16); v128.store(r2, c21, 16); v128.store(r3, c31, 16); v128.store(r4, c41, 16); v128.store(r5, c51, 16);
}

// @ts-ignore: decorator
@inline function roundUp(v: usize): usize {
  return (v + 15) & ~15;
}

/** Bytes of one group's packed weights: NR-column panels over all K rows. */
function packedGroupBytes(g: Geometry, size: i32): i32 {
  const nr = PANEL_BYTES / size;
  const cog = g.Cout / g.G, K = g.C / g.G * g.kH * g.kW;
  return (cog + nr - 1) / nr * nr * K * size;
}

/**
 * Bytes of scratch a task of `params`' channels-last convolution needs: all groups' packed
 * weights, one packed MC x KC block of A, an edge tile, a run of zeros and the block's row table.
 */
export function conv2dNhwcScratchBytes(params: usize, size: i32): i32 {
  const g = changetype<Geometry>(params);
  return g.G * packedGroupBytes(g, size) + MC * KC * size + MR * PANEL_BYTES + (g.C / g.G) * size + MC * 12 + 5 * 16;
}

/** Group gi's weights as B [K, cog] (k = tap * cig + c), NR-column panels, each KC block after the last. */
function packWeights<T>(g: Geometry, gi: i32, dst: usize): void {
  const size = sizeof<T>();
  const nr = PANEL_BYTES / size;
  const cig = g.C / g.G, cog = g.Cout / g.G;
  const taps = g.kH * g.kW, K = cig * taps;
  const panels = (cog + nr - 1) / nr;
  const wg = g.weight + <usize>gi * cog * K * size;
  for (let pc = 0; pc < K; pc += KC) {
    const kc = min(KC, K - pc);
    for (let jp = 0; jp < panels; jp++) {
      for (let k = pc; k < pc + kc; k++) {
        const t = k / cig, c = k % cig;
        for (let q = 0; q < nr; q++) {
          const o = jp * nr + q;
          store<T>(dst, o < cog ? load<T>(wg + (<usize>o * K + <usize>c * taps + t) * size) : <T>0);
          dst += size;
        }
      }
    }
  }
}

/** len elements of three runs interleaved into dst (element q of run r at dst[q * 3 + r]). */
// @ts-ignore: decorator
@inline function interleave3<T>(s0: usize, s1: usize, s2: usize, len: i32, dst: usize): void {
  const size = sizeof<T>();
  let q = 0;
  if (size == 4) {
    for (; q + 4 <= len; q += 4) {
      const a = v128.load(s0), b = v128.load(s1), c = v128.load(s2);
      // a0 b0 c0 a1 | b1 c1 a2 b2 | c2 a3 b3 c3
      const ab01 = v128.shuffle<u32>(a, b, 0, 4, 1, 5);
      const bc12 = v128.shuffle<u32>(b, c, 1, 5, 2, 6);
      const ab32 = v128.shuffle<u32>(a, b, 3, 7, 2, 6);
      v128.store(dst, v128.shuffle<u32>(ab01, c, 0, 1, 4, 2));
      v128.store(dst, v128.shuffle<u32>(bc12, a, 0, 1, 6, 2), 16);
      v128.store(dst, v128.shuffle<u32>(c, ab32, 2, 4, 5, 3), 32);
      s0 += 16; s1 += 16; s2 += 16;
      dst += 48;
    }
  } else {
    for (; q + 2 <= len; q += 2) {
      const a = v128.load(s0), b = v128.load(s1), c = v128.load(s2);
      // a0 b0 | c0 a1 | b1 c1
      v128.store(dst, v128.shuffle<u64>(a, b, 0, 2));
      v128.store(dst, v128.shuffle<u64>(c, a, 0, 3), 16);
      v128.store(dst, v128.shuffle<u64>(b, c, 1, 3), 32);
      s0 += 16; s1 += 16; s2 += 16;
      dst += 48;
    }
  }
  for (; q < len; q++) {
    store<T>(dst, load<T>(s0));
    store<T>(dst + size, load<T>(s1));
    store<T>(dst + 2 * size, load<T>(s2));
    s0 += size; s1 += size; s2 += size;
    dst += 3 * size;
  }
}

/**
 * Packs A's rows [r0, r0 + mc) of the block (row table `rowsAt`: per row the image offset of
 * its batch element and its top-left pixel ih0, iw0) and columns [pc, pc + kc) of group gi
 * into MR-row micro-panels at dst, gemm.ts's packed-A layout.
 */
function packImage<T>(g: Geometry, gi: i32, rowsAt: usize, mc: i32, pc: i32, kc: i32, zeros: usize, dst: usize): void {
  const size = sizeof<T>();
  const cig = g.C / g.G, C = g.C, W = g.W, H = g.H, kW = g.kW;
  const chan = g.image + <usize>gi * cig * size;
  for (let ir = 0; ir < mc; ir += MR) {
    const rows = min(MR, mc - ir);
    let d = dst + <usize>ir * kc * size;
    let k = pc;
    const end = pc + kc;
    while (k < end) {
      const t = k / cig, c = k % cig;
      const len = min(cig - c, end - k);
      const dh = (t / kW) * g.dH, dw = (t % kW) * g.dW;
      let s0 = zeros, s1 = zeros, s2 = zeros;
      for (let r = 0; r < rows; r++) {
        const row = rowsAt + <usize>(ir + r) * 12;
        const ih = load<i32>(row, 4) + dh, iw = load<i32>(row, 8) + dw;
        let s = zeros;
        if (ih >= 0 && ih < H && iw >= 0 && iw < W) s = chan + (<usize>load<i32>(row) + <usize>(ih * W + iw) * C + c) * size;
        if (r == 0) s0 = s;
        else if (r == 1) s1 = s;
        else s2 = s;
      }
      interleave3<T>(s0, s1, s2, len, d);
      d += <usize>len * MR * size;
      k += len;
    }
  }
}

function forward<T>(g: Geometry, u0: i32, u1: i32, scratch: usize): void {
  const size = sizeof<T>();
  const nr = PANEL_BYTES / size;
  const G = g.G, cig = g.C / G, cog = g.Cout / G, Cout = g.Cout;
  const K = cig * g.kH * g.kW, L = g.outH * g.outW, P = g.N * L;
  const groupBytes = <usize>packedGroupBytes(g, size);
  const packedB = roundUp(scratch);
  const packedA = roundUp(packedB + <usize>G * groupBytes);
  const tile = roundUp(packedA + <usize>MC * KC * size);
  const zeros = roundUp(tile + <usize>MR * PANEL_BYTES);
  const rowsAt = roundUp(zeros + <usize>cig * size);
  memory.fill(zeros, 0, <usize>cig * size);
  for (let gi = 0; gi < G; gi++) packWeights<T>(g, gi, packedB + <usize>gi * groupBytes);
  const panelBytes = <usize>(cog + nr - 1) / nr * nr * size;
  const ldc = <usize>Cout * size;
  for (let u = u0; u < u1; u++) {
    const p0 = u * MC, mc = min(MC, P - p0);
    for (let r = 0; r < mc; r++) {
      const p = p0 + r, n = p / L, l = p % L;
      const row = rowsAt + <usize>r * 12;
      store<i32>(row, n * g.H * g.W * g.C);
      store<i32>(row, (l / g.outW) * g.sH - g.pH, 4);
      store<i32>(row, (l % g.outW) * g.sW - g.pW, 8);
    }
    for (let gi = 0; gi < G; gi++) {
      const out = g.cols + (<usize>p0 * Cout + gi * cog) * size;
      if (g.bias != 0) {
        const bias = g.bias + <usize>gi * cog * size;
        for (let r = 0; r < mc; r++) memory.copy(out + <usize>r * ldc, bias, <usize>cog * size);
      }
      const bg = packedB + <usize>gi * groupBytes;
      for (let pc = 0; pc < K; pc += KC) {
        const kc = min(KC, K - pc);
        const add = pc > 0 || g.bias != 0;
        packImage<T>(g, gi, rowsAt, mc, pc, kc, zeros, packedA);
        const block = bg + panelBytes * pc;
        for (let jr = 0; jr < cog; jr += nr) {
          const cols = min(nr, cog - jr);
          const bp = block + <usize>jr * kc * size;
          let ir = 0;
          if (size == 4 && (cols == 4 || cols == 8)) {
            // Note [Narrow edge panels]
            for (; ir + 2 * MR <= mc; ir += 2 * MR) {
              const ap = packedA + <usize>ir * kc * size;
              const cp = out + (<usize>ir * Cout + jr) * size;
              if (cols == 4) kernel32n4(kc, ap, ap + <usize>MR * kc * size, bp, cp, ldc, add);
              else kernel32n8(kc, ap, ap + <usize>MR * kc * size, bp, cp, ldc, add);
            }
          }
          for (; ir < mc; ir += MR) {
            const rows = min(MR, mc - ir);
            const ap = packedA + <usize>ir * kc * size;
            const cp = out + (<usize>ir * Cout + jr) * size;
            if (rows == MR && cols == nr) {
              if (size == 4) kernel32(kc, ap, bp, cp, ldc, add);
              else kernel64(kc, ap, bp, cp, ldc, add);
            } else {
              if (add) {
                for (let r = 0; r < rows; r++) {
                  for (let q = 0; q < cols; q++) store<T>(tile + <usize>(r * nr + q) * size, load<T>(cp + <usize>r * ldc + <usize>q * size));
                }
              }
              if (size == 4) kernel32(kc, ap, bp, tile, PANEL_BYTES, add);
              else kernel64(kc, ap, bp, tile, PANEL_BYTES, add);
              for (let r = 0; r < rows; r++) {
                for (let q = 0; q < cols; q++) store<T>(cp + <usize>r * ldc + <usize>q * size, load<T>(tile + <usize>(r * nr + q) * size));
              }
            }
          }
        }
      }
    }
  }
}

/** float32 channels-last forward, position blocks [u0, u1) (Note [Channels-last convolution as an implicit GEMM]). */
export function conv2dNhwcForward32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  forward<f32>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dNhwcForward64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  forward<f64>(changetype<Geometry>(params), u0, u1, scratch);
}
