import { fftC2cPairs } from '@torch-ts/core';
import type { DerivativeFamily, DerivativeOf } from '../derivative';

/**
 * The derivative of torch.fft's one primitive (core's Note [torch.fft on one
 * complex-to-complex impl]): the transform is linear, and its adjoint as a real-linear map
 * on the (re, im) pairs is the transform in the other direction with the same
 * normalization (PyTorch's _fft_c2c backward). Written with the op itself, so it
 * differentiates again. The r2c / c2r / hfft families are composites and need nothing here.
 */
const FftC2CBackward0: DerivativeOf<'_fft_c2c_pairs'> = {
  name: 'FftC2CBackward0',
  inputs: ['self'],
  saves: [],
  backward: (ctx) => {
    if (!ctx.needs[0]) return [null];
    const [, dim, normalization, forward] = ctx.args;
    return [fftC2cPairs(ctx.grad, dim, normalization, !forward)];
  },
};

export const FFT_DERIVATIVES = {
  _fft_c2c_pairs: FftC2CBackward0,
} satisfies DerivativeFamily;
