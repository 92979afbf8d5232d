import { Tensor } from '@torch-ts/core';
import { noGrad } from '@torch-ts/autograd';
import { distributionBinder, type DistArgs, type ValidateOptions } from './args';
import { independent, positive, real, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { ValueError } from '@torch-ts/core';
import { Independent } from './independent';
import { Normal } from './normal';
import { ComposeTransform, ExpTransform, Transform } from './transforms';
import { sumRightmost, type Param } from './utils';

const transformedArgs = distributionBinder('TransformedDistribution', 'Any base_distribution, Any transforms, bool? validate_args=None');

/**
 * The distribution of f(X), X from `baseDistribution` and f the `transforms` applied in
 * order; log-probabilities by the change of variables.
 */
export class TransformedDistribution extends Distribution {
  readonly baseDist: Distribution;
  readonly transforms: readonly Transform[];

  constructor(
    ...args:
      | [baseDistribution: Distribution, transforms: Transform | readonly Transform[], validateArgs?: boolean | null]
      | [baseDistribution: Distribution, transforms: Transform | readonly Transform[], options: ValidateOptions]
  ) {
    super();
    const [base, transforms, validateArgs] = transformedArgs.bind(args);
    if (!(base instanceof Distribution)) throw new ValueError('base_distribution must be a Distribution');
    if (transforms instanceof Transform) this.transforms = [transforms];
    else if (Array.isArray(transforms) && transforms.every((t) => t instanceof Transform)) this.transforms = [...transforms];
    else throw new ValueError(`transforms must be a Transform or a list of Transforms, but was ${String(transforms)}`);
    const transform = new ComposeTransform(this.transforms);
    const baseShape = [...base.batchShape, ...base.eventShape];
    const baseEventDim = base.eventShape.length;
    const domainDim = transform.domain.eventDim;
    if (baseShape.length < domainDim) {
      throw new ValueError(`base_distribution needs to have shape with size at least ${domainDim}, but got ${baseShape.length}.`);
    }
    // (the transforms here keep shapes: forward_shape is the base shape)
    const reinterpreted = domainDim - baseEventDim;
    this.baseDist = reinterpreted > 0 ? new Independent(base, reinterpreted) : base;
    const eventDim = transform.codomain.eventDim + Math.max(baseEventDim - domainDim, 0);
    const cut = baseShape.length - eventDim;
    this.setup(baseShape.slice(0, cut), baseShape.slice(cut), validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return {};
  }

  override get support(): Constraint {
    if (this.transforms.length === 0) return this.baseDist.support;
    const s = this.transforms[this.transforms.length - 1].codomain;
    const extra = this.eventShape.length - s.eventDim;
    return extra > 0 ? independent(s, extra) : s;
  }

  override get hasRsample(): boolean {
    return this.baseDist.hasRsample;
  }

  override sample(...args: [sampleShape?: number[]] | [options: { sampleShape?: number[] }]): Tensor {
    return noGrad(() => this.transforms.reduce((x, t) => t.call(x), this.baseDist.sample(...args)));
  }

  override rsample(...args: [sampleShape?: number[]] | [options: { sampleShape?: number[] }]): Tensor {
    return this.transforms.reduce((x, t) => t.call(x), this.baseDist.rsample(...args));
  }

  override logProb(value: Tensor): Tensor {
    if (this.validateArgs) this.validateSample(value);
    let eventDim = this.eventShape.length;
    let logProb: Tensor | null = null;
    let y = value;
    for (const t of [...this.transforms].reverse()) {
      const x = t.inverse(y);
      eventDim += t.domain.eventDim - t.codomain.eventDim;
      const term = sumRightmost(t.logAbsDetJacobian(x, y), eventDim - t.domain.eventDim);
      logProb = logProb === null ? term.neg() : logProb.sub(term);
      y = x;
    }
    const base = sumRightmost(this.baseDist.logProb(y), eventDim - this.baseDist.eventShape.length);
    return logProb === null ? base : logProb.add(base);
  }

  /** The cdf through monotone transforms: a decreasing one flips it. */
  private monotonize(value: Tensor): Tensor {
    const sign = new ComposeTransform(this.transforms).sign;
    if (sign === 1) return value;
    return value.sub(0.5).mul(sign).add(0.5);
  }

  override cdf(value: Tensor): Tensor {
    let v = value;
    for (const t of [...this.transforms].reverse()) v = t.inverse(v);
    return this.monotonize(this.baseDist.cdf(v));
  }

  override icdf(value: Tensor): Tensor {
    return this.transforms.reduce((x, t) => t.call(x), this.baseDist.icdf(this.monotonize(value)));
  }

  protected override expandTo(batchShape: number[]): Distribution {
    const shape = [...batchShape, ...this.eventShape];
    const base = this.baseDist.expand(shape.slice(0, shape.length - this.baseDist.eventShape.length));
    return new TransformedDistribution(base, this.transforms, { validateArgs: false });
  }
}

const logNormalArgs = distributionBinder('LogNormal', 'Any loc, Any scale, bool? validate_args=None');

/** exp(X) for X ~ Normal(loc, scale). */
export class LogNormal extends TransformedDistribution {
  constructor(...args: DistArgs<[loc: Param, scale: Param], [validateArgs: boolean | null], ValidateOptions>) {
    const [, , validateArgs] = logNormalArgs.bind(args);
    super(new Normal(...args), new ExpTransform(), validateArgs);
  }

  get loc(): Tensor {
    return normalOf(this.baseDist).loc;
  }

  get scale(): Tensor {
    return normalOf(this.baseDist).scale;
  }

  override get argConstraints(): Readonly<Record<string, Constraint>> {
    return { loc: real, scale: positive };
  }

  protected override givenParams(): readonly string[] {
    // (Normal validated them; PyTorch's repr shows none: they are properties, not attributes)
    return [];
  }

  override get support(): Constraint {
    return positive;
  }

  override get mean(): Tensor {
    return this.loc.add(this.scale.pow(2).div(2)).exp();
  }

  override get mode(): Tensor {
    return this.loc.sub(this.scale.square()).exp();
  }

  override get variance(): Tensor {
    const s2 = this.scale.pow(2);
    return s2.expm1().mul(this.loc.mul(2).add(s2).exp());
  }

  override entropy(): Tensor {
    return this.baseDist.entropy().add(this.loc);
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new LogNormal(this.loc.expand(batchShape), this.scale.expand(batchShape), { validateArgs: false });
  }
}

function normalOf(d: Distribution): Normal {
  if (!(d instanceof Normal)) throw new ValueError('LogNormal: its base distribution is not a Normal');
  return d;
}
