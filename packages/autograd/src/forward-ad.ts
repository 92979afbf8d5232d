import { AutogradError, Tensor, TensorImpl, callBoxed, getOperator, isComplexType, isFloatingType, zeros } from '@torch-ts/core';
import { ensureMeta, metaOf, type AutogradMeta } from './autograd-meta';

/**
 * Note [Forward-mode AD]
 * `torch.autograd.forwardAd`, as PyTorch 1.13's `torch.autograd.forward_ad`:
 *  - a tangent lives on its tensor's AutogradMeta (`fwGrad`, PyTorch's ForwardGrad) for the
 *    duration of one dual level. PyTorch 1.13 has one level at a time ("Nested forward mode AD
 *    is not supported at the moment"), and so do we: the level is 0 and exiting it drops every
 *    tangent (`duals` remembers which metas hold one);
 *  - the Autograd kernel of every op with a derivative entry (kernels.ts) computes the tangents
 *    of its outputs when an input has one (forward-jvp.ts: a view's tangent is the same view
 *    of its input's tangent; every other op's JVP is derived from its backward formula);
 *  - an in-place op writes its new tangent into `self`'s tangent (copy_), so views of that
 *    tangent see it, as PyTorch does; an in-place op on a view of a base without a tangent
 *    first gives the base a zero tangent laid out as the base, and the view a view of it;
 *  - a tangent whose layout differs from its primal's (other strides, another storage size)
 *    is copied into one laid out as the primal (PyTorch's `new_with_same_meta`); one with the
 *    same layout is kept as is, so `unpackDual(makeDual(x, t)).tangent` is `t`'s data.
 * Tangents are computed from detached primals unless a primal or a tangent requires grad
 * with grad mode on: then they carry the reverse-mode history of what they were computed
 * from (Note [Reverse-over-forward] in forward-jvp.ts). Forward-over-reverse (a `grad` with
 * `createGraph` on dual inputs, giving Hessian-vector products) works too: the backward
 * formulas' ops are ordinary ops on dual tensors. Forward AD runs in the Autograd kernels,
 * which `noGrad` inside a dual level keeps running, for the tangents only (Note [noGrad
 * keeps forward AD] in grad-mode.ts), and a `noGrad` entered before the dual level too: the
 * level's entry switches it to the same mode (`enterHook`, set by grad-mode.ts, which imports
 * this file) until the level exits.
 */
let level = -1;
/** >0 while a JVP is being computed: its inner ops compute no tangents of their own. */
let suppressed = 0;
const duals = new Set<AutogradMeta>();
/** Run at a level's entry; its guard is disposed at the level's exit (Note [noGrad keeps forward AD]). */
let enterHook: (() => Disposable | null) | null = null;
let exitGuard: Disposable | null = null;

/** Registers the hook run at each dual level's entry (grad-mode.ts's `noGradSwitchForDualLevel`). */
export function setDualLevelEnterHook(hook: () => Disposable | null): void {
  enterHook = hook;
}

/** Whether a dual level is active (Note [noGrad keeps forward AD]). */
export function forwardLevelActive(): boolean {
  return level >= 0;
}

/** Whether ops should compute tangents now. */
export function forwardActive(): boolean {
  return level >= 0 && suppressed === 0;
}

/** `impl`'s tangent at the current level, or null. */
export function tangentOf(impl: TensorImpl): TensorImpl | null {
  return level >= 0 ? (metaOf(impl)?.fwGrad ?? null) : null;
}

/** Sets `impl`'s tangent (the meta takes its own reference). */
export function setTangent(impl: TensorImpl, t: TensorImpl): void {
  const meta = ensureMeta(impl);
  meta.setFwGrad(t);
  duals.add(meta);
}

/** Runs `fn` with tangent propagation off (a JVP's own ops, a primal's alias). */
export function withoutForward<T>(fn: () => T): T {
  suppressed++;
  try {
    return fn();
  } finally {
    suppressed--;
  }
}

export function enterDualLevel(): number {
  if (level >= 0) throw new AutogradError('enterDualLevel: Nested forward mode AD is not supported at the moment');
  level = 0;
  exitGuard = enterHook?.() ?? null;
  return level;
}

export function exitDualLevel(options?: { level?: number }): void {
  const l = options?.level ?? level;
  if (level < 0 || l !== level) {
    throw new AutogradError(`exitDualLevel: Trying to exit a forward AD level that was not the last one that was created. This is not supported.`);
  }
  for (const m of duals) m.setFwGrad(null);
  duals.clear();
  level = -1;
  const g = exitGuard;
  exitGuard = null;
  g?.[Symbol.dispose]();
}

class DualLevelGuard implements Disposable {
  readonly level = enterDualLevel();
  [Symbol.dispose](): void {
    exitDualLevel({ level: this.level });
  }
}

/** `forwardAd.dualLevel(() => ...)`, or `using _ = forwardAd.dualLevel()`: a dual level for the callback or the scope. */
export function dualLevel(): Disposable;
export function dualLevel<T>(fn: () => T): T;
export function dualLevel<T>(fn?: () => T): T | Disposable {
  const guard = new DualLevelGuard();
  if (!fn) return guard;
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}

/** A view of all of `t` (aten::alias, AliasBackward0 for reverse mode) with no tangent of its own. */
function alias(t: Tensor): Tensor {
  return withoutForward(() => new Tensor(callBoxed(getOperator('alias'), [t.impl]) as TensorImpl));
}

const differentiable = (dtype: TensorImpl['dtype']) => isFloatingType(dtype) || isComplexType(dtype);

/** Whether `t` lies on its storage exactly as `like` (PyTorch's `has_same_meta`). */
export function sameLayout(t: TensorImpl, like: TensorImpl): boolean {
  return (
    t.storageOffset === like.storageOffset &&
    t.storage.nbytes === like.storage.nbytes &&
    t.sizes.every((n, i) => n === like.sizes[i]) &&
    t.strides.every((s, i) => s === like.strides[i] || like.sizes[i] <= 1)
  );
}

/** A zero tensor laid out as `like` (dense strides kept; an overlapping layout gets contiguous ones). */
export function zerosLaidOutAs(like: TensorImpl): TensorImpl {
  const overlapping = like.strides.some((s, i) => s === 0 && like.sizes[i] > 1);
  if (overlapping) return zeros([...like.sizes], { dtype: like.dtype, device: like.device }).impl.retain();
  const t = TensorImpl.emptyStrided('makeDual', like.sizes, like.strides, like.dtype, like.device);
  withoutForward(() => callBoxed(getOperator('fill_.Scalar'), [t, 0]));
  return t;
}

/** `tangent` stored for `primal`: itself when laid out alike, else a copy laid out as `primal`. */
function tangentLaidOutAs(primal: TensorImpl, tangent: TensorImpl): TensorImpl {
  if (sameLayout(tangent, primal)) return tangent.retain();
  const t = zerosLaidOutAs(primal);
  withoutForward(() => callBoxed(getOperator('copy_'), [t, tangent, false]));
  return t;
}

/** `forwardAd.makeDual(primal, tangent)`: a view of `primal` whose tangent is `tangent`. */
export function makeDual(tensor: Tensor, tangent: Tensor, options?: { level?: number }): Tensor {
  if (level < 0) {
    throw new AutogradError('makeDual: Trying to create a dual Tensor for forward AD but no level exists, make sure to enterDualLevel() first.');
  }
  if (options?.level !== undefined && options.level !== level) throw new AutogradError(`makeDual: level ${options.level} is not the current level ${level}`);
  if (!differentiable(tensor.dtype)) throw new AutogradError(`makeDual: Expected primal to be floating point or complex, but got: ${tensor.dtype}`);
  if (!differentiable(tangent.dtype)) throw new AutogradError(`makeDual: Expected tangent to be floating point or complex, but got: ${tangent.dtype}`);
  const p = tensor.impl;
  const t = tangent.impl;
  if (p.sizes.length !== t.sizes.length || p.sizes.some((n, i) => n !== t.sizes[i])) {
    throw new AutogradError(
      `makeDual: Trying to set a forward gradient that has a different size than that of the original Tensor, this is not supported. Tensor is of size [${p.sizes.join(', ')}] while the given forward gradient is of size [${t.sizes.join(', ')}].`,
    );
  }
  if (p.dtype !== t.dtype) {
    throw new AutogradError(`makeDual: Expected tangent to have the same dtype as the primal (${p.dtype}), but got: ${t.dtype}`);
  }
  const out = alias(tensor);
  const stored = tangentLaidOutAs(out.impl, t);
  setTangent(out.impl, stored);
  stored.release();
  return out;
}

/** What `unpackDual` returns: `{ primal, tangent }`, also `[primal, tangent]`. */
export type UnpackedDual = readonly [primal: Tensor, tangent: Tensor | null] & { readonly primal: Tensor; readonly tangent: Tensor | null };

/** `forwardAd.unpackDual(t)`: a view of `t` without its tangent, and the tangent (null when it has none). */
export function unpackDual(tensor: Tensor, options?: { level?: number }): UnpackedDual {
  void options;
  const t = tangentOf(tensor.impl);
  const primal = t === null ? tensor : alias(tensor);
  const tangent = t === null ? null : new Tensor(t.retain());
  return Object.assign([primal, tangent] as const, { primal, tangent });
}
