/**
 * The losses and distance modules over the composite functionals (core losses-pointwise.ts,
 * losses-distance.ts, ctc-loss.ts): PyTorch's constructors (Note [Module constructors bind
 * their arguments]), options kept as readonly fields, and PyTorch's reprs (these modules have
 * no extra_repr: `KLDivLoss()`).
 */
import { TorchTypeError, type OptionalArgs } from '@torch-ts/core';
import { Tensor, TorchError } from '../internal';
import { initBinder } from '../init-args';
import { Module } from '../module';
import * as F from '../functional';
import { type Reduction, type LossOptions } from './loss';

const LEGACY = ['sizeAverage', 'reduce'];
type Legacy = null;
interface LegacyOptions {
  sizeAverage?: null;
  reduce?: null;
}

function checkReduction(r: string, allowed: readonly string[] = ['none', 'mean', 'sum']): string {
  if (!allowed.includes(r)) throw new TorchError(`${r} is not a valid value for reduction`);
  return r;
}

/** `_Loss` for losses of any arity (the reduction, checked at construction). */
abstract class ReducingModule extends Module {
  readonly reduction: Reduction;
  constructor(reduction: string) {
    super();
    this.reduction = checkReduction(reduction) as Reduction;
  }
}

const klDivArgs = initBinder('KLDivLoss', "bool? size_average=None, bool? reduce=None, str reduction='mean', bool log_target=False", LEGACY);
const huberArgs = initBinder('HuberLoss', "str reduction='mean', float delta=1.0");
const marginRankingArgs = initBinder('MarginRankingLoss', "float margin=0.0, bool? size_average=None, bool? reduce=None, str reduction='mean'", LEGACY);
const hingeArgs = initBinder('HingeEmbeddingLoss', "float margin=1.0, bool? size_average=None, bool? reduce=None, str reduction='mean'", LEGACY);
const softMarginArgs = initBinder('SoftMarginLoss', "bool? size_average=None, bool? reduce=None, str reduction='mean'", LEGACY);
const multilabelSoftMarginArgs = initBinder('MultiLabelSoftMarginLoss', "Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean'", LEGACY);
const multiMarginArgs = initBinder('MultiMarginLoss', "int p=1, float margin=1.0, Tensor? weight=None, bool? size_average=None, bool? reduce=None, str reduction='mean'", LEGACY);
const multilabelMarginArgs = initBinder('MultiLabelMarginLoss', "bool? size_average=None, bool? reduce=None, str reduction='mean'", LEGACY);
const poissonArgs = initBinder('PoissonNLLLoss', "bool log_input=True, bool full=False, bool? size_average=None, float eps=1e-8, bool? reduce=None, str reduction='mean'", LEGACY);
const gaussianArgs = initBinder('GaussianNLLLoss', "*, bool full=False, float eps=1e-6, str reduction='mean'");
const cosineEmbeddingArgs = initBinder('CosineEmbeddingLoss', "float margin=0.0, bool? size_average=None, bool? reduce=None, str reduction='mean'", LEGACY);
const tripletArgs = initBinder(
  'TripletMarginLoss',
  "float margin=1.0, float p=2.0, float eps=1e-6, bool swap=False, bool? size_average=None, bool? reduce=None, str reduction='mean'",
  LEGACY,
);
const ctcArgs = initBinder('CTCLoss', "int blank=0, str reduction='mean', bool zero_infinity=False");
const cosineSimilarityArgs = initBinder('CosineSimilarity', 'int dim=1, float eps=1e-8');
const pairwiseDistanceArgs = initBinder('PairwiseDistance', 'float p=2.0, float eps=1e-6, bool keepdim=False');

type ReductionArgs = OptionalArgs<[sizeAverage: Legacy, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions>;

export class KLDivLoss extends Module {
  readonly reduction: Reduction | 'batchmean';
  readonly logTarget: boolean;
  constructor(
    ...args: OptionalArgs<
      [sizeAverage: Legacy, reduce: Legacy, reduction: Reduction | 'batchmean', logTarget: boolean],
      LegacyOptions & { reduction?: Reduction | 'batchmean' | null; logTarget?: boolean | null }
    >
  ) {
    super();
    const [, , reduction, logTarget] = klDivArgs.bind(args);
    this.reduction = checkReduction(reduction, ['none', 'mean', 'sum', 'batchmean']) as Reduction | 'batchmean';
    this.logTarget = logTarget;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.klDiv(input, target, { reduction: this.reduction, logTarget: this.logTarget });
  }
}

export class HuberLoss extends ReducingModule {
  readonly delta: number;
  constructor(...args: OptionalArgs<[reduction: Reduction, delta: number], LossOptions & { delta?: number | null }>) {
    const [reduction, delta] = huberArgs.bind(args);
    super(reduction);
    this.delta = delta;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.huberLoss(input, target, { reduction: this.reduction, delta: this.delta });
  }
}

export class MarginRankingLoss extends ReducingModule {
  readonly margin: number;
  constructor(...args: OptionalArgs<[margin: number, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions & { margin?: number | null }>) {
    const [margin, , , reduction] = marginRankingArgs.bind(args);
    super(reduction);
    this.margin = margin;
  }
  override forward(input1: Tensor, input2: Tensor, target: Tensor): Tensor {
    return F.marginRankingLoss(input1, input2, target, { margin: this.margin, reduction: this.reduction });
  }
}

export class HingeEmbeddingLoss extends ReducingModule {
  readonly margin: number;
  constructor(...args: OptionalArgs<[margin: number, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions & { margin?: number | null }>) {
    const [margin, , , reduction] = hingeArgs.bind(args);
    super(reduction);
    this.margin = margin;
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.hingeEmbeddingLoss(input, target, { margin: this.margin, reduction: this.reduction });
  }
}

export class SoftMarginLoss extends ReducingModule {
  constructor(...args: ReductionArgs) {
    super(softMarginArgs.bind(args)[2]);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.softMarginLoss(input, target, { reduction: this.reduction });
  }
}

export class MultiLabelSoftMarginLoss extends ReducingModule {
  declare weight: Tensor | null;
  constructor(...args: OptionalArgs<[weight: Tensor, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions & { weight?: Tensor | null }>) {
    const [weight, , , reduction] = multilabelSoftMarginArgs.bind(args);
    super(reduction);
    this.registerBuffer('weight', weight ?? null);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.multilabelSoftMarginLoss(input, target, { weight: this.weight, reduction: this.reduction });
  }
}

export class MultiMarginLoss extends ReducingModule {
  declare weight: Tensor | null;
  readonly p: 1 | 2;
  readonly margin: number;
  constructor(
    ...args: OptionalArgs<
      [p: 1 | 2, margin: number, weight: Tensor, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction],
      LossOptions & LegacyOptions & { p?: 1 | 2; margin?: number; weight?: Tensor | null }
    >
  ) {
    const [p, margin, weight, , , reduction] = multiMarginArgs.bind(args);
    super(reduction);
    if (p !== 1 && p !== 2) throw new TorchError('MultiMarginLoss: only p == 1 and p == 2 supported');
    if (weight != null && weight.dim() !== 1) throw new TorchError('MultiMarginLoss: expected weight to be None or 1D tensor');
    this.p = p;
    this.margin = margin;
    this.registerBuffer('weight', weight ?? null);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.multiMarginLoss(input, target, { p: this.p, margin: this.margin, weight: this.weight, reduction: this.reduction });
  }
}

export class MultiLabelMarginLoss extends ReducingModule {
  constructor(...args: ReductionArgs) {
    super(multilabelMarginArgs.bind(args)[2]);
  }
  override forward(input: Tensor, target: Tensor): Tensor {
    return F.multilabelMarginLoss(input, target, { reduction: this.reduction });
  }
}

export class PoissonNLLLoss extends ReducingModule {
  readonly logInput: boolean;
  readonly full: boolean;
  readonly eps: number;
  constructor(
    ...args: OptionalArgs<
      [logInput: boolean, full: boolean, sizeAverage: Legacy, eps: number, reduce: Legacy, reduction: Reduction],
      LossOptions & LegacyOptions & { logInput?: boolean | null; full?: boolean | null; eps?: number | null }
    >
  ) {
    const [logInput, full, , eps, , reduction] = poissonArgs.bind(args);
    super(reduction);
    this.logInput = logInput;
    this.full = full;
    this.eps = eps;
  }
  override forward(logInput: Tensor, target: Tensor): Tensor {
    return F.poissonNllLoss(logInput, target, { logInput: this.logInput, full: this.full, eps: this.eps, reduction: this.reduction });
  }
}

export class GaussianNLLLoss extends ReducingModule {
  readonly full: boolean;
  readonly eps: number;
  constructor(...args: OptionalArgs<[], LossOptions & { full?: boolean | null; eps?: number | null }>) {
    const [full, eps, reduction] = gaussianArgs.bind(args);
    super(reduction);
    this.full = full;
    this.eps = eps;
  }
  override forward(input: Tensor, target: Tensor, variance: Tensor): Tensor {
    return F.gaussianNllLoss(input, target, variance, { full: this.full, eps: this.eps, reduction: this.reduction });
  }
}

export class CosineEmbeddingLoss extends ReducingModule {
  readonly margin: number;
  constructor(...args: OptionalArgs<[margin: number, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction], LossOptions & LegacyOptions & { margin?: number | null }>) {
    const [margin, , , reduction] = cosineEmbeddingArgs.bind(args);
    super(reduction);
    this.margin = margin;
  }
  override forward(input1: Tensor, input2: Tensor, target: Tensor): Tensor {
    return F.cosineEmbeddingLoss(input1, input2, target, { margin: this.margin, reduction: this.reduction });
  }
}

export class TripletMarginLoss extends ReducingModule {
  readonly margin: number;
  readonly p: number;
  readonly eps: number;
  readonly swap: boolean;
  constructor(
    ...args: OptionalArgs<
      [margin: number, p: number, eps: number, swap: boolean, sizeAverage: Legacy, reduce: Legacy, reduction: Reduction],
      LossOptions & LegacyOptions & { margin?: number | null; p?: number | null; eps?: number | null; swap?: boolean | null }
    >
  ) {
    const [margin, p, eps, swap, , , reduction] = tripletArgs.bind(args);
    super(reduction);
    this.margin = margin;
    this.p = p;
    this.eps = eps;
    this.swap = swap;
  }
  override forward(anchor: Tensor, positive: Tensor, negative: Tensor): Tensor {
    return F.tripletMarginLoss(anchor, positive, negative, { margin: this.margin, p: this.p, eps: this.eps, swap: this.swap, reduction: this.reduction });
  }
}

export interface TripletMarginWithDistanceLossOptions {
  /** A function of two tensors, or a module (then a child, as in PyTorch); default `new PairwiseDistance()`. */
  distanceFunction?: ((x1: Tensor, x2: Tensor) => Tensor) | Module | null;
  margin?: number;
  swap?: boolean;
  reduction?: Reduction;
}

export class TripletMarginWithDistanceLoss extends ReducingModule {
  readonly margin: number;
  readonly swap: boolean;
  private readonly distance: (x1: Tensor, x2: Tensor) => Tensor;
  constructor(options: TripletMarginWithDistanceLossOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new TorchTypeError('TripletMarginWithDistanceLoss.__init__() takes 1 positional argument but 2 were given');
    }
    const known = new Set(['distanceFunction', 'margin', 'swap', 'reduction']);
    for (const k of Object.keys(options)) {
      if (!known.has(k)) throw new TorchTypeError(`TripletMarginWithDistanceLoss.__init__() got an unexpected keyword argument '${k}'`);
    }
    super(options.reduction ?? 'mean');
    this.margin = options.margin ?? 1;
    if (!(this.margin > 0)) throw new TorchError(`TripletMarginWithDistanceLoss: TripletMarginWithDistanceLoss: expected margin to be greater than 0, got ${this.margin} instead`);
    this.swap = options.swap ?? false;
    const fn = options.distanceFunction ?? new PairwiseDistance();
    if (fn instanceof Module) {
      this.registerModule('distance_function', fn);
      this.distance = (a, b) => fn.call(a, b) as Tensor;
    } else this.distance = fn;
  }
  override forward(anchor: Tensor, positive: Tensor, negative: Tensor): Tensor {
    return F.tripletMarginWithDistanceLoss(anchor, positive, negative, { distanceFunction: this.distance, margin: this.margin, swap: this.swap, reduction: this.reduction });
  }
}

export class CTCLoss extends ReducingModule {
  readonly blank: number;
  readonly zeroInfinity: boolean;
  constructor(...args: OptionalArgs<[blank: number, reduction: Reduction, zeroInfinity: boolean], LossOptions & { blank?: number | null; zeroInfinity?: boolean | null }>) {
    const [blank, reduction, zeroInfinity] = ctcArgs.bind(args);
    super(reduction);
    this.blank = blank;
    this.zeroInfinity = zeroInfinity;
  }
  override forward(logProbs: Tensor, targets: Tensor, inputLengths: Tensor | number[], targetLengths: Tensor | number[]): Tensor {
    return F.ctcLoss(logProbs, targets, inputLengths as Tensor, targetLengths as Tensor, { blank: this.blank, reduction: this.reduction, zeroInfinity: this.zeroInfinity });
  }
}

export class CosineSimilarity extends Module {
  readonly dim: number;
  readonly eps: number;
  constructor(...args: OptionalArgs<[dim: number, eps: number], { dim?: number | null; eps?: number | null }>) {
    super();
    [this.dim, this.eps] = cosineSimilarityArgs.bind(args);
  }
  override forward(x1: Tensor, x2: Tensor): Tensor {
    return F.cosineSimilarity(x1, x2, { dim: this.dim, eps: this.eps });
  }
}

export class PairwiseDistance extends Module {
  readonly norm: number;
  readonly eps: number;
  readonly keepdim: boolean;
  constructor(...args: OptionalArgs<[p: number, eps: number, keepdim: boolean], { p?: number | null; eps?: number | null; keepdim?: boolean | null }>) {
    super();
    [this.norm, this.eps, this.keepdim] = pairwiseDistanceArgs.bind(args);
  }
  override forward(x1: Tensor, x2: Tensor): Tensor {
    return F.pairwiseDistance(x1, x2, { p: this.norm, eps: this.eps, keepdim: this.keepdim });
  }
}
