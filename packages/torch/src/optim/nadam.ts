import { makeBinder, zerosLike } from '@torch-ts/core';
import { Optimizer, addcdivInto, addcmulInto, checkAdamFamilyGroup, checkNonNegative, forEachParamGrad, refuseSparseGrads, groupNumber, groupNumbers, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';

export interface NAdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  momentumDecay?: number;
  foreach?: boolean | null;
}

// PyTorch 1.13's signature: no `maximize`, no `decoupled_weight_decay` (both 2.x).
const nadamArgs = makeBinder(
  'NAdam',
  'NAdam(float lr=0.002, float[2] betas=[0.9, 0.999], float eps=1e-08, float weight_decay=0, float momentum_decay=0.004, bool? foreach=None) -> ()',
);

/** A float32 rounding: 1.13 keeps `mu_product` in a default-dtype (float32) 0-dim tensor. */
const f32 = Math.fround;

/**
 * `optim.NAdam`, as 1.13's `_single_tensor_nadam`.
 *
 * Note [NAdam's mu_product is float32]
 * PyTorch 1.13 makes `state['mu_product'] = torch.tensor(1.)`, a float32 tensor whatever the
 * parameter's dtype, and updates it with tensor ops (`mu_product *= mu`, `mu_product * mu *
 * mu_next`), which on the CPU cast the Python float to float32 and round every product to
 * float32. The step sizes read from it are therefore float32-rounded even for float64
 * parameters; torch-ts keeps it as a number rounded the same way (`Math.fround`), so that
 * float64 iterates equal PyTorch's to the last bits rather than to 1e-7.
 */
export class NAdam extends Optimizer {
  constructor(params: ParamsInput, options?: NAdamOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<NAdamOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, betas, eps, weightDecay, momentumDecay, foreach] = nadamArgs.bind(args);
    super(params, { lr, betas, eps, weightDecay, momentumDecay, foreach: foreach ?? null });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkAdamFamilyGroup(g);
    checkNonNegative('momentumDecay', g.momentumDecay, 'momentum_decay value');
  }

  protected updateGroup(group: ParamGroup): void {
    refuseSparseGrads(group, 'NAdam does not support sparse gradients');
    const lr = group.lr;
    const [beta1, beta2] = groupNumbers('NAdam', group, 'betas');
    const eps = groupNumber('NAdam', group, 'eps');
    const momentumDecay = groupNumber('NAdam', group, 'momentumDecay');
    forEachParamGrad(group, groupNumber('NAdam', group, 'weightDecay'), (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.muProduct = 1;
        state.expAvg = zerosLike(p);
        state.expAvgSq = zerosLike(p);
      }
      const step = stateNumber('NAdam', state, 'step') + 1;
      state.step = step;
      const expAvg = stateTensor('NAdam', state, 'expAvg');
      const expAvgSq = stateTensor('NAdam', state, 'expAvgSq');
      const biasCorrection2 = 1 - beta2 ** step;
      const mu = beta1 * (1 - 0.5 * 0.96 ** (step * momentumDecay));
      const muNext = beta1 * (1 - 0.5 * 0.96 ** ((step + 1) * momentumDecay));
      const muProduct = f32(stateNumber('NAdam', state, 'muProduct') * f32(mu));
      state.muProduct = muProduct;
      const muProductNext = f32(f32(muProduct * f32(mu)) * f32(muNext));
      expAvg.mul_(beta1).add_(grad, { alpha: 1 - beta1 });
      addcmulInto(expAvgSq.mul_(beta2), grad, grad, 1 - beta2);
      const denom = temps.add(temps.add(expAvgSq.div(biasCorrection2)).sqrt()).add_(eps);
      addcdivInto(p, grad, denom, (-lr * (1 - mu)) / (1 - muProduct));
      addcdivInto(p, expAvg, denom, (-lr * muNext) / (1 - muProductNext));
    });
  }
}
