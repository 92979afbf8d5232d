// Generated from packages/core/src/ops/table/ by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

// The activations of the op table that torch.nn.functional has (F.leaky_relu, F.leaky_relu_).
export {
  leakyRelu,
  leakyRelu_,
  elu,
  elu_,
  hardtanh,
  hardtanh_,
  gelu,
  silu,
  mish,
  softplus,
  hardsigmoid,
  hardswish,
} from '@torch-ts/core';
