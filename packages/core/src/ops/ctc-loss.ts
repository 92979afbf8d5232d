/**
 * F.ctc_loss: the Connectionist Temporal Classification loss, PyTorch 1.13's alpha recursion
 * in log space written as a composite over time steps (Note [CTC as a composite]).
 */
import { isFloatingType, isIntegralType } from '../dtype';
import { DTypeError, ShapeError, TorchError } from '../errors';
import { Tensor } from '../tensor/tensor';
import { tidy } from '../tensor/scope';
import { overloadedFront } from './front';
import { unwrapTensor } from './call';
import { torchTypeName } from './meta-utils';
import { where } from './pointwise';
import { add, amax, clampMin, div, eq, exp, log, mean, ne, neg, sub, sum } from './generated/table-ops';
import { gather } from './gather-scatter';
import { stack } from './join';
import { pad } from './resample';
import { narrow, reshape } from './shape-ops';
import { tensor } from './factories';
import { to } from './copy';
import { expand, select, squeeze, unsqueeze } from './views';

/**
 * Note [CTC as a composite]
 * PyTorch's ctc_loss (LossCTC.cpp) runs the alpha recursion of Graves et al. over the
 * extended target l' (blanks around and between the labels, S = 2L + 1 states) in log space:
 *   alpha_0(0) = lp_0(blank), alpha_0(1) = lp_0(l_1), else -inf
 *   alpha_t(s) = lse(alpha_{t-1}(s), alpha_{t-1}(s-1), alpha_{t-1}(s-2) if l'_s != blank and
 *                l'_s != l'_{s-2}) + lp_t(l'_s)
 *   nll = -lse(alpha_{T-1}(2L), alpha_{T-1}(2L-1))
 * with lse(a, b, c) = log(exp(a - m) + exp(b - m) + exp(c - m)) + m, m = max (0 where every
 * term is -inf). Here each time step is a handful of core ops over [N, S] for the whole batch,
 * so it runs on every backend and autograd differentiates it exactly: m is detached (the
 * value does not depend on it), and where every term is -inf the log reads 1 and the result
 * is put back to -inf by `where`, so no 0 * inf makes a NaN in the backward.
 *
 * PyTorch's backward (ctc_loss_backward_cpu) does not return d nll / d log_probs: it returns
 * exp(lp) - exp(log(alpha beta) + nll - lp), the gradient with respect to the logits under
 * the assumption that log_probs came out of log_softmax (whose backward then maps it to the
 * same logit gradient as the exact one: both sum to 0 over the classes); time steps past an
 * input's length get 0, and zero_infinity zeroes an infinite loss's gradient. torch-ts returns
 * PyTorch's values: the loss adds, per batch entry, sum_{t < T_b, c} (exp(lp) - detach(exp(lp))),
 * which is exactly 0 but has gradient exp(lp). So gradcheck holds through log_softmax (as
 * PyTorch's own tests check it), and raw log_probs get PyTorch's gradient, not the exact one.
 * (Where a loss is infinite without zero_infinity PyTorch's gradient is NaN; ours is finite.)
 *
 * The lengths are read on the host, as PyTorch's CPU and CUDA kernels read them: int arrays,
 * or integral tensors (CPU; on WebGPU pass arrays). The labels stay on the device: one gather
 * with a host-built index makes l' from padded [N, S_max] or concatenated [sum L] targets.
 */

const NEG_INF = -Infinity;

/** lse over the candidates, stable, with a NaN-free gradient where every candidate is -inf. */
function logSumExp(xs: Tensor[]): Tensor {
  const st = stack(xs, 0);
  const m0 = amax(st.detach(), 0);
  const m = where(eq(m0, NEG_INF), 0, m0);
  const s = sum(exp(sub(st, m)), 0);
  const zero = eq(s, 0);
  return where(zero, NEG_INF, add(log(where(zero, 1, s)), m));
}

function lengthsOf(op: string, name: string, x: unknown): number[] {
  if (Array.isArray(x)) return x.map(Number);
  const t = x as Tensor;
  if (!isIntegralType(t.dtype, false)) throw new DTypeError(`${op}: ${name} must be integral`);
  if (t.dim() > 1) throw new ShapeError(`${op}: ${name} must be a 0-d or 1-d tensor`);
  return Array.from(reshape(t, [-1]).dataSync() as ArrayLike<number | bigint>, Number);
}

const CTC_OPTIONS = { method: false, namespaces: ['torch', 'nn.functional'], choices: { reduction: ['none', 'mean', 'sum'] } } as const;

/**
 * `F.ctcLoss(logProbs, targets, inputLengths, targetLengths, { blank, reduction, zeroInfinity })`:
 * log_probs [T, N, C] (or [T, C] unbatched), targets padded [N, S] or concatenated [sum
 * target_lengths], lengths as int arrays or integral tensors; `mean` divides each loss by its
 * target length (at least 1) and averages over the batch.
 */
export const ctcLoss = overloadedFront(
  [
    "ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, str reduction='mean', bool zero_infinity=False) -> Tensor",
    "ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, str reduction='mean', bool zero_infinity=False) -> Tensor",
  ],
  CTC_OPTIONS,
).run((call): Tensor => {
  const [logProbs, targets, inputLengths, targetLengths, blank, reduction, zeroInfinity] = call.values as [
    Tensor,
    Tensor,
    Tensor | number[],
    Tensor | number[],
    number,
    'none' | 'mean' | 'sum',
    boolean,
  ];
  return ctcLossImpl(logProbs, targets, inputLengths, targetLengths, blank, reduction, zeroInfinity);
});

function ctcLossImpl(
  logProbs: Tensor,
  targets: Tensor,
  inputLengths: Tensor | number[],
  targetLengths: Tensor | number[],
  blank: number,
  reduction: 'none' | 'mean' | 'sum',
  zeroInfinity: boolean,
): Tensor {
  const op = 'ctc_loss';
  if (reduction !== 'none' && reduction !== 'mean' && reduction !== 'sum') throw new TorchError(`${op}: ${String(reduction)} is not a valid value for reduction`);
  const lpImpl = unwrapTensor(op, 'log_probs', logProbs);
  const tgImpl = unwrapTensor(op, 'targets', targets);
  if (!isFloatingType(lpImpl.dtype)) throw new DTypeError(`${op}: "ctc_loss_cpu" not implemented for '${torchTypeName(lpImpl.dtype)}'`);
  if (lpImpl.dim !== 2 && lpImpl.dim !== 3) {
    throw new ShapeError(`${op}: log_probs must be 3-D (batch_size, input_length, num_labels) or 2-D unbatched, but got ${lpImpl.dim}-D`);
  }
  const unbatched = lpImpl.dim === 2;
  const il = lengthsOf(op, 'input_lengths', inputLengths);
  const tl = lengthsOf(op, 'target_lengths', targetLengths);
  const [T, N, C] = unbatched ? [lpImpl.sizes[0], 1, lpImpl.sizes[1]] : lpImpl.sizes;
  // PyTorch's checks, in its order (ctc_loss_cpu_template)
  if (!(blank >= 0 && blank < C)) throw new TorchError(`${op}: blank must be in label range`);
  if (il.length !== N) throw new ShapeError(`${op}: input_lengths must be of size batch_size`);
  if (tl.length !== N) throw new ShapeError(`${op}: target_lengths must be of size batch_size`);
  const concatenated = unbatched ? false : tgImpl.dim === 1;
  const offsets: number[] = [];
  let width = 0;
  if (concatenated) {
    let pos = 0;
    for (const n of tl) {
      offsets.push(pos);
      pos += n;
    }
    if (tgImpl.sizes[0] !== pos) {
      throw new ShapeError(`${op}: Expected tensor to have size ${pos} at dimension 0, but got size ${tgImpl.sizes[0]} for argument #2 'targets' (while checking arguments for ctc_loss_cpu)`);
    }
  } else {
    const tdims = unbatched ? [1, ...tgImpl.sizes] : tgImpl.sizes;
    if (tdims.length !== 2) throw new ShapeError(`${op}: targets must be 1-D (concatenated) or 2-D (padded), but got ${tgImpl.dim}-D`);
    if (tdims[0] !== N) {
      throw new ShapeError(`${op}: Expected tensor to have size ${N} at dimension 0, but got size ${tdims[0]} for argument #2 'targets' (while checking arguments for ctc_loss_cpu)`);
    }
    width = tdims[1];
    const maxTl = Math.max(0, ...tl);
    if (width < maxTl) {
      throw new ShapeError(`${op}: Expected tensor to have size at least ${maxTl} at dimension 1, but got size ${width} for argument #2 'targets' (while checking arguments for ctc_loss_cpu)`);
    }
    for (let b = 0; b < N; b++) offsets.push(b * width);
  }
  for (const n of il) {
    if (n > T) throw new ShapeError(`${op}: Expected input_lengths to have value at most ${T}, but got value ${n} (while checking arguments for ctc_loss_cpu)`);
  }
  const L = Math.max(0, ...tl);
  const S = 2 * L + 1;
  const device = logProbs.device;
  return tidy(() => {
    const lp = unbatched ? unsqueeze(logProbs, 1) : logProbs;
    // l' on the device: odd states gather their label from the flat targets, even ones are blank
    const labelIndex = (b: number, l: number) => offsets[b] + Math.min(Math.max(l, 0), Math.max(tl[b] - 1, 0));
    const idx: number[] = [];
    const prevIdx: number[] = [];
    const oddMask: boolean[] = [];
    const skipHost: boolean[] = [];
    for (let b = 0; b < N; b++) {
      for (let s = 0; s < S; s++) {
        idx.push(labelIndex(b, (s - 1) >> 1));
        prevIdx.push(labelIndex(b, (s - 3) >> 1));
        oddMask.push(s % 2 === 1);
        skipHost.push(s % 2 === 1 && s >= 3);
      }
    }
    const onDevice = (data: number[] | boolean[], dtype: 'int64' | 'bool') => reshape(tensor(data, { dtype, device }), [N, S]);
    let ext: Tensor;
    let skip: Tensor;
    if (L === 0) {
      ext = onDevice(new Array<number>(N * S).fill(blank), 'int64');
      skip = onDevice(new Array<boolean>(N * S).fill(false), 'bool');
    } else {
      const flat = to(reshape(targets, [-1]), 'int64');
      const labels = gather(flat, 0, tensor(idx, { dtype: 'int64', device }));
      const prev = gather(flat, 0, tensor(prevIdx, { dtype: 'int64', device }));
      ext = where(onDevice(oddMask, 'bool'), reshape(labels, [N, S]), blank);
      skip = where(onDevice(skipHost, 'bool'), reshape(ne(labels, prev), [N, S]), false);
    }
    const lpExt = gather(lp, 2, expand(unsqueeze(ext, 0), [T, N, S])); // [T, N, S]
    const first = onDevice(
      Array.from({ length: N * S }, (_, i) => i % S === 0 || (i % S === 1 && tl[Math.floor(i / S)] > 0)),
      'bool',
    );
    const maxIl = Math.max(0, ...il);
    const endMask = (t: number) => reshape(tensor(il.map((n) => n - 1 === t), { dtype: 'bool', device }), [N, 1]);
    let final = where(onDevice(new Array<boolean>(N * S).fill(true), 'bool'), NEG_INF, select(lpExt, 0, 0));
    let alpha = where(first, select(lpExt, 0, 0), NEG_INF);
    if (il.includes(1)) final = where(endMask(0), alpha, final);
    const shift = (a: Tensor, k: number) => narrow(pad(a, [k, 0], 'constant', NEG_INF), 1, 0, S);
    for (let t = 1; t < maxIl; t++) {
      const a2 = where(skip, shift(alpha, 2), NEG_INF);
      alpha = add(logSumExp([alpha, shift(alpha, 1), a2]), select(lpExt, 0, t));
      if (il.includes(t + 1)) final = where(endMask(t), alpha, final);
    }
    // -lse(alpha_{T_b - 1}(2L_b), alpha_{T_b - 1}(2L_b - 1))
    const endIdx = tensor(tl.map((n) => 2 * n), { dtype: 'int64', device });
    const endIdx1 = tensor(tl.map((n) => Math.max(2 * n - 1, 0)), { dtype: 'int64', device });
    const l1 = squeeze(gather(final, 1, reshape(endIdx, [N, 1])), 1);
    const l2 = where(tensor(tl.map((n) => n > 0), { dtype: 'bool', device }), squeeze(gather(final, 1, reshape(endIdx1, [N, 1])), 1), NEG_INF);
    let nll = neg(logSumExp([l1, l2]));
    // PyTorch's gradient (Note [CTC as a composite]): + sum_{t < T_b, c} (exp(lp) - detach(exp(lp))) = 0
    const e = exp(lp);
    const inTime = reshape(tensor(Array.from({ length: T * N }, (_, i) => Math.floor(i / N) < il[i % N]), { dtype: 'bool', device }), [T, N, 1]);
    nll = add(nll, sum(where(inTime, sub(e, e.detach()), 0), [0, 2]));
    if (zeroInfinity) nll = where(eq(nll, Infinity), 0, nll);
    if (reduction === 'none') return unbatched ? squeeze(nll, 0) : nll;
    if (reduction === 'sum') return sum(nll);
    const lengths = clampMin(tensor(tl, { dtype: nll.dtype, device }), 1);
    return mean(div(nll, lengths));
  });
}
