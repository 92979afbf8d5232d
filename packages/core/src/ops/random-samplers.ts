/**
 * `_standard_gamma`, `_sample_dirichlet`, `poisson` and `binomial`: draws whose distribution
 * each element of the input parametrises, on the host in PyTorch CPU's order (Note [Gamma and Poisson draws]).
 * Neither has a device kernel yet: on another device they raise NotImplementedError rather
 * than read the parameters back. `_standard_gamma` has no gradient here yet (PyTorch's is
 * `_standard_gamma_grad`), so its result never requires one, and a distribution built on it
 * does not offer `rsample` (torch.distributions' Gamma).
 */
import { CPU } from '../device';
import { finfo } from '../dtype';
import { NotImplementedError, DTypeError } from '../errors';
import { defaultGenerator } from '../random/generator';
import { sampleBinomial, sampleGamma, samplePoisson } from '../random/distributions';
import { broadcastShapes } from '../iterator';
import type { Tensor } from '../tensor/tensor';
import { callFunctional, unwrapTensor } from './call';
import { defineStructured, implOf } from './registry';
import { TensorImpl } from '../tensor/tensor-impl';
import { broadcastTo, commonDevice } from './meta-utils';
import { contiguousAs } from './nn-impls';
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

/**
 * Dirichlet draws, one per row along the last dim of `input` (the concentrations): Gamma
 * draws made in double (PyTorch's `_sample_dirichlet` casts alpha up so small ones do not
 * underflow), each divided by its row's sum, then kept within [the dtype's smallest normal,
 * the largest value below 1].
 */
export const _sampleDirichlet = front('_sample_dirichlet(Tensor input, Generator? generator=None) -> Tensor', { name: '_sampleDirichlet', method: false }).run(
  ([input, generator]): Tensor => {
    const x = unwrapTensor('_sample_dirichlet', 'self', input);
    if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new DTypeError(`_sample_dirichlet: "dirichlet" not implemented for '${torchTypeName(x.dtype)}'`);
    onHost('_sample_dirichlet', input);
    const gamma = sampleGamma(generator ?? defaultGenerator, hostValues(input), 'float64');
    const k = x.dim === 0 ? 1 : x.sizes[x.dim - 1];
    const single = x.dtype === 'float32';
    const { tiny: smallest, eps } = finfo(x.dtype);
    // (the largest value below 1: nexttoward(1, 0))
    const below1 = 1 - eps / 2;
    const round = single ? Math.fround : (v: number) => v;
    for (let r = 0; r + k <= gamma.length; r += k) {
      let sum = 0;
      for (let j = r; j < r + k; j++) sum += gamma[j]!;
      for (let j = r; j < r + k; j++) gamma[j] = Math.min(below1, Math.max(smallest, round(gamma[j]! / sum)));
    }
    const out = empty(input.shape, { dtype: x.dtype, device: input.device });
    return writeDrawn('_sample_dirichlet', out, gamma);
  },
);

/** Binomial draws: `count` trials of probability `prob` each (same dtype, broadcast together; float32 or float64). */
export const binomial = front('binomial(Tensor count, Tensor prob, Generator? generator=None) -> Tensor', { method: false }).run(([count, prob, generator]): Tensor => {
  const c = unwrapTensor('binomial', 'count', count);
  const p = unwrapTensor('binomial', 'prob', prob);
  if (p.dtype !== c.dtype) throw new DTypeError(`binomial: Found dtype ${torchTypeName(p.dtype)} but expected ${torchTypeName(c.dtype)}`);
  if (c.dtype !== 'float32' && c.dtype !== 'float64') throw new DTypeError(`binomial: "binomial_cpu" not implemented for '${torchTypeName(c.dtype)}'`);
  onHost('binomial', count);
  onHost('binomial', prob);
  const shape = broadcastShapes('binomial', c.sizes, p.sizes);
  const ce = count.expand(shape);
  const pe = prob.expand(shape);
  try {
    const drawn = sampleBinomial(generator ?? defaultGenerator, hostValues(ce), hostValues(pe));
    return writeDrawn('binomial', empty(shape, { dtype: c.dtype, device: count.device }), drawn);
  } finally {
    ce.dispose();
    pe.dispose();
  }
});

/**
 * `_standard_gamma_grad(alpha, x)`: d x / d alpha of Gamma(alpha, 1) samples x (the gradient
 * of `_standard_gamma`, Note [The derivative of a Gamma sample] in kernels-cpu), elementwise
 * over the broadcast operands of one floating dtype.
 */
export const STANDARD_GAMMA_GRAD = defineStructured('_standard_gamma_grad(Tensor self, Tensor output) -> Tensor', ([self, output], b) => {
  const op = '_standard_gamma_grad';
  if (self.dtype !== output.dtype) throw new DTypeError(`${op}: expected self and output of one dtype, but got ${torchTypeName(self.dtype)} and ${torchTypeName(output.dtype)}`);
  if (self.dtype !== 'float32' && self.dtype !== 'float64') throw new DTypeError(`${op}: "_standard_gamma_grad_cpu" not implemented for '${torchTypeName(self.dtype)}'`);
  const device = commonDevice(op, [self, output]);
  const shape = broadcastShapes(op, self.sizes, output.sizes);
  const out = TensorImpl.empty(op, shape, self.dtype, device);
  const parts: TensorImpl[] = [];
  try {
    for (const t of [self, output]) {
      const e = broadcastTo(t, shape);
      parts.push(e);
      parts.push(contiguousAs(b, op, e, self.dtype));
    }
    implOf(b, 'standardGammaGrad', op)(out, parts[1], parts[3], out.numel);
  } catch (e) {
    out.release();
    throw e;
  } finally {
    for (const p of parts) p.release();
  }
  return out;
});

/** d x / d alpha of Gamma(alpha, 1) samples `output` (no gradient of its own, as in PyTorch). */
export const _standardGammaGrad = front('_standard_gamma_grad(Tensor input, Tensor output) -> Tensor', { name: '_standardGammaGrad', method: false }).run(
  ([input, output]): Tensor => callFunctional(STANDARD_GAMMA_GRAD, [unwrapTensor('_standard_gamma_grad', 'self', input), unwrapTensor('_standard_gamma_grad', 'output', output)]),
);
