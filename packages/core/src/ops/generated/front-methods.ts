// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

import { trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_ } from '../aliases';
import { gather, scatter_, scatter, scatterAdd_, scatterAdd, scatterReduce_, scatterReduce, indexSelect, indexAdd_, indexAdd, take, indexFill_, indexFill } from '../gather-scatter';
import { indexPut_, indexPut } from '../indexing';
import { maskedFill_, maskedFill, maskedScatter_, maskedScatter, maskedSelect, maskedSelectAsync } from '../masked';
import { clamp, clamp_, clip, clip_, isnan, isinf, isfinite } from '../pointwise-binary';
import { cumsum, cumsum_, cumprod, cumprod_, cummax, cummin } from '../scan';
import { sort, argsort, topk, unique, uniqueAsync } from '../sorting';

/** The Tensor methods among the front ends (Note [Tensor methods come from the op table]). */
export const FRONT_METHODS = {
  trueDivide, floorDivide, trueDivide_, floorDivide_, square, square_,
  gather, scatter_, scatter, scatterAdd_, scatterAdd, scatterReduce_, scatterReduce, indexSelect, indexAdd_, indexAdd, take, indexFill_, indexFill,
  indexPut_, indexPut,
  maskedFill_, maskedFill, maskedScatter_, maskedScatter, maskedSelect, maskedSelectAsync,
  clamp, clamp_, clip, clip_, isnan, isinf, isfinite,
  cumsum, cumsum_, cumprod, cumprod_, cummax, cummin,
  sort, argsort, topk, unique, uniqueAsync,
};
