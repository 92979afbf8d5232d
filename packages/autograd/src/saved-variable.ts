import { setTangent } from './forward-ad';
import { AutogradError, Tensor, isInferenceModeEnabled, keep, tidy, type TensorImpl, type VersionCounter } from '@torch-ts/core';
import { AutogradMeta, ensureMeta } from './autograd-meta';
import type { Node } from './node';
import { currentSavedTensorsHooks } from './saved-tensors-hooks';

/**
 * Note [Saved variables]
 * What a backward formula reads, captured at forward time (PyTorch's SavedVariable):
 *  - the version of the tensor's data is recorded; unpacking after an in-place change is
 *    PyTorch's "modified by an inplace operation" error;
 *  - an input is kept as is (the same TensorImpl, so a double backward reaches its history);
 *  - an output of the saving node is kept as an alias of its data WITHOUT autograd meta,
 *    since the output's gradFn is the node itself and a strong reference back would be a
 *    cycle that refcounting never frees. Unpacking gives a fresh alias whose gradFn is the
 *    node, so formulas that use the result still build a differentiable graph;
 *  - `release()` (after a backward without retainGraph) frees the data; unpacking then is
 *    PyTorch's "backward through the graph a second time" error;
 *  - under saved tensors hooks (Note [Saved tensors hooks]) it keeps what `pack` returned
 *    and the version counter instead of the data, and unpacks through `unpack`.
 */
export class SavedVariable {
  private impl: TensorImpl | null = null;
  private readonly version: number;
  private readonly counter: VersionCounter;
  private released = false;
  private fwSource: AutogradMeta | null = null;
  /** Under saved tensors hooks: what `pack` returned, and the `unpack` to give it back with. */
  private packed: unknown = null;
  private unpackHook: ((packed: unknown) => Tensor) | null = null;

  constructor(
    impl: TensorImpl,
    private readonly isOutput: boolean,
    private readonly outputNr = 0,
  ) {
    if (impl.version.inference && !isInferenceModeEnabled()) {
      // core Note [Inference tensors]: its version was not tracked, so no check could hold
      throw new AutogradError(
        'Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal tensor and use it in autograd.',
      );
    }
    this.version = impl.version.version;
    this.counter = impl.version;
    // (an output's tangent is set after it is saved: the unpacked alias reads it from the
    // output's meta when unpacked, as PyTorch's SavedVariable shares the ForwardGrad)
    if (isOutput) this.fwSource = ensureMeta(impl);
    const own = isOutput ? impl.regeometried(impl.sizes, impl.strides, impl.storageOffset) : impl.retain();
    const hooks = currentSavedTensorsHooks();
    if (hooks === null) {
      this.impl = own;
      return;
    }
    const handle = keep(new Tensor(own));
    let packed: unknown;
    try {
      packed = tidy(() => hooks.pack(handle));
    } catch (e) {
      handle.dispose();
      throw e;
    }
    if (packed instanceof Tensor) keep(packed);
    if (packed !== handle) handle.dispose(); // the hook dropped the activation: free it now
    this.packed = packed;
    this.unpackHook = hooks.unpack;
  }

  unpack(node: Node): Tensor {
    if (this.released) {
      throw new AutogradError(
        `${node.name()}: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retainGraph: true if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.`,
      );
    }
    const impl = this.impl ?? this.unpacked(node);
    if (this.counter.version !== this.version) {
      throw new AutogradError(
        `${node.name()}: one of the variables needed for gradient computation has been modified by an inplace operation: [${impl.dtype} [${impl.sizes.join(', ')}]]${this.isOutput ? `, which is output ${this.outputNr} of ${node.name()},` : ''} is at version ${this.counter.version}; expected version ${this.version} instead. Hint: the operation that failed to compute its gradient saved this tensor; do not modify it in place (clone() it first).`,
      );
    }
    if (!this.isOutput) return new Tensor(impl.retain());
    const alias = impl.regeometried(impl.sizes, impl.strides, impl.storageOffset);
    const meta = new AutogradMeta(alias);
    meta.setGradFn(node, this.outputNr);
    alias.autogradMeta = meta;
    // (a saved output keeps its tangent: forward-over-reverse reads it, Note [Forward-mode AD])
    const fw = this.fwSource?.fwGrad ?? null;
    if (fw) setTangent(alias, fw);
    return new Tensor(alias);
  }

  get isReleased(): boolean {
    return this.released;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.fwSource = null;
    this.impl?.release();
    this.impl = null;
    const p = this.packed as Partial<Disposable> | null;
    if (p !== null && typeof p === 'object' && typeof p[Symbol.dispose] === 'function') p[Symbol.dispose]!(); // a tensor, a checkpoint holder
    this.packed = null;
    this.unpackHook = null;
  }

  /** The data `unpack` gives back under saved tensors hooks (Note [Saved tensors hooks]). */
  private unpacked(node: Node): TensorImpl {
    const t: unknown = this.unpackHook!(this.packed);
    if (!(t instanceof Tensor)) {
      throw new AutogradError(`${node.name()}: Output of saved tensor unpack_hook expected to be a Tensor but got result of type ${t === null ? 'null' : typeof t}`);
    }
    return t.impl;
  }
}
