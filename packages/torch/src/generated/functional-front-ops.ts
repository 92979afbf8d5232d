// Generated from the front ends core declares (front(...) in packages/core/src/ops/) by packages/core/scripts/gen-op-table.ts: do not edit.
// Regenerate with `pnpm gen:ops` at the repository root.

// The front ends core declares that torch.nn.functional has (F.pad, F.interpolate).
export {
  selu,
  selu_,
  relu6,
  conv1d,
  conv2d,
  convTranspose2d,
  im2col as unfold,
  col2im as fold,
  nllLoss,
  crossEntropy,
  mseLoss,
  l1Loss,
  smoothL1Loss,
  binaryCrossEntropy,
  binaryCrossEntropyWithLogits,
  linear,
  embedding,
  oneHot,
  dropout,
  batchNorm,
  layerNorm,
  groupNorm,
  avgPool2d,
  adaptiveAvgPool2d,
  pad,
  softmax,
  logSoftmax,
} from '@torch-ts/core';
