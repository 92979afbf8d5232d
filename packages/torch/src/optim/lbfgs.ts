import { TorchTypeError, cat, keep, makeBinder, tidy, zeros } from '@torch-ts/core';
import { enableGrad } from '@torch-ts/autograd';
import { Tensor, TorchError, noGradGuard, ownGrad } from '../nn/internal';
import { Optimizer, groupNumber, type ParamGroup, type ParamState, type ParamsInput } from './optimizer';

export interface LBFGSOptions {
  lr?: number;
  maxIter?: number;
  maxEval?: number | null;
  toleranceGrad?: number;
  toleranceChange?: number;
  historySize?: number;
  lineSearchFn?: 'strong_wolfe' | null;
}

const lbfgsArgs = makeBinder(
  'LBFGS',
  'LBFGS(float lr=1, int max_iter=20, int? max_eval=None, float tolerance_grad=1e-07, float tolerance_change=1e-09, int history_size=100, str? line_search_fn=None) -> ()',
);

/** PyTorch's `_cubic_interpolate`: the minimiser of the cubic through two points and slopes, clamped to the bounds. */
function cubicInterpolate(x1: number, f1: number, g1: number, x2: number, f2: number, g2: number, bounds?: [number, number]): number {
  const [xminBound, xmaxBound] = bounds ?? (x1 <= x2 ? [x1, x2] : [x2, x1]);
  const d1 = g1 + g2 - (3 * (f1 - f2)) / (x1 - x2);
  const d2Square = d1 ** 2 - g1 * g2;
  if (d2Square >= 0) {
    const d2 = Math.sqrt(d2Square);
    const minPos = x1 <= x2 ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2)) : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
    return Math.min(Math.max(minPos, xminBound), xmaxBound);
  }
  return (xminBound + xmaxBound) / 2;
}

const dot = (a: Tensor, b: Tensor): number => Number(a.dot(b).item());
const absMax = (a: Tensor): number => Number(a.abs().max().item());

type Objective = (x: Tensor[], t: number, d: Tensor) => [number, Tensor];

/** PyTorch's `_strong_wolfe` line search (bracketing, then zooming by cubic interpolation), step for step. */
function strongWolfe(obj: Objective, x: Tensor[], t0: number, d: Tensor, f: number, g0: Tensor, gtd: number, c1 = 1e-4, c2 = 0.9, toleranceChange = 1e-9, maxLs = 25): [number, Tensor, number, number] {
  let t = t0;
  const dNorm = absMax(d);
  const g = g0.clone();
  let [fNew, gNew] = obj(x, t, d);
  let lsFuncEvals = 1;
  let gtdNew = dot(gNew, d);
  let tPrev = 0;
  let fPrev = f;
  let gPrev = g;
  let gtdPrev = gtd;
  let done = false;
  let lsIter = 0;
  let bracket: number[] = [];
  let bracketF: number[] = [];
  let bracketG: Tensor[] = [];
  let bracketGtd: number[] = [];
  while (lsIter < maxLs) {
    if (fNew > f + c1 * t * gtd || (lsIter > 1 && fNew >= fPrev)) {
      [bracket, bracketF, bracketG, bracketGtd] = [[tPrev, t], [fPrev, fNew], [gPrev, gNew.clone()], [gtdPrev, gtdNew]];
      break;
    }
    if (Math.abs(gtdNew) <= -c2 * gtd) {
      [bracket, bracketF, bracketG] = [[t], [fNew], [gNew]];
      done = true;
      break;
    }
    if (gtdNew >= 0) {
      [bracket, bracketF, bracketG, bracketGtd] = [[tPrev, t], [fPrev, fNew], [gPrev, gNew.clone()], [gtdPrev, gtdNew]];
      break;
    }
    const minStep = t + 0.01 * (t - tPrev);
    const maxStep = t * 10;
    const tmp = t;
    t = cubicInterpolate(tPrev, fPrev, gtdPrev, t, fNew, gtdNew, [minStep, maxStep]);
    tPrev = tmp;
    fPrev = fNew;
    gPrev = gNew.clone();
    gtdPrev = gtdNew;
    [fNew, gNew] = obj(x, t, d);
    lsFuncEvals += 1;
    gtdNew = dot(gNew, d);
    lsIter += 1;
  }
  if (lsIter === maxLs) {
    [bracket, bracketF, bracketG] = [[0, t], [f, fNew], [g, gNew]];
  }
  let insufProgress = false;
  let [lowPos, highPos] = bracketF[0] <= bracketF[bracketF.length - 1] ? [0, 1] : [1, 0];
  while (!done && lsIter < maxLs) {
    if (Math.abs(bracket[1] - bracket[0]) * dNorm < toleranceChange) break;
    t = cubicInterpolate(bracket[0], bracketF[0], bracketGtd[0], bracket[1], bracketF[1], bracketGtd[1]);
    const hi = Math.max(...bracket);
    const lo = Math.min(...bracket);
    const eps = 0.1 * (hi - lo);
    if (Math.min(hi - t, t - lo) < eps) {
      if (insufProgress || t >= hi || t <= lo) {
        t = Math.abs(t - hi) < Math.abs(t - lo) ? hi - eps : lo + eps;
        insufProgress = false;
      } else {
        insufProgress = true;
      }
    } else {
      insufProgress = false;
    }
    [fNew, gNew] = obj(x, t, d);
    lsFuncEvals += 1;
    gtdNew = dot(gNew, d);
    lsIter += 1;
    if (fNew > f + c1 * t * gtd || fNew >= bracketF[lowPos]) {
      bracket[highPos] = t;
      bracketF[highPos] = fNew;
      bracketG[highPos] = gNew.clone();
      bracketGtd[highPos] = gtdNew;
      [lowPos, highPos] = bracketF[0] <= bracketF[1] ? [0, 1] : [1, 0];
    } else {
      if (Math.abs(gtdNew) <= -c2 * gtd) {
        done = true;
      } else if (gtdNew * (bracket[highPos] - bracket[lowPos]) >= 0) {
        bracket[highPos] = bracket[lowPos];
        bracketF[highPos] = bracketF[lowPos];
        bracketG[highPos] = bracketG[lowPos];
        bracketGtd[highPos] = bracketGtd[lowPos];
      }
      bracket[lowPos] = t;
      bracketF[lowPos] = fNew;
      bracketG[lowPos] = gNew.clone();
      bracketGtd[lowPos] = gtdNew;
    }
  }
  return [bracketF[lowPos], bracketG[lowPos], bracket[lowPos], lsFuncEvals];
}

/**
 * `optim.LBFGS`, PyTorch 1.13's: `step(closure)` re-evaluates the loss through the closure
 * (which zeroes the gradients, computes the loss, calls `backward()` and returns it) as often
 * as the iteration needs, and returns the first loss.
 *
 * Note [LBFGS state]
 * As in PyTorch, the optimizer's whole state lives in the state of the first parameter:
 * `funcEvals`, `nIter`, the last direction `d` and step `t`, the history `oldDirs`,
 * `oldStps`, `ro` and `al`, `HDiag`, `prevFlatGrad`, `prevLoss` (PyTorch's names in the state
 * dict: `func_evals`, `old_dirs`, `H_diag`, ...). The vectors are flat tensors of every
 * parameter's elements; the scalars PyTorch holds in 0-dim tensors (`ys`, `gtd`, `t`,
 * `H_diag`) are doubles here, which is what they are for float64 parameters. A step runs in a
 * `tidy` scope: what it makes and does not keep in the state is released, as are the
 * history vectors it drops.
 */
export class LBFGS extends Optimizer {
  private readonly params: Tensor[];

  constructor(params: ParamsInput, options?: LBFGSOptions);
  constructor(params: ParamsInput, lr: number, options?: Omit<LBFGSOptions, 'lr'>);
  constructor(params: ParamsInput, ...args: unknown[]) {
    const [lr, maxIter, maxEval, toleranceGrad, toleranceChange, historySize, lineSearchFn] = lbfgsArgs.bind(args);
    super(params, {
      lr,
      maxIter,
      maxEval: maxEval ?? Math.floor((maxIter * 5) / 4),
      toleranceGrad,
      toleranceChange,
      historySize,
      lineSearchFn: lineSearchFn ?? null,
    });
    if (this.paramGroups.length !== 1) throw new TorchError("LBFGS doesn't support per-parameter options (parameter groups)");
    this.params = this.paramGroups[0].params;
  }

  protected updateGroup(_group: ParamGroup): void {
    throw new TorchError('LBFGS.step(): a closure that reevaluates the model and returns the loss is required');
  }

  private gatherFlatGrad(): Tensor {
    return cat(
      this.params.map((p) => {
        const g = ownGrad(p);
        return g === null ? zeros([p.numel()], { dtype: p.dtype, device: p.device }) : g.reshape(-1);
      }),
      0,
    );
  }

  private addGrad(stepSize: number, update: Tensor): void {
    let offset = 0;
    for (const p of this.params) {
      const n = p.numel();
      p.add_(update.narrow(0, offset, n).view(p.shape), { alpha: stepSize });
      offset += n;
    }
  }

  private setParam(data: Tensor[]): void {
    this.params.forEach((p, i) => p.copy_(data[i]));
  }

  override step(closure?: () => number | Tensor): number | Tensor | undefined {
    if (typeof closure !== 'function') throw new TorchTypeError("LBFGS.step() missing 1 required positional argument: 'closure'");
    const state = this.stateOf(this.params[0]);
    const before = tensorsOf(state);
    const result = tidy(() => {
      const loss = noGradGuard(() => this.iterate(closure, state));
      for (const t of tensorsOf(state)) keep(t);
      return loss;
    });
    // (tensors of the old state that the new one no longer holds: the dropped history)
    const after = tensorsOf(state);
    for (const t of before) if (!after.has(t) && !t.isDisposed) t.dispose();
    return result;
  }

  private iterate(closure: () => number | Tensor, state: ParamState): number | Tensor {
    const evaluate = (): number | Tensor => enableGrad(closure);
    const group = this.paramGroups[0];
    const lr = group.lr;
    const maxIter = groupNumber('LBFGS', group, 'maxIter');
    const maxEval = groupNumber('LBFGS', group, 'maxEval');
    const toleranceGrad = groupNumber('LBFGS', group, 'toleranceGrad');
    const toleranceChange = groupNumber('LBFGS', group, 'toleranceChange');
    const historySize = groupNumber('LBFGS', group, 'historySize');
    const lineSearchFn = group.lineSearchFn ?? null;
    state.funcEvals ??= 0;
    state.nIter ??= 0;

    const origLoss = evaluate();
    let loss = Number(origLoss instanceof Tensor ? origLoss.item() : origLoss);
    let currentEvals = 1;
    state.funcEvals = (state.funcEvals as number) + 1;
    let flatGrad = this.gatherFlatGrad();
    let optCond = absMax(flatGrad) <= toleranceGrad;
    if (optCond) return origLoss;

    let d = (state.d ?? null) as Tensor | null;
    let t = (state.t ?? null) as number | null;
    let oldDirs = [...((state.oldDirs ?? []) as Tensor[])];
    let oldStps = [...((state.oldStps ?? []) as Tensor[])];
    let ro = [...((state.ro ?? []) as number[])];
    let HDiag = (state.HDiag ?? 1) as number;
    let prevFlatGrad = (state.prevFlatGrad ?? null) as Tensor | null;
    let prevLoss = (state.prevLoss ?? null) as number | null;

    let nIter = 0;
    while (nIter < maxIter) {
      nIter += 1;
      state.nIter = (state.nIter as number) + 1;
      if (state.nIter === 1) {
        d = flatGrad.neg();
        oldDirs = [];
        oldStps = [];
        ro = [];
        HDiag = 1;
      } else {
        const y = flatGrad.sub(prevFlatGrad!);
        const s = d!.mul(t!);
        const ys = dot(y, s);
        if (ys > 1e-10) {
          if (oldDirs.length === historySize) {
            oldDirs.shift();
            oldStps.shift();
            ro.shift();
          }
          oldDirs.push(y);
          oldStps.push(s);
          ro.push(1 / ys);
          HDiag = ys / dot(y, y);
        }
        const numOld = oldDirs.length;
        if (state.al === undefined) state.al = new Array<null>(historySize).fill(null);
        const al = [...(state.al as (number | null)[])];
        const q = flatGrad.neg();
        for (let i = numOld - 1; i >= 0; i--) {
          al[i] = dot(oldStps[i], q) * ro[i];
          q.add_(oldDirs[i], { alpha: -al[i]! });
        }
        const r = q.mul(HDiag);
        d = r;
        for (let i = 0; i < numOld; i++) {
          const beI = dot(oldDirs[i], r) * ro[i];
          r.add_(oldStps[i], { alpha: al[i]! - beI });
        }
        state.al = al;
      }
      if (prevFlatGrad === null) prevFlatGrad = flatGrad.clone();
      else prevFlatGrad.copy_(flatGrad);
      prevLoss = loss;

      if (state.nIter === 1) {
        const inv = 1 / Number(flatGrad.abs().sum().item());
        t = (inv < 1 ? inv : 1) * lr;
      } else {
        t = lr;
      }
      const gtd = dot(flatGrad, d!);
      if (gtd > -toleranceChange) break;

      let lsFuncEvals = 0;
      if (lineSearchFn !== null) {
        if (lineSearchFn !== 'strong_wolfe') throw new TorchError("only 'strong_wolfe' is supported");
        const xInit = this.params.map((p) => p.clone());
        const obj: Objective = (x, tt, dd) => {
          this.addGrad(tt, dd);
          const l = evaluate();
          const fl = Number(l instanceof Tensor ? l.item() : l);
          const g = this.gatherFlatGrad();
          this.setParam(x);
          return [fl, g];
        };
        [loss, flatGrad, t, lsFuncEvals] = strongWolfe(obj, xInit, t, d!, loss, flatGrad, gtd);
        this.addGrad(t, d!);
        optCond = absMax(flatGrad) <= toleranceGrad;
      } else {
        this.addGrad(t, d!);
        if (nIter !== maxIter) {
          const l = evaluate();
          loss = Number(l instanceof Tensor ? l.item() : l);
          flatGrad = this.gatherFlatGrad();
          optCond = absMax(flatGrad) <= toleranceGrad;
          lsFuncEvals = 1;
        }
      }
      currentEvals += lsFuncEvals;
      state.funcEvals = (state.funcEvals as number) + lsFuncEvals;

      if (nIter === maxIter) break;
      if (currentEvals >= maxEval) break;
      if (optCond) break;
      if (absMax(d!.mul(t)) <= toleranceChange) break;
      if (Math.abs(loss - prevLoss) < toleranceChange) break;
    }
    state.d = d;
    state.t = t;
    state.oldDirs = oldDirs;
    state.oldStps = oldStps;
    state.ro = ro;
    state.HDiag = HDiag;
    state.prevFlatGrad = prevFlatGrad;
    state.prevLoss = prevLoss;
    return origLoss;
  }
}

function tensorsOf(state: ParamState): Set<Tensor> {
  const out = new Set<Tensor>();
  for (const v of Object.values(state)) {
    if (v instanceof Tensor) out.add(v);
    else if (Array.isArray(v)) for (const x of v) if (x instanceof Tensor) out.add(x);
  }
  return out;
}
