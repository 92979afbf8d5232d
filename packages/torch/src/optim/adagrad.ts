import { fullLike, makeBinder, sparseCooTensor, tidy, type Tensor } from '@torch-ts/core';
import { Optimizer, addcdivInto, addcmulInto, checkNonNegative, forEachParamGrad, refuseSparseGrads, groupNumber, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

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
    const weightDecay = groupNumber('Adagrad', group, 'weightDecay');
    if (weightDecay !== 0) refuseSparseGrads(group, 'weight_decay option is not compatible with sparse gradients');
    forEachParamGrad(group, weightDecay, (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.sum === undefined) {
        state.step = 0;
        state.sum = fullLike(p, groupNumber('Adagrad', group, 'initialAccumulatorValue'));
      }
      const step = stateNumber('Adagrad', state, 'step') + 1;
      state.step = step;
      const clr = lr / (1 + (step - 1) * lrDecay);
      const sum = stateTensor('Adagrad', state, 'sum');
      if (grad.isSparse) return sparseAdagradUpdate(p, grad, sum, clr, eps);
      addcmulInto(sum, grad, grad, 1);
      const std = temps.add(sum.sqrt()).add_(eps);
      addcdivInto(p, grad, std, -clr);
    });
  }
}

/**
 * PyTorch 1.13's Adagrad step for a sparse gradient: the gradient coalesced, its squares added
 * into `sum` at its rows, and the parameter moved at those rows only by
 * `-clr * g / (sqrt(sum) + eps)` (core Note [Sparse COO tensors]).
 */
function sparseAdagradUpdate(p: Tensor, grad: Tensor, sum: Tensor, clr: number, eps: number): void {
  tidy(() => {
    const g = grad.coalesce();
    const indices = g._indices();
    const values = g._values();
    const size = g.size();
    sum.add_(sparseCooTensor(indices, values.pow(2), size));
    const stdValues = sum.sparseMask(g)._values().sqrt_().add_(eps);
    p.add_(sparseCooTensor(indices, values.div(stdValues), size), { alpha: -clr });
  });
}
