// Note [Convolution on the GEMM]
// The three convolution products of Note [Convolution as GEMM] (core's conv.ts), per batch
// element n and group g, with K = C / G * kH * kW rows of the column matrix and L = outH *
// outW positions, on windows of `chunk` positions (Note [im2col over a window of positions]):
//   forward      cols[n, g] [Cout/G, L]  = weight_g [Cout/G, K] @ im2col(image[n, g])   (+ bias)
//   input grad   image[n, g]             = col2im(weight_g^T @ cols[n, g])
//   weight grad  weight_g [Cout/G, K]    = sum over n of cols[n, g] @ im2col(image[n, g])^T
// Each export runs a range [u0, u1) of work units, and a unit is computed the same way
// whichever task runs it, so results do not depend on the thread count:
//  - forward: unit = (n, window); the bias is written into the output first and the GEMM
//    accumulates onto it (no second pass over the output);
//  - input grad: unit = (n, image channel); a task takes the runs of its channels that share
//    n and g as one GEMM (weight_g^T read through strides), zeroes them and adds the windows'
//    columns back in order; a channel's pixels are written by its own unit only;
//  - weight grad: unit = (g, panel of 12 rows of K); a task owns those columns of grad
//    weight and sums over n, then windows, in order (the GEMM accumulating).
// A 1x1 kernel with stride 1 and no padding needs no columns: the image is the matrix.
import { gemm, gemmPackedA, gemmScratchBytes, packAll, packedAllBytes } from './gemm';
import { Geometry } from './geometry';
import { col2imWindow, im2colWindow } from './im2col';

const PANEL = 12;

function pointwise(g: Geometry): bool {
  return g.kH == 1 && g.kW == 1 && g.sH == 1 && g.sW == 1 && g.pH == 0 && g.pW == 0 && g.H == g.outH && g.W == g.outW;
}

/** The column window's place in a task's scratch, after the GEMM's own. */
// @ts-ignore: decorator
@inline function windowIn(scratch: usize): usize {
  return (scratch + <usize>gemmScratchBytes() + 15) & ~15;
}

/** The packed weights' place in a task's scratch, after the window. */
function packedIn(g: Geometry, scratch: usize, size: i32): usize {
  const K = g.C / g.G * g.kH * g.kW;
  return (windowIn(scratch) + <usize>K * g.chunk * size + 15) & ~15;
}

/**
 * Bytes of scratch a task of `params`' convolution needs: the GEMM's, one column window, and
 * the weights packed once per task (all groups for a forward, one group's transpose for a
 * grad input: the GEMM then skips packing them for every window).
 */
export function conv2dScratchBytes(params: usize, size: i32): i32 {
  const g = changetype<Geometry>(params);
  const cog = g.Cout / g.G, K = g.C / g.G * g.kH * g.kW;
  const packed = max(g.G * packedAllBytes(cog, K, size), packedAllBytes(K, cog, size));
  return gemmScratchBytes() + 32 + K * g.chunk * size + packed;
}

function forward<T>(g: Geometry, u0: i32, u1: i32, scratch: usize): void {
  const size = sizeof<T>();
  const G = g.G, cig = g.C / G, cog = g.Cout / G;
  const K = cig * g.kH * g.kW, L = g.outH * g.outW, HW = g.H * g.W;
  const windows = (L + g.chunk - 1) / g.chunk;
  const direct = pointwise(g);
  const col = windowIn(scratch);
  const packed = packedIn(g, scratch, size);
  const groupBytes = <usize>packedAllBytes(cog, K, size);
  for (let gi = 0; gi < G; gi++) packAll<T>(cog, K, g.weight + <usize>gi * cog * K * size, K, 1, packed + <usize>gi * groupBytes);
  for (let u = u0; u < u1; u++) {
    const n = u / windows, l0 = (u % windows) * g.chunk;
    const cols = min(g.chunk, L - l0);
    for (let gi = 0; gi < G; gi++) {
      const image = g.image + <usize>(n * g.C + gi * cig) * HW * size;
      let b = col, rsb = cols;
      if (direct) {
        b = image + <usize>l0 * size;
        rsb = L;
      } else im2colWindow<T>(g, image, 0, K, l0, cols, col);
      const out = g.cols + (<usize>(n * g.Cout + gi * cog) * L + l0) * size;
      if (g.bias != 0) {
        for (let o = 0; o < cog; o++) {
          const v = load<T>(g.bias + <usize>(gi * cog + o) * size);
          const row = out + <usize>o * L * size;
          for (let q = 0; q < cols; q++) store<T>(row + <usize>q * size, v);
        }
      }
      gemmPackedA<T>(cog, cols, K, packed + <usize>gi * groupBytes, b, rsb, 1, out, L, g.bias != 0, scratch);
    }
  }
}

function inputGrad<T>(g: Geometry, u0: i32, u1: i32, scratch: usize): void {
  const size = sizeof<T>();
  const G = g.G, cig = g.C / G, cog = g.Cout / G;
  const taps = g.kH * g.kW, K = cig * taps, L = g.outH * g.outW, HW = g.H * g.W;
  const direct = pointwise(g);
  const col = windowIn(scratch);
  const packed = packedIn(g, scratch, size);
  let u = u0;
  while (u < u1) {
    // a run of channels [c0, c1) of one batch element and one group
    const n = u / g.C, c0 = u % g.C, gi = c0 / cig;
    const c1 = min((gi + 1) * cig, c0 + u1 - u);
    const rows = (c1 - c0) * taps, r0 = (c0 - gi * cig) * taps;
    const image = g.image + <usize>(n * g.C + c0) * HW * size;
    // weight_g^T's rows r0 ..: element (r, o) at weight[(gi * cog + o) * K + r]
    const a = g.weight + <usize>(gi * cog * K + r0) * size;
    const gout = g.cols + <usize>(n * g.Cout + gi * cog) * L * size;
    packAll<T>(rows, cog, a, 1, K, packed);
    if (!direct) memory.fill(image, 0, <usize>(c1 - c0) * HW * size);
    for (let l0 = 0; l0 < L; l0 += g.chunk) {
      const cols = min(g.chunk, L - l0);
      const b = gout + <usize>l0 * size;
      if (direct) gemmPackedA<T>(rows, cols, cog, packed, b, L, 1, image + <usize>l0 * size, L, false, scratch);
      else {
        gemmPackedA<T>(rows, cols, cog, packed, b, L, 1, col, cols, false, scratch);
        col2imWindow<T>(g, image, 0, rows, l0, cols, col);
      }
    }
    u += c1 - c0;
  }
}

function weightGrad<T>(g: Geometry, u0: i32, u1: i32, scratch: usize): void {
  const size = sizeof<T>();
  const G = g.G, cig = g.C / G, cog = g.Cout / G;
  const K = cig * g.kH * g.kW, L = g.outH * g.outW, HW = g.H * g.W;
  const panels = (K + PANEL - 1) / PANEL;
  const direct = pointwise(g);
  const col = windowIn(scratch);
  let u = u0;
  while (u < u1) {
    // a run of panels of one group: grad weight columns [k0, k1)
    const gi = u / panels, p0 = u % panels;
    const p1 = min(panels, p0 + u1 - u);
    const k0 = p0 * PANEL, k1 = min(K, p1 * PANEL);
    const gw = g.weight + <usize>(gi * cog * K + k0) * size;
    let first = true;
    for (let n = 0; n < g.N; n++) {
      const image = g.image + <usize>(n * g.C + gi * cig) * HW * size;
      const gout = g.cols + <usize>(n * g.Cout + gi * cog) * L * size;
      for (let l0 = 0; l0 < L; l0 += g.chunk) {
        const cols = min(g.chunk, L - l0);
        // B [positions, columns of grad weight] = the window's im2col transposed, through strides
        let b = col, csb = cols;
        if (direct) {
          b = image + <usize>(k0 * L + l0) * size;
          csb = L;
        } else im2colWindow<T>(g, image, k0, k1, l0, cols, col);
        gemm<T>(cog, k1 - k0, cols, gout + <usize>l0 * size, L, 1, b, 1, csb, gw, K, !first, scratch);
        first = false;
      }
    }
    u += p1 - p0;
  }
}


/** float32 forward, units [u0, u1) (Note [Convolution on the GEMM]); `params` is a Geometry. */
export function conv2dForward32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  forward<f32>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dForward64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  forward<f64>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dInputGrad32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  inputGrad<f32>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dInputGrad64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  inputGrad<f64>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dWeightGrad32(params: usize, u0: i32, u1: i32, scratch: usize): void {
  weightGrad<f32>(changetype<Geometry>(params), u0, u1, scratch);
}
export function conv2dWeightGrad64(params: usize, u0: i32, u1: i32, scratch: usize): void {
  weightGrad<f64>(changetype<Geometry>(params), u0, u1, scratch);
}
