/**
 * `@torch-ts/autograd`: PyTorch's autograd engine. Importing it registers, into core, the
 * AutogradMeta factory, the hooks Tensor uses (backward, requiresGrad_, gradFn, hooks) and
 * an Autograd-key kernel for every differentiable op (Note [Autograd kernels]).
 *
 * @module @torch-ts/autograd
 */
import { registerAutogradHooks, registerAutogradMetaFactory } from '@torch-ts/core';
import { hooks } from './api';
import { AutogradMeta } from './autograd-meta';
import { DERIVATIVES } from './derivatives';
import { registerAutogradKernels, registerDerivative } from './kernels';
import { VIEW_SCATTER_ADD, VIEW_SCATTER_ADD_DERIVATIVE } from './view-scatter';

registerAutogradMetaFactory((impl) => new AutogradMeta(impl));
registerAutogradHooks(hooks);
registerAutogradKernels(DERIVATIVES);
registerDerivative(VIEW_SCATTER_ADD, VIEW_SCATTER_ADD_DERIVATIVE);

export { backward, grad, type GradOptions } from './api';
export { noGrad, enableGrad, inferenceMode, isGradEnabled, setGradEnabled } from './grad-mode';
export { detectAnomaly, isAnomalyEnabled } from './anomaly';
export { Function, FunctionCtx } from './function';
export { savedTensorsHooks, currentSavedTensorsHooks, type SavedTensorsHooks } from './saved-tensors-hooks';
export { gradcheck, gradgradcheck } from './gradcheck';
export { viewScatterAdd } from './view-scatter';
export * as forwardAd from './forward-ad-api';
export * as functional from './functional';
export type { Derivative, DerivativeContext, DerivativeEntry, ForwardContext, NotDifferentiable } from './derivative';
export { Node, AccumulateGrad, type Edge } from './node';
