/**
 * vmap's Batched dispatch key (Note [Batched tensors]): the tensor type, the per-sample
 * fallback and the batching rules, registered once all ops are declared.
 */
import { registerBatchedFallback } from './batched-fallback';
import { registerIndexRules } from './batching-rules-index';
import { registerNnRules } from './batching-rules-nn';
import { registerNnExtraRules } from './batching-rules-nn-extra';
import { registerPointwiseRules } from './batching-rules-pointwise';
import { registerReductionRules } from './batching-rules-reduction';
import { registerShapeRules } from './batching-rules-shape';
import { registerScatterRules } from './batching-rules-scatter';
import { registerViewRules } from './batching-rules-views';

export {
  BatchedTensorImpl,
  isBatchedImpl,
  enterVmapLevel,
  exitVmapLevel,
  vmapLevels,
  vmapLevelSize,
  wrapBatched,
  type VmapLevel,
} from './batched-tensor';
export { batchedFallbackWarned, traceBatchedFallback } from './batched-fallback';
export { toPhysical, fromPhysical, isBatchedTensor, unwrapBatched, makeBatched } from './physical';

let registered = false;

/** Registers the fallback and every rule (idempotent). */
export function registerBatchingRules(): void {
  if (registered) return;
  registered = true;
  registerBatchedFallback();
  registerPointwiseRules();
  registerReductionRules();
  registerViewRules();
  registerNnRules();
  registerNnExtraRules();
  registerShapeRules();
  registerScatterRules();
  registerIndexRules();
}
