import { Tensor, arange, bernoulli, binaryCrossEntropyWithLogits } from '@torch-ts/core';
import { distributionBinder, type ValidateOptions } from './args';
import { boolean, real, unitInterval, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { ValueError } from '@torch-ts/core';
import { broadcastAll, logitsToProbs, probsToLogits, type Param } from './utils';

const bernoulliArgs = distributionBinder('Bernoulli', 'Any? probs=None, Any? logits=None, bool? validate_args=None');

export interface ProbsOrLogits extends ValidateOptions {
  probs?: Param | null;
  logits?: Param | null;
}

/** The Bernoulli distribution: 1 with probability `probs` (or sigmoid(`logits`)), else 0. */
export class Bernoulli extends Distribution {
  readonly probs: Tensor;
  readonly logits: Tensor;
  readonly #given: 'probs' | 'logits';

  constructor(...args: [probs: Param | null, logits?: Param | null, validateArgs?: boolean | null] | [options: ProbsOrLogits]) {
    super();
    const [probs, logits, validateArgs] = bernoulliArgs.bind(args);
    if ((probs == null) === (logits == null)) throw new ValueError('Either `probs` or `logits` must be specified, but not both.');
    if (probs != null) {
      [this.probs] = broadcastAll(probs);
      this.logits = probsToLogits(this.probs, true);
      this.#given = 'probs';
    } else {
      [this.logits] = broadcastAll(logits);
      this.probs = logitsToProbs(this.logits, true);
      this.#given = 'logits';
    }
    this.setup(this.probs.shape, [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { probs: unitInterval, logits: real };
  }

  protected override givenParams(): readonly string[] {
    return [this.#given];
  }

  override get support(): Constraint {
    return boolean;
  }

  override get hasEnumerateSupport(): boolean {
    return true;
  }

  override get mean(): Tensor {
    return this.probs;
  }

  override get mode(): Tensor {
    return this.probs.ge(0.5).to(this.probs.dtype).maskedFill(this.probs.eq(0.5), Number.NaN);
  }

  override get variance(): Tensor {
    return this.probs.mul(this.probs.neg().add(1));
  }

  protected override draw(sampleShape: number[]): Tensor {
    return bernoulli(this.probs.expand(this.extendedShape(sampleShape)));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const [logits, v] = broadcastAll(this.logits, value);
    return binaryCrossEntropyWithLogits(logits, v, { reduction: 'none' }).neg();
  }

  override entropy(): Tensor {
    return binaryCrossEntropyWithLogits(this.logits, this.probs, { reduction: 'none' });
  }

  /** The values 0 and 1, along a new first dim (expanded over the batch unless `expand` is false). */
  enumerateSupport(expand = true): Tensor {
    const batch = this.batchShape;
    const values = arange(2, { dtype: this.probs.dtype, device: this.probs.device }).view([-1, ...batch.map(() => 1)]);
    return expand ? values.expand([-1, ...batch]) : values;
  }

  protected override expandTo(batchShape: number[]): Distribution {
    const p = this.#given === 'probs' ? { probs: this.probs.expand(batchShape) } : { logits: this.logits.expand(batchShape) };
    return new Bernoulli({ ...p, validateArgs: false });
  }
}
