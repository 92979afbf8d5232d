import { Tensor, TorchError, full, linalgCholeskyEx } from '@torch-ts/core';
import { pyFloat } from './utils';

/**
 * `torch.distributions.constraints`: the region a parameter or a sample must lie in. `check`
 * gives a bool tensor over the batch (an event of `eventDim` dims is one element); `toString`
 * is PyTorch's repr, which the validation messages print.
 */
export abstract class Constraint {
  /** Whether the region is discrete (integer-valued samples). */
  readonly isDiscrete: boolean = false;
  /** The number of rightmost dims that together make one event. */
  readonly eventDim: number = 0;

  abstract check(value: Tensor): Tensor;

  /** PyTorch's repr (`Real()`, `GreaterThan(lower_bound=0.0)`). */
  abstract toString(): string;
}

/** A bound as PyTorch prints it: a Python float, or the tensor. */
const bound = (b: number | Tensor): string => (typeof b === 'number' ? pyFloat(b) : String(b));

class Real extends Constraint {
  check(value: Tensor): Tensor {
    return value.eq(value); // (NaN is the only value that is not real here)
  }
  toString(): string {
    return 'Real()';
  }
}

class BooleanConstraint extends Constraint {
  override readonly isDiscrete = true;
  check(value: Tensor): Tensor {
    return value.eq(0).logicalOr(value.eq(1));
  }
  toString(): string {
    return 'Boolean()';
  }
}

export class GreaterThan extends Constraint {
  constructor(readonly lowerBound: number | Tensor) {
    super();
  }
  check(value: Tensor): Tensor {
    return value.gt(this.lowerBound);
  }
  override toString(): string {
    return `GreaterThan(lower_bound=${bound(this.lowerBound)})`;
  }
}

export class GreaterThanEq extends Constraint {
  constructor(readonly lowerBound: number | Tensor) {
    super();
  }
  check(value: Tensor): Tensor {
    return value.ge(this.lowerBound);
  }
  override toString(): string {
    return `GreaterThanEq(lower_bound=${bound(this.lowerBound)})`;
  }
}

export class Interval extends Constraint {
  constructor(
    readonly lowerBound: number | Tensor,
    readonly upperBound: number | Tensor,
  ) {
    super();
  }
  check(value: Tensor): Tensor {
    return value.ge(this.lowerBound).logicalAnd(value.le(this.upperBound));
  }
  override toString(): string {
    return `Interval(lower_bound=${bound(this.lowerBound)}, upper_bound=${bound(this.upperBound)})`;
  }
}

export class HalfOpenInterval extends Interval {
  override check(value: Tensor): Tensor {
    return value.ge(this.lowerBound).logicalAnd(value.lt(this.upperBound));
  }
  override toString(): string {
    return super.toString().replace(/^Interval/, 'HalfOpenInterval');
  }
}

export class IntegerInterval extends Constraint {
  override readonly isDiscrete = true;
  constructor(
    readonly lowerBound: number | Tensor,
    readonly upperBound: number | Tensor,
  ) {
    super();
  }
  check(value: Tensor): Tensor {
    return value.remainder(1).eq(0).logicalAnd(value.ge(this.lowerBound)).logicalAnd(value.le(this.upperBound));
  }
  override toString(): string {
    return `IntegerInterval(lower_bound=${String(this.lowerBound)}, upper_bound=${String(this.upperBound)})`;
  }
}

class IntegerGreaterThan extends Constraint {
  override readonly isDiscrete = true;
  constructor(readonly lowerBound: number) {
    super();
  }
  check(value: Tensor): Tensor {
    return value.remainder(1).eq(0).logicalAnd(value.ge(this.lowerBound));
  }
  override toString(): string {
    return `IntegerGreaterThan(lower_bound=${this.lowerBound})`;
  }
}

class Simplex extends Constraint {
  override readonly eventDim = 1;
  check(value: Tensor): Tensor {
    return value.ge(0).all(-1).logicalAnd(value.sum(-1).sub(1).abs().lt(1e-6));
  }
  toString(): string {
    return 'Simplex()';
  }
}

class OneHot extends Constraint {
  override readonly isDiscrete = true;
  override readonly eventDim = 1;
  check(value: Tensor): Tensor {
    return value.eq(0).logicalOr(value.eq(1)).all(-1).logicalAnd(value.sum(-1).eq(1));
  }
  toString(): string {
    return 'OneHot()';
  }
}

/** A constraint over events of `n` more rightmost dims: all of them must satisfy `base`. */
export class IndependentConstraint extends Constraint {
  override readonly isDiscrete: boolean;
  override readonly eventDim: number;
  constructor(
    readonly baseConstraint: Constraint,
    readonly reinterpretedBatchNdims: number,
  ) {
    super();
    this.isDiscrete = baseConstraint.isDiscrete;
    this.eventDim = baseConstraint.eventDim + reinterpretedBatchNdims;
  }
  check(value: Tensor): Tensor {
    const r = this.baseConstraint.check(value);
    const n = this.reinterpretedBatchNdims;
    if (r.dim() < n) throw new TorchError(`Expected value.dim() >= ${n} but got ${r.dim()}`);
    return r.reshape([...r.shape.slice(0, r.dim() - n), -1]).all(-1);
  }
  override toString(): string {
    return `IndependentConstraint(${this.baseConstraint}, ${this.reinterpretedBatchNdims})`;
  }
}

/** A region that depends on other parameters (Uniform's low and high): it cannot check parameters. */
export class Dependent extends Constraint {
  check(): Tensor {
    throw new TorchError('Cannot determine validity of dependent constraint');
  }
  toString(): string {
    return 'Dependent()';
  }
}

/** Square matrices whose transpose is close to them (PyTorch's `_Symmetric`: isclose with atol 1e-6, rtol 1e-5). */
class Symmetric extends Constraint {
  override readonly eventDim = 2;
  check(value: Tensor): Tensor {
    const n = value.dim();
    if (n < 2 || value.shape[n - 2] !== value.shape[n - 1]) return full(value.shape.slice(0, -2), false, { dtype: 'bool', device: value.device });
    const t = value.transpose(-2, -1);
    const close = value.sub(t).abs().le(t.abs().mul(1e-5).add(1e-6)).logicalOr(value.eq(t));
    return close.all(-1).all(-1);
  }
  toString(): string {
    return 'Symmetric()';
  }
}

/** Symmetric positive-definite matrices: symmetric, and a Cholesky factorization succeeds (info 0). */
class PositiveDefinite extends Symmetric {
  override check(value: Tensor): Tensor {
    const symmetric = super.check(value);
    const n = value.dim();
    if (n < 2 || value.shape[n - 2] !== value.shape[n - 1]) return symmetric;
    // (PyTorch returns the symmetry check alone when it fails anywhere; this combines both
    // without reading it back, which gives the same answer)
    return symmetric.logicalAnd(linalgCholeskyEx(value).info.eq(0));
  }
  override toString(): string {
    return 'PositiveDefinite()';
  }
}

/** Lower-triangular matrices with a positive diagonal. */
class LowerCholesky extends Constraint {
  override readonly eventDim = 2;
  check(value: Tensor): Tensor {
    const lower = value.tril().eq(value).reshape([...value.shape.slice(0, -2), -1]).all(-1);
    const positive = value.diagonal(0, -2, -1).gt(0).all(-1);
    return lower.logicalAnd(positive);
  }
  toString(): string {
    return 'LowerCholesky()';
  }
}

export const real: Constraint = new Real();
export const boolean: Constraint = new BooleanConstraint();
export const positive: Constraint = new GreaterThan(0);
export const nonnegative: Constraint = new GreaterThanEq(0);
export const unitInterval: Constraint = new Interval(0, 1);
export const nonnegativeInteger: Constraint = new IntegerGreaterThan(0);
export const positiveInteger: Constraint = new IntegerGreaterThan(1);
export const simplex: Constraint = new Simplex();
export const oneHot: Constraint = new OneHot();
export const dependent: Constraint = new Dependent();
export const realVector: Constraint = new IndependentConstraint(real, 1);

export const greaterThan = (lowerBound: number | Tensor): Constraint => new GreaterThan(lowerBound);
export const greaterThanEq = (lowerBound: number | Tensor): Constraint => new GreaterThanEq(lowerBound);
export const interval = (lowerBound: number | Tensor, upperBound: number | Tensor): Constraint => new Interval(lowerBound, upperBound);
export const halfOpenInterval = (lowerBound: number | Tensor, upperBound: number | Tensor): Constraint => new HalfOpenInterval(lowerBound, upperBound);
export const integerInterval = (lowerBound: number | Tensor, upperBound: number | Tensor): Constraint => new IntegerInterval(lowerBound, upperBound);
export const independent = (base: Constraint, reinterpretedBatchNdims: number): Constraint => new IndependentConstraint(base, reinterpretedBatchNdims);

export const symmetric: Constraint = new Symmetric();
export const positiveDefinite: Constraint = new PositiveDefinite();
export const lowerCholesky: Constraint = new LowerCholesky();
