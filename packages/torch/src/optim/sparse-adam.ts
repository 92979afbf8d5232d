import { ValueError, makeBinder, sparseCooTensor, tidy, zerosLike, type Tensor } from '@torch-ts/core';
import { Optimizer, checkBetas, groupFlag, groupNumber, groupNumbers, stateNumber, stateTensor, type ParamGroup, type ParamsInput } from './optimizer';
import { TorchError, ownGrad } from '../nn/internal';

export interface SparseAdamOptions {
  lr?: number;
  betas?: [number, number];
  eps?: number;
  maximize?: boolean;
}

const sparseAdamArgs = makeBinder('SparseAdam', 'SparseAdam(float lr=0.001, float[2] betas=[0.9, 0.999], float eps=1e-08, bool maximize=False) -> ()');

/**
 * `optim.SparseAdam`: PyTorch 1.13's lazy Adam for sparse gradients (an `nn.Embedding(...,
 * { sparse: true })`'s): only the rows a gradient has entries for are updated, their moments
 * included (`F.sparse_adam`, op for op): the gradient is coalesced, the old moments read at its
 * rows (`sparse_mask`), moved by `(1 - beta) * (new - old)` as sparse additions, and the
 * parameter moved by `-step_size * m / (sqrt(v) + eps)` at those rows, with
 * `step_size = lr * sqrt(1 - beta2^t) / (1 - beta1^t)`. Dense gradients and sparse parameters
 * are refused as in PyTorch; the state is `{step, exp_avg, exp_avg_sq}` with `step` a number.
 */
export class SparseAdam extends Optimizer {
  constructor(params: ParamsInput, options?: SparseAdamOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<SparseAdamOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, betas, eps, maximize] = sparseAdamArgs.bind(args);
    if (!(lr > 0)) throw new ValueError(`Invalid learning rate: ${lr}`);
    if (!(eps > 0)) throw new ValueError(`Invalid epsilon value: ${eps}`);
    checkBetas(betas);
    const list = params instanceof Array ? params : [...(params as Iterable<unknown>)];
    const sparseParams: string[] = [];
    list.forEach((p, i) => {
      if (typeof p === 'object' && p !== null && 'params' in p) {
        const ps = (p as { params: Iterable<unknown> }).params;
        [...(ps as Iterable<unknown>)].forEach((q, j) => {
          if ((q as Tensor).isSparse) sparseParams.push(`[${i}, ${j}]`);
        });
      } else if ((p as Tensor).isSparse) sparseParams.push(String(i));
    });
    if (sparseParams.length > 0) throw new ValueError(`Sparse params at indices [${sparseParams.join(', ')}]: SparseAdam requires dense parameter tensors`);
    super(list as ParamsInput, { lr, betas, eps, maximize });
  }

  protected override validateGroup(g: Record<string, unknown>): void {
    checkBetas(g.betas);
  }

  protected updateGroup(group: ParamGroup): void {
    const op = 'SparseAdam';
    const lr = group.lr;
    const [beta1, beta2] = groupNumbers(op, group, 'betas');
    const eps = groupNumber(op, group, 'eps');
    const maximize = groupFlag(group, 'maximize');
    // (as PyTorch: every gradient of the group is checked, and each state made and its step
    // counted, before any parameter moves)
    const work: [Tensor, Tensor][] = [];
    try {
      for (const p of group.params) {
        const g = ownGrad(p);
        if (g === null) continue;
        work.push([p, g]);
        if (!g.isSparse) throw new TorchError('SparseAdam does not support dense gradients, please consider Adam instead');
        const state = this.stateOf(p);
        if (state.step === undefined) {
          state.step = 0;
          state.expAvg = zerosLike(p);
          state.expAvgSq = zerosLike(p);
        }
        state.step = stateNumber(op, state, 'step') + 1;
      }
      for (const [p, g] of work) {
        const state = this.stateOf(p);
        sparseAdamUpdate(p, g, stateTensor(op, state, 'expAvg'), stateTensor(op, state, 'expAvgSq'), stateNumber(op, state, 'step'), { lr, beta1, beta2, eps, maximize });
      }
    } finally {
      for (const [, g] of work) g.dispose();
    }
  }
}

/** PyTorch 1.13's `torch.optim._functional.sparse_adam` for one parameter. */
function sparseAdamUpdate(
  param: Tensor,
  g: Tensor,
  expAvg: Tensor,
  expAvgSq: Tensor,
  step: number,
  o: { lr: number; beta1: number; beta2: number; eps: number; maximize: boolean },
): void {
  tidy(() => {
    // (the update is non-linear, so the indices must be unique)
    const grad = (o.maximize ? g.neg() : g).coalesce();
    const gradIndices = grad._indices();
    const gradValues = grad._values();
    if (gradValues.numel() === 0) return; // an empty gradient updates nothing
    const size = grad.size();
    const makeSparse = (values: Tensor): Tensor => sparseCooTensor(gradIndices, values, size);
    // old <- b * old + (1 - b) * new  <==>  old += (1 - b) * (new - old)
    const oldExpAvgValues = expAvg.sparseMask(grad)._values();
    const expAvgUpdateValues = gradValues.sub(oldExpAvgValues).mul_(1 - o.beta1);
    expAvg.add_(makeSparse(expAvgUpdateValues));
    const oldExpAvgSqValues = expAvgSq.sparseMask(grad)._values();
    const expAvgSqUpdateValues = gradValues.pow(2).sub_(oldExpAvgSqValues).mul_(1 - o.beta2);
    expAvgSq.add_(makeSparse(expAvgSqUpdateValues));
    // (dense additions again, as PyTorch's, avoiding another sparse_mask)
    const numer = expAvgUpdateValues.add_(oldExpAvgValues);
    expAvgSqUpdateValues.add_(oldExpAvgSqValues);
    const denom = expAvgSqUpdateValues.sqrt_().add_(o.eps);
    const biasCorrection1 = 1 - o.beta1 ** step;
    const biasCorrection2 = 1 - o.beta2 ** step;
    const stepSize = (o.lr * Math.sqrt(biasCorrection2)) / biasCorrection1;
    param.add_(makeSparse(numer.div_(denom).mul(-stepSize)));
  });
}
