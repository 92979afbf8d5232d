import { Tensor, arange, broadcastShapes, eye, full, multinomial, oneHot as oneHotOf, finfo } from '@torch-ts/core';
import { distributionBinder } from './args';
import { independent, integerInterval, oneHot, real, simplex, type Constraint } from './constraints';
import { Distribution } from './distribution';
import { ValueError } from '@torch-ts/core';
import type { ProbsOrLogits } from './bernoulli';
import { logitsToProbs, probsToLogits, type Param } from './utils';

const categoricalArgs = distributionBinder('Categorical', 'Any? probs=None, Any? logits=None, bool? validate_args=None');
const oneHotArgs = distributionBinder('OneHotCategorical', 'Any? probs=None, Any? logits=None, bool? validate_args=None');

type CategoricalArgs = [probs: Param | null, logits?: Param | null, validateArgs?: boolean | null] | [options: ProbsOrLogits];

/** A Tensor parameter of at least one dim (the categories along the last). */
function eventParam(name: string, v: unknown): Tensor {
  if (!(v instanceof Tensor)) throw new ValueError(`${name} must be a Tensor`);
  if (v.dim() < 1) throw new ValueError('`probs` parameter must be at least one-dimensional.'.replace('probs', name));
  return v;
}

/**
 * The categorical distribution over 0, ..., K - 1, K the size of the last dim of `probs`
 * (normalised to sum to 1) or of `logits` (normalised to logsumexp 0).
 */
export class Categorical extends Distribution {
  readonly probs: Tensor;
  readonly logits: Tensor;
  readonly #given: 'probs' | 'logits';
  readonly #numEvents: number;

  constructor(...args: CategoricalArgs) {
    super();
    const [probs, logits, validateArgs] = categoricalArgs.bind(args);
    if ((probs == null) === (logits == null)) throw new ValueError('Either `probs` or `logits` must be specified, but not both.');
    if (probs != null) {
      const p = eventParam('probs', probs);
      this.probs = p.div(p.sum(-1, true));
      this.logits = probsToLogits(this.probs);
      this.#given = 'probs';
    } else {
      const l = eventParam('logits', logits);
      this.logits = l.sub(l.logsumexp(-1, true));
      this.probs = logitsToProbs(this.logits);
      this.#given = 'logits';
    }
    this.#numEvents = this.probs.shape[this.probs.dim() - 1];
    this.setup(this.probs.dim() > 1 ? this.probs.shape.slice(0, -1) : [], [], validateArgs);
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { probs: simplex, logits: independent(real, 1) };
  }

  protected override givenParams(): readonly string[] {
    return [this.#given];
  }

  override get support(): Constraint {
    return integerInterval(0, this.#numEvents - 1);
  }

  override get hasEnumerateSupport(): boolean {
    return true;
  }

  /** The number of categories K. */
  get numEvents(): number {
    return this.#numEvents;
  }

  override get mean(): Tensor {
    return full(this.extendedShape(), Number.NaN, { dtype: this.probs.dtype, device: this.probs.device });
  }

  override get mode(): Tensor {
    return this.probs.argmax(-1);
  }

  override get variance(): Tensor {
    return full(this.extendedShape(), Number.NaN, { dtype: this.probs.dtype, device: this.probs.device });
  }

  protected override draw(sampleShape: number[]): Tensor {
    const n = sampleShape.reduce((a, b) => a * b, 1);
    const probs2d = this.probs.reshape([-1, this.#numEvents]);
    return multinomial(probs2d, n, true).t().reshape(this.extendedShape(sampleShape));
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    const v = value.to('int64').unsqueeze(-1);
    const shape = broadcastShapes('log_prob', v.shape, this.logits.shape);
    const idx = v.expand(shape).narrow(-1, 0, 1);
    return this.logits.expand(shape).gather(-1, idx).squeeze(-1);
  }

  override entropy(): Tensor {
    const logits = this.logits.clampMin(finfo(this.logits.dtype).min);
    return logits.mul(this.probs).sum(-1).neg();
  }

  /** The categories 0, ..., K - 1 (int64) along a new first dim (expanded over the batch unless `expand` is false). */
  enumerateSupport(expand = true): Tensor {
    const batch = this.batchShape;
    const values = arange(this.#numEvents, { dtype: 'int64', device: this.probs.device }).view([-1, ...batch.map(() => 1)]);
    return expand ? values.expand([-1, ...batch]) : values;
  }

  protected override expandTo(batchShape: number[]): Distribution {
    const shape = [...batchShape, this.#numEvents];
    const p = this.#given === 'probs' ? { probs: this.probs.expand(shape) } : { logits: this.logits.expand(shape) };
    return new Categorical({ ...p, validateArgs: false });
  }
}

/** The one-hot form of Categorical: samples are vectors of K with a single 1. */
export class OneHotCategorical extends Distribution {
  readonly #categorical: Categorical;

  constructor(...args: CategoricalArgs) {
    super();
    const [, , validateArgs] = oneHotArgs.bind(args);
    this.#categorical = new Categorical(...args);
    this.setup(this.#categorical.batchShape, [this.#categorical.numEvents], validateArgs);
  }

  get probs(): Tensor {
    return this.#categorical.probs;
  }

  get logits(): Tensor {
    return this.#categorical.logits;
  }

  get argConstraints(): Readonly<Record<string, Constraint>> {
    return { probs: simplex, logits: independent(real, 1) };
  }

  protected override givenParams(): readonly string[] {
    // (the validation ran in the wrapped Categorical)
    return [];
  }

  override get support(): Constraint {
    return oneHot;
  }

  override get hasEnumerateSupport(): boolean {
    return true;
  }

  override get mean(): Tensor {
    return this.probs;
  }

  override get mode(): Tensor {
    return oneHotOf(this.probs.argmax(-1), this.#categorical.numEvents).to(this.probs.dtype);
  }

  override get variance(): Tensor {
    return this.probs.mul(this.probs.neg().add(1));
  }

  protected override draw(sampleShape: number[]): Tensor {
    const indices = this.#categorical.sample(sampleShape);
    return oneHotOf(indices, this.#categorical.numEvents).to(this.probs.dtype);
  }

  override logProb(value: Tensor): Tensor {
    this.validateSample(value);
    return this.#categorical.logProb(value.max(-1).indices);
  }

  override entropy(): Tensor {
    return this.#categorical.entropy();
  }

  /** Each one-hot vector along a new first dim. */
  enumerateSupport(expand = true): Tensor {
    const n = this.#categorical.numEvents;
    const batch = this.batchShape;
    const values = eye(n, { dtype: this.probs.dtype, device: this.probs.device }).view([n, ...batch.map(() => 1), n]);
    return expand ? values.expand([n, ...batch, n]) : values;
  }

  protected override expandTo(batchShape: number[]): Distribution {
    const shape = [...batchShape, this.#categorical.numEvents];
    return new OneHotCategorical({ probs: this.probs.expand(shape), validateArgs: false });
  }
}
