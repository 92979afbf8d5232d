import { Tensor } from '@torch-ts/core';
import { distributionBinder, type ValidateOptions } from './args';
import { independent, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { ValueError } from '@torch-ts/core';
import { sumRightmost } from './utils';

const independentArgs = distributionBinder('Independent', 'Any base_distribution, int reinterpreted_batch_ndims, bool? validate_args=None');

/**
 * Reinterprets the rightmost `reinterpretedBatchNdims` batch dims of `baseDistribution` as
 * event dims: log-probabilities and entropies are summed over them.
 */
export class Independent extends Distribution {
  readonly baseDist: Distribution;
  readonly reinterpretedBatchNdims: number;

  constructor(
    ...args: [baseDistribution: Distribution, reinterpretedBatchNdims: number, validateArgs?: boolean | null] | [baseDistribution: Distribution, reinterpretedBatchNdims: number, options: ValidateOptions]
  ) {
    super();
    const [base, n, validateArgs] = independentArgs.bind(args);
    if (!(base instanceof Distribution)) throw new ValueError('Independent: base_distribution must be a Distribution');
    const batch = base.batchShape;
    if (n > batch.length) {
      throw new ValueError(`Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), actual ${n} vs ${batch.length}`);
    }
    this.baseDist = base;
    this.reinterpretedBatchNdims = n;
    const split = batch.length - n;
    this.setup(batch.slice(0, split), [...batch.slice(split), ...base.eventShape], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return {};
  }

  override get support(): Constraint {
    const s = this.baseDist.support;
    return this.reinterpretedBatchNdims === 0 ? s : independent(s, this.reinterpretedBatchNdims);
  }

  override get hasRsample(): boolean {
    return this.baseDist.hasRsample;
  }

  override get hasEnumerateSupport(): boolean {
    return this.reinterpretedBatchNdims > 0 ? false : this.baseDist.hasEnumerateSupport;
  }

  override get mean(): Tensor {
    return this.baseDist.mean;
  }

  override get mode(): Tensor {
    return this.baseDist.mode;
  }

  override get variance(): Tensor {
    return this.baseDist.variance;
  }

  override sample(...args: [sampleShape?: number[]] | [options: { sampleShape?: number[] }]): Tensor {
    return this.baseDist.sample(...args);
  }

  override rsample(...args: [sampleShape?: number[]] | [options: { sampleShape?: number[] }]): Tensor {
    return this.baseDist.rsample(...args);
  }

  override logProb(value: Tensor): Tensor {
    return sumRightmost(this.baseDist.logProb(value), this.reinterpretedBatchNdims);
  }

  override entropy(): Tensor {
    return sumRightmost(this.baseDist.entropy(), this.reinterpretedBatchNdims);
  }

  protected override expandTo(batchShape: number[]): Distribution {
    const extra = this.eventShape.slice(0, this.reinterpretedBatchNdims);
    return new Independent(this.baseDist.expand([...batchShape, ...extra]), this.reinterpretedBatchNdims, { validateArgs: false });
  }

  override toString(): string {
    return `Independent(${this.baseDist}, ${this.reinterpretedBatchNdims})`;
  }
}
