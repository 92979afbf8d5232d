/**
 * The OpInfo table: one entry per op of the facade (Note [OpInfo] in op-info/types.ts).
 * Families live in op-info/<family>.ts; their golden cases in goldens/ops_<family>.json.
 */
import { ACTIVATION_OPS } from './op-info/activations';
import { LINALG_OPS } from './op-info/linalg';
import { ADDC_OPS, BINARY_MATH_OPS, CLAMP_OPS, CLASSIFY_OPS, LERP } from './op-info/binary';
import { BITWISE_OPS, CLIP, LOGICAL_OPS, NAN_TO_NUM } from './op-info/logical';
import { POINTWISE_OPS } from './op-info/pointwise';
import { REDUCTION_OPS } from './op-info/reductions';
import type { OpInfo } from './op-info/types';

export * from './op-info/types';
export { DEFAULT_TOLERANCE } from './op-info/common';

export const OP_TABLE: readonly OpInfo[] = [...POINTWISE_OPS, ...ACTIVATION_OPS, ...BINARY_MATH_OPS, ...CLAMP_OPS, LERP, ...ADDC_OPS, ...CLASSIFY_OPS, ...LOGICAL_OPS, ...BITWISE_OPS, NAN_TO_NUM, CLIP, ...REDUCTION_OPS, ...LINALG_OPS];
