import { AutogradError } from '../errors';
import type { TensorImpl } from './tensor-impl';

/**
 * Note [Autograd through interfaces]
 * Core never imports autograd (ARCHITECTURE.md). As c10 does with AutogradMetaInterface and
 * VariableHooksInterface, core declares what it needs here and the autograd package
 * registers the implementations on import. Until it does, tensors carry no autograd meta,
 * `requiresGrad` is false, and `backward()` / `requiresGrad_(true)` throw a clear error.
 */
export interface AutogradMetaInterface {
  requiresGrad: boolean;
  /** The accumulated gradient of a leaf (a TensorImpl owned by this meta), or null. */
  grad: TensorImpl | null;
  /** Frees what the meta holds (its grad, its grad_fn reference) when the TensorImpl dies. */
  release(): void;
}

export type AutogradMetaFactory = (impl: TensorImpl) => AutogradMetaInterface;

/** What `Tensor` needs from autograd beyond the meta; registered by the autograd package. */
export interface AutogradHooks {
  setRequiresGrad(impl: TensorImpl, requiresGrad: boolean): void;
  backward(impl: TensorImpl, gradient: TensorImpl | null, options: BackwardOptions): void;
  gradFnName(impl: TensorImpl): string | null;
  isLeaf(impl: TensorImpl): boolean;
  retainGrad(impl: TensorImpl): void;
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
