import { AutogradError, Tensor, isInferenceModeEnabled, type TensorImpl } from '@torch-ts/core';
import { AutogradMeta } from './autograd-meta';
import type { Node } from './node';

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
 *    PyTorch's "backward through the graph a second time" error.
 */
export class SavedVariable {
  private impl: TensorImpl | null;
  private readonly version: number;
  private released = false;

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
    this.impl = isOutput ? impl.regeometried(impl.sizes, impl.strides, impl.storageOffset) : impl.retain();
  }

  unpack(node: Node): Tensor {
    const impl = this.impl;
    if (impl === null) {
      throw new AutogradError(
        `${node.name()}: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retainGraph: true if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.`,
      );
    }
    if (impl.version.version !== this.version) {
      throw new AutogradError(
        `${node.name()}: one of the variables needed for gradient computation has been modified by an inplace operation: [${impl.dtype} [${impl.sizes.join(', ')}]]${this.isOutput ? `, which is output ${this.outputNr} of ${node.name()},` : ''} is at version ${impl.version.version}; expected version ${this.version} instead. Hint: the operation that failed to compute its gradient saved this tensor; do not modify it in place (clone() it first).`,
      );
    }
    if (!this.isOutput) return new Tensor(impl.retain());
    const alias = impl.regeometried(impl.sizes, impl.strides, impl.storageOffset);
    const meta = new AutogradMeta(alias);
    meta.setGradFn(node, this.outputNr);
    alias.autogradMeta = meta;
    return new Tensor(alias);
  }

  get isReleased(): boolean {
    return this.released;
  }

  release(): void {
    this.released = true;
    this.impl?.release();
    this.impl = null;
  }
}
