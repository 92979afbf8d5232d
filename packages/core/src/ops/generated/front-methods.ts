// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_ } from '../aliases';
import { copy_, fill_, zero_, clone, contiguous } from '../copy';
import { clamp, clamp_, clip, clip_, isnan, isinf, isfinite } from '../pointwise-binary';
import { repeat, tile, flip, fliplr, flipud, roll, triu, tril, triu_, tril_, repeatInterleave } from '../reorder';
import { sort, argsort, topk, unique, uniqueAsync } from '../sorting';

/** The Tensor methods among the front ends (Note [Tensor methods come from the op table]). */
export const FRONT_METHODS = {
  trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_,
  copy_, fill_, zero_, clone, contiguous,
  clamp, clamp_, clip, clip_, isnan, isinf, isfinite,
  repeat, tile, flip, fliplr, flipud, roll, triu, tril, triu_, tril_, repeatInterleave,
  sort, argsort, topk, unique, uniqueAsync,
};
