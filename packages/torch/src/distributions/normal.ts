import { Tensor, erf, erfinv } from '@torch-ts/core';
import type { Distribution } from './distribution';
import { LocScaleDistribution, type LocScaleArgs } from './loc-scale';
import { standardNormal } from './utils';

const LOG_SQRT_2PI = Math.log(Math.sqrt(2 * Math.PI));

/** The normal distribution N(loc, scale²). */
export class Normal extends LocScaleDistribution {
  constructor(...args: LocScaleArgs) {
    super('Normal', args);
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
