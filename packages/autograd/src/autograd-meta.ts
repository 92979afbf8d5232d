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
  private fn: Node | null = null;
  /** The storage version when `fn` was set (Note [Stale view histories]). */
  private fnVersion = 0;
  outputNr = 0;
  retainsGrad = false;
  hooks: TensorHook[] = [];
  gradAccumulator: AccumulateGrad | null = null;
  /**
   * The tangent at the (one) forward AD level, PyTorch's ForwardGrad (Note [Forward-mode AD]):
   * one reference owned here; forward-ad.ts sets and clears it.
   */
  fwGrad: TensorImpl | null = null;
  /**
   * Set on an input that a custom Function returned as-is (the message of the error): PyTorch
   * makes it a view created in a custom Function, which may not be modified in place
   * (Note [Inputs returned as-is by a custom Function] in function.ts).
   */
  customFunctionView: string | null = null;

  constructor(readonly impl: TensorImpl) {}

  get requiresGrad(): boolean {
    return this.leafRequiresGrad || this.gradFn !== null;
  }

  set requiresGrad(v: boolean) {
    this.leafRequiresGrad = v;
  }

  /**
   * Note [Stale view histories]
   * A differentiable view's history is its base's as of the view's making. An in-place op on
   * the base, or on another view of it, gives the base a new history (CopySlices) and bumps
   * the storage's version; PyTorch then regenerates the view's gradFn from the base's new one
   * when it is next read, and so does this getter: a view whose gradFn was set (a view made
   * while the base required grad) and whose version moved since gets a window onto the base's
   * current history (ViewOfBase, which also knows dtype views and the conjugate bit). Without
   * it, `v = z[0]; z.mul_(2); v.sum().backward()` would miss the mul, and so would every
   * complex in-place op, which writes through a view of its operand's parts.
   */
  get gradFn(): Node | null {
    const base = this.impl.base;
    if (base !== null && this.fn !== null && this.fnVersion !== this.impl.version.version) {
      this.fnVersion = this.impl.version.version;
      const node = regenerateView?.(this.impl, base) ?? null;
      if (node) {
        this.fn.release();
        this.fn = node; // (born with the reference this meta owns)
        this.outputNr = 0;
      }
    }
    return this.fn;
  }

  setGradFn(node: Node | null, outputNr: number): void {
    node?.retain();
    this.fn?.release();
    this.fn = node;
    this.fnVersion = this.impl.version.version;
    this.outputNr = outputNr;
  }

  setGrad(g: TensorImpl | null): void {
    g?.retain();
    this.grad?.release();
    this.grad = g;
    this.gradHandle = null;
  }

  setFwGrad(t: TensorImpl | null): void {
    t?.retain();
    this.fwGrad?.release();
    this.fwGrad = t;
  }

  release(): void {
    this.setGrad(null);
    this.setFwGrad(null);
    const fn = this.fn;
    this.fn = null;
    fn?.forgetRetainedGrad(this);
    fn?.release();
    this.hooks = [];
  }
}

let regenerateView: ((view: TensorImpl, base: TensorImpl) => Node | null) | null = null;

/** How a stale view's gradFn is remade from its base's (copy-slices.ts; Note [Stale view histories]). */
export function setViewRegenerator(f: (view: TensorImpl, base: TensorImpl) => Node | null): void {
  regenerateView = f;
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
