/**
 * Handles over batched tensors for the transforms (torch's func/): wrapping a vmap's inputs,
 * unwrapping its outputs, and the fully physical view that `grad` differentiates (Note
 * [Batched tensors]).
 */
import { Tensor } from '../tensor/tensor';
import { atLevel, BatchedTensorImpl, maxLevel, vmapLevelSize, wrapBatched, type VmapLevel } from './batched-tensor';

export function isBatchedTensor(t: Tensor): boolean {
  return t.impl instanceof BatchedTensorImpl;
}

/** `t` batched at `level` along `bdim` (a new handle; `t` stays the caller's). */
export function makeBatched(t: Tensor, bdim: number, level: number): Tensor {
  return new Tensor(wrapBatched(t.impl, bdim, level));
}

/** `t`'s physical value at `level` with its batch dim, or null where `t` is not batched there. */
export function unwrapBatched(t: Tensor, level: number): { value: Tensor; bdim: number } | null {
  const b = atLevel(t.impl, level);
  return b ? { value: new Tensor(b.value.retain()), bdim: b.bdim } : null;
}

/**
 * `t` as a plain tensor of shape [N_1, ..., N_k, ...logical] for the open `levels`
 * (outermost first): each level's batch dim moved to the front, a level `t` is not batched
 * at expanded (a view), so every sample of every level has its own slot.
 */
export function toPhysical(t: Tensor, levels: readonly VmapLevel[]): Tensor {
  let x = t;
  for (let k = levels.length - 1; k >= 0; k--) {
    const { level, size } = levels[k];
    const u = unwrapBatched(x, level);
    x = u ? u.value.movedim(u.bdim, 0) : x.unsqueeze(0).expand([size, ...x.shape]);
  }
  return x;
}

/** The inverse of `toPhysical`: a plain [N_1, ..., N_k, ...] tensor batched at each of `levels`. */
export function fromPhysical(p: Tensor, levels: readonly VmapLevel[]): Tensor {
  let x = p;
  for (const { level } of levels) x = makeBatched(x, 0, level);
  return x;
}

/** Every sample's values of `t` at once (the innermost physical value, all levels unwrapped): for whole-input checks a front end makes on the host. */
export function allSamples(t: Tensor): Tensor {
  let impl = t.impl;
  while (impl instanceof BatchedTensorImpl) impl = impl.value;
  return impl === t.impl ? t : new Tensor(impl.retain());
}

/**
 * A fresh copy of `self` to write `others` into (a functional form's clone: index_put's): where
 * one of `others` (tensors, or arrays of them) is batched at a vmap level `self` is not
 * batched at, the copy is `self` expanded over that level's batch and batched there, so
 * per-sample writes have a sample to land in (functorch's index_put rule expands self so).
 * Otherwise (no vmap, or self batched there) a plain clone.
 */
export function cloneToWrite(self: Tensor, others: readonly unknown[]): Tensor {
  const flat = others.flatMap((o) => (Array.isArray(o) ? o : [o])).map((o) => (o instanceof Tensor ? o.impl : o));
  const level = maxLevel([self.impl, ...flat]);
  if (level === 0 || atLevel(self.impl, level)) return self.clone();
  const size = vmapLevelSize(level);
  const u = self.unsqueeze(0);
  const e = u.expand([size, ...self.shape]);
  const copy = e.clone();
  try {
    return makeBatched(copy, 0, level);
  } finally {
    for (const t of [u, e, copy]) t.dispose();
  }
}
