import { TorchError, type Tensor } from '@torch-ts/core';

/**
 * Note [Saved tensors hooks]
 * PyTorch's `torch.autograd.graph.saved_tensors_hooks(pack, unpack)`: while the hooks are
 * installed, every tensor an op saves for backward goes through `pack(tensor)` at forward
 * time, and the saved variable keeps only what `pack` returned; in backward, `unpack(packed)`
 * gives the tensor back. Only the innermost pair applies, as in PyTorch. This is the
 * mechanism of non-reentrant checkpointing (utils/checkpoint in @torch-ts/torch), of offloading
 * saved activations, and of compressing them.
 *
 * Lifetimes (JavaScript has no GC-driven tensor release to lean on):
 *  - the tensor given to `pack` is a handle owned by the saved variable. If `pack` returns
 *    it, the saved variable keeps it and releases it with the graph; otherwise it is released
 *    as soon as `pack` returns (so a hook that drops it really frees the activation);
 *  - a tensor `pack` returns (a copy, a view) is likewise owned by the saved variable and
 *    released with the graph, and so is any packed object with a `[Symbol.dispose]` method
 *    (disposed then); any other value is the hook's own business;
 *  - `unpack` may return a fresh tensor (it is released with the backward's temporaries) or
 *    one it keeps; the formula gets a handle of its own on the same data.
 * The version check of Note [Saved variables] still holds: the saved variable keeps the
 * saved tensor's version counter (not its data) and compares on unpack, as PyTorch does.
 */
export interface SavedTensorsHooks {
  readonly pack: (tensor: Tensor) => unknown;
  readonly unpack: (packed: unknown) => Tensor;
}

const stack: SavedTensorsHooks[] = [];

/** The hooks new saved variables go through (the innermost pair), or null. */
export function currentSavedTensorsHooks(): SavedTensorsHooks | null {
  return stack.length ? stack[stack.length - 1] : null;
}

class SavedTensorsHooksGuard implements Disposable {
  private done = false;
  constructor(private readonly hooks: SavedTensorsHooks) {
    stack.push(hooks);
  }

  [Symbol.dispose](): void {
    if (this.done) return;
    this.done = true;
    const i = stack.lastIndexOf(this.hooks);
    if (i >= 0) stack.splice(i, 1);
  }
}

/**
 * `torch.autograd.graph.savedTensorsHooks(pack, unpack, fn)` runs `fn` with the hooks
 * installed and returns its result; without `fn`, a `using` guard installs them until disposed.
 */
export function savedTensorsHooks(pack: (tensor: Tensor) => unknown, unpack: (packed: unknown) => Tensor): Disposable;
export function savedTensorsHooks<T>(pack: (tensor: Tensor) => unknown, unpack: (packed: unknown) => Tensor, fn: () => T): T;
export function savedTensorsHooks<T>(
  pack: (tensor: Tensor) => unknown,
  unpack: (packed: unknown) => Tensor,
  fn?: () => T,
): T | Disposable {
  if (typeof pack !== 'function' || typeof unpack !== 'function') {
    throw new TorchError('savedTensorsHooks: pack and unpack must be functions');
  }
  const guard = new SavedTensorsHooksGuard({ pack, unpack });
  if (!fn) return guard;
  try {
    return fn();
  } finally {
    guard[Symbol.dispose]();
  }
}
