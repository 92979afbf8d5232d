import { makeBinder, zerosLike } from '@torch-ts/core';
import { Optimizer, checkNonNegative, forEachParamGrad, refuseSparseGrads, groupNumber, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface ASGDOptions {
  lr?: number;
  lambd?: number;
  alpha?: number;
  t0?: number;
  weightDecay?: number;
  foreach?: boolean | null;
  maximize?: boolean;
}

const asgdArgs = makeBinder(
  'ASGD',
  'ASGD(float lr=0.01, float lambd=0.0001, float alpha=0.75, float t0=1000000.0, float weight_decay=0, bool? foreach=None, bool maximize=False) -> ()',
);

/**
 * `optim.ASGD` (averaged SGD), as 1.13's `_single_tensor_asgd`: `p *= 1 - lambd * eta`, `p -=
 * eta * grad`, the average `ax` follows `p` (`ax += (p - ax) * mu`, or a copy while mu is 1),
 * then `eta = lr / (1 + lambd * lr * step) ** alpha` and `mu = 1 / max(1, step - t0)`. PyTorch
 * keeps eta and mu in float32 scalar tensors (`torch.tensor(lr)`), so each is rounded to
 * float32 here too, whatever the parameter's dtype, and the update reads those values.
 */
export class ASGD extends Optimizer {
  constructor(params: ParamsInput, options?: ASGDOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<ASGDOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, lambd, alpha, t0, weightDecay, foreach, maximize] = asgdArgs.bind(args);
    super(params, { lr, lambd, alpha, t0, weightDecay, foreach: foreach ?? null, maximize });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkNonNegative('lr', g.lr, 'learning rate');
    checkNonNegative('weightDecay', g.weightDecay, 'weight_decay value');
  }

  protected updateGroup(group: ParamGroup): void {
    refuseSparseGrads(group, 'ASGD does not support sparse gradients');
    const lr = group.lr;
    const lambd = groupNumber('ASGD', group, 'lambd');
    const alpha = groupNumber('ASGD', group, 'alpha');
    const t0 = groupNumber('ASGD', group, 't0');
    forEachParamGrad(group, groupNumber('ASGD', group, 'weightDecay'), (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.eta = Math.fround(lr);
        state.mu = 1;
        state.ax = zerosLike(p);
      }
      const step = stateNumber('ASGD', state, 'step') + 1;
      state.step = step;
      const eta = stateNumber('ASGD', state, 'eta');
      const mu = stateNumber('ASGD', state, 'mu');
      const ax = stateTensor('ASGD', state, 'ax');
      p.mul_(1 - lambd * eta);
      p.add_(grad, { alpha: -eta });
      if (mu !== 1) ax.add_(temps.add(temps.add(p.sub(ax)).mul(mu)));
      else ax.copy_(p);
      state.eta = Math.fround(lr / Math.pow(1 + lambd * lr * step, alpha));
      state.mu = Math.fround(1 / Math.max(1, step - t0));
    });
  }
}
