// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

// The front ends core declares that torch.nn.functional has (F.pad, F.interpolate).
export {
} from '@torch-ts/core';
