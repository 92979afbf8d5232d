import type { KernelOpName } from '@torch-ts/core';
import type { DerivativeTable } from '../derivative';
import { BINARY_DERIVATIVES } from './binary';
import { COPY_DERIVATIVES } from './copies';
import { INDEXING_DERIVATIVES } from './indexing';
import { LINALG_DERIVATIVES } from './linalg';
import { NN_DERIVATIVES } from './nn';
import { JOIN_DERIVATIVES } from './join';
import { SORTING_DERIVATIVES } from './sorting';
import { LINALG_EXTRA_DERIVATIVES } from './linalg-extra';
import { LINALG_SOLVE_DERIVATIVES } from './linalg-solve';
import { LINALG_SVD_DERIVATIVES } from './linalg-svd';
import { LINALG_QR_DERIVATIVES } from './linalg-qr';
import { FFT_DERIVATIVES } from './fft';
import { LINALG_EIG_DERIVATIVES } from './linalg-eig';
import { SPATIAL_DERIVATIVES } from './spatial';
import { POINTWISE_DERIVATIVES } from './pointwise';
import { ACTIVATION_TABLE_DERIVATIVES, BINARY_TABLE_DERIVATIVES, REDUCTION_TABLE_DERIVATIVES, TABLE_DERIVATIVES, TERNARY_TABLE_DERIVATIVES } from './table';
import { REDUCTION_DERIVATIVES } from './reductions';
import { STATS_DERIVATIVES } from './reductions-stats';
import { VIEW_DERIVATIVES } from './views';
import { withForwardFormulas } from './forward-formulas';
import { SPARSE_DERIVATIVES } from './sparse';

/**
 * The derivative of every op with kernels (Note [Derivatives are data]), keyed by the op's
 * dispatcher name. Typed against KERNEL_OP_NAMES (Note [Ops that need a derivative]): an op
 * without an entry, or an entry for no such op, does not compile.
 */
const TABLE = {
  ...COPY_DERIVATIVES,
  ...VIEW_DERIVATIVES,
  ...LINALG_DERIVATIVES,
  ...LINALG_EIG_DERIVATIVES,
  ...TABLE_DERIVATIVES,
  ...BINARY_TABLE_DERIVATIVES,
  ...ACTIVATION_TABLE_DERIVATIVES,
  ...TERNARY_TABLE_DERIVATIVES,
  ...POINTWISE_DERIVATIVES,
  ...BINARY_DERIVATIVES,
  ...REDUCTION_DERIVATIVES,
  ...REDUCTION_TABLE_DERIVATIVES,
  ...INDEXING_DERIVATIVES,
  ...NN_DERIVATIVES,
  ...STATS_DERIVATIVES,
  ...JOIN_DERIVATIVES,
  ...SORTING_DERIVATIVES,
  ...LINALG_EXTRA_DERIVATIVES,
  ...LINALG_SOLVE_DERIVATIVES,
  ...LINALG_SVD_DERIVATIVES,
  ...LINALG_QR_DERIVATIVES,
  ...FFT_DERIVATIVES,
  ...SPATIAL_DERIVATIVES,
  ...SPARSE_DERIVATIVES,
} satisfies DerivativeTable;

/** The table, with the explicit JVP formulas attached (Note [Explicit JVP formulas]). */
export const DERIVATIVES: typeof TABLE = withForwardFormulas(TABLE);

// `satisfies` does not check the keys that spreads bring in: refuse a key that names no op.
type UnknownOps = Exclude<keyof typeof TABLE, KernelOpName>;
const onlyKnownOps: [UnknownOps] extends [never] ? true : UnknownOps = true;
void onlyKnownOps;

export type { Derivative, DerivativeArgs, DerivativeContext, DerivativeEntry, DerivativeFamily, DerivativeOf, DerivativeTable, NotDifferentiable } from '../derivative';
