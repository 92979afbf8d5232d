import { Tensor, rand } from '@torch-ts/core';
import { distributionBinder, type DistArgs, type ValidateOptions } from './args';
import { dependent, interval, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { ValueError } from '@torch-ts/core';
import { allTrue, broadcastAll, type Param } from './utils';

const uniformArgs = distributionBinder('Uniform', 'Any low, Any high, bool? validate_args=None');

/** The continuous uniform distribution on [low, high). */
export class Uniform extends Distribution {
  readonly low: Tensor;
  readonly high: Tensor;

  constructor(...args: DistArgs<[low: Param, high: Param], [validateArgs: boolean | null], ValidateOptions>) {
    super();
    const [low, high, validateArgs] = uniformArgs.bind(args);
    [this.low, this.high] = broadcastAll(low, high);
    this.setup(this.low.shape, [], validateArgs);
    if (this.validateArgs && allTrue(this.low.lt(this.high)) === false) throw new ValueError('Uniform is not defined when low>= high');
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { low: dependent, high: dependent };
  }

  override get support(): Constraint {
    return interval(this.low, this.high);
  }

  override get hasRsample(): boolean {
    return true;
  }

  override get mean(): Tensor {
    return this.high.add(this.low).div(2);
  }

  override get mode(): Tensor {
    return this.high.mul(Number.NaN);
  }

  override get stddev(): Tensor {
    return this.high.sub(this.low).div(12 ** 0.5);
  }

  override get variance(): Tensor {
    return this.high.sub(this.low).pow(2).div(12);
  }

  protected override draw(sampleShape: number[]): Tensor {
    const u = rand(this.extendedShape(sampleShape), { dtype: this.low.dtype, device: this.low.device });
    return this.low.add(u.mul(this.high.sub(this.low)));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const lb = this.low.le(value).to(this.low.dtype);
    const ub = this.high.gt(value).to(this.low.dtype);
    return lb.mul(ub).log().sub(this.high.sub(this.low).log());
  }

  override cdf(value: Tensor): Tensor {
    this.validateSample(value);
    return value.sub(this.low).div(this.high.sub(this.low)).clamp(0, 1);
  }

  override icdf(value: Tensor): Tensor {
    return value.mul(this.high.sub(this.low)).add(this.low);
  }

  override entropy(): Tensor {
    return this.high.sub(this.low).log();
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Uniform(this.low.expand(batchShape), this.high.expand(batchShape), { validateArgs: false });
  }
}
