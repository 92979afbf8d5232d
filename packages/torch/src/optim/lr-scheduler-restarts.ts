/**
 * `CosineAnnealingWarmRestarts` (SGDR), PyTorch 1.13's: the cosine from each group's initial
 * rate down to `etaMin` over `T_i` epochs, restarting with `T_i *= TMult`. Unlike the other
 * schedulers its `step(epoch)` is the documented use (`scheduler.step(epoch + i / iters)` per
 * batch), so it takes a fractional epoch, with PyTorch's arithmetic (Python's `math.log(x, b)`
 * is `log(x) / log(b)` in doubles, as here).
 */
import { initBinder } from '../nn/init-args';
import { TorchError } from '../nn/internal';
import { Optimizer } from './optimizer';
import { LRScheduler } from './lr-scheduler';
import { TorchTypeError, typeName } from '@torch-ts/core';

const COSINE_WARM_RESTARTS = 'Any T_0, Any T_mult=1, float eta_min=0, int last_epoch=-1, bool verbose=False';
const cosineWarmRestartsArgs = initBinder('CosineAnnealingWarmRestarts', `Any optimizer, ${COSINE_WARM_RESTARTS}`);

export interface CosineAnnealingWarmRestartsOptions {
  T0?: number;
  TMult?: number;
  etaMin?: number;
  lastEpoch?: number;
  verbose?: boolean;
}

export class CosineAnnealingWarmRestarts extends LRScheduler {
  readonly T0: number;
  Ti: number;
  readonly TMult: number;
  readonly etaMin: number;
  TCur: number;

  constructor(optimizer: Optimizer, T0: number | CosineAnnealingWarmRestartsOptions, TMult?: number | CosineAnnealingWarmRestartsOptions, etaMin?: number | CosineAnnealingWarmRestartsOptions, lastEpoch?: number, verbose?: boolean);
  constructor(optimizer: Optimizer, ...args: unknown[]) {
    if (!(optimizer instanceof Optimizer)) throw new TorchTypeError(`${typeName(optimizer)} is not an Optimizer`);
    const [, T0, TMult, etaMin, lastEpoch, verbose] = cosineWarmRestartsArgs.bind([optimizer, ...args]) as [unknown, unknown, unknown, number, number, boolean];
    // (Python's ValueErrors, checked before the base class as PyTorch's __init__ does)
    if (typeof T0 !== 'number' || !Number.isInteger(T0) || T0 <= 0) throw new TorchError(`Expected positive integer T_0, but got ${String(T0)}`);
    if (typeof TMult !== 'number' || !Number.isInteger(TMult) || TMult < 1) throw new TorchError(`Expected integer T_mult >= 1, but got ${String(TMult)}`);
    super(optimizer, lastEpoch, verbose);
    this.T0 = T0;
    this.Ti = T0;
    this.TMult = TMult;
    this.etaMin = etaMin;
    this.TCur = lastEpoch;
    this.initialStep();
  }

  protected getLr(): number[] {
    return this.baseLrs.map((b) => this.etaMin + ((b - this.etaMin) * (1 + Math.cos((Math.PI * this.TCur) / this.Ti))) / 2);
  }

  /**
   * PyTorch's `step(epoch=None)`: without an epoch, one epoch on (a restart when `T_cur`
   * reaches `T_i`); with one, the position within its cycle. (As in PyTorch this step does
   * not count `_step_count`.)
   */
  override step(epoch?: number | null): void {
    let e = epoch ?? null;
    if (e === null && this.lastEpoch < 0) e = 0;
    if (e === null) {
      e = this.lastEpoch + 1;
      this.TCur = this.TCur + 1;
      if (this.TCur >= this.Ti) {
        this.TCur = this.TCur - this.Ti;
        this.Ti = this.Ti * this.TMult;
      }
    } else {
      if (e < 0) throw new TorchError(`Expected non-negative epoch, but got ${e}`);
      if (e >= this.T0) {
        if (this.TMult === 1) {
          this.TCur = e % this.T0;
        } else {
          const n = Math.trunc(Math.log((e / this.T0) * (this.TMult - 1) + 1) / Math.log(this.TMult));
          this.TCur = e - (this.T0 * (this.TMult ** n - 1)) / (this.TMult - 1);
          this.Ti = this.T0 * this.TMult ** n;
        }
      } else {
        this.Ti = this.T0;
        this.TCur = e;
      }
    }
    this.lastEpoch = Math.floor(e);
    this.setLrs(this.getLr());
  }
}
