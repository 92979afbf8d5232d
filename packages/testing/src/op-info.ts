/**
 * The OpInfo table: one entry per op of the facade (Note [OpInfo] in op-info/types.ts).
 * Families live in op-info/<family>.ts; their golden cases in goldens/ops_<family>.json, and
 * the complex cases of all of them in goldens/ops_complex.json (op-info/complex.ts).
 */
import { ACTIVATION_OPS } from './op-info/activations';
import { LINALG_OPS } from './op-info/linalg';
import { BINARY_MATH_OPS, CLAMP_OPS, CLASSIFY_OPS, TERNARY_OPS } from './op-info/binary';
import { CLIP, ISCLOSE, NAN_TO_NUM } from './op-info/logical';
import { POINTWISE_OPS } from './op-info/pointwise';
import { REDUCTION_OPS } from './op-info/reductions';
import { STATS_OPS } from './op-info/reductions-stats';
import { NAN_STATS_OPS } from './op-info/nan-stats';
import { HISTOGRAM_OPS } from './op-info/histograms';
import { ROUND } from './op-info/rounding';
import { SHAPE_OPS } from './op-info/shape';
import { SORTING_OPS } from './op-info/sorting';
import { LINALG_EXTRA_OPS } from './op-info/linalg-extra';
import { LINALG_MISC_OPS } from './op-info/linalg-misc';
import { LINALG_SOLVE_OPS } from './op-info/linalg-solve';
import { LINALG_SVD_OPS } from './op-info/linalg-svd';
import { LINALG_QR_OPS } from './op-info/linalg-qr';
import { NN_OPS } from './op-info/nn';
import type { OpInfo } from './op-info/types';
import { INDEXING_OPS } from './op-info/indexing';
import { SPATIAL_OPS } from './op-info/spatial';
import { withComplex } from './op-info/complex';

export * from './op-info/types';
export { DEFAULT_TOLERANCE } from './op-info/common';

const ENTRIES: readonly OpInfo[] = [...POINTWISE_OPS, ...ACTIVATION_OPS, ...BINARY_MATH_OPS, ...CLAMP_OPS, ...TERNARY_OPS, ...CLASSIFY_OPS, NAN_TO_NUM, CLIP, ISCLOSE, ROUND, ...REDUCTION_OPS, ...STATS_OPS, ...NAN_STATS_OPS, ...HISTOGRAM_OPS, ...LINALG_OPS, ...SHAPE_OPS, ...SORTING_OPS, ...LINALG_EXTRA_OPS, ...NN_OPS, ...INDEXING_OPS, ...SPATIAL_OPS, ...LINALG_MISC_OPS, ...LINALG_SOLVE_OPS, ...LINALG_SVD_OPS, ...LINALG_QR_OPS];

/** The entries, with complex support where they have it (Note [Complex OpInfo]). */
export const OP_TABLE: readonly OpInfo[] = ENTRIES.map(withComplex);
