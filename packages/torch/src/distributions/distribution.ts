import { noGrad } from '@torch-ts/autograd';
import { NotImplementedError, Tensor, ValueError, makeBinder, typeName } from '@torch-ts/core';
import type { Constraint } from './constraints';
import { allTrue, pyFormat, pySize, pyTuple } from './utils';

/**
 * Note [Validation of distribution arguments]
 * As in PyTorch (`validate_args`, on by default: `Distribution.setDefaultValidateArgs`), a
 * distribution checks its parameters against `argConstraints` when it is made, and the values
 * given to `logProb`/`cdf`... against its support, raising PyTorch's ValueError with its
 * message. A check reads a bool back, so it runs where tensors can be read synchronously (the
 * CPU); on WebGPU it is skipped, as reading would mean waiting for the device (PyTorch on CUDA
 * waits there). The shape checks of a value run everywhere.
 *
 * Parameters are computed when the distribution is made, including the ones PyTorch computes
 * lazily on first use (Bernoulli's and Categorical's `probs` from `logits` and back): a
 * tensor cached on first use inside a `torch.tidy` would be released when that scope ends
 * while the distribution lives on.
 */

const sampleArgs = makeBinder('Distribution.sample', 'sample(int[] sample_shape=[]) -> Tensor', { countSelf: true });
const rsampleArgs = makeBinder('Distribution.rsample', 'rsample(int[] sample_shape=[]) -> Tensor', { countSelf: true });
const expandArgs = makeBinder('Distribution.expand', 'expand(int[] batch_shape) -> Tensor', { countSelf: true });

/** A parameter's Python name (`totalCount` is `total_count`). */
const pyName = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export abstract class Distribution {
  static #validateDefault = true;

  /** Sets whether distributions made from now on validate their arguments (default true, as PyTorch's `__debug__`). */
  static setDefaultValidateArgs(value: boolean): void {
    if (typeof value !== 'boolean') throw new ValueError(`Expected a boolean, not ${typeName(value)}`);
    Distribution.#validateDefault = value;
  }

  #batchShape: number[] = [];
  #eventShape: number[] = [];
  protected validateArgs = Distribution.#validateDefault;

  /** Whether `rsample` is implemented (reparameterised, differentiable samples). */
  get hasRsample(): boolean {
    return false;
  }

  /** Whether `enumerateSupport` is implemented. */
  get hasEnumerateSupport(): boolean {
    return false;
  }

  /** Each parameter's constraint. */
  abstract get argConstraints(): Readonly<Record<string, Constraint>>;

  /** The region of the samples. */
  get support(): Constraint {
    throw new NotImplementedError(`${this.constructor.name}.support is not implemented`);
  }

  get batchShape(): number[] {
    return [...this.#batchShape];
  }

  get eventShape(): number[] {
    return [...this.#eventShape];
  }

  /**
   * Sets the shapes and validates the parameters, as PyTorch's `Distribution.__init__` (which
   * a subclass calls once its parameters are set).
   */
  protected setup(batchShape: readonly number[], eventShape: readonly number[] = [], validateArgs: boolean | null | undefined = null): void {
    this.#batchShape = [...batchShape];
    this.#eventShape = [...eventShape];
    if (validateArgs != null) this.validateArgs = validateArgs;
    if (!this.validateArgs) return;
    const constraints = this.argConstraints;
    for (const param of this.givenParams()) {
      const constraint = constraints[param];
      const value = this.param(param);
      if (constraint === undefined || constraint.toString() === 'Dependent()' || value === undefined) continue;
      const valid = allTrue(constraint.check(value));
      if (valid === false) {
        throw new ValueError(
          `Expected parameter ${pyName(param)} (Tensor of shape ${pyTuple(value.shape)}) of distribution ${this} to satisfy the constraint ${constraint}, but found invalid values:\n${pyFormat(value)}`,
        );
      }
    }
  }

  /**
   * The parameters the caller gave, which PyTorch validates and prints (`argConstraints`'
   * names, but only the one given of Bernoulli's probs and logits: the other is computed).
   */
  protected givenParams(): readonly string[] {
    return Object.keys(this.argConstraints);
  }

  /** The parameters PyTorch's repr shows: the given ones that are attributes, not properties (Chi2's df is a property). */
  protected reprParams(): readonly string[] {
    return this.givenParams();
  }

  /** The parameter named `name` (PyTorch's attribute of that name), if it is set. */
  protected param(name: string): Tensor | undefined {
    const v: unknown = Reflect.get(this, name);
    return v instanceof Tensor ? v : undefined;
  }

  get mean(): Tensor {
    throw new NotImplementedError(`${this.constructor.name}.mean is not implemented`);
  }

  get mode(): Tensor {
    throw new NotImplementedError(`${this.constructor.name} does not implement mode`);
  }

  get variance(): Tensor {
    throw new NotImplementedError(`${this.constructor.name}.variance is not implemented`);
  }

  get stddev(): Tensor {
    return this.variance.sqrt();
  }

  /** Samples of shape `sampleShape + batchShape + eventShape`, without a gradient. */
  sample(...args: [sampleShape?: number[]] | [options: { sampleShape?: number[] }]): Tensor {
    const [shape] = sampleArgs.bind(args);
    return noGrad(() => this.draw(shape, false));
  }

  /** Reparameterised samples: differentiable with respect to the parameters. */
  rsample(...args: [sampleShape?: number[]] | [options: { sampleShape?: number[] }]): Tensor {
    const [shape] = rsampleArgs.bind(args);
    if (!this.hasRsample) throw new NotImplementedError(`${this.constructor.name}.rsample is not implemented`);
    return this.draw(shape, true);
  }

  /**
   * Draws samples of `sampleShape`: reparameterised when `reparameterized` (rsample), else
   * however PyTorch's `sample` draws them (run without a gradient). A distribution with an
   * rsample draws its samples the same way by default.
   */
  protected draw(sampleShape: number[], reparameterized: boolean): Tensor {
    void sampleShape;
    void reparameterized;
    throw new NotImplementedError(`${this.constructor.name}.sample is not implemented`);
  }

  logProb(value: Tensor): Tensor {
    void value;
    throw new NotImplementedError(`${this.constructor.name}.log_prob is not implemented`);
  }

  cdf(value: Tensor): Tensor {
    void value;
    throw new NotImplementedError(`${this.constructor.name}.cdf is not implemented`);
  }

  icdf(value: Tensor): Tensor {
    void value;
    throw new NotImplementedError(`${this.constructor.name}.icdf is not implemented`);
  }

  entropy(): Tensor {
    throw new NotImplementedError(`${this.constructor.name}.entropy is not implemented`);
  }

  /** exp(entropy). */
  perplexity(): Tensor {
    return this.entropy().exp();
  }

  /** The same distribution with its batch expanded to `batchShape` (its parameters expanded, no copy). */
  expand(...args: [batchShape: number[]] | [options: { batchShape: number[] }]): Distribution {
    const [batchShape] = expandArgs.bind(args);
    return this.expandTo(batchShape);
  }

  protected expandTo(batchShape: number[]): Distribution {
    void batchShape;
    throw new NotImplementedError(`${this.constructor.name}.expand is not implemented`);
  }

  /** `sampleShape + batchShape + eventShape` (PyTorch's `_extended_shape`). */
  protected extendedShape(sampleShape: readonly number[] = []): number[] {
    return [...sampleShape, ...this.#batchShape, ...this.#eventShape];
  }

  /**
   * PyTorch's `_validate_sample`: `value` is a Tensor whose rightmost dims are the event
   * shape and which broadcasts with the batch; with validation on, it lies in the support.
   */
  protected validateSample(value: unknown): asserts value is Tensor {
    if (!(value instanceof Tensor)) throw new ValueError('The value argument to log_prob must be a Tensor');
    const actual = value.shape;
    const eventStart = actual.length - this.#eventShape.length;
    const tail = actual.slice(Math.max(eventStart, 0));
    if (eventStart < 0 || tail.some((n, i) => n !== this.#eventShape[i])) {
      throw new ValueError(`The right-most size of value must match event_shape: ${pySize(actual)} vs ${pySize(this.#eventShape)}.`);
    }
    const expected = [...this.#batchShape, ...this.#eventShape];
    for (let k = 1; k <= Math.min(actual.length, expected.length); k++) {
      const i = actual[actual.length - k];
      const j = expected[expected.length - k];
      if (i !== 1 && j !== 1 && i !== j) {
        throw new ValueError(`Value is not broadcastable with batch_shape+event_shape: ${pySize(actual)} vs ${pySize(expected)}.`);
      }
    }
    if (!this.validateArgs) return;
    const support = this.support;
    if (allTrue(support.check(value)) === false) {
      throw new ValueError(
        `Expected value argument (Tensor of shape ${pyTuple(actual)}) to be within the support (${support}) of the distribution ${this}, but found invalid values:\n${pyFormat(value)}`,
      );
    }
  }

  /** PyTorch's repr: the parameters that are set, each its value when it has one element, else its size. */
  toString(): string {
    const parts = this.reprParams().flatMap((p) => {
      const v = this.param(p);
      if (v === undefined) return [];
      return [`${pyName(p)}: ${v.numel() === 1 ? pyFormat(v) : pySize(v.shape)}`];
    });
    return `${this.constructor.name}(${parts.join(', ')})`;
  }
}
