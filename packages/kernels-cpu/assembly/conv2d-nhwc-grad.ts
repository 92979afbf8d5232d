// Note [Channels-last convolution weight gradient]
// With NHWC operands the weight gradient of group g is one GEMM over the positions
// p = (n * outH + oh) * outW + ow:
//   gw_g[o, k] = sum over p of grad_out[p, g * cog + o] * A[p, k]
// with A the implicit-GEMM rows of the forward (Note [Channels-last convolution as an
// implicit GEMM]: k = tap * cig + c, a row kH * kW runs of cig contiguous input channels,
// 0 in the padding). It runs as gemm.ts's GEMM with m = cog (grad_out^T), n = the columns
// k and the reduction over the P positions, PB = KC positions per block, so every product
// is a full-depth micro-kernel call whose C tile lives in a small accumulator ([cog, KB],
// L1/L2) across the whole reduction:
//  - B (A's rows, positions by columns) is packed straight from the NHWC image into NR-column
//    micro-panels: a panel's row at a position is NR consecutive columns, i.e. runs of
//    channels of one or two taps, copied 16 bytes at a time (no gathered scratch, no
//    transpose). The runs ("segments": tap, channel, panel, lane, length) depend only on the
//    unit's columns and are listed once per unit; a position whose window lies inside the
//    image copies them with no bounds tests, one at the border tests each tap (zeros in the
//    padding).
//  - A (grad_out^T) is packed from grad_out's rows in place (MR consecutive channels per
//    position), MCW rows at a time.
//  - The micro-kernels are gemm.ts's 3 x 12 (3 x 6 float64) and, for a 4- or 8-column
//    float32 edge panel (64 input channels: 5 panels and 4 columns), conv2d-nhwc.ts's 6 x 4 /
//    6 x 8 (Note [Narrow edge panels]).
// (The earlier version gathered A's rows into scratch and multiplied A^T by grad_out with
// m = the columns: a transposing pack and a 4-wide edge panel of cog = 64 on the scratch tile
// made it slower than core's copy + the NCHW kernel for 3x3.)
// Work unit: (group, block of KB columns); a unit owns its block of gw and sums all positions
// itself in order (one multiply-add per position, blocks of PB in order), so the bits do not
// depend on the thread count. The block is finally scattered into gw's [Cout, cig, kH, kW]
// layout (k = c * taps + tap).
import { KC, MR, PANEL_BYTES, gemm, gemmScratchBytes, kernel32, kernel64 } from './gemm';
import { kernel32n4, kernel32n8 } from './conv2d-nhwc';
import { Geometry } from './geometry';
import { addInto } from './im2col';

/** Positions per block (the GEMM's reduction block, gemm.ts's KC). */
const PB = KC;
/** Columns of gw per work unit (a multiple of both NRs, 12 and 6). */
export const KB = 96;
/** Rows of grad_out^T (output channels) packed at a time. */
const MCW = 192;
/** i32 words per segment: tap offset (bytes), dh, dw, channel offset (bytes), panel, lane (bytes), length (bytes). */
const SEG = 7;
/** Bytes of accumulators a task keeps side by side, and at most how many units (Note [Channels-last convolution weight gradient]). */
const ACC_BYTES = 256 * 1024;
const MAX_TOGETHER = 8;

// @ts-ignore: decorator
@inline function roundUp(v: usize): usize {
  return (v + 15) & ~15;
}

// @ts-ignore: decorator
@inline function copyBytes(d: usize, s: usize, n: i32): void {
  for (; n >= 16; n -= 16, d += 16, s += 16) v128.store(d, v128.load(s));
  if (n >= 8) {
    store<u64>(d, load<u64>(s));
    d += 8;
    s += 8;
    n -= 8;
  }
  if (n >= 4) store<u32>(d, load<u32>(s));
}

// @ts-ignore: decorator
@inline function zeroBytes(d: usize, n: i32): void {
  for (; n >= 16; n -= 16, d += 16) v128.store(d, i64x2.splat(0));
  if (n >= 8) {
    store<u64>(d, 0);
    d += 8;
    n -= 8;
  }
  if (n >= 4) store<u32>(d, 0);
}

function rowsPacked(cog: i32): i32 {
  const m = min(cog, MCW);
  return (m + MR - 1) / MR * MR;
}

/** Bytes of scratch a task of `params`' channels-last weight gradient needs. */
export function conv2dNhwcWeightGradScratchBytes(params: usize, size: i32): i32 {
  const g = changetype<Geometry>(params);
  const cog = g.Cout / g.G;
  const together = unitsTogether(cog, size);
  return PB * KB * size + rowsPacked(cog) * PB * size + 16 + together * cog * KB * size + MR * PANEL_BYTES + together * KB * SEG * 4 + PB * 16 + 8 * 16;
}

/** MR-row micro-panels of grad_out^T rows [0, mc) over pb positions: element (i, k) at ((i / MR) * pb + k) * MR + i % MR. */
function packRows<T>(mc: i32, pb: i32, src: usize, ld: usize, dst: usize): void {
  const size = sizeof<T>();
  for (let i = 0; i < mc; i += MR) {
    const rows = min(MR, mc - i);
    let s = src + <usize>i * size;
    if (rows == MR && size == 4) {
      // 16 bytes per position, stored 12 apart (the next store overwrites the 4th lane; the
      // last position's runs into the 16 bytes of slack after the packed block)
      let k = 0;
      for (; k + 1 < pb; k++, s += ld, dst += 12) v128.store(dst, v128.load(s));
      store<f32>(dst, load<f32>(s));
      store<f32>(dst, load<f32>(s, 4), 4);
      store<f32>(dst, load<f32>(s, 8), 8);
      dst += 12;
    } else if (rows == MR) {
      for (let k = 0; k < pb; k++, s += ld, dst += <usize>MR * size) {
        store<T>(dst, load<T>(s));
        store<T>(dst + size, load<T>(s + size));
        store<T>(dst + 2 * size, load<T>(s + 2 * size));
      }
    } else {
      for (let k = 0; k < pb; k++, s += ld, dst += <usize>MR * size) {
        for (let r = 0; r < MR; r++) store<T>(dst + <usize>r * size, r < rows ? load<T>(s + <usize>r * size) : <T>0);
      }
    }
  }
}

/** Units (column blocks of one group) a task runs side by side: their accumulators within about ACC_BYTES. */
function unitsTogether(cog: i32, size: i32): i32 {
  return max(1, min(MAX_TOGETHER, ACC_BYTES / (cog * KB * size)));
}

/** Lists unit (k0, kw)'s segments at `segs`; returns how many. */
function listSegments(g: Geometry, k0: i32, kw: i32, nr: i32, size: i32, segs: usize): i32 {
  const cig = g.C / g.G, W = g.W, C = g.C, kW = g.kW;
  let nseg = 0;
  for (let k = k0; k < k0 + kw; ) {
    const t = k / cig, c = k % cig, q = (k - k0) % nr;
    const len = min(min(cig - c, nr - q), k0 + kw - k);
    const dh = (t / kW) * g.dH, dw = (t % kW) * g.dW;
    const s = segs + <usize>nseg * SEG * 4;
    store<i32>(s, ((dh * W + dw) * C + c) * size);
    store<i32>(s, dh, 4);
    store<i32>(s, dw, 8);
    store<i32>(s, c * size, 12);
    store<i32>(s, (k - k0) / nr, 16);
    store<i32>(s, q * size, 20);
    store<i32>(s, len * size, 24);
    nseg++;
    k += len;
  }
  return nseg;
}

/** Packs B (A's rows of the block's pb positions, one unit's columns) from the image, a segment at a time. */
function packImage(g: Geometry, chan: usize, rowsAt: usize, pb: i32, segs: usize, nseg: i32, panels: i32, kw: i32, nr: i32, dst: usize): void {
  const H = g.H, W = g.W;
  const panelStride = <usize>pb * PANEL_BYTES;
  if (kw % nr != 0) memory.fill(dst + <usize>(panels - 1) * panelStride, 0, panelStride);
  for (let i = 0; i < nseg; i++) {
    const s = segs + <usize>i * SEG * 4;
    const tapOff = load<i32>(s), dh = load<i32>(s, 4), dw = load<i32>(s, 8), len = load<i32>(s, 24);
    let d = dst + <usize>load<i32>(s, 16) * panelStride + <usize>load<i32>(s, 20);
    for (let r = 0; r < pb; r++, d += PANEL_BYTES) {
      const row = rowsAt + <usize>r * 16;
      let inside = load<i32>(row, 12) != 0;
      if (!inside) {
        const ih = load<i32>(row, 4) + dh, iw = load<i32>(row, 8) + dw;
        inside = ih >= 0 && ih < H && iw >= 0 && iw < W;
      }
      const src = chan + <usize>(load<i32>(row) + tapOff);
      if (len == PANEL_BYTES) {
        if (inside) {
          v128.store(d, v128.load(src));
          v128.store(d, v128.load(src, 16), 16);
          v128.store(d, v128.load(src, 32), 32);
        } else {
          v128.store(d, i64x2.splat(0));
          v128.store(d, i64x2.splat(0), 16);
          v128.store(d, i64x2.splat(0), 32);
        }
      } else if (inside) copyBytes(d, src, len);
      else zeroBytes(d, len);
    }
  }
}

/** acc [mc rows, kw columns] (+)= packed A rows by packed B panels (pb deep). */
function multiply<T>(mc: i32, kw: i32, pb: i32, packedA: usize, packedB: usize, acc: usize, ldc: usize, add: bool, tile: usize): void {
  const size = sizeof<T>();
  const nr = PANEL_BYTES / size;
  const panelStride = <usize>pb * PANEL_BYTES;
  for (let j = 0, jc = 0; jc < kw; j++, jc += nr) {
    const cols = min(nr, kw - jc);
    const bp = packedB + <usize>j * panelStride;
    let ir = 0;
    if (size == 4 && (cols == 4 || cols == 8)) {
      // Note [Narrow edge panels]
      for (; ir + 2 * MR <= mc; ir += 2 * MR) {
        const ap = packedA + <usize>ir * pb * size;
        const cp = acc + <usize>ir * ldc + <usize>j * PANEL_BYTES;
        if (cols == 4) kernel32n4(pb, ap, ap + <usize>MR * pb * size, bp, cp, ldc, add);
        else kernel32n8(pb, ap, ap + <usize>MR * pb * size, bp, cp, ldc, add);
      }
    }
    for (; ir < mc; ir += MR) {
      const rows = min(MR, mc - ir);
      const ap = packedA + <usize>ir * pb * size;
      const cp = acc + <usize>ir * ldc + <usize>j * PANEL_BYTES;
      if (rows == MR && cols == nr) {
        if (size == 4) kernel32(pb, ap, bp, cp, ldc, add);
        else kernel64(pb, ap, bp, cp, ldc, add);
      } else {
        if (add) {
          for (let rr = 0; rr < rows; rr++) {
            for (let q = 0; q < cols; q++) store<T>(tile + <usize>(rr * nr + q) * size, load<T>(cp + <usize>rr * ldc + <usize>q * size));
          }
        }
        if (size == 4) kernel32(pb, ap, bp, tile, PANEL_BYTES, add);
        else kernel64(pb, ap, bp, tile, PANEL_BYTES, add);
        for (let rr = 0; rr < rows; rr++) {
          for (let q = 0; q < cols; q++) store<T>(cp + <usize>rr * ldc + <usize>q * size, load<T>(tile + <usize>(rr * nr + q) * size));
        }
      }
    }
  }
}

function weightGrad<T>(g: Geometry, u0: i32, u1: i32, scratch: usize): void {
  const size = sizeof<T>();
  const nr = PANEL_BYTES / size;
  const G = g.G, cig = g.C / G, cog = g.Cout / G, Cout = g.Cout, C = g.C, H = g.H, W = g.W;
  const taps = g.kH * g.kW, K = cig * taps, L = g.outH * g.outW, P = g.N * L;
  const maxDh = (g.kH - 1) * g.dH, maxDw = (g.kW - 1) * g.dW;
  const blocks = (K + KB - 1) / KB;
  const together = unitsTogether(cog, size);
  const packedB = roundUp(scratch);
  const packedA = roundUp(packedB + <usize>PB * KB * size);
  const accs = roundUp(packedA + <usize>rowsPacked(cog) * PB * size + 16);
  const accBytes = <usize>cog * KB * size;
  const tile = roundUp(accs + <usize>together * accBytes);
  const segs = roundUp(tile + <usize>MR * PANEL_BYTES);
  const rowsAt = roundUp(segs + <usize>together * KB * SEG * 4);
  const ldc = <usize>KB * size;
  let u = u0;
  while (u < u1) {
    // units [u, u + cnt): consecutive column blocks of group gi, run side by side so that
    // each block of grad_out is packed once for all of them and the image block stays in cache
    const gi = u / blocks, b0 = u % blocks;
    const cnt = min(together, min(u1 - u, blocks - b0));
    const chan = g.image + <usize>gi * cig * size;
    for (let p0 = 0; p0 < P; p0 += PB) {
      const pb = min(PB, P - p0);
      // the block's row table: per position the byte offset of its window's top-left pixel
      // from the group's channel 0 of image 0 (negative at the top-left border), ih0, iw0,
      // and whether the whole window lies inside the image
      let n = p0 / L, l = p0 % L;
      let oh = l / g.outW, ow = l % g.outW;
      for (let r = 0; r < pb; r++) {
        const ih0 = oh * g.sH - g.pH, iw0 = ow * g.sW - g.pW;
        const row = rowsAt + <usize>r * 16;
        store<i32>(row, <i32>(n * H * W * C + (ih0 * W + iw0) * C) * size);
        store<i32>(row, ih0, 4);
        store<i32>(row, iw0, 8);
        store<i32>(row, ih0 >= 0 && ih0 + maxDh < H && iw0 >= 0 && iw0 + maxDw < W ? 1 : 0, 12);
        if (++ow == g.outW) {
          ow = 0;
          if (++oh == g.outH) {
            oh = 0;
            n++;
          }
        }
      }
      const gy = g.cols + (<usize>p0 * Cout + gi * cog) * size;
      for (let ic = 0; ic < cog; ic += MCW) {
        const mc = min(MCW, cog - ic);
        packRows<T>(mc, pb, gy + <usize>ic * size, <usize>Cout * size, packedA);
        for (let ci = 0; ci < cnt; ci++) {
          const k0 = (b0 + ci) * KB, kw = min(KB, K - k0);
          const us = segs + <usize>ci * KB * SEG * 4;
          // (the segments are listed again per block: a few per KB columns, next to the copies)
          const nseg = listSegments(g, k0, kw, nr, size, us);
          packImage(g, chan, rowsAt, pb, us, nseg, (kw + nr - 1) / nr, kw, nr, packedB);
          multiply<T>(mc, kw, pb, packedA, packedB, accs + <usize>ci * accBytes + <usize>ic * ldc, ldc, p0 > 0, tile);
        }
      }
    }
    // scatter into gw [Cout, cig, kH, kW]
    for (let ci = 0; ci < cnt; ci++) {
      const k0 = (b0 + ci) * KB, kw = min(KB, K - k0);
      const acc = accs + <usize>ci * accBytes;
      for (let o = 0; o < cog; o++) {
        const dst = g.weight + <usize>(gi * cog + o) * K * size;
        for (let q = 0; q < kw; q++) {
          const k = k0 + q, t = k / cig, c = k % cig;
          store<T>(dst + <usize>(c * taps + t) * size, load<T>(acc + <usize>o * ldc + <usize>q * size));
        }
      }
    }
    u += cnt;
  }
}

/** float32 channels-last weight gradient, units [u0, u1) (Note [Channels-last convolution weight gradient]). */
export function conv2dNhwcWeightGrad32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  weightGrad<f32>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dNhwcWeightGrad64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  weightGrad<f64>(changetype<Geometry>(params), u0, u1, scratch);
}

// Note [Channels-last strided convolution input gradient]
// The input gradient of a strided convolution (or one padded by more than d (k - 1), where
// the stride-1 flipped-forward of Note [CPU channels-last convolution gradients] does not
// apply) runs col2im-style on NHWC operands: per block of IB positions of one image and
// group, the GEMM
//   cols [positions, K] = grad_out rows [positions, cog] @ wT_g [cog, K]
// (gemm.ts, grad_out read in place; wT the weight with k = tap * cig + c, tap-major, which
// the caller lays out) and then each position's kH * kW runs of cig columns are added into
// the input gradient's pixels (runs of cig contiguous channels, SIMD adds); taps in the
// padding are dropped. Work unit: one image n, which a unit zeroes and owns; its pixels get
// their terms in (group, position, tap) order whatever the split, so the bits do not depend
// on the thread count.
/** Positions per block of the strided input gradient. */
const IB = 96;

/** Bytes of scratch a task of `params`' strided channels-last input gradient needs. */
export function conv2dNhwcInputGradScratchBytes(params: usize, size: i32): i32 {
  const g = changetype<Geometry>(params);
  const K = g.C / g.G * g.kH * g.kW;
  return gemmScratchBytes() + IB * K * size + 3 * 16;
}

function inputGradStrided<T>(g: Geometry, u0: i32, u1: i32, scratch: usize): void {
  const size = sizeof<T>();
  const G = g.G, cig = g.C / G, cog = g.Cout / G, Cout = g.Cout, C = g.C, H = g.H, W = g.W, kW = g.kW;
  const taps = g.kH * kW, K = cig * taps, L = g.outH * g.outW;
  const gs = roundUp(scratch);
  const cols = roundUp(gs + <usize>gemmScratchBytes());
  for (let n = u0; n < u1; n++) {
    const img = g.image + <usize>n * H * W * C * size;
    memory.fill(img, 0, <usize>H * W * C * size);
    for (let gi = 0; gi < G; gi++) {
      const wt = g.weight + <usize>gi * cog * K * size;
      const chan = img + <usize>gi * cig * size;
      for (let l0 = 0; l0 < L; l0 += IB) {
        const mb = min(IB, L - l0);
        gemm<T>(mb, K, cog, g.cols + (<usize>(n * L + l0) * Cout + gi * cog) * size, Cout, 1, wt, K, 1, cols, K, false, gs);
        for (let r = 0; r < mb; r++) {
          const l = l0 + r;
          const ih0 = (l / g.outW) * g.sH - g.pH, iw0 = (l % g.outW) * g.sW - g.pW;
          const src = cols + <usize>r * K * size;
          for (let t = 0; t < taps; t++) {
            const ih = ih0 + (t / kW) * g.dH, iw = iw0 + (t % kW) * g.dW;
            if (ih >= 0 && ih < H && iw >= 0 && iw < W) addInto<T>(chan + <usize>(ih * W + iw) * C * size, src + <usize>t * cig * size, cig);
          }
        }
      }
    }
  }
}

/** float32 strided channels-last input gradient, images [u0, u1) (Note [Channels-last strided convolution input gradient]). */
export function conv2dNhwcInputGrad32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  inputGradStrided<f32>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dNhwcInputGrad64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  inputGradStrided<f64>(changetype<Geometry>(params), u0, u1, scratch);
}
