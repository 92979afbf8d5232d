import { Tensor, empty, finfo } from '@torch-ts/core';
import type { Distribution } from './distribution';
import { LocScaleDistribution, type LocScaleArgs } from './loc-scale';


/** The Laplace distribution: density exp(-|x - loc| / scale) / (2 scale). */
export class Laplace extends LocScaleDistribution {
  constructor(...args: LocScaleArgs) {
    super('Laplace', args);
  }

  override get variance(): Tensor {
    return this.scale.pow(2).mul(2);
  }

  override get stddev(): Tensor {
    return this.scale.mul(Math.SQRT2);
  }

  protected override draw(sampleShape: number[]): Tensor {
    // (PyTorch draws u in [eps - 1, 1), so that log1p(-|u|) is finite)
    const u = empty(this.extendedShape(sampleShape), { dtype: this.loc.dtype, device: this.loc.device }).uniform_(finfo(this.loc.dtype).eps - 1, 1);
    return this.loc.sub(this.scale.mul(u.sign()).mul(u.abs().neg().log1p()));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    return this.scale.mul(2).log().neg().sub(value.sub(this.loc).abs().div(this.scale));
  }

  override cdf(value: Tensor): Tensor {
    this.validateSample(value);
    const d = value.sub(this.loc);
    return d.sign().mul(d.abs().neg().div(this.scale).expm1()).mul(-0.5).add(0.5);
  }

  override icdf(value: Tensor): Tensor {
    const term = value.sub(0.5);
    return this.loc.sub(this.scale.mul(term.sign()).mul(term.abs().mul(-2).log1p()));
  }

  override entropy(): Tensor {
    return this.scale.mul(2).log().add(1);
  }

  protected override expandTo(batchShape: number[]): Distribution {
    return new Laplace(this.loc.expand(batchShape), this.scale.expand(batchShape), { validateArgs: false });
  }
}
