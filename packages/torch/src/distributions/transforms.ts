import { Tensor, fullLike, softplus, finfo } from '@torch-ts/core';
import { independent, interval, positive, real, unitInterval, type Constraint } from './constraints';
import { ValueError } from '@torch-ts/core';

/**
 * `torch.distributions.transforms`: invertible maps y = f(x) with log|det J|, which
 * TransformedDistribution pushes a base distribution through. Elementwise unless `eventDim`
 * says otherwise (AffineTransform's).
 */
export abstract class Transform {
  abstract get domain(): Constraint;
  abstract get codomain(): Constraint;
  /** Whether the map is one to one. */
  readonly bijective: boolean = true;
  /** +1 or -1 where the map is monotone increasing or decreasing (a tensor where that depends on the element). */
  get sign(): number | Tensor {
    throw new ValueError(`${this} is not monotone: it has no sign`);
  }

  /** y = f(x). */
  call(x: Tensor): Tensor {
    return this.forward(x);
  }

  protected abstract forward(x: Tensor): Tensor;
  /** x = f⁻¹(y). */
  abstract inverse(y: Tensor): Tensor;
  /** log |det df/dx| at x (y = f(x)), summed over the event dims. */
  abstract logAbsDetJacobian(x: Tensor, y: Tensor): Tensor;

  /** The inverse transform f⁻¹. */
  get inv(): Transform {
    return new InverseTransform(this);
  }

  /** Whether `other` is the same map (PyTorch's `__eq__`: the same class, and equal parameters where it has them). */
  equals(other: Transform): boolean {
    return other.constructor === this.constructor;
  }

  abstract toString(): string;
}

class InverseTransform extends Transform {
  constructor(readonly base: Transform) {
    super();
  }
  get domain(): Constraint {
    return this.base.codomain;
  }
  get codomain(): Constraint {
    return this.base.domain;
  }
  override get sign(): number | Tensor {
    return this.base.sign;
  }
  protected forward(x: Tensor): Tensor {
    return this.base.inverse(x);
  }
  inverse(y: Tensor): Tensor {
    return this.base.call(y);
  }
  logAbsDetJacobian(x: Tensor, y: Tensor): Tensor {
    return this.base.logAbsDetJacobian(y, x).neg();
  }
  override get inv(): Transform {
    return this.base;
  }
  override equals(other: Transform): boolean {
    return other instanceof InverseTransform && other.base.equals(this.base);
  }
  toString(): string {
    return `_InverseTransform()`;
  }
}

/** Whether two parameters are equal: numbers by value, tensors elementwise (PyTorch's `(a == b).all()`). */
function sameParam(a: Tensor | number, b: Tensor | number): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  const ta = typeof a === 'number' ? b : a;
  const other = typeof a === 'number' ? a : b;
  return ta instanceof Tensor && ta.eq(other).all().item() === true;
}

/** The sign of a parameter: a number's, or elementwise. */
const signOf = (x: number | Tensor): number | Tensor => (typeof x === 'number' ? Math.sign(x) : x.sign());

/** y = exp(x). */
export class ExpTransform extends Transform {
  get domain(): Constraint {
    return real;
  }
  get codomain(): Constraint {
    return positive;
  }
  override get sign(): number {
    return 1;
  }
  protected forward(x: Tensor): Tensor {
    return x.exp();
  }
  inverse(y: Tensor): Tensor {
    return y.log();
  }
  logAbsDetJacobian(x: Tensor): Tensor {
    return x;
  }
  toString(): string {
    return 'ExpTransform()';
  }
}

/** y = loc + scale * x, over events of `eventDim` dims. */
export class AffineTransform extends Transform {
  constructor(
    readonly loc: Tensor | number,
    readonly scale: Tensor | number,
    readonly eventDim = 0,
  ) {
    super();
  }
  get domain(): Constraint {
    return this.eventDim === 0 ? real : independent(real, this.eventDim);
  }
  get codomain(): Constraint {
    return this.domain;
  }
  override get sign(): number | Tensor {
    return signOf(this.scale);
  }
  protected forward(x: Tensor): Tensor {
    return x.mul(this.scale).add(this.loc);
  }
  inverse(y: Tensor): Tensor {
    return y.sub(this.loc).div(this.scale);
  }
  override equals(other: Transform): boolean {
    return other instanceof AffineTransform && sameParam(this.loc, other.loc) && sameParam(this.scale, other.scale);
  }
  logAbsDetJacobian(x: Tensor): Tensor {
    let shape = x.shape;
    let r = typeof this.scale === 'number' ? fullLike(x, Math.log(Math.abs(this.scale))) : this.scale.abs().log();
    if (this.eventDim) {
      r = r.reshape([...r.shape.slice(0, r.dim() - this.eventDim), -1]).sum(-1);
      shape = shape.slice(0, shape.length - this.eventDim);
    }
    return r.expand(shape);
  }
  toString(): string {
    return 'AffineTransform()';
  }
}

/** y = sigmoid(x), kept inside (0, 1) by the dtype's tiny and eps (PyTorch's clipped sigmoid). */
export class SigmoidTransform extends Transform {
  get domain(): Constraint {
    return real;
  }
  get codomain(): Constraint {
    return unitInterval;
  }
  override get sign(): number {
    return 1;
  }
  protected forward(x: Tensor): Tensor {
    const f = finfo(x.dtype);
    return x.sigmoid().clamp(f.tiny, 1 - f.eps);
  }
  inverse(y: Tensor): Tensor {
    const f = finfo(y.dtype);
    const c = y.clamp(f.tiny, 1 - f.eps);
    return c.log().sub(c.neg().log1p());
  }
  logAbsDetJacobian(x: Tensor): Tensor {
    return softplus(x.neg()).neg().sub(softplus(x));
  }
  toString(): string {
    return 'SigmoidTransform()';
  }
}

/** y = tanh(x). */
export class TanhTransform extends Transform {
  get domain(): Constraint {
    return real;
  }
  get codomain(): Constraint {
    return interval(-1, 1);
  }
  override get sign(): number {
    return 1;
  }
  protected forward(x: Tensor): Tensor {
    return x.tanh();
  }
  inverse(y: Tensor): Tensor {
    return y.atanh();
  }
  logAbsDetJacobian(x: Tensor): Tensor {
    // (PyTorch's stable form of log(1 - tanh(x)²))
    return x.neg().add(Math.log(2)).sub(softplus(x.mul(-2))).mul(2);
  }
  toString(): string {
    return 'TanhTransform()';
  }
}

/** y = x ** exponent, on the positive reals. */
export class PowerTransform extends Transform {
  constructor(readonly exponent: Tensor | number) {
    super();
  }
  get domain(): Constraint {
    return positive;
  }
  get codomain(): Constraint {
    return positive;
  }
  override get sign(): number | Tensor {
    return signOf(this.exponent);
  }
  protected forward(x: Tensor): Tensor {
    return x.pow(this.exponent);
  }
  inverse(y: Tensor): Tensor {
    return typeof this.exponent === 'number' ? y.pow(1 / this.exponent) : y.pow(this.exponent.reciprocal());
  }
  override equals(other: Transform): boolean {
    return other instanceof PowerTransform && sameParam(this.exponent, other.exponent);
  }
  logAbsDetJacobian(x: Tensor, y: Tensor): Tensor {
    return y.mul(this.exponent).div(x).abs().log();
  }
  toString(): string {
    return 'PowerTransform()';
  }
}

/** The transforms applied in order. */
export class ComposeTransform extends Transform {
  constructor(readonly parts: readonly Transform[]) {
    super();
  }
  get domain(): Constraint {
    return this.parts.length === 0 ? real : this.parts[0].domain;
  }
  get codomain(): Constraint {
    return this.parts.length === 0 ? real : this.parts[this.parts.length - 1].codomain;
  }
  override get sign(): number | Tensor {
    let s: number | Tensor = 1;
    for (const p of this.parts) {
      const t = p.sign;
      s = typeof s === 'number' ? (typeof t === 'number' ? s * t : t.mul(s)) : s.mul(t);
    }
    return s;
  }
  protected forward(x: Tensor): Tensor {
    return this.parts.reduce((v, p) => p.call(v), x);
  }
  inverse(y: Tensor): Tensor {
    return [...this.parts].reverse().reduce((v, p) => p.inverse(v), y);
  }
  logAbsDetJacobian(x: Tensor): Tensor {
    let total: Tensor | null = null;
    let v = x;
    for (const p of this.parts) {
      const y = p.call(v);
      const term = p.logAbsDetJacobian(v, y);
      total = total === null ? term : total.add(term);
      v = y;
    }
    return total ?? x.mul(0);
  }
  toString(): string {
    return `ComposeTransform(\n    ${this.parts.join(',\n    ')}\n)`;
  }
}
