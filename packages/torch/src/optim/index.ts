/**
 * `torch.optim` (also `@torch-ts/torch/optim`): optimizers and `lrScheduler`.
 *
 * @module @torch-ts/torch/optim
 */
import '@torch-ts/kernels-cpu';

export { Optimizer, type ParamGroup, type ParamState, type OptimizerStateDict, type OptimizerStateDictInput, type ParamsInput } from './optimizer';
export { SGD, type SGDOptions } from './sgd';
export { Adam, AdamW, type AdamOptions } from './adam';
export { RMSprop, type RMSpropOptions } from './rmsprop';
export { Adagrad, type AdagradOptions } from './adagrad';
export { SparseAdam, type SparseAdamOptions } from './sparse-adam';
export { Adamax, type AdamaxOptions } from './adamax';
export { Adadelta, type AdadeltaOptions } from './adadelta';
export { NAdam, type NAdamOptions } from './nadam';
export { RAdam, type RAdamOptions } from './radam';
export { LBFGS, type LBFGSOptions } from './lbfgs';
export { Rprop, type RpropOptions } from './rprop';
export { ASGD, type ASGDOptions } from './asgd';
export * as lrScheduler from './lr-schedulers';
