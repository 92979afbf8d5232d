/**
 * `_standard_gamma`, `_sample_dirichlet`, `poisson` and `binomial`: draws whose distribution
 * each element of the input parametrises, on the host in PyTorch CPU's order (Note [Gamma and Poisson draws]).
 * On a device whose backend has the random impls (Note [Counter-based random streams]),
 * they draw there (`standardGamma`, `sampleDirichlet`, `poisson`, `binomial`); on any other
 * device but the CPU they raise NotImplementedError rather than read the parameters back. The gradient of Gamma samples
 * (`_standard_gamma_grad`) is attached by torch.distributions.
 */
import { CPU } from '../device';
import { finfo } from '../dtype';
import { NotImplementedError, DTypeError } from '../errors';
import { defaultGenerator } from '../random/generator';
import { sampleBinomial, sampleGamma, samplePoisson } from '../random/distributions';
import { broadcastShapes } from '../iterator';
import { Tensor } from '../tensor/tensor';
import type { Generator } from '../random/generator';
import { deviceRandomImpl, deviceStream } from './random-impls';
import { callFunctional, unwrapTensor } from './call';
import { defineStructured, implOf } from './registry';
import { TensorImpl } from '../tensor/tensor-impl';
import { broadcastTo, commonDevice } from './meta-utils';
import { contiguousAs } from './nn-impls';
import { empty } from './factories';
import { front } from './front';
import { torchTypeName } from './meta-utils';
import { hostValues, writeDrawn } from './random-extra';

/** Draws made by the device's impl `name` from a contiguous copy of `input`, or null where the device has none (the CPU draws on the host). */
function drawnBy(name: 'standardGamma' | 'sampleDirichlet' | 'poisson', op: string, input: Tensor, gen: Generator): Tensor | null {
  const impl = deviceRandomImpl(input.device, name);
  if (!impl) return null;
  const alpha = input.contiguous();
  const out = TensorImpl.empty(op, input.shape, input.dtype, input.device);
  try {
    if (out.numel > 0) impl(out, unwrapTensor(op, 'self', alpha), deviceStream(gen));
  } catch (e) {
    out.release();
    throw e;
  } finally {
    if (alpha !== input) alpha.dispose();
  }
  return new Tensor(out);
}

function onHost(op: string, t: Tensor): void {
  if (t.device !== CPU) throw new NotImplementedError(`${op}: not implemented on ${t.device.type} yet (its draws are made on the CPU)`);
}

/** Gamma(alpha, 1) draws, alpha each element of `input` (float32 or float64). */
export const _standardGamma = front('_standard_gamma(Tensor input, Generator? generator=None) -> Tensor', { name: '_standardGamma', method: false }).run(([input, generator]): Tensor => {
  const x = unwrapTensor('_standard_gamma', 'self', input);
  if (x.dtype !== 'float32' && x.dtype !== 'float64') throw new DTypeError(`_standard_gamma: "gamma_cpu" not implemented for '${torchTypeName(x.dtype)}'`);
  const onDevice = drawnBy('standardGamma', '_standard_gamma', input, generator ?? defaultGenerator);
  if (onDevice) return onDevice;
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
  const onDevice = drawnBy('poisson', 'poisson', input, generator ?? defaultGenerator);
  if (onDevice) return onDevice;
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
    const onDevice = drawnBy('sampleDirichlet', '_sample_dirichlet', input, generator ?? defaultGenerator);
    if (onDevice) return onDevice;
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
  const shape = broadcastShapes('binomial', c.sizes, p.sizes);
  const impl = deviceRandomImpl(count.device, 'binomial');
  if (impl) {
    commonDevice('binomial', [c, p]);
    const expanded = [count.expand(shape), prob.expand(shape)];
    const parts = expanded.map((t) => t.contiguous());
    const out = TensorImpl.empty('binomial', shape, c.dtype, count.device);
    try {
      if (out.numel > 0) impl(out, unwrapTensor('binomial', 'count', parts[0]), unwrapTensor('binomial', 'prob', parts[1]), deviceStream(generator ?? defaultGenerator));
    } catch (e) {
      out.release();
      throw e;
    } finally {
      for (const t of new Set([...expanded, ...parts])) t.dispose();
    }
    return new Tensor(out);
  }
  onHost('binomial', count);
  onHost('binomial', prob);
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
