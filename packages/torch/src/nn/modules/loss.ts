import type { OptionalArgs } from '@torch-ts/core';
import { Tensor, TorchError } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';

export type Reduction = 'none' | 'mean' | 'sum';

export interface LossOptions {
  reduction?: Reduction | null;
}

/** PyTorch's legacy `size_average` / `reduce` flags: accepted as keywords, refused unless None. */
interface LegacyOptions {
  sizeAverage?: null;
  reduce?: null;
}

// (Note [Module constructors bind their arguments]; size_average and reduce are PyTorch's
// deprecated spellings of reduction, not supported)
const LEGACY = ['sizeAverage', 'reduce'];
const lossBinder = <const C extends string, const P extends string>(cls: C, params: P) => initBinder(cls, params, LEGACY);
const mseLossArgs = lossBinder('MSELoss', "bool? size_average=None, bool? reduce=None, str reduction='mean'");
const l1LossArgs = lossBinder('L1Loss', "bool? size_average=None, bool? reduce=None, str reduction='mean'");
const crossEntropyLossArgs = lossBinder(
  'CrossEntropyLoss',
  "Tensor? weight=None, bool? size_average=None, int ignore_index=-100, bool? reduce=None, str reduction='mean', float label_smoothing=0.0",
);
const nllLossArgs = lossBinder('NLLLoss', "Tensor? weight=None, bool? size_average=None, int ignore_index=-100, bool? reduce=None, str reduction='mean'");
const bceLossArgs = lossBinder('BCELoss', "Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean'");
const bceWithLogitsLossArgs = lossBinder('BCEWithLogitsLoss', "Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean', Tensor? pos_weight=None");
const smoothL1LossArgs = lossBinder('SmoothL1Loss', "bool? size_average=None, bool? reduce=None, str reduction='mean', float beta=1.0");

type Legacy = null;

function checkReduction(r: string): Reduction {
  if (r !== 'none' && r !== 'mean' && r !== 'sum') throw new TorchError(`${r} is not a valid value for reduction`);
  return r;
}

/** `_Loss`: the reduction. */
abstract class Loss extends Module {
  readonly reduction: Reduction;

  constructor(reduction: string) {
    super();
    this.reduction = checkReduction(reduction);
  }

  abstract override forward(input: Tensor, target: Tensor): Tensor;
}

/** `_WeightedLoss`: a class-weight buffer (absent from the state dict when null, as in PyTorch). */
abstract class WeightedLoss extends Loss {
  declare weight: Tensor | null;

  constructor(weight: Tensor | undefined, reduction: string) {
    super(reduction);
    this.registerBuffer('weight', weight ?? null);
  }
}

export interface CrossEntropyLossOptions extends LossOptions {
  weight?: Tensor | null;
  ignoreIndex?: number | null;
  labelSmoothing?: number | null;
}

export class CrossEntropyLoss extends WeightedLoss {
  readonly ignoreIndex: number;
  readonly labelSmoothing: number;

  constructor(
    ...args: OptionalArgs<
      [weight: Tensor, sizeAverage: Legacy, ignoreIndex: number, reduce: Legacy, reduction: Reduction, labelSmoothing: number],
      CrossEntropyLossOptions & LegacyOptions
    >
  ) {
    const [weight, , ignoreIndex, , reduction, labelSmoothing] = crossEntropyLossArgs.bind(args);
    super(weight, reduction);
    this.ignoreIndex = ignoreIndex;
    this.labelSmoothing = labelSmoothing;
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.crossEntropy(input, target, {
      weight: this.weight,
      ignoreIndex: this.ignoreIndex,
      reduction: this.reduction,
      labelSmoothing: this.labelSmoothing,
    });
  }
}

export class NLLLoss extends WeightedLoss {
  readonly ignoreIndex: number;

  constructor(
    ...args: OptionalArgs<[weight: Tensor, sizeAverage: Legacy, ignoreIndex: number, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions & { weight?: Tensor | null; ignoreIndex?: number | null }>
  ) {
    const [weight, , ignoreIndex, , reduction] = nllLossArgs.bind(args);
    super(weight, reduction);
    this.ignoreIndex = ignoreIndex;
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.nllLoss(input, target, { weight: this.weight, ignoreIndex: this.ignoreIndex, reduction: this.reduction });
  }
}

type ReductionArgs = OptionalArgs<[sizeAverage: Legacy, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions>;

export class MSELoss extends Loss {
  constructor(...args: ReductionArgs) {
    super(mseLossArgs.bind(args)[2]);
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.mseLoss(input, target, { reduction: this.reduction });
  }
}

export class L1Loss extends Loss {
  constructor(...args: ReductionArgs) {
    super(l1LossArgs.bind(args)[2]);
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.l1Loss(input, target, { reduction: this.reduction });
  }
}

export class BCELoss extends WeightedLoss {
  constructor(...args: OptionalArgs<[weight: Tensor, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions & { weight?: Tensor | null }>) {
    const [weight, , , reduction] = bceLossArgs.bind(args);
    super(weight, reduction);
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.binaryCrossEntropy(input, target, { weight: this.weight, reduction: this.reduction });
  }
}

export class BCEWithLogitsLoss extends Loss {
  declare weight: Tensor | null;
  declare pos_weight: Tensor | null;

  constructor(
    ...args: OptionalArgs<
      [weight: Tensor, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction, posWeight: Tensor],
      LossOptions & LegacyOptions & { weight?: Tensor | null; posWeight?: Tensor | null }
    >
  ) {
    const [weight, , , reduction, posWeight] = bceWithLogitsLossArgs.bind(args);
    super(reduction);
    this.registerBuffer('weight', weight ?? null);
    this.registerBuffer('pos_weight', posWeight ?? null);
  }
  get posWeight(): Tensor | null {
    return this._buffers.get('pos_weight') ?? null;
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.binaryCrossEntropyWithLogits(input, target, {
      weight: this.weight,
      posWeight: this.posWeight,
      reduction: this.reduction,
    });
  }
}

export class SmoothL1Loss extends Loss {
  readonly beta: number;

  constructor(...args: OptionalArgs<[sizeAverage: Legacy, reduce: Legacy, reduction: Reduction, beta: number], LossOptions & LegacyOptions & { beta?: number | null }>) {
    const [, , reduction, beta] = smoothL1LossArgs.bind(args);
    super(reduction);
    this.beta = beta;
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.smoothL1Loss(input, target, { reduction: this.reduction, beta: this.beta });
  }
}
