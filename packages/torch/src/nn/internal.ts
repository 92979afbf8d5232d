/**
 * What nn, optim and utils share: core's tensor API and two autograd-state helpers that
 * PyTorch users get from attribute assignment (`p.grad = None`, `p.grad = g`).
 */
import { Tensor, TorchError, type TensorImpl } from '@torch-ts/core';
import { noGrad } from '@torch-ts/autograd';

export { Tensor, TorchError };

/** Runs `fn` with gradient recording off (as `with torch.no_grad():`). */
export function noGradGuard<T>(fn: () => T): T {
  return noGrad(fn);
}

/**
 * `p.grad = g` (or `= None` with null): replaces a leaf's accumulated gradient. The meta
 * owns one reference on its grad (Note [AutogradMeta ownership]), so the old one is
 * released and the new one retained; the caller keeps its own handle on `g`.
 */
export function setGrad(p: Tensor, g: Tensor | null): void {
  const meta = p.impl.autogradMeta as (null | { grad: TensorImpl | null; setGrad?: (g: TensorImpl | null) => void });
  if (meta === null) {
    if (g === null) return;
    throw new TorchError('setGrad: the tensor does not require grad, so it cannot hold a gradient');
  }
  if (g !== null && (g.dtype !== p.dtype || g.device.type !== p.device.type)) {
    throw new TorchError(`setGrad: assigned grad has data type ${g.dtype} on ${g.device}, but the tensor is ${p.dtype} on ${p.device}`);
  }
  if (g !== null && g.shape.join() !== p.shape.join()) {
    throw new TorchError(`setGrad: assigned grad has shape [${g.shape.join(', ')}] but the tensor has shape [${p.shape.join(', ')}]`);
  }
  if (meta.setGrad) {
    meta.setGrad(g === null ? null : g.impl);
    return;
  }
  const old = meta.grad;
  meta.grad = g === null ? null : g.impl.retain();
  old?.release();
}

/** Whether a leaf currently holds a gradient, without making a handle for it. */
export function hasGrad(p: Tensor): boolean {
  return (p.impl.autogradMeta?.grad ?? null) !== null;
}

/** Calls `fn(grad)` with a temporary handle on `p.grad` (disposed afterwards); nothing if none. */
export function withGrad<T>(p: Tensor, fn: (g: Tensor) => T): T | undefined {
  const g = p.grad;
  if (g === null) return undefined;
  try {
    return fn(g);
  } finally {
    g.dispose();
  }
}
