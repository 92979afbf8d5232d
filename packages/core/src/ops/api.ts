// The user-facing functions of core, re-exported by @torch-ts/torch.
import { AUTOGRAD_KEYS, DispatchKey } from '../dispatch/dispatch-key';
import { FALLTHROUGH, registerFallback } from '../dispatch/dispatcher';
import { installTensorMethods } from './methods';
import { META_IMPLS } from './meta-backend';
import { registerBackend } from './registry';

export * from './pointwise';
export * from './activations';
export * from './pointwise-binary';
export * from './logical';
export * from './reduction';
export * from './linalg';
export * from './copy';
export * from './factories';
export * from './random';
export {
  view,
  asStrided,
  permute,
  transpose,
  select,
  unsqueeze,
  squeeze,
  expand,
  unfold,
  diagonal,
  detach,
  sliceDim,
  type DiagonalOptions,
} from './views';
export * from './shape-ops';
export { index } from './indexing';
export type { Scalar } from './meta-utils';
export type { TensorMethods } from './methods';

installTensorMethods();
registerBackend(DispatchKey.Meta, META_IMPLS);
// Until the autograd package registers kernels, the autograd and view-tracking keys pass
// every call straight down to the backend.
for (const k of [...AUTOGRAD_KEYS, DispatchKey.ADInplaceOrView]) registerFallback(k, FALLTHROUGH);
