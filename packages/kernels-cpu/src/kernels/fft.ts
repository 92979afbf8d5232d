import type { BackendImpls } from '@torch-ts/core';
import { floatArray } from '../loops/arrays';
import { planFor } from './fft-plan';

/**
 * The CPU's `fft` impl (core's FftImpls): every line along `dim` of the contiguous (re, im)
 * pairs is loaded into doubles, transformed by the cached plan of its length (Note [CPU FFT
 * plans]) and stored back scaled, rounded once to the tensor's dtype. The inverse transform
 * is the forward one of the conjugate, conjugated: conj(F(conj(x))) = n F^-1(x), so one plan
 * serves both directions with no second twiddle table.
 */
export const fft: BackendImpls['fft'] = (out, input, dim, inverse, scale) => {
  const sizes = input.sizes;
  const n = sizes[dim];
  // (complex elements: the trailing dim of 2 holds the parts)
  let inner = 1;
  for (let d = dim + 1; d < sizes.length - 1; d++) inner *= sizes[d];
  const outer = input.numel / (2 * n * inner);
  const src = floatArray(input);
  const dst = floatArray(out);
  const plan = planFor(n);
  const line = new Float64Array(2 * n);
  const res = new Float64Array(2 * n);
  const sign = inverse ? -1 : 1;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const base = 2 * (o * n * inner + i);
      const inBase = input.storageOffset + base;
      for (let j = 0; j < n; j++) {
        line[2 * j] = src[inBase + 2 * j * inner];
        line[2 * j + 1] = sign * src[inBase + 2 * j * inner + 1];
      }
      plan.forward(line, 0, 1, res);
      const outBase = out.storageOffset + base;
      for (let k = 0; k < n; k++) {
        dst[outBase + 2 * k * inner] = scale * res[2 * k];
        dst[outBase + 2 * k * inner + 1] = sign * scale * res[2 * k + 1];
      }
    }
  }
};
