import { Tensor, ValueError, _standardGamma, _standardGammaGrad, digamma, lgamma, oneHot, poisson, stack, where, xlogy, finfo } from '@torch-ts/core';
import { Function as AutogradFunction, type FunctionCtx } from '@torch-ts/autograd';
import { distributionBinder, type DistArgs, type ValidateOptions } from './args';
import { independent, nonnegative, nonnegativeInteger, positive, simplex, unitInterval, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { broadcastAll, type Param } from './utils';

/**
 * Note [Reparameterised Gamma-family samples]
 * A Gamma sample's gradient with respect to its concentration is d x / d alpha at the drawn x
 * (implicit reparameterisation: Note [The derivative of a Gamma sample] in kernels-cpu), which
 * `StandardGamma` attaches to `_standardGamma`'s draws, as PyTorch's derivative of
 * `_standard_gamma` does. Chi2 is a Gamma. Dirichlet samples are normalised Gamma draws (made
 * in double, as PyTorch's `_sample_dirichlet` makes them, so the values are PyTorch's for a
 * seed), and their gradient flows through that normalisation to each Gamma draw: a pathwise
 * gradient with the same expectation as PyTorch's (which differentiates the Beta marginals'
 * CDFs instead, `_dirichlet_grad`), but not its value per sample. Beta is a Dirichlet of two.
 * On WebGPU the draws and their gradient are made on the device (kernels-webgpu's Note
 * [WebGPU samplers]), in float32: it has no double, so Dirichlet's Gamma draws are float32
 * there (a tiny concentration's draws are then clamped to the smallest normal float).
 */
class StandardGamma extends AutogradFunction {
  static override forward(ctx: FunctionCtx, alpha: Tensor): Tensor {
    const x = _standardGamma(alpha);
    ctx.saveForBackward(alpha, x);
    return x;
  }

  static override backward(ctx: FunctionCtx, grad: Tensor | null): Tensor | null {
    const [alpha, x] = ctx.savedTensors;
    return grad === null ? null : grad.mul(_standardGammaGrad(alpha, x));
  }
}

/** Gamma(alpha, 1) draws, differentiable with respect to alpha. */
function standardGamma(alpha: Tensor): Tensor {
  return StandardGamma.apply<Tensor>(alpha);
}

const gammaArgs = distributionBinder('Gamma', 'Any concentration, Any rate, bool? validate_args=None');

/** The Gamma distribution of shape `concentration` and rate `rate` (mean concentration / rate). */
export class Gamma extends Distribution {
  readonly concentration: Tensor;
  readonly rate: Tensor;

  constructor(...args: DistArgs<[concentration: Param, rate: Param], [validateArgs: boolean | null], ValidateOptions>) {
    super();
    const [concentration, rate, validateArgs] = gammaArgs.bind(args);
    [this.concentration, this.rate] = broadcastAll(concentration, rate);
    this.setup(this.concentration.shape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { concentration: positive, rate: positive };
  }

  override get support(): Constraint {
    return nonnegative;
  }

  override get mean(): Tensor {
    return this.concentration.div(this.rate);
  }

  override get mode(): Tensor {
    return this.concentration.sub(1).div(this.rate).clampMin(0);
  }

  override get variance(): Tensor {
    return this.concentration.div(this.rate.pow(2));
  }

  override get hasRsample(): boolean {
    return true;
  }

  protected override draw(sampleShape: number[]): Tensor {
    const shape = this.extendedShape(sampleShape);
    const value = standardGamma(this.concentration.expand(shape)).div(this.rate.expand(shape));
    // (PyTorch clamps the values in place through a detached alias: the gradient is the unclamped one's)
    return value.add(value.detach().clampMin(finfo(value.dtype).tiny).sub(value.detach()));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const v = value.to(this.rate.dtype);
    return xlogy(this.concentration, this.rate).add(xlogy(this.concentration.sub(1), v)).sub(this.rate.mul(v)).sub(lgamma(this.concentration));
  }

  override entropy(): Tensor {
    return this.concentration
      .sub(this.rate.log())
      .add(lgamma(this.concentration))
      .add(this.concentration.neg().add(1).mul(digamma(this.concentration)));
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Gamma(this.concentration.expand(batchShape), this.rate.expand(batchShape), { validateArgs: false });
  }
}

const chi2Args = distributionBinder('Chi2', 'Any df, bool? validate_args=None');

/** The chi-squared distribution with `df` degrees of freedom: Gamma(df / 2, 1 / 2). */
export class Chi2 extends Gamma {
  constructor(...args: DistArgs<[df: Param], [validateArgs: boolean | null], ValidateOptions>) {
    const [df, validateArgs] = chi2Args.bind(args);
    const [d] = broadcastAll(df);
    super(d.mul(0.5), 0.5, validateArgs);
  }

  /** The degrees of freedom. */
  get df(): Tensor {
    return this.concentration.mul(2);
  }

  override get argConstraints(): Readonly<Record<string, Constraint>> {
    return { df: positive };
  }

  protected override reprParams(): readonly string[] {
    // (PyTorch's repr shows none: df is a property)
    return [];
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Chi2(this.df.expand(batchShape), { validateArgs: false });
  }
}

const dirichletArgs = distributionBinder('Dirichlet', 'Any concentration, bool? validate_args=None');

/** The Dirichlet distribution over the simplex of the last dim of `concentration`. */
export class Dirichlet extends Distribution {
  readonly concentration: Tensor;

  constructor(...args: [concentration: Tensor, validateArgs?: boolean | null] | [concentration: Tensor, options: ValidateOptions]) {
    super();
    const [concentration, validateArgs] = dirichletArgs.bind(args);
    if (!(concentration instanceof Tensor) || concentration.dim() < 1) throw new ValueError('`concentration` parameter must be at least one-dimensional.');
    this.concentration = concentration;
    this.setup(concentration.shape.slice(0, -1), concentration.shape.slice(-1), validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { concentration: independent(positive, 1) };
  }

  override get support(): Constraint {
    return simplex;
  }

  override get mean(): Tensor {
    return this.concentration.div(this.concentration.sum(-1, true));
  }

  override get mode(): Tensor {
    const k = this.concentration.shape[this.concentration.dim() - 1];
    const cm1 = this.concentration.sub(1).clampMin(0);
    const m = cm1.div(cm1.sum(-1, true));
    // (where every concentration is below 1 the density peaks at a vertex: one-hot at the largest)
    const vertex = oneHot(m.argmax(-1), k).to(m.dtype);
    return where(this.concentration.lt(1).all(-1).unsqueeze(-1), vertex, m);
  }

  override get variance(): Tensor {
    const c0 = this.concentration.sum(-1, true);
    return this.concentration.mul(c0.sub(this.concentration)).div(c0.pow(2).mul(c0.add(1)));
  }

  override get hasRsample(): boolean {
    return true;
  }

  protected override draw(sampleShape: number[]): Tensor {
    const alpha = this.concentration.expand(this.extendedShape(sampleShape));
    // (in double where the device has it: a tiny concentration's draws underflow float32)
    const g = standardGamma(alpha.device.type === 'cpu' ? alpha.to('float64') : alpha);
    const x = g.div(g.sum(-1, true)).to(alpha.dtype);
    // (kept within [the smallest normal, the largest value below 1], the gradient the unclamped one's)
    const { tiny, eps } = finfo(alpha.dtype);
    const kept = x.detach().clamp(tiny, 1 - eps / 2);
    return x.add(kept.sub(x.detach()));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    return xlogy(this.concentration.sub(1), value).sum(-1).add(lgamma(this.concentration.sum(-1))).sub(lgamma(this.concentration).sum(-1));
  }

  override entropy(): Tensor {
    const k = this.concentration.shape[this.concentration.dim() - 1];
    const a0 = this.concentration.sum(-1);
    return lgamma(this.concentration)
      .sum(-1)
      .sub(lgamma(a0))
      .sub(a0.neg().add(k).mul(digamma(a0)))
      .sub(this.concentration.sub(1).mul(digamma(this.concentration)).sum(-1));
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Dirichlet(this.concentration.expand([...batchShape, ...this.eventShape]), { validateArgs: false });
  }
}

const betaArgs = distributionBinder('Beta', 'Any concentration1, Any concentration0, bool? validate_args=None');

/** The Beta distribution on [0, 1]: the first coordinate of Dirichlet([concentration1, concentration0]). */
export class Beta extends Distribution {
  readonly concentration1: Tensor;
  readonly concentration0: Tensor;
  readonly #dirichlet: Dirichlet;

  constructor(...args: DistArgs<[concentration1: Param, concentration0: Param], [validateArgs: boolean | null], ValidateOptions>) {
    super();
    const [c1, c0, validateArgs] = betaArgs.bind(args);
    [this.concentration1, this.concentration0] = broadcastAll(c1, c0);
    this.#dirichlet = new Dirichlet(stack([this.concentration1, this.concentration0], -1), validateArgs);
    this.setup(this.#dirichlet.batchShape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { concentration1: positive, concentration0: positive };
  }

  protected override givenParams(): readonly string[] {
    // (PyTorch's repr shows none: they are properties of the wrapped Dirichlet)
    return [];
  }

  override get support(): Constraint {
    return unitInterval;
  }

  override get mean(): Tensor {
    return this.concentration1.div(this.concentration1.add(this.concentration0));
  }

  override get mode(): Tensor {
    return this.#dirichlet.mode.select(-1, 0);
  }

  override get variance(): Tensor {
    const total = this.concentration1.add(this.concentration0);
    return this.concentration1.mul(this.concentration0).div(total.pow(2).mul(total.add(1)));
  }

  override get hasRsample(): boolean {
    return true;
  }

  protected override draw(sampleShape: number[]): Tensor {
    return this.#dirichlet.rsample(sampleShape).select(-1, 0);
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    return this.#dirichlet.logProb(stack([value, value.neg().add(1)], -1));
  }

  override entropy(): Tensor {
    return this.#dirichlet.entropy();
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Beta(this.concentration1.expand(batchShape), this.concentration0.expand(batchShape), { validateArgs: false });
  }
}

const poissonArgs = distributionBinder('Poisson', 'Any rate, bool? validate_args=None');

/** The Poisson distribution of rate `rate`. */
export class Poisson extends Distribution {
  readonly rate: Tensor;

  constructor(...args: DistArgs<[rate: Param], [validateArgs: boolean | null], ValidateOptions>) {
    super();
    const [rate, validateArgs] = poissonArgs.bind(args);
    [this.rate] = broadcastAll(rate);
    this.setup(this.rate.shape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { rate: nonnegative };
  }

  override get support(): Constraint {
    return nonnegativeInteger;
  }

  override get mean(): Tensor {
    return this.rate;
  }

  override get mode(): Tensor {
    return this.rate.floor();
  }

  override get variance(): Tensor {
    return this.rate;
  }

  protected override draw(sampleShape: number[]): Tensor {
    return poisson(this.rate.expand(this.extendedShape(sampleShape)));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const [rate, v] = broadcastAll(this.rate, value);
    return xlogy(v, rate).sub(rate).sub(lgamma(v.add(1)));
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Poisson(this.rate.expand(batchShape), { validateArgs: false });
  }
}
