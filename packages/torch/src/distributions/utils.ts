import { Tensor, TorchTypeError, broadcastShapes, countsAreAsync, empty, getDefaultDtype, tensor, toDevice, type DType, type DeviceLike, finfo } from '@torch-ts/core';

/** A distribution's parameter as given: a Tensor or a number. */
export type Param = Tensor | number;

/**
 * PyTorch's `broadcast_all`: numbers become tensors of the first tensor's dtype and device (or
 * the default dtype when all are numbers), then every value is expanded to the common shape.
 */
export function broadcastAll(...values: unknown[]): Tensor[] {
  const like = values.find((v): v is Tensor => v instanceof Tensor);
  const dtype: DType = like?.dtype ?? getDefaultDtype();
  const device = like?.device;
  const ts = values.map((v) => {
    if (v instanceof Tensor) return v;
    if (typeof v === 'number') return tensor(v, { dtype, device });
    throw new TorchTypeError('Input arguments must all be instances of numbers.Number, torch.Tensor or objects implementing __torch_function__.');
  });
  const shape = broadcastShapes('broadcast_all', ...ts.map((t) => t.shape));
  return ts.map((t) => (sameShape(t.shape, shape) ? t : t.expand(shape)));
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** Probabilities clamped to [eps, 1 - eps] of their dtype (PyTorch's `clamp_probs`). */
export function clampProbs(probs: Tensor): Tensor {
  const eps = finfo(probs.dtype).eps;
  return probs.clamp(eps, 1 - eps);
}

/** PyTorch's `probs_to_logits`: log-odds for a binary distribution, log-probabilities otherwise. */
export function probsToLogits(probs: Tensor, isBinary = false): Tensor {
  const p = clampProbs(probs);
  return isBinary ? p.log().sub(p.neg().log1p()) : p.log();
}

/** PyTorch's `logits_to_probs`: the sigmoid for a binary distribution, the softmax over the last dim otherwise. */
export function logitsToProbs(logits: Tensor, isBinary = false): Tensor {
  return isBinary ? logits.sigmoid() : logits.softmax(-1);
}

/** The sum over the rightmost `n` dims (PyTorch's `_sum_rightmost`). */
export function sumRightmost(value: Tensor, n: number): Tensor {
  if (n === 0) return value;
  return value.reshape([...value.shape.slice(0, value.dim() - n), -1]).sum(-1);
}

/**
 * Standard normal draws of `shape` (PyTorch's `_standard_normal`: `normal_()` of an empty
 * tensor, so the values are PyTorch's for the same generator state on the CPU).
 */
export function standardNormal(shape: readonly number[], dtype: DType, device: DeviceLike): Tensor {
  return empty([...shape], { dtype, device }).normal_();
}

/**
 * Standard exponential draws of `shape`: PyTorch's CPU `exponential_()` draws a double
 * uniform u for every element, float32 tensors included, and gives -log1p(-u) rounded once;
 * this draws the same doubles and computes the same. A device without float64 draws in the
 * dtype (its values are its own, as its other random ops').
 */
export function standardExponential(shape: readonly number[], dtype: DType, device: DeviceLike): Tensor {
  const onHost = toDevice('exponential', device).type === 'cpu';
  const u = empty([...shape], { dtype: onHost ? 'float64' : dtype, device }).uniform_();
  return u.neg().log1p().neg().to(dtype);
}

/**
 * Whether every element of the bool tensor `valid` is true; null where the device cannot be
 * read synchronously (WebGPU: argument validation is skipped there, Note [Validation of
 * distribution arguments]).
 */
export function allTrue(valid: Tensor): boolean | null {
  if (countsAreAsync(valid.device)) return null;
  return valid.all().item() === true;
}

/** Python's `tuple(shape)`: `()`, `(2,)`, `(2, 3)`. */
export function pyTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/** Python's `torch.Size([2, 3])`. */
export function pySize(shape: readonly number[]): string {
  return `torch.Size([${shape.join(', ')}])`;
}

/**
 * A tensor as Python's `'{}'.format(t)` prints it: a 0-dim tensor as its value (`-1.0`, via
 * `item().__format__`), any other as its repr.
 */
export function pyFormat(t: Tensor): string {
  if (t.dim() !== 0) return String(t);
  const v = t.item();
  return typeof v === 'number' && t.isFloatingPoint() ? pyFloat(v) : String(v === true ? 'True' : v === false ? 'False' : v);
}

/** Python's repr of a float: `0.0`, `1.5`, `inf`. */
export function pyFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}
