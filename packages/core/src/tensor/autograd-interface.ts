import { AutogradError } from '../errors';
import type { TensorImpl } from './tensor-impl';

/**
 * Note [Autograd through interfaces]
 * Core never imports autograd (docs/architecture.md). As c10 does with AutogradMetaInterface and
 * VariableHooksInterface, core declares what it needs here and the autograd package
 * registers the implementations on import. Until it does, tensors carry no autograd meta,
 * `requiresGrad` is false, and `backward()` / `requiresGrad_(true)` throw a clear error.
 */
export interface AutogradMetaInterface {
  requiresGrad: boolean;
  /** The accumulated gradient of a leaf (a TensorImpl owned by this meta), or null. */
  readonly grad: TensorImpl | null;
  /** Replaces `grad` (retaining the new one, releasing the old) and forgets `gradHandle`. */
  setGrad(g: TensorImpl | null): void;
  /** The handle `.grad` reads hand out (Note [Reading .grad]): core's to set, any meta's to forget. */
  gradHandle: object | null;
  /** Frees what the meta holds (its grad, its grad_fn reference) when the TensorImpl dies. */
  release(): void;
}

export type AutogradMetaFactory = (impl: TensorImpl) => AutogradMetaInterface;

/** What `Tensor` needs from autograd beyond the meta; registered by the autograd package. */
export interface AutogradHooks {
  setRequiresGrad(impl: TensorImpl, requiresGrad: boolean): void;
  backward(impl: TensorImpl, gradient: TensorImpl | null, options: BackwardOptions): void;
  gradFnName(impl: TensorImpl): string | null;
  /** The user-facing handle of a tensor's gradFn (name, next functions, Node hooks), or null. */
  gradFn(impl: TensorImpl): GradFnHandle | null;
  /** `detach_()`: the tensor leaves its graph and becomes a leaf that does not require grad. */
  detachInplace(impl: TensorImpl): void;
  isLeaf(impl: TensorImpl): boolean;
  retainGrad(impl: TensorImpl): void;
  /** Whether `retainGrad()` made this non-leaf keep its gradient. */
  retainsGrad(impl: TensorImpl): boolean;
  /** A tensor hook: called with the gradient; a returned tensor replaces it. */
  registerHook(impl: TensorImpl, hook: (grad: unknown) => unknown): { remove(): void };
}

/** What `x.gradFn` gives users: PyTorch's grad_fn object. */
export interface GradFnHandle {
  name(): string;
  /** `[node, inputNr]` per forward input (null where no gradient flows), as `next_functions`. */
  readonly nextFunctions: readonly ([GradFnHandle, number] | null)[];
  /** A Node post-hook: `(gradInputs, gradOutputs) => replacement gradInputs | undefined`. */
  registerHook(hook: (gradInputs: unknown[], gradOutputs: unknown[]) => unknown[] | void): { remove(): void };
  /** A Node pre-hook: `(gradOutputs) => replacement gradOutputs | undefined`. */
  registerPrehook(hook: (gradOutputs: unknown[]) => unknown[] | void): { remove(): void };
}

export interface BackwardOptions {
  retainGraph?: boolean;
  createGraph?: boolean;
  inputs?: readonly unknown[];
}

let factory: AutogradMetaFactory | null = null;
let hooks: AutogradHooks | null = null;

export function registerAutogradMetaFactory(f: AutogradMetaFactory): void {
  factory = f;
}

export function autogradMetaFactory(): AutogradMetaFactory | null {
  return factory;
}

export function registerAutogradHooks(h: AutogradHooks): void {
  hooks = h;
}

export function autogradHooks(): AutogradHooks | null {
  return hooks;
}

/** The hooks, or the error users see when autograd is not loaded. */
export function requireAutogradHooks(op: string): AutogradHooks {
  if (!hooks) {
    throw new AutogradError(
      `${op}: autograd is not available: no autograd engine is registered (import '@torch-ts/autograd', which '@torch-ts/torch' does)`,
    );
  }
  return hooks;
}
