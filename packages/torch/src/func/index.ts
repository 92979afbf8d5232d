/**
 * `torch.func`: composable function transforms (PyTorch's torch.func / functorch): `vmap`,
 * `grad`, `gradAndValue`, `vjp`, `jvp`, `jacrev`, `jacfwd`, `hessian`, `functionalCall`, `stackModuleState`.
 */
export { vmap, type VmapOptions, type InDims, type InDim } from './vmap';
export { grad, gradAndValue, vjp, vjpWithAux, jacrev, hessian, type GradOptions } from './grad';
export { jvp, jacfwd } from './forward';
export { functionalCall, stackModuleState, type TensorDict } from './functional-call';
