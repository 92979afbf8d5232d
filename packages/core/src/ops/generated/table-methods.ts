// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { sum, mean, prod, amax, amin, argmax, argmin, logsumexp, all, any } from './table-ops';

/** The Tensor methods of the reduction rows: `x.sum()`, `x.argmax(1)` (Note [Tensor methods come from the op table]). */
export const REDUCTION_METHODS = { sum, mean, prod, amax, amin, argmax, argmin, logsumexp, all, any };
