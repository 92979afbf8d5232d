// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { sort, argsort, topk, unique, uniqueAsync } from '../sorting';

/** The Tensor methods among the front ends (Note [Tensor methods come from the op table]). */
export const FRONT_METHODS = {
  sort, argsort, topk, unique, uniqueAsync,
};
