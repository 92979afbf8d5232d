import { Tensor, zerosLike } from '@torch-ts/core';
import { distributionBinder, type DistArgs, type ValidateOptions } from './args';
import { nonnegative, positive, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { broadcastAll, standardExponential, type Param } from './utils';

const exponentialArgs = distributionBinder('Exponential', 'Any rate, bool? validate_args=None');

/** The exponential distribution of rate `rate` (mean 1 / rate). */
export class Exponential extends Distribution {
  readonly rate: Tensor;

  constructor(...args: DistArgs<[rate: Param], [validateArgs: boolean | null], ValidateOptions>) {
    super();
    const [rate, validateArgs] = exponentialArgs.bind(args);
    [this.rate] = broadcastAll(rate);
    this.setup(this.rate.shape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { rate: positive };
  }

  override get support(): Constraint {
    return nonnegative;
  }

  override get hasRsample(): boolean {
    return true;
  }

  override get mean(): Tensor {
    return this.rate.reciprocal();
  }

  override get mode(): Tensor {
    return zerosLike(this.rate);
  }

  override get stddev(): Tensor {
    return this.rate.reciprocal();
  }

  override get variance(): Tensor {
    return this.rate.pow(-2);
  }

  protected override draw(sampleShape: number[]): Tensor {
    return standardExponential(this.extendedShape(sampleShape), this.rate.dtype, this.rate.device).div(this.rate);
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    return this.rate.log().sub(this.rate.mul(value));
  }

  override cdf(value: Tensor): Tensor {
    this.validateSample(value);
    return this.rate.neg().mul(value).exp().neg().add(1);
  }

  override icdf(value: Tensor): Tensor {
    return value.neg().log1p().neg().div(this.rate);
  }

  override entropy(): Tensor {
    return this.rate.log().neg().add(1);
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Exponential(this.rate.expand(batchShape), { validateArgs: false });
  }
}
