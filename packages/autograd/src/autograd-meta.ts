import { AutogradError, TensorImpl, type AutogradMetaInterface, type Tensor } from '@torch-ts/core';
import type { AccumulateGrad, Node } from './node';

/** A tensor hook: user code, so what it returns is checked by the engine (Note [Validating gradients]). */
export type TensorHook = (grad: Tensor) => unknown;

/**
 * Note [AutogradMeta ownership]
 * The autograd state of one TensorImpl (PyTorch's AutogradMeta), created by the factory
 * core calls. It owns one reference on its `grad` and on its `gradFn` (the Node that made
 * the tensor), and none on its grad accumulator: the graph's edges own AccumulateGrad
 * nodes, and an AccumulateGrad owns its leaf TensorImpl, so a leaf pointing back strongly
 * would make a cycle. An AccumulateGrad clears `gradAccumulator` when it dies.
 */
export class AutogradMeta implements AutogradMetaInterface {
  /** The user's flag on a leaf; a non-leaf requires grad because it has a gradFn. */
  leafRequiresGrad = false;
  grad: TensorImpl | null = null;
  /** Core's cached `.grad` handle (Note [Reading .grad]); forgotten, never disposed, when grad changes. */
  gradHandle: object | null = null;
  gradFn: Node | null = null;
  outputNr = 0;
  retainsGrad = false;
  hooks: TensorHook[] = [];
  gradAccumulator: AccumulateGrad | null = null;

  constructor(readonly impl: TensorImpl) {}

  get requiresGrad(): boolean {
    return this.leafRequiresGrad || this.gradFn !== null;
  }

  set requiresGrad(v: boolean) {
    this.leafRequiresGrad = v;
  }

  setGradFn(node: Node | null, outputNr: number): void {
    node?.retain();
    this.gradFn?.release();
    this.gradFn = node;
    this.outputNr = outputNr;
  }

  setGrad(g: TensorImpl | null): void {
    g?.retain();
    this.grad?.release();
    this.grad = g;
    this.gradHandle = null;
  }

  release(): void {
    this.setGrad(null);
    const fn = this.gradFn;
    this.gradFn = null;
    fn?.forgetRetainedGrad(this);
    fn?.release();
    this.hooks = [];
  }
}

/** `impl`'s autograd state, or null (every meta is an AutogradMeta: index.ts registers the factory). */
export function metaOf(impl: TensorImpl): AutogradMeta | null {
  const m = impl.autogradMeta;
  return m instanceof AutogradMeta ? m : null;
}

/** `impl`'s autograd state, made by the factory if it has none. */
export function ensureMeta(impl: TensorImpl): AutogradMeta {
  const m = impl.ensureAutogradMeta();
  if (!(m instanceof AutogradMeta)) throw new AutogradError('autograd: a tensor has no AutogradMeta (is the factory registered?)');
  return m;
}

export function requiresGrad(x: TensorImpl | null): boolean {
  return x?.autogradMeta?.requiresGrad ?? false;
}
