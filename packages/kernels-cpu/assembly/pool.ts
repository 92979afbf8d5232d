// Note [Max pooling in WebAssembly]
// max_pool2d over contiguous [P, H, W] planes, planes [p0, p1) per call (a pool task), with
// PyTorch's CPU window rules as kernels/pooling.ts states them: windows clipped to the image,
// NaN wins (`v > best || v != v`, so the last NaN of a window gives the index), indices
// into the plane stored as int64 (low word, then a zero high word). The geometry is 12 i32
// at `geom`: H, W, kH, kW, sH, sW, pH, pW, dH, dW, outH, outW. The backward zeroes each
// gradient plane and adds every output gradient at its index, in output order.

function maxPool<T>(p0: i32, p1: i32, x: usize, o: usize, ix: usize, geom: usize): void {
  const H = load<i32>(geom), W = load<i32>(geom, 4);
  const kH = load<i32>(geom, 8), kW = load<i32>(geom, 12);
  const sH = load<i32>(geom, 16), sW = load<i32>(geom, 20);
  const pH = load<i32>(geom, 24), pW = load<i32>(geom, 28);
  const dH = load<i32>(geom, 32), dW = load<i32>(geom, 36);
  const outH = load<i32>(geom, 40), outW = load<i32>(geom, 44);
  const size = sizeof<T>();
  let q = p0 * outH * outW;
  for (let p = p0; p < p1; p++) {
    const plane = x + <usize>(p * H * W) * size;
    for (let oh = 0; oh < outH; oh++) {
      let h0 = oh * sH - pH;
      const h1 = min(h0 + (kH - 1) * dH + 1, H);
      while (h0 < 0) h0 += dH;
      for (let ow = 0; ow < outW; ow++, q++) {
        let w0 = ow * sW - pW;
        const w1 = min(w0 + (kW - 1) * dW + 1, W);
        while (w0 < 0) w0 += dW;
        let best = <T>-Infinity;
        let at = h0 * W + w0;
        for (let h = h0; h < h1; h += dH) {
          const row = plane + <usize>(h * W) * size;
          for (let w = w0; w < w1; w += dW) {
            const v = load<T>(row + <usize>w * size);
            if (v > best || v != v) {
              best = v;
              at = h * W + w;
            }
          }
        }
        store<T>(o + <usize>q * size, best);
        store<i64>(ix + (<usize>q << 3), <i64>at);
      }
    }
  }
}

function maxPoolBackward<T>(p0: i32, p1: i32, gi: usize, go: usize, ix: usize, hw: i32, n: i32): void {
  const size = sizeof<T>();
  memory.fill(gi + <usize>(p0 * hw) * size, 0, <usize>((p1 - p0) * hw) * size);
  for (let p = p0; p < p1; p++) {
    const base = gi + <usize>(p * hw) * size;
    for (let q = p * n, end = q + n; q < end; q++) {
      const at = base + <usize>load<i32>(ix + (<usize>q << 3)) * size;
      store<T>(at, load<T>(at) + load<T>(go + <usize>q * size));
    }
  }
}

export function maxPool2dF32(p0: i32, p1: i32, x: usize, o: usize, ix: usize, geom: usize, scratch: usize): void {
  maxPool<f32>(p0, p1, x, o, ix, geom);
}

export function maxPool2dF64(p0: i32, p1: i32, x: usize, o: usize, ix: usize, geom: usize, scratch: usize): void {
  maxPool<f64>(p0, p1, x, o, ix, geom);
}

export function maxPool2dBackwardF32(p0: i32, p1: i32, gi: usize, go: usize, ix: usize, hw: i32, n: i32, scratch: usize): void {
  maxPoolBackward<f32>(p0, p1, gi, go, ix, hw, n);
}

export function maxPool2dBackwardF64(p0: i32, p1: i32, gi: usize, go: usize, ix: usize, hw: i32, n: i32, scratch: usize): void {
  maxPoolBackward<f64>(p0, p1, gi, go, ix, hw, n);
}
