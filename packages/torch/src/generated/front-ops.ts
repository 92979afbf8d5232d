// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

// The front ends core declares that torch.* has (torch.sort, torch.topk).
export {
  where,
  clamp,
  clamp_,
  clip,
  clip_,
  isnan,
  isinf,
  isfinite,
  sort,
  argsort,
  topk,
  unique,
  uniqueAsync,
  searchsorted,
  bucketize,
  trueDivide,
  floorDivide,
  square,
  square_,
  numel,
  isFloatingPoint,
  isInference,
} from '@torch-ts/core';
