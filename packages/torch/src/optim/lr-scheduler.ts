/**
 * `torch.optim.lr_scheduler` (as `optim.lrScheduler`): PyTorch's chainable schedulers. Each
 * `step()` computes the new rates from the current ones with PyTorch's recursive formulas
 * (`get_lr`), in doubles and in the same order, so the rates equal PyTorch's.
 */
import { TorchError } from '../nn/internal';
import { groupNumber, groupNumbers, type Optimizer, type ParamGroup } from './optimizer';

export abstract class LRScheduler {
  readonly optimizer: Optimizer;
  baseLrs: number[];
  lastEpoch: number;
  protected stepCount = 0;
  protected lastLr: number[] = [];

  constructor(optimizer: Optimizer, lastEpoch = -1) {
    this.optimizer = optimizer;
    if (lastEpoch === -1) {
      for (const g of optimizer.paramGroups) if (g.initialLr === undefined) g.initialLr = g.lr;
    } else {
      optimizer.paramGroups.forEach((g, i) => {
        if (g.initialLr === undefined) throw new TorchError(`param 'initialLr' is not specified in paramGroups[${i}] when resuming an optimizer`);
      });
    }
    this.baseLrs = optimizer.paramGroups.map((g) => groupNumber(this.constructor.name, g, 'initialLr'));
    this.lastEpoch = lastEpoch;
  }

  /** PyTorch's `_initial_step`: subclasses call it at the end of their constructor. */
  protected initialStep(): void {
    this.stepCount = 0;
    this.step();
  }

  protected get groups(): ParamGroup[] {
    return this.optimizer.paramGroups;
  }

  /** The new rates for `lastEpoch` (already advanced). */
  protected abstract getLr(): number[];

  step(): void {
    this.stepCount += 1;
    this.lastEpoch += 1;
    const lrs = this.getLr();
    this.groups.forEach((g, i) => (g.lr = lrs[i]));
    this.lastLr = this.groups.map((g) => g.lr);
  }

  getLastLr(): number[] {
    return [...this.lastLr];
  }

  stateDict(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this)) if (k !== 'optimizer') out[k] = Array.isArray(v) ? [...v] : v;
    return out;
  }

  loadStateDict(state: Record<string, unknown>): void {
    Object.assign(this, state);
  }
}

export class StepLR extends LRScheduler {
  constructor(optimizer: Optimizer, readonly stepSize: number, readonly gamma = 0.1, lastEpoch = -1) {
    super(optimizer, lastEpoch);
    this.initialStep();
  }

  protected getLr(): number[] {
    if (this.lastEpoch === 0 || this.lastEpoch % this.stepSize !== 0) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma);
  }
}

export class MultiStepLR extends LRScheduler {
  readonly milestones: Map<number, number>;

  constructor(optimizer: Optimizer, milestones: readonly number[], readonly gamma = 0.1, lastEpoch = -1) {
    super(optimizer, lastEpoch);
    this.milestones = new Map();
    for (const m of [...milestones].sort((a, b) => a - b)) this.milestones.set(m, (this.milestones.get(m) ?? 0) + 1);
    this.initialStep();
  }

  protected getLr(): number[] {
    const n = this.milestones.get(this.lastEpoch);
    if (n === undefined) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma ** n);
  }
}

export class ExponentialLR extends LRScheduler {
  constructor(optimizer: Optimizer, readonly gamma: number, lastEpoch = -1) {
    super(optimizer, lastEpoch);
    this.initialStep();
  }

  protected getLr(): number[] {
    if (this.lastEpoch === 0) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma);
  }
}

export class CosineAnnealingLR extends LRScheduler {
  constructor(optimizer: Optimizer, readonly TMax: number, readonly etaMin = 0, lastEpoch = -1) {
    super(optimizer, lastEpoch);
    this.initialStep();
  }

  protected getLr(): number[] {
    const e = this.lastEpoch;
    const T = this.TMax;
    const etaMin = this.etaMin;
    if (e === 0) return this.groups.map((g) => g.lr);
    if (this.stepCount === 1 && e > 0) {
      return this.baseLrs.map((b) => etaMin + ((b - etaMin) * (1 + Math.cos((e * Math.PI) / T))) / 2);
    }
    if ((e - 1 - T) % (2 * T) === 0) {
      return this.groups.map((g, i) => g.lr + ((this.baseLrs[i] - etaMin) * (1 - Math.cos(Math.PI / T))) / 2);
    }
    return this.groups.map(
      (g) => ((1 + Math.cos((Math.PI * e) / T)) / (1 + Math.cos((Math.PI * (e - 1)) / T))) * (g.lr - etaMin) + etaMin,
    );
  }
}

export interface LinearLROptions {
  startFactor?: number;
  endFactor?: number;
  totalIters?: number;
  lastEpoch?: number;
}

export class LinearLR extends LRScheduler {
  readonly startFactor: number;
  readonly endFactor: number;
  readonly totalIters: number;

  constructor(optimizer: Optimizer, options: LinearLROptions = {}) {
    super(optimizer, options.lastEpoch ?? -1);
    this.startFactor = options.startFactor ?? 1.0 / 3;
    this.endFactor = options.endFactor ?? 1.0;
    this.totalIters = options.totalIters ?? 5;
    if (this.startFactor > 1.0 || this.startFactor <= 0) {
      throw new TorchError('Starting multiplicative factor expected to be greater than 0 and less or equal to 1.');
    }
    if (this.endFactor > 1.0 || this.endFactor < 0) throw new TorchError('Ending multiplicative factor expected to be between 0 and 1.');
    this.initialStep();
  }

  protected getLr(): number[] {
    const e = this.lastEpoch;
    if (e === 0) return this.groups.map((g) => g.lr * this.startFactor);
    if (e > this.totalIters) return this.groups.map((g) => g.lr);
    const d = this.endFactor - this.startFactor;
    return this.groups.map((g) => g.lr * (1.0 + d / (this.totalIters * this.startFactor + (e - 1) * d)));
  }
}

export interface OneCycleLROptions {
  totalSteps?: number | null;
  epochs?: number | null;
  stepsPerEpoch?: number | null;
  pctStart?: number;
  annealStrategy?: 'cos' | 'linear';
  cycleMomentum?: boolean;
  baseMomentum?: number | number[];
  maxMomentum?: number | number[];
  divFactor?: number;
  finalDivFactor?: number;
  threePhase?: boolean;
  lastEpoch?: number;
}

interface Phase {
  endStep: number;
  startLr: string;
  endLr: string;
  startMomentum: string;
  endMomentum: string;
}

const perGroup = (name: string, v: number | readonly number[], n: number): number[] => {
  if (typeof v === 'number') return new Array<number>(n).fill(v);
  if (v.length !== n) throw new TorchError(`expected ${n} values for ${name}, got ${v.length}`);
  return [...v];
};

/** `OneCycleLR`: warm up to `maxLr`, anneal to `initialLr / finalDivFactor`, cycling momentum inversely. */
export class OneCycleLR extends LRScheduler {
  readonly totalSteps: number;
  readonly phases: Phase[];
  readonly annealStrategy: 'cos' | 'linear';
  readonly cycleMomentum: boolean;
  readonly useBeta1: boolean;

  constructor(optimizer: Optimizer, maxLr: number | number[], options: OneCycleLROptions = {}) {
    const groups = optimizer.paramGroups;
    let total: number;
    if (options.totalSteps != null) {
      if (!(options.totalSteps > 0) || !Number.isInteger(options.totalSteps)) throw new TorchError(`Expected positive integer total_steps, but got ${options.totalSteps}`);
      total = options.totalSteps;
    } else if (options.epochs != null && options.stepsPerEpoch != null) {
      if (!(options.epochs > 0)) throw new TorchError(`Expected positive integer epochs, but got ${options.epochs}`);
      if (!(options.stepsPerEpoch > 0)) throw new TorchError(`Expected positive integer steps_per_epoch, but got ${options.stepsPerEpoch}`);
      total = options.epochs * options.stepsPerEpoch;
    } else {
      throw new TorchError('You must define either total_steps OR (epochs AND steps_per_epoch)');
    }
    const pct = options.pctStart ?? 0.3;
    if (!(pct >= 0 && pct <= 1)) throw new TorchError(`Expected float between 0 and 1 pct_start, but got ${pct}`);
    const strategy = options.annealStrategy ?? 'cos';
    if (strategy !== 'cos' && strategy !== 'linear') throw new TorchError(`anneal_strategy must by one of 'cos' or 'linear', instead got ${String(strategy)}`);
    const divFactor = options.divFactor ?? 25.0;
    const finalDivFactor = options.finalDivFactor ?? 1e4;
    const maxLrs = perGroup('max_lr', maxLr, groups.length);
    const lastEpoch = options.lastEpoch ?? -1;
    if (lastEpoch === -1) {
      groups.forEach((g, i) => {
        const initialLr = maxLrs[i] / divFactor;
        g.initialLr = initialLr;
        g.maxLr = maxLrs[i];
        g.minLr = initialLr / finalDivFactor;
      });
    }
    const cycleMomentum = options.cycleMomentum ?? true;
    let useBeta1 = false;
    if (cycleMomentum) {
      const d = optimizer.defaults;
      if (!('momentum' in d) && !('betas' in d)) throw new TorchError('optimizer must support momentum or beta1 with `cycle_momentum` option enabled');
      useBeta1 = 'betas' in d;
      const maxM = perGroup('max_momentum', options.maxMomentum ?? 0.95, groups.length);
      const baseM = perGroup('base_momentum', options.baseMomentum ?? 0.85, groups.length);
      if (lastEpoch === -1) {
        groups.forEach((g, i) => {
          if (useBeta1) g.betas = [maxM[i], ...groupNumbers('OneCycleLR', g, 'betas').slice(1)];
          else g.momentum = maxM[i];
          g.maxMomentum = maxM[i];
          g.baseMomentum = baseM[i];
        });
      }
    }
    super(optimizer, lastEpoch);
    this.totalSteps = total;
    this.annealStrategy = strategy;
    this.cycleMomentum = cycleMomentum;
    this.useBeta1 = useBeta1;
    this.phases = options.threePhase
      ? [
          { endStep: pct * total - 1, startLr: 'initialLr', endLr: 'maxLr', startMomentum: 'maxMomentum', endMomentum: 'baseMomentum' },
          { endStep: 2 * pct * total - 2, startLr: 'maxLr', endLr: 'initialLr', startMomentum: 'baseMomentum', endMomentum: 'maxMomentum' },
          { endStep: total - 1, startLr: 'initialLr', endLr: 'minLr', startMomentum: 'maxMomentum', endMomentum: 'maxMomentum' },
        ]
      : [
          { endStep: pct * total - 1, startLr: 'initialLr', endLr: 'maxLr', startMomentum: 'maxMomentum', endMomentum: 'baseMomentum' },
          { endStep: total - 1, startLr: 'maxLr', endLr: 'minLr', startMomentum: 'baseMomentum', endMomentum: 'maxMomentum' },
        ];
    this.initialStep();
  }

  private anneal(start: number, end: number, pct: number): number {
    if (this.annealStrategy === 'linear') return (end - start) * pct + start;
    const cosOut = Math.cos(Math.PI * pct) + 1;
    return end + ((start - end) / 2.0) * cosOut;
  }

  protected getLr(): number[] {
    const stepNum = this.lastEpoch;
    if (stepNum > this.totalSteps) {
      throw new TorchError(`Tried to step ${stepNum} times. The specified number of total steps is ${this.totalSteps}`);
    }
    return this.groups.map((g) => {
      let start = 0;
      let lr = 0;
      let momentum = 0;
      for (let i = 0; i < this.phases.length; i++) {
        const ph = this.phases[i];
        if (stepNum <= ph.endStep || i === this.phases.length - 1) {
          const pct = (stepNum - start) / (ph.endStep - start);
          lr = this.anneal(groupNumber('OneCycleLR', g, ph.startLr), groupNumber('OneCycleLR', g, ph.endLr), pct);
          if (this.cycleMomentum) momentum = this.anneal(groupNumber('OneCycleLR', g, ph.startMomentum), groupNumber('OneCycleLR', g, ph.endMomentum), pct);
          break;
        }
        start = ph.endStep;
      }
      if (this.cycleMomentum) {
        if (this.useBeta1) g.betas = [momentum, ...groupNumbers('OneCycleLR', g, 'betas').slice(1)];
        else g.momentum = momentum;
      }
      return lr;
    });
  }
}

export interface ReduceLROnPlateauOptions {
  mode?: 'min' | 'max';
  factor?: number;
  patience?: number;
  threshold?: number;
  thresholdMode?: 'rel' | 'abs';
  cooldown?: number;
  minLr?: number | number[];
  eps?: number;
}

/** Cuts the rates by `factor` once the metric has not improved for `patience` epochs. */
export class ReduceLROnPlateau {
  readonly optimizer: Optimizer;
  readonly mode: 'min' | 'max';
  readonly factor: number;
  readonly patience: number;
  readonly threshold: number;
  readonly thresholdMode: 'rel' | 'abs';
  readonly cooldown: number;
  readonly minLrs: number[];
  readonly eps: number;
  best: number;
  numBadEpochs = 0;
  cooldownCounter = 0;
  lastEpoch = 0;
  private lastLr: number[];

  constructor(optimizer: Optimizer, options: ReduceLROnPlateauOptions = {}) {
    this.optimizer = optimizer;
    this.factor = options.factor ?? 0.1;
    if (this.factor >= 1.0) throw new TorchError('Factor should be < 1.0.');
    this.mode = options.mode ?? 'min';
    this.thresholdMode = options.thresholdMode ?? 'rel';
    if (this.mode !== 'min' && this.mode !== 'max') throw new TorchError(`mode ${String(this.mode)} is unknown!`);
    if (this.thresholdMode !== 'rel' && this.thresholdMode !== 'abs') throw new TorchError(`threshold mode ${String(this.thresholdMode)} is unknown!`);
    this.patience = options.patience ?? 10;
    this.threshold = options.threshold ?? 1e-4;
    this.cooldown = options.cooldown ?? 0;
    this.minLrs = perGroup('min_lr', options.minLr ?? 0, optimizer.paramGroups.length);
    this.eps = options.eps ?? 1e-8;
    this.best = this.mode === 'min' ? Infinity : -Infinity;
    this.lastLr = optimizer.paramGroups.map((g) => g.lr);
  }

  private isBetter(a: number, best: number): boolean {
    if (this.mode === 'min' && this.thresholdMode === 'rel') return a < best * (1.0 - this.threshold);
    if (this.mode === 'min') return a < best - this.threshold;
    if (this.thresholdMode === 'rel') return a > best * (this.threshold + 1.0);
    return a > best + this.threshold;
  }

  step(metric: number | { item(): unknown }): void {
    const current = typeof metric === 'number' ? metric : Number(metric.item());
    this.lastEpoch += 1;
    if (this.isBetter(current, this.best)) {
      this.best = current;
      this.numBadEpochs = 0;
    } else {
      this.numBadEpochs += 1;
    }
    if (this.cooldownCounter > 0) {
      this.cooldownCounter -= 1;
      this.numBadEpochs = 0;
    }
    if (this.numBadEpochs > this.patience) {
      this.optimizer.paramGroups.forEach((g, i) => {
        const old = g.lr;
        const next = Math.max(old * this.factor, this.minLrs[i]);
        if (old - next > this.eps) g.lr = next;
      });
      this.cooldownCounter = this.cooldown;
      this.numBadEpochs = 0;
    }
    this.lastLr = this.optimizer.paramGroups.map((g) => g.lr);
  }

  getLastLr(): number[] {
    return [...this.lastLr];
  }
}
