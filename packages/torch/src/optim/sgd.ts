import { makeBinder } from '@torch-ts/core';
import { Optimizer, checkNonNegative, forEachParamGrad, groupFlag, groupNumber, stateTensorOrNone, REQUIRED, type ParamGroup, type ParamsInput } from './optimizer';
import { TorchError } from '../nn/internal';

export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
  maximize?: boolean;
  /** Accepted and kept in the group; the numbers are the same either way. */
  foreach?: boolean | null;
}

/**
 * `optim.SGD`, with PyTorch's update order (`_single_tensor_sgd`): weight decay, then
 * momentum (the first buffer is a copy of the gradient), nesterov, `p -= lr * d_p`.
 */
const sgdArgs = makeBinder(
  'SGD',
  'SGD(float lr=0.001, float momentum=0, float dampening=0, float weight_decay=0, bool nesterov=False, *, bool maximize=False, bool? foreach=None, bool differentiable=False, bool? fused=None) -> ()',
  { unsupported: ['differentiable', 'fused'] },
);

export class SGD extends Optimizer {
  constructor(params: ParamsInput, options?: SGDOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<SGDOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, momentum, dampening, weightDecay, nesterov, maximize, foreach, differentiable] = sgdArgs.bind(args);
    super(params, { lr, momentum, dampening, weightDecay, nesterov, maximize, foreach: foreach ?? null, differentiable });
    void REQUIRED;
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkNonNegative('lr', g.lr, 'learning rate');
    checkNonNegative('momentum', g.momentum, 'momentum value');
    checkNonNegative('weightDecay', g.weightDecay, 'weight_decay value');
    if (g.nesterov && (!(groupNumber('SGD', g, 'momentum') > 0) || g.dampening !== 0)) {
      throw new TorchError('Nesterov momentum requires a momentum and zero dampening');
    }
  }

  protected updateGroup(group: ParamGroup): void {
    const lr = group.lr;
    const momentum = groupNumber('SGD', group, 'momentum');
    const dampening = groupNumber('SGD', group, 'dampening');
    const nesterov = groupFlag(group, 'nesterov');
    forEachParamGrad(group, groupNumber('SGD', group, 'weightDecay'), (p, grad, temps) => {
      let dp = grad;
      if (momentum !== 0) {
        const state = this.stateOf(p);
        let buf = stateTensorOrNone('SGD', state, 'momentumBuffer');
        if (buf === null) {
          buf = dp.clone();
          state.momentumBuffer = buf;
        } else {
          buf.mul_(momentum).add_(dp, { alpha: 1 - dampening });
        }
        dp = nesterov ? temps.add(dp.add(buf, { alpha: momentum })) : buf;
      }
      p.add_(dp, { alpha: -lr });
    });
  }
}
