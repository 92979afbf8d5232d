import * as F from '../functional';
import { Tensor, TorchError } from '../internal';
import type { OptionalArgs } from '@torch-ts/core';
import { initBinder } from '../init-args';
import { Module } from '../module';
import { pyFloat, pyRepr } from '../repr';

export interface InplaceOptions {
  inplace?: boolean | null;
}

const reluArgs = initBinder('ReLU', 'bool inplace=False');
const geluArgs = initBinder('GELU', "str approximate='none'");
const siluArgs = initBinder('SiLU', 'bool inplace=False');
const tanhArgs = initBinder('Tanh', '');
const sigmoidArgs = initBinder('Sigmoid', '');
const leakyReluArgs = initBinder('LeakyReLU', 'float negative_slope=0.01, bool inplace=False');
const eluArgs = initBinder('ELU', 'float alpha=1.0, bool inplace=False');
const softmaxArgs = initBinder('Softmax', 'int? dim=None');
const logSoftmaxArgs = initBinder('LogSoftmax', 'int? dim=None');
const dropoutArgs = initBinder('Dropout', 'float p=0.5, bool inplace=False');

/** `new nn.ReLU()`, `new nn.ReLU(true)`, `new nn.ReLU({ inplace: true })` (Note [Module constructors bind their arguments]). */
export class ReLU extends Module {
  readonly inplace: boolean;

  constructor(...args: OptionalArgs<[inplace: boolean], InplaceOptions>) {
    super();
    [this.inplace] = reluArgs.bind(args);
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

  constructor(...args: OptionalArgs<[approximate: 'none' | 'tanh'], { approximate?: 'none' | 'tanh' | null }>) {
    super();
    // (bound as a str: another value is refused by F.gelu at the first forward, as PyTorch's
    // nn.GELU refuses it, so the constructor keeps it unchecked and the type names the valid ones)
    [this.approximate] = geluArgs.bind(args) as ['none' | 'tanh'];
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

  constructor(...args: OptionalArgs<[inplace: boolean], InplaceOptions>) {
    super();
    [this.inplace] = siluArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return F.silu(input, { inplace: this.inplace });
  }

  override extraRepr(): string {
    return this.inplace ? 'inplace=True' : '';
  }
}

export class Tanh extends Module {
  constructor(...args: []) {
    super();
    tanhArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return F.tanh(input);
  }
}

export class Sigmoid extends Module {
  constructor(...args: []) {
    super();
    sigmoidArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return F.sigmoid(input);
  }
}

export class LeakyReLU extends Module {
  readonly negativeSlope: number;
  readonly inplace: boolean;

  constructor(...args: OptionalArgs<[negativeSlope: number, inplace: boolean], InplaceOptions & { negativeSlope?: number | null }>) {
    super();
    [this.negativeSlope, this.inplace] = leakyReluArgs.bind(args);
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

  constructor(...args: OptionalArgs<[alpha: number, inplace: boolean], InplaceOptions & { alpha?: number | null }>) {
    super();
    [this.alpha, this.inplace] = eluArgs.bind(args);
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

export class Softmax extends Module {
  readonly dim: number | null;

  constructor(...args: OptionalArgs<[dim: number], DimOptions>) {
    super();
    this.dim = softmaxArgs.bind(args)[0] ?? null;
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

  constructor(...args: OptionalArgs<[dim: number], DimOptions>) {
    super();
    this.dim = logSoftmaxArgs.bind(args)[0] ?? null;
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
  p?: number | null;
}

export class Dropout extends Module {
  readonly p: number;
  readonly inplace: boolean;

  constructor(...args: OptionalArgs<[p: number, inplace: boolean], DropoutOptions>) {
    super();
    [this.p, this.inplace] = dropoutArgs.bind(args);
    if (this.p < 0 || this.p > 1) throw new TorchError(`dropout probability has to be between 0 and 1, but got ${this.p}`);
  }

  override forward(input: Tensor): Tensor {
    return F.dropout(input, { p: this.p, training: this.training, inplace: this.inplace });
  }

  override extraRepr(): string {
    return `p=${pyRepr(pyFloat(this.p))}, inplace=${pyRepr(this.inplace)}`;
  }
}

/** PyTorch's `_DropoutNd`: Dropout1d / 2d / 3d (Note [Feature dropout] in core) and the alpha dropouts. */
abstract class DropoutNd extends Module {
  readonly p: number;
  readonly inplace: boolean;

  constructor(binder: { bind(args: readonly unknown[]): [number, boolean] }, args: readonly unknown[]) {
    super();
    [this.p, this.inplace] = binder.bind(args);
    if (this.p < 0 || this.p > 1) throw new TorchError(`dropout probability has to be between 0 and 1, but got ${this.p}`);
  }

  override extraRepr(): string {
    return `p=${pyRepr(pyFloat(this.p))}, inplace=${pyRepr(this.inplace)}`;
  }
}

const dropout1dArgs = initBinder('Dropout1d', 'float p=0.5, bool inplace=False');
export class Dropout1d extends DropoutNd {
  constructor(...args: OptionalArgs<[p: number, inplace: boolean], DropoutOptions>) {
    super(dropout1dArgs, args);
  }

  override forward(input: Tensor): Tensor {
    return F.dropout1d(input, this.p, this.training, this.inplace);
  }
}

const dropout2dArgs = initBinder('Dropout2d', 'float p=0.5, bool inplace=False');
export class Dropout2d extends DropoutNd {
  constructor(...args: OptionalArgs<[p: number, inplace: boolean], DropoutOptions>) {
    super(dropout2dArgs, args);
  }

  override forward(input: Tensor): Tensor {
    return F.dropout2d(input, this.p, this.training, this.inplace);
  }
}

const dropout3dArgs = initBinder('Dropout3d', 'float p=0.5, bool inplace=False');
export class Dropout3d extends DropoutNd {
  constructor(...args: OptionalArgs<[p: number, inplace: boolean], DropoutOptions>) {
    super(dropout3dArgs, args);
  }

  override forward(input: Tensor): Tensor {
    return F.dropout3d(input, this.p, this.training, this.inplace);
  }
}

const alphaDropoutArgs = initBinder('AlphaDropout', 'float p=0.5, bool inplace=False');
/** `nn.AlphaDropout`: F.alpha_dropout in training (Note [Alpha dropout] in core), the identity in eval. */
export class AlphaDropout extends DropoutNd {
  constructor(...args: OptionalArgs<[p: number, inplace: boolean], DropoutOptions>) {
    super(alphaDropoutArgs, args);
  }

  override forward(input: Tensor): Tensor {
    return F.alphaDropout(input, this.p, this.training, this.inplace);
  }
}

const featureAlphaDropoutArgs = initBinder('FeatureAlphaDropout', 'float p=0.5, bool inplace=False');
/** `nn.FeatureAlphaDropout`: alpha dropout of whole channels in training. */
export class FeatureAlphaDropout extends DropoutNd {
  constructor(...args: OptionalArgs<[p: number, inplace: boolean], DropoutOptions>) {
    super(featureAlphaDropoutArgs, args);
  }

  override forward(input: Tensor): Tensor {
    return F.featureAlphaDropout(input, this.p, this.training, this.inplace);
  }
}
