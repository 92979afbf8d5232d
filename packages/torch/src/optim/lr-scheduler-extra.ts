/**
 * More of `torch.optim.lr_scheduler` (PyTorch 1.13): the function-driven LambdaLR and
 * MultiplicativeLR, ConstantLR, PolynomialLR, CyclicLR, and the schedulers that compose
 * others, SequentialLR and ChainedScheduler. Same rules as lr-scheduler.ts: PyTorch's
 * recursive `get_lr` in doubles, in its order (Note [Scheduler constructors bind their arguments]).
 */
import { TorchTypeError, typeName } from '@torch-ts/core';
import { initBinder } from '../nn/init-args';
import { TorchError } from '../nn/internal';
import { Optimizer, groupNumber } from './optimizer';
import { LRScheduler } from './lr-scheduler';

type LrLambda = (epoch: number) => number;

function bindSched<R>(binder: { bind(args: readonly unknown[]): R }, optimizer: unknown, args: readonly unknown[]): R {
  if (!(optimizer instanceof Optimizer)) throw new TorchTypeError(`${typeName(optimizer)} is not an Optimizer`);
  return binder.bind([optimizer, ...args]);
}

/** One function per group, from a function or a list of them (LambdaLR's `lr_lambda`). */
function lambdas(cls: string, v: unknown, n: number): LrLambda[] {
  if (typeof v === 'function') return new Array<LrLambda>(n).fill(v as LrLambda);
  if (!Array.isArray(v) || !v.every((f) => typeof f === 'function')) {
    throw new TorchTypeError(`${cls}.__init__(): argument 'lr_lambda' must be a function or a list of functions, not ${typeName(v)}`);
  }
  if (v.length !== n) throw new TorchError(`Expected ${n} lr_lambdas, but got ${v.length}`);
  return [...(v as LrLambda[])];
}

/** A float per group, from a float or a list of them (PyTorch's `_format_param`). */
function formatParam(name: string, v: unknown, n: number): number[] {
  if (Array.isArray(v)) {
    if (v.length !== n) throw new TorchError(`expected ${n} values for ${name}, got ${v.length}`);
    if (!v.every((x) => typeof x === 'number')) throw new TorchTypeError(`CyclicLR.__init__(): argument '${name}' must be float or list of floats`);
    return [...(v as number[])];
  }
  if (typeof v !== 'number') throw new TorchTypeError(`CyclicLR.__init__(): argument '${name}' must be float or list of floats, not ${typeName(v)}`);
  return new Array<number>(n).fill(v);
}

const LAMBDA_LR = 'Any lr_lambda, int last_epoch=-1, bool verbose=False';
const lambdaLrArgs = initBinder('LambdaLR', `Any optimizer, ${LAMBDA_LR}`);

/** `LambdaLR`: `lr = initialLr * lrLambda(epoch)`. */
export class LambdaLR extends LRScheduler {
  readonly lrLambdas: LrLambda[];

  constructor(optimizer: Optimizer, lrLambda: LrLambda | LrLambda[], lastEpoch?: number | { lastEpoch?: number; verbose?: boolean }, verbose?: boolean);
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    const [, lrLambda, lastEpoch, verbose] = bindSched(lambdaLrArgs, optimizer, args);
    const fns = lambdas('LambdaLR', lrLambda, optimizer.paramGroups.length);
    super(optimizer, lastEpoch, verbose);
    this.lrLambdas = fns;
    this.initialStep();
  }

  protected getLr(): number[] {
    return this.baseLrs.map((b, i) => b * this.lrLambdas[i](this.lastEpoch));
  }

  /** As PyTorch's: the lambdas are left out (one `null` per group). */
  override stateDict(): Record<string, unknown> {
    return { ...super.stateDict(), lr_lambdas: this.lrLambdas.map(() => null) };
  }

  override loadStateDict(state: Record<string, unknown>): void {
    const { lr_lambdas: _l, lrLambdas: _m, ...rest } = state;
    super.loadStateDict(rest);
  }
}

const multiplicativeLrArgs = initBinder('MultiplicativeLR', `Any optimizer, ${LAMBDA_LR}`);

/** `MultiplicativeLR`: `lr *= lrLambda(epoch)` after the first epoch. */
export class MultiplicativeLR extends LRScheduler {
  readonly lrLambdas: LrLambda[];

  constructor(optimizer: Optimizer, lrLambda: LrLambda | LrLambda[], lastEpoch?: number | { lastEpoch?: number; verbose?: boolean }, verbose?: boolean);
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    const [, lrLambda, lastEpoch, verbose] = bindSched(multiplicativeLrArgs, optimizer, args);
    const fns = lambdas('MultiplicativeLR', lrLambda, optimizer.paramGroups.length);
    super(optimizer, lastEpoch, verbose);
    this.lrLambdas = fns;
    this.initialStep();
  }

  protected getLr(): number[] {
    if (this.lastEpoch > 0) return this.groups.map((g, i) => g.lr * this.lrLambdas[i](this.lastEpoch));
    return this.groups.map((g) => g.lr);
  }

  override stateDict(): Record<string, unknown> {
    return { ...super.stateDict(), lr_lambdas: this.lrLambdas.map(() => null) };
  }

  override loadStateDict(state: Record<string, unknown>): void {
    const { lr_lambdas: _l, lrLambdas: _m, ...rest } = state;
    super.loadStateDict(rest);
  }
}

const CONSTANT_LR = 'float factor=0.3333333333333333, int total_iters=5, int last_epoch=-1, bool verbose=False';
const constantLrArgs = initBinder('ConstantLR', `Any optimizer, ${CONSTANT_LR}`);

/** `ConstantLR`: `lr * factor` until `totalIters`, then `lr`. */
export class ConstantLR extends LRScheduler {
  readonly factor: number;
  readonly totalIters: number;

  constructor(optimizer: Optimizer, factor?: number | { factor?: number; totalIters?: number; lastEpoch?: number; verbose?: boolean }, totalIters?: number, lastEpoch?: number, verbose?: boolean);
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    const [, factor, totalIters, lastEpoch, verbose] = bindSched(constantLrArgs, optimizer, args);
    if (factor > 1.0 || factor < 0) throw new TorchError('Constant multiplicative factor expected to be between 0 and 1.');
    super(optimizer, lastEpoch, verbose);
    this.factor = factor;
    this.totalIters = totalIters;
    this.initialStep();
  }

  protected getLr(): number[] {
    const e = this.lastEpoch;
    if (e === 0) return this.groups.map((g) => g.lr * this.factor);
    if (e !== this.totalIters) return this.groups.map((g) => g.lr);
    return this.groups.map((g) => g.lr * (1.0 / this.factor));
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((b) => b * (this.factor + (this.lastEpoch >= this.totalIters ? 1 : 0) * (1 - this.factor)));
  }
}

const POLYNOMIAL_LR = 'int total_iters=5, float power=1.0, int last_epoch=-1, bool verbose=False';
const polynomialLrArgs = initBinder('PolynomialLR', `Any optimizer, ${POLYNOMIAL_LR}`);

/** `PolynomialLR`: `initialLr * (1 - epoch / totalIters) ** power`, computed recursively as PyTorch does. */
export class PolynomialLR extends LRScheduler {
  readonly totalIters: number;
  readonly power: number;

  constructor(optimizer: Optimizer, totalIters?: number | { totalIters?: number; power?: number; lastEpoch?: number; verbose?: boolean }, power?: number, lastEpoch?: number, verbose?: boolean);
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    const [, totalIters, power, lastEpoch, verbose] = bindSched(polynomialLrArgs, optimizer, args);
    super(optimizer, lastEpoch, verbose);
    this.totalIters = totalIters;
    this.power = power;
    this.initialStep();
  }

  protected getLr(): number[] {
    const e = this.lastEpoch;
    if (e === 0 || e > this.totalIters) return this.groups.map((g) => g.lr);
    const decay = ((1.0 - e / this.totalIters) / (1.0 - (e - 1) / this.totalIters)) ** this.power;
    return this.groups.map((g) => g.lr * decay);
  }

  protected override closedFormLr(): number[] {
    return this.baseLrs.map((b) => b * (1.0 - Math.min(this.totalIters, this.lastEpoch) / this.totalIters) ** this.power);
  }
}

const CYCLIC_LR =
  "Any base_lr, Any max_lr, float step_size_up=2000, float? step_size_down=None, str mode='triangular', float gamma=1.0, Any? scale_fn=None, str scale_mode='cycle', bool cycle_momentum=True, Any base_momentum=0.8, Any max_momentum=0.9, int last_epoch=-1, bool verbose=False";
const cyclicLrArgs = initBinder('CyclicLR', `Any optimizer, ${CYCLIC_LR}`);

export interface CyclicLROptions {
  stepSizeUp?: number;
  stepSizeDown?: number | null;
  mode?: 'triangular' | 'triangular2' | 'exp_range';
  gamma?: number;
  scaleFn?: ((x: number) => number) | null;
  scaleMode?: 'cycle' | 'iterations';
  cycleMomentum?: boolean;
  baseMomentum?: number | number[];
  maxMomentum?: number | number[];
  lastEpoch?: number;
  verbose?: boolean;
}

/**
 * `CyclicLR` (PyTorch 1.13): the rate cycles between `baseLr` and `maxLr` (triangular,
 * triangular2 halving the amplitude each cycle, exp_range scaling it by `gamma ** iteration`,
 * or a custom `scaleFn`), and with `cycleMomentum` the momentum cycles inversely between
 * `maxMomentum` and `baseMomentum`. 1.13 cycles only an optimizer's `momentum` (Adam's beta1
 * came in 2.x): an optimizer without it raises.
 */
export class CyclicLR extends LRScheduler {
  readonly maxLrs: number[];
  readonly totalSize: number;
  readonly stepRatio: number;
  readonly mode: string;
  readonly gamma: number;
  readonly scaleMode: 'cycle' | 'iterations';
  readonly cycleMomentum: boolean;
  readonly baseMomentums: number[] = [];
  readonly maxMomentums: number[] = [];
  private readonly scaleFnCustom: ((x: number) => number) | null;

  constructor(optimizer: Optimizer, baseLr: number | number[], maxLr: number | number[], options?: CyclicLROptions);
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    const [, baseLr, maxLr, stepSizeUp, stepSizeDown, mode, gamma, scaleFn, scaleMode, cycleMomentum, baseMomentum, maxMomentum, lastEpoch, verbose] = bindSched(cyclicLrArgs, optimizer, args);
    const groups = optimizer.paramGroups;
    const baseLrs = formatParam('base_lr', baseLr, groups.length);
    if (lastEpoch === -1) groups.forEach((g, i) => (g.lr = baseLrs[i]));
    const maxLrs = formatParam('max_lr', maxLr, groups.length);
    const up = stepSizeUp;
    const down = stepSizeDown ?? up;
    if (!['triangular', 'triangular2', 'exp_range'].includes(mode) && (scaleFn === undefined || scaleFn === null)) {
      throw new TorchError('mode is invalid and scale_fn is None');
    }
    if (scaleFn !== undefined && scaleFn !== null && typeof scaleFn !== 'function') throw new TorchTypeError(`CyclicLR.__init__(): argument 'scale_fn' must be a function, not ${typeName(scaleFn)}`);
    let baseMomentums: number[] = [];
    let maxMomentums: number[] = [];
    if (cycleMomentum) {
      if (!('momentum' in optimizer.defaults)) throw new TorchError('optimizer must support momentum with `cycle_momentum` option enabled');
      const bm = formatParam('base_momentum', baseMomentum, groups.length);
      if (lastEpoch === -1) groups.forEach((g, i) => (g.momentum = bm[i]));
      baseMomentums = groups.map((g) => groupNumber('CyclicLR', g, 'momentum'));
      maxMomentums = formatParam('max_momentum', maxMomentum, groups.length);
    }
    super(optimizer, lastEpoch, verbose);
    this.maxLrs = maxLrs;
    this.totalSize = up + down;
    this.stepRatio = up / this.totalSize;
    this.mode = mode;
    this.gamma = gamma;
    this.scaleFnCustom = typeof scaleFn === 'function' ? (scaleFn as (x: number) => number) : null;
    this.scaleMode = this.scaleFnCustom !== null ? (scaleMode as 'cycle' | 'iterations') : mode === 'exp_range' ? 'iterations' : 'cycle';
    this.cycleMomentum = cycleMomentum;
    this.baseMomentums = baseMomentums;
    this.maxMomentums = maxMomentums;
    // (as PyTorch: the first step reads the base rates from `initialLr`, then they are `baseLr`)
    this.initialStep();
    this.baseLrs = baseLrs;
  }

  private scaleFn(x: number): number {
    if (this.scaleFnCustom !== null) return this.scaleFnCustom(x);
    if (this.mode === 'triangular') return 1.0;
    if (this.mode === 'triangular2') return 1 / 2.0 ** (x - 1);
    return this.gamma ** x;
  }

  protected getLr(): number[] {
    const cycle = Math.floor(1 + this.lastEpoch / this.totalSize);
    const x = 1.0 + this.lastEpoch / this.totalSize - cycle;
    const scaleFactor = x <= this.stepRatio ? x / this.stepRatio : (x - 1) / (this.stepRatio - 1);
    const at = this.scaleMode === 'cycle' ? cycle : this.lastEpoch;
    const lrs = this.baseLrs.map((b, i) => b + (this.maxLrs[i] - b) * scaleFactor * this.scaleFn(at));
    if (this.cycleMomentum) {
      this.groups.forEach((g, i) => {
        const bm = this.baseMomentums[i];
        const mm = this.maxMomentums[i];
        g.momentum = mm - (mm - bm) * scaleFactor * this.scaleFn(at);
      });
    }
    return lrs;
  }
}

/** What SequentialLR and ChainedScheduler compose. */
interface Schedulable {
  readonly optimizer: Optimizer;
  step(): void;
  getLastLr(): number[];
  stateDict(): Record<string, unknown>;
  loadStateDict(state: Record<string, unknown>): void;
}

/**
 * `SequentialLR`: runs `schedulers[i]` between `milestones[i - 1]` and `milestones[i]`; at a
 * milestone the next one restarts at epoch 0 (PyTorch's `scheduler.step(0)`, the closed form).
 */
export class SequentialLR {
  readonly optimizer: Optimizer;
  lastEpoch: number;
  private readonly schedulers: LRScheduler[];
  private readonly milestones: number[];
  private lastLr: number[];

  constructor(optimizer: Optimizer, schedulers: LRScheduler[], milestones: number[], lastEpoch = -1, verbose = false) {
    void verbose;
    if (!(optimizer instanceof Optimizer)) throw new TorchTypeError(`${typeName(optimizer)} is not an Optimizer`);
    schedulers.forEach((s, i) => {
      if (s.optimizer !== optimizer) {
        throw new TorchError(`Sequential Schedulers expects all schedulers to belong to the same optimizer, but got schedulers at index ${i} to be different than the optimizer passed in.`);
      }
    });
    if (milestones.length !== schedulers.length - 1) {
      throw new TorchError(
        `Sequential Schedulers expects number of schedulers provided to be one more than the number of milestone points, but got number of schedulers ${schedulers.length} and the number of milestones to be equal to ${milestones.length}`,
      );
    }
    this.schedulers = [...schedulers];
    this.milestones = [...milestones];
    this.lastEpoch = lastEpoch + 1;
    this.optimizer = optimizer;
    for (const g of optimizer.paramGroups) g.lr = groupNumber('SequentialLR', g, 'initialLr');
    for (const s of this.schedulers) s.lastEpoch -= 1;
    this.schedulers[0].initialStep();
    this.lastLr = this.schedulers[0].getLastLr();
  }

  step(): void {
    this.lastEpoch += 1;
    // (bisect_right)
    let idx = 0;
    while (idx < this.milestones.length && this.milestones[idx] <= this.lastEpoch) idx++;
    const s = this.schedulers[idx];
    if (idx > 0 && this.milestones[idx - 1] === this.lastEpoch) s.stepToEpoch(0);
    else s.step();
    this.lastLr = s.getLastLr();
  }

  getLastLr(): number[] {
    return [...this.lastLr];
  }

  /** PyTorch's layout: `_milestones`, `last_epoch`, `_last_lr` and each scheduler's state in `_schedulers`. */
  stateDict(): Record<string, unknown> {
    return { _milestones: [...this.milestones], last_epoch: this.lastEpoch, _last_lr: [...this.lastLr], _schedulers: this.schedulers.map((s) => s.stateDict()) };
  }

  loadStateDict(state: Record<string, unknown>): void {
    const subs = state._schedulers;
    if (Array.isArray(state._milestones)) this.milestones.splice(0, this.milestones.length, ...(state._milestones as number[]));
    if (typeof state.last_epoch === 'number') this.lastEpoch = state.last_epoch;
    if (Array.isArray(state._last_lr)) this.lastLr = [...(state._last_lr as number[])];
    if (Array.isArray(subs)) subs.forEach((s, i) => this.schedulers[i].loadStateDict(s as Record<string, unknown>));
  }
}

/** `ChainedScheduler`: every `step()` steps each of `schedulers` in turn. */
export class ChainedScheduler {
  readonly optimizer: Optimizer;
  private readonly schedulers: Schedulable[];
  private lastLr: number[];

  constructor(schedulers: Schedulable[]) {
    if (!Array.isArray(schedulers) || schedulers.length === 0) throw new TorchError('ChainedScheduler expects a non-empty list of schedulers');
    for (let i = 1; i < schedulers.length; i++) {
      if (schedulers[i].optimizer !== schedulers[0].optimizer) {
        throw new TorchError(`ChainedScheduler expects all schedulers to belong to the same optimizer, but got schedulers at index 0 and ${i} to be different`);
      }
    }
    this.schedulers = [...schedulers];
    this.optimizer = schedulers[0].optimizer;
    this.lastLr = this.optimizer.paramGroups.map((g) => g.lr);
  }

  step(): void {
    for (const s of this.schedulers) s.step();
    this.lastLr = this.optimizer.paramGroups.map((g) => g.lr);
  }

  getLastLr(): number[] {
    return [...this.lastLr];
  }

  stateDict(): Record<string, unknown> {
    return { _last_lr: [...this.lastLr], _schedulers: this.schedulers.map((s) => s.stateDict()) };
  }

  loadStateDict(state: Record<string, unknown>): void {
    if (Array.isArray(state._last_lr)) this.lastLr = [...(state._last_lr as number[])];
    const subs = state._schedulers;
    if (Array.isArray(subs)) subs.forEach((s, i) => this.schedulers[i].loadStateDict(s as Record<string, unknown>));
  }
}
