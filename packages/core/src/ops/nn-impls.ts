import { isFloatingType, type DType } from '../dtype';
import { TensorImpl } from '../tensor/tensor-impl';
import { contiguousStrides } from '../views';
import { implOf, type Backend } from './registry';

/**
 * Note [NN kernels take contiguous float32/float64 operands]
 * The fused NN ops (softmax, nll_loss, batch/layer norm, embedding) reduce along a dim or
 * gather rows, so core hands their impls contiguous tensors in the op's compute dtype
 * (float64 for float64, float32 for every other floating dtype, as PyTorch's opmath):
 * float16/bfloat16 inputs are widened by core and the result is rounded once on store by
 * the backend's copy. The impls then only need flat typed-array loops (no strides, no
 * per-element dtype dispatch). Shapes are passed as [outer, size, inner] style numbers.
 */
export type PointwiseLossKind = 'mse' | 'smoothL1' | 'bce' | 'bcewl';

export interface NnImpls {
  /**
   * Softmax (or log-softmax) of `self` viewed as [outer, size, inner] along the middle dim,
   * into `out` of the same shape and dtype.
   */
  softmax: (out: TensorImpl, self: TensorImpl, outer: number, size: number, inner: number, log: boolean) => void;
  /**
   * The input gradient of softmax (`out * (grad - sum(grad * out))`) or log-softmax
   * (`grad - exp(out) * sum(grad)`), all operands [outer, size, inner], one dtype.
   */
  softmaxBackward: (gradInput: TensorImpl, grad: TensorImpl, output: TensorImpl, outer: number, size: number, inner: number, log: boolean) => void;
  /**
   * nll_loss over `self` [n, c, s] (log-probabilities), `target` int64 [n * s], `weight` [c]
   * or null. reduction 0 (none): `output` is [n * s]; 1 (mean) / 2 (sum): 0-dim. `totalWeight`
   * (0-dim) gets the sum of the weights of the targets that are not ignored. Throws an
   * IndexError for a target outside [0, c) that is not `ignoreIndex`.
   */
  nllLoss: (
    output: TensorImpl,
    totalWeight: TensorImpl,
    self: TensorImpl,
    target: TensorImpl,
    weight: TensorImpl | null,
    n: number,
    c: number,
    s: number,
    reduction: number,
    ignoreIndex: number,
  ) => void;
  /** The gradient of nll_loss w.r.t. `self`: `gradInput` [n, c, s] (written whole). */
  nllLossBackward: (
    gradInput: TensorImpl,
    grad: TensorImpl,
    target: TensorImpl,
    weight: TensorImpl | null,
    totalWeight: TensorImpl,
    n: number,
    c: number,
    s: number,
    reduction: number,
    ignoreIndex: number,
  ) => void;
  /**
   * Batch norm of `self` [n, c, s] per channel. training: the batch statistics go to `mean`
   * and `invstd` ([c]) and the running stats (when given) are updated in place as PyTorch
   * does (unbiased variance into `runningVar`); otherwise the running stats normalise.
   */
  batchNorm: (
    out: TensorImpl,
    mean: TensorImpl,
    invstd: TensorImpl,
    self: TensorImpl,
    weight: TensorImpl | null,
    bias: TensorImpl | null,
    runningMean: TensorImpl | null,
    runningVar: TensorImpl | null,
    n: number,
    c: number,
    s: number,
    training: boolean,
    momentum: number,
    eps: number,
  ) => void;
  /**
   * `batchNorm` of a dense channels-last `self` [N, C, H, W] into a dense channels-last `out`
   * (Note [Channels-last pooling impls] in pool-channels-last.ts), in the compute dtype;
   * mean, invstd, weight, bias and the running stats as `batchNorm`. Returns false, before
   * writing anything (the running stats included), to decline.
   */
  batchNormChannelsLast: (
    out: TensorImpl,
    mean: TensorImpl,
    invstd: TensorImpl,
    self: TensorImpl,
    weight: TensorImpl | null,
    bias: TensorImpl | null,
    runningMean: TensorImpl | null,
    runningVar: TensorImpl | null,
    training: boolean,
    momentum: number,
    eps: number,
  ) => boolean | void;
  /**
   * `batchNormBackward` on a dense channels-last `self` and `grad` [N, C, H, W] into a dense
   * channels-last `gradInput` (Note [Channels-last pooling impls]), all in the compute dtype;
   * any output null when not needed. False, before writing anything, declines.
   */
  batchNormBackwardChannelsLast: (
    gradInput: TensorImpl | null,
    gradWeight: TensorImpl | null,
    gradBias: TensorImpl | null,
    grad: TensorImpl,
    self: TensorImpl,
    weight: TensorImpl | null,
    mean: TensorImpl,
    invstd: TensorImpl,
    training: boolean,
  ) => boolean | void;
  /**
   * Batch norm's input/weight/bias gradients from the saved statistics (training) or the
   * running ones (eval: `mean`/`invstd` then hold the running mean and 1/sqrt(var + eps)).
   * Any output may be null when not needed.
   */
  batchNormBackward: (
    gradInput: TensorImpl | null,
    gradWeight: TensorImpl | null,
    gradBias: TensorImpl | null,
    grad: TensorImpl,
    self: TensorImpl,
    weight: TensorImpl | null,
    mean: TensorImpl,
    invstd: TensorImpl,
    n: number,
    c: number,
    s: number,
    training: boolean,
  ) => void;
  /**
   * Group norm of a dense channels-last `self` [N, C, H, W] in the compute dtype into a dense
   * channels-last `out` (Note [Channels-last pooling impls]): per (n, group) the mean and
   * 1 / sqrt(biased var + eps) over the group's C / groups channels and H W positions (two
   * passes) into `mean` and `rstd` (contiguous [N, groups]); weight and bias ([C], contiguous,
   * or null) fused. Optional (OptionalImplName); false, before writing anything, declines.
   */
  groupNormChannelsLast: (
    out: TensorImpl,
    mean: TensorImpl,
    rstd: TensorImpl,
    self: TensorImpl,
    weight: TensorImpl | null,
    bias: TensorImpl | null,
    groups: number,
    eps: number,
  ) => boolean | void;
  /**
   * Group norm's gradients from a dense channels-last `self` and `grad` [N, C, H, W] and the
   * forward's `mean` / `rstd` [N, groups], all in the compute dtype: `gradInput` is
   * *contiguous* [N, C, H, W] (PyTorch 1.13's native_group_norm_backward allocates it so,
   * whatever the input's layout), `gradWeight` / `gradBias` [C]; any output null when not
   * needed. Optional; false, before writing anything, declines.
   */
  groupNormBackwardChannelsLast: (
    gradInput: TensorImpl | null,
    gradWeight: TensorImpl | null,
    gradBias: TensorImpl | null,
    grad: TensorImpl,
    self: TensorImpl,
    mean: TensorImpl,
    rstd: TensorImpl,
    weight: TensorImpl | null,
    groups: number,
  ) => boolean | void;
  /** Layer norm of `self` [m, k] over its rows; `mean`/`rstd` [m]; weight/bias [k] or null. */
  layerNorm: (out: TensorImpl, mean: TensorImpl, rstd: TensorImpl, self: TensorImpl, weight: TensorImpl | null, bias: TensorImpl | null, m: number, k: number, eps: number) => void;
  /** Layer norm's gradients (any output null when not needed). */
  layerNormBackward: (
    gradInput: TensorImpl | null,
    gradWeight: TensorImpl | null,
    gradBias: TensorImpl | null,
    grad: TensorImpl,
    self: TensorImpl,
    mean: TensorImpl,
    rstd: TensorImpl,
    weight: TensorImpl | null,
    m: number,
    k: number,
  ) => void;
  /**
   * Rows of `weight` [v, d] picked by int64 `indices` [n] into `out` [n, d] (any dtype: rows
   * are moved as raw bits). Throws an IndexError for an index outside [0, v).
   */
  embedding: (out: TensorImpl, weight: TensorImpl, indices: TensorImpl, n: number, v: number, d: number) => void;
  /**
   * A pointwise loss over `n` elements (self, target and the optional weight / pos_weight
   * already broadcast to one shape and contiguous): 'mse' (x - t)^2; 'smoothL1' with `beta`;
   * 'bce' -w (t log x + (1 - t) log(1 - x)), logs clamped at -100; 'bcewl' (1 - t) x -
   * (1 + (pw - 1) t) logsigmoid(x), times w. `out` is [n] (reduction 0) or 0-dim (1 mean, 2 sum).
   */
  pointwiseLoss: (
    out: TensorImpl,
    kind: PointwiseLossKind,
    self: TensorImpl,
    target: TensorImpl,
    weight: TensorImpl | null,
    posWeight: TensorImpl | null,
    n: number,
    reduction: number,
    beta: number,
  ) => void;
  /** `gradWeight` [v, d] (zeroed by the impl) += `grad` rows [n, d] at `indices`, skipping `paddingIdx`. */
  embeddingBackward: (gradWeight: TensorImpl, grad: TensorImpl, indices: TensorImpl, n: number, v: number, d: number, paddingIdx: number) => void;
}

// ---- helpers shared by the NN ops' meta (core side) ----
/** PyTorch's opmath type of a floating dtype on CPU: float64 stays, the others compute in float32. */
export function computeDtypeOf(d: DType): 'float32' | 'float64' {
  return d === 'float64' ? 'float64' : 'float32';
}

export function isNnFloat(d: DType): boolean {
  return isFloatingType(d);
}

/** `t` contiguous in `dtype` (retained when it already is); the caller owns one reference. */
export function contiguousAs(b: Backend, op: string, t: TensorImpl, dtype: DType): TensorImpl {
  if (t.dtype === dtype && t.isContiguous) return t.retain();
  const out = TensorImpl.emptyStrided(op, t.sizes, contiguousStrides(t.sizes), dtype, t.device);
  try {
    implOf(b, 'copy', op)(out, t);
  } catch (e) {
    out.release();
    throw e;
  }
  return out;
}

/**
 * Runs `fill(target)` where `target` is `dst` itself when it already has the compute dtype,
 * else a contiguous compute-dtype scratch copied (rounded) into `dst` afterwards.
 */
export function intoCompute(b: Backend, op: string, dst: TensorImpl, compute: DType, fill: (target: TensorImpl) => void): void {
  if (dst.dtype === compute && dst.isContiguous) {
    fill(dst);
    return;
  }
  const tmp = TensorImpl.emptyStrided(op, dst.sizes, contiguousStrides(dst.sizes), compute, dst.device);
  try {
    fill(tmp);
    implOf(b, 'copy', op)(dst, tmp);
  } finally {
    tmp.release();
  }
}
