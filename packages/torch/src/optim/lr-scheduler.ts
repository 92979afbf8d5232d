/**
 * `torch.optim.lr_scheduler` (as `optim.lrScheduler`): PyTorch's chainable schedulers. Each
 * `step()` computes the new rates from the current ones with PyTorch's recursive formulas
 * (`get_lr`), in doubles and in the same order, so the rates equal PyTorch's.
 */
import { TorchTypeError, makeBinder, typeName, type FrontArgs, type FrontOptions } from '@torch-ts/core';
import { initBinder } from '../nn/init-args';
import { TorchError } from '../nn/internal';
import { Optimizer, groupNumber, groupNumbers, type ParamGroup } from './optimizer';

/**
 * Note [Scheduler constructors bind their arguments]
 * A scheduler's constructor binds PyTorch 1.13's `__init__` as a module's does (Note [Module
 * constructors bind their arguments]): `new StepLR(opt, 3, 0.5)`, `new StepLR(opt, 3,
 * { gamma: 0.5 })` and `new StepLR(opt, { stepSize: 3, gamma: 0.5 })` are one scheduler; an
 * unknown keyword, one positional too many or a wrong type raises TorchTypeError in Python's
 * words (`StepLR.__init__() takes from 3 to 6 positional arguments but 7 were given`).
 * - The optimizer is bound too, as an `Any` first argument, only so that the counts in those
 *   messages are Python's (`self` and `optimizer` included); it is checked by hand first,
 *   with PyTorch's "X is not an Optimizer" (the binder has no Optimizer type).
 * - `max_lr`, `base_momentum`, `max_momentum` and `min_lr` take a float or one float per
 *   parameter group (PyTorch's `_format_param`). The binder's `float[]` would turn a float
 *   into a list of one, which cannot then be told from a list given for one group, so they
 *   are bound as `Any` and checked by `perGroup`; the constructor types say `float[]` (a
 *   number or a list: `SchedArgs`), from the same text.
 * - `verbose=True` prints what PyTorch prints, with Python's `{:.4e}`.
 * The JS parameters after the optimizer are derived from the parameter text (Note [Front-end
 * types come from the schema]), so they cannot drift from what the binder accepts.
 */

/** The parameter text's `Any` arguments as the caller sees them: a float or a list of floats. */
type Typed<P extends string> = P extends `${infer A}Any ${infer B}` ? Typed<`${A}float[] ${B}`> : P;

/** A scheduler constructor's parameters after the optimizer, from its `__init__` text `P`. */
type SchedArgs<C extends string, P extends string, O = unknown> = FrontArgs<`${C}(${Typed<P>}) -> ()`, O>;

/** A scheduler constructor's options object, from its `__init__` text `P`. */
type SchedOptions<C extends string, P extends string, O = unknown> = FrontOptions<`${C}(${Typed<P>}) -> ()`, O>;

const schedBinder = <const C extends string, const P extends string>(cls: C, params: P) => initBinder(cls, `Any optimizer, ${params}`);

/** Binds `__init__`'s arguments, the optimizer checked first (Note [Scheduler constructors bind their arguments]). */
function bindInit<R>(binder: { bind(args: readonly unknown[]): R }, optimizer: unknown, args: readonly unknown[]): R {
  if (!(optimizer instanceof Optimizer)) throw new TorchTypeError(`${typeName(optimizer)} is not an Optimizer`);
  return binder.bind([optimizer, ...args]);
}

/** A float for every parameter group, from a float or a list of them (PyTorch's `_format_param`). */
function perGroup(cls: string, keyword: string, name: string, v: unknown, n: number): number[] {
  if (typeof v === 'number') return new Array<number>(n).fill(v);
  if (!isNumbers(v)) throw new TorchTypeError(`${cls}.__init__(): argument '${keyword}' must be float or tuple of floats, not ${typeName(v)}`);
  if (v.length !== n) throw new TorchError(`expected ${n} values for ${name}, got ${v.length}`);
  return [...v];
}

const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');

/**
 * Python's `'{:.4e}'.format(x)`: `1.0000e-01`. (`toExponential` breaks an exact tie away from
 * zero where Python rounds half to even, on the double's exact value: the tie is read off
 * the exact digits, which `toExponential(99)` gives for every value with a tie at 5 digits.)
 */
function formatLr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  let s = x.toExponential(4);
  const exact = x.toExponential(99);
  const [digits, exp] = exact.split('e');
  const neg = digits.startsWith('-');
  const body = neg ? digits.slice(1) : digits; // d.ddddd...
  if (/^\d\.\d{4}50*$/.test(body) && Number(body[5]) % 2 === 0) s = `${neg ? '-' : ''}${body.slice(0, 6)}e${exp}`;
  const [m, e] = s.split('e');
  const n = Number(e);
  return `${m}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
}

const LR_SCHEDULER = 'int last_epoch=-1, bool verbose=False';
const lrSchedulerArgs = schedBinder('LRScheduler', LR_SCHEDULER);
const stepArgs = makeBinder('LRScheduler.step', 'step(int? epoch=None) -> ()', { countSelf: true, unsupported: ['epoch'] });

export abstract class LRScheduler {
  readonly optimizer: Optimizer;
  baseLrs: number[];
  lastEpoch: number;
  verbose: boolean;
  protected stepCount = 0;
  protected lastLr: number[] = [];

  constructor(optimizer: Optimizer, ...args: SchedArgs<'LRScheduler', typeof LR_SCHEDULER>) {
    const [, lastEpoch, verbose] = bindInit(lrSchedulerArgs, optimizer, args);
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
    this.verbose = verbose;
  }

  /** PyTorch's `_initial_step`: subclasses call it at the end of their constructor (and SequentialLR on its first). */
  initialStep(): void {
    this.stepCount = 0;
    this.step();
  }

  /**
   * PyTorch's closed form (`_get_closed_form_lr`), for the schedulers that have one: the
   * rates at `lastEpoch` from the base rates. `stepToEpoch` uses it, as `step(epoch)` does there.
   */
  protected closedFormLr(): number[] | undefined {
    return undefined;
  }

  /**
   * PyTorch's deprecated `step(epoch)`: sets `lastEpoch` and the rates of that epoch (the
   * closed form where there is one). SequentialLR calls it with 0 at each milestone, as
   * PyTorch's does; user code calls `step()`.
   */
  stepToEpoch(epoch: number): void {
    this.stepCount += 1;
    this.lastEpoch = epoch;
    this.setLrs(this.closedFormLr() ?? this.getLr());
  }

  protected setLrs(lrs: number[]): void {
    this.groups.forEach((g, i) => {
      g.lr = lrs[i];
      // (PyTorch's `print_lr` without an epoch)
      if (this.verbose) console.log(`Adjusting learning rate of group ${i} to ${formatLr(lrs[i])}.`);
    });
    this.lastLr = this.groups.map((g) => g.lr);
  }

  protected get groups(): ParamGroup[] {
    return this.optimizer.paramGroups;
  }

  /** The new rates for `lastEpoch` (already advanced). */
  protected abstract getLr(): number[];

  /** PyTorch's `step()`; its deprecated `epoch` argument raises NotImplementedError. */
  step(): void;
  step(...args: unknown[]): void {
    // (a call without arguments, every training step, skips the binder)
    if (args.length > 0) stepArgs.bind(args);
    this.stepCount += 1;
    this.lastEpoch += 1;
    this.setLrs(this.getLr());
  }

  getLastLr(): number[] {
    return [...this.lastLr];
  }

  /** PyTorch's `state_dict()`: the scheduler's attributes, PyTorch's names (Note [Scheduler state dicts]). */
  stateDict(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this)) {
      if (k === 'optimizer' || typeof v === 'function') continue;
      out[schedKeyToPy(k)] = v instanceof Map ? Object.fromEntries(v) : Array.isArray(v) ? [...v] : v;
    }
    out._get_lr_called_within_step = false;
    return out;
  }

  /** Loads a state dict of either spelling (PyTorch's, or the camelCase one earlier versions wrote). */
  loadStateDict(state: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(state)) {
      if (k === '_get_lr_called_within_step') continue;
      const key = schedKeyFromPy(k);
      const cur: unknown = (this as Record<string, unknown>)[key];
      (this as Record<string, unknown>)[key] =
        cur instanceof Map && v !== null && typeof v === 'object' && !(v instanceof Map) ? new Map(Object.entries(v).map(([m, n]) => [Number(m), n])) : v;
    }
  }
}

/**
 * Note [Scheduler state dicts]
 * PyTorch's `scheduler.state_dict()` is the scheduler's `__dict__` without the optimizer:
 * `base_lrs`, `last_epoch`, `verbose`, `_step_count`, `_get_lr_called_within_step`,
 * `_last_lr` and the scheduler's own attributes (`step_size`, `gamma`, `T_max`, a
 * MultiStepLR's `milestones` as a Counter, i.e. `{milestone: count}`). `stateDict()` writes
 * those names and shapes, so the JSON equals PyTorch's; functions (LambdaLR's lambdas) are
 * left out as PyTorch leaves them out. `loadStateDict` takes either spelling.
 */
const SCHED_TO_PY: Record<string, string> = { stepCount: '_step_count', lastLr: '_last_lr', TMax: 'T_max', lrLambdas: 'lr_lambdas', T0: 'T_0', Ti: 'T_i', TMult: 'T_mult', TCur: 'T_cur' };
const SCHED_FROM_PY: Record<string, string> = Object.fromEntries(Object.entries(SCHED_TO_PY).map(([a, b]) => [b, a]));
function schedKeyToPy(k: string): string {
  return SCHED_TO_PY[k] ?? k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
function schedKeyFromPy(k: string): string {
  return SCHED_FROM_PY[k] ?? k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const STEP_LR = 'int step_size, float gamma=0.1, int last_epoch=-1, bool verbose=False';
const stepLrArgs = schedBinder('StepLR', STEP_LR);

export class StepLR extends LRScheduler {
  readonly stepSize: number;
  readonly gamma: number;

  constructor(optimizer: Optimizer, ...args: SchedArgs<'StepLR', typeof STEP_LR>) {
    const [, stepSize, gamma, lastEpoch, verbose] = bindInit(stepLrArgs, optimizer, args);
    super(optimizer, lastEpoch, verbose);
    this.stepSize = stepSize;
    this.gamma = gamma;
    this.initialStep();
  }

  protected getLr(): number[] {
    if (this.lastEpoch === 0 || this.lastEpoch % this.stepSize !== 0) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma);
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((b) => b * this.gamma ** Math.floor(this.lastEpoch / this.stepSize));
  }
}

const MULTI_STEP_LR = 'int[] milestones, float gamma=0.1, int last_epoch=-1, bool verbose=False';
const multiStepLrArgs = schedBinder('MultiStepLR', MULTI_STEP_LR);

export class MultiStepLR extends LRScheduler {
  readonly milestones: Map<number, number>;
  readonly gamma: number;

  constructor(optimizer: Optimizer, ...args: SchedArgs<'MultiStepLR', typeof MULTI_STEP_LR>) {
    const [, milestones, gamma, lastEpoch, verbose] = bindInit(multiStepLrArgs, optimizer, args);
    super(optimizer, lastEpoch, verbose);
    this.gamma = gamma;
    this.milestones = new Map();
    for (const m of [...milestones].sort((a, b) => a - b)) this.milestones.set(m, (this.milestones.get(m) ?? 0) + 1);
    this.initialStep();
  }

  protected getLr(): number[] {
    const n = this.milestones.get(this.lastEpoch);
    if (n === undefined) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma ** n);
  }

  protected override closedFormLr(): number[] {
    let passed = 0;
    for (const [m, n] of this.milestones) if (m <= this.lastEpoch) passed += n;
    return this.baseLrs.map((b) => b * this.gamma ** passed);
  }
}

const EXPONENTIAL_LR = 'float gamma, int last_epoch=-1, bool verbose=False';
const exponentialLrArgs = schedBinder('ExponentialLR', EXPONENTIAL_LR);

export class ExponentialLR extends LRScheduler {
  readonly gamma: number;

  constructor(optimizer: Optimizer, ...args: SchedArgs<'ExponentialLR', typeof EXPONENTIAL_LR>) {
    const [, gamma, lastEpoch, verbose] = bindInit(exponentialLrArgs, optimizer, args);
    super(optimizer, lastEpoch, verbose);
    this.gamma = gamma;
    this.initialStep();
  }

  protected getLr(): number[] {
    if (this.lastEpoch === 0) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * this.gamma);
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((b) => b * this.gamma ** this.lastEpoch);
  }
}

const COSINE_ANNEALING_LR = 'int T_max, float eta_min=0, int last_epoch=-1, bool verbose=False';
const cosineAnnealingLrArgs = schedBinder('CosineAnnealingLR', COSINE_ANNEALING_LR);

export class CosineAnnealingLR extends LRScheduler {
  readonly TMax: number;
  readonly etaMin: number;

  constructor(optimizer: Optimizer, ...args: SchedArgs<'CosineAnnealingLR', typeof COSINE_ANNEALING_LR>) {
    const [, TMax, etaMin, lastEpoch, verbose] = bindInit(cosineAnnealingLrArgs, optimizer, args);
    super(optimizer, lastEpoch, verbose);
    this.TMax = TMax;
    this.etaMin = etaMin;
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

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((b) => this.etaMin + ((b - this.etaMin) * (1 + Math.cos((Math.PI * this.lastEpoch) / this.TMax))) / 2);
  }
}

const LINEAR_LR = 'float start_factor=0.3333333333333333, float end_factor=1.0, int total_iters=5, int last_epoch=-1, bool verbose=False';
const linearLrArgs = schedBinder('LinearLR', LINEAR_LR);

/** `LinearLR`'s options object: any of its arguments by keyword. */
export type LinearLROptions = SchedOptions<'LinearLR', typeof LINEAR_LR>;

export class LinearLR extends LRScheduler {
  readonly startFactor: number;
  readonly endFactor: number;
  readonly totalIters: number;

  constructor(optimizer: Optimizer, ...args: SchedArgs<'LinearLR', typeof LINEAR_LR>) {
    const [, startFactor, endFactor, totalIters, lastEpoch, verbose] = bindInit(linearLrArgs, optimizer, args);
    if (startFactor > 1.0 || startFactor <= 0) {
      throw new TorchError('Starting multiplicative factor expected to be greater than 0 and less or equal to 1.');
    }
    if (endFactor > 1.0 || endFactor < 0) throw new TorchError('Ending multiplicative factor expected to be between 0 and 1.');
    super(optimizer, lastEpoch, verbose);
    this.startFactor = startFactor;
    this.endFactor = endFactor;
    this.totalIters = totalIters;
    this.initialStep();
  }

  protected getLr(): number[] {
    const e = this.lastEpoch;
    if (e === 0) return this.groups.map((g) => g.lr * this.startFactor);
    if (e > this.totalIters) return this.groups.map((g) => g.lr);
    const d = this.endFactor - this.startFactor;
    return this.groups.map((g) => g.lr * (1.0 + d / (this.totalIters * this.startFactor + (e - 1) * d)));
  }

  protected override closedFormLr(): number[] {
    const d = this.endFactor - this.startFactor;
    return this.baseLrs.map((b) => b * (this.startFactor + (d * Math.min(this.totalIters, this.lastEpoch)) / this.totalIters));
  }
}

interface Phase {
  endStep: number;
  startLr: string;
  endLr: string;
  startMomentum: string;
  endMomentum: string;
}

const ONE_CYCLE_LR =
  "Any max_lr, int? total_steps=None, int? epochs=None, int? steps_per_epoch=None, float pct_start=0.3, str anneal_strategy='cos', bool cycle_momentum=True, Any base_momentum=0.85, Any max_momentum=0.95, float div_factor=25.0, float final_div_factor=10000.0, bool three_phase=False, int last_epoch=-1, bool verbose=False";
const oneCycleLrArgs = schedBinder('OneCycleLR', ONE_CYCLE_LR);
const ONE_CYCLE_CHOICES = { choices: { anneal_strategy: ['cos', 'linear'] } } as const;

/** `OneCycleLR`'s options object: any of its arguments after `maxLr` by keyword. */
export type OneCycleLROptions = SchedOptions<'OneCycleLR', typeof ONE_CYCLE_LR, typeof ONE_CYCLE_CHOICES>;

/** `OneCycleLR`: warm up to `maxLr`, anneal to `initialLr / finalDivFactor`, cycling momentum inversely. */
export class OneCycleLR extends LRScheduler {
  readonly totalSteps: number;
  readonly phases: Phase[];
  readonly annealStrategy: 'cos' | 'linear';
  readonly cycleMomentum: boolean;
  readonly useBeta1: boolean;

  constructor(optimizer: Optimizer, ...args: SchedArgs<'OneCycleLR', typeof ONE_CYCLE_LR, typeof ONE_CYCLE_CHOICES>) {
    const [, maxLr, totalSteps, epochs, stepsPerEpoch, pct, strategy, cycleMomentum, baseMomentum, maxMomentum, divFactor, finalDivFactor, threePhase, lastEpoch, verbose] =
      bindInit(oneCycleLrArgs, optimizer, args);
    const groups = optimizer.paramGroups;
    let total: number;
    if (totalSteps !== undefined) {
      if (!(totalSteps > 0)) throw new TorchError(`Expected positive integer total_steps, but got ${totalSteps}`);
      total = totalSteps;
    } else if (epochs !== undefined && stepsPerEpoch !== undefined) {
      if (!(epochs > 0)) throw new TorchError(`Expected positive integer epochs, but got ${epochs}`);
      if (!(stepsPerEpoch > 0)) throw new TorchError(`Expected positive integer steps_per_epoch, but got ${stepsPerEpoch}`);
      total = epochs * stepsPerEpoch;
    } else {
      throw new TorchError('You must define either total_steps OR (epochs AND steps_per_epoch)');
    }
    if (!(pct >= 0 && pct <= 1)) throw new TorchError(`Expected float between 0 and 1 pct_start, but got ${pct}`);
    if (strategy !== 'cos' && strategy !== 'linear') throw new TorchError(`anneal_strategy must by one of 'cos' or 'linear', instead got ${strategy}`);
    const maxLrs = perGroup('OneCycleLR', 'maxLr', 'max_lr', maxLr, groups.length);
    if (lastEpoch === -1) {
      groups.forEach((g, i) => {
        const initialLr = maxLrs[i] / divFactor;
        g.initialLr = initialLr;
        g.maxLr = maxLrs[i];
        g.minLr = initialLr / finalDivFactor;
      });
    }
    let useBeta1 = false;
    if (cycleMomentum) {
      const d = optimizer.defaults;
      if (!('momentum' in d) && !('betas' in d)) throw new TorchError('optimizer must support momentum or beta1 with `cycle_momentum` option enabled');
      useBeta1 = 'betas' in d;
      const maxM = perGroup('OneCycleLR', 'maxMomentum', 'max_momentum', maxMomentum, groups.length);
      const baseM = perGroup('OneCycleLR', 'baseMomentum', 'base_momentum', baseMomentum, groups.length);
      if (lastEpoch === -1) {
        groups.forEach((g, i) => {
          if (useBeta1) g.betas = [maxM[i], ...groupNumbers('OneCycleLR', g, 'betas').slice(1)];
          else g.momentum = maxM[i];
          g.maxMomentum = maxM[i];
          g.baseMomentum = baseM[i];
        });
      }
    }
    super(optimizer, lastEpoch, verbose);
    this.totalSteps = total;
    this.annealStrategy = strategy;
    this.cycleMomentum = cycleMomentum;
    this.useBeta1 = useBeta1;
    this.phases = threePhase
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


const REDUCE_LR_ON_PLATEAU =
  "str mode='min', float factor=0.1, int patience=10, float threshold=0.0001, str threshold_mode='rel', int cooldown=0, Any min_lr=0, float eps=1e-08, bool verbose=False";
const reduceLrOnPlateauArgs = schedBinder('ReduceLROnPlateau', REDUCE_LR_ON_PLATEAU);
const PLATEAU_CHOICES = { choices: { mode: ['min', 'max'], threshold_mode: ['rel', 'abs'] } } as const;
const plateauStepArgs = makeBinder('ReduceLROnPlateau.step', 'step(Any metrics, int? epoch=None) -> ()', { countSelf: true });

/** `ReduceLROnPlateau`'s options object: any of its arguments by keyword. */
export type ReduceLROnPlateauOptions = SchedOptions<'ReduceLROnPlateau', typeof REDUCE_LR_ON_PLATEAU, typeof PLATEAU_CHOICES>;

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
  verbose: boolean;
  best: number;
  numBadEpochs = 0;
  cooldownCounter = 0;
  lastEpoch = 0;
  private lastLr: number[];

  constructor(optimizer: Optimizer, ...args: SchedArgs<'ReduceLROnPlateau', typeof REDUCE_LR_ON_PLATEAU, typeof PLATEAU_CHOICES>) {
    const [, mode, factor, patience, threshold, thresholdMode, cooldown, minLr, eps, verbose] = bindInit(reduceLrOnPlateauArgs, optimizer, args);
    if (factor >= 1.0) throw new TorchError('Factor should be < 1.0.');
    this.factor = factor;
    this.optimizer = optimizer;
    this.minLrs = perGroup('ReduceLROnPlateau', 'minLr', 'min_lr', minLr, optimizer.paramGroups.length);
    if (mode !== 'min' && mode !== 'max') throw new TorchError(`mode ${mode} is unknown!`);
    if (thresholdMode !== 'rel' && thresholdMode !== 'abs') throw new TorchError(`threshold mode ${thresholdMode} is unknown!`);
    this.mode = mode;
    this.thresholdMode = thresholdMode;
    this.patience = patience;
    this.threshold = threshold;
    this.cooldown = cooldown;
    this.eps = eps;
    this.verbose = verbose;
    this.best = this.mode === 'min' ? Infinity : -Infinity;
    this.lastLr = optimizer.paramGroups.map((g) => g.lr);
  }

  private isBetter(a: number, best: number): boolean {
    if (this.mode === 'min' && this.thresholdMode === 'rel') return a < best * (1.0 - this.threshold);
    if (this.mode === 'min') return a < best - this.threshold;
    if (this.thresholdMode === 'rel') return a > best * (this.threshold + 1.0);
    return a > best + this.threshold;
  }


  /** PyTorch's `step(metrics, epoch=None)`: `metrics` a number or a one-element Tensor. */
  step(metrics: number | { item(): unknown }, epoch?: number | null): void;
  step(...args: unknown[]): void {
    const [metrics, epoch] = plateauStepArgs.bind(args);
    const current = typeof metrics === 'number' ? metrics : hasItem(metrics) ? Number(metrics.item()) : NaN;
    if (Number.isNaN(current) && typeof metrics !== 'number') {
      throw new TorchTypeError(`ReduceLROnPlateau.step(): argument 'metrics' must be float or a one-element Tensor, not ${typeName(metrics)}`);
    }
    // (PyTorch warns that `epoch` is deprecated and sets it as the last epoch)
    this.lastEpoch = epoch ?? this.lastEpoch + 1;
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
        if (old - next > this.eps) {
          g.lr = next;
          if (this.verbose) console.log(`Epoch ${String(this.lastEpoch).padStart(5, '0')}: reducing learning rate of group ${i} to ${formatLr(next)}.`);
        }
      });
      this.cooldownCounter = this.cooldown;
      this.numBadEpochs = 0;
    }
    this.lastLr = this.optimizer.paramGroups.map((g) => g.lr);
  }

  getLastLr(): number[] {
    return [...this.lastLr];
  }

  /** PyTorch's `in_cooldown`. */
  get inCooldown(): boolean {
    return this.cooldownCounter > 0;
  }

  /** PyTorch's `state_dict()` layout (Note [Scheduler state dicts]); `mode_worse` is `±Infinity`. */
  stateDict(): Record<string, unknown> {
    return {
      factor: this.factor,
      min_lrs: [...this.minLrs],
      patience: this.patience,
      verbose: this.verbose,
      cooldown: this.cooldown,
      cooldown_counter: this.cooldownCounter,
      mode: this.mode,
      threshold: this.threshold,
      threshold_mode: this.thresholdMode,
      best: this.best,
      num_bad_epochs: this.numBadEpochs,
      mode_worse: this.mode === 'min' ? Infinity : -Infinity,
      eps: this.eps,
      last_epoch: this.lastEpoch,
      _last_lr: [...this.lastLr],
    };
  }

  /** Loads a state dict of PyTorch's layout (or camelCase keys); `mode_worse` follows from `mode`. */
  loadStateDict(state: Record<string, unknown>): void {
    const self = this as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(state)) {
      if (k === 'mode_worse' || k === 'modeWorse') continue;
      const key = k === '_last_lr' ? 'lastLr' : k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
      self[key] = Array.isArray(v) ? [...(v as unknown[])] : v;
    }
  }
}

const hasItem = (v: unknown): v is { item(): unknown } => typeof v === 'object' && v !== null && 'item' in v && typeof v.item === 'function';
