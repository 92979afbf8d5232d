import { Tensor, TorchError } from '../internal';
import { Module } from '../module';
import * as F from '../functional';

export type Reduction = 'none' | 'mean' | 'sum';

export interface LossOptions {
  reduction?: Reduction;
}

function checkReduction(r: string): Reduction {
  if (r !== 'none' && r !== 'mean' && r !== 'sum') throw new TorchError(`${r} is not a valid value for reduction`);
  return r;
}

/** `_Loss`: the reduction. */
abstract class Loss extends Module {
  readonly reduction: Reduction;

  constructor(o: LossOptions = {}) {
    super();
    this.reduction = checkReduction(o.reduction ?? 'mean');
  }

  abstract override forward(input: Tensor, target: Tensor): Tensor;
}

/** `_WeightedLoss`: a class-weight buffer (absent from the state dict when null, as in PyTorch). */
abstract class WeightedLoss extends Loss {
  declare weight: Tensor | null;

  constructor(o: LossOptions & { weight?: Tensor | null } = {}) {
    super(o);
    this.registerBuffer('weight', o.weight ?? null);
  }
}

export interface CrossEntropyLossOptions extends LossOptions {
  weight?: Tensor | null;
  ignoreIndex?: number;
  labelSmoothing?: number;
}

export class CrossEntropyLoss extends WeightedLoss {
  readonly ignoreIndex: number;
  readonly labelSmoothing: number;

  constructor(o: CrossEntropyLossOptions = {}) {
    super(o);
    this.ignoreIndex = o.ignoreIndex ?? -100;
    this.labelSmoothing = o.labelSmoothing ?? 0.0;
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

  constructor(o: LossOptions & { weight?: Tensor | null; ignoreIndex?: number } = {}) {
    super(o);
    this.ignoreIndex = o.ignoreIndex ?? -100;
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.nllLoss(input, target, { weight: this.weight, ignoreIndex: this.ignoreIndex, reduction: this.reduction });
  }
}

export class MSELoss extends Loss {
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.mseLoss(input, target, { reduction: this.reduction });
  }
}

export class L1Loss extends Loss {
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.l1Loss(input, target, { reduction: this.reduction });
  }
}

export class BCELoss extends WeightedLoss {
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.binaryCrossEntropy(input, target, { weight: this.weight, reduction: this.reduction });
  }
}

export class BCEWithLogitsLoss extends Loss {
  declare weight: Tensor | null;
  declare pos_weight: Tensor | null;

  constructor(o: LossOptions & { weight?: Tensor | null; posWeight?: Tensor | null } = {}) {
    super(o);
    this.registerBuffer('weight', o.weight ?? null);
    this.registerBuffer('pos_weight', o.posWeight ?? null);
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

  constructor(o: LossOptions & { beta?: number } = {}) {
    super(o);
    this.beta = o.beta ?? 1.0;
  }

  override forward(input: Tensor, target: Tensor): Tensor {
    return F.smoothL1Loss(input, target, { reduction: this.reduction, beta: this.beta });
  }
}
