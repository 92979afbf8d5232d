import { makeBinder, zerosLike } from '@torch-ts/core';
import type { Tensor } from '../nn/internal';
import { Optimizer, addcdivInto, addcmulInto, checkNonNegative, forEachParamGrad, refuseSparseGrads, groupFlag, groupNumber, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface RMSpropOptions {
  lr?: number;
  alpha?: number;
  eps?: number;
  weightDecay?: number;
  momentum?: number;
  centered?: boolean;
  maximize?: boolean;
  /** Accepted; the numbers are the same either way. */
  foreach?: boolean | null;
  capturable?: boolean;
}

/** `optim.RMSprop`, as PyTorch 2.x's `_single_tensor_rmsprop` (`grad_avg.lerp_` when centered). */
const rmspropArgs = makeBinder(
  'RMSprop',
  'RMSprop(float lr=0.01, float alpha=0.99, float eps=1e-08, float weight_decay=0, float momentum=0, bool centered=False, bool capturable=False, bool? foreach=None, bool maximize=False, bool differentiable=False) -> ()',
  { unsupported: ['differentiable'] },
);

export class RMSprop extends Optimizer {
  constructor(params: ParamsInput, options?: RMSpropOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<RMSpropOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, alpha, eps, weightDecay, momentum, centered, , foreach, maximize, differentiable] = rmspropArgs.bind(args);
    super(params, { lr, momentum, alpha, eps, centered, weightDecay, foreach: foreach ?? null, maximize, differentiable });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkNonNegative('lr', g.lr, 'learning rate');
    checkNonNegative('eps', g.eps, 'epsilon value');
    checkNonNegative('momentum', g.momentum, 'momentum value');
    checkNonNegative('weightDecay', g.weightDecay, 'weight_decay value');
    checkNonNegative('alpha', g.alpha, 'alpha value');
  }

  protected updateGroup(group: ParamGroup): void {
    refuseSparseGrads(group, 'RMSprop does not support sparse gradients');
    const lr = group.lr;
    const alpha = groupNumber('RMSprop', group, 'alpha');
    const eps = groupNumber('RMSprop', group, 'eps');
    const momentum = groupNumber('RMSprop', group, 'momentum');
    const centered = groupFlag(group, 'centered');
    forEachParamGrad(group, groupNumber('RMSprop', group, 'weightDecay'), (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.squareAvg = zerosLike(p);
        if (momentum > 0) state.momentumBuffer = zerosLike(p);
        if (centered) state.gradAvg = zerosLike(p);
      }
      state.step = stateNumber('RMSprop', state, 'step') + 1;
      const squareAvg = stateTensor('RMSprop', state, 'squareAvg');
      addcmulInto(squareAvg.mul_(alpha), grad, grad, 1 - alpha);
      let avg: Tensor;
      if (centered) {
        const gradAvg = stateTensor('RMSprop', state, 'gradAvg');
        gradAvg.lerp_(grad, 1 - alpha);
        // square_avg.addcmul(grad_avg, grad_avg, value=-1): square_avg + (-grad_avg) * grad_avg
        avg = temps.add(gradAvg.mul(-1)).mul_(gradAvg).add_(squareAvg).sqrt_();
      } else {
        avg = temps.add(squareAvg.sqrt());
      }
      avg.add_(eps);
      if (momentum > 0) {
        const buf = stateTensor('RMSprop', state, 'momentumBuffer');
        addcdivInto(buf.mul_(momentum), grad, avg, 1);
        p.add_(buf, { alpha: -lr });
      } else {
        addcdivInto(p, grad, avg, -lr);
      }
    });
  }
}
