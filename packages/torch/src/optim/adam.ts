import { makeBinder, zerosLike } from '@torch-ts/core';
import { Optimizer, addcdivInto, checkAdamFamilyGroup, addcmulInto, forEachParamGrad, refuseSparseGrads, groupFlag, groupNumber, groupNumbers, stateNumber, stateTensor, stateTensorOrNone, type ParamGroup, type ParamsInput } from './optimizer';

export interface AdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  weightDecay?: number;
  amsgrad?: boolean;
  maximize?: boolean;
  /** Accepted and kept in the group; the numbers are the same either way. */
  foreach?: boolean | null;
  /** Accepted and kept in the group; the numbers are the same either way. */
  capturable?: boolean;
}

/**
 * `optim.Adam` and, with `decoupled`, `optim.AdamW`, following PyTorch 2.x's
 * `_single_tensor_adam` op for op: `exp_avg.lerp_(grad, 1 - beta1)` (1.13 wrote
 * `mul_(beta1).add_(grad, alpha=1 - beta1)`, equal up to rounding), `exp_avg_sq.mul_(beta2)
 * .addcmul_(grad, grad, value=1 - beta2)`, bias corrections in doubles, and
 * `p.addcdiv_(exp_avg, denom, value=-step_size)` with `denom = sqrt(v) / sqrt(bc2) + eps`.
 */
abstract class AdamBase extends Optimizer {
  constructor(params: ParamsInput, binder: typeof adamArgs | typeof adamWArgs, args: readonly unknown[], private readonly decoupled: boolean) {
    const [lr, betas, eps, weightDecay, amsgrad, foreach, maximize, capturable, differentiable] = binder.bind(args);
    // (the group keys are 1.13's, so that state dicts match PyTorch's key for key)
    super(
      params,
      decoupled
        ? { lr, betas, eps, weightDecay, amsgrad, foreach: foreach ?? null, maximize, capturable }
        : { lr, betas, eps, weightDecay, amsgrad, maximize, foreach: foreach ?? null, capturable, differentiable, fused: false },
    );
  }

  private get opName(): string {
    return this.decoupled ? 'AdamW' : 'Adam';
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkAdamFamilyGroup(g);
  }

  protected updateGroup(group: ParamGroup): void {
    const op = this.opName;
    refuseSparseGrads(group, this.decoupled ? 'AdamW does not support sparse gradients' : 'Adam does not support sparse gradients, please consider SparseAdam instead');
    const lr = group.lr;
    const [beta1, beta2] = groupNumbers(op, group, 'betas');
    const eps = groupNumber(op, group, 'eps');
    const weightDecay = groupNumber(op, group, 'weightDecay');
    const amsgrad = groupFlag(group, 'amsgrad');
    // AdamW decays the parameter itself (below), Adam adds the L2 penalty to the gradient.
    forEachParamGrad(group, this.decoupled ? 0 : weightDecay, (p, grad, temps) => {
      const state = this.stateOf(p);
      if (state.step === undefined) {
        state.step = 0;
        state.expAvg = zerosLike(p);
        state.expAvgSq = zerosLike(p);
        if (amsgrad) state.maxExpAvgSq = zerosLike(p);
      }
      const expAvg = stateTensor(op, state, 'expAvg');
      const expAvgSq = stateTensor(op, state, 'expAvgSq');
      const step = stateNumber(op, state, 'step') + 1;
      state.step = step;
      if (this.decoupled) p.mul_(1 - lr * weightDecay);
      expAvg.lerp_(grad, 1 - beta1);
      addcmulInto(expAvgSq.mul_(beta2), grad, grad, 1 - beta2);
      const biasCorrection1 = 1 - beta1 ** step;
      const biasCorrection2 = 1 - beta2 ** step;
      const stepSize = lr / biasCorrection1;
      const bc2Sqrt = Math.sqrt(biasCorrection2);
      let v = expAvgSq;
      if (amsgrad) {
        let m = stateTensorOrNone(op, state, 'maxExpAvgSq');
        if (m === null) state.maxExpAvgSq = m = zerosLike(p);
        const mx = temps.add(m.maximum(expAvgSq));
        m.copy_(mx);
        v = m;
      }
      const denom = temps.add(temps.add(v.sqrt()).div(bc2Sqrt)).add_(eps);
      addcdivInto(p, expAvg, denom, -stepSize);
    });
  }
}

// PyTorch's Python signatures. `foreach` and `capturable` select implementations (a loop over
// lists, the step counter kept on the device) that compute the same numbers, so any value is
// accepted and kept in the group; `differentiable` and `fused` would change what a step does
// (a graph through it, a fused CUDA kernel), so only their defaults are accepted.
const ADAM_TAIL = '*, bool? foreach=None, bool maximize=False, bool capturable=False, bool differentiable=False, bool? fused=None) -> ()';
const UNSUPPORTED = { unsupported: ['differentiable', 'fused'] };
const adamArgs = makeBinder('Adam', `Adam(float lr=0.001, float[2] betas=[0.9, 0.999], float eps=1e-08, float weight_decay=0, bool amsgrad=False, ${ADAM_TAIL}`, UNSUPPORTED);
const adamWArgs = makeBinder('AdamW', `AdamW(float lr=0.001, float[2] betas=[0.9, 0.999], float eps=1e-08, float weight_decay=0.01, bool amsgrad=False, ${ADAM_TAIL}`, UNSUPPORTED);

export class Adam extends AdamBase {
  constructor(params: ParamsInput, options?: AdamOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdamOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    super(params, adamArgs, args, false);
  }
}

/** `optim.AdamW`: decoupled weight decay `p *= 1 - lr * weightDecay` (default 1e-2). */
export class AdamW extends AdamBase {
  constructor(params: ParamsInput, options?: AdamOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<AdamOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    super(params, adamWArgs, args, true);
  }
}
