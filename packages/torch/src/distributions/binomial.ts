import { NotImplementedError, Tensor, ValueError, arange, binomial, lgamma } from '@torch-ts/core';
import { distributionBinder } from './args';
import { integerInterval, nonnegativeInteger, real, unitInterval, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { broadcastAll, logitsToProbs, probsToLogits, type Param } from './utils';

const binomialArgs = distributionBinder('Binomial', 'Any total_count=1, Any? probs=None, Any? logits=None, bool? validate_args=None');

export interface BinomialOptions {
  totalCount?: Param;
  probs?: Param | null;
  logits?: Param | null;
  validateArgs?: boolean | null;
}

/** (clamp(x, min=0) + x - clamp(x, max=0)) / 2: max(x, 0) with a gradient of 1/2 at 0, as PyTorch's `_clamp_by_zero`. */
function clampByZero(x: Tensor): Tensor {
  return x.clampMin(0).add(x).sub(x.clampMax(0)).div(2);
}

/** The number of successes in `totalCount` trials of probability `probs` (or sigmoid(`logits`)). */
export class Binomial extends Distribution {
  readonly totalCount: Tensor;
  readonly probs: Tensor;
  readonly logits: Tensor;
  readonly #given: 'probs' | 'logits';

  constructor(...args: [totalCount?: Param, probs?: Param | null, logits?: Param | null, validateArgs?: boolean | null] | [totalCount: Param, options: Omit<BinomialOptions, 'totalCount'>] | [options: BinomialOptions]) {
    super();
    const [totalCount, probs, logits, validateArgs] = binomialArgs.bind(args);
    if ((probs == null) === (logits == null)) throw new ValueError('Either `probs` or `logits` must be specified, but not both.');
    let n: Tensor;
    if (probs != null) {
      [n, this.probs] = broadcastAll(totalCount, probs);
      this.logits = probsToLogits(this.probs, true);
      this.#given = 'probs';
    } else {
      let l: Tensor;
      [n, l] = broadcastAll(totalCount, logits);
      this.logits = l;
      this.probs = logitsToProbs(l, true);
      this.#given = 'logits';
    }
    this.totalCount = n.to(this.probs.dtype);
    this.setup(this.probs.shape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { totalCount: nonnegativeInteger, probs: unitInterval, logits: real };
  }

  protected override givenParams(): readonly string[] {
    return ['totalCount', this.#given];
  }

  override get support(): Constraint {
    return integerInterval(0, this.totalCount);
  }

  override get hasEnumerateSupport(): boolean {
    return true;
  }

  override get mean(): Tensor {
    return this.totalCount.mul(this.probs);
  }

  override get mode(): Tensor {
    return this.totalCount.add(1).mul(this.probs).floor().clampMax(this.totalCount);
  }

  override get variance(): Tensor {
    return this.totalCount.mul(this.probs).mul(this.probs.neg().add(1));
  }

  protected override draw(sampleShape: number[]): Tensor {
    const shape = this.extendedShape(sampleShape);
    return binomial(this.totalCount.expand(shape), this.probs.expand(shape));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const logFactorialN = lgamma(this.totalCount.add(1));
    const logFactorialK = lgamma(value.add(1));
    const logFactorialNmk = lgamma(this.totalCount.sub(value).add(1));
    // k log p + (n - k) log(1 - p) = k logit - n max(logit, 0) - n log1p(exp(-|logit|))
    const normalize = this.totalCount.mul(clampByZero(this.logits)).add(this.totalCount.mul(this.logits.abs().neg().exp().log1p())).sub(logFactorialN);
    return value.mul(this.logits).sub(logFactorialK).sub(logFactorialNmk).sub(normalize);
  }

  /** The counts 0, ..., totalCount along a new first dim (one total count for the whole batch). */
  enumerateSupport(expand = true): Tensor {
    const total = Number(this.totalCount.max().item());
    if (this.totalCount.min().item() !== total) throw new NotImplementedError('Inhomogeneous total count not supported by `enumerate_support`.');
    const batch = this.batchShape;
    const values = arange(1 + total, { dtype: this.probs.dtype, device: this.probs.device }).view([-1, ...batch.map(() => 1)]);
    return expand ? values.expand([-1, ...batch]) : values;
  }

  override entropy(): Tensor {
    const total = Number(this.totalCount.max().item());
    if (this.totalCount.min().item() !== total) throw new NotImplementedError('Inhomogeneous total count not supported by `entropy`.');
    const lp = this.logProb(this.enumerateSupport(false));
    return lp.exp().mul(lp).sum(0).neg();
  }

  protected override expandTo(batchShape: number[]): Distribution {
    const p = this.#given === 'probs' ? { probs: this.probs.expand(batchShape) } : { logits: this.logits.expand(batchShape) };
    return new Binomial({ totalCount: this.totalCount.expand(batchShape), ...p, validateArgs: false });
  }
}
