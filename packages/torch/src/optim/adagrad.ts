import { fullLike, makeBinder } from '@torch-ts/core';
import { Optimizer, addcdivInto, addcmulInto, checkNonNegative, forEachParamGrad, groupNumber, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface AdagradOptions {
  lr?: number;
  lrDecay?: number;
  weightDecay?: number;
  initialAccumulatorValue?: number;
  eps?: number;
  maximize?: boolean;
  /** Accepted and kept in the group; the numbers are the same either way. */
  foreach?: boolean | null;
}

/** `optim.Adagrad`, as PyTorch's `_single_tensor_adagrad`. State is made at construction, as there. */
const adagradArgs = makeBinder(
  'Adagrad',
  'Adagrad(float lr=0.01, float lr_decay=0, float weight_decay=0, float initial_accumulator_value=0, float eps=1e-10, bool? foreach=None, *, bool maximize=False, bool differentiable=False, bool? fused=None) -> ()',
  { unsupported: ['differentiable', 'fused'] },
);

export class Adagrad extends Optimizer {
  constructor(params: ParamsInput, options?: AdagradOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdagradOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, lrDecay, weightDecay, initialAccumulatorValue, eps, foreach, maximize] = adagradArgs.bind(args);
    super(params, { lr, lrDecay, eps, weightDecay, initialAccumulatorValue, foreach: foreach ?? null, maximize });
    for (const g of this.paramGroups) {
      for (const p of g.params) {
        const s = this.stateOf(p);
        s.step = 0;
        s.sum = fullLike(p, groupNumber('Adagrad', g, 'initialAccumulatorValue'));
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
    const lrDecay = groupNumber('Adagrad', group, 'lrDecay');
    const eps = groupNumber('Adagrad', group, 'eps');
    forEachParamGrad(group, groupNumber('Adagrad', group, 'weightDecay'), (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.sum === undefined) {
        state.step = 0;
        state.sum = fullLike(p, groupNumber('Adagrad', group, 'initialAccumulatorValue'));
      }
      const step = stateNumber('Adagrad', state, 'step') + 1;
      state.step = step;
      const clr = lr / (1 + (step - 1) * lrDecay);
      const sum = stateTensor('Adagrad', state, 'sum');
      addcmulInto(sum, grad, grad, 1);
      const std = temps.add(sum.sqrt()).add_(eps);
      addcdivInto(p, grad, std, -clr);
    });
  }
}
