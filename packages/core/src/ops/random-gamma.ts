/**
 * `_standard_gamma` and `poisson`: draws whose distribution each element of the input
 * parametrises, on the host in PyTorch CPU's order (Note [Gamma and Poisson draws]).
 * Neither has a device kernel yet: on another device they raise NotImplementedError rather
 * than read the parameters back. `_standard_gamma` has no gradient here yet (PyTorch's is
 * `_standard_gamma_grad`), so its result never requires one, and a distribution built on it
 * does not offer `rsample` (torch.distributions' Gamma).
 */
import { CPU } from '../device';
import { NotImplementedError, DTypeError } from '../errors';
import { defaultGenerator } from '../random/generator';
import { sampleGamma, samplePoisson } from '../random/distributions';
import type { Tensor } from '../tensor/tensor';
import { unwrapTensor } from './call';
import { empty } from './factories';
import { front } from './front';
import { torchTypeName } from './meta-utils';
import { hostValues, writeDrawn } from './random-extra';

function onHost(op: string, t: Tensor): void {
  if (t.device !== CPU) throw new NotImplementedError(`${op}: not implemented on ${t.device.type} yet (its draws are made on the CPU)`);
}

/** Gamma(alpha, 1) draws, alpha each element of `input` (float32 or float64). */
export const _standardGamma = front('_standard_gamma(Tensor input, Generator? generator=None) -> Tensor', { name: '_standardGamma', method: false }).run(([input, generator]): Tensor => {
  const x = unwrapTensor('_standard_gamma', 'self', input);
  if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new DTypeError(`_standard_gamma: "gamma_cpu" not implemented for '${torchTypeName(x.dtype)}'`);
  onHost('_standard_gamma', input);
  const drawn = sampleGamma(generator ?? defaultGenerator, hostValues(input), x.dtype);
  const out = empty(input.shape, { dtype: x.dtype, device: input.device });
  return writeDrawn('_standard_gamma', out, drawn);
});

/** Poisson draws, the rate each element of `input` (float32, float64 or bfloat16, as 1.13's CPU kernel; the counts in its dtype). */
export const poisson = front('poisson(Tensor input, Generator? generator=None) -> Tensor', { method: false }).run(([input, generator]): Tensor => {
  const x = unwrapTensor('poisson', 'self', input);
  if (x.dtype !== 'float32' && x.dtype !== 'float64' && x.dtype !== 'bfloat16') {
    throw new DTypeError(`poisson: "poisson_cpu" not implemented for '${torchTypeName(x.dtype)}'`);
  }
  onHost('poisson', input);
  const drawn = samplePoisson(generator ?? defaultGenerator, hostValues(input));
  const out = empty(input.shape, { dtype: x.dtype, device: input.device });
  return writeDrawn('poisson', out, drawn);
});
