import type { TensorImpl } from '@torch-ts/core';
import { readerOf, writerOf } from '../loops/convert';
import { forEachRowOf } from '../loops/iterate';
import { CHUNK } from '../loops/pointwise';
import { unsupportedDtype } from './binary';

const S0 = new Float64Array(CHUNK);
const S1 = new Float64Array(CHUNK);
const S2 = new Float64Array(CHUNK);
const S3 = new Float64Array(CHUNK);

/**
 * PyTorch's `lerp` (ATen/native/Lerp.h), in its opmath type: float64 for float64, float32
 * (rounding after each step) for float32, bfloat16 and float16, which round once more on
 * the store. The formula switches at |weight| = 0.5 so that weight 1 gives `end` exactly:
 * `self + weight * (end - self)` below, `end - (end - self) * (1 - weight)` from there on.
 */
function lerpRow(n: number, o: Float64Array, s: Float64Array, e: Float64Array, w: Float64Array, f64: boolean): void {
  if (f64) {
    for (let i = 0; i < n; i++) {
      const x = s[i];
      const y = e[i];
      const t = w[i];
      o[i] = Math.abs(t) < 0.5 ? x + t * (y - x) : y - (y - x) * (1 - t);
    }
    return;
  }
  const r = Math.fround;
  for (let i = 0; i < n; i++) {
    const x = s[i];
    const y = e[i];
    const t = w[i];
    const d = r(y - x);
    o[i] = Math.abs(t) < 0.5 ? r(x + r(t * d)) : r(y - r(d * r(1 - t)));
  }
}

/**
 * out = lerp(self, end, weight), all of out's floating dtype and shape. A Scalar weight
 * arrives as `weightScalar` too: PyTorch converts it to the opmath type, not to the dtype.
 */
export function lerp(out: TensorImpl, self: TensorImpl, end: TensorImpl, weight: TensorImpl, weightScalar: number | null): void {
  const d = out.dtype;
  if (d !== 'float32' && d !== 'float64' && d !== 'float16' && d !== 'bfloat16') throw unsupportedDtype('lerp', out);
  const f64 = d === 'float64';
  const rs = readerOf(self);
  const re = readerOf(end);
  const rw = readerOf(weight);
  const w = writerOf(out);
  const ws = weightScalar === null ? null : f64 ? weightScalar : Math.fround(weightScalar);
  forEachRowOf([out, self, end, weight], (n, base, st) => {
    for (let k = 0; k < n; k += CHUNK) {
      const m = n - k < CHUNK ? n - k : CHUNK;
      rs(m, S1, base[1] + k * st[1], st[1]);
      re(m, S2, base[2] + k * st[2], st[2]);
      if (ws === null) rw(m, S3, base[3] + k * st[3], st[3]);
      else S3.fill(ws, 0, m);
      lerpRow(m, S0, S1, S2, S3, f64);
      w(m, S0, base[0] + k * st[0], st[0]);
    }
  });
}
