/**
 * What nn, optim and utils share: core's tensor API and two autograd-state helpers that
 * PyTorch users get from attribute assignment (`p.grad = None`, `p.grad = g`).
 */
import { Tensor, TorchError } from '@torch-ts/core';
import { noGrad } from '@torch-ts/autograd';

export { Tensor, TorchError };

/** Runs `fn` with gradient recording off (as `with torch.no_grad():`). */
export function noGradGuard<T>(fn: () => T): T {
  return noGrad(fn);
}

/** `p.grad = g` (or `= None` with null), Tensor's setter with PyTorch's checks (Note [Reading .grad]). */
export function setGrad(p: Tensor, g: Tensor | null): void {
  p.grad = g;
}

/** Whether a leaf currently holds a gradient, without making a handle for it. */
export function hasGrad(p: Tensor): boolean {
  return (p.impl.autogradMeta?.grad ?? null) !== null;
}

/**
 * A handle of the caller's own on `p`'s gradient (null if none), to dispose when done. Library
 * code reads gradients through it, never through `p.grad`: that handle is shared with the
 * user (Note [Reading .grad]), and disposing it would dispose one the user may hold.
 */
export function ownGrad(p: Tensor): Tensor | null {
  const g = p.impl.autogradMeta?.grad ?? null;
  return g === null ? null : new Tensor(g.retain());
}

/** Calls `fn(grad)` with a temporary handle on `p`'s gradient (disposed afterwards); nothing if none. */
export function withGrad<T>(p: Tensor, fn: (g: Tensor) => T): T | undefined {
  const g = ownGrad(p);
  if (g === null) return undefined;
  try {
    return fn(g);
  } finally {
    g.dispose();
  }
}
