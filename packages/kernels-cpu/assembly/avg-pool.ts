// Note [Average pooling in WebAssembly]
// avg_pool2d and adaptive_avg_pool2d (forward and backward) over contiguous [P, H, W] planes,
// planes [p0, p1) per call (a pool task). Both ops' windows are separable: output (oh, ow)
// covers rows [h0[oh], h1[oh]) and columns [w0[ow], w1[ow]) (clipped to the image) with the
// divisor hd[oh] * wd[ow], or a divisor override; the caller computes them by PyTorch's rules
// (kernels/pooling.ts). The geometry block is i32: H, W, OH, OW, override (0: none), then
// h0, h1, hd ([OH] each) and w0, w1, wd ([OW] each).
// Forward: per output row, the window's input rows are added column by column into float64
// scratch (vector adds along the row), then each output adds its columns and divides once, so
// a float32 output is its float64 mean rounded once, as the JS loops give (PyTorch adds in
// float32: they agree within its rounding). An empty window gives 0.
// Backward: per output row, each output's share go / divisor is added into a float64 row of
// scratch over its columns, and that row into each of the window's input rows (one rounding
// per output row and input element).
// @ts-ignore: decorator
@inline function g32(geom: usize, i: i32): i32 {
  return load<i32>(geom + (<usize>i << 2));
}

/** col[0..W) = sum of the input rows [h0, h1) of `plane`, in float64. */
function columnSums<T>(plane: usize, col: usize, W: i32, h0: i32, h1: i32): void {
  const size = sizeof<T>();
  const rowBytes = <usize>W * size;
  memory.fill(col, 0, <usize>W << 3);
  for (let h = h0; h < h1; h++) {
    const row = plane + <usize>h * rowBytes;
    let w = 0;
    if (size == 4) {
      for (; w + 4 <= W; w += 4) {
        const v = v128.load(row + (<usize>w << 2));
        const c = col + (<usize>w << 3);
        v128.store(c, f64x2.add(v128.load(c), f64x2.promote_low_f32x4(v)));
        v128.store(c, f64x2.add(v128.load(c, 16), f64x2.promote_low_f32x4(v128.shuffle<u32>(v, v, 2, 3, 0, 1))), 16);
      }
    } else {
      for (; w + 2 <= W; w += 2) {
        const c = col + (<usize>w << 3);
        v128.store(c, f64x2.add(v128.load(c), v128.load(row + (<usize>w << 3))));
      }
    }
    for (; w < W; w++) {
      const c = col + (<usize>w << 3);
      store<f64>(c, load<f64>(c) + <f64>load<T>(row + <usize>w * size));
    }
  }
}

function avgPool<T>(p0: i32, p1: i32, x: usize, o: usize, geom: usize, col: usize): void {
  const H = g32(geom, 0), W = g32(geom, 1), OH = g32(geom, 2), OW = g32(geom, 3), divisor = g32(geom, 4);
  const H0 = geom + 20, H1 = H0 + (<usize>OH << 2), HD = H1 + (<usize>OH << 2);
  const W0 = HD + (<usize>OH << 2), W1 = W0 + (<usize>OW << 2), WD = W1 + (<usize>OW << 2);
  const size = sizeof<T>();
  let q = o + <usize>p0 * OH * OW * size;
  for (let p = p0; p < p1; p++) {
    const plane = x + <usize>p * H * W * size;
    for (let oh = 0; oh < OH; oh++) {
      const h0 = load<i32>(H0 + (<usize>oh << 2)), h1 = load<i32>(H1 + (<usize>oh << 2));
      if (h0 >= h1) {
        memory.fill(q, 0, <usize>OW * size);
        q += <usize>OW * size;
        continue;
      }
      columnSums<T>(plane, col, W, h0, h1);
      const hd = load<i32>(HD + (<usize>oh << 2));
      for (let ow = 0; ow < OW; ow++, q += size) {
        const w0 = load<i32>(W0 + (<usize>ow << 2)), w1 = load<i32>(W1 + (<usize>ow << 2));
        let s: f64 = 0;
        for (let w = w0; w < w1; w++) s += load<f64>(col + (<usize>w << 3));
        const div = divisor != 0 ? divisor : hd * load<i32>(WD + (<usize>ow << 2));
        store<T>(q, w0 < w1 ? <T>(s / <f64>div) : <T>0);
      }
    }
  }
}

function avgPoolBackward<T>(p0: i32, p1: i32, gi: usize, go: usize, geom: usize, acc: usize): void {
  const H = g32(geom, 0), W = g32(geom, 1), OH = g32(geom, 2), OW = g32(geom, 3), divisor = g32(geom, 4);
  const H0 = geom + 20, H1 = H0 + (<usize>OH << 2), HD = H1 + (<usize>OH << 2);
  const W0 = HD + (<usize>OH << 2), W1 = W0 + (<usize>OW << 2), WD = W1 + (<usize>OW << 2);
  const size = sizeof<T>();
  const rowBytes = <usize>W * size;
  memory.fill(gi + <usize>p0 * H * rowBytes, 0, <usize>(p1 - p0) * H * rowBytes);
  let q = go + <usize>p0 * OH * OW * size;
  for (let p = p0; p < p1; p++) {
    const plane = gi + <usize>p * H * rowBytes;
    for (let oh = 0; oh < OH; oh++, q += <usize>OW * size) {
      const h0 = load<i32>(H0 + (<usize>oh << 2)), h1 = load<i32>(H1 + (<usize>oh << 2));
      if (h0 >= h1) continue;
      const hd = load<i32>(HD + (<usize>oh << 2));
      memory.fill(acc, 0, <usize>W << 3);
      for (let ow = 0; ow < OW; ow++) {
        const w0 = load<i32>(W0 + (<usize>ow << 2)), w1 = load<i32>(W1 + (<usize>ow << 2));
        const div = divisor != 0 ? divisor : hd * load<i32>(WD + (<usize>ow << 2));
        const share = <f64>load<T>(q + <usize>ow * size) / <f64>div;
        for (let w = w0; w < w1; w++) {
          const a = acc + (<usize>w << 3);
          store<f64>(a, load<f64>(a) + share);
        }
      }
      for (let h = h0; h < h1; h++) {
        const row = plane + <usize>h * rowBytes;
        let w = 0;
        if (size == 4) {
          for (; w + 4 <= W; w += 4) {
            const r = row + (<usize>w << 2);
            const a = acc + (<usize>w << 3);
            const v = v128.load(r);
            const lo = f32x4.demote_f64x2_zero(f64x2.add(f64x2.promote_low_f32x4(v), v128.load(a)));
            const hi = f32x4.demote_f64x2_zero(f64x2.add(f64x2.promote_low_f32x4(v128.shuffle<u32>(v, v, 2, 3, 0, 1)), v128.load(a, 16)));
            v128.store(r, v128.shuffle<u32>(lo, hi, 0, 1, 4, 5));
          }
        } else {
          for (; w + 2 <= W; w += 2) {
            const r = row + (<usize>w << 3);
            v128.store(r, f64x2.add(v128.load(r), v128.load(acc + (<usize>w << 3))));
          }
        }
        for (; w < W; w++) {
          const r = row + <usize>w * size;
          store<T>(r, <T>(<f64>load<T>(r) + load<f64>(acc + (<usize>w << 3))));
        }
      }
    }
  }
}

export function avgPool2dF32(p0: i32, p1: i32, x: usize, o: usize, geom: usize, scratch: usize): void {
  avgPool<f32>(p0, p1, x, o, geom, (scratch + 15) & ~15);
}

export function avgPool2dF64(p0: i32, p1: i32, x: usize, o: usize, geom: usize, scratch: usize): void {
  avgPool<f64>(p0, p1, x, o, geom, (scratch + 15) & ~15);
}

export function avgPool2dBackwardF32(p0: i32, p1: i32, gi: usize, go: usize, geom: usize, scratch: usize): void {
  avgPoolBackward<f32>(p0, p1, gi, go, geom, (scratch + 15) & ~15);
}

export function avgPool2dBackwardF64(p0: i32, p1: i32, gi: usize, go: usize, geom: usize, scratch: usize): void {
  avgPoolBackward<f64>(p0, p1, gi, go, geom, (scratch + 15) & ~15);
}
