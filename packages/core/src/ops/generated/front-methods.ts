// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_ } from '../aliases';
import { clamp, clamp_, clip, clip_, isnan, isinf, isfinite } from '../pointwise-binary';
import { softmax, logSoftmax } from '../softmax';
import { sort, argsort, topk, unique, uniqueAsync } from '../sorting';

/** The Tensor methods among the front ends (Note [Tensor methods come from the op table]). */
export const FRONT_METHODS = {
  trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_,
  clamp, clamp_, clip, clip_, isnan, isinf, isfinite,
  softmax, logSoftmax,
  sort, argsort, topk, unique, uniqueAsync,
};
