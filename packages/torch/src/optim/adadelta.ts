import { makeBinder, zerosLike } from '@torch-ts/core';
import { TorchError } from '../nn/internal';
import { Optimizer, addcmulInto, checkNonNegative, forEachParamGrad, refuseSparseGrads, groupNumber, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface AdadeltaOptions {
  lr?: number;
  rho?: number;
  eps?: number;
  weightDecay?: number;
  foreach?: boolean | null;
  maximize?: boolean;
}

const adadeltaArgs = makeBinder(
  'Adadelta',
  'Adadelta(float lr=1.0, float rho=0.9, float eps=1e-06, float weight_decay=0, bool? foreach=None, *, bool maximize=False) -> ()',
);

/**
 * `optim.Adadelta`, as 1.13's `_single_tensor_adadelta`: `square_avg.mul_(rho).addcmul_(g, g,
 * value=1 - rho)`, `delta = sqrt(acc_delta + eps) / sqrt(square_avg + eps) * g`,
 * `acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)`, `p -= lr * delta`.
 */
export class Adadelta extends Optimizer {
  constructor(params: ParamsInput, options?: AdadeltaOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdadeltaOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, rho, eps, weightDecay, foreach, maximize] = adadeltaArgs.bind(args);
    super(params, { lr, rho, eps, weightDecay, maximize, foreach: foreach ?? null });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkNonNegative('lr', g.lr, 'learning rate');
    const rho = g.rho;
    if (typeof rho !== 'number' || !(rho >= 0 && rho <= 1)) throw new TorchError(`Invalid rho value: ${String(rho)}`);
    checkNonNegative('eps', g.eps, 'epsilon value');
    checkNonNegative('weightDecay', g.weightDecay, 'weight_decay value');
  }

  protected updateGroup(group: ParamGroup): void {
    refuseSparseGrads(group, 'Adadelta does not support sparse gradients');
    const lr = group.lr;
    const rho = groupNumber('Adadelta', group, 'rho');
    const eps = groupNumber('Adadelta', group, 'eps');
    forEachParamGrad(group, groupNumber('Adadelta', group, 'weightDecay'), (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.squareAvg = zerosLike(p);
        state.accDelta = zerosLike(p);
      }
      state.step = stateNumber('Adadelta', state, 'step') + 1;
      const squareAvg = stateTensor('Adadelta', state, 'squareAvg');
      const accDelta = stateTensor('Adadelta', state, 'accDelta');
      addcmulInto(squareAvg.mul_(rho), grad, grad, 1 - rho);
      const std = temps.add(squareAvg.add(eps)).sqrt_();
      const delta = temps.add(accDelta.add(eps)).sqrt_().div_(std).mul_(grad);
      addcmulInto(accDelta.mul_(rho), delta, delta, 1 - rho);
      p.add_(delta, { alpha: -lr });
    });
  }
}
