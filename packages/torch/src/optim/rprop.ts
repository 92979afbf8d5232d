import { makeBinder, zerosLike } from '@torch-ts/core';
import { TorchError } from '../nn/internal';
import { Optimizer, addcmulInto, checkNonNegative, forEachParamGrad, refuseSparseGrads, groupNumbers, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface RpropOptions {
  lr?: number;
  /** (etaminus, etaplus): the step size's factors after a sign change and after none. */
  etas?: [number, number];
  /** (min, max) step sizes. */
  stepSizes?: [number, number];
  foreach?: boolean | null;
  maximize?: boolean;
}

const rpropArgs = makeBinder('Rprop', 'Rprop(float lr=0.01, float[2] etas=[0.5, 1.2], float[2] step_sizes=[1e-06, 50], bool? foreach=None, bool maximize=False) -> ()');

/**
 * `optim.Rprop`, as 1.13's `_single_tensor_rprop`: per element, the sign of grad * prev picks
 * the step size's factor (etaplus where the sign held, etaminus where it flipped, 1 where
 * either is zero), the step size is clamped to `stepSizes`, a flipped element does not move
 * and is remembered as zero, and `p -= sign(grad) * step_size`. The gradient's magnitude is
 * never used.
 */
export class Rprop extends Optimizer {
  constructor(params: ParamsInput, options?: RpropOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<RpropOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, etas, stepSizes, foreach, maximize] = rpropArgs.bind(args);
    super(params, { lr, etas, stepSizes, foreach: foreach ?? null, maximize });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkNonNegative('lr', g.lr, 'learning rate');
    const [minus, plus] = g.etas as number[];
    if (!(0.0 < minus && minus < 1.0 && 1.0 < plus)) throw new TorchError(`Invalid eta values: ${minus}, ${plus}`);
  }

  protected updateGroup(group: ParamGroup): void {
    refuseSparseGrads(group, 'Rprop does not support sparse gradients');
    const [etaminus, etaplus] = groupNumbers('Rprop', group, 'etas');
    const [stepMin, stepMax] = groupNumbers('Rprop', group, 'stepSizes');
    forEachParamGrad(group, 0, (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.prev = zerosLike(p);
        state.stepSize = zerosLike(grad).fill_(group.lr);
      }
      state.step = stateNumber('Rprop', state, 'step') + 1;
      const prev = stateTensor('Rprop', state, 'prev');
      const stepSize = stateTensor('Rprop', state, 'stepSize');
      const sign = temps.add(grad.mul(prev)).sign_();
      // (one mask after another, as PyTorch's: a NaN stays NaN)
      sign.maskedFill_(temps.add(sign.gt(0)), etaplus);
      sign.maskedFill_(temps.add(sign.lt(0)), etaminus);
      sign.maskedFill_(temps.add(sign.eq(0)), 1);
      stepSize.mul_(sign).clamp_(stepMin, stepMax);
      const g = temps.add(grad.clone());
      g.maskedFill_(temps.add(sign.eq(etaminus)), 0);
      addcmulInto(p, temps.add(g.sign()), stepSize, -1);
      prev.copy_(g);
    });
  }
}
