// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

// The front ends core declares that torch.fft has (torch.fft.rfft, torch.fft.fftshift).
export {
  fftFft as fft,
  fftIfft as ifft,
  fftRfft as rfft,
  fftIrfft as irfft,
  fftHfft as hfft,
  fftIhfft as ihfft,
  fftFftn as fftn,
  fftIfftn as ifftn,
  fftRfftn as rfftn,
  fftIrfftn as irfftn,
  fftHfftn as hfftn,
  fftIhfftn as ihfftn,
  fftFft2 as fft2,
  fftIfft2 as ifft2,
  fftRfft2 as rfft2,
  fftIrfft2 as irfft2,
  fftHfft2 as hfft2,
  fftIhfft2 as ihfft2,
  fftFftfreq as fftfreq,
  fftRfftfreq as rfftfreq,
  fftFftshift as fftshift,
  fftIfftshift as ifftshift,
} from '@torch-ts/core';
