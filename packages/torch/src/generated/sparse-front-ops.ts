// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

// The front ends core declares that torch.sparse has (torch.sparse.mm, torch.sparse.addmm).
export {
  sparseMm as mm,
  sparseAddmm as addmm,
  sparseSum as sum,
} from '@torch-ts/core';
