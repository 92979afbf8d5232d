/**
 * `torch.fft`: PyTorch's discrete Fourier transforms (fft, ifft, rfft, irfft, hfft, ihfft and
 * their 2-D and n-D forms), fftfreq / rfftfreq and fftshift / ifftshift, camelCased where
 * PyTorch has snake_case, keyword arguments in a trailing options object:
 * `torch.fft.rfft(x, { n: 64, dim: 0, norm: 'ortho' })`. They rest on one primitive (core's
 * Note [torch.fft on one complex-to-complex impl]) and are differentiable.
 */
// The front ends declared in core with the `fft` namespace (Note [Front ends are declared once])
export * from './generated/fft-front-ops';
