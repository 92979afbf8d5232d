/**
 * `torch.optim` (also `@torch-ts/torch/optim`): optimizers and `lrScheduler`.
 *
 * @module @torch-ts/torch/optim
 */
import '@torch-ts/kernels-cpu';

export { Optimizer, type ParamGroup, type ParamState, type OptimizerStateDict, type ParamsInput } from './optimizer';
export { SGD, type SGDOptions } from './sgd';
export { Adam, AdamW, type AdamOptions } from './adam';
export { RMSprop, type RMSpropOptions } from './rmsprop';
export { Adagrad, type AdagradOptions } from './adagrad';
export * as lrScheduler from './lr-scheduler';
