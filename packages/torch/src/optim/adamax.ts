import { makeBinder, zerosLike } from '@torch-ts/core';
import { Optimizer, addcdivInto, checkAdamFamilyGroup, forEachParamGrad, refuseSparseGrads, groupNumber, groupNumbers, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface AdamaxOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  foreach?: boolean | null;
  maximize?: boolean;
}

/** PyTorch 1.13's signature; `foreach` picks an implementation with the same numbers, so it is accepted and kept. */
const adamaxArgs = makeBinder(
  'Adamax',
  'Adamax(float lr=0.002, float[2] betas=[0.9, 0.999], float eps=1e-08, float weight_decay=0, bool? foreach=None, *, bool maximize=False) -> ()',
);

/**
 * `optim.Adamax`, as 1.13's `_single_tensor_adamax`: `exp_avg.mul_(beta1).add_(grad, alpha=1 -
 * beta1)`, `exp_inf = max(exp_inf * beta2, |grad| + eps)`, `p.addcdiv_(exp_avg, exp_inf,
 * value=-lr / (1 - beta1 ** step))`.
 */
export class Adamax extends Optimizer {
  constructor(params: ParamsInput, options?: AdamaxOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdamaxOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, betas, eps, weightDecay, foreach, maximize] = adamaxArgs.bind(args);
    super(params, { lr, betas, eps, weightDecay, foreach: foreach ?? null, maximize });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkAdamFamilyGroup(g);
  }

  protected updateGroup(group: ParamGroup): void {
    refuseSparseGrads(group, 'Adamax does not support sparse gradients');
    const lr = group.lr;
    const [beta1, beta2] = groupNumbers('Adamax', group, 'betas');
    const eps = groupNumber('Adamax', group, 'eps');
    forEachParamGrad(group, groupNumber('Adamax', group, 'weightDecay'), (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.expAvg = zerosLike(p);
        state.expInf = zerosLike(p);
      }
      const step = stateNumber('Adamax', state, 'step') + 1;
      state.step = step;
      const expAvg = stateTensor('Adamax', state, 'expAvg');
      const expInf = stateTensor('Adamax', state, 'expInf');
      expAvg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
      const bound = temps.add(grad.abs()).add_(eps);
      const mx = temps.add(expInf.mul_(beta2).maximum(bound));
      expInf.copy_(mx);
      addcdivInto(p, expAvg, expInf, -(lr / (1 - beta1 ** step)));
    });
  }
}
