import { ones, tensor, zeros } from '@torch-ts/core';
import * as init from '../init';
import { Tensor, TorchError, noGradGuard } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import * as F from '../functional';
import { pyFloat, pyRepr } from '../repr';
import { emptyParam, type FactoryKwargs } from './linear';

export interface BatchNormOptions extends FactoryKwargs {
  eps?: number;
  momentum?: number | null;
  affine?: boolean;
  trackRunningStats?: boolean;
}

/**
 * `_BatchNorm`: batch statistics in training (and running averages updated in place by
 * `F.batchNorm`, with momentum or, for `momentum: null`, the cumulative average over
 * `num_batches_tracked`), running statistics in eval.
 */
abstract class BatchNormBase extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  // Buffers keep PyTorch's snake_case names: they are state_dict keys.
  declare running_mean: Tensor | null;
  declare running_var: Tensor | null;
  declare num_batches_tracked: Tensor | null;
  readonly eps: number;
  readonly momentum: number | null;
  readonly affine: boolean;
  readonly trackRunningStats: boolean;

  constructor(readonly numFeatures: number, o: BatchNormOptions = {}) {
    super();
    this.eps = o.eps ?? 1e-5;
    this.momentum = o.momentum === undefined ? 0.1 : o.momentum;
    this.affine = o.affine ?? true;
    this.trackRunningStats = o.trackRunningStats ?? true;
    if (this.affine) {
      this.weight = emptyParam([numFeatures], o);
      this.bias = emptyParam([numFeatures], o);
    } else {
      this.registerParameter('weight', null);
      this.registerParameter('bias', null);
    }
    const fk = { dtype: o.dtype as never, device: o.device };
    if (this.trackRunningStats) {
      this.registerBuffer('running_mean', zeros([numFeatures], fk));
      this.registerBuffer('running_var', ones([numFeatures], fk));
      this.registerBuffer('num_batches_tracked', tensor(0, { dtype: 'int64', device: o.device }));
    } else {
      this.registerBuffer('running_mean', null);
      this.registerBuffer('running_var', null);
      this.registerBuffer('num_batches_tracked', null);
    }
    this.resetParameters();
  }

  /** camelCase readers of the snake_case buffers. */
  get runningMean(): Tensor | null {
    return this._buffers.get('running_mean') ?? null;
  }

  get runningVar(): Tensor | null {
    return this._buffers.get('running_var') ?? null;
  }

  get numBatchesTracked(): Tensor | null {
    return this._buffers.get('num_batches_tracked') ?? null;
  }

  resetRunningStats(): void {
    if (!this.trackRunningStats) return;
    noGradGuard(() => {
      this._buffers.get('running_mean')!.zero_();
      this._buffers.get('running_var')!.fill_(1);
      this._buffers.get('num_batches_tracked')!.zero_();
    });
  }

  resetParameters(): void {
    this.resetRunningStats();
    if (this.affine) {
      init.ones_(this.weight!);
      init.zeros_(this.bias!);
    }
  }

  override _optionalStateKeys(): string[] {
    return this.trackRunningStats ? ['num_batches_tracked'] : [];
  }

  protected abstract checkInputDim(input: Tensor): void;

  override forward(input: Tensor): Tensor {
    this.checkInputDim(input);
    let factor = this.momentum ?? 0.0;
    const runningMean = this._buffers.get('running_mean') ?? null;
    const runningVar = this._buffers.get('running_var') ?? null;
    const tracked = this._buffers.get('num_batches_tracked') ?? null;
    if (this.training && this.trackRunningStats && tracked !== null) {
      noGradGuard(() => tracked.add_(1));
      factor = this.momentum === null ? 1.0 / Number(tracked.item()) : this.momentum;
    }
    const bnTraining = this.training ? true : runningMean === null && runningVar === null;
    const useRunning = !this.training || this.trackRunningStats;
    return F.batchNorm(input, useRunning ? runningMean : null, useRunning ? runningVar : null, {
      weight: this.weight,
      bias: this.bias,
      training: bnTraining,
      momentum: factor,
      eps: this.eps,
    });
  }

  override extraRepr(): string {
    const m = this.momentum === null ? 'None' : pyRepr(pyFloat(this.momentum));
    return `${this.numFeatures}, eps=${pyRepr(pyFloat(this.eps))}, momentum=${m}, affine=${pyRepr(this.affine)}, track_running_stats=${pyRepr(this.trackRunningStats)}`;
  }
}

export class BatchNorm1d extends BatchNormBase {
  protected checkInputDim(input: Tensor): void {
    if (input.dim() !== 2 && input.dim() !== 3) throw new TorchError(`BatchNorm1d: expected 2D or 3D input (got ${input.dim()}D input)`);
  }
}

export class BatchNorm2d extends BatchNormBase {
  protected checkInputDim(input: Tensor): void {
    if (input.dim() !== 4) throw new TorchError(`BatchNorm2d: expected 4D input (got ${input.dim()}D input)`);
  }
}

export interface LayerNormOptions extends FactoryKwargs {
  eps?: number;
  elementwiseAffine?: boolean;
  bias?: boolean;
}

export class LayerNorm extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  readonly normalizedShape: number[];
  readonly eps: number;
  readonly elementwiseAffine: boolean;

  constructor(normalizedShape: number | readonly number[], o: LayerNormOptions = {}) {
    super();
    this.normalizedShape = typeof normalizedShape === 'number' ? [normalizedShape] : [...normalizedShape];
    this.eps = o.eps ?? 1e-5;
    this.elementwiseAffine = o.elementwiseAffine ?? true;
    if (this.elementwiseAffine) {
      this.weight = emptyParam(this.normalizedShape, o);
      if (o.bias ?? true) this.bias = emptyParam(this.normalizedShape, o);
      else this.registerParameter('bias', null);
    } else {
      this.registerParameter('weight', null);
      this.registerParameter('bias', null);
    }
    this.resetParameters();
  }

  resetParameters(): void {
    if (this.weight) init.ones_(this.weight);
    if (this.bias) init.zeros_(this.bias);
  }

  override forward(input: Tensor): Tensor {
    return F.layerNorm(input, this.normalizedShape, { weight: this.weight, bias: this.bias, eps: this.eps });
  }

  override extraRepr(): string {
    return `${pyRepr(this.normalizedShape)}, eps=${pyRepr(pyFloat(this.eps))}, elementwise_affine=${pyRepr(this.elementwiseAffine)}`;
  }
}

export interface GroupNormOptions extends FactoryKwargs {
  eps?: number;
  affine?: boolean;
}

export class GroupNorm extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  readonly eps: number;
  readonly affine: boolean;

  constructor(readonly numGroups: number, readonly numChannels: number, o: GroupNormOptions = {}) {
    super();
    if (numChannels % numGroups !== 0) throw new TorchError('GroupNorm: num_channels must be divisible by num_groups');
    this.eps = o.eps ?? 1e-5;
    this.affine = o.affine ?? true;
    if (this.affine) {
      this.weight = emptyParam([numChannels], o);
      this.bias = emptyParam([numChannels], o);
    } else {
      this.registerParameter('weight', null);
      this.registerParameter('bias', null);
    }
    this.resetParameters();
  }

  resetParameters(): void {
    if (this.affine) {
      init.ones_(this.weight!);
      init.zeros_(this.bias!);
    }
  }

  override forward(input: Tensor): Tensor {
    return F.groupNorm(input, this.numGroups, { weight: this.weight, bias: this.bias, eps: this.eps });
  }

  override extraRepr(): string {
    return `${this.numGroups}, ${this.numChannels}, eps=${pyRepr(pyFloat(this.eps))}, affine=${pyRepr(this.affine)}`;
  }
}
