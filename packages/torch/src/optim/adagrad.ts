import { fullLike, makeBinder } from '@torch-ts/core';
import type { Tensor } from '../nn/internal';
import { Optimizer, bindOptimizerArgs, addcdivInto, addcmulInto, checkNonNegative, forEachParamGrad, type ParamGroup, type ParamsInput } from './optimizer';

export interface AdagradOptions {
  lr?: number;
  lrDecay?: number;
  weightDecay?: number;
  initialAccumulatorValue?: number;
  eps?: number;
  maximize?: boolean;
}

/** `optim.Adagrad`, as PyTorch's `_single_tensor_adagrad`. State is made at construction, as there. */
const adagradArgs = makeBinder(
  'Adagrad',
  'Adagrad(float lr=0.01, float lr_decay=0, float weight_decay=0, float initial_accumulator_value=0, float eps=1e-10, bool? foreach=None, *, bool maximize=False, bool differentiable=False, bool? fused=None) -> ()',
  { unsupported: ['foreach', 'differentiable', 'fused'] },
);

export class Adagrad extends Optimizer {
  constructor(params: ParamsInput, options?: AdagradOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdagradOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const o = bindOptimizerArgs(adagradArgs, args);
    super(params, {
      lr: o.lr as number,
      lrDecay: o.lrDecay as number,
      weightDecay: o.weightDecay as number,
      initialAccumulatorValue: o.initialAccumulatorValue as number,
      eps: o.eps as number,
      maximize: o.maximize as boolean,
    });
    for (const g of this.paramGroups) {
      for (const p of g.params) {
        const s = this.stateOf(p);
        s.step = 0;
        s.sum = fullLike(p, g.initialAccumulatorValue as number);
      }
    }
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkNonNegative('lr', g.lr, 'learning rate');
    checkNonNegative('lrDecay', g.lrDecay, 'lr_decay value');
    checkNonNegative('weightDecay', g.weightDecay, 'weight_decay value');
    checkNonNegative('initialAccumulatorValue', g.initialAccumulatorValue, 'initial_accumulator_value value');
    checkNonNegative('eps', g.eps, 'epsilon value');
  }

  protected updateGroup(group: ParamGroup): void {
    const lr = group.lr;
    const lrDecay = group.lrDecay as number;
    const eps = group.eps as number;
    forEachParamGrad(group, group.weightDecay as number, (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.sum === undefined) {
        state.step = 0;
        state.sum = fullLike(p, group.initialAccumulatorValue as number);
      }
      const step = (state.step as number) + 1;
      state.step = step;
      const clr = lr / (1 + (step - 1) * lrDecay);
      const sum = state.sum as Tensor;
      addcmulInto(sum, grad, grad, 1);
      const std = temps.add(sum.sqrt()).add_(eps);
      addcdivInto(p, grad, std, -clr);
    });
  }
}
