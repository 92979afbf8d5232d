import type { Tensor } from '../nn/internal';
import { Optimizer, checkNonNegative, forEachParamGrad, REQUIRED, type ParamGroup, type ParamsInput } from './optimizer';
import { TorchError } from '../nn/internal';

export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
  maximize?: boolean;
}

/**
 * `optim.SGD`, with PyTorch's update order (`_single_tensor_sgd`): weight decay, then
 * momentum (the first buffer is a copy of the gradient), nesterov, `p -= lr * d_p`.
 */
export class SGD extends Optimizer {
  constructor(params: ParamsInput, options: SGDOptions = {}) {
    super(params, {
      lr: options.lr ?? 1e-3,
      momentum: options.momentum ?? 0,
      dampening: options.dampening ?? 0,
      weightDecay: options.weightDecay ?? 0,
      nesterov: options.nesterov ?? false,
      maximize: options.maximize ?? false,
    });
    void REQUIRED;
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkNonNegative('lr', g.lr, 'learning rate');
    checkNonNegative('momentum', g.momentum, 'momentum value');
    checkNonNegative('weightDecay', g.weightDecay, 'weight_decay value');
    if (g.nesterov && (!((g.momentum as number) > 0) || g.dampening !== 0)) {
      throw new TorchError('Nesterov momentum requires a momentum and zero dampening');
    }
  }

  protected updateGroup(group: ParamGroup): void {
    const lr = group.lr;
    const momentum = group.momentum as number;
    const dampening = group.dampening as number;
    const nesterov = group.nesterov as boolean;
    forEachParamGrad(group, group.weightDecay as number, (p, grad, temps) => {
      let dp = grad;
      if (momentum !== 0) {
        const state = this.stateOf(p);
        let buf = (state.momentumBuffer as Tensor | null | undefined) ?? null;
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
