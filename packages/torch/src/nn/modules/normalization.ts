import { ones, tensor, zeros, type BoundArgs, type DType, type DeviceLike } from '@torch-ts/core';
import { FACTORY_PARAMS, givenNull, initBinder } from '../init-args';
import * as init from '../init';
import { Tensor, TorchError, noGradGuard } from '../internal';
import { Module } from '../module';
import type { Parameter } from '../parameter';
import * as F from '../functional';
import { pyFloat, pyRepr } from '../repr';
import { emptyParam, type BoundFactoryKwargs, type FactoryKwargs } from './linear';

export interface BatchNormOptions extends FactoryKwargs {
  eps?: number | null;
  /** null: the cumulative average over `num_batches_tracked` (PyTorch's `momentum=None`). */
  momentum?: number | null;
  affine?: boolean | null;
  trackRunningStats?: boolean | null;
}

const batchNormParams = `int num_features, float eps=1e-05, float momentum=0.1, bool affine=True, bool track_running_stats=True, ${FACTORY_PARAMS}` as const;
const batchNorm1dArgs = initBinder('BatchNorm1d', batchNormParams);
const batchNorm2dArgs = initBinder('BatchNorm2d', batchNormParams);
const batchNorm3dArgs = initBinder('BatchNorm3d', batchNormParams);
const instanceNormParams = `int num_features, float eps=1e-05, float momentum=0.1, bool affine=False, bool track_running_stats=False, ${FACTORY_PARAMS}` as const;
const instanceNorm1dArgs = initBinder('InstanceNorm1d', instanceNormParams);
const instanceNorm2dArgs = initBinder('InstanceNorm2d', instanceNormParams);
const instanceNorm3dArgs = initBinder('InstanceNorm3d', instanceNormParams);
const localResponseNormArgs = initBinder('LocalResponseNorm', 'int size, float alpha=0.0001, float beta=0.75, float k=1.0');
const layerNormArgs = initBinder('LayerNorm', `int[] normalized_shape, float eps=1e-05, bool elementwise_affine=True, bool bias=True, ${FACTORY_PARAMS}`);
const groupNormArgs = initBinder('GroupNorm', `int num_groups, int num_channels, float eps=1e-05, bool affine=True, ${FACTORY_PARAMS}`);

type BatchNormArgs = BoundArgs<
  [numFeatures: number],
  [eps: number, momentum: number | null, affine: boolean, trackRunningStats: boolean, device: DeviceLike, dtype: DType | string],
  BatchNormOptions & { numFeatures?: number }
>;

interface BatchNormSpec extends BoundFactoryKwargs {
  eps: number;
  momentum: number | null;
  affine: boolean;
  trackRunningStats: boolean;
}

function batchNormSpec(b: { bind(args: readonly unknown[]): ReturnType<typeof batchNorm1dArgs.bind> }, args: readonly unknown[]): [number, BatchNormSpec] {
  const [numFeatures, eps, momentum, affine, trackRunningStats, device, dtype] = b.bind(args);
  return [numFeatures, { eps, momentum: givenNull(args, 2, 'momentum') ? null : momentum, affine, trackRunningStats, device, dtype }];
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

  readonly numFeatures: number;

  constructor([numFeatures, o]: ReturnType<typeof batchNormSpec>) {
    super();
    this.numFeatures = numFeatures;
    this.eps = o.eps;
    this.momentum = o.momentum;
    this.affine = o.affine;
    this.trackRunningStats = o.trackRunningStats;
    if (this.affine) {
      this.weight = emptyParam([numFeatures], o);
      this.bias = emptyParam([numFeatures], o);
    } else {
      this.registerParameter('weight', null);
      this.registerParameter('bias', null);
    }
    const fk = { dtype: o.dtype, device: o.device };
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
  constructor(...args: BatchNormArgs) {
    super(batchNormSpec(batchNorm1dArgs, args));
  }

  protected checkInputDim(input: Tensor): void {
    if (input.dim() !== 2 && input.dim() !== 3) throw new TorchError(`BatchNorm1d: expected 2D or 3D input (got ${input.dim()}D input)`);
  }
}

export class BatchNorm2d extends BatchNormBase {
  constructor(...args: BatchNormArgs) {
    super(batchNormSpec(batchNorm2dArgs, args));
  }

  protected checkInputDim(input: Tensor): void {
    if (input.dim() !== 4) throw new TorchError(`BatchNorm2d: expected 4D input (got ${input.dim()}D input)`);
  }
}

export class BatchNorm3d extends BatchNormBase {
  constructor(...args: BatchNormArgs) {
    super(batchNormSpec(batchNorm3dArgs, args));
  }

  protected checkInputDim(input: Tensor): void {
    if (input.dim() !== 5) throw new TorchError(`BatchNorm3d: expected 5D input (got ${input.dim()}D input)`);
  }
}

/**
 * `_InstanceNorm`: PyTorch's _NormBase with affine and track_running_stats off by default;
 * every (n, c) plane normalised by its own statistics (F.instance_norm), or by the running
 * ones in eval when they are tracked. An input without the batch dimension is treated as a
 * batch of one. `num_batches_tracked` is kept for state dicts but, as in 1.13, not counted.
 */
abstract class InstanceNormBase extends BatchNormBase {
  protected abstract readonly spatialDims: number;

  override forward(input: Tensor): Tensor {
    this.checkInputDim(input);
    if (input.dim() === this.spatialDims + 1) return this.applyNorm(input.unsqueeze(0)).squeeze(0);
    return this.applyNorm(input);
  }

  private applyNorm(input: Tensor): Tensor {
    return F.instanceNorm(
      input,
      this._buffers.get('running_mean') ?? null,
      this._buffers.get('running_var') ?? null,
      this.weight,
      this.bias,
      this.training || !this.trackRunningStats,
      this.momentum ?? 0.1,
      this.eps,
    );
  }

  protected checkInputDim(input: Tensor): void {
    const d = this.spatialDims;
    if (input.dim() !== d + 1 && input.dim() !== d + 2) throw new TorchError(`${this._getName()}: expected ${d + 1}D or ${d + 2}D input (got ${input.dim()}D input)`);
  }
}

export class InstanceNorm1d extends InstanceNormBase {
  protected readonly spatialDims = 1;
  constructor(...args: BatchNormArgs) {
    super(batchNormSpec(instanceNorm1dArgs, args));
  }
}

export class InstanceNorm2d extends InstanceNormBase {
  protected readonly spatialDims = 2;
  constructor(...args: BatchNormArgs) {
    super(batchNormSpec(instanceNorm2dArgs, args));
  }
}

export class InstanceNorm3d extends InstanceNormBase {
  protected readonly spatialDims = 3;
  constructor(...args: BatchNormArgs) {
    super(batchNormSpec(instanceNorm3dArgs, args));
  }
}

/** `nn.LocalResponseNorm(size, alpha, beta, k)`: F.local_response_norm across channels. */
export class LocalResponseNorm extends Module {
  readonly size: number;
  readonly alpha: number;
  readonly beta: number;
  readonly k: number;

  constructor(...args: BoundArgs<[size: number], [alpha: number, beta: number, k: number], { size?: number; alpha?: number | null; beta?: number | null; k?: number | null }>) {
    super();
    [this.size, this.alpha, this.beta, this.k] = localResponseNormArgs.bind(args);
  }

  override forward(input: Tensor): Tensor {
    return F.localResponseNorm(input, this.size, this.alpha, this.beta, this.k);
  }

  override extraRepr(): string {
    return `${this.size}, alpha=${pyRepr(pyFloat(this.alpha))}, beta=${pyRepr(pyFloat(this.beta))}, k=${pyRepr(pyFloat(this.k))}`;
  }
}

export interface LayerNormOptions extends FactoryKwargs {
  eps?: number | null;
  elementwiseAffine?: boolean | null;
  bias?: boolean | null;
}

export class LayerNorm extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  readonly normalizedShape: number[];
  readonly eps: number;
  readonly elementwiseAffine: boolean;

  constructor(
    ...args: BoundArgs<
      [normalizedShape: number | readonly number[]],
      [eps: number, elementwiseAffine: boolean, bias: boolean, device: DeviceLike, dtype: DType | string],
      LayerNormOptions & { normalizedShape?: number | readonly number[] }
    >
  ) {
    super();
    const [normalizedShape, eps, elementwiseAffine, bias, device, dtype] = layerNormArgs.bind(args);
    const o = { device, dtype };
    this.normalizedShape = normalizedShape;
    this.eps = eps;
    this.elementwiseAffine = elementwiseAffine;
    if (this.elementwiseAffine) {
      this.weight = emptyParam(this.normalizedShape, o);
      if (bias) this.bias = emptyParam(this.normalizedShape, o);
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
  eps?: number | null;
  affine?: boolean | null;
}

export class GroupNorm extends Module {
  declare weight: Parameter | null;
  declare bias: Parameter | null;
  readonly eps: number;
  readonly affine: boolean;

  readonly numGroups: number;
  readonly numChannels: number;

  constructor(
    ...args: BoundArgs<[numGroups: number, numChannels: number], [eps: number, affine: boolean, device: DeviceLike, dtype: DType | string], GroupNormOptions & { numGroups?: number; numChannels?: number }>
  ) {
    super();
    const [numGroups, numChannels, eps, affine, device, dtype] = groupNormArgs.bind(args);
    const o = { device, dtype };
    this.numGroups = numGroups;
    this.numChannels = numChannels;
    if (numChannels % numGroups !== 0) throw new TorchError('GroupNorm: num_channels must be divisible by num_groups');
    this.eps = eps;
    this.affine = affine;
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
