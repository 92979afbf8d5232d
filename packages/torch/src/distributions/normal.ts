import { Tensor, erf, erfinv } from '@torch-ts/core';
import { distributionBinder, type DistArgs, type ValidateOptions } from './args';
import { positive, real, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { broadcastAll, standardNormal, type Param } from './utils';

const LOG_SQRT_2PI = Math.log(Math.sqrt(2 * Math.PI));
const normalArgs = distributionBinder('Normal', 'Any loc, Any scale, bool? validate_args=None');

/** The normal distribution N(loc, scale²). */
export class Normal extends Distribution {
  readonly loc: Tensor;
  readonly scale: Tensor;

  constructor(...args: DistArgs<[loc: Param, scale: Param], [validateArgs: boolean | null], ValidateOptions>) {
    super();
    const [loc, scale, validateArgs] = normalArgs.bind(args);
    [this.loc, this.scale] = broadcastAll(loc, scale);
    this.setup(this.loc.shape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { loc: real, scale: positive };
  }

  override get support(): Constraint {
    return real;
  }

  override get hasRsample(): boolean {
    return true;
  }

  override get mean(): Tensor {
    return this.loc;
  }

  override get mode(): Tensor {
    return this.loc;
  }

  override get stddev(): Tensor {
    return this.scale;
  }

  override get variance(): Tensor {
    return this.scale.pow(2);
  }

  protected override draw(sampleShape: number[], reparameterized: boolean): Tensor {
    void reparameterized;
    // (PyTorch's sample is torch.normal(loc, scale), which scales and shifts the same standard draws)
    const shape = this.extendedShape(sampleShape);
    return standardNormal(shape, this.loc.dtype, this.loc.device).mul(this.scale).add(this.loc);
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const v = this.scale.pow(2);
    return value.sub(this.loc).pow(2).neg().div(v.mul(2)).sub(this.scale.log()).sub(LOG_SQRT_2PI);
  }

  override cdf(value: Tensor): Tensor {
    this.validateSample(value);
    return erf(value.sub(this.loc).mul(this.scale.reciprocal()).div(Math.SQRT2)).add(1).mul(0.5);
  }

  override icdf(value: Tensor): Tensor {
    return this.loc.add(this.scale.mul(erfinv(value.mul(2).sub(1))).mul(Math.SQRT2));
  }

  override entropy(): Tensor {
    return this.scale.log().add(0.5 + 0.5 * Math.log(2 * Math.PI));
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Normal(this.loc.expand(batchShape), this.scale.expand(batchShape), { validateArgs: false });
  }
}
