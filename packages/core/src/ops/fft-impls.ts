import type { TensorImpl } from '../tensor/tensor-impl';

/**
 * The one impl torch.fft rests on (Note [torch.fft on one complex-to-complex impl], fft.ts).
 * Complex values travel as pairs (core Note [Complex tensors are pairs of reals]), so a
 * backend keeps real kernels only.
 */
export interface FftImpls {
  /**
   * One discrete Fourier transform along `dim` of complex values stored as pairs: `input`
   * and `out` are distinct fresh contiguous float32 / float64 tensors of one shape whose last
   * dim is 2 (re, im), `dim` < input.dim - 1, n = input.sizes[dim] >= 1. For every line
   * along `dim`: out[k] = scale * sum_j input[j] * exp(sign * 2 pi i j k / n), sign = -1
   * (forward) or +1 (`inverse`). Any n: mixed radix for smooth lengths, Bluestein's chirp z
   * for large prime factors; twiddles computed accurately (not by repeated multiplication).
   */
  fft: (out: TensorImpl, input: TensorImpl, dim: number, inverse: boolean, scale: number) => void;
}
