// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_ } from '../aliases';
import { mm, bmm, mv, dot, matmul } from '../linalg';
import { addmm, baddbmm } from '../linalg-extra';
import { nanToNum, nanToNum_ } from '../logical';
import { clamp, clamp_, clip, clip_, isnan, isinf, isfinite } from '../pointwise-binary';
import { uniform_, normal_ } from '../random';
import { bernoulli_ } from '../random-extra';
import { std, norm, countNonzero, mode } from '../reduction-stats';
import { round, round_ } from '../rounding';
import { sort, argsort, topk, unique, uniqueAsync } from '../sorting';

/** The Tensor methods among the front ends (Note [Tensor methods come from the op table]). */
export const FRONT_METHODS = {
  trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_,
  mm, bmm, mv, dot, matmul,
  addmm, baddbmm,
  nanToNum, nanToNum_,
  clamp, clamp_, clip, clip_, isnan, isinf, isfinite,
  uniform_, normal_,
  bernoulli_,
  std, norm, countNonzero, mode,
  round, round_,
  sort, argsort, topk, unique, uniqueAsync,
};
