import * as F from '../functional';
import { Tensor, TorchError } from '../internal';
import { Module } from '../module';
import { pyFloat, pyRepr } from '../repr';

export interface InplaceOptions {
  inplace?: boolean;
}

export class ReLU extends Module {
  readonly inplace: boolean;

  constructor(options: InplaceOptions = {}) {
    super();
    this.inplace = options.inplace ?? false;
  }

  override forward(input: Tensor): Tensor {
    return this.inplace ? F.relu_(input) : F.relu(input);
  }

  override extraRepr(): string {
    return this.inplace ? 'inplace=True' : '';
  }
}

export class GELU extends Module {
  readonly approximate: 'none' | 'tanh';

  constructor(options: { approximate?: 'none' | 'tanh' } = {}) {
    super();
    this.approximate = options.approximate ?? 'none';
  }

  override forward(input: Tensor): Tensor {
    return F.gelu(input, { approximate: this.approximate });
  }

  override extraRepr(): string {
    return `approximate=${pyRepr(this.approximate)}`;
  }
}

export class SiLU extends Module {
  readonly inplace: boolean;

  constructor(options: InplaceOptions = {}) {
    super();
    this.inplace = options.inplace ?? false;
  }

  override forward(input: Tensor): Tensor {
    return F.silu(input, { inplace: this.inplace });
  }

  override extraRepr(): string {
    return this.inplace ? 'inplace=True' : '';
  }
}

export class Tanh extends Module {
  override forward(input: Tensor): Tensor {
    return F.tanh(input);
  }
}

export class Sigmoid extends Module {
  override forward(input: Tensor): Tensor {
    return F.sigmoid(input);
  }
}

export class LeakyReLU extends Module {
  readonly negativeSlope: number;
  readonly inplace: boolean;

  constructor(negativeSlope: number | (InplaceOptions & { negativeSlope?: number }) = 0.01, options: InplaceOptions = {}) {
    super();
    const o = typeof negativeSlope === 'object' ? negativeSlope : { ...options, negativeSlope };
    this.negativeSlope = o.negativeSlope ?? 0.01;
    this.inplace = o.inplace ?? false;
  }

  override forward(input: Tensor): Tensor {
    return F.leakyRelu(input, { negativeSlope: this.negativeSlope, inplace: this.inplace });
  }

  override extraRepr(): string {
    return `negative_slope=${pyRepr(pyFloat(this.negativeSlope))}${this.inplace ? ', inplace=True' : ''}`;
  }
}

export class ELU extends Module {
  readonly alpha: number;
  readonly inplace: boolean;

  constructor(alpha: number | (InplaceOptions & { alpha?: number }) = 1.0, options: InplaceOptions = {}) {
    super();
    const o = typeof alpha === 'object' ? alpha : { ...options, alpha };
    this.alpha = o.alpha ?? 1.0;
    this.inplace = o.inplace ?? false;
  }

  override forward(input: Tensor): Tensor {
    return F.elu(input, { alpha: this.alpha, inplace: this.inplace });
  }

  override extraRepr(): string {
    return `alpha=${pyRepr(pyFloat(this.alpha))}${this.inplace ? ', inplace=True' : ''}`;
  }
}

export interface DimOptions {
  dim?: number | null;
}

function dimOf(dim: number | DimOptions | null | undefined): number | null {
  if (typeof dim === 'object' && dim !== null) return dim.dim ?? null;
  return dim ?? null;
}

export class Softmax extends Module {
  readonly dim: number | null;

  constructor(dim?: number | DimOptions | null) {
    super();
    this.dim = dimOf(dim);
  }

  override forward(input: Tensor): Tensor {
    return F.softmax(input, { dim: this.dim ?? legacySoftmaxDim(input.dim()) });
  }

  override extraRepr(): string {
    return `dim=${pyRepr(this.dim)}`;
  }
}

export class LogSoftmax extends Module {
  readonly dim: number | null;

  constructor(dim?: number | DimOptions | null) {
    super();
    this.dim = dimOf(dim);
  }

  override forward(input: Tensor): Tensor {
    return F.logSoftmax(input, { dim: this.dim ?? legacySoftmaxDim(input.dim()) });
  }

  override extraRepr(): string {
    return `dim=${pyRepr(this.dim)}`;
  }
}

/** PyTorch's `_get_softmax_dim` when no dim was given (it also warns). */
function legacySoftmaxDim(ndim: number): number {
  return ndim === 0 || ndim === 1 || ndim === 3 ? 0 : 1;
}

export interface DropoutOptions extends InplaceOptions {
  p?: number;
}

export class Dropout extends Module {
  readonly p: number;
  readonly inplace: boolean;

  constructor(p: number | DropoutOptions = 0.5, options: InplaceOptions = {}) {
    super();
    const o = typeof p === 'object' ? p : { ...options, p };
    this.p = o.p ?? 0.5;
    this.inplace = o.inplace ?? false;
    if (this.p < 0 || this.p > 1) throw new TorchError(`dropout probability has to be between 0 and 1, but got ${this.p}`);
  }

  override forward(input: Tensor): Tensor {
    return F.dropout(input, { p: this.p, training: this.training, inplace: this.inplace });
  }

  override extraRepr(): string {
    return `p=${pyRepr(pyFloat(this.p))}, inplace=${pyRepr(this.inplace)}`;
  }
}
