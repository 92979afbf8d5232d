import { makeBinder, zerosLike } from '@torch-ts/core';
import { Optimizer, addcmulInto, checkAdamFamilyGroup, forEachParamGrad, refuseSparseGrads, groupNumber, groupNumbers, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface RAdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  foreach?: boolean | null;
}

// PyTorch 1.13's signature: no `decoupled_weight_decay` (2.x).
const radamArgs = makeBinder(
  'RAdam',
  'RAdam(float lr=0.001, float[2] betas=[0.9, 0.999], float eps=1e-08, float weight_decay=0, bool? foreach=None) -> ()',
);

/**
 * `optim.RAdam`, as 1.13's `_single_tensor_radam`: Adam's moments, then the rectified step
 * `p -= exp_avg / bc1 * lr * (sqrt(bc2) / (sqrt(v) + eps)) * rect` while the SMA length
 * `rho_t` exceeds 5, else the momentum step `p -= exp_avg / bc1 * lr`. (`scalar / tensor` is
 * `tensor.reciprocal() * scalar` in PyTorch, spelled so here.)
 */
export class RAdam extends Optimizer {
  constructor(params: ParamsInput, options?: RAdamOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<RAdamOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, betas, eps, weightDecay, foreach] = radamArgs.bind(args);
    super(params, { lr, betas, eps, weightDecay, foreach: foreach ?? null });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkAdamFamilyGroup(g);
  }

  protected updateGroup(group: ParamGroup): void {
    refuseSparseGrads(group, 'RAdam does not support sparse gradients');
    const lr = group.lr;
    const [beta1, beta2] = groupNumbers('RAdam', group, 'betas');
    const eps = groupNumber('RAdam', group, 'eps');
    forEachParamGrad(group, groupNumber('RAdam', group, 'weightDecay'), (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.expAvg = zerosLike(p);
        state.expAvgSq = zerosLike(p);
      }
      const step = stateNumber('RAdam', state, 'step') + 1;
      state.step = step;
      const expAvg = stateTensor('RAdam', state, 'expAvg');
      const expAvgSq = stateTensor('RAdam', state, 'expAvgSq');
      const biasCorrection1 = 1 - beta1 ** step;
      const biasCorrection2 = 1 - beta2 ** step;
      expAvg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
      addcmulInto(expAvgSq.mul_(beta2), grad, grad, 1 - beta2);
      const corrected = temps.add(expAvg.div(biasCorrection1));
      const rhoInf = 2 / (1 - beta2) - 1;
      const rhoT = rhoInf - (2 * step * beta2 ** step) / biasCorrection2;
      const update = temps.add(corrected.mul(lr));
      if (rhoT > 5) {
        const rect = Math.sqrt(((rhoT - 4) * (rhoT - 2) * rhoInf) / ((rhoInf - 4) * (rhoInf - 2) * rhoT));
        const adaptiveLr = temps.add(expAvgSq.sqrt());
        adaptiveLr.add_(eps).reciprocal_().mul_(Math.sqrt(biasCorrection2));
        update.mul_(adaptiveLr).mul_(rect);
      }
      p.add_(update, { alpha: -1.0 });
    });
  }
}
